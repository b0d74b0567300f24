"""The simulated board as the esp32 port (ESP32-S3) behaves where it differs from the Pico.

    Esp32HalSim    HalSim whose spi() and pin() refuse what machine.SPI and machine.Pin
                   refuse on the esp32 port, and whose `platform` is "esp32" (sys.platform
                   there), so maester_fw picks the ESP32-S3 default config.

What the port does (MicroPython ports/esp32, shared/tinyusb):
  * machine.SPI(id) accepts only the general-purpose hosts, ids 1 and 2 (SPI2 and SPI3);
    anything else raises ValueError("SPI(0) doesn't exist").  SPI0/SPI1 belong to the flash.
  * machine.Pin(n) raises ValueError("invalid pin") for a GPIO the chip lacks: the ESP32-S3
    has GPIO0-21 and GPIO26-48.
"""

from hal_sim import HalSim

ESP32S3_GPIO = tuple(range(0, 22)) + tuple(range(26, 49))
SPI_IDS = (1, 2)


class Esp32HalSim(HalSim):
    platform = "esp32"

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

