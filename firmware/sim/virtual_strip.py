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
"""

# dominant channels (bit 2 red, bit 1 green, bit 0 blue) -> character
_CHARS = ".BGCRMYW"


class VirtualStrip:
    def __init__(self, pixel_count, order="GRB", keep=0):
        self.pixel_count = pixel_count
        self.frame = bytearray(3 * pixel_count)
        self.writes = 0
        self.keep = keep
        self.history = []
        self._oR = order.index("R")
        self._oG = order.index("G")
        self._oB = order.index("B")

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
