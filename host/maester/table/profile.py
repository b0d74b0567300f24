"""Table profiles (hardware/profiles/*.json): which reader is which seat, which LEDs are which tracker."""

import json
from pathlib import Path

PROFILE_DIR = Path(__file__).resolve().parent.parent.parent.parent / "hardware" / "profiles"
MODES = ("fill", "count", "dot", "dim")


def load(name_or_path):
    path = Path(name_or_path)
    if not path.suffix:
        path = PROFILE_DIR / ("%s.json" % name_or_path)
    if not path.exists():
        known = sorted(p.stem for p in PROFILE_DIR.glob("*.json"))
        raise ValueError("no table profile %r (known: %s)" % (str(name_or_path), ", ".join(known)))
    with open(path, encoding="utf-8") as f:
        profile = json.load(f)
    check(profile)
    return profile


def for_game(game, players):
    return load("%s-%dp" % (game, players))


def check(profile):
    """Raise ValueError naming the first problem: overlapping or out-of-strip segments, bad readers."""
    pixels = profile["pixels"]
    used = {}
    for seg in profile["segments"]:
        if seg.get("mode", "fill") not in MODES:
            raise ValueError("segment %s: unknown mode %r" % (seg["name"], seg.get("mode")))
        if seg["start"] < 0 or seg["length"] < 1 or seg["start"] + seg["length"] > pixels:
            raise ValueError("segment %s does not fit the %d-pixel strip" % (seg["name"], pixels))
        for p in range(seg["start"], seg["start"] + seg["length"]):
            if p in used:
                raise ValueError("segments %s and %s share pixel %d" % (used[p], seg["name"], p))
            used[p] = seg["name"]
    names = [r["name"] for r in profile["readers"]]
    if len(set(names)) != len(names):
        raise ValueError("two readers share a name")
    for r in profile["readers"]:
        if r["role"] == "seat" and not 0 <= r["seat"] < profile["players"]:
            raise ValueError("reader %s names seat %r, outside the table" % (r["name"], r["seat"]))


def reader_place(profile, reader):
    """The seat a reader belongs to, or "table" for a shared reader."""
    for r in profile["readers"]:
        if r["name"] == reader:
            return "table" if r["role"] == "table" else r["seat"]
    raise ValueError("the profile has no reader %r" % reader)
