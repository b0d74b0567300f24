"""House Baratheon's starter deck (and the neutral cards that come in it): the card abilities.

Each card is registered under its code (all its copies' codes), with our own paraphrase above it;
`abilities.py` holds the framework and `effects.py` the verbs the effects are made of.
"""

from . import abilities as A
from . import effects as E  # noqa: F401  (the verbs every card module uses)
from . import model as M  # noqa: F401
from .abilities import Ability, card


# B68 Lightbringer: Response, kneel Lightbringer to save the character it is on from being killed.
card("B68", Ability("save", A.saved, trigger=("would_kill",), when=A.saves_host, cost=(("kneel_self",),)))
