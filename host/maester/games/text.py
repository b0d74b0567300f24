"""Wording every game's text module shares: visibility, the winners, an event with no wording yet, and
a card described for a person who asks about it."""

from .. import games
from ..cards import db
from ..engine.core import visible


def hidden_from(event, viewer):
    """True when `viewer` may not read `event` (the same rule as engine.filter_events)."""
    return not visible(event, viewer)


def winners_line(names, winners):
    if len(winners) == 1:
        return "%s wins" % names.seat(winners[0])
    return "shared victory between %s" % " and ".join(names.seat(s) for s in winners)


def variants_words(variants, none):
    """The variants in play as words ("most swords, winner starts"), or `none` when there are none."""
    return ", ".join(v.replace("_", " ") for v in variants or []) or none


def generic_line(event):
    """A plain line for an event kind the game's text module has no words for."""
    data = ", ".join("%s=%s" % (key, v) for key, v in event.items() if key not in ("e", "vis"))
    return "%s%s" % ((event.get("e") or "event").replace("_", " "), ": " + data if data else "")


def about_card(game, card):
    """What a person reads about `card` (an id or a copy's id) when they ask at a prompt (`?`) or tap
    its name on a page: its name, then its facts and ability as lines, from the game's card data in our
    own words (cards_db, each game's text.py `about_lines`). None for an id the data does not know."""
    rec = db.find(game, card)
    if rec is None:
        return None
    lines = games.part(game, "text").about_lines(rec)
    text = rec.get("text")
    if text and not rec.get("simulation"):
        lines.append(text)
    elif rec.get("simulation"):
        lines.append("A stand-in made up for simulated games: no real card.")
    return {"name": rec["name"], "lines": [line for line in lines if line]}
