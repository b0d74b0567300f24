"""House Stark's starter deck (and the neutral cards that come in it): the card abilities.

Each card is registered under its code (all its copies' codes), with our own paraphrase above it;
`abilities.py` holds the framework and `effects.py` the verbs the effects are made of.
"""

from . import abilities as A
from . import effects as E  # noqa: F401  (the verbs every card module uses)
from . import model as M  # noqa: F401
from .abilities import Ability, card


# S2 Nymeria: Response, kneel Nymeria to save the character it is on from being killed.
card("S2", Ability("save", A.saved, trigger=("would_kill",), when=A.saves_host, cost=(("kneel_self",),)))


# S5 Eddard Stark: as he enters play (setup does not count) he claims 1 power.
def _eddard(ctx, src, seat, target, ev):
    from . import timing
    timing.gain_power(ctx, seat, 1, "Eddard Stark", on=src)


card("S5", Ability("forced", _eddard, trigger=("entered_play",), when=lambda s, src, seat, ev: ev["card"] == src))
