"""rp2 only: a WS2812 strip clocked by a PIO state machine, so interrupts stay on while a frame goes
out (after micropython's examples/rp2/pio_ws2812.py). The other strip adapters are in strip.py.

Only a Pico imports this module (the ESP32 type-check leaves it out). At 8 MHz a bit takes 10
cycles: high 3 then low 7 for a 0, high 8 then low 2 for a 1.
"""

from array import array

import rp2
from machine import Pin

TYPE_CHECKING = False
if TYPE_CHECKING:  # the assembler's names (out, jmp, label...) exist only inside @asm_pio when it runs
    from rp2.asm_pio import *  # noqa: F401,F403


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=24)
def ws2812():
    T1 = 2
    T2 = 5
    T3 = 3
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[T3 - 1]
    jmp(not_x, "do_zero").side(1)[T1 - 1]
    jmp("bitloop").side(1)[T2 - 1]
    label("do_zero")
    nop().side(0)[T2 - 1]
    wrap()


class PioStrip:
    """rp2: one PIO state machine at 8 MHz; each pixel goes out as a 24-bit word."""

    def __init__(self, pin, pixel_count, sm_id=0):
        self._sm = rp2.StateMachine(sm_id, ws2812, freq=8_000_000,
                                    sideset_base=Pin(pin) if isinstance(pin, int) else pin)
        self._sm.active(1)
        self._words = array("I", [0] * pixel_count)

    def write(self, buf):
        w = self._words
        for i in range(len(w)):
            o = 3 * i
            w[i] = (buf[o] << 16) | (buf[o + 1] << 8) | buf[o + 2]
        self._sm.put(w, 8)  # the state machine shifts out the top 24 bits of each word
