"""A simulated board driven by typed commands, one a line: tap, place, lift, cards, unplug, replug,
reboot, wait, strip, quit (the language commands/sim_board.py describes). `maester sim-board` runs one in its own
process for `maester play --port`; `maester bench chaos` drives one behind a fault proxy."""

import os
import re
import sys
import tempfile
import threading
import time

from ..link.simboard import SimBoard, SimBoardError
from ..nfc.tags import sim_uid
from .hwconfig import config_bytes
from .simcards import SimCards

UID_RE = re.compile(r"^(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{14}|[0-9a-fA-F]{20})$")
STRIP_EVERY = 1.0  # seconds between two looks at the strip: a changed strip is printed once a second at most
COMMANDS = "tap, place, lift, cards, unplug, replug, reboot, wait, strip, quit (or q)"


class SimBoardProcess:
    """The board and its command language; `run(lines)` reads commands until quit or the end."""

    def __init__(self, profile, board="pico", trace=False, out=None, fs=None, paced=False):
        self.profile = profile
        self.readers = [r["name"] for r in profile["readers"]]
        self.out = out or sys.stdout
        self.lock = threading.Lock()  # the control channel takes one command at a time
        self.say_lock = threading.Lock()
        if fs is not None:  # the board's own filesystem (--fs): what was flashed onto it stands
            self.board = SimBoard(trace=trace, fs=fs, paced=paced)
        else:
            self.board = self._flashed_board(profile, board, trace, paced)
        self.last_strip = None
        self.stopped = threading.Event()
        self._cards = None  # the table's cards by name (SimCards), made at the first card typed
        self._cards_lock = threading.Lock()

    @staticmethod
    def _flashed_board(profile, board, trace, paced):
        # The config a board flashed for this profile holds, byte for byte, so `play` finds it fits.
        fd, path = tempfile.mkstemp(prefix="maester-board-", suffix=".json")
        with os.fdopen(fd, "wb") as f:
            f.write(config_bytes(profile, board))
        try:
            return SimBoard(config=path, trace=trace, paced=paced)
        finally:
            os.unlink(path)

    def cards(self):
        with self._cards_lock:
            if self._cards is None:
                self._cards = SimCards(self.profile["game"], self.profile["players"])
            return self._cards

    def say(self, text):
        with self.say_lock:
            print(text, file=self.out, flush=True)

    def reader(self, word):
        if word.isdigit() and int(word) < len(self.readers):
            return int(word)
        if word in self.readers:
            return self.readers.index(word)
        raise ValueError("no reader %r: this table has %s (or 0 to %d)"
                         % (word, ", ".join(self.readers), len(self.readers) - 1))

    def uid(self, word):
        """A tag UID in hex as it is; a card id checked against this table's cards (a typo is refused
        here, with the closest names, not sent on to be "an unknown sticker" at the host)."""
        if UID_RE.match(word):
            return word.lower()
        self.cards().check(word)
        return sim_uid(word)  # a card id: the sticker the simulated table puts on that card

    def strip_text(self):
        with self.lock:
            if not self.board.plugged:
                return None
            return self.board.strip_text()

    def draw_strip(self, force=False):
        text = self.strip_text()
        if text is not None and (force or text != self.last_strip):
            self.last_strip = text
            self.say("strip: [%s]" % text)

    def watch_strip(self):
        while not self.stopped.wait(STRIP_EVERY):
            try:
                self.draw_strip()
            except Exception:  # noqa: BLE001 — the board is being stopped or unplugged
                pass

    def command(self, line):
        """Run one command line; returns False when the board should stop."""
        words = line.split()
        if not words or words[0].startswith("#"):
            return True
        what, args = words[0].lower(), words[1:]
        what = "quit" if what in ("q", "exit") else what
        want = {"tap": 2, "place": 2, "lift": 1, "wait": 1, "unplug": 0, "replug": 0, "reboot": 0, "strip": 0,
                "quit": 0, "trace": 0, "polls": 0}
        if what == "cards":  # cards [WORD]: what may be tapped, by name, per seat or kind
            for text in self.cards().listing(" ".join(args) or None):
                self.say(text)
            return True
        if what not in want:
            raise ValueError("unknown command %r (%s)" % (what, COMMANDS))
        if len(args) != want[what]:
            raise ValueError("%s takes %d argument%s" % (what, want[what], "" if want[what] == 1 else "s"))
        if what == "quit":
            return False
        if what == "wait":
            if not args[0].isdigit():
                raise ValueError("wait MS: a whole number of milliseconds, got %r" % args[0])
            time.sleep(int(args[0]) / 1000)
        elif what == "strip":
            self.draw_strip(force=True)
            return True
        elif what == "polls":  # how often each reader was asked for a card (bench hil)
            with self.lock:
                self.say("polls: %s" % " ".join(str(n) for n in self.board.polls()))
            return True
        else:
            with self.lock:
                if what == "tap":
                    self.board.press(self.reader(args[0]), self.uid(args[1]))
                elif what == "place":
                    self.board.tap(self.reader(args[0]), self.uid(args[1]))
                elif what == "lift":
                    self.board.lift(self.reader(args[0]), settle=True)
                elif what == "unplug":
                    self.board.unplug()
                elif what == "replug":
                    self.board.replug()
                elif what == "reboot":
                    self.board.reboot()
                elif what == "trace":
                    self.board.flush_trace()
        self.say("ok: %s" % " ".join(words))
        return True

    def run(self, lines):
        for line in lines:
            try:
                if not self.command(line.strip()):
                    return False
            except (ValueError, SimBoardError) as e:
                self.say("error: %s" % e)
        return True

    def stop(self):
        self.stopped.set()
        with self.lock:
            self.board.stop()


