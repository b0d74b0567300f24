"""A clock as the command line gives it (`--clock 25m`, `--clock 20m+10s`) and as people read it:
light, so that `--help` and argument parsing import nothing more (issue 16, start-up). The clocks
themselves: table/clocks.py."""

import argparse
import re

UNITS = {"h": 3600000, "m": 60000, "s": 1000}
_PART = r"(\d+(?:\.\d+)?)([hms])"
_CLOCK = re.compile(r"((?:%s)+)(?:\+((?:%s)+))?\Z" % (_PART, _PART))
BASE_SPAN = (10 * 1000, 10 * 3600000)  # 10 s to 10 h
INCREMENT_MAX = 10 * 60000  # 10 min
ZERO_RULES = ("rule", "lose")


def _duration(text):
    total, pos = 0.0, 0
    for m in re.finditer(_PART, text):
        if m.start() != pos:
            raise ValueError(text)
        total += float(m.group(1)) * UNITS[m.group(2)]
        pos = m.end()
    return int(round(total))


def parse_clock(text):
    """'25m' → {"base_ms": 1500000, "increment_ms": 0}; '20m+10s', '1h30m', '90s+2s'. argparse type:
    a bad value raises ArgumentTypeError with the reason (exit 2 before anything runs)."""
    cleaned = str(text).strip().lower().replace(" ", "")
    m = _CLOCK.match(cleaned)
    if not m:
        raise argparse.ArgumentTypeError("%r is not a clock: give a time per seat with h, m or s, and an optional "
                                         "increment per move after +, e.g. 25m, 1h30m or 20m+10s" % text)
    base = _duration(m.group(1))
    increment = _duration(m.group(4)) if m.group(4) else 0
    if not BASE_SPAN[0] <= base <= BASE_SPAN[1]:
        raise argparse.ArgumentTypeError("%s: a seat's time must be from 10s to 10h" % text)
    if increment > INCREMENT_MAX:
        raise argparse.ArgumentTypeError("%s: the increment must be at most 10m" % text)
    return {"base_ms": base, "increment_ms": increment}


parse_clock.__name__ = "clock"  # argparse names the type in its messages


def words(setting):
    """'25m' or '20m+10s', as a person would type it."""
    def short(ms):
        h, ms = divmod(ms, UNITS["h"])
        m, ms = divmod(ms, UNITS["m"])
        out = ("%dh" % h if h else "") + ("%dm" % m if m else "") + ("%gs" % (ms / 1000.0) if ms else "")
        return out or "0s"
    text = short(setting["base_ms"])
    return text + ("+%s" % short(setting["increment_ms"]) if setting.get("increment_ms") else "")


def shown(ms):
    """A time left as a clock face shows it: 24:59, 1:02:03, or 9.4 under ten seconds."""
    if ms < 10000:
        return "%.1f" % (max(ms, 0) / 1000.0)
    s = int(ms // 1000)
    h, rest = divmod(s, 3600)
    return "%d:%02d:%02d" % (h, rest // 60, rest % 60) if h else "%d:%02d" % (rest // 60, rest % 60)


def low_ms(setting):
    """Below this a seat's time is low: its LEDs blink. A tenth of the time, from 10 s to 60 s."""
    return max(10000, min(60000, setting["base_ms"] // 10))
