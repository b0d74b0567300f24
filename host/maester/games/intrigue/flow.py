"""Westeros Intrigue setup and steps: deal a round, turns until nobody can place, score the round.

Each step is `(ctx, step, answer)`; `answer` is None on a first run and `(ask, choice)` when the
seat answered. A seat's turn is one decision: which card, and where (["place", card, row, pos]).
"""

from ...engine import cardtables
from . import court as C

STEPS = {}
TOKEN_VALUES = (5, 2, 1)


def step(fn):
    STEPS[fn.__name__] = fn
    return fn


def setup(ctx, config):
    g = ctx.g
    cards = cardtables.of_config(config)
    n = config["players"]
    g.update({
        "n": n, "rounds": n, "round": 0, "first": config["first"], "starter": config["first"],
        "turn": config["first"], "house_of": cards["house_of"],
        "hands": [[] for _ in range(n)], "box": [], "start_card": None,
        "court": C.new_court(config["base_width"], config["court"]),
        "out": [False] * n, "last": None, "placed": 0,
        "penalties": [0] * n, "thrones": [[] for _ in range(n)], "history": [],
        "deal": cards["components"]["deal"]["per_seat"][str(n)],
        "observe_hands": "hands" in config["observe"],
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
    g["round"] += 1
    g["court"] = C.new_court(config["base_width"], config["court"])
    g["start_card"] = None
    g["out"] = [False] * n
    g["last"] = None
    g["placed"] = 0
    g["turn"] = g["starter"]
    ctx.emit("round", round=g["round"], rounds=g["rounds"], starter=g["starter"], tapped=g["observe_hands"])
    if g["observe_hands"]:
        # Dealt by hand: every card is unknown (in the box) until a seat taps it.
        g["hands"] = [[] for _ in range(n)]
        g["box"] = sorted(cardtables.of_config(config)["characters"])
        ctx.push({"s": "observe_deal"}, {"s": "turn"})
        return
    deck = list(cardtables.of_config(config)["characters"])
    ctx.chance.shuffle(deck)
    g["hands"] = [deck[i * g["deal"]:(i + 1) * g["deal"]] for i in range(n)]
    rest = deck[n * g["deal"]:]
    if n == 5 and rest:
        lay_start_card(ctx, rest.pop())
    g["box"] = rest  # 2 players: back in the box, seen by nobody
    for seat in range(n):
        ctx.emit("hand", vis=[seat], seat=seat, cards=list(g["hands"][seat]))
    ctx.push({"s": "turn"})


def lay_start_card(ctx, card):
    """The one card left over with five players starts the court, face up and owned by nobody."""
    g = ctx.g
    pos = C.start_position(g["court"])
    g["start_card"] = card
    C.place(g["court"], card, g["house_of"][card], 0, pos)
    ctx.emit("start_card", card=card, house=g["house_of"][card], row=0, pos=pos)


def needs_start_card(g):
    return g["n"] == 5 and g["start_card"] is None and g["observe_hands"]


@step
def observe_deal(ctx, st, answer):
    """On a real table the cards are dealt by hand, and each seat taps the cards it was dealt on its
    own reader, in any order and all seats at once.

    Every seat is offered the same list: every card not face up in the court. So the list never
    shows which cards another seat has already tapped; a card tapped twice is refused privately.
    With five players the spare card, which starts the court face up, is tapped first, on the
    starting player's reader (that seat lays it out); the hands are tapped after it, so every
    seat's list leaves it out.
    """
    g = ctx.g
    n, deal = g["n"], g["deal"]
    if answer is not None:
        ask, choice = answer
        seat, inst = ask["seat"], choice[1]
        if inst not in g["box"]:
            ctx.emit("tap_refused", vis=[seat], seat=seat, card=inst, why="already recorded")
        elif ask["kind"] == "observe_start_card":
            g["box"].remove(inst)
            lay_start_card(ctx, inst)
        else:
            g["box"].remove(inst)
            g["hands"][seat].append(inst)
            ctx.emit("tapped_into_hand", vis=[seat], seat=seat, card=inst, count=len(g["hands"][seat]), of=deal)
    unseen = sorted(g["box"] + [c for h in g["hands"] for c in h])
    if needs_start_card(g):
        ctx.ask(g["starter"], "observe_start_card", [["card", c] for c in unseen],
                "Lay the spare card face up to start the court, and tap it.", public="tapping the spare card")
        return
    open_for = {a["seat"] for a in ctx.state["asks"]}
    waiting = False
    for seat in range(n):
        if seat in open_for:
            waiting = True
        elif len(g["hands"][seat]) < deal:
            ctx.ask(seat, "observe_hand", [["card", c] for c in unseen],
                    "Tap each card you were dealt (%d of %d)." % (len(g["hands"][seat]) + 1, deal),
                    public="tapping their new hand")
    if not waiting and not ctx.asked:
        for seat in range(n):
            ctx.emit("hand", vis=[seat], seat=seat, cards=list(g["hands"][seat]))


@step
def turn(ctx, st, answer):
    g = ctx.g
    if answer is not None:
        _place_answer(ctx, g, answer[0]["seat"], answer[1])
    _offer_turn(ctx, g)


def _place_answer(ctx, g, seat, choice):
    """A seat's card goes where it chose; the seat is out when its hand is empty (a cpdef with C
    types in the compiled build, as _offer_turn: a turn is nearly all of a random game's decisions)."""
    _, inst, row, pos = choice
    house = g["house_of"][inst]
    hand = g["hands"][seat]
    hand.remove(inst)
    court = g["court"]
    if ctx.events is not None:
        # The event's words read the court before the card is on it. A quiet command (core.answer:
        # the bots' games) keeps no events, so it builds none: the event's dict and placed_where's
        # list were a tenth of a random game's time.
        where, at = placed_where(court, row, pos)
        # ctx.record, not emit with keywords: that call cost more than the rest of the turn's bookkeeping.
        ctx.record("placed", {"seat": seat, "card": inst, "house": house, "row": row, "pos": pos,
                              "left": len(hand), where: at})
    C.place(court, inst, house, row, pos)
    g["last"] = seat
    g["placed"] += 1
    if not hand:
        g["out"][seat] = True
        ctx.emit("out", seat=seat, why="no cards left", left=0)
    g["turn"] = (seat + 1) % g["n"]


def _offer_turn(ctx, g):
    """Ask the first seat from g["turn"] on that can place a card; a seat that cannot is out. When
    nobody can, the round ends."""
    n = g["n"]
    out = g["out"]
    seat = g["turn"]
    for _ in range(n):
        if not out[seat]:
            hand = g["hands"][seat]
            choices = C.legal_moves(g["court"], hand, g["house_of"])
            if choices:
                g["turn"] = seat
                ctx.ask(seat, "place", choices, "Place a card in the court.", "placing a card")  # public: no keywords
                return
            out[seat] = True
            ctx.emit("out", seat=seat, why="cannot place a card", left=len(hand))
        seat = (seat + 1) % n
    g["turn"] = None
    ctx.push({"s": "round_end"})


def placed_where(court, row, pos):
    """Where a card is about to go, in terms that still read right after the court is cleared, as
    the event's (field, value): ("on", the two cards it rests on), or ("end", the end of the base it
    extends)."""
    if row:
        below = court["cards"][row - 1]
        return "on", [below[pos], below[pos + 1]]
    span = court["span"][0]
    return "end", "first" if span is None else ("left" if pos < span[0] else "right")


def tokens_for(points):
    """A way to pay `points` in penalty tokens (5, 2 and 1): for the table to hand out."""
    out = []
    for v in TOKEN_VALUES:
        k, points = divmod(points, v)
        out += [v] * k
    return out


def _took_throne(ctx, seat, card):
    g = ctx.g
    g["thrones"][seat].append(card)
    ctx.emit("throne_drawn", seat=seat, count=len(g["thrones"][seat]))
    t = cardtables.table(ctx.state)["throne"][card]
    ctx.emit("throne_card", vis=[seat], seat=seat, card=card, value=t["value"], swords=t["swords"])


@step
def round_end(ctx, st, answer):
    g = ctx.g
    config = ctx.state["config"]
    n = g["n"]
    winner = g["last"]
    if answer is None:
        ctx.emit("round_won", round=g["round"], seat=winner)
    if winner is not None and not st.get("drawn"):
        if not g["throne_deck"]:
            ctx.emit("no_throne", seat=winner)
        elif "thrones" in config["observe"]:
            # On a real table the winner draws the physical card and taps it on their own reader.
            # Every throne card but their own is offered, so the list shows nothing of the others'.
            if answer is not None:
                drew = answer[1][1]
                if drew not in g["throne_deck"]:
                    ctx.emit("tap_refused", vis=[winner], seat=winner, card=drew, why="already drawn")
                else:
                    g["throne_deck"].remove(drew)
                    _took_throne(ctx, winner, drew)
                    st["drawn"] = True
            if not st.get("drawn"):
                mine = g["thrones"][winner]
                ctx.ask(winner, "observe_throne", [["card", t] for t in sorted(cardtables.of_config(config)["throne"])
                                                   if t not in mine],
                        "Draw the top Iron Throne card, look at it alone, and tap it.",
                        public="drawing an Iron Throne card")
                return
        else:
            _took_throne(ctx, winner, g["throne_deck"].pop())
    st["drawn"] = True
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
    info = cardtables.of_config(config)["throne"]
    scores = final_scores(g["penalties"], g["thrones"], info, config["score_floor"])
    order, winners = ranking(scores, g["thrones"], info, config["tiebreak"])
    ctx.emit("thrones_revealed", thrones=[list(t) for t in g["thrones"]])
    ctx.end({"winners": winners, "scores": scores, "ranking": order, "penalties": list(g["penalties"]),
             "thrones": [list(t) for t in g["thrones"]],
             "throne_values": [sum(info[t]["value"] for t in held) for held in g["thrones"]],
             "rounds": g["round"]})

