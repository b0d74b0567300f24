"""Board entry point (RP2040 Pico, ESP32-S3): build the real HAL and run maester_fw.app.

The loop and the protocol are in maester_fw/app.py; this file only wires the hardware.
Not run by the tests (the unix port has no machine.SPI), only compiled with mpy-cross.
"""

import os
import select
import sys
import time

import machine
import micropython

from maester_fw import app

REPL_FLAG = "stay_in_repl"  # written before a reset that must end at the REPL


class UsbSerial:
    """USB CDC through sys.stdin/sys.stdout, never blocking the loop.

    stdin.readinto() waits for the whole buffer, so bytes are taken one at a time while
    poll says more are there.  A write to a host that holds the port open without reading
    blocks for up to 500 ms on rp2, so writes wait until poll reports room, and go out in
    64-byte pieces (the CDC endpoint's size).  The esp32 port always reports room; there
    the app itself bounds what it writes to a silent host (app.App._write).
    """

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._pin = select.poll()
        self._pin.register(sys.stdin, select.POLLIN)
        self._pout = select.poll()
        self._pout.register(sys.stdout, select.POLLOUT)
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


class Board:
    def __init__(self):
        self.platform = sys.platform  # "rp2" or "esp32": picks the default config
        self.ticks_ms = time.ticks_ms
        self.ticks_us = time.ticks_us  # the reader drivers' clock
        self.sleep_us = time.sleep_us
        self.serial = UsbSerial()
        self.wdt = None

    def begin(self, cfg):
        if self.wdt is None and cfg["watchdog_ms"]:
            self.wdt = machine.WDT(timeout=cfg["watchdog_ms"])  # cannot be stopped once started

    def spi(self, c):
        P = machine.Pin
        return machine.SPI(c["id"], baudrate=c["baudrate"], polarity=0, phase=0,
                           sck=P(c["sck"]), mosi=P(c["mosi"]), miso=P(c["miso"]))

    def pin(self, n):
        return machine.Pin(n, machine.Pin.OUT, value=1)

    def strip(self, pin, pixels, order):
        from maester_fw.strip import BitstreamStrip

        return BitstreamStrip(pin)

    def idle(self, ms):
        self.serial.wait(ms if ms < 20 else 20)

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()

    def boot_id(self):
        b = os.urandom(4)
        return (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) or 1

    def kbd_intr(self, c):
        micropython.kbd_intr(c)

    def reset(self):
        machine.reset()

    def bootloader(self):
        # rp2 and the ESP32-S2/S3 builds with native USB can restart into their USB loader; a port
        # without machine.bootloader only restarts (hold BOOT while it does to reach the ROM loader).
        enter = getattr(machine, "bootloader", None)
        if enter is None:
            machine.reset()
        else:
            enter()


def run():
    try:
        os.remove(REPL_FLAG)  # the last run asked for the REPL: stay there this once
        return
    except OSError:
        pass
    board = Board()
    if app.main(board) == app.EXIT_REPL and board.wdt is not None:
        # a running watchdog would reset the board under the user's feet: reset now into
        # a boot that skips the app instead
        with open(REPL_FLAG, "w") as f:
            f.write("1")
        machine.reset()


run()
