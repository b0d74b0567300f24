"""Checking a built table (`maester hw test`): one LED segment and one reader at a time.

1. Every segment of the profile lights on its own, in wire order (Enter for the next one, or
   --auto S seconds each). A dot segment shows its dot walking across every pixel.
2. Every reader in turn asks for a tap; its seat's LEDs pulse blue as a cue.
Taps are reported live throughout, with the reader's name and chip-select pin, so a builder can
tell which joint is bad. With --sim the simulated board stands in, lays the test cards itself
and the strip it drew is checked against the segment.
"""

import queue
import sys
import threading
import time

from maester_fw import wire

from ..link import BoardLink
from ..link.simboard import start_simulated_board
from . import hwconfig
from . import profile as profiles

WHITE, CUE = (255, 255, 255), (0, 80, 255)
TEST_UID = "04aa55%08x"


def full_level(seg):
    """The level that lights every pixel of a segment, or None for a dot segment (one pixel at a time)."""
    mode = seg.get("mode", "fill")
    return {"fill": 255, "dim": 255, "count": seg["length"]}.get(mode)


def expected_text(seg, pixels, lit=None):
    """The simulated strip as text when only `seg` is lit ('W'), or only its pixel `lit`."""
    on = range(seg["start"], seg["start"] + seg["length"]) if lit is None else [seg["start"] + lit]
    return "".join("W" if i in on else "." for i in range(pixels))


class HwTest:
    def __init__(self, args, out=print):
        self.args = args
        self.out = out
        self.keys = queue.Queue()
        self.taps = {}
        self.tapped = threading.Condition()
        self.board = None
        self.link = None
        self.problems = []

    # -- connection -----------------------------------------------------------------------

    def connect(self):
        self.pinmap = hwconfig.load_pinmap(self.args.board)
        port = self.args.port
        if self.args.sim:
            self.profile = profiles.load(self.args.profile or profiles.DEFAULT)
            self.board = start_simulated_board(config=hwconfig.sim_config(self.profile, self.pinmap))
            port = self.board.port
        self.link = BoardLink(port, on_tap=self.on_tap, refind=not self.args.sim)
        self.link.start()
        if not self.link.wait_connected(self.args.timeout):
            raise ValueError("no Maester board answered%s within %.0f s; run `maester doctor`"
                             % (" on %s" % port if port else "", self.args.timeout))
        st = self.link.status
        if not self.args.sim:
            name = self.args.profile or (st.board if (profiles.PROFILE_DIR / ("%s.json" % st.board)).exists()
                                         else profiles.DEFAULT)
            self.profile = profiles.load(name)
        self.readers = self.profile["readers"]
        self.slots = hwconfig.reader_slots(self.profile, self.pinmap)
        self.out("board %s, firmware %s: %d readers, %d pixels; profile %s: %d readers, %d pixels"
                 % (st.board, st.firmware, st.reader_count, st.pixels, self.profile["name"],
                    len(self.readers), self.profile["pixels"]))
        if (st.reader_count, st.pixels) != (len(self.readers), self.profile["pixels"]):
            self.problem("the board's config does not match profile %s: flash it with "
                         "`maester firmware flash --profile %s`" % (self.profile["name"], self.profile["name"]))

    def problem(self, text):
        self.problems.append(text)
        self.out("PROBLEM: " + text)

    def reader_text(self, i):
        if i >= len(self.slots):
            return "reader %d (not in the profile)" % i
        name, cs = self.slots[i]
        return "reader %d %s (CS %s)" % (i, name, hwconfig.label(self.pinmap, cs))

    def on_tap(self, tap):
        if tap.from_snapshot:
            return
        with self.tapped:
            if tap.kind == "placed":
                self.taps[tap.reader] = self.taps.get(tap.reader, 0) + 1
            self.tapped.notify_all()
        self.out("  tap: %s card %s %s" % (self.reader_text(tap.reader), tap.uid_hex, tap.kind))

    def keyboard(self):
        for line in sys.stdin:
            self.keys.put(line.strip())
        self.keys.put(None)  # end of input: act as Enter from now on

    def wait_step(self, until=None, seconds=None):
        """Wait for Enter (or `seconds`); return early when `until()` holds. False if the user typed q."""
        deadline = None if seconds is None else time.monotonic() + seconds
        while True:
            if until is not None:
                with self.tapped:
                    if until():
                        return True
            if deadline is not None and time.monotonic() >= deadline:
                return True
            try:
                key = self.keys.get(timeout=0.05)
            except queue.Empty:
                continue
            if key is None:
                self.keys.put(None)
                return True
            return key != "q"

    # -- the walk -------------------------------------------------------------------------

    def run(self):
        try:
            self.connect()
            if self.args.auto is None:
                threading.Thread(target=self.keyboard, daemon=True).start()
            go_on = self.walk_segments()
            if go_on:
                self.walk_readers()
            self.link.clear_segments()
            self.link.wait_leds_synced(2.0)
        finally:
            if self.link is not None:
                self.link.close()
            if self.board is not None:
                self.board.stop()
        return self.summary()

    def walk_segments(self):
        segs = sorted(self.profile["segments"], key=lambda s: s["start"])
        self.out("LEDs: each segment lights on its own; check that all of its pixels light and no other does")
        for i, seg in enumerate(segs):
            end = seg["start"] + seg["length"] - 1
            self.out("[%d/%d] segment %s: pixels %d-%d (%d, %s)"
                     % (i + 1, len(segs), seg["name"], seg["start"], end, seg["length"], seg.get("mode", "fill")))
            self.link.clear_segments()
            level = full_level(seg)
            if level is None:
                for k in range(seg["length"]):  # a dot segment: walk the dot across it
                    self.show(i, seg, k + 1, lit=k)
                    if self.board is None:
                        time.sleep(0.3)
            else:
                self.show(i, seg, level)
            if not self.wait_step(seconds=self.args.auto):
                return False
        return True

    def show(self, seg_id, seg, level, lit=None):
        self.link.set_segment(seg_id, level, WHITE, wire.SOLID)
        self.link.wait_leds_synced(2.0)
        if self.board is None:
            return
        want = expected_text(seg, self.profile["pixels"], lit)
        deadline = time.monotonic() + 1.0
        got = self.board.strip_text()
        while got != want and time.monotonic() < deadline:
            time.sleep(0.02)
            got = self.board.strip_text()
        self.out("  simulated strip %s %s" % (got, "ok" if got == want else "WRONG, expected " + want))
        if got != want:
            self.problem("segment %s lit %s instead of %s" % (seg["name"], got, want))

    def cue_segment(self, reader):
        segs = sorted(self.profile["segments"], key=lambda s: s["start"])
        names = [reader["name"]] + (["seat%d" % reader["seat"]] if reader.get("role") == "seat" else [])
        for i, s in enumerate(segs):
            if s["name"] in names:
                return i, s
        return None, None

    def walk_readers(self):
        self.out("Readers: tap a card on each reader when asked (Enter skips a reader)")
        for i, reader in enumerate(self.readers):
            self.link.clear_segments()
            seg_id, seg = self.cue_segment(reader)
            if seg is not None:
                self.link.set_segment(seg_id, full_level(seg) or 1, CUE, wire.PULSE, 1000)
            self.out("[%d/%d] tap a card on %s%s" % (i + 1, len(self.readers), self.reader_text(i),
                                                     ", by the pulsing LEDs" if seg is not None else ""))
            before = self.taps.get(i, 0)
            if self.board is not None:
                self.board.tap(i, TEST_UID % i)
            seconds = self.args.auto
            if self.board is not None:
                seconds = max(seconds or 0, 5.0)  # the simulated tap is on its way
            seen = self.wait_step(until=lambda: self.taps.get(i, 0) > before, seconds=seconds)
            if self.board is not None:
                self.board.lift(i)
            if not seen:
                return

    def summary(self):
        self.out("summary:")
        readers = {r.reader: r for r in self.link.status.readers} if self.link else {}
        missing = 0
        for i in range(len(self.readers)):
            n = self.taps.get(i, 0)
            state = readers.get(i).state if i in readers else "?"
            if n:
                self.out("  ok       %s: %d tap(s)" % (self.reader_text(i), n))
                continue
            missing += 1
            cs = hwconfig.label(self.pinmap, self.slots[i][1])
            why = ("the reader does not answer: check its 3.3 V, GND, the SPI wires and the %s -> SDA wire" % cs
                   if state == "fault" else
                   "the reader answers but saw no card: check the antenna position and what lies between "
                   "it and the card, or the %s -> SDA wire if another reader saw this tap" % cs)
            self.out("  NO TAP   %s: %s" % (self.reader_text(i), why))
        for p in self.problems:
            self.out("  problem: " + p)
        ok = not missing and not self.problems
        self.out("all %d readers and %d segments checked" % (len(self.readers), len(self.profile["segments"]))
                 if ok else "%d reader(s) saw no tap" % missing if missing else "see the problems above")
        return 0 if ok else 1


