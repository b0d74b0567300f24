"""The whole chain: simulated readers → real MicroPython firmware → pty → pyserial link → table →
engine, and back to the LEDs. A game played by taps ends exactly as the same commands applied
straight to the engine."""

import random
import threading
import time

import pytest

from maester.engine import apply, new_game
from maester.engine.session import Session
from maester.link import BoardLink
from maester.link.simboard import HAND_S, start_simulated_board
from maester.table import profile as P
from maester.table.runner import TableRunner, board_config, sim_tags, sim_uid
from test_table import tap_for

CONFIG = {"players": 3, "variants": ["short"], "observe": ["allies", "hands"]}


@pytest.fixture
def table(tmp_path):
    prof = P.for_game("btwixt", 3)
    board = start_simulated_board(config=board_config(prof))
    session = Session.new("btwixt", CONFIG, 21, log_path=tmp_path / "game.sqlite")
    refused = []
    runner = TableRunner(session, prof, sim_tags(session.state), report=refused.append)
    removed = threading.Condition()
    lifted = []

    def on_tap(tap):
        runner.on_tap(tap)
        if tap.kind == "removed":
            with removed:
                lifted.append(tap.reader)
                removed.notify_all()

    link = BoardLink(board.port, on_tap)
    link.start()
    assert link.wait_connected(20), "the link never connected to the simulated board"
    runner.attach(link)
    yield board, link, runner, session, prof, refused, (removed, lifted)
    link.close()
    board.stop()
    session.close()


def test_a_game_played_by_taps_on_the_simulated_table(table):
    board, link, runner, session, prof, refused, (removed, lifted) = table
    direct, _ = new_game("btwixt", CONFIG, 21)
    readers = [r["name"] for r in prof["readers"]]
    resting = {}  # reader index → card lying on it
    rng = random.Random(21)
    taps = 0
    while not session.state["over"]:
        ask = session.state["asks"][0]
        command = {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}
        card = tap_for(session.state, command)
        if card is None:
            assert runner.submit(command).ok
        else:
            reader = readers.index("deck" if command["seat"] == "table" else "seat%d" % command["seat"])
            if reader in resting:
                with removed:
                    lifted.clear()
                    board.lift(reader)
                    assert removed.wait_for(lambda: reader in lifted, 10), "the lift was never seen"
                time.sleep(HAND_S)  # a hand's time before the next card (simboard.HAND_S)
            seq = session.state["seq"]
            board.tap(reader, sim_uid(card))
            resting[reader] = card
            assert runner.wait_for(lambda s: s["seq"] > seq, 10), "tap of %s never applied (%s)" % (card, refused)
            taps += 1
        assert apply(direct, command).ok
    assert session.state == direct
    assert taps > 50 and not refused
    # The LEDs show the end: winners blink green on their seat segments.
    assert link.wait_leds_synced(10)


def test_a_refused_tap_flashes_the_seat_and_changes_nothing(table):
    board, link, runner, session, prof, refused, _ = table
    seq = session.state["seq"]
    # Seat 1 is asked to tap its dealt hand; an ally is no influence card: refused.
    board.tap([r["name"] for r in prof["readers"]].index("seat1"), sim_uid("shae#1"))
    deadline = time.time() + 10
    while not refused and time.time() < deadline:
        time.sleep(0.05)
    assert refused and "cannot be used" in refused[0]
    assert session.state["seq"] == seq
    seg = runner.seg_ids["seat1"]
    assert link.segments[seg][1] == (255, 0, 0)


def test_demo_through_the_simulated_table_finishes(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path
    maester = Path(sys.executable).parent / "maester"
    env = dict(os.environ, MAESTER_HOME=str(tmp_path))
    proc = subprocess.run([str(maester), "demo", "--table", "--fast", "--plain", "--seed", "4"],
                          capture_output=True, text=True, timeout=180, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Winner" in proc.stdout and "LED strip: [" in proc.stdout
    assert "table: refused" not in proc.stdout
