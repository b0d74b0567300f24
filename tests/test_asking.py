"""What the table answers itself, and what it puts to people (table/asking.py, issue 28 item 2).

1. No prompt without a choice: in whole games of all four games, no decision whose only legal
   answer moves no card reaches a person; such an answer is given at once, logged as its command,
   so the log replays exactly.
2. The window rule: a window (an ask whose choices hang on a hidden hand) stays open the same
   `window_ms` for every seat and then closes with the game's answer for its end, unless the seat
   acts or holds it.
3. No leak from being asked: with and without a card that could act, the public view, the table
   page's data (countdowns included), the LEDs and the time and command that close the window are
   the same. The LCG and B'Twixt on real hands that differ; Intrigue and Oathbreaker have no window
   and the table answers nothing of theirs itself, so nothing there can depend on a hand.
"""

import json
import random

import pytest

from maester.bench import inputs
from maester.engine import PUBLIC, core, new_game, view
from maester.engine.bots import card_info, decide, make_bot
from maester.engine.session import Session
from maester.games import DEFAULT_PLAYERS, NAMES, part
from maester.table import asking
from maester.web.payload import table_payload

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

WINDOW_MS = 1500


def fake_state(game, *asks):
    return {"game": game, "asks": list(asks), "over": False, "g": {}}


def an_ask(id, seat, kind, *choices):
    return {"id": id, "seat": seat, "kind": kind, "choices": [list(c) for c in choices], "prompt": ""}


# --- 1. no prompt without a choice -----------------------------------------------------------------

@pytest.mark.parametrize("game", NAMES)
def test_no_lone_answer_that_moves_no_card_is_put_to_a_person(game):
    before = inputs.run(game, DEFAULT_PLAYERS[game], games=2, seed=5, auto=None)
    after = inputs.run(game, DEFAULT_PLAYERS[game], games=2, seed=5)
    assert after["single_choice_prompts"] == 0
    assert after["asks_put_to_people"] <= before["asks_put_to_people"]
    if game == "lcg":  # the LCG's lone passes were most of its prompts
        assert before["single_choice_prompts"] > 50
        assert after["inputs_per_round"]["median"] < before["inputs_per_round"]["median"] / 2


def test_a_lone_answer_is_given_at_once_and_one_that_moves_a_card_stays_a_tap():
    a = asking.Asking([0, 1])
    state = fake_state("lcg", an_ask(4, 0, "target", ("target", 1)), an_ask(5, 1, "claim_kill", ("kill", "S5#1")),
                       an_ask(6, 2, "target", ("target", 0)))
    commands, wait = a.due(state, 0.0)
    # Seat 2 is a bot's: it answers for itself, with the same command.
    assert commands == [{"seat": 0, "ask": 4, "choice": ["target", 1]}] and wait is None
    assert not asking.put_to_person(state, state["asks"][0]) and asking.put_to_person(state, state["asks"][1])


def test_a_kneel_turns_the_btwixt_leader_card_so_it_stays_a_tap():
    state = fake_state("btwixt", an_ask(3, 0, "turn", ("kneel",)))
    assert asking.put_to_person(state, state["asks"][0])


def test_the_table_answers_are_logged_and_the_game_replays_exactly(tmp_path):
    """People at both seats of an LCG game with observed draws: the table gives the lone answers and
    lets the windows run out; everything else is a person's (the heuristic bot's) choice."""
    session = Session.new("lcg", {"players": 2, "observe": ["draws"]}, 8, str(tmp_path / "g.sqlite"))
    state = session.state
    info = card_info(state)
    people = [make_bot("lcg", "heuristic", 8, s, info) for s in range(2)]
    a = asking.Asking([0, 1], WINDOW_MS)
    now, by_table = 0.0, 0
    while not session.state["over"]:
        commands, wait = a.due(session.state, now)
        if commands:
            for c in commands:
                assert session.submit(c).ok
                by_table += 1
            continue
        ask = session.state["asks"][0]
        choice = decide(people[ask["seat"]], session.state, ask["seat"], ask, core.view)
        if asking.is_window(session.state, ask) and choice == asking.window_end(session.state, ask):
            now += wait  # a person who does not act: the window runs out
            continue
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok
        now += 1.0
    assert by_table > 100
    log = session.log.path
    session.close()
    again = Session.resume(log)
    assert again.state == session.state
    again.close()


# --- 2. the window rule -------------------------------------------------------------------------------

def test_a_window_closes_after_window_ms_with_its_end_answer_unless_held():
    a = asking.Asking([0, 1], WINDOW_MS)
    state = fake_state("lcg", an_ask(9, 1, "response", ("respond", "S5#1", 0), ("pass",)))
    assert a.due(state, 10.0) == ([], 1.5)
    assert a.countdown(state, 10.5) == [{"ask": 9, "seat": 1, "held": False, "left_ms": 1000}]
    assert a.due(state, 11.5) == ([{"seat": 1, "ask": 9, "choice": ["pass"]}], None)
    # Held: the clock stops until the seat answers, however long it takes.
    assert a.hold(state, 0, 9) is not None  # not seat 0's window
    assert a.hold(state, 1, 9) is None
    assert a.due(state, 99.0) == ([], None)
    assert a.countdown(state, 99.0) == [{"ask": 9, "seat": 1, "held": True, "left_ms": None}]
    state["asks"].clear()  # answered: its clock is forgotten
    assert a.due(state, 100.0) == ([], None) and a.opened == {} and a.held == set()


def test_the_lcg_setup_is_a_window_that_ends_with_done():
    a = asking.Asking([0], WINDOW_MS)
    state = fake_state("lcg", an_ask(2, 0, "setup", ("done",)))
    assert a.due(state, 0.0) == ([], 1.5)
    assert a.due(state, 1.5)[0] == [{"seat": 0, "ask": 2, "choice": ["done"]}]


# --- 3. no leak from being asked ---------------------------------------------------------------------

def public_side(state, events, people):
    """Everything the table sees of `state` while its open window runs, if nobody acts: the public
    view, the table page's data with the countdowns, the LEDs, and when and how the table closes it."""
    public = view(state, PUBLIC)
    a = asking.Asking(people, WINDOW_MS)
    page = dict(table_payload(state, events), windows=a.countdown(state, 0.0))
    now, closed = 0.0, None
    for _ in range(3):
        commands, wait = a.due(state, now)
        if commands or wait is None:
            closed = (now, commands)
            break
        now += wait
    return public, page, part(state["game"], "table").segments(public), closed


def test_lcg_windows_look_the_same_with_and_without_a_card_that_could_act():
    from test_lcg_leaks import config, hide_differently, reasked, states_along_a_game
    rng = random.Random(4)
    compared = differed = 0
    for observe in ((), ("draws",)):
        for state, events in states_along_a_game(config(2, observe), 11 + len(observe), limit=700):
            if len(state["asks"]) != 1 or not asking.is_window(state, state["asks"][0]):
                continue
            seat = state["asks"][0]["seat"]
            other = hide_differently(state, seat, rng)
            a, b = reasked(state), reasked(other)
            if a is None or b is None or not a["asks"] or not b["asks"]:
                continue
            ca, cb = a["asks"][0]["choices"], b["asks"][0]["choices"]
            differed += (len(ca) > 1) != (len(cb) > 1)  # one hand could act, the other could not
            side_a, side_b = public_side(a, events, [0, 1]), public_side(b, events, [0, 1])
            assert side_a == side_b, "being asked tells the table what seat %s holds" % seat
            assert side_a[3][0] == WINDOW_MS / 1000.0  # closed by the clock, for both
            compared += 1
    assert compared > 50 and differed > 5


def test_btwixt_robb_stark_window_looks_the_same_with_and_without_a_betrayal():
    from btwixt_harness import Table

    def at_robbs_question(betrayal):
        t = Table(4)
        t.hand(0); t.hand(1, "betrayal#1" if betrayal else "corruption#1"); t.hand(2); t.hand(3)
        t.current("robb-stark#1")
        t.kneel_all()
        t.choose(0, "council", 0)
        ask = t.ask()
        assert (ask["seat"], ask["kind"]) == (1, "robb_kill")
        return t.state, ask

    with_card, ask_with = at_robbs_question(True)
    without, ask_without = at_robbs_question(False)
    assert ask_with["choices"] == [["betray"], ["decline"]] and ask_without["choices"] == [["decline"]]
    people = [0, 1, 2, 3]
    # Without the card seat 1 is not prompted at all; with it, it may betray or hold within the window.
    assert not asking.put_to_person(without, ask_without) and asking.put_to_person(with_card, ask_with)
    side_with, side_without = public_side(with_card, [], people), public_side(without, [], people)
    assert side_with == side_without
    assert side_with[3] == (WINDOW_MS / 1000.0, [{"seat": 1, "ask": ask_with["id"], "choice": ["decline"]}])


@pytest.mark.parametrize("game", ["intrigue", "oathbreaker"])
def test_games_without_windows_have_nothing_answered_by_the_table(game):
    """No window, and no lone answer that moves no card in whole games: every ask reaches its seat
    as the engine asks it, so the table's pace hangs on no hand (their own leak tests cover the asks)."""
    assert not getattr(part(game, "table"), "WINDOW_KINDS", None)
    players = DEFAULT_PLAYERS[game]
    for seed in (1, 2):
        for observe in ((), list(__import__("maester.games." + game, fromlist=["x"]).OBSERVABLE)):
            state, _ = new_game(game, {"players": players, "variants": [], "observe": observe}, seed)
            info = card_info(state)
            bots = [make_bot(game, "heuristic", seed, s, info) for s in range(players)]
            rng = random.Random(seed)
            while not state["over"]:
                ask = state["asks"][0]
                assert asking.put_to_person(state, ask), ask
                seat = ask["seat"]
                choice = decide(bots[seat], state, seat, ask, core.view) if isinstance(seat, int) \
                    else rng.choice(ask["choices"])
                assert core.apply(state, {"seat": seat, "ask": ask["id"], "choice": choice}).ok


def test_a_window_shows_the_same_countdown_on_every_page_and_a_seat_may_hold_it():
    """The web side: the seat's page and the table page carry the same countdown; a hold from the
    seat's page stops it, and another seat's page cannot hold it."""
    from maester.web.app import WebGame
    session = Session.new("lcg", {"players": 2}, 3)
    pacer = asking.Pacer(session, [0, 1], WINDOW_MS, clock=lambda: 5.0)
    web = WebGame(session, pacer=pacer)
    try:
        state = session.state
        while not state["over"] and not any(asking.is_window(state, a) for a in state["asks"]):
            ask = state["asks"][0]
            assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]}).ok
        window = next(a for a in state["asks"] if asking.is_window(state, a))
        seat_page = json.loads(web.seat_json(window["seat"]))
        table_page = json.loads(web.table_json())
        assert seat_page["windows"] == table_page["windows"] == [
            {"ask": window["id"], "seat": window["seat"], "held": False, "left_ms": WINDOW_MS}]
        # A lone pass is not shown as a button to press.
        shown = [d["ask"] for d in seat_page.get("decisions", [])]
        assert (window["id"] in shown) == (len(window["choices"]) > 1)
        other = 1 - window["seat"]
        assert web.choose(other, {"ask": window["id"], "hold": True})[0] == 409
        assert web.choose(window["seat"], {"ask": window["id"], "hold": True}) == (200, {"ok": True, "reason": None})
        assert json.loads(web.table_json())["windows"][0]["held"] is True
    finally:
        web.close()
        pacer.stop()


def test_the_countdown_and_hold_show_on_the_seat_page_and_the_table_page(chromium):
    """In headless Chromium: the window's countdown on the seat's phone page and on the TV's table
    page, the Hold button on the seat's page only; a press on it stops the clock on both."""
    from maester.web.app import build_app, WebGame
    from maester.web.server import WebServer
    from page_checks import problems
    session = Session.new("lcg", {"players": 2}, 3)
    state = session.state
    while not any(asking.is_window(state, a) and len(a["choices"]) > 1 for a in state["asks"]):
        ask = state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][-1]}).ok
    window = next(a for a in state["asks"] if asking.is_window(state, a))
    seat = window["seat"]
    pacer = asking.Pacer(session, [0, 1], 60000)  # not started: nothing closes the window meanwhile
    web = WebGame(session, pacer=pacer)
    pacer.on_change = web.changed
    try:
        with WebServer(build_app(web)) as server:
            phone = chromium.new_page(viewport={"width": 390, "height": 844})
            tv = chromium.new_page(viewport={"width": 1920, "height": 1080})
            try:
                phone.set_default_timeout(120000)
                tv.set_default_timeout(120000)
                phone.goto("%s/seat/%d/%s" % (server.base, seat, web.tokens[seat]))
                tv.goto(server.base + "/table")
                for page in (phone, tv):
                    page.wait_for_selector(".window .countdown")
                    assert page.inner_text(".window").endswith(" s") or "closes in" in page.inner_text(".window")
                assert phone.locator("button.hold").count() == 1 and tv.locator("button.hold").count() == 0
                assert not problems(phone, core.view(state, seat)) and not problems(tv, core.view(state, PUBLIC), tv=True)
                phone.click("button.hold")
                # A locator, not wait_for_function: a polled string is an eval, which the pages' CSP forbids.
                tv.locator(".window", has_text="held").wait_for()
                assert phone.locator(".window .countdown").count() == 0 or "held" in phone.inner_text(".window")
            finally:
                phone.close()
                tv.close()
    finally:
        web.close()


def test_at_the_keyboard_a_window_with_a_choice_waits_for_its_prompt_and_one_without_runs_out():
    a = asking.Asking([0, 1], WINDOW_MS)
    a.prompted = {0, 1}
    state = fake_state("lcg", an_ask(3, 0, "response", ("respond", "S5#0", 0), ("pass",)),
                       an_ask(4, 1, "response", ("pass",)))
    assert a.due(state, 0.0) == ([], 1.5)
    assert a.due(state, 60.0) == ([{"seat": 1, "ask": 4, "choice": ["pass"]}], None)
