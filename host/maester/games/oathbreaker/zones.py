"""Small helpers over the Oathbreaker game data `g`: seats, decks, cubes, the tracks.

Seats sit clockwise 0..n-1; the seat on a player's left is the next one clockwise. The monarchs
(the King, and the Queen with 8 players) are not nobles: they hold no influence cards, no loyalty
and no Hand of the King marker.

Cards are instances ("sabotage#3"); the static record of a card is `info(g, inst)`, from the card
table that `g["table"]` names (engine/cardtables.py).
"""

from ...engine import cardtables

RES = ("coin", "honor", "power")
TYPES = ("crown", "raven", "sword")
STEPS = {}  # every step handler of the game, by name


def step(fn):
    """Register a step handler under its function name."""
    STEPS[fn.__name__] = fn
    return fn


def cid(inst):
    return inst.split("#", 1)[0]


# The table last looked up, as (key, table, cards). The rules read the card table several times a
# decision (a card's icons, a character's ability), and the registry is a call into another module
# each time; a key is the hash of its table's content, so a key seen before always names the same
# cards. One tuple, replaced whole: games played on threads (a Dask worker's) never see a key with
# another's table. `cards` is derived from the table alone (by_instance), never part of the state.
_LAST = (None, None, None)


def by_instance(cards):
    """{instance or card id: (its info record, its influence effects or None)}: what the rules look
    up for a card, without splitting the instance's name at every look-up (a split is a list and
    two strings, the most of a look-up's cost)."""
    info, eff = cards["info"], cards["eff"]
    out = {c: (rec, eff.get(c)) for c, rec in info.items()}
    for kind in ("influence_instances", "mission_instances", "decree_instances", "ambition_instances"):
        for inst in cards.get(kind, ()):  # (a test's own table may leave a kind out)
            c = inst.split("#", 1)[0]
            out[inst] = (info[c], eff.get(c))
    return out


def _look_up(key):
    global _LAST
    t = cardtables.get(key)
    last = _LAST = (key, t, by_instance(t))
    return last


def table(g):
    """The game's card table (kept out of the state: `g["table"]` is its key)."""
    last = _LAST
    if g["table"] != last[0]:
        last = _look_up(g["table"])
    return last[1]


def card(g, inst):
    """(info record, influence effects or None) of a card instance ("sabotage#3") or card id."""
    last = _LAST
    if g["table"] != last[0]:
        last = _look_up(g["table"])
    by = last[2]
    hit = by.get(inst)
    if hit is None:  # an instance the table does not list (a test's own): look up its card id
        c = inst.split("#", 1)[0]
        hit = (last[1]["info"][c], last[1]["eff"].get(c))
    return hit


def info(g, inst):
    return card(g, inst)[0]


def nobles_from(g, start):
    """The nobles clockwise, starting at `start` (or the first noble after it)."""
    n = g["n"]
    monarchs = g["monarchs"]
    return [s for s in ((start + i) % n for i in range(n)) if s not in monarchs]


def turn_order(g):
    """Nobles clockwise from the Hand of the King."""
    return nobles_from(g, g["hand_of_king"])


def next_noble(g, seat):
    return nobles_from(g, seat + 1)[0]


def judged_by(g, monarch):
    """The nobles a monarch plays decrees on and judges (all of them unless there is a Queen)."""
    return [s for s in g["nobles"] if g["judge"][s] == monarch]


def partner(g, monarch):
    """The other monarch at 8 players, or None."""
    others = [m for m in g["monarchs"] if m != monarch]
    return others[0] if others else None


def monarch_eyes(g, monarch):
    """Who sees a monarch's decree hand: the monarch, and the partner at 8 players."""
    return list(g["monarchs"]) if monarch in g["monarchs"] else [monarch]


# --- influence cards ------------------------------------------------------------------------

def net(g, inst, mtype):
    m, s = card(g, inst)[1][mtype]
    return m - s


def reshuffle(ctx):
    """The discard pile becomes the new deck: shuffled by the host, or (observed) by hand."""
    g = ctx.g
    g["deck"] = g["discard"]
    g["discard"] = []
    g["deck"].sort()  # the pile's order says nothing; the shuffle below decides the new order
    if not g["observe_hands"]:
        ctx.chance.shuffle(g["deck"])
    g["reshuffles"] += 1
    ctx.emit("deck_reshuffled", cards=len(g["deck"]))


def take_from_deck(ctx):
    """The top influence card, reshuffling the discard pile into a new deck when the deck is out."""
    g = ctx.g
    if not g["deck"]:
        if not g["discard"]:
            return None
        reshuffle(ctx)
    return g["deck"].pop()


# --- observed decks (config observe: ["hands"]): see observe.py -------------------------------------

def influence_choices(ctx):
    """What a seat tapping influence cards is offered: every influence card not face up on a mission.

    The same for every seat and built from public facts only, so the list tells nothing."""
    up = {c for m in ctx.g["missions"] for c in m["face_up"]}
    return [["card", c] for c in sorted(table(ctx.g)["influence_instances"]) if c not in up]


def decree_choices(g):
    """What a seat tapping decrees is offered: every decree not in play (the deck and the monarchs' hands)."""
    return [["card", c] for c in sorted(g["decree_deck"] + [c for m in g["monarchs"] for c in g["decree_hands"][m]])]


def decree_on_top(g, inst):
    """Whether `inst` may be the top card of an observed decree deck.

    Its order is unknown but for the Proclamations put under it (`decree_known`, at its bottom)."""
    deck, known = g["decree_deck"], g["decree_known"]
    if len(deck) > known:
        return inst in deck[known:]
    return bool(deck) and deck[-1] == inst


def take_decree(g, inst):
    deck = g["decree_deck"]
    if deck.index(inst) < g["decree_known"]:
        g["decree_known"] -= 1
    deck.remove(inst)


def decree_to_bottom(g, inst):
    g["decree_deck"].insert(0, inst)
    if g["observe_hands"]:
        g["decree_known"] += 1


def draw(ctx, seat, k, why):
    """`seat` draws up to `k` influence cards; only that seat learns which."""
    g = ctx.g
    if g["observe_hands"]:
        return observe_draws(ctx, [[seat, k]], why)
    got = []
    for _ in range(k):
        inst = take_from_deck(ctx)
        if inst is None:
            break
        got.append(inst)
    g["hands"][seat] += got
    if ctx.events is not None:  # (quiet: no events to build)
        if got:
            ctx.record("drew", {"seat": seat, "cards": got, "why": why}, [seat])
        ctx.record("draws", {"seat": seat, "count": len(got), "why": why})
    if len(got) < k:
        ctx.emit("deck_empty", seat=seat, short=k - len(got))
    return got


def refill(ctx, seat):
    """Draw until the hand holds three cards; a bigger hand is kept as it is."""
    g = ctx.g
    short = g["hand_size"] - len(g["hands"][seat])
    if short > 0:
        draw(ctx, seat, short, "refill")


def discard_from_hand(ctx, seat, inst, why):
    """Face down: everyone learns that a card went, only the seat which."""
    g = ctx.g
    g["hands"][seat].remove(inst)
    g["discard"].append(inst)
    ctx.emit("discarded", vis=[seat], seat=seat, card=inst, why=why)
    ctx.emit("discards", seat=seat, count=1, why=why)


# --- decrees ----------------------------------------------------------------------------------

def observe_draws(ctx, wants, why):
    """Observed: queue the taps of the cards each [seat, k] of `wants` draws (up to what is left)."""
    g = ctx.g
    need = []
    room = {"influence": len(g["deck"]) + len(g["discard"]), "decree": len(g["decree_deck"])}
    for seat, k in wants:
        kind = "decree" if seat in g["monarchs"] else "influence"
        take = min(max(0, k), room[kind])
        room[kind] -= take
        if take:
            need.append([seat, take, []])
        elif kind == "influence":
            ctx.emit("draws", seat=seat, count=0, why=why)
        else:
            ctx.emit("decree_draws", seat=seat, count=0)
        if kind == "influence" and take < k:
            ctx.emit("deck_empty", seat=seat, short=k - take)
    if need:
        ctx.push({"s": "observe_cards", "need": need, "why": why})
    return []


def draw_decrees(ctx, monarch):
    g = ctx.g
    hand = g["decree_hands"][monarch]
    if g["observe_hands"]:
        return observe_draws(ctx, [[monarch, g["decree_hand_size"] - len(hand)]], "refill")
    got = []
    while len(hand) < g["decree_hand_size"] and g["decree_deck"]:
        inst = g["decree_deck"].pop()
        hand.append(inst)
        got.append(inst)
    if got:
        ctx.emit("drew_decrees", vis=monarch_eyes(g, monarch), seat=monarch, cards=got)
    ctx.emit("decree_draws", seat=monarch, count=len(got))


def decree_counts(g):
    """Decrees each noble holds that bind the monarchs' spread rule (not Daenerys's sideways ones)."""
    counts = [0] * g["n"]
    for seat, held in enumerate(g["decrees"]):
        counts[seat] = sum(1 for d in held if not d["sideways"])
    return counts


def spread_targets(g, monarch):
    """Nobles a monarch may play a Favor or Suspicion on: those with the fewest decrees of their side."""
    side = judged_by(g, monarch)
    counts = decree_counts(g)
    low = min(counts[s] for s in side)
    return [s for s in side if counts[s] == low]


# --- cubes and tracks ---------------------------------------------------------------------------

def payments(cubes, cost):
    """Every way to pay `cost` cubes from [coin, honor, power]."""
    out = []
    coin, honor, power = cubes  # C integers in the compiled build (zones.pxd)
    k = cost
    for c in range(min(k, coin) + 1):
        for h in range(min(k - c, honor) + 1):
            p = k - c - h
            if p <= power:
                out.append([c, h, p])
    return out


def gain(ctx, seat, amounts, why):
    """Give `seat` cubes: {"coin": 1, ...} (zero entries ignored)."""
    cubes = ctx.g["cubes"][seat]
    got = {}
    for i in range(3):  # (a C loop in the compiled build, where `amounts` is a dict: zones.pxd)
        r = RES[i]
        k = amounts.get(r, 0)
        if k:
            cubes[i] += k
            got[r] = k
    if got and ctx.events is not None:  # (quiet: no event to build)
        ctx.record("cubes", {"seat": seat, "gained": got, "why": why})


def move(ctx, track, k, why, **about):
    """Move the Order or Chaos marker `k` spaces (never below 0). `about`: whom it concerns, for the
    log's words (the seat whose decrees moved it)."""
    g = ctx.g
    before = g[track]
    g[track] = max(0, before + k)
    if g[track] != before:
        fields = {"by": g[track] - before, "to": g[track], "why": why}
        if about:
            fields.update(about)
        ctx.record(track, fields)  # emit's event, without its keyword parsing


# --- a noble's play to the missions ---------------------------------------------------------------

def play_state(g, seat):
    """(played, needed, room, targets, must) for a noble's turn.

    `room` is how many more cards they may play, `targets` the missions the next card may go to,
    `must` the Infiltrate Dorne missions still owed a card. Everything here is public: hand sizes,
    counts and restrictions, never which cards.
    """
    hand = g["hands"][seat]
    ms = g["missions"]
    barred = g["barred"]
    played = 0
    allowed = []
    must = []
    for i in range(len(ms)):  # one pass over the missions (asked at every card of every turn)
        m = ms[i]
        mine = m["counts"][seat]
        played += mine
        if not barred or [seat, i] not in barred:
            allowed.append(i)
            if mine == 0 and m["ability"] == "must_play_here":
                must.append(i)
    limit = g["cells_plays"] if seat in g["cells"] else None
    room = len(hand) if limit is None else max(0, min(len(hand), limit - played))
    if not allowed:
        room = 0
    targets = must if must and room <= len(must) else allowed
    needed = min(g["min_plays"] if limit is None else limit, played + len(hand))
    return played, needed, room, targets, must


def play_card(ctx, seat, inst, i, face_up=False):
    g = ctx.g
    m = g["missions"][i]
    g["hands"][seat].remove(inst)
    m["cards"].append(inst)
    m["counts"][seat] += 1
    g["mine"][seat].append([inst, i])
    if face_up:
        m["face_up"].append(inst)
    if ctx.events is None:  # a quiet command keeps no events: build none (a play is half the decisions)
        return
    if face_up:
        ctx.record("played", {"seat": seat, "mission": i, "card": inst, "face_up": True})
    else:
        ctx.record("played", {"seat": seat, "mission": i})
        ctx.record("played_card", {"seat": seat, "mission": i, "card": inst}, [seat])


def character(g, seat):
    c = g["characters"][seat]
    return card(g, c)[0] if c else None


def ambition_met(g, seat):
    amb = info(g, g["ambition"][seat])
    return all(have >= amb[r] for have, r in zip(g["cubes"][seat], RES))
