"""Small helpers over the B'Twixt game data `g`: seats, councils, cards, the ally source, tokens.

Seats sit clockwise 0..n-1. The player on a seat's left is the next one clockwise, so council `i`
lies between seat `i` and seat `i+1`: it is seat i's left council and seat i+1's right council.
"""

from ...engine import cardtables

SEASONS = ("summer", "autumn", "winter")
STEPS = {}  # every step handler of the game, by name


def step(fn):
    """Register a step handler under its function name."""
    STEPS[fn.__name__] = fn
    return fn


def left_council(g, seat):
    return seat


def right_council(g, seat):
    return (seat - 1) % g["n"]


def councils_of(g, seat):
    return (seat, (seat - 1) % g["n"])


def other_council(g, seat, council):
    left, right = councils_of(g, seat)
    return right if council == left else left


def seats_of(g, council):
    """The two neighbours sharing `council`."""
    return (council, (council + 1) % g["n"])


def neighbour_via(g, seat, council):
    a, b = seats_of(g, council)
    return b if a == seat else a


def clockwise_from(g, start):
    n = g["n"]
    return [(start + i) % n for i in range(n)]


def table(g):
    """The game's card table (kept out of the state: `g["table"]` is its key)."""
    return cardtables.get(g["table"])


_NONE = frozenset()
_FACTS = {}  # table key -> _index(table), worked out once per process


def facts(g):
    """What the rules ask of card instances at every turn, indexed once per card table, so a turn
    reads a set instead of looking each card up: `with[ability]`, the instances with that ability
    (The Silence, Royal Decree, Pulling the Strings...); `foreign[leader]`, the leader cards of the
    other leaders (only the Kingsmoot draft lets a leader play those); `leader_cards`, every leader's;
    `value`, each influence card's; `base`, each instance's card; `card`, each instance's printed
    record; `ability`, each instance's ability key (instances without one are absent); `play`, the
    turn's choice of playing each influence card and `kneel` its choice of kneeling, and
    `edit[op]` each card's choice of a change by hand (abilities.manual_choices), made once and
    offered by every ask (no ask's choice is ever changed in place; they are plain JSON lists)."""
    cache = _FACTS  # compiled, a C dict: a turn asks this two or three times
    got = cache.get(g["table"])
    if got is None:
        got = cache[g["table"]] = _index(cardtables.get(g["table"]))
    return got


def having(g, ability_key, known=None):
    """The card instances with an ability (a frozenset; empty for an ability no card has). `known`:
    facts(g), when the caller has it at hand."""
    if known is None:
        known = facts(g)
    withs = known["with"]
    return withs.get(ability_key, _NONE)


def _index(tbl):
    info = tbl["info"]
    instances = [i for name in ("standard_instances", "event_instances", "leader_instances", "ally_instances")
                 for i in tbl[name]]
    base = {i: i.split("#", 1)[0] for i in instances}
    leader_of = {i: info[b]["leader"] for i, b in base.items() if info[b].get("kind") == "leader"}
    by_ability = {}
    for inst, ab in tbl["ability_of"].items():
        by_ability.setdefault(ab, set()).add(inst)
    return {"base": base, "card": {i: info[b] for i, b in base.items()}, "ability": tbl["ability_of"],
            "foreign": {l: frozenset(i for i, own in leader_of.items() if own != l) for l in tbl["leaders"]},
            "leader_cards": frozenset(leader_of),
            "value": {i: info[b]["value"] for i, b in base.items() if "value" in info[b]},
            "with": {ab: frozenset(insts) for ab, insts in by_ability.items()},
            "play": {i: ["play", i] for i in instances}, "kneel": ["kneel"],
            "edit": {op: {i: [op, i] for i in instances} for op in ("kill", "take_bid", "bid_to_hand", "discard")}}


def card(g, inst):
    """The static record of a card instance ('betrayal#2' → Betrayal's data)."""
    return facts(g)["card"][inst]


def ability(g, inst):
    return facts(g)["ability"].get(inst)


def holder(g, inst):
    """The leader whose bid pile holds `inst` ("you" on an influence card), or None."""
    for seat, pile in enumerate(g["bids"]):
        if inst in pile:
            return seat
    return None


def bid_total(g, seat):
    value = facts(g)["value"]
    total = 0
    for c in g["bids"][seat]:  # a loop, not sum() of a generator: compiled, a cpdef may hold no closure
        total += value[c]
    return total


def ranking(g):
    """Seats by influence total, ties to whoever is closest clockwise from the first player."""
    order = clockwise_from(g, g["first"])
    totals = {s: bid_total(g, s) for s in order}
    # Highest first; a sort is stable reversed too, so ties keep the clockwise order (no lambda a seat).
    return sorted(order, key=totals.__getitem__, reverse=True), totals


def discard_card(ctx, inst, reason, seen_by=None):
    """Send an influence card to the discard pile, or out of the game if leader-specific.

    `seen_by` is the one seat that may know the card when it leaves a hand unseen (the hands
    thrown in at a season's end); the others only learn that a leader card left the game.
    """
    g = ctx.g
    if inst in facts(g)["leader_cards"] and not g["kingsmoot"]:
        if seen_by is None:
            g["removed"].append(inst)
            ctx.emit("removed", card=inst, why=reason)
        else:
            g["removed_unseen"].append(inst)
            ctx.emit("removed", vis=[seen_by], card=inst, why=reason)
            ctx.emit("removed", vis=[s for s in range(g["n"]) if s != seen_by] + ["public"],
                     seat=seen_by, why=reason)
    else:
        g["discard"].append(inst)


def protected(g, inst):
    """Royal Decree: while in a bid pile, other influence abilities cannot move or discard it."""
    return inst in having(g, "royal_decree")


# --- the ally source: the deck, or the ally row in the revealed-allies variant --------------
#
# With a simulated deck the engine shuffles and knows the order. On a real table the deck is
# shuffled by hand: `ally_deck` is then only the set of allies nobody has seen, and each ally that
# comes off the deck is learned from a tap (the `observe_ally` step) before the step that uses it
# runs. `allies_ready` queues those taps.

def allies_ready(ctx, st, k):
    """True when `k` allies can be drawn now; otherwise queue taps for them, then `st` again."""
    g = ctx.g
    if not g["observe_allies"]:
        return True
    k = min(k, len(g["observed"]) + len(g["ally_deck"]))
    missing = k - len(g["observed"])
    if missing <= 0:
        return True
    ctx.push(*[{"s": "observe_ally"} for _ in range(missing)], st)
    return False


def next_ally_from_deck(ctx):
    return _deck_top(ctx.g)


def _deck_top(g):
    if g["observe_allies"]:
        return g["observed"].pop(0) if g["observed"] else None
    return g["ally_deck"].pop() if g["ally_deck"] else None


def next_ally(ctx):
    """Reveal the next ally: the deck top, or (revealed variant) the next in the row."""
    g = ctx.g
    if g["revealed"]:
        top = _deck_top(g)
        if top is not None:
            g["row"].append(top)
        return g["row"].pop(0) if g["row"] else None
    return _deck_top(g)


def take_top_allies(ctx, k):
    """Take the top `k` allies for a look; in the revealed variant the first comes from the row."""
    g = ctx.g
    taken = []
    if g["revealed"] and g["row"]:
        taken.append(g["row"].pop(0))
    while len(taken) < k:
        top = _deck_top(g)
        if top is None:
            break
        taken.append(top)
    return taken


def put_allies_on_top(ctx, ordered):
    """Put allies back on top, `ordered[0]` topmost; in the revealed variant, at the row's front."""
    g = ctx.g
    if g["revealed"]:
        g["row"][0:0] = ordered
    elif g["observe_allies"]:
        g["ally_deck"].extend(ordered)  # back among the unseen; the table knows their order
    else:
        g["ally_deck"].extend(reversed(ordered))


@step
def observe_ally(ctx, st, answer):
    """The table taps the ally that came off the deck (on the shared reader)."""
    g = ctx.g
    if answer is None:
        ctx.ask("table", "observe_ally", [["ally", a] for a in sorted(g["ally_deck"])],
                "Tap the next ally from the top of the ally deck.", public="waiting for the next ally")
        return
    ally = answer[1][1]
    g["ally_deck"].remove(ally)
    g["observed"].append(ally)


def kill(ctx, inst, where):
    """Move an ally to the dead pile. Tokens lying on a killed current ally go back to the supply."""
    g = ctx.g
    if where == "current":
        g["current"] = None
        for tok in g["current_tokens"]:
            return_token(ctx, tok)
        g["current_tokens"] = []
    else:
        g["councils"][where]["allies"].remove(inst)
    g["dead"].append(inst)
    ctx.emit("killed", ally=inst, where=where)


# --- power tokens: values are drawn by the host and seen by nobody until scoring --------------

def gain_token(ctx, seat, council, why="bid"):
    g = ctx.g
    if not g["supply"]:
        ctx.emit("supply_empty", seat=seat)
        return None
    tok = g["supply"].pop()
    g["councils"][council]["tokens"].append(tok)
    ctx.emit("token_gained", seat=seat, council=council, token=tok, why=why)
    return tok


def return_token(ctx, tok):
    """Back into the face-down supply at a random depth, as if mixed in."""
    supply = ctx.g["supply"]
    supply.insert(ctx.chance.below(len(supply) + 1), tok)
    ctx.emit("token_returned", token=tok)


def council_power(g, council):
    info = table(g)["info"]
    c = g["councils"][council]
    return (sum(info[a.split("#", 1)[0]]["power"] for a in c["allies"])
            + sum(g["token_value"][t] for t in c["tokens"]))


def highest_ally_councils(g, seat):
    """Sansa Stark: the claimer's councils that hold their highest-power ally."""
    info = table(g)["info"]
    best, found = -1, []
    for c in councils_of(g, seat):
        for a in g["councils"][c]["allies"]:
            p = info[a.split("#", 1)[0]]["power"]
            if p > best:
                best, found = p, [c]
            elif p == best and c not in found:
                found.append(c)
    return found
