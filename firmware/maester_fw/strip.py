"""Strip adapters: `write(buf)` sends one frame (3 bytes per pixel, in the strip's order) to
WS2812 LEDs.  The only hardware-facing part of the LED code; maester_fw.leds renders the frame.

Not imported by the tests (they use sim/virtual_strip.py).  Not yet run on a board.

    BitstreamStrip(pin)  machine.bitstream, what the `neopixel` module uses.  On rp2 it is a
                         busy loop with interrupts masked for the whole frame (about 30 us per
                         pixel); on ESP32 it uses the RMT peripheral.
    NeoPixelStrip(np)    wraps an existing neopixel.NeoPixel object.
    PioStrip(pin, n)     rp2 only: a PIO state machine clocks the bits, so interrupts stay on
                         (after micropython examples/rp2/pio_ws2812.py).
"""

# 800 kHz WS2812 timing, ns: (high for 0, low for 0, high for 1, low for 1)
WS2812_TIMING = (400, 850, 800, 450)


class BitstreamStrip:
    def __init__(self, pin, timing=WS2812_TIMING):
        from machine import Pin, bitstream

        self.pin = Pin(pin, Pin.OUT) if isinstance(pin, int) else pin
        self.timing = timing
        self._bitstream = bitstream

    def write(self, buf):
        self._bitstream(self.pin, 0, self.timing, buf)


class NeoPixelStrip:
    """Borrow a neopixel.NeoPixel's pin and timing; its own buffer is not used."""

    def __init__(self, np):
        from machine import bitstream

        self.pin = np.pin
        self.timing = np.timing
        self._bitstream = bitstream

    def write(self, buf):
        self._bitstream(self.pin, 0, self.timing, buf)


class PioStrip:
    """rp2: one PIO state machine at 8 MHz; each pixel goes out as a 24-bit word."""

    def __init__(self, pin, pixel_count, sm_id=0):
        import rp2
        from array import array
        from machine import Pin

        @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                     autopull=True, pull_thresh=24)
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
