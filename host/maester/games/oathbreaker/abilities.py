"""Ability keys the card data may name, and the Character Abilities.

A character's ability is used at most once a round, at the moment its `timing` names, by paying
its cost in any mix of cubes (they go back to the supply). Abilities whose text is not public are
`manual`: the players resolve them by hand and the engine records each change (manual.py).
Decree abilities live in decrees.py, mission abilities in missions.py.
"""

from . import zones as Z
from .zones import step

CHARACTER_ABILITIES = frozenset({"arya", "daenerys", "melisandre", "stannis", "manual"})
DECREE_ABILITIES = frozenset({"black_cells", "confess", "execution", "vote", "spy", "broken_trust", "cornered",
                              "manual"})
MISSION_ABILITIES = frozenset({"extra_cards", "discard_one", "must_play_here", "extra_sabotage", "pincer", "manual"})
INFLUENCE_ABILITIES = frozenset()  # influence cards act through their icons only
AMBITION_ABILITIES = frozenset()
TIMINGS = ("mission_turn", "missions_played", "decree_round")
STANNIS_DRAW = 6


def choices(g, seat, timing, room=0):
    """["ability", coin, honor, power] for each way to pay, if the ability may be used now."""
    if g["used"][seat]:
        return []
    rec = Z.character(g, seat)
    if rec is None:
        return []
    key = rec["ability"]
    if key is None or rec["timing"] != timing:
        return []
    if key == "arya" and not room:
        return []
    if key == "melisandre" and not [m for m in g["missions"] if m["cards"]]:  # (no generator: a cpdef, abilities.pxd)
        return []
    if key == "daenerys" and not g["decree_deck"]:
        return []
    return [["ability"] + p for p in Z.payments(g["cubes"][seat], rec["cost"])]


def pay(ctx, seat, payment):
    g = ctx.g
    cubes = g["cubes"][seat]
    for i in range(3):
        cubes[i] -= payment[i]
    g["used"][seat] = True
    ctx.emit("ability", seat=seat, character=g["characters"][seat],
             paid={r: k for r, k in zip(Z.RES, payment) if k})


def steps_for(g, seat):
    key = Z.character(g, seat)["ability"]
    if key == "manual":
        return [{"s": "manual", "seat": seat, "subject": seat, "what": g["characters"][seat]}]
    return [{"s": "ab_" + key, "seat": seat}]


# --- Arya Stark ---------------------------------------------------------------------------------

@step
def ab_arya(ctx, st, answer):
    """One card face up to a mission: helps → a cube of her choice; hurts → draw two; neither → discard two."""
    g = ctx.g
    seat = st["seat"]
    if answer is None:
        room, targets = Z.play_state(g, seat)[2:4]
        if not room:
            return
        ctx.ask(seat, "arya", [["face_up", c, i] for c in g["hands"][seat] for i in targets],
                "Arya Stark: play one card face up to a mission.", public="playing a card face up")
        return
    _, inst, i = answer[1]
    Z.play_card(ctx, seat, inst, i, face_up=True)
    effect = Z.net(g, inst, g["missions"][i]["type"])
    if effect > 0:
        ctx.emit("arya", seat=seat, outcome="helps")
        ctx.push({"s": "take_cube", "seat": seat})
    elif effect < 0:
        ctx.emit("arya", seat=seat, outcome="hurts")
        Z.draw(ctx, seat, 2, "arya")
    else:
        ctx.emit("arya", seat=seat, outcome="neutral")
        ctx.push({"s": "discard_cards", "seat": seat, "left": 2, "why": "arya"})


@step
def take_cube(ctx, st, answer):
    if answer is None:
        ctx.ask(st["seat"], "cube", [["cube", r] for r in Z.RES], "Take one cube of your choice.",
                public="choosing a cube")
        return
    Z.gain(ctx, st["seat"], {answer[1][1]: 1}, "arya")


@step
def discard_cards(ctx, st, answer):
    """Discard cards of your choice face down, one at a time (all that are left when too few)."""
    g = ctx.g
    seat = st["seat"]
    if answer is not None:
        Z.discard_from_hand(ctx, seat, answer[1][1], st["why"])
        st["left"] -= 1
    hand = g["hands"][seat]
    if st["left"] <= 0 or not hand:
        return
    if len(hand) <= st["left"]:
        for inst in list(hand):
            Z.discard_from_hand(ctx, seat, inst, st["why"])
        return
    ctx.ask(seat, "discard", [["discard", c] for c in hand], "Discard a card face down (%d to go)." % st["left"],
            public="discarding face down")


# --- Stannis Baratheon ----------------------------------------------------------------------------

@step
def ab_stannis(ctx, st, answer):
    """Discard the whole hand face down and draw six."""
    g = ctx.g
    seat = st["seat"]
    hand = g["hands"][seat]
    ctx.emit("discarded", vis=[seat], seat=seat, cards=list(hand), why="stannis")
    ctx.emit("discards", seat=seat, count=len(hand), why="stannis")
    g["discard"] += hand
    g["hands"][seat] = []
    Z.draw(ctx, seat, STANNIS_DRAW, "stannis")


# --- Melisandre -----------------------------------------------------------------------------------

@step
def ab_melisandre(ctx, st, answer):
    """Look at one mission's cards, take one into hand, then discard any card of the hand face down."""
    g = ctx.g
    seat = st["seat"]
    if answer is None and "mission" in st:
        return _ask_take(ctx, seat, st["mission"])
    if answer is None:
        ctx.ask(seat, "melisandre_look", [["look", i] for i, m in enumerate(g["missions"]) if m["cards"]],
                "Melisandre: choose the mission whose cards you look at.", public="choosing a mission to look at")
        return
    choice = answer[1]
    if choice[0] == "look":
        i = choice[1]
        m = g["missions"][i]
        seen = sorted(m["cards"])  # sorted: the order they were played in stays unknown
        g["notes"][seat].append({"what": "mission", "space": g["space"], "mission": i, "cards": seen})
        ctx.emit("saw_mission", vis=[seat], seat=seat, mission=i, cards=seen)
        ctx.emit("looked_at_mission", seat=seat, mission=i)
        st["mission"] = i
        return _ask_take(ctx, seat, i)
    i = st["mission"]
    m = g["missions"][i]
    inst = choice[1]
    m["cards"].remove(inst)
    m["taken"] += 1
    if inst in m["face_up"]:
        m["face_up"].remove(inst)
    g["hands"][seat].append(inst)
    ctx.emit("took_from_mission", vis=[seat], seat=seat, mission=i, card=inst)
    ctx.emit("takes_from_mission", seat=seat, mission=i)
    ctx.push({"s": "discard_cards", "seat": seat, "left": 1, "why": "melisandre"})


def _ask_take(ctx, seat, i):
    seen = sorted(ctx.g["missions"][i]["cards"])
    ctx.ask(seat, "melisandre_take", [["take", c] for c in seen], "Melisandre: take one of these cards.",
            public="taking a card from a mission")
