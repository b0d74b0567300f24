"""Bringing a built table up (`maester hw test`): one LED segment and one reader at a time.

1. Every segment of the profile lights on its own, in wire order (Enter for the next one, or
   --auto S seconds each). A dot segment shows its dot walking across every pixel. Then the whole
   strip lights, and the board says how long that frame's write held its loop.
2. Every reader in turn (its seat's LEDs pulse blue as a cue): the chip it answers with (its
   VersionReg, or the PN532's IC byte, and whether that is a known clone) and whether it holds the
   SPI bus; a card tapped on it; two cards laid on it at once, which it must report; and its power
   cut and restored (the person pulls its power or its connector and puts it back), after which
   the board must set it up again by itself.
3. One line a reader with a verdict and what to do.
Taps are reported live throughout, with the reader's name and chip-select pin, so a builder can
tell which joint is bad. With --sim the simulated board stands in and does each step itself: it
lays the test cards, cuts the reader's power, and the strip it drew is checked against the segment.
"""

import queue
import sys
import threading
import time

from maester_fw import wire

from ..link import BoardLink
from ..link.serial_link import CHIPS, health_text
from ..link.simboard import start_simulated_board
from . import hwconfig
from . import profile as profiles

WHITE, CUE = (255, 255, 255), (0, 80, 255)
TEST_UID = "04aa55%08x"
SECOND_UID = "11%06x"  # a 4-byte card beside the 7-byte one: their ATQAs collide
SIM_STEP_S = 5.0  # how long a simulated step may take (a reader that lost power is retried after 2 s)


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
        self.found = {}  # reader -> what its checks found: {"read", "two", "power"}
        self.strip_us = None

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
        """Wait until `until()` holds (True), Enter (a plain wait: True; a check: None, skipped) or
        `seconds` pass (a plain wait: True; a check: False, not seen). q ends the walk (_Quit)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        while True:
            if until is not None:
                with self.tapped:
                    if until():
                        return True
            if deadline is not None and time.monotonic() >= deadline:
                return until is None
            try:
                key = self.keys.get(timeout=0.05)
            except queue.Empty:
                continue
            if key is None:
                self.keys.put(None)  # end of input: Enter from now on
            elif key == "q":
                raise _Quit
            return True if until is None else None

    # -- the walk -------------------------------------------------------------------------

    def run(self):
        try:
            self.connect()
            if self.args.auto is None:
                threading.Thread(target=self.keyboard, daemon=True).start()
            try:
                self.walk_segments()
                self.time_strip()
                self.walk_readers()
            except _Quit:
                self.out("stopped")
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
            self.wait_step(seconds=self.args.auto)

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

    def time_strip(self):
        """Light every pixel; the board's next snapshot says how long that write held its loop."""
        segs = sorted(self.profile["segments"], key=lambda s: s["start"])
        for i, seg in enumerate(segs):
            self.link.set_segment(i, full_level(seg) or seg["length"], WHITE, wire.SOLID)
        self.link.wait_leds_synced(2.0)
        before = self.link.status.handshakes
        self.link.request_snapshot()
        deadline = time.monotonic() + 3.0
        while self.link.status.handshakes == before and time.monotonic() < deadline:
            time.sleep(0.02)
        us = self.link.status.counters.get("strip_write_us")
        pixels = self.profile["pixels"]
        if us is None:
            self.out("full strip: the board did not say how long its write took (older firmware)")
            return
        self.strip_us = us
        self.out("full strip: all %d pixels written in %.1f ms of the board's loop (the frame itself lasts %.1f ms "
                 "on the wire, 30 us a pixel)" % (pixels, us / 1000, pixels * 0.03))
        if us > 5000:
            self.problem("a full-strip write holds the board's loop %.1f ms: readers and USB wait meanwhile "
                         "(LEDS.md, \"What a frame write costs\")" % (us / 1000))

    def health(self, i):
        for h in self.link.status.health:
            if h.reader == i:
                return h
        return None

    def cue_segment(self, reader):
        segs = sorted(self.profile["segments"], key=lambda s: s["start"])
        names = [reader["name"]] + (["seat%d" % reader["seat"]] if reader.get("role") == "seat" else [])
        for i, s in enumerate(segs):
            if s["name"] in names:
                return i, s
        return None, None

    def step_seconds(self):
        return max(self.args.auto or 0, SIM_STEP_S) if self.board is not None else self.args.auto

    def walk_readers(self):
        self.out("Readers: for each one, its chip, a card, two cards at once and a power cut "
                 "(Enter skips a step, q stops)")
        for i, reader in enumerate(self.readers):
            self.link.clear_segments()
            seg_id, seg = self.cue_segment(reader)
            if seg is not None:
                self.link.set_segment(seg_id, full_level(seg) or 1, CUE, wire.PULSE, 1000)
            h = self.health(i)
            self.out("[%d/%d] %s%s: %s" % (i + 1, len(self.readers), self.reader_text(i),
                                           ", by the pulsing LEDs" if seg is not None else "", self.chip_text(h)))
            found = self.found[i] = {}
            if h is None or h.health in ("fault", "holds_bus"):
                self.out("  " + self.advice(i, h))
                continue  # nothing more can be learnt from it until that is mended
            self.check_card(i, found)
            self.check_two(i, found)
            self.check_power(i, found)

    def check_card(self, i, found):
        self.out("  tap a card on it")
        before = self.taps.get(i, 0)
        if self.board is not None:
            self.board.tap(i, TEST_UID % i)
        found["read"] = self.wait_step(until=lambda: self.taps.get(i, 0) > before, seconds=self.step_seconds())
        if self.board is not None:
            self.board.lift(i)

    def check_two(self, i, found):
        self.out("  now lay two cards on it at once, one on the other")
        if self.board is not None:
            self.board.tap(i, TEST_UID % i)
            self.board.tap(i, SECOND_UID % i)
        seen = self.wait_step(until=lambda: (self.health(i) or _NONE).health == "crowded", seconds=self.step_seconds())
        found["two"] = seen
        self.out("  %s; lift them both" % ("it says two cards" if seen else "it did not say two cards"
                                           if seen is False else "skipped"))
        if self.board is not None:
            self.board.lift(i)
        self.wait_step(until=lambda: (self.health(i) or _NONE).health != "crowded", seconds=self.step_seconds())

    def check_power(self, i, found):
        self.out("  pull its power (or its connector) for a moment and put it back")
        inits = (self.health(i) or _NONE).inits
        if self.board is not None:
            self.board.command({"cmd": "wire", "reader": i, "powered": False})
            time.sleep(0.3)
            self.board.command({"cmd": "wire", "reader": i, "powered": True})
        back = self.wait_step(until=lambda: (self.health(i) or _NONE).inits > inits
                              and (self.health(i) or _NONE).health in ("ok", "reset"),
                              seconds=None if self.step_seconds() is None else 2 * self.step_seconds())
        found["power"] = back
        self.out("  %s" % ("it was set up again and reads" if back else "it did not come back"
                           if back is False else "skipped"))

    @staticmethod
    def chip_text(h, state=True):
        """The chip it answered with (VersionReg, or the PN532's IC byte), and what it is doing."""
        if h is None:
            return "no word from it (the board's firmware may be older than this host)"
        chip = CHIPS.get(h.version, "an unknown chip 0x%02x" % h.version) if h.version else "no chip"
        now = {"fault": "does not answer", "holds_bus": "holds the SPI bus", "crowded": "two cards on it",
               "reset": "set up again", "ok": "answers"}[h.health] if state else "answers"
        return "%s, %s" % (chip, now)

    def advice(self, i, h):
        names = [r["name"] for r in self.readers]
        if h is None:
            return "flash this host's firmware: maester firmware flash"
        return health_text(h, names[i] if i < len(names) else None, names)

    def verdict(self, i):
        """(word, what it found, what to do) for reader i."""
        h = self.health(i) if self.link else None
        found = self.found.get(i, {})
        cs = hwconfig.label(self.pinmap, self.slots[i][1]) if i < len(self.slots) else "?"
        if h is not None and h.health in ("fault", "holds_bus"):
            return ("FAULT" if h.health == "fault" else "BUS", self.chip_text(h), self.advice(i, h))
        n = self.taps.get(i, 0)
        facts = [self.chip_text(h, state=False), "%d tap(s)" % n]
        two, power = found.get("two"), found.get("power")
        facts.append({True: "saw two cards at once", False: "did not say two cards", None: "two cards: skipped"}[two])
        facts.append({True: "came back after a power cut", False: "did not come back after a power cut",
                      None: "power cut: skipped"}[power])
        what = "; ".join(facts)
        if not n:
            return ("NO TAP", what, "the reader answers but saw no card: check the antenna position and what lies "
                                    "between it and the card, or the %s -> SDA wire if another reader saw this tap" % cs)
        if two is False:
            pn532 = h is not None and h.version == 0x32
            return ("CHECK", what, "a PN532 lists one card and cannot tell a second (READERS.md)" if pn532 else
                    "lay the two cards flat on the antenna together and run this again")
        if power is False:
            return ("CHECK", what, "check that its power really went off, and the board's log (maester doctor)")
        return ("ok", what, None)

    def summary(self):
        self.out("summary:")
        bad = 0
        for i in range(len(self.readers)):
            word, what, todo = self.verdict(i)
            bad += word != "ok"
            self.out("  %-8s %s: %s%s" % (word, self.reader_text(i), what, " -> " + todo if todo else ""))
        for p in self.problems:
            self.out("  problem: " + p)
        ok = not bad and not self.problems
        self.out("all %d readers and %d segments checked" % (len(self.readers), len(self.profile["segments"]))
                 if ok else "%d reader(s) need a look" % bad if bad else "see the problems above")
        return 0 if ok else 1


class _Quit(Exception):
    """The person typed q."""


class _NONE:
    """A reader the board has said nothing about yet."""

    health = None
    inits = 0
