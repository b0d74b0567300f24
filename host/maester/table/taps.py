"""A tap read against the open decisions: which command it means, or why it means none.

A tap says "this card, at this place" (a seat's reader, the shared "table" reader, or a zone
reader named in the profile). It answers an open ask of that place when exactly one of the ask's
choices names the card; a game can add meanings of its own (B'Twixt: your leader card means kneel).

A game's table module may also say which asks a place can answer (`asks_at(state, place)`): a zone
has no asks of its own, and a card laid on another seat's reader may answer someone else's ask
(Oathbreaker: a decree tapped on a noble's reader is played on that noble by the monarch). The
command then names the ask's seat, not the place; `tap_choices(state, ask, card, place)` reads
the card against the place.

A reason for a refusal is shown on the host display, which everyone can read, so it only ever
speaks of the tap itself.
"""

from .. import games
from ..engine import core


def asks_at(state, place):
    """The open asks a tap at `place` may answer: the place's own, unless the game says otherwise."""
    hook = games.part(state["game"], "table")
    if hook is not None and hasattr(hook, "asks_at"):
        return hook.asks_at(state, place)
    return core.asks_for(state, place)


def meanings(state, ask, card, place=None):
    """The choices of `ask` that a tap of `card` (at `place`, when known) can mean."""
    hook = games.part(state["game"], "table")
    if hook is not None and hasattr(hook, "tap_choices"):
        found = hook.tap_choices(state, ask, card, place)
        if found is not None:
            return found
    return [c for c in ask["choices"] if card in c]


def command_for_tap(state, place, card):
    """Return (command, None) or (None, reason)."""
    if state["over"]:
        return None, "the game is over"
    asks = asks_at(state, place)
    if not asks:
        return None, "nothing is asked here now"
    for ask in asks:
        found = meanings(state, ask, card, place)
        if len(found) == 1:
            return {"seat": ask["seat"], "ask": ask["id"], "choice": found[0]}, None
        if len(found) > 1:
            return None, "that tap could mean %d things: choose on the seat page" % len(found)
    return None, "that card cannot be used for this decision"


def carried(state, kind, seat, place, card):
    """The command a tap that just answered an ask of `kind` goes on to make with the same card, or
    None: a game's CARRY kinds (the LCG: the character tapped to choose a challenge is also its first
    attacker). Only the same seat's next decision, and only when the card means one choice there."""
    if kind not in getattr(games.part(state["game"], "table"), "CARRY", ()):
        return None
    command, _ = command_for_tap(state, place, card)
    return command if command is not None and command["seat"] == seat else None
