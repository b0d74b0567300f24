"""Design principle 4 on the table: what the host prints and the pages everyone may see say nothing
of a hidden card, even when a hand card is tapped at the wrong time or the board reboots with hand
cards lying on its readers. The host display says "a card on seatN"; the card's name goes to that
seat's own page (its `notice`), and nowhere else.

The games run as a player with a built table would run them (tests/board_driver.py): `maester play
GAME --port` on a `maester sim-board` process, the terminal output (`--plain`) and the pages read
from outside. A hidden card is one in a seat's hand per the referee view; its name may appear only
where the viewer's own view, or an event the engine let it see, names that card (or another copy of
the same name).
"""

import importlib
import json
import random
import time
import urllib.request

import pytest

from maester.engine import PUBLIC, cardtables, core
from maester.engine.session import Session
from maester.link.serial_link import Tap
from maester.table import profile as P
from maester.table.runner import TableRunner, sim_tags, sim_uid
from maester.table.taps import asks_at, command_for_tap, meanings
from maester.web.app import WebGame
from table_words import forms, hands, hidden_names, named_in, told
from test_board_play import table_game  # noqa: F401 (the fixture: TableGame processes, closed after the test)

GAMES = [("btwixt", 3, ["short"], 5), ("intrigue", 2, [], 3), ("oathbreaker", 5, [], 5), ("lcg", 2, [], 4)]
MOVES = 400
WAIT = 20.0


# --- what is hidden from whom (table_words.py) -------------------------------------------------------

def notice_name(state, card):
    """The name the seat's page gives its refused card (TableRunner.card_words)."""
    words = getattr(importlib.import_module("maester.games.%s.table" % state["game"]), "card_words", None)
    return words(state, card) if words is not None else cardtables.table(state)["info"][card.split("#")[0]]["name"]


def secret_names(state, events, viewer):
    """The names of the cards in other seats' hands that neither `viewer`'s own view nor an event
    it may see (core.filter_events) names."""
    return hidden_names(state, events, viewer, [c for seat, cards in hands(state).items() if seat != viewer
                                                for c in cards])


def leaks(state, text, names):
    return sorted(named_in(state, text) & names)


# --- a wrong tap -----------------------------------------------------------------------------------

def refused_taps(state, places):
    """(seat, card): a hand card on its own seat's reader that answers no open decision there."""
    for seat, cards in sorted(hands(state).items()):
        if seat not in places:
            continue
        for card in cards:
            if command_for_tap(state, seat, card)[0] is not None:
                continue
            if any(meanings(state, a, card, seat) for a in asks_at(state, seat)):
                continue  # it would wait for its position, not be refused
            yield seat, card


def secret_tap(state, events, places, public_before):
    """A refused tap of a card whose name is hidden from the table and from every other seat."""
    seats = core.get_game(state["game"]).seat_count(state)
    for seat, card in refused_taps(state, places):
        name = notice_name(state, card)
        if name in named_in(state, public_before):
            continue  # printed before (another copy played, say): the check would prove nothing
        if all(name in secret_names(state, events, v) for v in [PUBLIC] + [s for s in range(seats) if s != seat]):
            return seat, card
    return None


# --- the host, read from outside -------------------------------------------------------------------

def get(t, path):
    with urllib.request.urlopen(t.base + path, timeout=10) as r:
        return json.loads(r.read())


def page_text(doc):
    """A page's data as text to look for card names in. Its cards' own text (`about`, issue 28: what a
    tap on a card's name shows) is given only for cards the page names (checked here), and it is the
    card's fixed text, so its prose is left out: its words are not names ("helps a Sword mission"
    on Oathbreaker's Sword or sabotage is not the Sword card)."""
    about = doc.get("about") or {}
    named = {card.split("#", 1)[0] for card in doc.get("names") or {}}
    assert set(about) <= named, sorted(set(about) - named)
    return json.dumps({k: v for k, v in doc.items() if k != "about"}, ensure_ascii=False)


def wait_for(what, predicate):
    deadline = time.monotonic() + WAIT
    while not predicate():
        assert time.monotonic() < deadline, "never happened: %s" % what
        time.sleep(0.05)


def assert_nothing_hidden_shown(t, tapper=None):
    """The host's output, the table page and every seat's page (but `tapper`'s, which is checked
    by its caller) name no card hidden from their viewer."""
    state = t.direct
    public = secret_names(state, t.events, PUBLIC)
    assert public, "no hidden card to look for"
    assert not leaks(state, t.output(), public), "the host printed a hidden card:\n" + t.output()[-3000:]
    table = page_text(get(t, "/table/state"))
    assert not leaks(state, table, public), leaks(state, table, public)
    for seat in sorted(t.tokens):
        if seat == tapper:
            continue
        hidden = secret_names(state, t.events, seat)
        text = page_text(t.page(seat))
        assert not leaks(state, text, hidden), (seat, leaks(state, text, hidden))


@pytest.mark.parametrize("game,players,variants,seed", GAMES)
def test_a_wrong_tap_and_a_reboot_name_no_hidden_card_but_to_its_seat(table_game, game, players, variants, seed):
    t = table_game(game, players, seed, variants)
    t.start()
    rng = random.Random(seed)
    found = None
    for _ in range(MOVES):
        found = secret_tap(t.direct, t.events, t.places, t.output())
        if found is not None:
            break
        ask = t.direct["asks"][0]
        t.step({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
    assert found is not None, "no hand card could be tapped at the wrong time"
    seat, card = found
    name = notice_name(t.direct, card)
    moves = t.moves()

    # The wrong tap: refused on the host display as "a card", named on the seat's own page.
    t.lay(t.readers.index(t.places[seat]), card)
    wait_for("the refusal", lambda: "refused: " in t.output())
    wait_for("the notice", lambda: t.page(seat).get("notice"))
    assert card in hands(t.direct)[seat] and name not in named_in(t.direct, t.output()), t.output()[-2000:]
    assert_nothing_hidden_shown(t, tapper=seat)
    assert "refused: a card on seat%d: " % seat in t.output()
    assert name in named_in(t.direct, t.page(seat)["notice"]), (t.page(seat)["notice"], name)
    assert t.moves() == moves

    # The board reboots with that card (and whatever else) lying on its readers.
    assert card in t.resting.values()
    t.board.command("reboot")
    wait_for("the reboot line", lambda: "the board restarted" in t.output())
    ask = t.direct["asks"][0]  # the game goes on through the rebooted board
    t.step({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
    assert t.moves() == moves + 1
    assert_nothing_hidden_shown(t, tapper=seat)
    if card in hands(t.direct)[seat]:
        assert name not in named_in(t.direct, t.output())
    assert t.output().count("refused") == 1, t.output()


# --- the notice, in process ---------------------------------------------------------------------

def test_a_refused_tap_is_named_on_its_seats_page_only_until_its_next_command(tmp_path):
    session = Session.new("btwixt", {"players": 3, "variants": ["short"]}, 2, log_path=tmp_path / "g.sqlite")
    said = []
    profile = P.for_game("btwixt", 3)
    runner = TableRunner(session, profile, sim_tags(session.state), report=said.append)
    readers = [r["name"] for r in profile["readers"]]
    rng = random.Random(2)
    while True:  # to the first bid: seats hold their hands, one is asked
        ask = session.state["asks"][0]
        if ask["kind"] == "turn":
            break
        assert runner.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    state = session.state
    seat = next(s for s in range(3) if s != ask["seat"])
    card = next(c for c in hands(state)[seat] if forms(state, [c])[c] <= secret_names(state, session.events, PUBLIC))
    name = cardtables.table(state)["info"][card.split("#")[0]]["name"]
    web = WebGame(session, runner)
    try:
        runner.on_tap(Tap(readers.index("seat%d" % seat), "placed", bytes.fromhex(sim_uid(card)), 1))
        assert said == ["refused: a card on seat%d: nothing is asked here now" % seat]
        mine = json.loads(web.seat_json(seat))
        assert mine["notice"] == "%s on seat%d: nothing is asked here now" % (name, seat)
        assert name not in named_in(state, web.table_json()) and "notice\": null" in web.seat_json(ask["seat"])
        # Another seat's command leaves it; the seat's own accepted command clears it.
        assert runner.submit({"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]}).ok
        assert json.loads(web.seat_json(seat))["notice"] == mine["notice"]
        while session.state["asks"][0]["seat"] != seat:
            nxt = session.state["asks"][0]
            assert runner.submit({"seat": nxt["seat"], "ask": nxt["id"], "choice": nxt["choices"][0]}).ok
        nxt = session.state["asks"][0]
        assert runner.submit({"seat": seat, "ask": nxt["id"], "choice": nxt["choices"][0]}).ok
        assert json.loads(web.seat_json(seat))["notice"] is None
    finally:
        web.close()
    assert runner.on_private is None
    session.close()


def test_another_seats_hand_card_on_my_reader_is_a_card_on_my_page_too():
    # Issue 25: seat 1's hand card laid on seat 0's reader was named on seat 0's page.
    session = Session.new("lcg", {"players": 2, "owner_cards": False}, 4)
    state = session.state
    profile = P.for_game("lcg", 2)
    card = hands(state)[1][0]
    said = told(state, 0, card, profile, sim_tags(state))
    assert said[PUBLIC] == ["refused: a card on seat0: nothing is asked here now"]
    assert said[0] == ["a card on seat0: nothing is asked here now"] and 1 not in said
    own = hands(state)[0][0]  # ...and a seat's own card is still named on its own page
    name = notice_name(state, own)
    assert told(state, 0, own, profile, sim_tags(state))[0] == ["%s on seat0: nothing is asked here now" % name]


def test_a_mission_still_in_its_deck_is_a_card_on_the_host_display():
    # Issue 25: every mission card was taken for face up, so one still in the deck was named.
    session = Session.new("oathbreaker", {"players": 5, "owner_cards": False}, 5)
    state = session.state
    while state["g"]["phase"] != "mission" or not state["g"]["missions"]:
        ask = state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]}).ok
    profile, tags = P.for_game("oathbreaker", 5), sim_tags(state)
    unseen, dealt = state["g"]["mission_deck"][0], state["g"]["missions"][0]["card"]
    seat = next(s for s in range(5) if s != state["asks"][0]["seat"])
    assert told(state, seat, unseen, profile, tags)[PUBLIC][0].startswith("refused: a card on seat%d: " % seat)
    name = notice_name(state, dealt)
    assert told(state, seat, dealt, profile, tags)[PUBLIC][0].startswith("refused: %s on seat%d: " % (name, seat))
