"""Keyboard or phone, as the player chose (issue 28, item 5): a seat named with `--human` is typed at
this keyboard even when the pages are on (the default in a terminal); `--page SEAT` puts a seat on its
page; `resume` keeps each seat where it was played.

Real `maester` processes in a pty (a terminal: the pages are on by default), answered as a person would.
"""

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

import pytest

from maester.engine.log import GameLog

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

KEYBOARD_PROMPT = re.compile(rb"Your choice, Seat 0 \(1-\d+")
PAGE_WAIT = b"Waiting for seat 0 (a tap, or their page)"


class Terminal:
    """`maester ARGS` on a pty, as in a terminal window."""

    def __init__(self, home, *args):
        master, slave = pty.openpty()
        env = dict(os.environ, MAESTER_HOME=str(home), PYTHONUNBUFFERED="1")
        # its own process group, as a shell gives a command: ctrl_c() signals that group, as a terminal does
        self.proc = subprocess.Popen([sys.executable, "-m", "maester.cli", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.master = master
        self.seen = b""

    def until(self, pattern, timeout=90):
        """Read until `pattern` (bytes or a compiled regex) has been printed; returns all so far."""
        deadline = time.monotonic() + timeout
        found = pattern.search if hasattr(pattern, "search") else (lambda text: pattern in text)
        while not found(self.seen):
            assert time.monotonic() < deadline and self.proc.poll() is None, self.seen.decode(errors="replace")[-3000:]
            if select.select([self.master], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:  # the process closed the terminal
                    break
        return self.seen

    def type(self, text):
        os.write(self.master, text.encode())

    def ctrl_c(self):
        """Ctrl-C at the terminal: SIGINT to every process of the command's foreground group."""
        os.killpg(self.proc.pid, signal.SIGINT)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


def start(tmp_path, *args):
    log = tmp_path / "g.sqlite"
    term = Terminal(tmp_path, "play", "intrigue", "--sim", "--no-table", "--plain", "--players", "2", "--seed", "4",
                    "--delay", "0", "--log", str(log), *args)
    return term, log


def test_a_human_seat_is_typed_at_the_keyboard_with_pages_on_and_resume_keeps_it(tmp_path):
    term, log = start(tmp_path, "--human", "0")
    try:
        out = term.until(b"press Enter to start")  # the pages are on: a terminal
        assert b"Seat 0, private page" not in out  # the keyboard's seat has no page to decide on
        term.type("\n")
        out = term.until(KEYBOARD_PROMPT)
        assert PAGE_WAIT not in out
        term.type("q\n")
        term.until(b"continue it with: maester resume")
        assert term.proc.wait(30) == 0
    finally:
        term.close()
    assert GameLog.open(str(log)).header()["extra"]["humans"] == [0]

    again = Terminal(tmp_path, "resume", "--log", str(log), "--plain")
    try:
        again.until(b"press Enter to start")
        again.type("\n")
        out = again.until(KEYBOARD_PROMPT)  # still at the keyboard, not moved to a page
        assert PAGE_WAIT not in out
        again.type("q\n")
        assert again.proc.wait(30) == 0
    finally:
        again.close()


def test_a_page_seat_waits_for_its_page_and_resume_keeps_it_there(tmp_path):
    term, log = start(tmp_path, "--page", "0")
    try:
        out = term.until(b"press Enter to start")
        assert re.search(rb"Seat 0, private page: http://\S+/seat/0/", out)
        term.type("\n")
        out = term.until(PAGE_WAIT)
        assert not KEYBOARD_PROMPT.search(out)
    finally:
        term.close()
    extra = GameLog.open(str(log)).header()["extra"]
    assert (extra["humans"], extra["pages"]) == ([0], [0])

    again = Terminal(tmp_path, "resume", "--log", str(log), "--plain")
    try:
        out = again.until(b"press Enter to start")
        assert re.search(rb"Seat 0, private page: http://\S+/seat/0/", out)
        again.type("\n")
        assert not KEYBOARD_PROMPT.search(again.until(PAGE_WAIT))
    finally:
        again.close()


def test_page_with_no_web_is_refused_in_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "maester.cli", "play", "intrigue", "--sim", "--no-table", "--plain",
                        "--page", "0", "--no-web", "--log", str(tmp_path / "g.sqlite")],
                       capture_output=True, text=True, env=dict(os.environ, MAESTER_HOME=str(tmp_path)), timeout=60)
    assert r.returncode == 2
    assert "--page 0 plays that seat on its seat page: drop --no-web" in r.stderr
    assert not (tmp_path / "g.sqlite").exists()


def test_while_a_page_decides_q_at_the_keyboard_stops_the_game_and_other_keys_say_how(tmp_path):
    """Issue 28, item 7: typed keys were only echoed while the terminal waited for a page or a tap (as
    under `play --port`, where every seat is on its page); now a line is read: q stops and saves."""
    term, log = start(tmp_path, "--page", "0")
    try:
        term.until(b"press Enter to start")
        term.type("\n")
        term.until(PAGE_WAIT)
        term.type("x\n")
        term.until(b"q and Enter stops the game")
        term.type("q\n")
        term.until(b"continue it with: maester resume")
        assert term.proc.wait(30) == 0
    finally:
        term.close()
    assert GameLog.open(str(log)).header()["extra"]["pages"] == [0]


def test_ctrl_c_at_press_enter_to_start_stops_the_game_without_a_board_lost(tmp_path):
    # Issue 28, item 7: with the simulated board (a `maester sim-board` process) in the terminal's
    # process group, Ctrl-C stopped it as well, and the quitting host said "board lost". A board on
    # its cable does not get the host's Ctrl-C; the simulated one no longer does either.
    term = Terminal(tmp_path, "play", "btwixt", "--sim", "--plain", "--players", "3", "--seed", "4",
                    "--human", "0", "--page", "0", "--log", str(tmp_path / "g.sqlite"))
    try:
        term.until(b"press Enter to start")
        time.sleep(0.5)
        term.ctrl_c()
        out = term.until(b"maester resume")
        assert term.proc.wait(30) != 0
        assert b"board lost" not in out, out.decode(errors="replace")[-800:]
    finally:
        term.close()
