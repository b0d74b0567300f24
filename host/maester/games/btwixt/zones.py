"""Small helpers over the B'Twixt game data `g`: seats, councils, cards, the ally source, tokens.

Seats sit clockwise 0..n-1. The player on a seat's left is the next one clockwise, so council `i`
lies between seat `i` and seat `i+1`: it is seat i's left council and seat i+1's right council.
"""

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


def card(g, inst):
    """The static record of a card instance ('betrayal#2' → Betrayal's data)."""
    return g["info"][inst.split("#", 1)[0]]


def ability(g, inst):
    return g["ability_of"].get(inst)


def holder(g, inst):
    """The leader whose bid pile holds `inst` ("you" on an influence card), or None."""
    for seat, pile in enumerate(g["bids"]):
        if inst in pile:
            return seat
    return None


def bid_total(g, seat):
    info = g["info"]
    return sum(info[c.split("#", 1)[0]]["value"] for c in g["bids"][seat])


def ranking(g):
    """Seats by influence total, ties to whoever is closest clockwise from the first player."""
    order = clockwise_from(g, g["first"])
    totals = {s: bid_total(g, s) for s in order}
    return sorted(order, key=lambda s: -totals[s]), totals


def discard_card(ctx, inst, reason):
    """Send an influence card to the discard pile, or out of the game if leader-specific."""
    g = ctx.g
    if card(g, inst)["kind"] == "leader" and not g["kingsmoot"]:
        g["removed"].append(inst)
        ctx.emit("removed", card=inst, why=reason)
    else:
        g["discard"].append(inst)


def protected(g, inst):
    """Royal Decree: while in a bid pile, other influence abilities cannot move or discard it."""
    return ability(g, inst) == "royal_decree"


# --- the ally source: the deck, or the ally row in the revealed-allies variant --------------

def next_ally(ctx):
    """Reveal the next ally: the deck top, or (revealed variant) the next in the row."""
    g = ctx.g
    if g["revealed"]:
        if g["ally_deck"]:
            g["row"].append(g["ally_deck"].pop())
        return g["row"].pop(0) if g["row"] else None
    return g["ally_deck"].pop() if g["ally_deck"] else None


def take_top_allies(ctx, k):
    """Take the top `k` allies for a look; in the revealed variant the first comes from the row."""
    g = ctx.g
    taken = []
    if g["revealed"] and g["row"]:
        taken.append(g["row"].pop(0))
    while len(taken) < k and g["ally_deck"]:
        taken.append(g["ally_deck"].pop())
    return taken


def put_allies_on_top(ctx, ordered):
    """Put allies back on top, `ordered[0]` topmost; in the revealed variant, at the row's front."""
    g = ctx.g
    if g["revealed"]:
        g["row"][0:0] = ordered
    else:
        g["ally_deck"].extend(reversed(ordered))


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
    info = g["info"]
    c = g["councils"][council]
    return (sum(info[a.split("#", 1)[0]]["power"] for a in c["allies"])
            + sum(g["token_value"][t] for t in c["tokens"]))


def highest_ally_councils(g, seat):
    """Sansa Stark: the claimer's councils that hold their highest-power ally."""
    info = g["info"]
    best, found = -1, []
    for c in councils_of(g, seat):
        for a in g["councils"][c]["allies"]:
            p = info[a.split("#", 1)[0]]["power"]
            if p > best:
                best, found = p, [c]
            elif p == best and c not in found:
                found.append(c)
    return found
