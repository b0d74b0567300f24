"""LED segments: a table of named pixel ranges rendered into a WS2812 frame on the device.

Pure logic shared by the firmware (MicroPython) and the tests (CPython): no I/O, no clock.
The caller passes `now_ms` to `tick`, and the strip adapter (`write(buf)`) does the I/O
(maester_fw.strip on a board, sim/virtual_strip.py in tests).  See firmware/LEDS.md.

Segment model.  A table profile lists segments in order; a segment's id is its index in
the table (the `u8 segment` of SEGMENT_SET) and it may also be addressed by name.  Each has
a pixel range (start, length), an optional `reversed` flag (logical pixel 0 is the far end,
so a fill grows from there) and a mode that says what SEGMENT_SET's `level` (0-255) means:

    "fill"   level is a fraction of the segment: lit = ceil(level * length / 255).
             0 lights nothing, 255 lights all, any other level at least one pixel.
             `fill_level(k, length)` gives the level that lights exactly k pixels.
    "count"  level is the number of pixels lit (0..length).
    "dot"    level is the position of the one lit pixel, 1..length (0: none lit).
    "dim"    every pixel is lit and level is the brightness (255 = the colour as given).

Lit pixels show the colour (r, g, b) through the pattern:
    OFF     nothing lit.
    SOLID   steady.
    BLINK   on for the first half of each period, off for the second half.
    PULSE   brightness follows a triangle wave, full at the start of each period,
            dark at its middle.
A period starts at the first render after the `set`, so a new blink or pulse shows at
once.  period_ms 0 means the default (DEFAULT_PERIOD_MS); shorter than two frames is
refused.  `error(seg)` overlays a fast flash on a segment (the whole segment, on/off,
`flashes` times); when it ends the segment shows its own state again, including any
`set` received meanwhile.

Rendering: colour x pattern x level (for "dim"), then gamma through a 256-entry table,
then a global scale so that the estimated current stays within the power budget:

    estimate_mA = pixel_count * idle_ma + ceil(sum(channel bytes) * ma_per_channel / 255)

`ma` is the estimate for the last rendered frame, `ma_uncapped` the same frame before the
scale, `scale` the factor applied (256 = none, else bytes were multiplied by scale/256).

`tick(now_ms)` renders only when a `set`, `clear` or `error` came in or an animation runs:
an animation at most once per `1000 // max_hz` ms, a change at once (at most one frame per
2 ms, so a tap lights without waiting for the next animation frame); it writes the strip only
when the frame differs from the last one written.  It returns True when it wrote.  tick allocates nothing:
every buffer and table is made in the constructor.  Bad input raises ValueError from the
constructor, `set` and `error`, never from `tick`.
"""

from array import array

try:
    from micropython import const
except ImportError:  # CPython
    from .cpython import const


# patterns, the values of SEGMENT_SET's `pattern` (maester_fw.wire)
OFF = const(0)
SOLID = const(1)
BLINK = const(2)
PULSE = const(3)
PATTERN_NAMES = ("off", "solid", "blink", "pulse")

# segment modes (what `level` means)
FILL = const(0)
COUNT = const(1)
DOT = const(2)
DIM = const(3)
MODE_NAMES = ("fill", "count", "dot", "dim")

DEFAULT_PERIOD_MS = const(1000)
MAX_SEGMENTS = const(256)  # the wire's segment id is a u8

_MASK = const(0x3FFFFFFF)  # now_ms is taken modulo 2**30, like time.ticks_ms()
_CHANGE_GAP_MS = const(2)  # the least time between two frames when something changed
_HALF = const(0x20000000)
_NONE = const(-1)  # no anchor / no error flash
_PENDING = const(-2)  # anchored at the next render


def _diff(a, b):
    """a - b in ms, for clocks that wrap at 2**30 (time.ticks_diff for plain ints)."""
    return ((a - b + _HALF) & _MASK) - _HALF


def fill_level(k, length):
    """The level that lights exactly k of `length` pixels in a "fill" segment."""
    if not 0 <= k <= length:
        raise ValueError("fill %d is outside 0..%d" % (k, length))
    return k * 255 // length


def gamma_table(gamma=2.8):
    """256 bytes: round(255 * (v / 255) ** gamma), but never 0 for v > 0 (a lit pixel stays lit).

    gamma 1 (or None) gives the identity.
    """
    t = bytearray(256)
    for v in range(256):
        if not gamma or gamma == 1:
            t[v] = v
        else:
            x = int(255 * (v / 255) ** gamma + 0.5)
            t[v] = 1 if (v and x < 1) else x
    return t


def _u8(v, what):
    if not isinstance(v, int) or not 0 <= v <= 255:
        raise ValueError("%s must be an integer 0..255, got %r" % (what, v))
    return v


class Segments:
    def __init__(self, profile_segments, pixel_count, strip, budget_ma=300,
                 ma_per_channel=20, idle_ma=1, gamma=2.8, max_hz=50, order="GRB"):
        """profile_segments: a sequence of (name, start, length[, reversed[, mode]]) tuples or
        dicts with those keys (reversed defaults to False, mode to "fill").
        pixel_count: pixels on the strip.  strip: an object with write(buf).
        budget_ma: current the LED supply may give the strip (mA).
        ma_per_channel: current of one colour channel of one pixel at 255, whole mA (about 20).
        idle_ma: current of one dark pixel (mA), under 1 on WS2812B; counted as a floor.
        gamma: exponent of the gamma table (2.8 as in Adafruit's table; 1 or None: off).
        max_hz: most renders (and so writes) per second.  order: byte order, "GRB" for WS2812.
        """
        if not isinstance(pixel_count, int) or pixel_count < 1:
            raise ValueError("pixel_count must be a positive integer, got %r" % (pixel_count,))
        if not isinstance(max_hz, int) or not 1 <= max_hz <= 1000:
            raise ValueError("max_hz must be an integer 1..1000, got %r" % (max_hz,))
        if not isinstance(ma_per_channel, int) or ma_per_channel <= 0:
            raise ValueError("ma_per_channel must be a positive integer (mA), got %r" % (ma_per_channel,))
        if idle_ma < 0:
            raise ValueError("idle_ma must be >= 0, got %r" % (idle_ma,))
        if order not in ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR"):
            raise ValueError("order must be a permutation of 'RGB', got %r" % (order,))
        n = len(profile_segments)
        if n > MAX_SEGMENTS:
            raise ValueError("a profile has at most %d segments, got %d" % (MAX_SEGMENTS, n))
        self.pixel_count = pixel_count
        self.strip = strip
        self.interval_ms = 1000 // max_hz
        self.ma_per_channel = ma_per_channel
        self.idle_total = int(idle_ma * pixel_count + 0.999)
        self.budget_ma = budget_ma
        if budget_ma <= self.idle_total:
            raise ValueError("budget_ma %r does not cover the %d mA of %d dark pixels"
                             % (budget_ma, self.idle_total, pixel_count))
        # largest sum of channel bytes that keeps the estimate within the budget
        self._smax = int((budget_ma - self.idle_total) * 255 // ma_per_channel)
        self._gam = gamma_table(gamma)
        self._oR = order.index("R")
        self._oG = order.index("G")
        self._oB = order.index("B")

        self.names = []
        self._ids = {}
        self.n = n
        self._start = array("H", [0] * n)
        self._len = array("H", [0] * n)
        self._rev = bytearray(n)
        self._mode = bytearray(n)
        used = bytearray(pixel_count)  # which segment owns a pixel (index + 1)
        for i, spec in enumerate(profile_segments):
            name, start, length, rev, mode = self._parse_spec(i, spec)
            if name in self._ids:
                raise ValueError("segment name %r appears twice in the profile" % (name,))
            if not isinstance(start, int) or not isinstance(length, int) or start < 0 or length < 1:
                raise ValueError("segment %r: start must be >= 0 and length >= 1, got start=%r length=%r"
                                 % (name, start, length))
            if start + length > pixel_count:
                raise ValueError("segment %r covers pixels %d..%d but the strip has %d pixels (0..%d)"
                                 % (name, start, start + length - 1, pixel_count, pixel_count - 1))
            for p in range(start, start + length):
                if used[p]:
                    raise ValueError("segment %r overlaps segment %r at pixel %d"
                                     % (name, self.names[used[p] - 1], p))
                used[p] = i + 1
            self.names.append(name)
            self._ids[name] = i
            self._start[i] = start
            self._len[i] = length
            self._rev[i] = 1 if rev else 0
            self._mode[i] = mode
        self.names = tuple(self.names)

        # segment state (what the host asked for)
        self._lvl = bytearray(n)
        self._r = bytearray(n)
        self._g = bytearray(n)
        self._b = bytearray(n)
        self._pat = bytearray(n)  # all OFF
        self._per = array("H", [DEFAULT_PERIOD_MS] * n)
        self._an = array("i", [_NONE] * n)  # animation anchor (ms, masked)
        # error flash overlay
        self._er = bytearray(n)
        self._eg = bytearray(n)
        self._eb = bytearray(n)
        self._ep = array("H", [0] * n)
        self._en = bytearray(n)
        self._es = array("i", [_NONE] * n)
        # per-render scratch
        self._lo = array("H", [0] * n)
        self._hi = array("H", [0] * n)
        self._cr = bytearray(n)
        self._cg = bytearray(n)
        self._cb = bytearray(n)

        self._front = bytearray(3 * pixel_count)  # the frame last written to the strip
        self._back = bytearray(3 * pixel_count)  # the frame being rendered
        self._dirty = True  # the first tick writes a dark frame (clears the strip at boot)
        self._force = True
        self._anim = False
        self._last = 0
        self._rendered = False
        self.writes = 0
        self.ma = self.idle_total
        self.ma_uncapped = self.idle_total
        self.scale = 256

    @staticmethod
    def _parse_spec(i, spec):
        rev = False
        mode = "fill"
        if isinstance(spec, dict):
            for k in spec:
                if k not in ("name", "start", "length", "reversed", "mode"):
                    raise ValueError("segment %d: unknown key %r" % (i, k))
            try:
                name = spec["name"]
                start = spec["start"]
                length = spec["length"]
            except KeyError as e:
                raise ValueError("segment %d: missing key %s" % (i, e))
            rev = spec.get("reversed", False)
            mode = spec.get("mode", "fill")
        else:
            if not 3 <= len(spec) <= 5:
                raise ValueError("segment %d: expected (name, start, length[, reversed[, mode]]), got %r"
                                 % (i, spec))
            name, start, length = spec[0], spec[1], spec[2]
            if len(spec) > 3:
                rev = spec[3]
            if len(spec) > 4:
                mode = spec[4]
        if not isinstance(name, str) or not name:
            raise ValueError("segment %d: the name must be a non-empty string, got %r" % (i, name))
        if mode not in MODE_NAMES:
            raise ValueError("segment %r: mode must be one of %s, got %r"
                             % (name, ", ".join(MODE_NAMES), mode))
        return name, start, length, rev, MODE_NAMES.index(mode)

    # -- configuration (may allocate, may raise) -------------------------------------------

    def segment_id(self, seg):
        """The index of a segment given by index or name; ValueError if there is none."""
        if isinstance(seg, str):
            i = self._ids.get(seg)
            if i is None:
                raise ValueError("unknown segment %r (the profile has: %s)" % (seg, ", ".join(self.names)))
            return i
        if not isinstance(seg, int) or not 0 <= seg < self.n:
            raise ValueError("unknown segment id %r (the profile has ids 0..%d)" % (seg, self.n - 1))
        return seg

    def _period(self, period_ms, what):
        if not isinstance(period_ms, int) or not 0 <= period_ms <= 0xFFFF:
            raise ValueError("%s must be an integer 0..65535, got %r" % (what, period_ms))
        if period_ms == 0:
            return DEFAULT_PERIOD_MS
        if period_ms < 2 * self.interval_ms:
            raise ValueError("%s %d is shorter than two frames (%d ms at the rate limit)"
                             % (what, period_ms, 2 * self.interval_ms))
        return period_ms

    def set(self, seg, level, r, g, b, pattern=SOLID, period_ms=0):
        """Show a segment (a SEGMENT_SET).  See the module docstring for level and pattern."""
        i = self.segment_id(seg)
        _u8(level, "level")
        _u8(r, "red")
        _u8(g, "green")
        _u8(b, "blue")
        if not isinstance(pattern, int) or not OFF <= pattern <= PULSE:
            raise ValueError("pattern must be 0 off, 1 solid, 2 blink or 3 pulse, got %r" % (pattern,))
        if pattern == BLINK or pattern == PULSE:
            period_ms = self._period(period_ms, "period_ms")
        else:
            if not isinstance(period_ms, int) or not 0 <= period_ms <= 0xFFFF:
                raise ValueError("period_ms must be an integer 0..65535, got %r" % (period_ms,))
            period_ms = self._per[i]  # ignored for off and solid
        mode = self._mode[i]
        length = self._len[i]
        if (mode == COUNT or mode == DOT) and level > length:
            raise ValueError("segment %r (%s mode) has %d pixels, level %d is more"
                             % (self.names[i], MODE_NAMES[mode], length, level))
        if (self._lvl[i] == level and self._r[i] == r and self._g[i] == g and self._b[i] == b
                and self._pat[i] == pattern and self._per[i] == period_ms):
            return  # the same state again (e.g. a resync): keep the animation's phase
        self._lvl[i] = level
        self._r[i] = r
        self._g[i] = g
        self._b[i] = b
        changed_anim = self._pat[i] != pattern or self._per[i] != period_ms
        self._pat[i] = pattern
        self._per[i] = period_ms
        if changed_anim or self._an[i] == _NONE:
            self._an[i] = _PENDING
        self._dirty = True

    def clear(self):
        """Every segment off and no error flash (SEGMENTS_CLEAR)."""
        for i in range(self.n):
            self._pat[i] = OFF
            self._lvl[i] = 0
            self._an[i] = _NONE
            self._es[i] = _NONE
        self._dirty = True

    def error(self, seg, r=255, g=0, b=0, flashes=3, period_ms=200):
        """Flash the whole segment `flashes` times (on for half of each period), then go back
        to its own state.  Used when a tap is rejected."""
        i = self.segment_id(seg)
        _u8(r, "red")
        _u8(g, "green")
        _u8(b, "blue")
        if not isinstance(flashes, int) or not 1 <= flashes <= 255:
            raise ValueError("flashes must be an integer 1..255, got %r" % (flashes,))
        period_ms = self._period(period_ms, "error period_ms")
        self._er[i] = r
        self._eg[i] = g
        self._eb[i] = b
        self._en[i] = flashes
        self._ep[i] = period_ms
        self._es[i] = _PENDING
        self._dirty = True

    def invalidate(self):
        """Write the next frame even if it equals the last one (e.g. after the strip lost power)."""
        self._dirty = True
        self._force = True

    @property
    def animating(self):
        """True while a blink, pulse or error flash runs (tick must keep being called often);
        False when the strip shows a still picture and only a set/clear/error changes it."""
        return self._anim

    @property
    def changed(self):
        """True while a change the host asked for is not on the strip yet (tick has not shown it:
        the least gap between two frames, _CHANGE_GAP_MS, had not passed when it came)."""
        return self._dirty

    @property
    def frame(self):
        """The frame last written to the strip (do not modify)."""
        return self._front

    # -- steady state (no allocation, no exceptions) -----------------------------------------

    def tick(self, now_ms):
        """Advance animations; write the strip if the frame changed.  Returns True if it wrote."""
        if not (self._dirty or self._anim):
            return False
        now = now_ms & _MASK
        if self._rendered:
            # Animations advance at most max_hz times a second; a change the host asked for is
            # shown at once (tap to light), at most one frame per _CHANGE_GAP_MS.
            d = _diff(now, self._last)
            if 0 <= d < (_CHANGE_GAP_MS if self._dirty else self.interval_ms):
                return False
        self._rendered = True
        self._last = now
        self._dirty = False
        self._render(now)
        back = self._back
        if back == self._front and not self._force:
            return False
        self._force = False
        self._back = self._front
        self._front = back
        self.strip.write(back)
        self.writes += 1
        return True

    def _render(self, now):
        gam = self._gam
        lo_a = self._lo
        hi_a = self._hi
        cr = self._cr
        cg = self._cg
        cb = self._cb
        anim = False
        total = 0
        for i in range(self.n):
            length = self._len[i]
            lo = 0
            hi = 0
            r = 0
            g = 0
            b = 0
            es = self._es[i]
            flashing = False
            if es != _NONE:
                if es == _PENDING:
                    es = now
                    self._es[i] = now
                el = _diff(now, es)
                ep = self._ep[i]
                if 0 <= el < ep * self._en[i]:
                    flashing = True
                    anim = True
                    if el % ep < (ep >> 1):
                        hi = length
                        r = self._er[i]
                        g = self._eg[i]
                        b = self._eb[i]
                else:
                    self._es[i] = _NONE
            pat = self._pat[i]
            if not flashing and pat != OFF:
                level = self._lvl[i]
                mode = self._mode[i]
                f = 255
                if mode == FILL:
                    hi = (level * length + 254) // 255
                elif mode == COUNT:
                    hi = level
                elif mode == DOT:
                    if level:
                        lo = level - 1
                        hi = level
                else:  # DIM
                    hi = length
                    f = level
                if pat != SOLID:
                    anim = True
                    an = self._an[i]
                    if an == _PENDING or an == _NONE:
                        an = now
                        self._an[i] = now
                    per = self._per[i]
                    ph = _diff(now, an) % per
                    if pat == BLINK:
                        if ph >= (per >> 1):
                            hi = lo
                    else:  # PULSE: triangle, full at phase 0, dark at the middle
                        x = ph * 510 // per
                        if x > 255:
                            x = 510 - x
                        f = f * (255 - x) // 255
                r = gam[self._r[i] * f // 255]
                g = gam[self._g[i] * f // 255]
                b = gam[self._b[i] * f // 255]
            if hi <= lo:
                hi = lo
            lo_a[i] = lo
            hi_a[i] = hi
            cr[i] = r
            cg[i] = g
            cb[i] = b
            total += (r + g + b) * (hi - lo)
        self._anim = anim
        q = 256
        if total > self._smax:
            q = self._smax * 256 // total  # floor: the scaled sum stays <= _smax
        capped = 0
        buf = self._back
        oR = self._oR
        oG = self._oG
        oB = self._oB
        for i in range(self.n):
            lo = lo_a[i]
            hi = hi_a[i]
            r = cr[i]
            g = cg[i]
            b = cb[i]
            if q < 256:
                r = (r * q) >> 8
                g = (g * q) >> 8
                b = (b * q) >> 8
            capped += (r + g + b) * (hi - lo)
            start = self._start[i]
            length = self._len[i]
            rev = self._rev[i]
            for k in range(length):
                if rev:
                    o = 3 * (start + length - 1 - k)
                else:
                    o = 3 * (start + k)
                if lo <= k and k < hi:
                    buf[o + oR] = r
                    buf[o + oG] = g
                    buf[o + oB] = b
                else:
                    buf[o] = 0
                    buf[o + 1] = 0
                    buf[o + 2] = 0
        mpc = self.ma_per_channel
        self.scale = q
        self.ma_uncapped = self.idle_total + (total * mpc + 254) // 255
        self.ma = self.idle_total + (capped * mpc + 254) // 255

    def estimate_ma(self, frame=None):
        """Estimated current (mA) of a frame (default: the last one written)."""
        if frame is None:
            frame = self._front
        s = 0
        for v in frame:
            s += v
        return self.idle_total + (s * self.ma_per_channel + 254) // 255
