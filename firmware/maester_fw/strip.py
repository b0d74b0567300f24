"""Strip adapters: `write(buf)` sends one frame (3 bytes per pixel, in the strip's order) to
WS2812 LEDs.  The only hardware-facing part of the LED code; maester_fw.leds renders the frame.

The app's strip is `make(platform, pin)` (main.py); the simulated board charges the
cost of the same choice (sim/virtual_strip.py).  Not yet run on a board.

    BitstreamStrip(pin)  machine.bitstream, what the `neopixel` module uses.  On rp2 it is a
                         busy loop with interrupts masked for the whole frame (about 30 us per
                         pixel); on ESP32 it uses the RMT peripheral and waits for it.
    NeoPixelStrip(np)    wraps an existing neopixel.NeoPixel object.
    pio_ws2812.PioStrip(pin)  rp2 only: a PIO state machine clocks the bits, fed by DMA, so
                         write() returns at once and interrupts stay on (in its own module,
                         which only a Pico imports).
"""

# 800 kHz WS2812 timing, ns: (high for 0, low for 0, high for 1, low for 1)
WS2812_TIMING = (400, 850, 800, 450)


def adapter_for(platform):
    """Which adapter a board of this port uses (main.py builds it with make(); the simulated
    board charges its cost, sim/virtual_strip.py).  On rp2, machine.bitstream masks interrupts
    for the whole frame (30 us a pixel: USB and timers wait 9 ms for 300 pixels), so a PIO state
    machine fed by DMA sends it instead.  The esp32 port's bitstream goes through its RMT
    peripheral with interrupts on (LEDS.md)."""
    return "pio" if platform == "rp2" else "bitstream"


def make(platform, pin):
    """The strip adapter for this port (adapter_for)."""
    if adapter_for(platform) == "pio":
        from .pio_ws2812 import PioStrip

        return PioStrip(pin)
    return BitstreamStrip(pin)


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
