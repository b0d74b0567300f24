"""House Lannister's starter deck (and the neutral cards that come in it): the card abilities.

Each card is registered under its code (all its copies' codes), with our own paraphrase above it;
`abilities.py` holds the framework and `effects.py` the verbs the effects are made of.
"""

from . import abilities as A
from . import effects as E  # noqa: F401  (the verbs every card module uses)
from . import model as M  # noqa: F401
from .abilities import Ability, card


def _draw(ctx, seat, n):
    from . import flow
    flow.draw(ctx, seat, n, capped=True)


# L163 Insidious Ways: Challenges action. One of your attacking Lannister characters gets +2 STR
# until the end of the phase; if you then win the challenge, you draw 2 cards.
def _insidious_ways(ctx, src, seat, target, ev):
    g = ctx.g
    E.lasting(g, "str", target, 2, "phase", src)
    if g["challenge"]:
        g["challenge"]["on_win_draw"].append([seat, 2])


card("L163", Ability("action", _insidious_ways, phases=("challenges",),
                     target=lambda s, src, seat, ev: A.attacking(s, seat, "lannister")))


# L141 Littlefinger: +1 STR for each gold in his controller's gold pool (his +2 income is printed).
@A.constant_for("L141")
def _littlefinger(state, src, inst, what):
    if what != "str" or inst != src:
        return 0
    return state["g"]["players"][state["g"]["cards"][src]["ctrl"]]["gold"]


# L38 Tyrion Lannister: Response after you win an intrigue challenge, or any challenge he took
# part in: pay 1 gold to draw a card.
def _tyrion_when(state, src, seat, ev):
    from . import flow
    return ev["winner"] == seat and (ev["type"] == "intrigue" or src in ev["participants"]) \
        and flow.may_draw(state, seat)  # not offered when it could draw nothing


card("L38", Ability("response", lambda ctx, src, seat, t, ev: _draw(ctx, seat, 1), trigger=("won_challenge",),
                    when=_tyrion_when, cost=(("gold", 1),)))
