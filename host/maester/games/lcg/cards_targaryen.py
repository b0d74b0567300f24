"""House Targaryen's starter deck (and the neutral cards that come in it): the card abilities.

Each card is registered under its code (all its copies' codes), with our own paraphrase above it;
`abilities.py` holds the framework and `effects.py` the verbs the effects are made of.
"""

from . import abilities as A
from . import effects as E  # noqa: F401  (the verbs every card module uses)
from . import model as M  # noqa: F401
from .abilities import Ability, card


# T101 Poisoned Wine: the character it is on gets -2 STR; Any Phase: kneel 1 influence to move it
# onto another character it may be attached to.
@A.constant_for("T101")
def _wine_str(state, src, inst, what):
    return -2 if what == "str" and state["g"]["cards"][src]["on"] == inst else 0


def _move_wine(ctx, src, seat, target, ev):
    from . import flow
    flow.attach(ctx, src, target)


def _wine_hosts(state, src, seat, ev):
    from . import flow
    return [c for c in M.characters(state) if c != state["g"]["cards"][src]["on"]
            and flow.attach_ok(state, seat, src, c)]


card("T101", Ability("action", _move_wine, cost=(("influence", 1),), target=_wine_hosts))


# T174 Forever Burning: Any Phase, a character gets -1 STR until the end of the phase.
card("T174", Ability("action", lambda ctx, src, seat, t, ev: E.lasting(ctx.g, "str", t, -1, "phase", src),
                     target=lambda s, src, seat, ev: M.characters(s)))
