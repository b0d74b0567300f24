"""The LED trackers as the table's strip shows them, for the table page.

The game's `table.segments(public view)` gives each segment's (level, rgb, pattern, period), the
very values the host sends to the board; the table profile gives each segment's length, direction
and mode. Which pixels are lit follows the firmware's rules (firmware/maester_fw/leds.py), so the
page draws what a person sees on the table, not a prettier guess. Blink and pulse are left to CSS.
"""

import functools

from .. import games
from ..table import profile as P
from ..table.lights import hands_lights


def lit_pixels(mode, level, length):
    """(indices of lit pixels, brightness 0-255) for a segment of `length` in `mode` at `level`."""
    if mode == "fill":
        return list(range(min(length, (level * length + 254) // 255))), 255
    if mode == "count":
        return list(range(min(length, level))), 255
    if mode == "dot":
        return ([level - 1] if 1 <= level <= length else []), 255
    return list(range(length)), level  # "dim": every pixel, level is the brightness


# What each segment tracks, in words (segment names are the profiles', hardware/profiles/*.json).
SEGMENT_WORDS = {"round": "Round", "season": "Season", "order": "Order", "chaos": "Chaos", "phase": "Phase",
                 "challenge": "Challenge", "power": "power", "first": "first player", "seat": ""}


def segment_label(name, seat_name=lambda s: "Seat %d" % s):
    """A segment's name for people: "Round", "Seat 2", "Seat 2 power"."""
    base = name.rstrip("0123456789")
    words = SEGMENT_WORDS.get(base, base.replace("_", " ").capitalize())
    if base == name:
        return words
    return (seat_name(int(name[len(base):])) + " " + words).strip()


@functools.lru_cache(maxsize=None)
def _profile(game, players):
    """The shipped profile for `game` at `players`, read and checked against its schema once: every
    table page, and every frame of a replay, draws from it (reading it took ~10 ms a page)."""
    return P.for_game(game, players)


def strip(game, public_view, players, seat_name=None, hands=()):
    """A list of segments in strip order: name, pixels (one rgb or None each), pattern, period.

    Empty when the game has no table module or no profile for this many players: the page then
    simply has no strip to draw. `hands`: the bot-hands seats, lit as the runner lights them.
    """
    table = games.part(game, "table")  # a broken table module is a bug to see, not to hide
    if table is None:
        return []
    try:
        profile = _profile(game, players)
    except ValueError:  # no profile for this many players
        return []
    wanted = hands_lights(public_view, table.segments(public_view), hands)
    out = []
    for seg in sorted(profile["segments"], key=lambda s: s["start"]):
        length = seg["length"]
        level, rgb, pattern, period = wanted.get(seg["name"], (0, (0, 0, 0), "off", 0))
        lit, bright = lit_pixels(seg.get("mode", "fill"), level, length) if pattern != "off" else ([], 0)
        colour = [c * bright // 255 for c in rgb]
        pixels = [colour if i in lit else None for i in range(length)]
        if seg.get("reversed"):
            pixels.reverse()  # logical pixel 0 is the far end of the segment
        label = segment_label(seg["name"], seat_name) if seat_name else segment_label(seg["name"])
        out.append({"name": seg["name"], "label": label, "mode": seg.get("mode", "fill"), "level": level,
                    "pixels": pixels, "pattern": pattern, "period": period or 1000})
    return out
