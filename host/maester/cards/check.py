"""Checks on the card data in cards_db/, and the report of what an owner should verify in their box.

Pure functions: they read files and return lists and dicts; printing belongs to `maester cards`.
Public data leaves many printed values unknown (design.md, "Known gaps in public data"), so the
data marks them `assumed`; `report()` turns those marks into a checklist for an owner.
"""

from importlib import import_module

from ..jsoncheck import read_json  # noqa: F401  (check.read_json is this module's reader too)
from . import db as cardsdb
from .db import leader_ids, abilities, owner_problems, profile, record_problems, records, schema_problems


def kind_of(section, card, prof=None):
    """The box-count kind of a card: by its type where the profile says so (LCG), else its `kind` if
    it has one (influence), else its section (allies)."""
    by_type = (prof or {}).get("kind_by_type")
    if by_type:
        return by_type.get(card.get("type"), section)
    return card.get("kind") or section


def count_problems(game):
    """Real cards (enrolled included, simulation filler excluded) over the counts of the box."""
    data = cardsdb.load(game)
    comp = data["components"]
    counts = comp["counts"]
    out = []
    copies = {}
    for section, card in records(data, profile(game)["sections"]):
        if not card.get("simulation"):
            kind = kind_of(section, card, profile(game))
            copies[kind] = copies.get(kind, 0) + card["copies"]
            if kind == "leader":
                copies[("leader", card["leader"])] = copies.get(("leader", card["leader"]), 0) + card["copies"]
    for kind, label in profile(game)["kinds"].items():
        if copies.get(kind, 0) > counts.get(kind, 0):
            out.append("there are %d %s but the box holds %d: a card is listed twice under two ids, "
                       "or its copies are too high" % (copies[kind], label, counts.get(kind, 0)))
    per_leader = counts.get("leader_per_leader")
    for leader in data.get("leaders", []):
        n = copies.get(("leader", leader["id"]), 0)
        if per_leader is not None and n > per_leader:
            out.append("%s has %d leader cards but the box holds %d per leader" % (leader["name"], n, per_leader))
    if "leaders" in counts and len(data.get("leaders", [])) > counts["leaders"]:
        out.append("there are %d leaders but the box holds %d" % (len(data["leaders"]), counts["leaders"]))
    tokens = comp.get("power_tokens", {}).get("values")
    if tokens and "power_tokens" in counts and sum(tokens.values()) != counts["power_tokens"]:
        out.append("the power-token split adds up to %d tokens but the box holds %d" % (
            sum(tokens.values()), counts["power_tokens"]))
    return out


def validate(game):
    """Every problem in the game's card data (shipped files and the owner's file), as sentences."""
    profile(game)
    folder = cardsdb.db_root() / game
    cards = read_json(folder / "cards.json")
    problems = schema_problems(game, "cards_file", cards, "cards.json")
    problems += schema_problems(game, "components_file", read_json(folder / "components.json"), "components.json")
    problems += record_problems(game, cards, "cards.json", leader_ids(cards))
    problems += game_problems(game, cards)
    if cardsdb.owner_file(game).exists():
        try:
            owner = cardsdb.read_json(cardsdb.owner_file(game))
        except ValueError as e:
            return problems + [str(e)]
        problems += owner_problems(game, owner, cards)
    if problems:
        return problems  # the loader may not cope with malformed records; fix those first
    cardsdb.forget_cache()  # read what is on disk now, not what an earlier load() saw
    return count_problems(game)


def game_problems(game, cards):
    """The game's own checks on its cards.json (the profile's "checks"), as sentences."""
    hook = profile(game).get("checks")
    if not hook:
        return []
    module, name = hook.split(":")
    implemented = set().union(*abilities(game).values())
    return ["cards.json: " + p for p in getattr(import_module(module), name)(cards, implemented)]


def _assumed_fields(src, fields):
    """Field names a src marks `assumed`; a bare string src covers every field.

    A dotted name (effect.str_bonus.challenge) marks one part of a field."""
    if isinstance(src, str):
        return list(fields) if src == "assumed" else []
    return [f for f, s in (src or {}).items() if s == "assumed"]


def _value(record, field):
    """The value a (possibly dotted) field name points at in a record, or None."""
    for part in field.split("."):
        record = record.get(part) if isinstance(record, dict) else None
    return record


def report(game):
    """What an owner should check against their box.

    Returns {"game", "assumed": [{"group", "items": [{"card", "name", "field", "value", "note"}]}],
    "simulation": [{"kind", "label", "filler", "total", "summary"}], "owner_file",
    "owner": [{"id", "name", "type", "corrects", "given": {field: value}, "note"}]}, and where the
    game has them: "decks" (deck_counts), "errata" [{"card", "name", "errata"}] and "abilities"
    (implemented_by_id).
    """
    prof = profile(game)
    cardsdb.forget_cache()
    data = cardsdb.load(game)
    groups = {"components": []}
    for key, comp in data["components"].items():
        if isinstance(comp, dict) and "src" in comp:
            fields = [f for f in comp if f not in ("src", "note")]
            for f in _assumed_fields(comp["src"], fields):
                groups["components"].append({"card": key, "name": key.replace("_", " "), "field": f,
                                             "value": comp.get(f), "note": comp.get("note", "")})
    listed = [(prof["kinds"][kind_of(s, c, prof)], c) for s, c in records(data, prof["sections"])
              if not c.get("simulation")]  # filler is reported as a count below, not card by card
    listed += [(prof["reference"][s], c) for s, c in records(data, prof.get("reference", {}))]
    for group, card in listed:
        for f in _assumed_fields(card.get("src"), card):
            groups.setdefault(group, []).append({"card": card["id"], "name": card["name"], "field": f,
                                                 "value": _value(card, f), "note": card.get("note", "")})
    simulation = []
    for kind, label in prof["kinds"].items():
        cards = [c for s, c in records(data, prof["sections"]) if kind_of(s, c, prof) == kind]
        filler = sum(c["copies"] for c in cards if c.get("simulation"))
        total = sum(c["copies"] for c in cards)
        simulation.append({"kind": kind, "label": label, "filler": filler, "total": total,
                           "summary": "%d of %d %s are simulation filler" % (filler, total, label)})
    rep = {"game": game,
           "assumed": [{"group": g, "items": items} for g, items in groups.items() if items],
           "simulation": simulation,
           "owner_file": str(cardsdb.owner_file(game)),
           "owner": owner_cards(game)}
    known = [c for _, c in records(data, prof["sections"])]
    if "decks" in data:
        rep["decks"] = deck_counts(data, prof)
    if any(c.get("errata") for c in known):
        rep["errata"] = [{"card": c["id"], "name": c["name"], "errata": c["errata"]} for c in known if c.get("errata")]
    if prof.get("abilities_by_id"):
        rep["abilities"] = implemented_by_id(game, known)
    return rep


def deck_counts(data, prof):
    """Each deck's cards by kind: [{"deck", "house", "draw", "plots", "kinds": {kind: n}}]."""
    by_id = {c["id"]: (s, c) for s, c in records(data, prof["sections"])}
    out = []
    for name, deck in data["decks"].items():
        kinds = {}
        for code in deck["draw"] + deck["plots"]:
            kind = kind_of(*by_id[code], prof) if code in by_id else "unknown"
            kinds[kind] = kinds.get(kind, 0) + 1
        order = list(prof["kinds"]) + sorted(set(kinds) - set(prof["kinds"]))
        out.append({"deck": name, "house": deck.get("house"), "draw": len(deck["draw"]), "plots": len(deck["plots"]),
                    "kinds": {k: kinds[k] for k in order if k in kinds}})
    return out


def implemented_by_id(game, cards):
    """Cards with an ability, split by whether the engine implements it (by id; a copy by its original)."""
    known = set().union(*abilities(game).values())
    having = [c for c in cards if c.get("ability")]
    done = [c["id"] for c in having if c["id"] in known or c.get("duplicate_of") in known]
    return {"implemented": done, "by_hand": [c["id"] for c in having if c["id"] not in done]}


def owner_cards(game):
    """The owner's enrolled cards, each with the fields they gave and the shipped card it corrects."""
    owner = cardsdb.read_owner(game)
    if owner is None:
        return []
    prof = profile(game)
    shipped = {c["id"]: c for _, c in records(read_json(cardsdb.db_root() / game / "cards.json"), prof["sections"])}
    out = []
    for section, card in records(owner, prof["sections"]):
        given = {f: card.get(f) for f, s in card.get("src", {}).items() if s == "owner"}
        corrects = shipped.get(card.get("id"))
        out.append({"id": card.get("id"), "name": card.get("name"),
                    "type": card.get("kind") or card.get("type") or "ally",
                    "corrects": corrects["name"] if corrects else None, "given": given,
                    "note": card.get("note", "")})
    return out


def filler_left(game, kind):
    """How many simulation fillers of `kind` the loaded data still holds, and the kind's total."""
    for row in report(game)["simulation"]:
        if row["kind"] == kind:
            return row
    raise ValueError("unknown kind %r" % kind)
