"""Oathbreaker setup and the round track: which round comes next, and the end of the game.

Each step is `(ctx, step, answer)`; `answer` is None on a first run and `(ask, choice)` when a seat
answered this step's ask. See engine/core.py for the pipeline.
"""

from ...engine import cardtables
from . import zones as Z
from .zones import step


def setup(ctx, config):
    g = ctx.g
    cards = cardtables.get(config["cards"])
    comp = cards["components"]
    n = config["players"]
    king, queen = config["king"], config["queen"]
    monarchs = [king] if queen is None else [king, queen]
    nobles = [s for s in range(n) if s not in monarchs]
    key = str(n)
    g.update({
        "n": n, "king": king, "queen": queen, "monarchs": monarchs, "nobles": nobles,
        "table": config["cards"],
        "variants": list(config["variants"]), "night": "night_is_dark" in config["variants"],
        "track": cards["tracks"][key], "space": 0, "rounds_played": 0,
        "order": comp["order_chaos_track"]["start"], "chaos": comp["order_chaos_track"]["start"],
        "track_length": comp["order_chaos_track"]["length"],
        "agent_value": comp["agent_value"].get(key, 0), "bonus": comp["judgment_bonus"]["value"],
        "hand_size": comp["hands"]["influence"], "decree_hand_size": comp["hands"]["decrees"],
        "min_plays": comp["hands"]["min_plays"], "cells_plays": comp["hands"]["black_cells_plays"],
        "hand_of_king": None, "judge": [None] * n,
        "characters": [None] * n, "used": [False] * n, "cubes": [[0, 0, 0] if s in nobles else None for s in range(n)],
        "hands": [[] for _ in range(n)], "decree_hands": [[] for _ in range(n)],
        "decrees": [[] for _ in range(n)], "notes": [[] for _ in range(n)],
        "loyalty": [None] * n, "ambition": [None] * n, "agent": None, "ambitions_unused": [],
        "discard": [], "reshuffles": 0, "missions": [], "missions_done": [], "mine": [[] for _ in range(n)],
        "history": [], "pending_cells": [], "pending_cornered": [], "cells": [], "barred": [],
        "confessed": [], "resolving": [], "guesses": [None] * n, "trade_used": queen is None,
        "phase": "setup", "revealed": False,
        "observe_hands": "hands" in config["observe"], "observe_missions": "missions" in config["observe"],
        "decree_known": 0,
    })
    _seat_the_judges(g)

    loyal = comp["loyalty"][key]
    pool = ["conspirator"] * loyal["conspirator"] + ["loyalist"] * loyal["loyalist"]
    ctx.chance.shuffle(pool)
    for seat in nobles:
        g["loyalty"][seat] = pool.pop()
    g["agent"] = pool.pop() if pool else None

    ambitions = list(cards["ambition_instances"])
    ctx.chance.shuffle(ambitions)
    for seat in nobles:
        g["ambition"][seat] = ambitions.pop()
    g["ambitions_unused"] = sorted(ambitions)  # back in the box, unseen by anyone

    # Observed decks are shuffled by hand: the engine keeps them as sets and learns each card from a tap.
    def deck(key, observed):
        return sorted(cards[key]) if observed else ctx.chance.shuffle(list(cards[key]))

    g["mission_deck"] = deck("mission_instances", g["observe_missions"])
    g["deck"] = deck("influence_instances", g["observe_hands"])
    g["decree_deck"] = deck("decree_instances", g["observe_hands"])

    chosen = config.get("characters") or [None] * n
    for seat in nobles:
        if chosen[seat]:
            g["characters"][seat] = chosen[seat]

    ctx.emit("setup", players=n, king=king, queen=queen, nobles=nobles, agent=g["agent"] is not None,
             variants=list(g["variants"]), track=[dict(s) for s in g["track"]])
    for seat in nobles:
        ctx.emit("loyalty", vis=[seat], seat=seat, loyalty=g["loyalty"][seat])
        ctx.emit("ambition", vis=[seat], seat=seat, card=g["ambition"][seat])
    steps = []
    if g["observe_hands"]:  # every noble taps the three cards dealt, then the King (and Queen) the five decrees
        wants = [[s, g["hand_size"]] for s in nobles] + [[m, g["decree_hand_size"]] for m in monarchs]
        steps.append({"s": "observe_cards", "need": [[s, k, []] for s, k in wants], "why": "deal"})
    else:
        for seat in nobles:
            Z.draw(ctx, seat, g["hand_size"], "deal")
        for m in monarchs:
            Z.draw_decrees(ctx, m)
    steps += [{"s": "choose_character", "seat": s} for s in Z.nobles_from(g, king + 1) if not g["characters"][s]]
    hand = config.get("hand")
    if hand is None:
        steps.append({"s": "choose_hand"})
    else:
        g["hand_of_king"] = hand
        ctx.emit("hand_of_the_king", seat=hand, why="setup")
    steps.append({"s": "round_start"})
    ctx.push(*steps)


def _seat_the_judges(g):
    """At 8 players each monarch plays on, and judges, the three nobles on their outer side."""
    n = g["n"]
    if g["queen"] is None:
        for s in g["nobles"]:
            g["judge"][s] = g["king"]
        return
    a, b = g["king"], g["queen"]
    left, right = (b, a) if b == (a + 1) % n else (a, b)  # `left` sits on the other's left
    for i in range(1, 4):
        g["judge"][(left + i) % n] = left
        g["judge"][(right - i) % n] = right


@step
def choose_character(ctx, st, answer):
    """Each noble takes a Character Board not yet taken and the side to play."""
    g = ctx.g
    seat = st["seat"]
    if answer is None:
        info = Z.table(g)["info"]
        taken = {info[c]["board"] for c in g["characters"] if c}
        choices = [["character", c] for c in Z.table(g)["character_ids"] if info[c]["board"] not in taken]
        ctx.ask(seat, "character", choices, "Choose your Character Board and the side to play (the diamond side "
                "is recommended for a first game).", public="choosing a Character Board")
        return
    g["characters"][seat] = answer[1][1]
    ctx.emit("character", seat=seat, character=answer[1][1])


@step
def choose_hand(ctx, st, answer):
    g = ctx.g
    if answer is None:
        ctx.ask(g["king"], "first_hand", [["hand", s] for s in g["nobles"]],
                "Choose the noble who is the first Hand of the King.", public="choosing the first Hand of the King")
        return
    g["hand_of_king"] = answer[1][1]
    ctx.emit("hand_of_the_king", seat=g["hand_of_king"], why="setup")


@step
def round_start(ctx, st, answer):
    g = ctx.g
    if g["space"] >= len(g["track"]):
        g["phase"] = "judgment"
        ctx.emit("round", space=g["space"], round="end")
        ctx.push({"s": "judgment"})
        return
    space = g["track"][g["space"]]
    g["phase"] = space["round"]
    g["used"] = [False] * g["n"]  # each ability once per round
    ctx.emit("round", space=g["space"], round=space["round"],
             count=space.get("banners", space.get("scrolls")))
    if space["round"] == "mission":
        ctx.push({"s": "mission_round"})
    else:
        ctx.push({"s": "decree_round"})


@step
def advance(ctx, st, answer):
    """The round marker moves on one space."""
    g = ctx.g
    g["space"] += 1
    g["rounds_played"] += 1
    ctx.push({"s": "round_start"})
