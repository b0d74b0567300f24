"""A table driven straight from a Raspberry Pi: nfcpy readers and a WS2812 strip on a GPIO, no board.

    board = connect_pi(profile, report)          # ValueError (exit 2): a library missing, a reader silent
    table = BoardTable(board, session, tags)     # the same runner as a board's: taps are moves, LEDs follow
    ...
    table.close()

`PiBoard` stands where table.board.Board stands and `PiLink` where the serial BoardLink does, so the
table runner cannot tell a Pi from a board:

* taps in: one nfcpy reader per profile reader (nfcreader.DeskReader: a tag held there is one tap,
  gone after the board firmware's 3 missed presence checks), reported with the profile's reader index;
* segments out: `set_segment(id, level, rgb, pattern, period)` goes to the firmware's own renderer,
  maester_fw.leds.Segments (imported, not copied), whose frames a thread writes to an Adafruit
  neopixel.NeoPixel (auto_write off, one `show()` a frame). Blinks and pulses are ticked by that thread.

Where the readers and the strip are is the table's Pi config (see `pi_config`):

    {"readers": {"seat0": "tty:AMA0:pn532", "deck": "usb:072f:2200"},
     "leds": {"pin": "D18", "order": "GRB", "budget_ma": 2000}}

read from the profile's "pi" section, else from $MAESTER_HOME/pi.json. hardware/PI.md wires it.
"""

import json
import threading
import time

from maester_fw.leds import Segments

from ..cards.db import maester_home
from ..nfc import reader as nfcreader
from ..paths import missing
from .runner import segment_ids

CONFIG_FILE = "pi.json"
LED_DEFAULTS = {"pin": "D18", "order": "GRB", "budget_ma": 2000, "max_hz": 50}
ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")
IDLE_WAIT = 0.5  # seconds the LED thread sleeps when nothing animates (a set wakes it at once)
ANIM_WAIT = 0.01  # between frames of a blink or pulse; Segments' own rate limit does the rest


def config_path():
    return maester_home() / CONFIG_FILE


def uses_pi(profile):
    """True when the table profile itself says its readers and strip hang off a Pi."""
    return "pi" in profile


def pi_config(profile, path=None):
    """The Pi config for `profile`: its "pi" section, else the file `path` ($MAESTER_HOME/pi.json).

    Checked here (ValueError naming what is wrong): every reader named is a reader of the profile
    and has an nfcpy device path; the strip's pin, colour order and power budget make sense.
    """
    if uses_pi(profile):
        cfg, where = profile["pi"], "the \"pi\" section of table profile %s" % profile["name"]
    else:
        path = path or config_path()
        if not path.exists():
            raise ValueError("no Pi config: %s does not exist and table profile %s has no \"pi\" section. Write "
                             "which reader is which and the strip's pin there (hardware/PI.md, \"The Pi config\")"
                             % (path, profile["name"]))
        try:
            cfg = json.loads(path.read_text())
        except ValueError as e:
            raise ValueError("the Pi config %s is not JSON: %s" % (path, e)) from None
        where = "the Pi config %s" % path
    try:
        return _checked(cfg, profile)
    except ValueError as e:
        raise ValueError("%s: %s" % (where, e)) from None


def _checked(cfg, profile):
    if not isinstance(cfg, dict) or set(cfg) - {"readers", "leds"}:
        raise ValueError('expected {"readers": {...}, "leds": {...}}')
    names = [r["name"] for r in profile["readers"]]
    readers = cfg.get("readers") or {}
    if not isinstance(readers, dict) or not readers:
        raise ValueError("no readers: give each reader of the profile (%s) its nfcpy path, e.g. "
                         "\"%s\": \"tty:AMA0:pn532\"" % (", ".join(names), names[0]))
    for name, path in readers.items():
        if name not in names:
            raise ValueError("reader %r is not one of the profile's (%s)" % (name, ", ".join(names)))
        if not isinstance(path, str) or not nfcreader.is_device_path(path):
            raise ValueError("reader %s: %r is not an nfcpy device path (usb, usb:VID:PID, tty:AMA0:pn532, "
                             "tty:USB0:pn532)" % (name, path))
    if len(set(readers.values())) != len(readers):
        raise ValueError("two readers share one device path")
    leds = dict(LED_DEFAULTS, **(cfg.get("leds") or {}))
    if set(leds) - set(LED_DEFAULTS) - {"pixels"}:
        raise ValueError("leds: unknown key %s (known: pin, pixels, order, budget_ma, max_hz)"
                         % sorted(set(leds) - set(LED_DEFAULTS) - {"pixels"})[0])
    leds.setdefault("pixels", profile["pixels"])
    if not isinstance(leds["pixels"], int) or leds["pixels"] < profile["pixels"]:
        raise ValueError("leds: the strip has %r pixels; the profile's segments need %d"
                         % (leds["pixels"], profile["pixels"]))
    if leds["order"] not in ORDERS:
        raise ValueError("leds: order %r is not one of %s" % (leds["order"], ", ".join(ORDERS)))
    for key, low, high in (("budget_ma", 100, 100000), ("max_hz", 1, 1000)):
        if not isinstance(leds[key], int) or not low <= leds[key] <= high:
            raise ValueError("leds: %s %r should be a whole number from %d to %d" % (key, leds[key], low, high))
    if not isinstance(leds["pin"], str):
        raise ValueError("leds: pin %r should be a name of Blinka's board module, e.g. \"D18\"" % (leds["pin"],))
    return {"readers": dict(readers), "leds": leds}


def require_nfcpy():
    try:  # the `pi` extra, needed only on a Raspberry Pi
        import nfc  # noqa: F401  (only whether the `pi` extra is there)
    except ImportError:
        raise ValueError(missing("nfcpy, which reads the cards of a table on a Raspberry Pi,", "pi")) from None


# ---------------------------------------------------------------- the strip

def open_strip(leds):
    """An Adafruit neopixel.NeoPixel on the pin named in the config (auto_write off: one show a frame).

    ValueError when the libraries are missing (which extra) or Blinka does not know this machine.
    """
    try:  # the `pi` extra, as above
        import board
        import neopixel
    except ImportError as e:
        raise ValueError(missing("Adafruit's neopixel library, which drives the LEDs of a table on a Raspberry Pi "
                                 "(%s)," % e, "pi")) from None
    except NotImplementedError as e:  # Blinka's answer on a machine it does not know
        raise ValueError("Adafruit Blinka cannot drive LEDs on this machine (%s): a table with --table pi runs "
                         "on a Raspberry Pi (hardware/PI.md)" % e) from None
    pin = getattr(board, leds["pin"], None)
    if pin is None:
        raise ValueError("the Pi config names LED pin %r, which this board does not have (GPIO18 is \"D18\")"
                         % leds["pin"])
    # The renderer writes bytes in RGB order; the NeoPixel object puts them in the strip's own order.
    pixels = neopixel.NeoPixel(pin, leds["pixels"], auto_write=False, pixel_order=leds["order"])
    try:  # a dark frame now, so a driver that cannot run (rpi_ws281x without root) is said before the game
        pixels.show()
    except Exception as e:
        raise ValueError("the LED strip on %s cannot be driven: %s. On a Pi 1-4 its driver needs root: "
                         "sudo MAESTER_HOME=$HOME/.maester .venv/bin/maester play ... (hardware/PI.md, "
                         "\"Permissions\")" % (leds["pin"], e)) from None
    return pixels


class NeoPixelFrames:
    """The strip adapter Segments writes to (`write(buf)`): one frame of RGB bytes into the NeoPixel, then show."""

    def __init__(self, pixels):
        self.pixels = pixels

    def write(self, buf):
        n = len(buf) // 3
        self.pixels[0:n] = [(buf[3 * i], buf[3 * i + 1], buf[3 * i + 2]) for i in range(n)]
        self.pixels.show()

    def close(self):
        self.pixels.deinit()  # Adafruit's: every pixel dark, shown, and the pin let go


def _monotonic_ms():
    return int(time.monotonic() * 1000)


class PiLink:
    """The board link's LED half on a Pi: segment states in, frames rendered by maester_fw.leds out.

    `clock` gives milliseconds (tests give a clock of their own so blinks have a known phase).
    """

    def __init__(self, profile, leds, pixels, report=print, clock=_monotonic_ms):
        # The firmware numbers segments by their first pixel (runner.segment_ids); so does this table.
        ids = segment_ids(profile)
        specs = sorted(profile["segments"], key=lambda s: ids[s["name"]])
        self.strip = NeoPixelFrames(pixels)
        # Rendered in RGB: NeoPixel reorders to the strip's order (GRB on a WS2812) as it stores a pixel.
        self.leds = Segments([{k: s[k] for k in ("name", "start", "length", "reversed", "mode") if k in s}
                              for s in specs], leds["pixels"], self.strip, leds["budget_ma"],
                             max_hz=leds["max_hz"], order="RGB")
        self.report = report
        self.clock = clock
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="pi-leds", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def set_segment(self, segment, level=255, rgb=(255, 255, 255), pattern=1, period_ms=0):
        try:
            with self.lock:
                self.leds.set(segment, level, rgb[0], rgb[1], rgb[2], pattern, period_ms)
        except ValueError as e:  # what the firmware would answer with ERROR(BAD_PAYLOAD)
            self.report("the LEDs refused segment %r: %s" % (segment, e))
        self.wake.set()

    def clear_segments(self):
        with self.lock:
            self.leds.clear()
        self.wake.set()

    def _run(self):
        while not self.stop.is_set():
            try:
                with self.lock:
                    self.leds.tick(self.clock())
                    animating = self.leds.animating or self.leds._dirty  # a change held back by the rate limit
            except Exception as e:  # the strip driver failed (rpi_ws281x without root, a pin taken): say it once
                self.report("the LED strip stopped: %s (hardware/PI.md, \"Permissions\")" % e)
                return
            self.wake.wait(ANIM_WAIT if animating else IDLE_WAIT)
            self.wake.clear()

    def close(self):
        self.stop.set()
        self.wake.set()
        if self.thread.is_alive():
            self.thread.join(timeout=2)
        try:
            self.strip.close()  # the game is over here: leave no tracker lit
        except Exception as e:  # a strip that lost its power or pin says so, the game is closed anyway
            self.report("could not darken the strip: %s" % e)


# ---------------------------------------------------------------- the table

class PiBoard:
    """What table.board.Board is for a board: the link, the profile, taps to `on_tap`, `close`."""

    def __init__(self, profile, config, report=print, clock=_monotonic_ms):
        self.profile = profile
        self.config = config
        self.report = report
        self.port = "this Raspberry Pi"  # where `maester play` says the table is
        self.on_tap = None  # set by BoardTable; until then taps (cards lying there before the game) are not moves
        self.tags, self.foreign = {}, {}
        self.readers = []
        self.tap_lock = threading.Lock()  # the board link gives taps one at a time; so do the Pi's readers
        pixels = open_strip(config["leds"])
        try:
            self.link = PiLink(profile, config["leds"], pixels, report, clock)
        except BaseException:
            pixels.deinit()  # the pin is let go, so a second try can take it
            raise

    def start_readers(self):
        """Open every configured reader (ValueError naming the reader that does not answer)."""
        require_nfcpy()
        index = {r["name"]: i for i, r in enumerate(self.profile["readers"])}
        for name, path in self.config["readers"].items():
            reader = nfcreader.DeskReader(path, self._tap_from(index[name]), on_error=self.report)
            try:
                reader.start()
            except ValueError as e:
                raise ValueError("reader %s of the Pi config: %s" % (name, e)) from None
            self.readers.append(reader)
        missing = [n for n in index if n not in self.config["readers"]]
        if missing:
            self.report("no reader configured for %s: what is tapped there is chosen on the seat pages"
                        % ", ".join(missing))

    def _tap_from(self, reader):
        def on_desk_tap(tap):
            tap = nfcreader.DeskTap(tap.kind, tap.uid, tap.ndef, reader=reader, time_ms=_monotonic_ms())
            with self.tap_lock:
                if self.on_tap is not None:
                    self.on_tap(tap)
        return on_desk_tap

    def close(self):
        for reader in self.readers:
            reader.close()
        self.readers = []
        self.link.close()


def connect_pi(profile, report=print, path=None, clock=_monotonic_ms):
    """The Pi's readers and strip for `profile`, open and running; ValueError (exit 2) says what is wrong."""
    config = pi_config(profile, path)
    require_nfcpy()  # before the strip, so a machine short of both hears of the extra at once
    board = PiBoard(profile, config, report, clock)
    board.link.start()
    try:
        board.start_readers()
    except BaseException:
        board.close()
        raise
    return board
