"""A tap read against the open decisions: which command it means, or why it means none.

A tap says "this card, at this place" (a seat's reader, or the shared "table" reader). It answers
an open ask of that place when exactly one of the ask's choices names the card; a game can add
meanings of its own (B'Twixt: your leader card means kneel). A reason for a refusal is shown on
the host display, which everyone can read, so it only ever speaks of the tap itself.
"""

import importlib

from ..engine import core


def _hook(game):
    try:
        return importlib.import_module("maester.games.%s.table" % game)
    except ModuleNotFoundError:
        return None


def meanings(state, ask, card):
    """The choices of `ask` that a tap of `card` can mean."""
    hook = _hook(state["game"])
    if hook is not None and hasattr(hook, "tap_choices"):
        found = hook.tap_choices(state, ask, card)
        if found is not None:
            return found
    return [c for c in ask["choices"] if card in c]


def command_for_tap(state, place, card):
    """Return (command, None) or (None, reason)."""
    if state["over"]:
        return None, "the game is over"
    asks = core.asks_for(state, place)
    if not asks:
        return None, "nothing is asked here now"
    for ask in asks:
        found = meanings(state, ask, card)
        if len(found) == 1:
            return {"seat": place, "ask": ask["id"], "choice": found[0]}, None
        if len(found) > 1:
            return None, "that tap could mean %d things: choose on the seat page" % len(found)
    return None, "that card cannot be used for this decision"
