"""`maester cards check GAME` and `maester cards add GAME`: card data an owner can verify and correct.

Public sources lack many printed values (design.md, "Known gaps in public data"). `check` lists what
the data only assumes; `add` enrolls a card from the owner's box into $MAESTER_HOME/cards/<game>.json,
which the loader merges over the shipped data (same id = a correction) before the simulation fill.
"""

import json
import os
import re
import sys
import tempfile
import unicodedata

from .. import lazy
from ..argtypes import int_range
from ..cards import check
from ..cards import db as cardsdb

# rich is slow to import: only when a table is printed, not for --help (issue 16, start-up).
rich_console = lazy.Module("rich.console")
rich_table = lazy.Module("rich.table")

ADD_OPTIONS = ("name", "type", "colour", "power", "value", "ability", "leader")
COLOUR = {"event": "blue", "leader": "white"}  # these kinds come in one colour (rulebook)
# `cards add` enrolls B'Twixt cards, and no B'Twixt card comes in more than 3 copies (Betrayal,
# Pulling the Strings): 10 leaves room for a box we have not seen, while a typo such as 1000000
# would put a million copies in every deck.
MAX_COPIES = 10


def register(sub):
    cards = sub.add_parser("cards", help="check the card data against your box, enroll or correct a card",
                           description="Card data: what to verify against your box, and cards you enroll.")
    cards.set_defaults(func=lambda args: cards.print_help() or 2)
    cmds = cards.add_subparsers(dest="cards_command", metavar="ACTION")

    p = cmds.add_parser("check", help="validate the data and list what to verify against your box",
                        description="Validate the card data, then list every assumed value, the simulation "
                                    "filler per kind and your enrolled cards. Exit status 1 if the data has problems.")
    p.add_argument("game", help="the game, e.g. btwixt")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_check)

    p = cmds.add_parser("add", help="enroll a card from your box, or correct a shipped one",
                        description="Enroll a card the data lacks, or correct one (use its id). Missing options "
                                    "are asked for on a terminal; otherwise they are an error.")
    p.add_argument("game", help="the game, e.g. btwixt")
    p.add_argument("--name", help="the card's printed name")
    p.add_argument("--type", help="ally, standard, event or leader")
    p.add_argument("--colour", help="influence colour: red, green or purple (standard cards)")
    p.add_argument("--value", type=int, help="influence value (influence cards)")
    p.add_argument("--power", type=int, help="power (allies)")
    p.add_argument("--ability", help="an ability key the engine implements, 'manual' (resolve by hand) or 'none'")
    p.add_argument("--copies", type=int_range(1, MAX_COPIES), metavar="N",
                   help="copies in the box, 1 to %d (default 1)" % MAX_COPIES)
    p.add_argument("--leader", help="the leader a leader card belongs to")
    p.add_argument("--id", help="card id (default: the name as a slug); a shipped card's id corrects that card")
    p.add_argument("--note", help="a note kept with the card")
    p.add_argument("--replace", action="store_true", help="replace a card you enrolled before with this id")
    p.set_defaults(func=cmd_add)


# --- check ------------------------------------------------------------------------------------

def _show(value):
    return json.dumps(value) if isinstance(value, (dict, list)) else str(value)


def cmd_check(args):
    cardsdb.profile(args.game)
    problems = check.validate(args.game)
    try:
        rep = check.report(args.game)
    except (KeyError, TypeError, ValueError):
        rep = None  # malformed data the loader cannot read: the problems say why
    if args.json:
        print(json.dumps(dict(rep or {"game": args.game}, problems=problems), indent=2))
        return 1 if problems else 0
    out = rich_console.Console()
    if problems:
        out.print("[bold red]%d problem(s) in the %s card data:[/]" % (len(problems), args.game))
        for p in problems:
            out.print("  - " + p, markup=False)
        out.print()
    if rep is None:
        return 1
    out.print("[bold]Values no public source confirms: check them against your box[/]")
    for group in rep["assumed"]:
        table = rich_table.Table(title=group["group"], title_justify="left", show_lines=False)
        for col in ("card", "field", "value", "note"):
            table.add_column(col, overflow="fold")
        last = None
        for item in group["items"]:
            # One note per card is enough; repeating it on every field buries the table.
            note = item["note"] if item["card"] != last else ""
            table.add_row(item["name"], item["field"], _show(item["value"]), note)
            last = item["card"]
        out.print(table)
    if cardsdb.profile(args.game).get("filler", True):
        out.print("\n[bold]Simulation filler[/] (made-up cards so whole games can be simulated; enroll yours to replace them)")
        for row in rep["simulation"]:
            out.print("  " + row["summary"])
    else:
        out.print("\n[bold]Cards per type[/]: " + ", ".join("%d %s" % (r["total"], r["label"]) for r in rep["simulation"]),
                  highlight=False)
    _print_extras(out, rep)
    out.print("\n[bold]Your enrolled cards[/] (%s)" % rep["owner_file"])
    if not rep["owner"]:
        out.print("  none yet: `maester cards add %s --help`" % args.game if "types" in cardsdb.profile(args.game)
                  else "  none yet: write corrected records there (same ids as the shipped ones)")
    else:
        table = rich_table.Table()
        for col in ("id", "name", "type", "you gave", "corrects"):
            table.add_column(col, overflow="fold")
        for c in rep["owner"]:
            table.add_row(c["id"], c["name"], c["type"], ", ".join("%s=%s" % kv for kv in c["given"].items()),
                          c["corrects"] or "")
        out.print(table)
    return 1 if problems else 0


def _print_extras(out, rep):
    """What only some games report: their starter decks, errata, and the abilities the engine implements."""
    if rep.get("decks"):
        kinds = list(dict.fromkeys(k for d in rep["decks"] for k in d["kinds"] if k != "plots"))
        table = rich_table.Table(title="Starter decks", title_justify="left")
        for col in ["deck", "draw", "plots"] + kinds:
            table.add_column(col)
        for d in rep["decks"]:
            table.add_row(d["deck"], str(d["draw"]), str(d["plots"]), *(str(d["kinds"].get(k, 0)) for k in kinds))
        out.print(table)
    if rep.get("errata"):
        table = rich_table.Table(title="Errata and FAQ rulings (%d cards)" % len(rep["errata"]), title_justify="left")
        for col in ("card", "name", "ruling"):
            table.add_column(col, overflow="fold")
        for e in rep["errata"]:
            table.add_row(e["card"], e["name"], e["errata"])
        out.print(table)
    ab = rep.get("abilities")
    if ab:
        total = len(ab["implemented"]) + len(ab["by_hand"])
        out.print("\n[bold]Card abilities[/]: the engine implements %d of %d; the other %d play with their "
                  "printed stats and keywords only, their ability not yet in the engine"
                  % (len(ab["implemented"]), total, len(ab["by_hand"])), highlight=False)
        for label, codes in (("implemented", ab["implemented"]), ("not yet", ab["by_hand"])):
            if codes:
                out.print("  %s: %s" % (label, " ".join(codes)), highlight=False)


# --- add --------------------------------------------------------------------------------------

def slug(name):
    """'Jaqen H'ghar' -> 'jaqen-hghar': ASCII, lowercase, words joined by hyphens."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower().replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def _allowed(game, opt, given):
    """The values an option accepts, given the options known so far (None: any)."""
    prof = cardsdb.profile(game)
    kind = given.get("type")
    if opt == "type":
        return sorted(prof["types"])
    if opt == "colour":
        return {"event": ["blue"], "leader": ["white"]}.get(kind, ["red", "green", "purple"])
    if opt == "ability":
        known = cardsdb.abilities(game)
        keys = known[prof["types"][kind]] if kind else set().union(*known.values())
        return sorted(keys - {"manual"}) + ["manual", "none"]
    if opt == "leader":
        return [l["id"] for l in check.read_json(cardsdb.db_root() / game / "cards.json")["leaders"]]
    return None


def _needed(kind):
    """The options a card of this type must have, in the order they are asked."""
    if kind is None:
        return ["name", "type", "ability"]
    if kind == "ally":
        return ["name", "type", "power", "ability"]
    return ["name", "type"] + (["colour"] if kind == "standard" else []) + ["value"] + \
        (["leader"] if kind == "leader" else []) + ["ability"]


# Options that make no sense for a type: refused rather than silently dropped.
FOREIGN = {"ally": ("colour", "value", "leader"), "standard": ("power", "leader"),
           "event": ("power", "leader"), "leader": ("power",)}


def _parse(game, opt, raw, given):
    """Check one option's value; raise ValueError naming what is allowed."""
    if opt in ("power", "value", "copies"):
        try:
            return int(raw)
        except (TypeError, ValueError):
            raise ValueError("--%s must be a whole number, not %r" % (opt, raw)) from None
    allowed = _allowed(game, opt, given)
    if allowed is not None and raw not in allowed:
        raise ValueError("--%s %r is not allowed; choose one of: %s" % (opt, raw, ", ".join(allowed)))
    return raw


def _tty():
    return sys.stdin is not None and sys.stdin.isatty()


# What an empty answer means at the prompt of an optional option.
OPTIONAL = {"ability": "none"}


def _ask(game, opt, given):
    """Prompt until the answer is valid.

    An empty answer is the option's default if it is optional ("none" for the ability), else the
    question is asked again. Ctrl-D (end of input) stops, and nothing is written.
    """
    allowed = _allowed(game, opt, given)
    hint = " [%s]" % ", ".join(allowed) if allowed else ""
    if opt in OPTIONAL:
        hint += " (Enter: %s)" % OPTIONAL[opt]
    while True:
        try:
            raw = input("%s%s: " % (opt, hint)).strip() or OPTIONAL.get(opt, "")
        except EOFError:
            print(file=sys.stderr)  # end the prompt's line
            raise ValueError("stopped at the %s prompt; nothing written" % opt) from None
        if not raw:
            print("%s is needed (Ctrl-D stops, writing nothing)" % opt, file=sys.stderr)
            continue
        try:
            return _parse(game, opt, raw, given)
        except ValueError as e:
            print(e, file=sys.stderr)


def _gather(args, base):
    """The options the owner gave, then asked for on a terminal; missing ones are an error.

    When correcting a card (base is its current record) only what changes need be given.
    """
    raw = {opt: getattr(args, opt) for opt in ADD_OPTIONS + ("copies",) if getattr(args, opt) is not None}
    given, missing = {}, []
    kind = None

    def ask(opt):
        value = _ask(args.game, opt, dict(given, type=kind)) if _tty() else None
        if value is None:
            missing.append("--" + opt)
        else:
            given[opt] = value

    if "name" in raw:
        given["name"] = raw.pop("name")
    elif not base:
        ask("name")
    # The type next: the colours, abilities and numbers allowed depend on it.
    if "type" in raw:
        kind = given["type"] = _parse(args.game, "type", raw.pop("type"), given)
    elif base:
        kind = base.get("kind") or "ally"
    else:
        ask("type")
        kind = given.get("type")
    for opt, value in raw.items():
        if kind and opt in FOREIGN[kind]:
            raise ValueError("--%s does not apply to a card of type %s" % (opt, kind))
        given[opt] = _parse(args.game, opt, value, dict(given, type=kind))
    for opt in _needed(kind)[2:]:  # name and type are settled above
        if opt not in given and not (base and opt in base):
            ask(opt)
    if missing:
        raise ValueError("missing %s (not asked for because stdin is not a terminal); nothing written. "
                         "See `maester cards add --help`" % ", ".join(missing))
    return given


def _build(game, given, base, note):
    """The card record: the fields the owner gave with src 'owner', the rest from the base record."""
    card = {k: v for k, v in (base or {}).items() if k not in ("src", "simulation")}
    src = dict((base or {}).get("src") or {})
    kind = given.get("type") or card.get("kind") or "ally"
    section = cardsdb.profile(game)["types"][kind]
    for field, value in given.items():
        if field == "type":
            if section == "influence":
                card["kind"], src["kind"] = kind, "owner"
            continue
        card[field] = None if (field, value) == ("ability", "none") else value
        src[field] = "owner"
    if kind in COLOUR and card.get("colour") != COLOUR[kind]:
        card["colour"], src["colour"] = COLOUR[kind], "owner"  # the type the owner gave fixes the colour
    if kind != "leader":
        card.pop("leader", None)
    if "copies" not in card:
        card["copies"], src["copies"] = 1, "assumed"  # the default; nobody counted them
    card.setdefault("text", "Enrolled from the owner's box.")
    if note:
        card["note"] = note
    src.setdefault("name", "owner")
    card["src"] = src
    return section, card


def _write_atomic(path, doc):
    """Write JSON so a crash leaves the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def cmd_add(args):
    game = args.game
    prof = cardsdb.profile(game)
    if "types" not in prof:
        raise ValueError("`maester cards add` cannot enroll %s cards yet; correct a value by writing the record "
                         "to %s (same id as in cards_db/%s/cards.json) and run `maester cards check %s`"
                         % (game, cardsdb.owner_file(game), game, game))
    path = cardsdb.owner_file(game)
    owner = cardsdb.read_owner(game)
    if owner is None:
        owner = {"game": game}
    shipped = check.read_json(cardsdb.db_root() / game / "cards.json")
    cardsdb.check_owner(game, owner, shipped)  # cards enrolled before must be sound before one is added
    # The id says whether this corrects a card, so the name comes first when there is no --id.
    if args.name is None and args.id is None:
        args.name = _ask(game, "name", {}) if _tty() else None
        if not args.name:
            raise ValueError("missing --name (or --id of the card to correct); nothing written")
    cid = args.id or slug(args.name)
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", cid):
        raise ValueError("card id %r must be lowercase words joined by hyphens, e.g. 'royal-decree'" % cid)
    if cid.startswith(cardsdb.SIM_PREFIX):
        raise ValueError("ids starting with %r are kept for simulation filler" % cardsdb.SIM_PREFIX)

    def find(doc):
        return next(((s, c) for s, c in cardsdb.records(doc, prof["sections"]) if c.get("id") == cid), (None, None))

    own_section, own = find(owner)
    if own and not args.replace:
        raise ValueError("you already enrolled %r (%s); add --replace to replace it. Nothing written"
                         % (cid, own["name"]))
    ship_section, ship = find(shipped)
    # With --replace, unstated fields keep what the owner enrolled before; else the shipped values.
    base, base_section = (own, own_section) if own else (ship, ship_section)

    given = _gather(args, base)
    section, card = _build(game, given, base, args.note)
    if base and section != base_section:
        raise ValueError("%r is a card of another type (%s); enroll this one under another --id" % (cid, base_section))
    card = dict({"id": cid}, **{k: v for k, v in card.items() if k != "id"})  # id first, as in cards.json

    # The owner file as it would be, checked like `maester cards check` does, before anything is written.
    doc = {k: [c for c in v if c.get("id") != cid] if k in prof["sections"] else v for k, v in owner.items()}
    doc.setdefault(section, []).append(card)
    leader_ids = {l["id"] for l in shipped["leaders"]}
    problems = cardsdb.schema_problems(game, "owner_file", doc, "card") + \
        cardsdb.record_problems(game, doc, "card", leader_ids)
    if problems:
        raise ValueError("the card is not valid, nothing written:\n  " + "\n  ".join(problems))
    _write_atomic(path, doc)
    cardsdb.forget_cache()  # the next load() must see the new card

    out = rich_console.Console()
    out.print("%s %s (%s) in %s" % ("Replaced" if own else "Enrolled", card["name"], cid, path), highlight=False)
    if ship:
        out.print("It corrects the shipped record for %s." % ship["name"], highlight=False)
    table = rich_table.Table("field", "value", "source")
    for field in ("name", "kind", "colour", "value", "power", "leader", "copies", "ability", "text", "note"):
        if field in card:
            table.add_row(field, _show(card[field]), card["src"].get(field, ""))
    out.print(table)
    row = check.filler_left(game, check.kind_of(section, card))
    out.print("%d of %d %s are still simulation filler." % (row["filler"], row["total"], row["label"]),
              highlight=False)
    if card.get("leader"):
        # Leader cards are filled per leader, so say how many of this leader's remain.
        data = cardsdb.load(game)
        name = next(l["name"] for l in data["leaders"] if l["id"] == card["leader"])
        mine = [c for c in data["influence"] if c["kind"] == "leader" and c["leader"] == card["leader"]]
        out.print("%d of %s's %d leader cards are still simulation filler." % (
            sum(c["copies"] for c in mine if c.get("simulation")), name, sum(c["copies"] for c in mine)),
            highlight=False)
    for p in check.count_problems(game):
        out.print("[yellow]warning:[/] " + p, highlight=False)
    return 0
