"""The simulated board as the esp32 port (ESP32-S3) behaves where it differs from the Pico.

    Esp32HalSim    HalSim whose spi() and pin() refuse what machine.SPI and machine.Pin
                   refuse on the esp32 port, and whose `platform` is "esp32" (sys.platform
                   there), so maester_fw picks the ESP32-S3 default config.
    StallingSerial an in-memory serial line like the esp32 port's USB CDC: poll always says
                   "writable", and while the host holds the port without reading, every
                   write waits for the port's TX timeout.

What the port does (MicroPython ports/esp32, shared/tinyusb):
  * machine.SPI(id) accepts only the general-purpose hosts, ids 1 and 2 (SPI2 and SPI3);
    anything else raises ValueError("SPI(0) doesn't exist").  SPI0/SPI1 belong to the flash.
  * MISO has no pull: with no reader driving it, it floats and reads noise.
  * machine.Pin(n) raises ValueError("invalid pin") for a GPIO the chip lacks: the ESP32-S3
    has GPIO0-21 and GPIO26-48.
  * mp_hal_stdio_poll() reports POLLOUT on stdout unconditionally.  A write to the TinyUSB
    CDC waits up to MICROPY_HW_USB_CDC_TX_TIMEOUT (500 ms) for the host to make room while
    the port is open; a USB Serial/JTAG console build waits up to 200 ms per 64-byte packet.
"""

from hal_sim import HalSim, LoopSerial

ESP32S3_GPIO = tuple(range(0, 22)) + tuple(range(26, 49))
SPI_IDS = (1, 2)


class Esp32HalSim(HalSim):
    platform = "esp32"
    miso_idle = None  # machine.SPI leaves the S3's MISO without a pull: with no reader it floats
    miso_pullup = False  # whether main.py's pull-up survives the IDF's SPI set-up is not known

    def spi(self, spi_cfg):
        if spi_cfg["id"] not in SPI_IDS:
            raise ValueError("SPI(%d) doesn't exist" % spi_cfg["id"])
        return HalSim.spi(self, spi_cfg)

    def pin(self, n):
        if n not in ESP32S3_GPIO:
            raise ValueError("invalid pin")
        return HalSim.pin(self, n)

    def strip(self, pin, pixels, order="GRB"):
        if pin not in ESP32S3_GPIO:
            raise ValueError("invalid pin")  # the strip adapter builds machine.Pin(pin)
        return HalSim.strip(self, pin, pixels, order)


class StallingSerial(LoopSerial):
    """LoopSerial with the esp32 port's USB CDC write.

    `reading = False` is a host that keeps the port open but reads nothing: each write call
    then waits `block_ms` on `clock` (the test's ticks_ms clock, moved forward) and takes
    nothing, as the CDC gives up after its TX timeout.  Writes go out `chunk` bytes at a
    time, as main.py's UsbSerial does.  `blocked` counts the writes that waited.
    """

    def __init__(self, clock, block_ms=500, chunk=64):
        LoopSerial.__init__(self)
        self.clock = clock
        self.block_ms = block_ms
        self.chunk = chunk
        self.reading = True
        self.blocked = 0

    def write(self, buf, n):
        if not self.reading:
            self.clock.now += self.block_ms
            self.blocked += 1
            return 0
        return LoopSerial.write(self, buf, n if n < self.chunk else self.chunk)
