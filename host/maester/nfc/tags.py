"""Which sticker is which card: a game's tags file ($MAESTER_HOME/tags/<game>.json, one physical copy
of a card for each sticker's UID, written whole or not at all), the cards of a game that carry a
sticker, and the UIDs the simulated stickers carry."""

import hashlib
import json
import os
import tempfile
from collections import namedtuple

from ..cards import db as cardsdb

Card = namedtuple("Card", "id label group sim")
# Sections of cards.json that are not tapped, so get no sticker: Oathbreaker's characters are the
# sides of the character boards each noble keeps in front of them.
NO_TAG = {"oathbreaker": ("characters",)}
GROUPS = {"allies": "Allies", "influence": "Influence", "characters": "Characters", "iron_throne": "Iron Throne cards",
          "missions": "Mission cards", "decrees": "Decree cards", "ambitions": "Ambition cards"}


def tags_path(game):
    return cardsdb.maester_home() / "tags" / ("%s.json" % game)


def load_tags(game):
    """{uid hex: card instance} for a game; empty when nothing is enrolled yet."""
    path = tags_path(game)
    if not path.exists():
        return {}
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return dict(data.get("tags", {}))


def save_tags(game, tags):
    """Replace the tag file in one step: a crash leaves the old file or the new one, never half."""
    path = tags_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"game": game, "version": 1, "tags": dict(sorted(tags.items()))}, indent=1) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".%s." % game, suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(body)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def sim_uid(card):
    """The UID a simulated sticker on `card` carries: 7 bytes, NXP's 0x04 first, like an NTAG."""
    return "04" + hashlib.sha1(card.encode()).hexdigest()[:12]


def _copies(rec, group, sim, sets=1):
    n = rec.get("copies", 1) * sets
    name = rec["name"]
    return [Card("%s#%d" % (rec["id"], i), name + (", copy %d of %d" % (i, n) if n > 1 else ""), group, sim)
            for i in range(1, n + 1)]


def cards_to_tag(game, include_sim=False, sets=1):
    """Every physical card of a game that carries a sticker, in the order enrollment asks for them.

    Simulation filler stands for cards the data does not know yet; it is left out unless
    `include_sim` (add the real card with `maester cards add` first, then enroll it). `sets`
    counts the boxes: the LCG at five or six players brings a starter deck twice, so a second Core
    Set (copies "S5#2") is enrolled with --sets 2.
    """
    data = cardsdb.load(game)
    out = [Card("leader:%s" % l["id"], "Leader card: %s" % l["name"], "Leader cards", False)
           for l in data.get("leaders", [])]
    leader_names = {l["id"]: l["name"] for l in data.get("leaders", [])}
    sections = cardsdb.SECTIONS.get(game) or [k for k, v in data.items()
                                               if isinstance(v, list) and v and isinstance(v[0], dict) and "id" in v[0]]
    kinds = ("standard", "event", "leader")
    for section in sections:
        if section in NO_TAG.get(game, ()):
            continue
        records = data[section]
        if section == "influence":  # B'Twixt: standard, then events, then each leader's own cards
            records = sorted(records, key=lambda r: (kinds.index(r["kind"]) if r.get("kind") in kinds else 9,
                                                     list(leader_names).index(r["leader"]) if r.get("leader") in leader_names else -1))
        for rec in records:
            sim = bool(rec.get("simulation"))
            if sim and not include_sim:
                continue
            group = GROUPS.get(section, section.replace("_", " ").capitalize())
            if rec.get("kind"):
                group = "%s: %s" % (group, leader_names.get(rec.get("leader"), rec["kind"]))
            out.extend(_copies(rec, group, sim, sets))
    return out
