"""The board config: one JSON file on the board's flash, checked before it is used.

    {
      "board": "pico-4-seats",
      "spi": {"id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000},
      "readers": [{"type": "mfrc522", "cs": 17, "name": "seat0"},
                  {"type": "pn532", "cs": 20, "name": "centre"}],
      "leds": {"pin": 22, "pixels": 30, "budget_ma": 300},
      "segments": {"round": [0, 7], "season": [7, 3, false, "dot"], "seat0": [10, 6, true]},
      "poll": {"interval_ms": 50, "miss_limit": 3, "confirm": 1, "reselect_every": 4},
      "watchdog_ms": 5000
    }

Every key except "readers" may be left out and takes the default below.  Unknown keys are
refused, so a typo is reported rather than silently ignored.

Segments map a name to [start, length, reversed?, mode?] (mode: fill, count, dot, dim; see
LEDS.md).  A segment's wire id (the u8 of SEGMENT_SET) is its rank by start pixel: the one
that starts lowest is 0.  JSON objects have no order a MicroPython dict keeps, so the id
cannot come from the order in the file.

`parse(raw)` returns a normalised dict or raises ConfigError whose message names the field
("readers[1].type: must be mfrc522 or pn532, got 'rc522'").  `load(path, platform)` falls
back to default(platform) when there is no file.  `save(path, raw)` replaces the file atomically.
"""

import json

PATH = "maester.json"
MAX_BYTES = 4096  # largest config accepted over CONFIG_WRITE
MAX_READERS = 16  # protocol 1: a SNAPSHOT holds at most 16 readers
READER_TYPES = ("mfrc522", "pn532")
SPI_MAX_HZ = {"mfrc522": 10000000, "pn532": 5000000}  # the datasheets' SPI clock limits
MODES = ("fill", "count", "dot", "dim")

# A bare board runs on the default of its MicroPython port (sys.platform), see default().
# rp2, a Pico: the reference wiring (SPI0, one MFRC522 on GP17, a short strip on GP22).
DEFAULT_TEXT = """{
 "board": "maester",
 "spi": {"id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000},
 "readers": [{"type": "mfrc522", "cs": 17, "name": "reader0"}],
 "leds": {"pin": 22, "pixels": 8, "budget_ma": 300},
 "segments": {"status": [0, 8]}
}"""

# esp32, an ESP32-S3 wired as hardware/pins/esp32s3.json (SPI id 1 on GPIO12/11/13, the
# first reader on GPIO10, the strip on GPIO14).  The Pico's wiring cannot even be built
# there: the esp32 port has no SPI(0) and the S3 no GPIO22.
ESP32_TEXT = """{
 "board": "maester",
 "spi": {"id": 1, "sck": 12, "mosi": 11, "miso": 13, "baudrate": 2000000},
 "readers": [{"type": "mfrc522", "cs": 10, "name": "reader0"}],
 "leds": {"pin": 14, "pixels": 8, "budget_ma": 300},
 "segments": {"status": [0, 8]}
}"""

_SPI = {"id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000}
_LEDS = {"pin": 22, "pixels": 8, "budget_ma": 300, "order": "GRB", "max_hz": 50}
# reselect_every 4: a resting card is fully re-selected every 4th poll of its reader, checked cheaply
# between (presence.py; a swap or a second card is still seen at the next poll, issue 29)
_POLL = {"interval_ms": 50, "miss_limit": 3, "confirm": 1, "reselect_every": 4, "bad_limit": 30}
_TOP = ("board", "spi", "readers", "leds", "segments", "poll", "watchdog_ms")


class ConfigError(ValueError):
    """The config file is not valid; the message names the offending field."""


def _error(where, text):
    # Returned, not raised here, so each caller says `raise`: then readers (and the type-checker)
    # see that the line ends the function.
    return ConfigError(where + ": " + text)


def _int(v, where, lo, hi):
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _error(where, "must be an integer %d..%d, got %r" % (lo, hi, v))
    return v


def _str(v, where, limit=32):
    if not isinstance(v, str) or not v or len(v.encode()) > limit:
        raise _error(where, "must be a non-empty string of at most %d bytes, got %r" % (limit, v))
    return v


def _section(obj, key, defaults, where):
    """A dict section: defaults filled in, unknown keys refused."""
    got = obj.get(key, {})
    if not isinstance(got, dict):
        raise _error(where, "must be an object, got %r" % (got,))
    out = {}
    for k in defaults:
        out[k] = got.get(k, defaults[k])
    for k in got:
        if k not in defaults:
            raise _error(where, "unknown key %r (known: %s)" % (k, ", ".join(sorted(defaults))))
    return out


def validate(obj):
    """Check a decoded config and return it normalised (every default filled in)."""
    if not isinstance(obj, dict):
        raise ConfigError("config: must be a JSON object")
    for k in obj:
        if k not in _TOP:
            raise _error("config", "unknown key %r (known: %s)" % (k, ", ".join(_TOP)))
    # Sections of different shapes: start empty so no one section's type stands for them all.
    cfg = {}
    cfg["board"] = _str(obj.get("board", "maester"), "board")

    spi = _section(obj, "spi", _SPI, "spi")
    _int(spi["id"], "spi.id", 0, 3)
    for k in ("sck", "mosi", "miso"):
        _int(spi[k], "spi." + k, 0, 63)
    _int(spi["baudrate"], "spi.baudrate", 100000, 20000000)
    cfg["spi"] = spi

    readers = obj.get("readers")
    if not isinstance(readers, list):
        raise _error("readers", "must be a list of {type, cs, name}, got %r" % (readers,))
    if len(readers) > MAX_READERS:
        raise _error("readers", "at most %d readers, got %d" % (MAX_READERS, len(readers)))
    out = []
    pins = {}
    names = {}
    for i, r in enumerate(readers):
        where = "readers[%d]" % i
        if not isinstance(r, dict):
            raise _error(where, "must be an object, got %r" % (r,))
        for k in r:
            if k not in ("type", "cs", "name"):
                raise _error(where, "unknown key %r (known: cs, name, type)" % (k,))
        kind = r.get("type")
        if kind not in READER_TYPES:
            raise _error(where + ".type", "must be mfrc522 or pn532, got %r" % (kind,))
        cs = _int(r.get("cs"), where + ".cs", 0, 63)
        if cs in (spi["sck"], spi["mosi"], spi["miso"]):
            raise _error(where + ".cs", "pin %d is already an SPI pin" % cs)
        if cs in pins:
            raise _error(where + ".cs", "pin %d is also the chip select of readers[%d]" % (cs, pins[cs]))
        pins[cs] = i
        name = _str(r.get("name", "reader%d" % i), where + ".name")
        if name in names:
            raise _error(where + ".name", "%r is also the name of readers[%d]" % (name, names[name]))
        names[name] = i
        out.append({"type": kind, "cs": cs, "name": name})
        cap = SPI_MAX_HZ[kind]
        if spi["baudrate"] > cap:  # the bus runs at one clock for every reader on it
            raise _error("spi.baudrate", "at most %d with a %s reader (readers[%d]), got %d"
                  % (cap, kind, i, spi["baudrate"]))
    cfg["readers"] = out

    leds = _section(obj, "leds", _LEDS, "leds")
    _int(leds["pin"], "leds.pin", 0, 63)
    if leds["pin"] in pins:
        raise _error("leds.pin", "pin %d is the chip select of readers[%d]" % (leds["pin"], pins[leds["pin"]]))
    n = _int(leds["pixels"], "leds.pixels", 1, 1024)
    _int(leds["budget_ma"], "leds.budget_ma", n + 1, 100000)
    _int(leds["max_hz"], "leds.max_hz", 1, 200)
    if leds["order"] not in ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR"):
        raise _error("leds.order", "must be a permutation of RGB, got %r" % (leds["order"],))
    cfg["leds"] = leds

    segs = obj.get("segments", {"status": [0, n]})
    if not isinstance(segs, dict):
        raise _error("segments", "must be an object {name: [start, length, reversed, mode]}")
    cfg["segments"] = _segments(segs, n)

    poll = _section(obj, "poll", _POLL, "poll")
    _int(poll["interval_ms"], "poll.interval_ms", 5, 1000)
    _int(poll["miss_limit"], "poll.miss_limit", 1, 50)
    _int(poll["confirm"], "poll.confirm", 1, 10)
    _int(poll["reselect_every"], "poll.reselect_every", 1, 100)
    _int(poll["bad_limit"], "poll.bad_limit", 2, 1000)
    cfg["poll"] = poll

    # rp2 allows at most 8388 ms; 0 = no watchdog (bench work)
    cfg["watchdog_ms"] = _int(obj.get("watchdog_ms", 5000), "watchdog_ms", 0, 8000)
    return cfg


def _segments(segs, pixels):
    rows = []
    for name in segs:
        where = "segments." + str(name)
        _str(name, where)
        spec = segs[name]
        if not isinstance(spec, list) or not 2 <= len(spec) <= 4:
            raise _error(where, "must be [start, length] or [start, length, reversed, mode], got %r" % (spec,))
        start = _int(spec[0], where + " start", 0, pixels - 1)
        length = _int(spec[1], where + " length", 1, pixels)
        if start + length > pixels:
            raise _error(where, "pixels %d..%d do not fit a strip of %d" % (start, start + length - 1, pixels))
        rev = spec[2] if len(spec) > 2 else False
        if not isinstance(rev, bool):
            raise _error(where + " reversed", "must be true or false, got %r" % (rev,))
        mode = spec[3] if len(spec) > 3 else "fill"
        if mode not in MODES:
            raise _error(where + " mode", "must be one of %s, got %r" % (", ".join(MODES), mode))
        rows.append((start, name, length, rev, mode))
    if len(rows) > 255:
        raise _error("segments", "at most 255 segments")
    rows.sort()
    out = []
    end = 0
    last = None
    for start, name, length, rev, mode in rows:
        if last is not None and start < end:
            raise _error("segments." + name, "overlaps segment %r" % (last,))
        end = start + length
        last = name
        out.append((name, start, length, rev, mode))
    return out  # in wire-id order


def parse(raw):
    """bytes or str of JSON -> normalised config; raises ConfigError."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8")
        except ValueError:
            raise ConfigError("config: not UTF-8 text")
    try:
        obj = json.loads(raw)
    except ValueError as e:
        raise ConfigError("config: not valid JSON (%s)" % (e,))
    return validate(obj)


DEFAULT = parse(DEFAULT_TEXT)


def default(platform):
    """The built-in config of a port: "esp32" (an ESP32-S3) or anything else (a Pico)."""
    if platform == "esp32":
        return parse(ESP32_TEXT)
    return DEFAULT


def load(path=PATH, platform="rp2"):
    """(config, raw bytes) from the file at `path`; (default(platform), None) if there is none.

    Raises ConfigError if the file exists but is not a valid config.
    """
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        return default(platform), None
    return parse(raw), raw


def save(path, raw):
    """Write `raw` to `path` so that a power cut leaves the old file or the new one whole."""
    import os

    tmp = path + ".new"
    with open(tmp, "wb") as f:
        f.write(raw)
    try:
        os.rename(tmp, path)  # replaces the old file on littlefs and POSIX
    except OSError:
        os.remove(path)  # FAT refuses to rename over an existing file
        os.rename(tmp, path)
