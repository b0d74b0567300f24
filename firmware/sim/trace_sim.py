"""Time stamps for `maester bench hil`: what the simulated board saw, and when, on the host's clock.

Under the unix port `time.ticks_us()` reads CLOCK_MONOTONIC, the clock the host's
`time.monotonic_ns()` reads too, so stamps taken here and on the host can be subtracted.
Only the bench turns tracing on (run_sim.py --trace FILE); a normal simulated board pays nothing.

Each record is written to FILE at once, one JSON array a line, so nothing piles up in the heap
(a growing trace kept in memory made the garbage collector pause the loop, which the bench then
measured as latency):

    ["rx", t_us, "hex"]          serial bytes the firmware read from the host
    ["tx", t_us, "hex"]          serial bytes the firmware handed to the port
    ["place", t_us, reader, "uid hex"]   a card laid on a simulated reader
    ["strip", t_us]              a frame written to the strip
    ["shown", t_us]              a light change the host sent rendered into the frame the strip
                                 already shows: nothing is written (leds.Segments.tick), yet the
                                 light asked for is on the strip from then on (trace_renders)
"""

import time
from binascii import hexlify


class Trace:
    def __init__(self, path):
        self.path = path
        self.f = open(path, "w")
        self.records = 0

    def now(self):
        return time.ticks_us()

    def _line(self, text):
        self.f.write(text)
        self.records += 1

    def data(self, kind, t, b):
        self._line('["%s",%d,"%s"]\n' % (kind, t, hexlify(b).decode()))

    def place(self, t, reader, uid):
        self._line('["place",%d,%d,"%s"]\n' % (t, reader, uid))

    def strip(self, t):
        self._line('["strip",%d]\n' % t)

    def shown(self, t):
        self._line('["shown",%d]\n' % t)

    def flush(self):
        self.f.flush()
        return self.records


class TracedSerial:
    """Any HAL serial, with what goes through it stamped."""

    def __init__(self, serial, trace):
        self.serial = serial
        self.trace = trace
        self.fin = getattr(serial, "fin", None)  # HalSim waits on it

    def readinto(self, buf):
        n = self.serial.readinto(buf)
        if n:
            self.trace.data("rx", self.trace.now(), memoryview(buf)[:n])
        return n

    def write(self, buf, n):
        t = self.trace.now()  # before: the host may read the bytes before write() returns here
        w = self.serial.write(buf, n)
        if w:
            self.trace.data("tx", t, memoryview(buf)[:w])
        return w


class TracedStrip:
    """A VirtualStrip whose writes are stamped (everything else is the strip's own)."""

    def __init__(self, strip, trace):
        self._strip = strip
        self._trace = trace

    def write(self, buf):
        self._strip.write(buf)
        self._trace.strip(self._trace.now())

    def __getattr__(self, name):
        return getattr(self._strip, name)


def trace_renders(segments_class, trace):
    """Stamp each render of a light change the host sent that leaves the frame as it was.

    `Segments.tick` writes the strip only when the frame differs from the one written last, so such
    a change writes nothing and only the strip's stamps would time it by the next frame that does
    differ: a seat going idle near its pulse's low point (both render (1, 1, 1) after the gamma)
    was timed at 100-230 ms, by the next pulse step of another seat (`bench hil`'s render
    outliers, issue 29). Rendered means the change was taken (`changed` cleared): held back by the
    least gap between frames, it is not yet."""
    tick = segments_class.tick

    def traced_tick(self, now_ms):
        held = self.changed
        wrote = tick(self, now_ms)
        if held and not wrote and not self.changed:
            trace.shown(trace.now())
        return wrote
    segments_class.tick = traced_tick
