"""B'Twixt setup and the steps of a season and a round (claim, clean up, pass, advance).

Each step is a function `(ctx, step, answer)`; `answer` is None on a first run and `(ask, choice)`
when a seat answered this step's ask. See engine/core.py for the pipeline.
"""

from ...engine import cardtables
from . import zones as Z
from .abilities import on_play, when_claimed
from .zones import SEASONS, step


def setup(ctx, config):
    g = ctx.g
    cards = cardtables.get(config["cards"])
    comp = cards["components"]
    n = config["players"]
    variants = set(config["variants"])
    g.update({
        "n": n, "table": config["cards"],
        "advanced": "advanced" in variants, "draft": "draft" in variants or "kingsmoot" in variants,
        "kingsmoot": "kingsmoot" in variants, "revealed": "revealed" in variants,
        "first": config["first"], "round_space": comp["time_track"]["start_space"][str(n)],
        "last_space": comp["time_track"]["round_spaces"] - 1,
        "hands": [[] for _ in range(n)], "bids": [[] for _ in range(n)], "knelt": [False] * n,
        "councils": [{"allies": [], "tokens": []} for _ in range(n)],
        "current": None, "current_tokens": [], "row": [], "dead": [],
        "discard": [], "removed": [], "removed_unseen": [], "events_aside": [], "leader_cards": [[] for _ in range(n)],
        "peeks": [], "round": {}, "rounds_played": 0, "draft_state": None, "seasons_begun": 0,
        "observe_allies": "allies" in config["observe"], "observe_hands": "hands" in config["observe"],
        "observed": [], "events_owed": 0,
    })
    starts = comp["time_track"]["short_start_season" if "short" in variants else "start_season"]
    g["season"] = SEASONS.index(starts[str(n)])

    leaders = config.get("leaders") or []
    pool = [l for l in cards["leaders"] if l not in leaders]
    ctx.chance.shuffle(pool)
    g["leaders"] = list(leaders) + pool[: n - len(leaders)]

    g["ally_deck"] = list(cards["ally_instances"])
    if not g["observe_allies"]:
        ctx.chance.shuffle(g["ally_deck"])

    supply = []
    for value, count in sorted(comp["power_tokens"]["values"].items()):
        supply += [int(value)] * count
    ctx.chance.shuffle(supply)
    g["supply"] = list(_token_names(len(supply)))
    g["token_value"] = {t: v for t, v in zip(g["supply"], supply)}

    deck = list(cards["standard_instances"])
    if g["kingsmoot"]:
        deck += cards["event_instances"] + cards["leader_instances"]
    else:
        if g["advanced"]:
            g["events_aside"] = list(cards["event_instances"])
            by_leader = cards["leader_card_instances"]
            g["leader_cards"] = [list(by_leader.get(l, [])) for l in g["leaders"]]
    g["deck"] = deck if g["observe_hands"] else ctx.chance.shuffle(deck)
    ctx.emit("setup", players=n, leaders=g["leaders"], first=g["first"], variants=sorted(variants),
             season=SEASONS[g["season"]], round_space=g["round_space"])
    ctx.push({"s": "season_start", "first": True})


_TOKEN_NAMES = {}  # a count -> the names of that many power tokens, t1..tN: worked out once, not each game


def _token_names(count):
    names = _TOKEN_NAMES.get(count)
    if names is None:
        names = _TOKEN_NAMES[count] = tuple("t%d" % (i + 1) for i in range(count))
    return names


# --- seasons ----------------------------------------------------------------------------------

@step
def season_start(ctx, st, answer):
    g = ctx.g
    if not st["first"]:
        ended = SEASONS[g["season"] - 1]
        for seat in range(g["n"]):
            for inst in g["hands"][seat]:
                Z.discard_card(ctx, inst, "season end", seen_by=seat)
            g["hands"][seat] = []
        g["deck"] += g["discard"]
        g["discard"] = []
        if g["advanced"] and not g["kingsmoot"]:
            k = Z.table(g)["components"]["events_added"][str(g["n"])].get(ended, 0)
            if g["observe_hands"]:
                # Shuffled in by hand: which ones is learned when they are dealt and tapped.
                g["events_owed"] += min(k, len(g["events_aside"]) - g["events_owed"])
            for _ in range(0 if g["observe_hands"] else min(k, len(g["events_aside"]))):
                g["deck"].append(g["events_aside"].pop(ctx.chance.below(len(g["events_aside"]))))
            if k:
                ctx.emit("events_added", count=k)
        if not g["observe_hands"]:
            ctx.chance.shuffle(g["deck"])
    ctx.emit("season", season=SEASONS[g["season"]])
    hand_size = 9 if g["advanced"] and not g["kingsmoot"] else 10
    g["seasons_begun"] += 1
    steps = []
    if g["observe_hands"]:
        # Whether events were shuffled in is fixed before anyone taps: the list offered then stays
        # the same whichever events the others turn out to hold.
        steps.append({"s": "observe_hands", "size": hand_size, "events": g["events_owed"] > 0})
    else:
        for seat in range(g["n"]):
            dealt = [g["deck"].pop() for _ in range(min(hand_size, len(g["deck"])))]
            if len(dealt) < hand_size:
                ctx.emit("deck_short", seat=seat, dealt=len(dealt))
            g["hands"][seat] = dealt
    if g["draft"]:
        # Packs go left in the first season, then alternate direction each season.
        steps.append({"s": "draft", "dir": 1 if g["seasons_begun"] % 2 else -1})
    ctx.push(*steps, {"s": "deal_leader_cards"}, {"s": "fill_row"}, {"s": "round_start"})
    if not g["observe_hands"]:
        for seat in range(g["n"]):
            ctx.emit("hand", vis=[seat], seat=seat, cards=list(g["hands"][seat]))


@step
def observe_hands(ctx, st, answer):
    """On a real table each leader taps the cards they were dealt on their own reader.

    Every leader is offered the same list (all cards not in a public place, with every event set
    aside when some were shuffled in), so the list never shows what another leader has already
    tapped: it does not shrink to the events the others were dealt.
    """
    g = ctx.g
    if answer is not None:
        seat, inst = answer[0]["seat"], answer[1][1]
        if inst in g["events_aside"] and g["events_owed"] and len(g["hands"][seat]) < st["size"]:
            g["events_aside"].remove(inst)
            g["events_owed"] -= 1
            g["hands"][seat].append(inst)
            ctx.emit("tapped_into_hand", vis=[seat], seat=seat, card=inst)
        elif inst in g["deck"] and len(g["hands"][seat]) < st["size"]:
            g["deck"].remove(inst)
            g["hands"][seat].append(inst)
            ctx.emit("tapped_into_hand", vis=[seat], seat=seat, card=inst)
        else:
            ctx.emit("tap_refused", vis=[seat], seat=seat, card=inst,
                     why="already recorded in a hand" if inst not in g["deck"] else "hand complete")
    pending = [s for s in range(g["n"]) if len(g["hands"][s]) < st["size"] and g["deck"]]
    open_for = {a["seat"] for a in ctx.state["asks"]}
    unseen = sorted(g["deck"] + [c for h in g["hands"] for c in h]
                    + (g["events_aside"] if st.get("events") else []))
    for seat in pending:
        if seat not in open_for:
            ctx.ask(seat, "observe_hand", [["card", c] for c in unseen],
                    "Tap each card you were dealt (%d of %d)." % (len(g["hands"][seat]) + 1, st["size"]),
                    public="tapping their new hand")


@step
def deal_leader_cards(ctx, st, answer):
    """Advanced game: one random card of the leader's own four joins each new hand."""
    g = ctx.g
    if not g["advanced"] or g["kingsmoot"]:
        return
    if answer is not None:
        seat, inst = answer[0]["seat"], answer[1][1]
        g["leader_cards"][seat].remove(inst)
        g["hands"][seat].append(inst)
        ctx.emit("leader_card", vis=[seat], seat=seat, card=inst)
        return
    for seat in range(g["n"]):
        own = g["leader_cards"][seat]
        if not own:
            continue
        if g["observe_hands"]:
            ctx.ask(seat, "observe_leader_card", [["card", c] for c in own],
                    "Draw one of your own leader cards at random and tap it.", public="drawing a leader card")
            continue
        inst = own.pop(ctx.chance.below(len(own)))
        g["hands"][seat].append(inst)
        ctx.emit("leader_card", vis=[seat], seat=seat, card=inst)


@step
def fill_row(ctx, st, answer):
    """Revealed allies: the row holds one more ally than there are players at each season start."""
    g = ctx.g
    if not g["revealed"] or not Z.allies_ready(ctx, st, g["n"] + 1 - len(g["row"])):
        return
    while len(g["row"]) < g["n"] + 1:
        ally = Z.next_ally_from_deck(ctx)
        if ally is None:
            break
        g["row"].append(ally)
    ctx.emit("ally_row", row=list(g["row"]))


@step
def draft(ctx, st, answer):
    """Draft: keep one card, pass the rest; repeat until the packs are empty. Picks are secret."""
    g = ctx.g
    n = g["n"]
    d = g["draft_state"]
    if d is None:
        d = g["draft_state"] = {"packs": g["hands"], "kept": [[] for _ in range(n)], "dir": st["dir"]}
        g["hands"] = [[] for _ in range(n)]
        ctx.emit("draft", direction="left" if st["dir"] == 1 else "right")
    if answer is not None:
        ask, choice = answer
        seat = ask["seat"]
        d["packs"][seat].remove(choice[1])
        d["kept"][seat].append(choice[1])
    if ctx.state["asks"]:
        return  # others still choosing from this round of packs
    if answer is not None:
        # Everyone kept a card: pass the packs.
        d["packs"] = [d["packs"][(seat - d["dir"]) % n] for seat in range(n)]
    if not any(d["packs"]):
        g["hands"] = d["kept"]
        g["draft_state"] = None
        for seat in range(n):
            ctx.emit("hand", vis=[seat], seat=seat, cards=list(g["hands"][seat]))
        return
    for seat in range(n):
        if d["packs"][seat]:
            ctx.ask(seat, "draft", [["keep", c] for c in d["packs"][seat]],
                    "Keep one card; the rest pass on.", public="drafting")


# --- a round ----------------------------------------------------------------------------------

@step
def round_start(ctx, st, answer):
    g = ctx.g
    if not (g["revealed"] and g["row"]) and not Z.allies_ready(ctx, st, 1):
        return
    g["round"] = {"effects": [], "arianne_used": False, "ignore_pts": False}
    g["knelt"] = [False] * g["n"]
    if g["revealed"] and g["row"]:
        g["current"] = g["row"].pop(0)
    else:
        g["current"] = Z.next_ally_from_deck(ctx)
    g["current_tokens"] = []
    if g["current"] is None:
        ctx.emit("no_ally")
    else:
        ctx.emit("ally_revealed", ally=g["current"])
        ab = Z.ability(g, g["current"])
        if ab in ("jaime", "arianne"):
            g["round"]["effects"].append(ab)
    ctx.push({"s": "turn", "seat": g["first"], "second": False}, {"s": "claim"})


def _playable(g, seat, facts):
    hand = g["hands"][seat]
    if not g["kingsmoot"]:
        # Only the Kingsmoot draft lets a leader play another leader's cards (one Varys took).
        foreign = facts["foreign"][g["leaders"][seat]]
        if _any_in(hand, foreign):
            hand = [c for c in hand if c not in foreign]
    if "jaime" not in g["round"]["effects"]:
        return hand
    base = facts["base"]
    in_bids = {base[c] for pile in g["bids"] for c in pile}
    return [c for c in hand if base[c] not in in_bids]


def silenced(g, seat, facts=None):
    """The Silence lies in this leader's bid pile ("you" follows the card). `facts`: Z.facts(g), when
    the caller has it at hand."""
    pile = g["bids"][seat]
    return bool(pile) and _any_in(pile, Z.having(g, "the_silence", facts))


def _any_in(cards, group):
    """Whether any of the list `cards` is in the set `group`: not group.isdisjoint(cards), without a
    method call (compiled, a C loop; hands and bid piles are a few cards)."""
    for c in cards:
        if c in group:
            return True
    return False


def _offer_turn(ctx, st, g, facts):
    """Ask the first leader from st["seat"] on who has not knelt to play a card or kneel (a cpdef
    with C types in the compiled build: half of every bidding decision runs here)."""
    n = g["n"]
    seat = st["seat"]
    knelt = g["knelt"]
    for _ in range(n):
        if not knelt[seat]:
            break
        seat = (seat + 1) % n
    else:
        return  # everyone knelt: the claim step runs next
    st["seat"] = seat
    plays = facts["play"]  # each card's choice list, made once per card table, not once a turn
    choices = [plays[c] for c in _playable(g, seat, facts)]
    choices.append(facts["kneel"])
    if st["second"]:
        prompt = "The Silence: play a second card, or kneel now."
    else:
        if silenced(g, seat, facts) and knelt.count(False) > (not knelt[seat]):
            choices.append(["skip"])
        prompt = "Play an influence card or kneel."
    ctx.ask(seat, "turn", choices, prompt, "bidding")  # public words by position: no keyword to parse


@step
def turn(ctx, st, answer):
    if answer is None:
        _offer_turn(ctx, st, ctx.g, Z.facts(ctx.g))
    else:
        _take_turn(ctx, st, answer[0]["seat"], answer[1])


def _take_turn(ctx, st, seat, choice):
    """A leader's answer to their turn: kneel, skip (The Silence), or play a card, whose ability
    steps run before the next turn (a cpdef with C types in the compiled build, as _offer_turn)."""
    g = ctx.g
    nxt = {"s": "turn", "seat": (seat + 1) % g["n"], "second": False}
    if choice[0] == "kneel":
        kneel(ctx, seat)
        ctx.push(nxt)
    elif choice[0] == "skip":
        ctx.emit("skip", seat=seat)
        ctx.push(nxt)
    else:
        facts = Z.facts(g)
        inst = choice[1]
        silent_turn = silenced(g, seat, facts)
        g["hands"][seat].remove(inst)
        if ctx.events is not None:  # a quiet command (core.answer: the bots' games) keeps no events: build none
            ctx.record("play", {"seat": seat, "card": inst})  # emit's event, without its keyword parsing
        after = nxt
        if silent_turn and not st["second"]:
            after = {"s": "turn", "seat": seat, "second": True}
        elif silent_turn:
            after = {"s": "kneel_now", "seat": seat, "then": nxt}
        ability = facts["ability"]
        ctx.push(*on_play(g, seat, inst, ability.get(inst)), after)


@step
def land(ctx, st, answer):
    """After its ability resolved, a played card joins its player's bid pile."""
    ctx.g["bids"][st["seat"]].append(st["card"])


@step
def kneel_now(ctx, st, answer):
    kneel(ctx, st["seat"])
    ctx.push(st["then"])


def kneel(ctx, seat):
    g = ctx.g
    g["knelt"][seat] = True
    if ctx.events is not None:  # (quiet: no event to build; a kneel is a fifth of the decisions)
        ctx.record("kneel", {"seat": seat})
    rnd = g["round"]
    if "arianne" in rnd["effects"] and not rnd["arianne_used"] and g["bids"][seat]:
        # Arianne Martell: the first leader to kneel with a non-empty bid pile takes it back.
        rnd["arianne_used"] = True
        g["hands"][seat] += g["bids"][seat]
        ctx.emit("bid_to_hand", seat=seat, cards=list(g["bids"][seat]), why="arianne")
        g["bids"][seat] = []


@step
def claim(ctx, st, answer):
    g = ctx.g
    order, totals = Z.ranking(g)
    winner = order[0]
    g["round"]["winner"] = winner
    g["round"]["order"] = order
    ctx.emit("bid_won", seat=winner, totals=[totals[s] for s in range(g["n"])])
    steps = []
    if g["current"] is not None:
        steps.append({"s": "place_ally", "seat": winner, "ally": g["current"], "from": "current",
                      "pts": not g["round"]["ignore_pts"]})
    steps.append({"s": "place_token", "seat": winner})
    matchmakers = Z.having(g, "matchmaker")
    for _ in range(sum(1 for p in g["bids"] for c in p if c in matchmakers)):
        steps.append({"s": "claim_next", "seat": winner, "into": None, "pts": False})
    steps += [{"s": "triumphs"}, {"s": "cleanup"}]
    ctx.push(*steps)


def pts_council(g, seat):
    """Pulling the Strings: the council the winner must use, or None if they may choose."""
    counts = {}
    strings = Z.having(g, "pulling_the_strings")
    for c in Z.councils_of(g, seat):
        k = 0
        for x in g["bids"][Z.neighbour_via(g, seat, c)]:  # a loop: a cpdef may hold no generator
            if x in strings:
                k += 1
        counts[c] = k
    (c1, n1), (c2, n2) = counts.items()
    if n1 == n2:
        return None
    return c1 if n1 > n2 else c2


def placement_options(g, seat, ally, pts, into=None):
    """Councils the claimer may put `ally` in.

    An ally's placement ability overrides the other rules where they conflict. Sansa Stark's
    leaves a choice when the claimer has no ally yet or two strongest allies of equal power; the
    council another rule binds her to (Pulling the Strings, Ser Loras Tyrell's) then decides.
    """
    ab = Z.ability(g, ally)
    both = list(Z.councils_of(g, seat))
    if ab == "free_placement":
        return both
    if ab == "sansa":
        options = Z.highest_ally_councils(g, seat) or both
        bound = into if into is not None else pts_council(g, seat) if pts else None
        return [bound] if bound in options else options
    if ab == "loras":
        renly = [c for c in both if any(a.startswith("renly-baratheon#") for a in g["councils"][c]["allies"])]
        if renly:
            return renly[:1]
    if into is not None:
        return [into]
    if pts:
        forced = pts_council(g, seat)
        if forced is not None:
            return [forced]
    return both


@step
def place_ally(ctx, st, answer):
    g = ctx.g
    seat, ally = st["seat"], st["ally"]
    if answer is None:
        options = placement_options(g, seat, ally, st["pts"], st.get("into"))
        if len(options) > 1:
            ctx.ask(seat, "place_ally", [["council", c] for c in options],
                    "Choose the council for %s." % Z.card(g, ally)["name"], public="placing an ally")
            return
        council = options[0]
    else:
        council = answer[1][1]
    if st["from"] == "current":
        g["current"] = None
    g["councils"][council]["allies"].append(ally)
    ctx.emit("ally_claimed", seat=seat, ally=ally, council=council)
    if st["from"] == "current":
        for tok in g["current_tokens"]:
            g["councils"][council]["tokens"].append(tok)
            ctx.emit("token_gained", seat=seat, council=council, token=tok, why="on the ally")
        g["current_tokens"] = []
    ctx.push(*when_claimed(g, seat, ally, council))


@step
def place_token(ctx, st, answer):
    """The bid winner gains a face-down power token; Pulling the Strings binds it too."""
    g = ctx.g
    seat = st["seat"]
    if answer is None:
        if not g["supply"]:
            ctx.emit("supply_empty", seat=seat)
            return
        forced = pts_council(g, seat)
        if forced is None:
            ctx.ask(seat, "place_token", [["council", c] for c in Z.councils_of(g, seat)],
                    "Choose the council for your power token.", public="placing a power token")
            return
        council = forced
    else:
        council = answer[1][1]
    Z.gain_token(ctx, seat, council)


@step
def claim_next(ctx, st, answer):
    """Reveal the next ally and claim it (Ser Loras Tyrell, Matchmaker)."""
    if not Z.allies_ready(ctx, st, 1):
        return
    ally = Z.next_ally(ctx)
    if ally is None:
        ctx.emit("no_ally")
        return
    ctx.emit("ally_revealed", ally=ally, extra=True)
    ctx.push({"s": "place_ally", "seat": st["seat"], "ally": ally, "from": "extra",
              "pts": st["pts"], "into": st["into"]})


@step
def triumphs(ctx, st, answer):
    """Bribery returns to the hand of the leader it lies in front of."""
    g = ctx.g
    bribery = Z.having(g, "bribery")
    for seat in range(g["n"]):
        for inst in list(g["bids"][seat]):
            if inst in bribery:
                g["bids"][seat].remove(inst)
                g["hands"][seat].append(inst)
                ctx.emit("bid_to_hand", seat=seat, cards=[inst], why="bribery")


@step
def cleanup(ctx, st, answer):
    g = ctx.g
    winner = g["round"]["winner"]
    plans = Z.having(g, "contingency_plan")
    for seat in range(g["n"]):
        for inst in g["bids"][seat]:
            if inst in plans and seat != winner:
                g["hands"][seat].append(inst)
                ctx.emit("bid_to_hand", seat=seat, cards=[inst], why="contingency plan")
            else:
                Z.discard_card(ctx, inst, "clean up")
        g["bids"][seat] = []
    g["knelt"] = [False] * g["n"]
    g["peeks"] = []
    g["first"] = (g["first"] + 1) % g["n"]
    g["rounds_played"] += 1
    ctx.emit("first_player", seat=g["first"])
    if g["round_space"] < g["last_space"]:
        g["round_space"] += 1
        ctx.emit("round", round_space=g["round_space"])
        ctx.push({"s": "round_start"})
    elif g["season"] == len(SEASONS) - 1:
        score(ctx)
    else:
        g["round_space"] = Z.table(g)["components"]["time_track"]["start_space"][str(g["n"])]
        g["season"] += 1
        ctx.emit("round", round_space=g["round_space"])
        ctx.push({"s": "season_start", "first": False})


def score(ctx):
    """Reveal the tokens; the strongest small council wins, then the other council, then allies."""
    g = ctx.g
    power = [Z.council_power(g, c) for c in range(g["n"])]
    rows = []
    for seat in range(g["n"]):
        a, b = (power[c] for c in Z.councils_of(g, seat))
        allies = sum(len(g["councils"][c]["allies"]) for c in Z.councils_of(g, seat))
        rows.append({"seat": seat, "small": min(a, b), "other": max(a, b), "allies": allies})
    key = lambda r: (r["small"], r["other"], r["allies"])  # noqa: E731
    best = max(key(r) for r in rows)
    winners = [r["seat"] for r in rows if key(r) == best]
    g["revealed_tokens"] = True
    ctx.emit("tokens_revealed", values=dict(g["token_value"]))
    ctx.end({"winners": winners, "scores": rows, "council_power": power,
             "rounds": g["rounds_played"]})
