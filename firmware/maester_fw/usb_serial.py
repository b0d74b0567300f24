"""The board's USB serial as the app sees it (FIRMWARE.md, "The HAL interface"): `readinto`,
`write` and `wait`, over sys.stdin/sys.stdout on a board, never blocking the loop.

stdin.readinto() waits for the whole buffer, so bytes are taken one at a time while poll says
more are there.  A write to a host that holds the port open without reading blocks for up to
500 ms on rp2, so writes wait until poll reports room, and go out in 64-byte pieces (the CDC
endpoint's size).  The esp32 port always reports room; there the app itself bounds what it
writes to a silent host (app.App._write).

The streams are arguments so that the simulated board runs this same code over its model of
the port's USB CDC (firmware/sim/sim_usb.py); main.py passes sys.stdin and sys.stdout.
"""

import select


class UsbSerial:
    def __init__(self, stdin, stdout):
        # stdin/stdout: what select.poll registers (sys.stdin, sys.stdout on a board); their
        # `buffer` (if any) is what bytes go through
        self._in = getattr(stdin, "buffer", stdin)
        self._out = getattr(stdout, "buffer", stdout)
        self._pin = select.poll()
        self._pin.register(stdin, select.POLLIN)
        self._pout = select.poll()
        self._pout.register(stdout, select.POLLOUT)
        self._one = bytearray(1)

    def readinto(self, buf):
        n = 0
        while n < len(buf):
            ready = False
            for _ in self._pin.ipoll(0):
                ready = True
            if not ready:
                break
            self._in.readinto(self._one)
            buf[n] = self._one[0]
            n += 1
        return n

    def write(self, buf, n):
        for _ in self._pout.ipoll(0):
            k = n if n < 64 else 64
            return self._out.write(memoryview(buf)[:k]) or 0
        return 0

    def wait(self, ms):
        for _ in self._pin.ipoll(ms):
            break
