"""What the table says about a tap, and to whom: the host display (everyone: PUBLIC) and each seat's
own page (TableRunner.on_private, on_pending). Every game's leak tests run `assert_taps_tell_no_secret`
along random games: any card of the game laid on any reader, at that moment, may be named to a viewer
only if that viewer's own view, or an event it may read, names the card (or another copy of its name).

A card's names are the game's words for it (text.Names.card) and its printed name; a text is read
for the longest names first ("Sword or sabotage", not "Sword").
"""

import importlib
import re

from maester.engine import PUBLIC, REFEREE, cardtables, core
from maester.engine.session import Session
from maester.link.serial_link import Tap
from maester.table import profile as P
from maester.table.runner import TableRunner, sim_tags, sim_uid
from maester.table.taps import command_for_tap

HAND_KEYS = ("hands", "decree_hands_all")  # per seat, in the referee view (Oathbreaker's decrees too)


def hands(state):
    """{seat: [card]}: every card in a seat's hand, as the referee sees it."""
    ref = core.view(state, REFEREE)
    out = {}
    for key in HAND_KEYS:
        for seat, cards in enumerate(ref.get(key) or []):
            out.setdefault(seat, []).extend(cards)
    for seat, record in enumerate(ref.get("seats") or []):  # the LCG: each seat's record holds its hand
        out.setdefault(seat, []).extend(record.get("hand") or [])
    return out


def forms(state, cards):
    """{card: every way the host may name it}: the game's words for it and its printed name."""
    names = importlib.import_module("maester.games.%s.text" % state["game"]).Names(state["g"], cardtables.table(state))
    info = cardtables.table(state).get("info", {})
    return {c: {n for n in (names.card(c), (info.get(c.split("#", 1)[0]) or {}).get("name")) if n and n != c}
            for c in cards}


_VOCABULARY = {}


def named_in(state, text):
    """The card names in `text`, each place read as the longest name there, over the names of every
    card of the game."""
    key = id(state["config"])
    if key not in _VOCABULARY:
        every = set().union(*forms(state, set(sim_tags(state).values())).values())
        _VOCABULARY[key] = re.compile(r"(?<!\w)(?:%s)(?!\w)" % "|".join(
            re.escape(n) for n in sorted(every, key=len, reverse=True)))
    return {m.group(0) for m in _VOCABULARY[key].finditer(text)}


def mentioned(value, out=None):
    """The card ids (instance ids) a view mentions anywhere."""
    out = set() if out is None else out
    if isinstance(value, str) and "#" in value:
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            mentioned(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            mentioned(v, out)
    return out


def hidden_names(state, events, viewer, cards=None):
    """The names of `cards` (default: every card of the game) that neither `viewer`'s own view nor an
    event it may read names, under none of their names."""
    seen = mentioned([core.view(state, viewer), core.filter_events(events, viewer)])
    allowed = set().union(*forms(state, seen).values())
    cards = set(sim_tags(state).values()) if cards is None else cards
    return set().union(*forms(state, [c for c in cards if c not in seen]).values()) - allowed


def told(state, place, card, profile, tags):
    """{viewer: [text]}: what the table says, to whom, when `card` is laid on `place`'s reader now and
    the tap means no command (refused, or held for its seat to pick a position): such a tap never
    reaches the engine, so the state is left as it was. `profile`, `tags`: the table's."""
    assert command_for_tap(state, place, card)[0] is None
    out = {PUBLIC: []}
    runner = TableRunner(Session(state), profile, tags, report=out[PUBLIC].append,
                         on_pending=lambda seat, held, labels: out.setdefault(seat, []).extend([held] + labels))
    runner.on_private = lambda seat, text: out.setdefault(seat, []).append(text)
    reader = next(i for i, r in enumerate(profile["readers"]) if P.reader_place(profile, r["name"]) == place)
    seq = state["seq"]
    runner.on_tap(Tap(reader, "placed", bytes.fromhex(sim_uid(card)), 1))
    assert state["seq"] == seq
    return out


def assert_taps_tell_no_secret(state, events, cards=None):
    """Lay each of `cards` (default: every card of the game) on every reader of the table, one at a
    time, and check that no viewer is told the name of a card it may not see. Returns how many taps
    were tried (those that would be moves are left out: a move names nothing)."""
    n = core.get_game(state["game"]).seat_count(state)
    profile = P.for_game(state["game"], n)
    tags = sim_tags(state)
    places = [P.reader_place(profile, r["name"]) for r in profile["readers"]]
    cards = sorted(set(tags.values())) if cards is None else cards
    secret = {v: hidden_names(state, events, v) for v in [PUBLIC] + list(range(n))}
    tried = 0
    for place in places:
        for card in cards:
            if command_for_tap(state, place, card)[0] is not None:
                continue
            for viewer, texts in told(state, place, card, profile, tags).items():
                leaked = named_in(state, " | ".join(texts)) & secret[viewer]
                assert not leaked, "a tap of %s on %s's reader told %s of %s: %s" % (
                    card, place, "the table" if viewer == PUBLIC else "seat %s" % viewer, sorted(leaked), texts)
            tried += 1
    return tried
