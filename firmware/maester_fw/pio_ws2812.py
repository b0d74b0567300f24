"""rp2 only: a WS2812 strip clocked by a PIO state machine and fed by DMA, so a frame goes out while
the CPU runs on with interrupts on (LEDS.md, "What a frame write costs").  The other strip adapter is
in strip.py; only a Pico imports this module (the ESP32 type-check leaves it out).

The program is MicroPython's WS2812 example (examples/rp2/pio_ws2812.py) with the bits taken a
byte at a time: the DMA copies the frame's bytes (GRB, as leds.py renders them) into the state
machine's TX FIFO, where a byte-sized write lands in all four byte lanes of the 32-bit register
(RP2040 datasheet 2.1.4), and autopull takes the top 8 bits of each.  Nothing is packed in
Python, so write() costs a DMA set-up however long the strip.

Timing at 8 MHz (125 ns a cycle), 10 cycles a bit (1.25 us, 800 kHz): a 0 is high 2 cycles
(250 ns) then low 8 (1000 ns); a 1 is high 7 cycles (875 ns) then low 3 (375 ns).  A WS2812 reads
a 0 below about 500 ns high and a 1 above about 550 ns (josh.com, "NeoPixels Revealed").
tests/firmware/test_leds.py runs this program on a simulated state machine (sim/rp2.py).

write() first waits for the frame still going out, if any: 300 pixels take 9 ms, and leds.py
writes at most every 2 ms (a change) or 20 ms (an animation), into the other of its two frame
buffers, so the buffer being sent is never the one being rendered.
"""

import rp2

TYPE_CHECKING = False
if TYPE_CHECKING:  # the assembler's names (out, jmp, label...) exist only inside @asm_pio when it runs
    from rp2.asm_pio import *  # noqa: F401,F403


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=8)
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
    """rp2: one PIO state machine at 8 MHz, its TX FIFO fed a byte at a time by one DMA channel."""

    def __init__(self, pin, sm_id=0):
        if isinstance(pin, int):
            from machine import Pin

            pin = Pin(pin)
        self._sm = rp2.StateMachine(sm_id, ws2812, freq=8_000_000, sideset_base=pin)
        self._sm.active(1)
        self._dma = rp2.DMA()
        # bytes, the FIFO's address fixed, paced by its data request: DREQ_PIOn_TXm = 8n + m
        self._ctrl = self._dma.pack_ctrl(size=0, inc_write=False, treq_sel=(sm_id >> 2) * 8 + (sm_id & 3))

    def write(self, buf):
        dma = self._dma
        while dma.active():  # the last frame is still going out
            pass
        dma.config(read=buf, write=self._sm, count=len(buf), ctrl=self._ctrl, trigger=True)
