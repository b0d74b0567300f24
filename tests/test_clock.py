"""Chess clocks (table/clocks.py, issue 30 item 3), on a simulated clock: time is a number the test
moves, nothing sleeps.

- `--clock` is parsed, and a bad value refused in one line before anything runs;
- a clock runs while its seat is asked (every seat asked at once, in a simultaneous decision), by
  the public asks alone, and an increment rewards an answer the seat made itself;
- at zero, the per-game rule answers for the seat (B'Twixt: the lowest bid; the LCG: the window's
  end, pass; others: the decision's pass, else its first choice), as a command the engine accepts
  and the log replays; `--clock-zero lose` ends the game, that seat losing;
- the clocks are kept in the log with the moves: `resume` continues them where they stopped;
- a seat whose time is low blinks on the LEDs;
- they stop while the board is lost.
"""

import argparse

import pytest

from maester import cli
from maester.engine import PUBLIC, core
from maester.engine.bots import card_info, decide, make_bot
from maester.engine.session import Session
from maester.games import DEFAULT_PLAYERS, NAMES, part
from maester.table import asking, board, clocks

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


class Time:
    """The injected time source: seconds, moved by the test."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t

    def go(self, seconds):
        self.t += seconds


MIN = 60000


# --- parsing ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, base, inc", [("25m", 25 * MIN, 0), ("20m+10s", 20 * MIN, 10000),
                                             ("1h30m", 90 * MIN, 0), ("90s+2s", 90000, 2000), (" 5M ", 5 * MIN, 0),
                                             ("1.5m+0.5s", 90000, 500)])
def test_a_clock_is_parsed(text, base, inc):
    assert clocks.parse_clock(text) == {"base_ms": base, "increment_ms": inc}
    assert clocks.parse_clock(clocks.words(clocks.parse_clock(text))) == clocks.parse_clock(text)


@pytest.mark.parametrize("text, said", [("25", "not a clock"), ("25x", "not a clock"), ("m", "not a clock"),
                                        ("+10s", "not a clock"), ("20m+", "not a clock"), ("-5m", "not a clock"),
                                        ("5s", "from 10s to 10h"), ("11h", "from 10s to 10h"),
                                        ("20m+11m", "at most 10m"), ("nan", "not a clock")])
def test_a_bad_clock_is_refused_with_the_reason(text, said):
    with pytest.raises(argparse.ArgumentTypeError, match=said):
        clocks.parse_clock(text)


def test_the_command_line_refuses_a_bad_clock_before_anything_runs(capsys, tmp_path):
    with pytest.raises(SystemExit) as stop:
        cli.main(["play", "btwixt", "--sim", "--no-table", "--clock", "25x", "--log", str(tmp_path / "g.sqlite")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--clock: '25x' is not a clock" in err and not (tmp_path / "g.sqlite").exists()
    with pytest.raises(SystemExit):
        cli.main(["serve", "--log", str(tmp_path / "g.sqlite"), "--clock-zero", "never"])
    assert "invalid choice: 'never'" in capsys.readouterr().err


# --- running --------------------------------------------------------------------------------------

def fake_state(game, *asks, over=False):
    return {"game": game, "asks": list(asks), "over": over, "g": {}, "config": {}}


def an_ask(id, seat, kind, *choices):
    return {"id": id, "seat": seat, "kind": kind, "choices": [list(c) for c in choices], "prompt": ""}


def test_a_clock_runs_while_its_seat_is_asked_and_every_seat_asked_at_once_runs():
    now = Time()
    c = clocks.Clocks(clocks.parse_clock("10m"), [0, 1, 2], now())
    c.sync(fake_state("intrigue", an_ask(1, 0, "play", ("a",), ("b",))), now())
    now.go(30)
    assert c.reading(now())["left_ms"] == {"0": 10 * MIN - 30000, "1": 10 * MIN, "2": 10 * MIN}
    # A simultaneous decision: seats 1 and 2 are both asked; seat 3 is a bot's, with no clock.
    c.sync(fake_state("intrigue", an_ask(2, 1, "play", ("a",), ("b",)), an_ask(3, 2, "play", ("a",), ("b",)),
                      an_ask(4, 3, "play", ("a",), ("b",))), now())
    now.go(5)
    assert c.reading(now())["left_ms"] == {"0": 10 * MIN - 30000, "1": 10 * MIN - 5000, "2": 10 * MIN - 5000}
    shown = c.public(now())
    assert [s["running"] for s in shown["seats"]] == [False, True, True] and shown["setting"] == "10m"


def test_a_clock_runs_by_who_is_asked_never_by_what_a_hand_holds():
    # The LCG's action window asks every seat, whatever it holds: both clocks run, the same.
    now = Time()
    c = clocks.Clocks(clocks.parse_clock("5m"), [0, 1], now())
    holds_a_card = an_ask(7, 0, "action", ("pass",), ("play", "C1#1"))
    holds_nothing = an_ask(8, 1, "action", ("pass",))
    c.sync(fake_state("lcg", holds_a_card, holds_nothing), now())
    now.go(2)
    assert [s["left_ms"] for s in c.public(now())["seats"]] == [5 * MIN - 2000] * 2


def test_the_increment_rewards_an_answer_the_seat_made_itself():
    now = Time()
    c = clocks.Clocks(clocks.parse_clock("1m+10s"), [0, 1], now())
    turn = an_ask(1, 0, "play", ("a",), ("b",))
    state = fake_state("intrigue", turn)
    c.sync(state, now())
    now.go(4)
    assert c.stamp(state, {"seat": 0, "ask": 1, "choice": ["a"]}, now())["left_ms"]["0"] == 60000 - 4000 + 10000
    # A window closed by its end, or a lone answer the table gives, earns nothing.
    window = an_ask(2, 1, "action", ("pass",), ("play", "C1#1"))
    state = fake_state("lcg", window)
    c.sync(state, now())
    now.go(1)
    assert c.stamp(state, {"seat": 1, "ask": 2, "choice": ["pass"]}, now())["left_ms"]["1"] == 59000
    acted = an_ask(3, 1, "action", ("pass",), ("play", "C1#1"))
    state = fake_state("lcg", acted)
    c.sync(state, now())
    assert c.stamp(state, {"seat": 1, "ask": 3, "choice": ["play", "C1#1"]}, now())["left_ms"]["1"] == 69000


def test_the_clocks_stop_at_the_end_and_while_paused():
    now = Time()
    c = clocks.Clocks(clocks.parse_clock("1m"), [0], now())
    c.sync(fake_state("intrigue", an_ask(1, 0, "play", ("a",), ("b",))), now())
    c.pause("paused", now())
    now.go(30)
    assert c.reading(now())["left_ms"]["0"] == 60000
    assert c.due(fake_state("intrigue", an_ask(1, 0, "play", ("a",))), now()) == ([], None)
    c.unpause("paused", now())
    now.go(10)
    assert c.reading(now())["left_ms"]["0"] == 50000
    c.sync(fake_state("intrigue", over=True), now())
    now.go(100)
    assert c.reading(now())["left_ms"]["0"] == 50000


# --- at zero, per game ----------------------------------------------------------------------------

def advance(session, until, bots, limit=3000):
    """Let bots answer (each seat's own) until `until(state, ask)` holds for an open ask; that ask."""
    for _ in range(limit):
        state = session.state
        assert not state["over"], "the game ended before the decision looked for"
        for ask in state["asks"]:
            if until(state, ask):
                return ask
        ask = state["asks"][0]
        choice = decide(bots[ask["seat"]], state, ask["seat"], ask, core.view) if ask["seat"] in bots else ask["choices"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok
    raise AssertionError("no such decision in %d moves" % limit)


def new_session(game, tmp_path=None, config=None, seed=3):
    conf = dict(config or {}, players=DEFAULT_PLAYERS[game], variants=[])
    return Session.new(game, conf, seed, str(tmp_path / "game.sqlite") if tmp_path else None)


def bots_for(session):
    info = card_info(session.state)
    seats = core.get_game(session.state["game"]).seat_count(session.state)
    return {s: make_bot(session.state["game"], "random", 1, s, info) for s in range(seats)}


def out_of_time(session, seats, now, zero="rule"):
    """Clocks for `seats`, already at zero."""
    c = clocks.Clocks(clocks.parse_clock("10s"), seats, now(), {s: 0 for s in seats}, zero)
    c.sync(session.state, now())
    return c


def test_btwixt_at_zero_bids_its_lowest_card():
    session = new_session("btwixt")
    ask = advance(session, lambda state, a: a["kind"] == "turn" and len([c for c in a["choices"] if c[0] == "play"]) > 2,
                  bots_for(session))
    now = Time()
    commands, _ = out_of_time(session, [ask["seat"]], now).due(session.state, now())
    value = part("btwixt", "zones").facts(session.state["g"])["value"]
    bids = [c for c in ask["choices"] if c[0] == "play"]
    assert commands == [{"seat": ask["seat"], "ask": ask["id"], "choice": min(bids, key=lambda c: value[c[1]])}]
    assert value[commands[0]["choice"][1]] == min(value[c[1]] for c in bids)
    assert session.submit(commands[0]).ok


def test_the_lcg_at_zero_passes_its_window():
    session = new_session("lcg")
    ask = advance(session, lambda state, a: a["kind"] == "action" and len(a["choices"]) > 1, bots_for(session))
    now = Time()
    commands, _ = out_of_time(session, [ask["seat"]], now).due(session.state, now())
    assert {"seat": ask["seat"], "ask": ask["id"], "choice": ["pass"]} in commands
    marshal = new_session("lcg", seed=4)
    ask = advance(marshal, lambda state, a: a["kind"] == "marshal", bots_for(marshal))
    commands, _ = out_of_time(marshal, [ask["seat"]], now).due(marshal.state, now())
    assert {"seat": ask["seat"], "ask": ask["id"], "choice": ["done"]} in commands


@pytest.mark.parametrize("game", NAMES)
def test_a_game_whose_every_seat_is_out_of_time_goes_on_by_the_rule_and_replays(game, tmp_path):
    session = new_session(game, tmp_path)
    seats = list(range(core.get_game(game).seat_count(session.state)))
    now = Time()
    c = out_of_time(session, seats, now)
    for _ in range(400):
        if session.state["over"]:
            break
        c.sync(session.state, now())
        commands, _ = c.due(session.state, now())
        assert commands, "every open decision of a seat out of time has an answer"
        for command in commands:
            ask = core.find_ask(session.state, command["ask"])
            if ask is None:
                continue
            assert command["choice"] == clocks.zero_answer(session.state, ask)
            end = asking.window_end(session.state, ask)
            if end is not None:
                assert command["choice"] == end  # a window: its end
            elif command["choice"] not in clocks.PASSES and not (game == "btwixt" and ask["kind"] == "turn"):
                assert not any(p in ask["choices"] for p in clocks.PASSES) and command["choice"] == ask["choices"][0]
            assert session.submit(command).ok
    assert session.state["seq"] > 20
    replayed = Session.resume(str(tmp_path / "game.sqlite"))
    assert replayed.state == session.state
    replayed.close()
    session.close()


@pytest.mark.parametrize("game", NAMES)
def test_clock_zero_lose_ends_the_game_that_seat_losing(game, tmp_path):
    session = new_session(game, tmp_path, {"clock_zero": "lose"})
    now = Time()
    seat = next(a["seat"] for a in session.state["asks"] if type(a["seat"]) is int)
    commands, _ = out_of_time(session, [seat], now, zero="lose").due(session.state, now())
    assert commands[0]["choice"] == core.OUT_OF_TIME and commands[0]["seat"] == seat
    assert session.submit(commands[0]).ok
    players = core.get_game(game).seat_count(session.state)
    assert session.state["over"] and session.state["result"]["out_of_time"] == seat
    assert session.state["result"]["winners"] == [s for s in range(players) if s != seat]
    view = core.view(session.state, PUBLIC)
    assert clocks.out_of_time_words(view, lambda s: "Seat %d" % s).startswith("Seat %d ran out of time" % seat)
    # The pages and the terminal show it (the game's own end, with its scores, never came).
    from maester.terminal.screen import scores_lines
    from maester.web.payload import table_payload
    assert "ran out of time" in scores_lines(view, session.state["config"])[0]
    assert "ran out of time" in str(table_payload(session.state, session.events)["layout"])
    replayed = Session.resume(str(tmp_path / "game.sqlite"))
    assert replayed.state == session.state
    replayed.close()
    session.close()


def test_out_of_time_is_refused_in_a_game_started_without_it():
    session = new_session("intrigue")
    ask = session.state["asks"][0]
    refused = session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": core.OUT_OF_TIME})
    assert not refused.ok and "not a legal choice" in refused.reason and not session.state["over"]


# --- kept in the log ------------------------------------------------------------------------------

def test_resume_continues_the_clocks_where_they_stopped(tmp_path):
    session = new_session("intrigue", tmp_path)
    now = Time()
    kept = clocks.start(session, [0, 1], clocks.parse_clock("20m+10s"), now=now)
    asked = {a["seat"] for a in session.state["asks"]}
    now.go(40)
    ask = next(a for a in session.state["asks"] if a["seat"] == 0)
    assert session.submit({"seat": 0, "ask": ask["id"], "choice": ask["choices"][0]}).ok
    after_move = dict(kept.clocks.left)
    assert after_move[0] == 20 * MIN - 40000 + 10000
    assert after_move[1] == (20 * MIN - 40000 if 1 in asked else 20 * MIN)
    now.go(7)  # then the program stops (q, Ctrl-C): the reading where they stopped is kept
    kept.close()
    stopped = dict(kept.clocks.left)
    session.close()

    resumed = Session.resume(str(tmp_path / "game.sqlite"))
    later = Time()
    again = clocks.start(resumed, [0, 1], now=later)  # no --clock: the log's clocks, and their time
    assert again.clocks.setting["base_ms"] == 20 * MIN and again.clocks.setting["increment_ms"] == 10000
    assert again.clocks.left == stopped
    with pytest.raises(ValueError, match="keeps its clocks"):
        clocks.start(resumed, [0, 1], clocks.parse_clock("5m"), now=later)
    resumed.close()


def test_a_crash_loses_no_more_than_the_time_since_the_last_reading(tmp_path):
    session = new_session("intrigue", tmp_path)
    now = Time()
    kept = clocks.start(session, [0, 1], clocks.parse_clock("20m"), now=now)
    seat = session.state["asks"][0]["seat"]
    now.go(clocks.RECORD_EVERY_S + 1)
    kept.due(session.state, now())  # the pacer's look: a reading is due
    left = kept.clocks.left[seat]
    # Killed here: nothing closes the clocks.
    resumed = Session.resume(str(tmp_path / "game.sqlite"))
    assert clocks.start(resumed, [0, 1], now=Time()).clocks.left[seat] == left
    resumed.close()
    session.close()


# --- the LEDs and the board -----------------------------------------------------------------------

@pytest.mark.parametrize("game", NAMES)
def test_a_seat_low_on_time_blinks_on_the_leds(game):
    session = new_session(game)
    now = Time()
    seat = next(a["seat"] for a in session.state["asks"] if type(a["seat"]) is int)
    other = (seat + 1) % core.get_game(game).seat_count(session.state)
    c = clocks.Clocks(clocks.parse_clock("25m"), [seat, other], now(), {seat: 61000, other: 25 * MIN})
    c.sync(session.state, now())
    segments = part(game, "table").segments

    def lights():
        view = core.view(session.state, PUBLIC)
        view["clocks"] = c.public(now())
        return segments(view)

    assert lights()["seat%d" % seat][2] != "blink"
    now.go(2)  # 59 s left: low (a tenth of 25m, at most 60 s)
    low = lights()["seat%d" % seat]
    assert low[2] == "blink" and low[1] == (255, 90, 0)
    assert lights()["seat%d" % other][2] != "blink"


def test_the_clocks_stop_while_the_board_is_lost(tmp_path):
    session = new_session("intrigue", tmp_path)
    now = Time()
    from maester.terminal import clocks_shown

    class Board:  # what terminal/game.py is given for a board: its link's notice of a lost board
        lost = board._LostNotice(lambda text: None)

    notice = Board.lost
    notice.armed = True
    pacer = asking.Pacer(session, [0, 1, 2, 3])
    kept = clocks_shown.start(session, [0, 1, 2, 3], None, Board(), pacer, clocks.parse_clock("10m"), now=now)
    seat = session.state["asks"][0]["seat"]

    class Event:
        def __init__(self, kind):
            self.kind = kind

    now.go(5)
    notice(Event("disconnected"))
    assert kept.public()["paused"] == ["board"]
    assert "stopped: the board is lost" in clocks.clock_line(kept.public(), str)
    now.go(300)
    assert kept.clocks.due(session.state, now()) == ([], None)
    notice(Event("connected"))
    now.go(5)
    assert kept.public()["seats"][seat]["left_ms"] == 10 * MIN - 10000
    kept.close()
    session.close()


# --- the pages --------------------------------------------------------------------------------------

def test_the_table_and_seat_pages_show_the_clocks(chromium, tmp_path):
    import sys
    from pathlib import Path

    from maester.web.app import WebGame, build_app
    from maester.web.server import WebServer
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs"))
    import make_screenshots as shots

    path = shots.clock_table(tmp_path, chromium)  # the picture of docs/screenshots/clock-table.png
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    session, seat = shots.game("btwixt")
    pacer = asking.Pacer(session, [0, 1, 2, 3])
    pacer.clocks = clocks.SessionClocks(session, clocks.Clocks(clocks.parse_clock("25m"), range(4), 0.0,
                                                               {seat: 30000}), lambda: 0.0)
    web = WebGame(session, pacer=pacer)
    try:
        with WebServer(build_app(web)) as server:
            for url in (server.base + "/table", "%s/seat/%d/%s" % (server.base, seat, web.tokens[seat])):
                page = chromium.new_page(viewport={"width": 1280, "height": 900})
                try:
                    page.goto(url)
                    page.wait_for_selector(".clocks .clock")
                    faces = page.query_selector_all(".clock")
                    assert len(faces) == 4
                    low = page.query_selector_all(".clock.low")
                    assert [f.get_attribute("data-seat") for f in low] == [str(seat)]
                    assert page.query_selector(".clock.low.running") is not None  # it is the seat asked
                    # A running clock counts down on the page between two of the host's readings.
                    assert page.inner_text(".clock.low .clock-time") in ("0:30", "0:29", "0:28", "0:27")
                    text = page.inner_text(".clocks")
                    assert "Clocks 25m" in text and "25:00" in text
                    if "/seat/" in url:
                        assert page.inner_text(".clock.mine .clock-who") == "You"
                finally:
                    page.close()
    finally:
        pacer.clocks.close()
        web.close()


def test_the_table_answers_for_a_seat_out_of_time_and_its_leds_blink(tmp_path):
    """The Pacer (table/asking.py) submits the zero rule as the seat's command, through the table
    runner as a tap would go; the runner draws the low seat's segment blinking on the board."""
    from maester.table import profile as P
    from maester.table.runner import TableRunner, segment_ids

    class Link:
        def __init__(self):
            self.sent = {}

        def set_segment(self, seg, level, rgb, pattern, period):
            self.sent[seg] = (level, tuple(rgb), pattern, period)

    session = new_session("btwixt", tmp_path)
    prof = P.for_game("btwixt", 4)
    runner = TableRunner(session, prof, {}, report=lambda text: None)
    link = Link()
    now = Time()
    seat = next(a["seat"] for a in session.state["asks"] if type(a["seat"]) is int)
    pacer = asking.Pacer(session, [seat], submit=runner.submit, clock=now)
    pacer.clocks = clocks.SessionClocks(session, clocks.Clocks(clocks.parse_clock("1m"), [seat], now(), {seat: 5000}), now)
    runner.clocks = pacer.clocks
    pacer.clocks.listeners.append(runner.refresh_leds)
    runner.attach(link)
    blink = segment_ids(prof)["seat%d" % seat]
    assert link.sent[blink][1:3] == ((255, 90, 0), 2)  # 5 s left of 1m: low, blinking
    ask = next(a for a in session.state["asks"] if a["seat"] == seat)
    expected = {"seat": seat, "ask": ask["id"], "choice": clocks.zero_answer(session.state, ask)}
    now.go(6)  # out of time
    pacer.start()
    try:
        pacer.wait_closed(ask["id"])
    finally:
        pacer.stop()
    assert expected in [c for _, c, _ in session.log.entries()]  # logged as the command it stands for
    assert link.sent[blink][1:3] == ((255, 90, 0), 2)  # still out of time: still blinking
    pacer.clocks.close()
    session.close()


def test_p_at_the_terminal_pauses_the_game_and_its_clocks(tmp_path):
    from maester.terminal import clocks_shown
    session = new_session("intrigue", tmp_path)
    now = Time()
    kept = clocks.start(session, [0, 1, 2, 3], clocks.parse_clock("10m"), now=now)
    seat = session.state["asks"][0]["seat"]
    assert clocks_shown.pause_or_go(kept).startswith("Paused")
    now.go(60)
    assert kept.public()["seats"][seat]["left_ms"] == 10 * MIN
    assert "stopped: the game is paused" in clocks_shown.line(kept)
    assert clocks_shown.pause_or_go(kept) == "The clocks run again."
    now.go(1)
    assert kept.public()["seats"][seat]["left_ms"] == 10 * MIN - 1000
    kept.close()
    session.close()


def test_clock_zero_without_a_clock_is_refused_before_a_game_starts(capsys, tmp_path):
    log = tmp_path / "g.sqlite"
    assert cli.main(["play", "btwixt", "--sim", "--no-table", "--clock-zero", "lose", "--log", str(log)]) == 2
    assert "give the clock too, e.g. --clock 25m" in capsys.readouterr().err and not log.exists()


def test_a_prompt_at_the_keyboard_stops_when_the_clock_answered_for_its_seat(monkeypatch, capsys):
    import os
    from maester.terminal.screen import Answered, Screen
    session = new_session("intrigue")
    screen = Screen(session, [0], 0, plain=True)
    r, w = os.pipe()
    with os.fdopen(r) as typed, os.fdopen(w, "w") as keys:
        monkeypatch.setattr("sys.stdin", typed)
        closed = [False]
        screen.gone = lambda: closed[0]
        keys.write("2\n")
        keys.flush()
        assert screen.read("Your choice: ") == "2"  # typed in time: read as ever
        closed[0] = True  # nothing typed, and the table answered for the seat (its time ran out)
        with pytest.raises(Answered):
            screen.read("Your choice: ")
    session.close()
