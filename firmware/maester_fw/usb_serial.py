"""The board's USB serial as the app sees it (FIRMWARE.md, "The HAL interface"): `readinto`,
`write` and `wait`, over sys.stdin/sys.stdout on a board, never blocking the loop.

Reading: stdin.readinto() waits for the whole buffer, so bytes are taken one at a time while
poll says more are there.

Writing only what fits.  On rp2, poll says stdout is writable when the USB CDC TX FIFO has one
free byte (shared/tinyusb/mp_usbd_cdc.c, mp_usbd_cdc_poll_interfaces), but a write waits until
all of its bytes fit, up to 500 ms (mp_usbd_cdc_tx_strn, MICROPY_HW_USB_CDC_TX_TIMEOUT).  A
host that is alive but reads slowly would stall every pass that writes.  So bytes go out one at
a time while poll says there is room, at most WRITE_MAX a call; the app keeps the rest queued
for the next pass.  A byte written after poll said "room" never waits.

The esp32 port's poll says writable whatever the FIFO holds (ports/esp32/mphalport.c), so it
cannot tell; there the app bounds what it writes to a silent host (app.App._write).  Its generic
ESP32-S3 build also copies every write to UART0 (MICROPY_HW_ENABLE_UART_REPL), whose 128-byte
FIFO empties at 115200 baud while `uart_stdout_tx_strn` waits 10 ms ticks for room
(ports/esp32/uart.c).  With `uart_copy` the writes are paced to what that FIFO can take, by
counting what went in and what 115200 baud has sent since.

The streams are arguments so that the simulated board runs this same code over its model of
the port's USB CDC (firmware/sim/sim_usb.py); main.py passes sys.stdin and sys.stdout.
"""

try:
    from micropython import const
except ImportError:  # CPython
    from .cpython import const

import select

from .clock import ticks_diff, ticks_us

WRITE_MAX = const(64)  # bytes a call at most: one full-speed USB packet
UART_FIFO = const(128)  # ESP32-S3 UART FIFO
UART_US_PER_BYTE = const(87)  # 10 bits at 115200 baud


class UsbSerial:
    def __init__(self, stdin, stdout, uart_copy=False, ticks=None, poll=select.poll):
        # stdin/stdout: what `poll` registers (sys.stdin, sys.stdout on a board); their
        # `buffer` (if any) is what bytes go through.  `poll` makes the poll objects: select.poll
        # on a board; the simulated board passes sim_usb.Poll, because the unix port's
        # select.poll spends about a millisecond a call on a stream written in Python (measured
        # in sim_usb.py), which a board's C-level sys.stdin does not.
        self._in = stdin.buffer if hasattr(stdin, "buffer") else stdin
        self._out = stdout.buffer if hasattr(stdout, "buffer") else stdout
        self._pin = poll()
        self._pin.register(stdin, select.POLLIN)
        self._pout = poll()
        self._pout.register(stdout, select.POLLOUT)
        self._one = bytearray(1)
        self._one_out = bytearray(1)
        self._uart = uart_copy
        self._ticks = ticks if ticks is not None else ticks_us
        self._uart_level = 0  # bytes the UART FIFO holds, as of _uart_at (us)
        self._uart_at = self._ticks()

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
        """Write up to n bytes of buf without waiting; returns how many went (0: try later)."""
        k = n if n < WRITE_MAX else WRITE_MAX
        if self._uart:
            return self._write_paced(buf, k)
        one = self._one_out
        out = self._out
        w = 0
        while w < k:
            room = False
            for _ in self._pout.ipoll(0):
                room = True
            if not room:
                break
            one[0] = buf[w]
            if not out.write(one):
                break
            w += 1
        return w

    def _write_paced(self, buf, k):
        now = self._ticks()
        sent = ticks_diff(now, self._uart_at) // UART_US_PER_BYTE
        self._uart_at = now
        level = self._uart_level - sent
        if level < 0:
            level = 0
        room = UART_FIFO - level
        if k > room:
            k = room
        w = 0
        if k > 0:
            w = self._out.write(memoryview(buf)[:k]) or 0
        self._uart_level = level + w
        return w

    def wait(self, ms):
        for _ in self._pin.ipoll(ms):
            break
