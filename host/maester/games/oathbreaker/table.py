"""Oathbreaker on the table: what a tap means at each reader, and what the LEDs show.

Readers (hardware/profiles/oathbreaker-*p.json): one in front of each seat, and one zone reader per
mission place in the middle ("mission0", "mission1", ...; a reader may serve two places, as
"mission2+3" does at seven and eight players, where the fourth mission only comes with Pincer
Maneuver). At eight players the King and Queen share one zone reader, "throne".

What a tap means:

* an influence card on mission k's reader: that card is played to mission k, face down (or face up
  for Arya) by the noble whose turn it is. On the noble's own reader it fits every mission open to
  it, so it waits as the seat's pending selection (CHOOSE_AFTER_TAP) until the noble picks one;
* a decree on a noble's reader: the monarch (or Daenerys) plays it on that noble. A Proclamation
  or a vote decree is tapped on the player's own reader;
* a House Sigil (tagged "sigil:<board>", the house of the noble's Character Board) on a mission's
  reader: the sigil goes there, when its noble chooses among tied missions;
* a mission's own card, on its reader or on the deciding seat's: that mission, wherever a mission
  is to be picked (the King's order of resolution, Cornered, Melisandre, a tied House Sigil);
* any other card on the deciding seat's own reader: the choice that names it (a discard, Confess!,
  Melisandre's take, the monarchs' trade, and every observed deal: see observe.py; the King taps
  the missions he turns up and the cards dealt face down to a mission on that mission's reader).

Choices that name no card (done, pass, votes, guesses, cubes, characters, a resolution by hand)
are made at the host. The public host display never names a tapped influence card or decree, nor
a mission still in its deck: a refused tap is "a card" unless the card lies face up (a mission
dealt this round or before, a House Sigil), and a tap that waits for its mission says only how many
places it fits. A seat's page names a refused card only when the seat may see it (TableRunner.tap_words).

LEDs come from the public view alone: Order and Chaos as bars scaled to the track, the round
marker, and per seat the Hand of the King, the monarchs, whoever must act and, at the end, the
winners. Nothing secret is in the public view, so nothing secret can light up.
"""

from ...engine import cardtables
from .text import Names
from ...table.lights import seat_lights

CHOOSE_AFTER_TAP = True
THRONE = "throne"
SIGIL = "sigil:"
MISSION_PICKS = ("resolve", "cornered", "melisandre_look", "sigil")  # asks whose choices are [op, mission]
ON_A_MISSION = ("observe_mission", "observe_extra", "observe_unseen")  # asks about one mission's place

ORDER = (255, 255, 255)
CHAOS = (120, 0, 160)
ROUND = (255, 60, 0)
HAND = (255, 180, 0)
MONARCH = (200, 0, 200)


def zone_missions(place):
    """The mission places a zone reader serves ("mission1" → [1], "mission2+3" → [2, 3]), else None."""
    if not isinstance(place, str) or not place.startswith("mission"):
        return None
    try:
        return [int(x) for x in place[len("mission"):].split("+")]
    except ValueError:
        return None


def owners(state, place):
    """The seats for whom `place` is their own reader."""
    if isinstance(place, int):
        return [place]
    if place == THRONE:
        return list(state["g"]["monarchs"])
    return []


def asks_at(state, place):
    """Every open ask, the place's own first: a zone has none of its own, and a decree tapped on a
    noble's reader answers the monarch's ask."""
    own = owners(state, place)
    asks = state["asks"]
    return [a for a in asks if a["seat"] in own] + [a for a in asks if a["seat"] not in own]


def _mission_of(g, card):
    for i, m in enumerate(g["missions"]):
        if m["card"] == card:
            return i
    return None


def extra_tags(state):
    """The House Sigils: one tag per Character Board."""
    info = cardtables.table(state)["info"]
    return sorted({SIGIL + rec["board"] for rec in info.values() if rec["type"] == "character"})


def _sigil_choices(state, ask, card, place, here):
    g = state["g"]
    char = g["characters"][ask["seat"]] if ask["kind"] == "sigil" else None
    if char is None or card != SIGIL + cardtables.table(state)["info"][char]["board"]:
        return []
    if here is not None:
        return [c for c in ask["choices"] if c[1] in here]
    return list(ask["choices"]) if place is None or ask["seat"] in owners(state, place) else []


def tap_choices(state, ask, card, place=None):
    g = state["g"]
    choices = ask["choices"]
    kind = ask["kind"]
    here = zone_missions(place)
    if card.startswith(SIGIL):
        return _sigil_choices(state, ask, card, place, here)
    picked = _mission_of(g, card)
    if here is not None:  # a mission's reader
        if kind in ON_A_MISSION:
            return [c for c in choices if c[1] == card] if ask.get("data", {}).get("mission") in here else []
        if kind in MISSION_PICKS and picked is not None:
            return [c for c in choices if c[1] == picked and picked in here]
        return [c for c in choices if c[0] in ("play", "face_up") and c[1] == card and c[2] in here]
    if place is None or ask["seat"] in owners(state, place):  # the deciding seat's own reader
        if kind in MISSION_PICKS and picked is not None:
            return [c for c in choices if c[1] == picked]
        return [c for c in choices if card in c]
    if isinstance(place, int):  # another seat's reader: a decree played on that noble
        return [c for c in choices if c[0] == "decree" and len(c) > 2 and c[1] == card and c[2] == place]
    return []


def tap_cards(state, command):
    """The card whose tap stands for a choice that names none: a mission picked by its own card."""
    g = state["g"]
    ask = next((a for a in state["asks"] if a["id"] == command["ask"]), None)
    choice = command["choice"]
    out = []
    if ask is not None and ask["kind"] == "sigil" and g["characters"][ask["seat"]]:
        out.append(SIGIL + cardtables.table(state)["info"][g["characters"][ask["seat"]]]["board"])
    if ask is not None and ask["kind"] in MISSION_PICKS and len(choice) == 2 and isinstance(choice[1], int):
        if 0 <= choice[1] < len(g["missions"]):
            out.append(g["missions"][choice[1]]["card"])
    return out


def token_words(state, card):
    """A tag that is no card, in words: a House Sigil, which lies face up for all to see (a card is
    named only to whom its view shows it: TableRunner.tap_words)."""
    if card.startswith(SIGIL):
        return "the %s House Sigil" % card[len(SIGIL):].capitalize()
    return None


def card_words(state, card):
    return Names(state["g"], cardtables.table(state)).card(card)


def choice_words(state, choice):
    """A place offered after a tap, for the deciding seat only: "mission 2 (Feed Flea Bottom)"."""
    names = Names(state["g"], cardtables.table(state))
    g = state["g"]
    if choice[0] in ("play", "face_up"):
        return names.mission(g, choice[2])
    if choice[0] == "decree":
        return "on %s" % names.seat(choice[2]) if len(choice) > 2 else "played with no target"
    return " ".join(str(x) for x in choice)


def _level(value, length):
    return max(0, min(255, value * 255 // max(1, length)))


def segments(view):
    length = view["track_length"]
    out = {
        "order": (_level(view["order"], length), ORDER, "solid", 0),
        "chaos": (_level(view["chaos"], length), CHAOS, "solid", 0),
        "round": (view["space"], ROUND, "solid", 0),
    }

    def state_of(seat):
        if seat in view["monarchs"]:
            return 200, MONARCH
        if seat == view["hand_of_king"]:
            return 255, HAND
        return None

    out.update(seat_lights(view, state_of))
    return out
