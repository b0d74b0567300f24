"""From a table profile and a board's pin map to the firmware config, and the profile's power budget.

    pinmap = load_pinmap("pico")                 # hardware/pins/pico.json (or "esp32s3", or a path)
    profile = profiles.load("btwixt-4p")         # hardware/profiles/btwixt-4p.json (table/profile.py)
    cfg = board_config(profile, pinmap)          # the dict firmware/maester_fw/config.py validates
    power_budget(profile, pinmap)["fits"]        # does the table stay inside its supplies?

A pin map names the SPI bus, one chip-select pin per reader slot (profile readers take the
slots in order), the LED data pin, the pins kept free and why, and the supplies of the build.
Both kinds of file are checked against their JSON schema (hardware/schema/) before anything reads
a field, so a missing or mistyped field is an error naming the file and the field.
The current figures below are planning numbers; hardware/POWER.md gives their sources.
"""

import json
from pathlib import Path

from .. import jsoncheck
from ..paths import HARDWARE
from . import profile as profiles

PINS_DIR = HARDWARE / "pins"
SCHEMA_DIR = HARDWARE / "schema"
KINDS = {"profile": "table profile", "pinmap": "pin map"}  # hardware/schema/<kind>.schema.json
BOARDS = ("pico", "esp32s3")

# mA per reader with its RF field on, which the presence machine keeps on all the time.
# MFRC522: transmitter 60 mA typical, 100 mA max, plus about 10 mA each for the digital and
# analog parts (NXP datasheet, via hardware-anchors section 2.1): 120 mA worst case.
# PN532: "below 100 mA typical with RF on" (hardware-anchors section 2.2); no maximum found.
READER_MA = {"mfrc522": 120, "pn532": 100}
# A WS2812B pixel at full white: 20 mA per channel, 1 mA of its own when dark (LEDS.md).
PIXEL_MA_MAX = 3 * 20 + 1
SHIFTER_MA = 1  # a 74AHCT125 draws microamps; one mA is generous


def load_pinmap(name):
    """A board's pin map: "pico", "esp32s3", or a path to a JSON file. Raises ValueError on a bad map."""
    path = Path(name)
    if path.suffix != ".json":
        path = PINS_DIR / ("%s.json" % name)
    if not path.exists():
        known = sorted(p.stem for p in PINS_DIR.glob("*.json"))
        raise ValueError("no pin map %r (known: %s)" % (str(name), ", ".join(known)))
    return read_checked(path, "pinmap", check_pinmap)


def schema_problems(doc, kind, where=None):
    """What the schema hardware/schema/<kind>.schema.json finds wrong with `doc`, one sentence each."""
    schema = jsoncheck.read_json(SCHEMA_DIR / ("%s.schema.json" % kind))
    return jsoncheck.problems(jsoncheck.validator(schema), doc, where, key="name")


def read_checked(path, kind, check):
    """A hardware JSON file checked against its schema, then by `check` (what a schema cannot say)."""
    return jsoncheck.read_checked(path, SCHEMA_DIR / ("%s.schema.json" % kind), KINDS[kind], check)


def _pinmap(pinmap):
    return load_pinmap(pinmap) if isinstance(pinmap, (str, Path)) else pinmap


def used_pins(pinmap):
    """{pin: what it does} for every pin the build wires; raises ValueError if one is used twice."""
    uses = [(pinmap["spi"][k], "SPI " + k.upper()) for k in ("sck", "mosi", "miso")]
    uses += [(pin, "reader slot %d chip select" % i) for i, pin in enumerate(pinmap["reader_cs"])]
    uses.append((pinmap["leds"]["pin"], "LED data"))
    out = {}
    for pin, what in uses:
        if pin in out:
            raise ValueError("%s: pin %s is both %s and %s" % (pinmap["board"], label(pinmap, pin), out[pin], what))
        out[pin] = what
    return out


def check_pinmap(pinmap):
    """Raise ValueError naming the first problem: a pin used twice, reserved, or not on the board."""
    used = used_pins(pinmap)
    for r in pinmap.get("reserved", ()):
        if r["pin"] in used:
            raise ValueError("%s: pin %s is reserved (%s) but wired as %s"
                             % (pinmap["board"], label(pinmap, r["pin"]), r["why"], used[r["pin"]]))
    gpio = set(pinmap["gpio"])
    for pin, what in used.items():
        if pin not in gpio:
            raise ValueError("%s: %s uses pin %s, which the board does not offer"
                             % (pinmap["board"], what, label(pinmap, pin)))


def label(pinmap, pin):
    """The pin as printed on the board: GP17 on a Pico, GPIO10 on an ESP32-S3."""
    return "%s%d" % (pinmap.get("pin_prefix", "GPIO"), pin)


def reader_types(profile, pinmap):
    """The chip of each reader, in profile order: the reader's own "type", else the pin map's default."""
    return [r.get("type", pinmap.get("reader_type", "mfrc522")) for r in profile["readers"]]


def reader_slots(profile, pinmap):
    """[(reader name, chip-select pin)] in profile order; ValueError if the board has too few slots."""
    pinmap = _pinmap(pinmap)
    readers = profile["readers"]
    cs = pinmap["reader_cs"]
    if len(readers) > len(cs):
        raise ValueError("profile %s has %d readers but the %s pin map has %d chip-select slots"
                         % (profile["name"], len(readers), pinmap["board"], len(cs)))
    return [(r["name"], pin) for r, pin in zip(readers, cs)]


def power_budget(profile, pinmap):
    """The profile's current draw on each supply of the build, in mA, and whether it fits.

    Three supplies: USB powers the board alone; the 5 V adapter powers the strip, the level
    shifter and the 3.3 V regulator; the regulator powers the readers. The regulator's input
    current is counted equal to its output (true for a linear one, pessimistic for a buck).
    Each supply is loaded to at most `derate` (80 %) of its rating. The LEDs get what the
    adapter has left, never more than the strip can draw; that is the `budget_ma` the firmware
    scales every frame to (LEDS.md).
    """
    pinmap = _pinmap(pinmap)
    power = pinmap["power"]
    derate = power.get("derate", 0.8)
    readers_ma = sum(READER_MA[t] for t in reader_types(profile, pinmap))
    pixels = profile["pixels"]
    leds_max = pixels * PIXEL_MA_MAX
    usable_5v = int(power["supply_ma"] * derate)
    room = usable_5v - readers_ma - SHIFTER_MA
    leds_cap = min(leds_max, room)
    out = {
        "profile": profile["name"], "board": pinmap["board"],
        "readers": len(profile["readers"]), "readers_ma": readers_ma,
        "pixels": pixels, "leds_max_ma": leds_max, "leds_cap_ma": leds_cap, "shifter_ma": SHIFTER_MA,
        "usb_ma": power["mcu_ma"], "usb_usable_ma": int(power["usb_ma"] * derate),
        "supply_5v_ma": leds_cap + readers_ma + SHIFTER_MA, "supply_5v_usable_ma": usable_5v,
        "rail_3v3_ma": readers_ma, "rail_3v3_usable_ma": int(power["rail_3v3_ma"] * derate),
    }
    out["fits"] = (leds_cap > pixels  # the firmware needs budget_ma > pixels (1 mA each when dark)
                   and out["usb_ma"] <= out["usb_usable_ma"]
                   and out["supply_5v_ma"] <= usable_5v
                   and readers_ma <= out["rail_3v3_usable_ma"])
    return out


# Poll the readers back to back: a reader is asked again as soon as the others have been, at most
# every 5 ms (the firmware's own default, 50 ms, is for a bare board). Tap-to-light latency rests
# on it: 10 ms gave a p99 of 25 ms in `maester bench hil`, 5 ms 22 ms. A card lying on a reader is
# fully re-selected every 4th poll (a WUPA and a HLTA in between): a swap is seen at most 3 polls
# later, and a table with a card on every reader polls 2.5 times as fast.
TABLE_POLL = {"interval_ms": 5, "reselect_every": 4}


def board_config(profile, pinmap, poll=None, watchdog_ms=None):
    """The firmware config (firmware/maester_fw/config.py) for a profile wired to a board's pin map.

    Readers take the chip-select slots in profile order, so reader i of the profile is reader i
    on the wire. `poll` and `watchdog_ms` override the firmware's defaults (the simulated board
    polls faster and runs without a watchdog).
    """
    pinmap = _pinmap(pinmap)
    budget = power_budget(profile, pinmap)
    if not budget["fits"]:
        raise ValueError("profile %s does not fit the %s build's supplies: %s" % (profile["name"], pinmap["board"], budget))
    types = reader_types(profile, pinmap)
    if profile["pixels"] > pinmap["leds"].get("max_pixels", 1024):
        raise ValueError("profile %s has %d pixels; the %s build drives at most %d"
                         % (profile["name"], profile["pixels"], pinmap["board"], pinmap["leds"]["max_pixels"]))
    cfg = {
        "board": profile["name"],
        "spi": dict(pinmap["spi"]),
        "readers": [{"type": t, "cs": pin, "name": name}
                    for t, (name, pin) in zip(types, reader_slots(profile, pinmap))],
        "leds": {"pin": pinmap["leds"]["pin"], "pixels": profile["pixels"], "budget_ma": budget["leds_cap_ma"]},
        "segments": {s["name"]: [s["start"], s["length"], bool(s.get("reversed")), s.get("mode", "fill")]
                     for s in profile["segments"]},
    }
    cfg["poll"] = dict(poll or TABLE_POLL)
    if watchdog_ms is not None:
        cfg["watchdog_ms"] = watchdog_ms
    return cfg


def config_bytes(profile, board="pico"):
    """The board config file for a table profile, byte for byte as `firmware flash` writes it.

    Sorted keys make the bytes (and so HELLO's config length and CRC) depend only on the
    profile, which lets `doctor` tell whether a board still has the config it was flashed with.
    """
    config = board_config(profile, load_pinmap(board))
    return json.dumps(config, sort_keys=True, separators=(",", ":")).encode()


def sim_config(profile, pinmap="pico"):
    """The config for a simulated board: real pins, fast polling, no watchdog."""
    return board_config(profile, pinmap, poll={"interval_ms": 10}, watchdog_ms=0)


def budget_table(profile_names, pinmap):
    """POWER.md's per-profile table (markdown rows) for one build."""
    pinmap = _pinmap(pinmap)
    rows = ["| profile | readers | 3.3 V rail (mA) | LEDs: strip max / cap (mA) | 5 V adapter (mA of usable) | USB (mA) | fits |",
            "|---|---|---|---|---|---|---|"]
    for name in profile_names:
        b = power_budget(profiles.load(name), pinmap)
        rows.append("| %s | %d | %d | %d / %d | %d of %d | %d | %s |"
                    % (name, b["readers"], b["rail_3v3_ma"], b["leds_max_ma"], b["leds_cap_ma"], b["supply_5v_ma"],
                       b["supply_5v_usable_ma"], b["usb_ma"], "yes" if b["fits"] else "NO"))
    return rows


if __name__ == "__main__":  # python -m maester.table.hwconfig [board]: the table POWER.md shows
    import sys

    names = sorted(p.stem for p in profiles.PROFILE_DIR.glob("*.json"))
    print("\n".join(budget_table(names, sys.argv[1] if len(sys.argv) > 1 else "pico")))
