"""Time stamps for `maester bench hil`: what the simulated board saw, and when, on the host's clock.

Under the unix port `time.ticks_us()` reads CLOCK_MONOTONIC, the clock the host's
`time.monotonic_ns()` reads too, so stamps taken here and on the host can be subtracted.
Only the bench turns tracing on (run_sim.py --trace); a normal simulated board pays nothing.

Recorded (each a list of tuples, kept in memory until `dump`):
    rx     (t_us, bytes)     serial bytes the firmware read from the host
    tx     (t_us, bytes)     serial bytes the firmware handed to the port
    place  (t_us, reader, uid hex)   a card laid on a simulated reader
    strip  (t_us,)           a frame written to the strip
"""

import json
import time
from binascii import hexlify


def _hex(b):
    return hexlify(b).decode()


class Trace:
    def __init__(self):
        self.rx = []
        self.tx = []
        self.place = []
        self.strip = []

    def now(self):
        return time.ticks_us()

    def dump(self, path, extra=None):
        """Write one JSON object; the byte streams a record at a time (they can be megabytes)."""
        with open(path, "w") as f:
            f.write("{")
            for name in ("rx", "tx"):
                f.write('"%s": [' % name)
                for i, (t, b) in enumerate(getattr(self, name)):
                    f.write('%s[%d, "%s"]' % ("," if i else "", t, _hex(b)))
                f.write("], ")
            f.write('"place": %s, "strip": %s' % (json.dumps(self.place), json.dumps(self.strip)))
            for k, v in (extra or {}).items():
                f.write(', "%s": %s' % (k, json.dumps(v)))
            f.write("}")
        return len(self.rx) + len(self.tx) + len(self.place) + len(self.strip)


class TracedSerial:
    """Any HAL serial, with what goes through it stamped."""

    def __init__(self, serial, trace):
        self.serial = serial
        self.trace = trace
        self.fin = getattr(serial, "fin", None)  # HalSim waits on it

    def readinto(self, buf):
        n = self.serial.readinto(buf)
        if n:
            self.trace.rx.append((self.trace.now(), bytes(buf[:n])))
        return n

    def write(self, buf, n):
        w = self.serial.write(buf, n)
        if w:
            self.trace.tx.append((self.trace.now(), bytes(memoryview(buf)[:w])))
        return w


class TracedStrip:
    """A VirtualStrip whose writes are stamped (everything else is the strip's own)."""

    def __init__(self, strip, trace):
        self._strip = strip
        self._trace = trace

    def write(self, buf):
        self._strip.write(buf)
        self._trace.strip.append((self._trace.now(),))

    def __getattr__(self, name):
        return getattr(self._strip, name)
