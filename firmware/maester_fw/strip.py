"""Strip adapters: `write(buf)` sends one frame (3 bytes per pixel, in the strip's order) to
WS2812 LEDs.  The only hardware-facing part of the LED code; maester_fw.leds renders the frame.

Not imported by the tests (they use sim/virtual_strip.py).  Not yet run on a board.

    BitstreamStrip(pin)  machine.bitstream, what the `neopixel` module uses.  On rp2 it is a
                         busy loop with interrupts masked for the whole frame (about 30 us per
                         pixel); on ESP32 it uses the RMT peripheral.
    NeoPixelStrip(np)    wraps an existing neopixel.NeoPixel object.
    pio_ws2812.PioStrip(pin, n)  rp2 only: a PIO state machine clocks the bits, so interrupts
                         stay on (in its own module, which only a Pico imports).
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
