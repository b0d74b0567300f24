"""Westeros Intrigue setup and steps: deal a round, turns until nobody can place, score the round.

Each step is `(ctx, step, answer)`; `answer` is None on a first run and `(ask, choice)` when the
seat answered. A seat's turn is one decision: which card, and where (["place", card, row, pos]).
"""

from . import court as C

STEPS = {}
TOKEN_VALUES = (5, 2, 1)


def step(fn):
    STEPS[fn.__name__] = fn
    return fn


def setup(ctx, config):
    g = ctx.g
    cards = config["cards"]
    n = config["players"]
    g.update({
        "n": n, "rounds": n, "round": 0, "first": config["first"], "starter": config["first"],
        "turn": config["first"], "house_of": cards["house_of"],
        "hands": [[] for _ in range(n)], "box": [], "start_card": None,
        "court": C.new_court(config["base_width"], config["court"]),
        "out": [False] * n, "last": None, "placed": 0,
        "penalties": [0] * n, "thrones": [[] for _ in range(n)], "history": [],
        "deal": cards["components"]["deal"]["per_seat"][str(n)],
    })
    g["throne_deck"] = ctx.chance.shuffle(list(cards["throne_instances"]))
    ctx.emit("setup", players=n, first=config["first"], rounds=n, base_width=config["base_width"],
             court=config["court"], variants=list(config["variants"]))
    ctx.push({"s": "round_start"})


def all_characters(g):
    """Every character card, wherever it is: hands, the court, the box."""
    return [c for h in g["hands"] for c in h] + C.placed_cards(g["court"]) + g["box"]


@step
def round_start(ctx, st, answer):
    g = ctx.g
    config = ctx.state["config"]
    n = g["n"]
    deck = list(config["cards"]["characters"])
    ctx.chance.shuffle(deck)
    g["round"] += 1
    g["court"] = C.new_court(config["base_width"], config["court"])
    g["hands"] = [deck[i * g["deal"]:(i + 1) * g["deal"]] for i in range(n)]
    rest = deck[n * g["deal"]:]
    g["box"], g["start_card"] = [], None
    g["out"] = [False] * n
    g["last"] = None
    g["placed"] = 0
    g["turn"] = g["starter"]
    ctx.emit("round", round=g["round"], rounds=g["rounds"], starter=g["starter"])
    if n == 5 and rest:
        # The one card left over starts the court, face up and owned by nobody.
        card = g["start_card"] = rest.pop()
        C.place(g["court"], card, g["house_of"][card], 0, C.start_position(g["court"]))
        ctx.emit("start_card", card=card, house=g["house_of"][card], row=0, pos=C.start_position(g["court"]))
    g["box"] = rest  # 2 players: back in the box, seen by nobody
    for seat in range(n):
        ctx.emit("hand", vis=[seat], seat=seat, cards=list(g["hands"][seat]))
    ctx.push({"s": "turn"})


@step
def turn(ctx, st, answer):
    g = ctx.g
    n = g["n"]
    out = g["out"]
    if answer is not None:
        ask, choice = answer
        seat = ask["seat"]
        _, inst, row, pos = choice
        house = g["house_of"][inst]
        g["hands"][seat].remove(inst)
        C.place(g["court"], inst, house, row, pos)
        g["last"] = seat
        g["placed"] += 1
        ctx.emit("placed", seat=seat, card=inst, house=house, row=row, pos=pos, left=len(g["hands"][seat]))
        if not g["hands"][seat]:
            out[seat] = True
            ctx.emit("out", seat=seat, why="no cards left", left=0)
        g["turn"] = (seat + 1) % n
    seat = g["turn"]
    for _ in range(n):
        if not out[seat]:
            hand = g["hands"][seat]
            choices = C.legal_moves(g["court"], hand, g["house_of"])
            if choices:
                g["turn"] = seat
                ctx.ask(seat, "place", choices, "Place a card in the court.", public="placing a card")
                return
            out[seat] = True
            ctx.emit("out", seat=seat, why="cannot place a card", left=len(hand))
        seat = (seat + 1) % n
    g["turn"] = None
    ctx.push({"s": "round_end"})


def tokens_for(points):
    """A way to pay `points` in penalty tokens (5, 2 and 1): for the table to hand out."""
    out = []
    for v in TOKEN_VALUES:
        k, points = divmod(points, v)
        out += [v] * k
    return out


@step
def round_end(ctx, st, answer):
    g = ctx.g
    config = ctx.state["config"]
    n = g["n"]
    winner = g["last"]
    ctx.emit("round_won", round=g["round"], seat=winner)
    drew = None
    if winner is not None:
        if g["throne_deck"]:
            drew = g["throne_deck"].pop()
            g["thrones"][winner].append(drew)
            ctx.emit("throne_drawn", seat=winner, count=len(g["thrones"][winner]))
            t = config["cards"]["throne"][drew]
            ctx.emit("throne_card", vis=[winner], seat=winner, card=drew, value=t["value"], swords=t["swords"])
        else:
            ctx.emit("no_throne", seat=winner)
    taken = [0] * n
    for seat in range(n):
        if seat == winner and not config["winner_pays"]:
            continue
        k = len(g["hands"][seat])
        if k:
            taken[seat] = k
            g["penalties"][seat] += k
            ctx.emit("penalty", seat=seat, points=k, tokens=tokens_for(k), total=g["penalties"][seat])
    g["history"].append({"round": g["round"], "starter": g["starter"], "winner": winner,
                         "left": [len(h) for h in g["hands"]], "penalties": taken})
    if g["round"] >= g["rounds"]:
        score(ctx)
        return
    if config["next_start"] == "winner" and winner is not None:
        g["starter"] = winner
    else:
        g["starter"] = (g["starter"] + 1) % n
    ctx.push({"s": "round_start"})


def final_scores(penalties, thrones, throne_info, floor=False):
    """Penalty points minus Iron Throne values, seat by seat (never below 0 with `floor`)."""
    out = []
    for pen, held in zip(penalties, thrones):
        total = pen - sum(throne_info[t]["value"] for t in held)
        out.append(max(0, total) if floor else total)
    return out


def tiebreak_key(held, throne_info, rule):
    """Smaller wins. A seat without an Iron Throne card cannot win the sword tie-break."""
    if rule == "none" or not held:
        return 0 if rule == "none" else float("inf")
    swords = [throne_info[t]["swords"] for t in held]
    return min(swords) if rule == "fewest_swords" else -max(swords)


def ranking(scores, thrones, throne_info, rule):
    """Seats best first, and the winners (several when the tie-break leaves a tie)."""
    keys = {s: (scores[s], tiebreak_key(thrones[s], throne_info, rule)) for s in range(len(scores))}
    order = sorted(keys, key=lambda s: (keys[s], s))
    best = keys[order[0]]
    return order, [s for s in order if keys[s] == best]


def score(ctx):
    g = ctx.g
    config = ctx.state["config"]
    info = config["cards"]["throne"]
    scores = final_scores(g["penalties"], g["thrones"], info, config["score_floor"])
    order, winners = ranking(scores, g["thrones"], info, config["tiebreak"])
    ctx.emit("thrones_revealed", thrones=[list(t) for t in g["thrones"]])
    ctx.end({"winners": winners, "scores": scores, "ranking": order, "penalties": list(g["penalties"]),
             "thrones": [list(t) for t in g["thrones"]],
             "throne_values": [sum(info[t]["value"] for t in held) for held in g["thrones"]],
             "rounds": g["round"]})

