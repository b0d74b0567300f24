"""Westeros Intrigue on the table: a card tapped at a seat is the card that seat plays.

When the card fits in one place only, the tap places it; when it fits in several, the tap has
several meanings: the runner keeps it as the seat's pending selection (CHOOSE_AFTER_TAP) and the
seat picks the position off the table (host prompt or seat page). With `observe: ["hands"]` the
seats also tap the cards they were dealt, and with five players the starting player taps the spare
card that starts the court (see flow.observe_deal).
LEDs come from the public view only: whose turn it is, who is out, the rounds played.
"""

from ...engine import cardtables
from .text import Names, describe_choice
from ...table.lights import seat_lights

CHOOSE_AFTER_TAP = True

OUT = (120, 0, 0)
ROUND = (255, 180, 0)


def tap_choices(state, ask, card, place=None):
    return None  # the default reading: the choices that name the card


def card_words(state, card):
    return Names(state["g"], cardtables.table(state)).card(card)


def choice_words(state, choice):
    """A position on offer after a tap, without repeating the card: "row 2, on Stark 1 and Baratheon 4"."""
    return describe_choice(state, None, choice).split(" → ", 1)[-1]


def segments(view):
    out = {"round": (view["round"] if not view.get("over") else view["rounds"], ROUND, "solid", 0)}
    out.update(seat_lights(view, lambda seat: (80, OUT) if view["out"][seat] else None))
    return out
