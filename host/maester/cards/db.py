"""Card and component data from cards_db/, with the simulation fill and an owner's enrolled cards.

Every value that is not printed in a rulebook carries its source in the record's `src` map:
`rulebook`, `research`, `assumed` (check it against your box), `owner` (you enrolled it) or
`simulation` (made up so whole games can be simulated; never a real card).

An owner's file joins the shipped cards only once it passes the same checks as the shipped data
(its schema, then what a schema cannot say: `check_owner`); check.py reports on the whole data.
"""

import os
from importlib import import_module
from pathlib import Path

from .. import jsoncheck
from ..jsoncheck import read_json
from ..paths import CARDS_DB
from .layout import PROFILES

SIM_PREFIX = "sim-"
# The card sections of each game's cards.json (an owner's file is merged section by section).
SECTIONS = {"btwixt": ("allies", "influence"), "intrigue": ("characters", "iron_throne"),
            "oathbreaker": ("missions", "decrees", "influence", "ambitions", "characters"),
            "lcg": ("cards",)}


def db_root():
    env = os.environ.get("MAESTER_CARDS_DB")
    if env:
        return Path(env)
    return CARDS_DB


def maester_home():
    """Where maester keeps games, enrolled cards and tags: $MAESTER_HOME, else ~/.maester.

    Raises ValueError when it cannot be a directory: it, or a folder above it, is a file.
    """
    env = os.environ.get("MAESTER_HOME")
    home = Path(env) if env else Path.home() / ".maester"
    up = file_in_the_way(home)
    if up is not None:
        raise ValueError("%s%s: %s is a file, but maester keeps its games, enrolled cards and tags in a "
                         "directory there; move the file away or set MAESTER_HOME to a directory"
                         % ("MAESTER_HOME=" if env else "", home, up))
    return home


def file_in_the_way(folder):
    """The file (anything but a directory) at `folder` or at the nearest of its parents that
    exists, which keeps `folder` from being a directory; None when nothing does."""
    for up in (Path(folder), *Path(folder).parents):
        try:
            if up.exists():
                return None if up.is_dir() else up
        except OSError:  # a name too long to look at: not a file in the way
            return None
    return None


def make_folder(folder, what):
    """Make `folder` (and its parents) for `what`; a ValueError in one line when it cannot be."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        up = file_in_the_way(folder)
        why = "%s is a file, not a folder" % up if up is not None else (e.strerror or str(e))
        raise ValueError("cannot make the folder %s for %s: %s" % (folder, what, why)) from None


def read_last():
    """The game log `maester resume` continues: the path in $MAESTER_HOME/last.

    Raises ValueError naming the file when there is none, or it does not hold the path of a log
    that is there.
    """
    last = maester_home() / "last"
    again = "start a game with `maester play btwixt --sim`, or give --log PATH"
    if not last.exists():
        raise ValueError("there is no game to resume (%s does not exist); %s" % (last, again))
    try:
        text = last.read_bytes().decode("utf-8")
    except OSError as e:
        raise ValueError("cannot read %s (%s); give --log PATH" % (last, e.strerror or e)) from None
    except UnicodeDecodeError:
        text = "\0"  # garbage: refused below
    name = text.strip()
    if not name:
        raise ValueError("%s is empty: it should hold the path of the last game's log; %s" % (last, again))
    if "\n" in name or not name.isprintable():
        raise ValueError("%s does not hold the path of a game log (one line, as `maester play` writes it); "
                         "%s" % (last, again))
    path = Path(name)
    if not path.is_file():
        raise ValueError("%s names %s, which is not there (moved or deleted?); give --log PATH" % (last, path))
    return path


def owner_file(game):
    """Where `maester cards add` keeps the cards an owner enrolled."""
    return maester_home() / "cards" / ("%s.json" % game)


def read_owner(game):
    """The owner's file of enrolled cards as read, or None when there is none.

    Raises ValueError naming the file if it is not JSON; check_owner checks its shape.
    """
    path = owner_file(game)
    return read_json(path) if path.exists() else None


# --- what the card tools know of each game, and the checks an owner's file must pass ------------------

def known_games():
    """Games with card data: folders of cards_db/ holding a cards.json."""
    root = db_root()
    return sorted(p.name for p in root.iterdir() if (p / "cards.json").is_file()) if root.is_dir() else []


def profile(game):
    """The game's profile, or a ValueError that names the games we do know."""
    known = known_games()
    if game not in known:
        raise ValueError("unknown game %r: card data exists for %s" % (game, ", ".join(known) or "no game"))
    if game not in PROFILES:
        raise ValueError("card data for %r exists but the card tools do not know it yet (add it to "
                         "maester.cards.layout.PROFILES)" % game)
    return PROFILES[game]


def abilities(game):
    """section -> the ability keys the engine implements for cards of that section."""
    module = import_module("maester.games.%s.abilities" % game)  # the game's, by its name
    return {section: set(getattr(module, name)) for section, name in profile(game)["sections"].items()}


def validator(game, part):
    """A validator for one part of the game's schema: cards_file, components_file or owner_file."""
    schema = read_json(db_root() / "schema" / ("%s.schema.json" % game))
    # The schema file's root validates cards.json; point the root at the part we want instead.
    return jsoncheck.validator(dict(schema, **{"$ref": "#/$defs/" + part}))


def schema_problems(game, part, data, where):
    """Schema violations as 'where: path (card id): message', in document order."""
    return jsoncheck.problems(validator(game, part), data, where, key="id")


def records(data, sections):
    """(section, record) for every card record in a cards.json-shaped document."""
    if not isinstance(data, dict):
        return
    for section in sections:
        for record in data.get(section) or []:
            if isinstance(record, dict):
                yield section, record


def record_problems(game, data, where, leader_ids):
    """Checks on the records of one file the schema cannot express: ids, ability keys, leaders."""
    implemented = abilities(game)
    by_id = profile(game).get("abilities_by_id")
    out, seen = [], {}
    for section, card in records(data, implemented):
        cid = card.get("id")
        # Card ids share one namespace: a game's card table is keyed by id alone.
        if cid in seen:
            out.append("%s: duplicate id %r (in %s and %s)" % (where, cid, seen[cid], section))
        seen.setdefault(cid, section)
        ab = card.get("ability")
        if isinstance(ab, str) and not by_id and ab not in implemented[section]:
            out.append("%s: %s: ability %r is not one the engine implements; use one of %s, "
                       "'manual' (resolve by hand) or null" % (where, cid, ab, ", ".join(
                           sorted(implemented[section] - {"manual"}))))
        if card.get("kind") == "leader" and card.get("leader") not in leader_ids:
            out.append("%s: %s: leader %r is not a leader (leaders: %s)" % (
                where, cid, card.get("leader"), ", ".join(sorted(leader_ids))))
    return out


def owner_problems(game, owner, cards):
    """Problems of the owner's file (its contents `owner`) against the shipped `cards`, as sentences."""
    where = str(owner_file(game))
    problems = schema_problems(game, "owner_file", owner, where) + record_problems(game, owner, where, leader_ids(cards))
    # An owner card may correct a shipped one, but only within the same section.
    shipped = {c.get("id"): s for s, c in records(cards, profile(game)["sections"])}
    for section, card in records(owner, profile(game)["sections"]):
        if shipped.get(card.get("id"), section) != section:
            problems.append("%s: %s is a shipped card of another type (%s); enroll it under another id"
                            % (where, card.get("id"), shipped[card.get("id")]))
    return problems


def check_owner(game, owner, cards):
    """Raise ValueError naming the owner's file and listing its problems, if it has any."""
    problems = owner_problems(game, owner, cards)
    if problems:
        raise ValueError("the cards you enrolled in %s cannot be used; fix them or move the file away "
                         "(`maester cards check %s` lists every problem):\n  %s"
                         % (owner_file(game), game, "\n  ".join(problems)))


def leader_ids(cards):
    return {l.get("id") for l in cards.get("leaders", []) if isinstance(l, dict)}


_CACHE = {}


def load(game, owner=True):
    """The full card set of `game`: printed/known cards, enrolled cards, then simulation fill."""
    # Keyed by what names the files, not by the owner file's path: finding $MAESTER_HOME checks the
    # disk, and a bot run asks for the cards once a game.
    env = os.environ
    key = (game, owner, env.get("MAESTER_CARDS_DB"), (env.get("MAESTER_HOME"), env.get("HOME")) if owner else None)
    if key in _CACHE:
        return _CACHE[key]
    folder = db_root() / game
    if not folder.is_dir():
        raise ValueError("no card data for %r in %s" % (game, db_root()))
    data = read_json(folder / "cards.json")
    data["components"] = read_json(folder / "components.json")
    enrolled = read_owner(game) if owner else None
    if enrolled is not None:
        check_owner(game, enrolled, data)
        for section in SECTIONS.get(game, ()):
            data[section] = _merge(data[section], enrolled.get(section, []))
    if game == "btwixt":
        _fill_btwixt(data)
    _CACHE[key] = data
    return data


_INDEX = {}  # game -> (the card data it was made from, {card id: its record})


def find(game, card):
    """The record of `card` (an id, or a copy's id: `S12#1`) in `game`'s card data, or None: what a
    person reads about a card (its facts, and its ability in our own words) at a prompt or a page."""
    data = load(game)
    hit = _INDEX.get(game)
    if hit is None or hit[0] is not data:
        sections = SECTIONS.get(game, ()) + (("leaders",) if game == "btwixt" else ())
        hit = _INDEX[game] = (data, {r["id"]: r for _, r in records(data, sections) if isinstance(r, dict)})
    return hit[1].get(card_id(card))


def forget_cache():
    _CACHE.clear()
    _INDEX.clear()
    _TABLES.clear()


_TABLES = {}


def table(game, owner, build):
    """A game's card table, `build(data)`, made once per load of its card data.

    The table is frozen into each game's config, so it is built once and shared, not per game.
    """
    data = load(game, owner=owner)
    hit = _TABLES.get((game, owner))
    if hit is None or hit[0] is not data:
        hit = _TABLES[(game, owner)] = (data, build(data))
    return hit[1]


def _merge(known, enrolled):
    """Enrolled cards replace known records with the same id and add the rest."""
    by_id = {c["id"]: c for c in known}
    for card in enrolled:
        by_id[card["id"]] = card
    return list(by_id.values())


def _sim_record(kind_id, n, name, **fields):
    record = {"id": "%s%s-%02d" % (SIM_PREFIX, kind_id, n), "name": "%s %02d (simulation)" % (name, n),
              "copies": 1, "ability": None, "simulation": True,
              "text": "Simulation filler: no ability.", "src": {"name": "simulation"}}
    record.update(fields)
    for k in fields:
        record["src"][k] = "simulation"
    return record


def _fill_btwixt(data):
    """Top the decks up to the box counts with labelled simulation cards, deterministically."""
    counts = data["components"]["counts"]

    def copies(cards):
        return sum(c["copies"] for c in cards)

    allies = data["allies"]
    for n in range(1, counts["allies"] - copies(allies) + 1):
        allies.append(_sim_record("ally", n, "Simulated ally", power=1 + (n * 5) % 8))

    influence = data["influence"]
    standard = [c for c in influence if c["kind"] == "standard"]
    colours = data["components"]["influence_colours"]["standard"]
    for n in range(1, counts["standard"] - copies(standard) + 1):
        influence.append(_sim_record("standard", n, "Simulated influence", kind="standard",
                                     colour=colours[n % 3], value=1 + (n * 7) % 10, triumph=False))
    events = [c for c in influence if c["kind"] == "event"]
    for n in range(1, counts["event"] - copies(events) + 1):
        influence.append(_sim_record("event", n, "Simulated event", kind="event", colour="blue",
                                     value=1 + (n * 3) % 6, triumph=False))
    per_leader = counts["leader_per_leader"]
    serial = 0
    for leader in data["leaders"]:
        own = [c for c in influence if c["kind"] == "leader" and c.get("leader") == leader["id"]]
        for _ in range(per_leader - copies(own)):
            serial += 1
            influence.append(_sim_record("leader", serial, "Simulated %s card" % leader["name"],
                                         kind="leader", colour="white", leader=leader["id"],
                                         value=2 + (serial * 5) % 7, triumph=False))


def instances(records):
    """One id per physical copy: `betrayal#1`, `betrayal#2`, ..."""
    out = []
    for r in records:
        for i in range(1, r["copies"] + 1):
            out.append("%s#%d" % (r["id"], i))
    return out


def card_id(instance):
    return instance.split("#", 1)[0]
