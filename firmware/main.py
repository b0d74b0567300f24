"""Board entry point (RP2040 Pico, ESP32-S3): build the real HAL and run maester_fw.app.

The loop and the protocol are in maester_fw/app.py; this file only wires the hardware.
Not run by the tests (the unix port has no machine.SPI), only compiled with mpy-cross.

The first two statements turn Ctrl-C off, before anything else (FIRMWARE.md, "Ctrl-C at boot"):
pyexec enables it just before it runs this file, and the host's first frames carry 0x03 and 0x01
bytes; with Ctrl-C on they would stop the firmware and switch the REPL to raw mode.  The USB
task that turns a 0x03 into a KeyboardInterrupt runs at the VM's first branch, and these two
lines have none.  Keep them first.
"""

import micropython
micropython.kbd_intr(-1)

import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import machine  # noqa: E402

REPL_FLAG = "stay_in_repl"  # written before a reset that must end at the REPL
FLASHING = "maester_flashing"  # `maester firmware flash` writes it first and removes it last

try:
    os.stat(FLASHING)
    app = None  # a flash was cut short: these modules may be half old, half new; run none of them
except OSError:
    from maester_fw import app
    from maester_fw.usb_serial import UsbSerial


class Board:
    def __init__(self):
        self.platform = sys.platform  # "rp2" or "esp32": picks the default config
        self.ticks_ms = time.ticks_ms
        self.ticks_us = time.ticks_us  # the reader drivers' clock
        self.sleep_us = time.sleep_us
        # the generic ESP32-S3 build copies stdout to UART0: pace writes to it (usb_serial.py)
        self.serial = UsbSerial(sys.stdin, sys.stdout, uart_copy=sys.platform == "esp32")
        self.wdt = None

    def begin(self, cfg):
        if self.wdt is None and cfg["watchdog_ms"]:
            self.wdt = machine.WDT(timeout=cfg["watchdog_ms"])  # cannot be stopped once started

    def spi(self, c):
        P = machine.Pin
        # MISO pulled up: with no reader driving it, it reads 0xFF, so a reader module that holds
        # it low can be told apart (app.App._bus_check).  rp2's SPI keeps the pull; whether the
        # esp32 port's does is not known (FIRMWARE.md, "Readers that fail").
        P(c["miso"], P.IN, P.PULL_UP)
        return machine.SPI(c["id"], baudrate=c["baudrate"], polarity=0, phase=0,
                           sck=P(c["sck"]), mosi=P(c["mosi"]), miso=P(c["miso"]))

    def pin(self, n):
        return machine.Pin(n, machine.Pin.OUT, value=1)

    def strip(self, pin, pixels, order):
        from maester_fw import strip

        return strip.make(self.platform, pin)

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
    if app is None:
        print("maester: a flash to this board did not finish; staying at the REPL (flash it again)")
        return
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
