"""Table profiles (hardware/profiles/*.json): which reader is which seat, which LEDs are which tracker.

A reader's role says what a tap there means: "seat" (the reader in front of seat N: the card is
that seat's), "table" (one shared reader, the place "table"), or "zone" (a named place on the
table, such as a mission's spot: a tap there is read against the game's rule for that place, see
table/taps.py). A zone reader may list the "seats" it sits among, for the drawings.
"""

from pathlib import Path

from .. import jsoncheck
from ..paths import HARDWARE

PROFILE_DIR = HARDWARE / "profiles"
SCHEMA = HARDWARE / "schema" / "profile.schema.json"
DEFAULT = "btwixt-4p"  # the profile when none is named and no board says (firmware flash, hw test --sim)
MODES = ("fill", "count", "dot", "dim")
ROLES = ("seat", "table", "zone")


def load(name_or_path):
    """A table profile: "btwixt-4p" (hardware/profiles/) or a path.

    Checked against hardware/schema/profile.schema.json, then by `check`; raises ValueError naming
    the file and the field.
    """
    path = Path(name_or_path)
    if not path.suffix:
        path = PROFILE_DIR / ("%s.json" % name_or_path)
    if not path.exists():
        known = sorted(p.stem for p in PROFILE_DIR.glob("*.json"))
        raise ValueError("no table profile %r (known: %s)" % (str(name_or_path), ", ".join(known)))
    return jsoncheck.read_checked(path, SCHEMA, "table profile", check)


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
    zones = set()
    for r in profile["readers"]:
        if r.get("role") not in ROLES:
            raise ValueError("reader %s: unknown role %r (roles: %s)" % (r["name"], r.get("role"), ", ".join(ROLES)))
        if r["role"] == "seat" and not 0 <= r["seat"] < profile["players"]:
            raise ValueError("reader %s names seat %r, outside the table" % (r["name"], r["seat"]))
        if r["role"] == "zone":
            zone = r.get("zone")
            if not isinstance(zone, str) or not zone or zone == "table":
                raise ValueError("reader %s: a zone reader needs a \"zone\" name (not %r)" % (r["name"], zone))
            if zone in zones:
                raise ValueError("two readers share the zone %r" % zone)
            zones.add(zone)
            if any(not isinstance(s, int) or not 0 <= s < profile["players"] for s in r.get("seats", ())):
                raise ValueError("reader %s lists a seat outside the table" % r["name"])


def reader_place(profile, reader):
    """The seat a reader belongs to, "table" for a shared reader, or a zone reader's zone name."""
    for r in profile["readers"]:
        if r["name"] == reader:
            return "table" if r["role"] == "table" else r["zone"] if r["role"] == "zone" else r["seat"]
    raise ValueError("the profile has no reader %r" % reader)


def places(profile):
    """{place: reader name} for every reader (the first reader of a place, should two share one)."""
    out = {}
    for r in profile["readers"]:
        out.setdefault(reader_place(profile, r["name"]), r["name"])
    return out
