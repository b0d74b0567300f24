"""A virtual WS2812 strip for tests and the terminal: records what the firmware writes.

    strip = VirtualStrip(60)
    leds = Segments(profile, 60, strip)
    ...
    strip.writes          # how many frames were written
    strip.frame           # the last frame, as written (GRB by default)
    strip.pixel(3)        # (r, g, b) of pixel 3
    strip.text()          # one character per pixel, e.g. "RRR....bbb"
    strip.ansi()          # the same with 24-bit colour escapes

write() copies into a preallocated buffer and allocates nothing unless `keep` > 0, in
which case the last `keep` frames are also kept as bytes in `history`.
Runs on CPython and on the MicroPython unix port.

What a write costs the board (`path`, LEDS.md "What a frame write costs"), charged on `clock`
(a StripClock: real time on the simulated board behind a pty, a test's clock in memory).  A
WS2812 frame lasts 30 us a pixel (24 bits at 800 kHz):
    None         nothing (tests of rendering)
    "bitstream"  rp2 machine.bitstream: a busy loop with interrupts masked for the whole frame
                 (ports/rp2/machine_bitstream.c, mp_hal_quiet_timing_enter)
    "rmt"        esp32 machine.bitstream: RMT sends it while the CPU waits for it, interrupts on
                 (ports/esp32/machine_bitstream.c, rmt_tx_wait_all_done)
    "pio"        rp2 PIO fed by DMA (maester_fw/pio_ws2812.py): returns at once; a write while
                 the last frame still goes out first waits for the rest of it
"""

import time

# dominant channels (bit 2 red, bit 1 green, bit 0 blue) -> character
_CHARS = ".BGCRMYW"
US_PER_PIXEL = 30


class StripClock:
    """ticks_us/sleep_us for the strip's costs: real time, or a test's ms clock (.now) moved on.
    `board` (the readers' SimClock, which the firmware reads as hal.ticks_us) is moved on too:
    the time the CPU spent on the strip passed for the board as a whole."""

    def __init__(self, ms_clock=None, board=None):
        self.ms = ms_clock
        self.board = board
        self._us = 0  # the test clock's microseconds below its ms

    def ticks_us(self):
        return time.ticks_us() if self.ms is None else self.ms.now * 1000 + self._us

    def sleep_us(self, us):
        if self.board is not None:
            self.board.advance(us)
        if self.ms is None:
            time.sleep_us(us)
            return
        us += self._us
        self.ms.now += us // 1000
        self._us = us % 1000


class VirtualStrip:
    def __init__(self, pixel_count, order="GRB", keep=0, path=None, clock=None):
        self.pixel_count = pixel_count
        self.frame = bytearray(3 * pixel_count)
        self.writes = 0
        self.keep = keep
        self.history = []
        self._oR = order.index("R")
        self._oG = order.index("G")
        self._oB = order.index("B")
        self.path = path
        self.clock = clock or StripClock()
        self.masked_us = 0  # interrupts masked by writes
        self.blocked_us = 0  # time write() held the CPU
        self.longest_block_us = 0
        self._busy_until = None  # "pio": when the frame going out ends

    def write(self, buf):
        f = self.frame
        if len(buf) != len(f):
            raise ValueError("frame of %d bytes written to a strip of %d bytes" % (len(buf), len(f)))
        for i in range(len(f)):
            f[i] = buf[i]
        self.writes += 1
        if self.keep:
            self.history.append(bytes(buf))
            if len(self.history) > self.keep:
                self.history.pop(0)
        if self.path is not None:
            self._charge()

    def _charge(self):
        c = self.clock
        frame_us = US_PER_PIXEL * self.pixel_count
        block = frame_us
        if self.path == "pio":
            block = 0
            if self._busy_until is not None:
                block = max(0, time.ticks_diff(self._busy_until, c.ticks_us()))
        elif self.path == "bitstream":
            self.masked_us += frame_us
        if block:
            c.sleep_us(block)
        if self.path == "pio":
            self._busy_until = time.ticks_add(c.ticks_us(), frame_us)
        self.blocked_us += block
        if block > self.longest_block_us:
            self.longest_block_us = block

    def pixel(self, i, frame=None):
        """(r, g, b) of pixel i of the last frame (or of `frame`)."""
        f = self.frame if frame is None else frame
        o = 3 * i
        return (f[o + self._oR], f[o + self._oG], f[o + self._oB])

    def pixels(self, frame=None):
        return [self.pixel(i, frame) for i in range(self.pixel_count)]

    def lit(self, frame=None):
        """Indices of the pixels that are not dark."""
        return [i for i in range(self.pixel_count) if any(self.pixel(i, frame))]

    @staticmethod
    def char(rgb):
        """'.' for dark; else the dominant colour (each channel at least half of the
        brightest one): R G B Y(ellow) C(yan) M(agenta) W(hite); lower case below 64."""
        m = max(rgb)
        if m == 0:
            return "."
        k = 0
        if 2 * rgb[0] >= m:
            k |= 4
        if 2 * rgb[1] >= m:
            k |= 2
        if 2 * rgb[2] >= m:
            k |= 1
        c = _CHARS[k]
        return c if m >= 64 else c.lower()

    def text(self, frame=None):
        return "".join(self.char(self.pixel(i, frame)) for i in range(self.pixel_count))

    def ansi(self, frame=None):
        """The frame as coloured blocks for a 24-bit colour terminal."""
        out = []
        for i in range(self.pixel_count):
            r, g, b = self.pixel(i, frame)
            out.append("\x1b[38;2;%d;%d;%dm\u25cf" % (r, g, b))
        out.append("\x1b[0m")
        return "".join(out)
