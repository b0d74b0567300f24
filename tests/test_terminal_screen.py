"""The full-screen terminal view of `maester play/demo/resume`, as a person sees it.

The real command runs in a pseudo-terminal of a given size; its output goes through pyte (a
VT100 emulator, taught here xterm's alternate screen) so the tests look at the screen and the
scrollback a person would have. `--plain` and pipes keep their lines (tests/test_play.py).
"""

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

pyte = pytest.importorskip("pyte")

from maester.games.lcg.tui import _LcgTable
from maester.terminal import draw  # noqa: E402
from maester.engine import cardtables, core  # noqa: E402
from maester.engine.log import GameLog  # noqa: E402
from maester.engine.session import Session  # noqa: E402
from maester.games.btwixt.text import Names  # noqa: E402

FRAME_START = b"\x1b[?25l"  # the view hides the cursor while it draws a frame,
FRAME_END = b"\x1b[?25h"  # and shows it again once the whole frame is drawn
CURSOR = re.compile(re.escape(FRAME_START) + b"|" + re.escape(FRAME_END))


class Terminal(pyte.HistoryScreen):
    """A screen with a scrollback (history) and xterm's alternate screen (private mode 1049):
    while it is on, nothing goes to the scrollback; leaving it brings the normal screen back."""

    def __init__(self, columns, lines):
        super().__init__(columns, lines, history=10000, ratio=0.5)
        self.saved = None  # the normal screen while the alternate one is shown
        self.used_alt = False

    def set_mode(self, *modes, **kwargs):
        if kwargs.get("private") and 1049 in modes:
            self.saved = ({y: dict(line) for y, line in self.buffer.items()}, (self.cursor.x, self.cursor.y))
            self.used_alt = True
            self.buffer.clear()
            modes = tuple(m for m in modes if m != 1049)
        super().set_mode(*modes, **kwargs)

    def reset_mode(self, *modes, **kwargs):
        if kwargs.get("private") and 1049 in modes and self.saved is not None:
            buffer, (x, y) = self.saved
            self.buffer.clear()
            for row, line in buffer.items():
                self.buffer[row].update(line)
            self.cursor.x, self.cursor.y = x, y
            self.saved = None
            self.dirty.update(range(self.lines))
            modes = tuple(m for m in modes if m != 1049)
        super().reset_mode(*modes, **kwargs)

    def index(self):
        if self.saved is not None:
            pyte.Screen.index(self)  # the alternate screen scrolls into nothing
        else:
            super().index()

    @property
    def on_alt(self):
        return self.saved is not None

    def rows(self):
        return [row.rstrip() for row in self.display]

    def scrollback(self):
        return ["".join(line[x].data for x in range(self.columns)).rstrip() for line in self.history.top]

    def everything(self):
        """All a person could scroll to: the scrollback and the screen."""
        return "\n".join(self.scrollback() + self.rows())


class Run:
    """`maester ARGS` in a pty of `columns`×`lines`, read into a Terminal."""

    def __init__(self, tmp_path, columns, lines, *args):
        self.term = Terminal(columns, lines)
        self.stream = pyte.ByteStream(self.term)
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        env = dict(os.environ, MAESTER_HOME=str(tmp_path), TERM="xterm-256color")
        for name in ("COLUMNS", "LINES", "NO_COLOR"):
            env.pop(name, None)
        self.proc = subprocess.Popen([sys.executable, "-m", "maester.cli", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.master = master
        self.frames = []  # the alternate screen each time a whole frame was drawn
        self.tail = b""  # the last bytes read, already shown: the start of a marker cut by a read
        self.drawing = False  # between a FRAME_START and its FRAME_END
        self.done = False

    def pump(self, timeout=0.2):
        """Read what is there, waiting up to `timeout`; whether anything came."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready or self.done:
            return False
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:
            data = b""
        if not data:
            self.done = True  # the program closed its side
            return False
        # A frame is what is drawn between FRAME_START and FRAME_END, wherever the reads cut the stream:
        # on a loaded machine one read can hold several frames, end inside the next one or cut a marker
        # in two. (Leaving the view clears the screen and shows the cursor too: that is no frame.)
        seen = self.tail + data
        start = 0
        for m in CURSOR.finditer(seen):
            end = m.end() - len(self.tail)
            self.stream.feed(data[start:end])
            start = end
            if m.group() == FRAME_START:
                self.drawing = True
            elif self.drawing and self.term.on_alt:
                self.frames.append(self.term.rows())
                self.drawing = False
        self.stream.feed(data[start:])
        self.tail = seen[-(len(FRAME_END) - 1):]
        return True

    def until(self, pattern, timeout=60):
        """Read until the screen shows `pattern` (a regex); returns the rows."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if re.search(pattern, "\n".join(self.term.rows())):
                while self.pump(0.1):  # the rest of the frame
                    pass
                return self.term.rows()
            self.pump()
            if self.done:
                break
        raise AssertionError("never shown: %r; the screen:\n%s" % (pattern, "\n".join(self.term.rows())))

    def type(self, text):
        os.write(self.master, text.encode())

    def finish(self, timeout=120):
        deadline = time.monotonic() + timeout
        while not self.done and time.monotonic() < deadline:
            self.pump()
        assert self.proc.wait(timeout=10) == 0
        os.close(self.master)
        return self.term


def _log_path(tmp_path):
    return (tmp_path / "last").read_text().strip()


def _final(tmp_path):
    s = Session.resume(_log_path(tmp_path))
    s.close()
    return s.state


def _seat_names(state):
    g, cards = state["g"], cardtables.table(state)
    if state["game"] == "btwixt":
        return [Names(g, cards).leader(s) for s in range(state["config"]["players"])]
    if state["game"] == "oathbreaker":
        from maester.games.oathbreaker.text import Names as ONames
        return [ONames(g, cards).leader(s)[:20] for s in range(state["config"]["players"])]
    if state["game"] == "lcg":
        return [_LcgTable(core.view(state, core.PUBLIC), state["config"]).house(s)
                for s in range(state["config"]["players"])]
    return []  # Westeros Intrigue's seats are their numbers


SEAT_ROW = re.compile(r"^\s*(?:Seat )?(\d)(?::| {1,6}\S)")
HEADINGS = {"btwixt": r"Round .*\(space \d of \d\)", "intrigue": r"Round \d+ of \d+|game over",
            "oathbreaker": r"Round \d+ of \d+|game over", "lcg": r"Round \d+ · \w+ phase|Setup|Game over"}


@pytest.mark.parametrize("game,players", [("btwixt", 6), ("intrigue", 5), ("oathbreaker", 8), ("lcg", 4)])
def test_a_demo_fits_a_80x24_terminal(tmp_path, game, players):
    """Every frame holds the round line, every seat and some of the log, and nothing is cut at the top."""
    # `play --sim` with bots at every seat and a short delay: a frame for every move.
    run = Run(tmp_path, 80, 24, "play", game, "--sim", "--players", str(players), "--delay", "0.01", "--no-web",
              "--no-table", "--seed", "3")
    term = run.finish(timeout=300)
    state = _final(tmp_path)
    names = _seat_names(state)
    frames = run.frames[1:]  # the game under way
    assert len(frames) >= 20
    for k, rows in enumerate(frames):
        text = "\n".join(rows)
        assert re.search(HEADINGS[game], text), text
        seats = {int(m.group(1)) for row in rows for half in (row, row[40:])
                 for m in [SEAT_ROW.match(half)] if m}  # a row a seat, or two seats to a row
        assert seats >= set(range(players)), (seats, text)
        for s, name in enumerate(names):
            if k == len(frames) - 1:  # the names of the end (Oathbreaker's characters change hands)
                assert name in text, (name, text)
    with_log = [rows for rows in frames if any(r.startswith("Log ─") and i + 1 < len(rows) and rows[i + 1]
                                               for i, r in enumerate(rows))]
    assert len(with_log) > len(frames) / 2
    assert not term.on_alt and term.used_alt


def test_the_led_strip_is_explained(tmp_path):
    run = Run(tmp_path, 80, 24, "demo", "btwixt", "--fast", "--no-web", "--table", "--seed", "4")
    run.finish(timeout=180)
    frames = run.frames[2:]
    assert frames
    for rows in frames:
        text = " ".join(rows)
        strip = next(r for r in rows if r.startswith("LED strip"))
        assert re.search(r"round [.W]{7} +season [.RB]{3} +seat 0 \S{3}", strip), strip
        assert re.search(r"W (\(pulsing\) )?must act", text), text  # the short or the full legend
        assert re.search(r"1st (pixel lit in )?summer", text), text


def test_a_wide_window_keeps_the_header_and_leaves_no_headers_behind(tmp_path):
    # Bots at every seat with a short delay, as above: `demo --fast` may finish in two frames on a quick machine.
    run = Run(tmp_path, 120, 40, "play", "btwixt", "--sim", "--delay", "0.01", "--no-web", "--no-table",
              "--seed", "5")
    term = run.finish(timeout=300)
    frames = run.frames[2:]
    assert frames
    for rows in frames:
        assert rows[0].startswith("╭─ A Game of Thrones: B'Twixt ─"), rows[0]
        assert rows[1].startswith("│ Round"), rows[1]
        assert "│ Log ─" in rows[0]  # the log in its own column
    everything = term.everything()
    assert everything.count("A Game of Thrones: B'Twixt") == 1  # the final public table, once
    assert "Winner: " in everything or "Shared victory: " in everything
    assert "The game's log: " + _log_path(tmp_path) in everything.replace("\n", "")


def _hands_at_first_handover(log_path, humans):
    """(seat, its hand's card names after its first decision), replayed from the log."""
    log = GameLog.open(str(log_path))
    meta = log.header()
    state, _ = core.new_game("btwixt", meta["config"], meta["seed"], forced=meta["setup_outcomes"])
    try:
        for _, command, outcomes in log.entries():
            assert core.apply(state, command, forced=outcomes).ok
            if command["seat"] in humans:
                nm = Names(state["g"], cardtables.table(meta))
                return command["seat"], [nm.card(c) for c in state["g"]["hands"][command["seat"]]]
    finally:
        log.close()
    raise AssertionError("no person decided")


def test_hot_seat_leaves_no_hand_on_screen_or_in_the_scrollback(tmp_path):
    log = tmp_path / "hot.sqlite"
    run = Run(tmp_path, 80, 24, "play", "btwixt", "--sim", "--human", "0", "--human", "1", "--no-web",
              "--no-table", "--seed", "7", "--delay", "0", "--log", str(log))
    rows = run.until(r"Seat (\d) — .*: press Enter when only you can see the screen")
    first = int(re.search(r"Seat (\d) — ", "\n".join(rows)).group(1))
    assert "Your hand" not in "\n".join(rows)
    run.type("\r")
    rows = run.until(r"Your choice, .*\(1-\d+")
    text = "\n".join(rows)
    assert "Your hand (seat %d" % first in text  # the hand, the prompt and the options on one screen
    assert re.search(r"^1\. ", text, re.M)
    run.type("1\r")
    rows = run.until(r"Seat (?!%d)\d — .*: press Enter when only you can see the screen" % first)
    seat, hand = _hands_at_first_handover(log, (0, 1))
    assert seat == first and hand
    for shown in (run.term.everything(), "\n".join(rows)):
        assert "Your hand" not in shown
        for card in hand:
            assert card not in shown, card
    run.type("q\r")
    term = run.finish()
    everything = term.everything()
    assert "Stopped. The game is saved in %s" % log in everything.replace("\n", "")
    assert "Your hand" not in everything and not any(card in everything for card in hand)
    assert term.used_alt and not term.on_alt


def test_long_option_lists_fit_in_columns_or_pages():
    labels = ["Simulated influence %02d (simulation) (%d)" % (i, i % 9) for i in range(1, 41)]
    pages = draw.option_pages(labels, 80, 6)
    assert len(pages) > 1
    seen = []
    for page in pages:
        assert len(page) <= 6 and all(len(row) <= 80 for row in page)
        assert "type m for more" in page[-1]
        seen += [int(n) for row in page[:-1] for n in re.findall(r"(?:^|\s)(\d+)\. ", row)]
    assert sorted(seen) == list(range(1, 41))
    short = draw.option_pages(["Kneel", "Pass", "Bid", "Decline", "Accept", "Done"], 80, 2)
    assert len(short) == 1 and len(short[0]) == 2  # in columns, no paging


# --- several decisions open at once: the screen keeps up (issue 28, item 3) ---------------------------

def _page_answer(url, kind, every=False):
    """Answer the seat's open decision of `kind` on its page (its first option); with `every`, until
    the page offers none (a page's choice is applied before its POST returns)."""
    import httpx  # the web extra: only this test talks to a page
    deadline, answered = time.monotonic() + 60, 0
    while time.monotonic() < deadline:
        mine = [d for d in httpx.get(url + "/state", timeout=5).json()["decisions"] if d["kind"] == kind]
        if not mine and answered:
            return
        if mine:
            r = httpx.post(url + "/choose", json={"ask": mine[0]["ask"], "choice": mine[0]["options"][0]["choice"]},
                           timeout=5)
            assert r.status_code == 200, r.text
            answered += 1
            if not every:
                return
        time.sleep(0.05)
    raise AssertionError("seat page %s never offered a %s decision" % (url, kind))


def test_the_screen_redraws_while_it_waits_for_one_of_several_open_decisions(tmp_path):
    """Both seats choose their plots at once, each on its page. The terminal waits on seat 0's; seat 1's
    choice must show at once (80×24), not when seat 0 has chosen too."""
    log = tmp_path / "g.sqlite"
    run = Run(tmp_path, 80, 24, "play", "lcg", "--sim", "--no-table", "--page", "0", "--page", "1", "--seed", "4",
              "--delay", "0", "--log", str(log))
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "g.sqlite.links").exists() or b"press Enter" not in run.term.everything().encode():
            assert time.monotonic() < deadline, run.term.everything()
            run.pump()
        urls = dict((int(s), u) for u, s in re.findall(r"(http://\S+/seat/(\d)/\S+)",
                                                       (tmp_path / "g.sqlite.links").read_text()))
        run.type("\n")
        _page_answer(urls[1], "setup", every=True)
        _page_answer(urls[0], "setup", every=True)
        run.until(r"Waiting for seat 0")
        _page_answer(urls[1], "plot")  # seat 0's plot is still awaited
        rows = run.until(r"has chosen a plot", timeout=20)
        assert any("Waiting for seat 0" in row for row in rows), "\n".join(rows)
    finally:
        run.proc.kill()
        run.proc.wait(10)
        os.close(run.master)
