"""A whole simulated table for `maester play --table` and `maester demo --table`.

The firmware runs unmodified under the MicroPython unix port with simulated readers and a virtual
strip, in a `maester sim-board` process, behind a pty that the host opens by name with pyserial
through the same code as a real board (table/board.py). A choice that a tap
can express is made by laying the card on the right simulated reader; the rest (which token moves
where, an order of allies) is entered the way a seat page would send it. In a game where a tapped
card may fit several places (Westeros Intrigue), the card is tapped and the position then picked
from the seat's pending selection, as a person would on the host prompt.
"""

import os
import subprocess
import sys
import threading
import time

from .. import games
from ..link.simboard import HAND_S, _die_with_parent
from . import profile as P
from .board import BoardTable, connect
from .runner import sim_tags
from .taps import asks_at, command_for_tap, meanings

TAP_TIMEOUT = 10.0
FRAME_WAIT = 0.01  # the board draws a change at its next pass (firmware LEDS.md)
START_TIMEOUT = 30.0


class TableError(RuntimeError):
    pass


# --- which tap means a command (the simulated seats, the test drivers and bench hil use these) ---

def _places_for(places, command):
    """Where to try a tap: zone and shared readers, then the deciding seat's own, then the others."""
    seat = command["seat"]
    seats = [p for p in places if isinstance(p, int)]
    return ([p for p in places if not isinstance(p, int)] + [p for p in seats if p == seat]
            + [p for p in seats if p != seat])


def _cards_for(state, command):
    cards = [x for x in command["choice"] if isinstance(x, str) and "#" in x]
    cards += ["leader:%s" % l for l in state["g"].get("leaders", [])]
    more = getattr(game_table(state), "tap_cards", None)  # a card that stands for a choice
    if more is not None:
        cards += [c for c in more(state, command) if c not in cards]
    return cards


def game_table(state):
    return games.part(state["game"], "table")


def tap_for(state, places, command):
    """(place, card): a tap of `card` at `place` means exactly `command`; or None.

    `places` maps each place of the table profile (a seat, "table", a zone) to its reader."""
    for card in _cards_for(state, command):
        for place in _places_for(places, command):
            found, _ = command_for_tap(state, place, card)
            if found == command:
                return place, card
    return None


def pick_for(state, places, command):
    """(place, card, index) when `command` is a tap of `card` at `place` followed by picking
    choice `index` of the pending selection it leaves; None when the game has no such selection."""
    if not getattr(game_table(state), "CHOOSE_AFTER_TAP", False):
        return None
    ask = next((a for a in state["asks"] if a["id"] == command["ask"]), None)
    if ask is None:
        return None
    for card in _cards_for(state, command):
        for place in _places_for(places, command):
            if ask not in asks_at(state, place):
                continue
            found = meanings(state, ask, card, place)
            if len(found) > 1 and command["choice"] in found:
                # the runner holds the first ask of the place that the card fits several ways
                first = next((a for a in asks_at(state, place) if meanings(state, a, card, place)), None)
                if first is ask:
                    return place, card, found.index(command["choice"])
    return None


class SimBoardClient:
    """A `maester sim-board` process, driven through its stdin and stdout like a person would."""

    def __init__(self, profile_name, trace=None, paced=False):
        cmd = [sys.executable, "-m", "maester.cli", "sim-board", "--profile", profile_name, "--no-strip"]
        if trace:
            cmd += ["--trace", str(trace)]
        if paced:
            cmd += ["--paced"]
        # A session of its own, as a board on its cable is: a Ctrl-C typed at the host's terminal goes
        # to the host alone, which then stops the board. In the terminal's process group the sim-board
        # took the SIGINT too and stopped its board first, and the quitting host said "board lost"
        # (issue 28, item 7). It still dies with the host (_die_with_parent).
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1, preexec_fn=_die_with_parent, start_new_session=True,
                                     env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.lines = []
        self.arrived = threading.Condition()
        threading.Thread(target=self._read, name="sim-board-out", daemon=True).start()
        first = self._next(lambda line: True, START_TIMEOUT)
        if first is None or not first.startswith("port: "):
            err = self.proc.stderr.read() if self.proc.poll() is not None else ""
            self.stop()
            raise TableError("the simulated board did not start: %s" % ((first or "") + err).strip())
        self.port = first[len("port: "):]
        self.lock = threading.Lock()

    def _read(self):
        for line in self.proc.stdout:
            with self.arrived:
                self.lines.append(line.rstrip("\n"))
                self.arrived.notify_all()
        with self.arrived:
            self.lines.append(None)  # the process ended
            self.arrived.notify_all()

    def _next(self, wanted, timeout):
        with self.arrived:
            deadline = time.monotonic() + timeout
            while True:
                for i, line in enumerate(self.lines):
                    if line is None:
                        return None
                    if wanted(line):
                        del self.lines[:i + 1]
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or not self.arrived.wait(left):
                    if time.monotonic() >= deadline:
                        return None

    def command(self, line, answer=("ok:", "error:"), timeout=TAP_TIMEOUT):
        with self.lock:
            try:
                self.proc.stdin.write(line + "\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                raise TableError("the simulated board has stopped") from None
            got = self._next(lambda text: text.startswith(answer), timeout)
        if got is None:
            raise TableError("the simulated board did not answer %r" % line)
        if got.startswith("error:"):
            raise TableError("simulated board: %s" % got[len("error: "):])
        return got

    def tap(self, reader, card):
        self.command("place %d %s" % (reader, card))  # lifted by `lift`, as a hand does

    def lift(self, reader):
        self.command("lift %d" % reader)

    def strip(self):
        return self.command("strip", answer=("strip:",))[len("strip: ["):-1]

    def polls(self):
        return [int(n) for n in self.command("polls", answer=("polls:",)).split()[1:]]

    def stop(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(5)
            except (BrokenPipeError, ValueError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except OSError:
                pass


class SimTable:
    """`play --sim` and `demo`: a `maester sim-board` process, opened by its port name like a board."""

    def __init__(self, session, report=print):
        state = session.state
        self.profile = P.for_game(state["game"], state["config"]["players"])
        self.readers = [r["name"] for r in self.profile["readers"]]
        self.places = P.places(self.profile)  # place (a seat, "table", a zone) → its reader's name
        self.board = SimBoardClient(self.profile["name"])
        try:
            board = connect(self.board.port, self.profile, report, timeout=20)
        except BaseException:
            self.board.stop()
            raise
        # The simulated seat picks its position itself, so a pending selection needs no report.
        self.table = BoardTable(board, session, sim_tags(state), report=report,
                                on_pending=lambda seat, card, labels: None)
        self.runner = self.table.runner
        self.link = self.table.link
        board.on_tap = self._on_tap
        self.resting = {}
        self.lifted = threading.Condition()
        self.lifts = []
        # One card laid at a time: the loop lays for the bots while a bot-hands seat's simulated hands
        # lay for it (table/bothands.py), and a lift is waited for by its reader in `lifts`.
        self.laying = threading.Lock()
        self.taps = 0

    def _on_tap(self, tap):
        self.runner.on_tap(tap)
        if tap.kind == "removed":
            with self.lifted:
                self.lifts.append(tap.reader)
                self.lifted.notify_all()

    def tap_for(self, command):
        return tap_for(self.runner.session.state, self.places, command)

    def pick_for(self, command):
        return pick_for(self.runner.session.state, self.places, command)

    def submit(self, command):
        found = self.tap_for(command)
        pick = None if found is not None else self.pick_for(command)
        if pick is not None:
            found = pick[:2]
        if found is None:
            return self.runner.submit(command)
        place, card = found
        self.lay(self.places[place], card, wait=pick is None)
        if pick is not None:
            if not self.runner.wait_pending(command["seat"], card, TAP_TIMEOUT):
                raise TableError("the tap of %s on %s never asked for a position" % (card, self.places[place]))
            return self.runner.choose_pending(command["seat"], pick[2])
        return _Accepted()

    def lay(self, name, card, wait=True):
        """Lay `card` on the reader `name`, lifting the card lying there first, as a player would;
        with `wait`, until the tap's move is applied (a TableError if it never is)."""
        with self.laying:
            return self._lay(name, card, wait)

    def _lay(self, name, card, wait):
        reader = self.readers.index(name)
        if reader in self.resting:  # lift the last card first, as a player would
            with self.lifted:
                self.lifts.clear()
                self.board.lift(reader)
                if not self.lifted.wait_for(lambda: reader in self.lifts, TAP_TIMEOUT):
                    raise TableError("the board never saw the card lifted from %s" % name)
            time.sleep(HAND_S)  # a hand's time before the next card (simboard.HAND_S)
        seq = self.runner.session.state["seq"]
        self.board.tap(reader, card)
        self.resting[reader] = card
        self.taps += 1
        if wait and not self.runner.wait_for(lambda s: s["seq"] > seq, TAP_TIMEOUT):
            raise TableError("the tap of %s on %s was never applied" % (card, name))
        return seq

    def strip_text(self):
        # A tap's LED refresh runs on the link thread after the move is applied: make sure it is sent.
        self.runner.refresh_leds()
        self.link.wait_leds_synced(1.0)
        # The board acks a change before it renders it, in its next pass.
        time.sleep(FRAME_WAIT)
        return self.board.strip()

    def close(self):
        self.table.close()
        self.board.stop()


class _Accepted:
    ok = True
    reason = None
