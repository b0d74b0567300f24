"""A USB (or serial) NFC reader at the desk, driven by nfcpy: taps as the board gives them, no board built.

A device path is nfcpy's own: `usb` (the first reader found), `usb:072f:2200` (vendor:product),
`usb:001:023` (bus:device), `tty:USB0:pn532` (a PN532 on /dev/ttyUSB0), `com:3:pn532` (Windows), and
`udp:HOST:PORT`, nfcpy's simulated reader that the tests use (a second process emulates the tag).

DeskReader reports a `placed` tap when a tag arrives and a `removed` one when it has missed
MISS_LIMIT presence checks in a row, like the board firmware's presence (miss_limit 3): the same tag
held on the reader is one tap, however long; lift it and tap again for the next. (On nfcpy's
simulated `udp` reader a tag must also have been unseen for GONE_AFTER_UDP.) A placed tap also
carries the tag's NDEF message (`ndef`), so a sticker written by `maester tags write` is known by its
own record (nfc/record.py), and the nfcpy tag object (`tag`), so a desk command can write to it while
it lies there.
"""

import errno
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Optional

from ..paths import missing

PREFIXES = ("usb", "tty", "com", "udp")
MISS_LIMIT = 3
CHECK_EVERY = 0.1  # seconds between presence checks of a resting tag
# nfcpy's udp driver has no radio timing: a tag emulated by a process that the machine is slow to
# run answers late, and a late answer is a miss. A tag is gone there only after a second unseen.
GONE_AFTER_UDP = 1.0


def is_device_path(value):
    """True for an nfcpy device path (`usb`, `usb:...`, `tty:...`, `com:...`, `udp:...`); a board
    reader's name (seat0, deck, mission1) is never one."""
    return bool(value) and value.split(":", 1)[0].lower() in PREFIXES


@dataclass(frozen=True)
class DeskTap:
    """A tag placed on or lifted from the desk reader; the same fields as the board link's Tap."""

    kind: str  # "placed" or "removed"
    uid: bytes
    ndef: Optional[bytes] = None  # the tag's NDEF message; None when it has no NDEF area or the read failed
    reader: int = 0  # one reader
    boot_id: int = 0
    time_ms: Optional[int] = None
    from_snapshot: bool = False
    tag: Any = field(default=None, compare=False, repr=False)

    @property
    def uid_hex(self):
        return self.uid.hex()


def require_nfcpy():
    try:  # the `nfc` extra, needed only for a reader at the desk
        import nfc
    except ImportError:
        raise ValueError(missing("nfcpy, which drives a reader at your desk,", "nfc")) from None
    return nfc


class _Said(logging.Handler):
    """Keeps what nfcpy logs while it looks for the reader: the reason it gives is in its log."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        text = record.getMessage()
        if record.levelno >= logging.INFO or any(w in text for w in ("denied", "busy", "rror")):
            if text not in self.lines and not text.startswith("searching for reader"):
                self.lines.append(text)


def _hint(path):
    kind = path.split(":", 1)[0].lower()
    if kind == "usb":
        return ("Is the reader plugged in? On Linux a user may not open a USB device until a udev rule allows "
                "it: `python -m nfc` shows what nfcpy sees and prints the rule to add (then unplug the reader "
                "and plug it in again). ACR122U and SCL3711 readers are also claimed by the kernel's pn533_usb "
                "module, and the RC-S380 by port100: `python -m nfc` says how to blacklist them.")
    if kind in ("tty", "com"):
        return ("Check the port and the driver: tty:USB0:pn532 opens /dev/ttyUSB0 with the PN532 driver "
                "(`python -m nfc --search-tty` lists what answers). On Linux your user needs to be in the "
                "dialout group to open a serial port.")
    return "udp:HOST:PORT is nfcpy's simulated reader; something must emulate a tag on that port."


def open_frontend(path):
    """nfc.ContactlessFrontend on `path`, or a ValueError saying what nfcpy said and what to check."""
    nfc = require_nfcpy()
    log = logging.getLogger("nfc")
    said = _Said()
    log.addHandler(said)
    try:
        return nfc.ContactlessFrontend(path)
    except (OSError, ValueError) as e:  # pyserial's SerialException is an OSError
        why = "no reader found" if getattr(e, "errno", None) == errno.ENODEV else str(e)
        words = "; ".join(said.lines) or why
        raise ValueError("no NFC reader at %s (nfcpy: %s). %s" % (path, words, _hint(path))) from None
    finally:
        log.removeHandler(said)


def _quiet_nfcpy():
    """nfcpy logs a tag lost mid-read as an error; the reader reports what matters itself."""
    log = logging.getLogger("nfc")
    if not any(isinstance(h, logging.NullHandler) for h in log.handlers):
        log.addHandler(logging.NullHandler())


def read_ndef(tag, tries=3):
    """The tag's NDEF message as bytes; b"" for an empty one; None when it has none or every read failed.

    nfcpy answers a read that timed out (a tag sliding onto the antenna, a busy machine) the same way
    as a tag without NDEF: `tag.ndef` is None. It reads again on the next ask, so ask a few times.
    """
    for _ in range(tries):
        try:
            found = tag.ndef
        except Exception:  # nfcpy raises its own errors (and the odd IndexError) for a tag lifted mid-read
            found = None
        if found is not None:
            return bytes(found.octets)
    return None


class DeskReader:
    """Taps from one nfcpy reader, on a thread of its own, to `on_tap(DeskTap)`.

    `on_tap` runs on the reader's thread while the tag lies on the reader (a placed tap), so it may
    write to `tap.tag`. `on_error(message)` is told when the reader stops answering (unplugged).
    """

    def __init__(self, path, on_tap, on_error=None, miss_limit=MISS_LIMIT, check_every=CHECK_EVERY):
        self.path = path
        self.on_tap = on_tap
        self.on_error = on_error
        self.miss_limit = miss_limit
        self.check_every = check_every
        # nfcpy emulates only Type 3 (FeliCa) tags, and its udp driver waits a full second for an
        # answer to each kind of tag it looks for: on udp, look only for the kind that can answer.
        simulated = path.lower().startswith("udp")
        self.targets = ["212F"] if simulated else ["106A", "106B", "212F"]
        self.gone_after = GONE_AFTER_UDP if simulated else 0.0
        self.stop = threading.Event()
        self.clf = None
        self.thread = None

    def start(self):
        """Open the reader (ValueError when it is not there), then listen on a thread."""
        _quiet_nfcpy()
        self.clf = open_frontend(self.path)
        self.thread = threading.Thread(target=self._run, name="desk-reader", daemon=True)
        self.thread.start()
        return self

    def close(self):
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=5)
        if self.clf is not None:
            self.clf.close()
            self.clf = None

    def _run(self):
        try:
            while not self.stop.is_set():
                tag = self._wait_for_tag()
                if tag is None:
                    continue
                uid = bytes(tag.identifier)
                self.on_tap(DeskTap("placed", uid, read_ndef(tag), tag=tag))
                self._wait_until_lifted(tag)
                self.on_tap(DeskTap("removed", uid))
        except (_Lost, OSError) as e:  # nfcpy raises OSError (no such device...) for a reader gone or never there
            if self.on_error is not None and not self.stop.is_set():
                self.on_error("the reader at %s stopped answering: %s" % (self.path, getattr(e, "strerror", None) or e))

    def _wait_for_tag(self):
        options = {"targets": self.targets, "on-connect": lambda tag: False,  # keep the tag; we watch it
                   "iterations": 1, "interval": 0.1, "beep-on-connect": False}
        found = self.clf.connect(rdwr=options, terminate=self.stop.is_set)
        if found is False and not self.stop.is_set():  # nfcpy's answer to an I/O error: the reader is gone
            raise _Lost("it was unplugged, or another program took it")
        return found or None

    def _wait_until_lifted(self, tag):
        misses, seen = 0, time.monotonic()
        while not self.stop.is_set():
            time.sleep(self.check_every)
            try:
                present = tag.is_present
            except Exception:  # a tag going out of the field fails in many ways; each is a miss
                present = False
            if present:
                misses, seen = 0, time.monotonic()
                continue
            misses += 1
            if misses >= self.miss_limit and time.monotonic() - seen >= self.gone_after:
                return


class _Lost(Exception):
    pass
