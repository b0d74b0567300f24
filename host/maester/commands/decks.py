"""`maester decks check FILE [--casual]`: is a deck list legal (the LCG's deck construction rules)?
`maester decks import FILE [--out FILE] [--force] [--house HOUSE]`: an OCTGN .o8d deck or a deck
builder's text export, written as our deck list."""

import os
import sys
from pathlib import Path

from .. import lazy
from ..cards.db import db_root

D = lazy.Module("maester.games.lcg.decks")  # the LCG's rules only when a deck is checked (start-up)


def starter_decks():
    """The starter deck files maester carries (cards_db/lcg/decks/), by name: {"stark": path, ...}."""
    return {p.stem: p for p in sorted((db_root() / "lcg" / "decks").glob("*.txt"))}


def deck_file(name):
    """FILE as given, or, for a bare name that is no file here (`stark`), that starter deck's file."""
    path = Path(name)
    if not path.exists() and path.name == name and not path.suffix:
        return starter_decks().get(name.lower(), path)
    return path


def _unreadable(name, e):
    """Exit 2 with one line: the deck file cannot be opened (OSError) or is no deck file (ValueError:
    not a file, too big, not text, not XML: decks.read)."""
    if isinstance(e, OSError):
        print("maester: cannot read the deck %s: %s" % (name, e.strerror or e), file=sys.stderr)
    else:
        print("maester: %s" % e, file=sys.stderr)
    return 2


def cmd_check(args):
    """Print each problem with its line; exit 1 when the deck is not legal, 0 when it is, 2 when the
    file cannot be read."""
    try:
        deck, problems = D.check(deck_file(args.file), casual=args.casual)
    except (OSError, ValueError) as e:
        return _unreadable(args.file, e)
    mode = "casual" if args.casual else "tournament"
    for line, text in problems:
        print("%s:%s %s" % (args.file, " line %d:" % line if line else "", text))
    draw, plots = len(deck["draw"]), len(deck["plots"])
    house = (deck["house"] or "no House").capitalize()
    if problems:
        print("%s: not legal for %s play (%d problem%s): %s, %d cards, %d plots"
              % (args.file, mode, len(problems), "" if len(problems) == 1 else "s", house, draw, plots))
        return 1
    print("%s: legal for %s play: %s, %d cards, %d plots" % (args.file, mode, house, draw, plots))
    return 0


def default_out(src):
    """Where an import is written when --out is not given: next to the input, named as it is with
    .txt (NAME-maester.txt when the input is a .txt itself); standard output for standard input."""
    if src == "-":
        return "-"
    path = Path(src)
    if path.suffix.lower() == ".txt":
        return str(path.with_name(path.stem + "-maester.txt"))
    return str(path.with_suffix(".txt"))


def _refuse_out(out, src, force):
    """Why the deck cannot be written to `out` (None when it can)."""
    if out == "-":
        return None
    path = Path(out)
    if path.is_dir():
        return "%s is a folder: give --out FILE" % out
    if src != "-" and path.exists() and os.path.exists(src) and os.path.samefile(path, src):
        return "%s is the file being imported: give another --out" % out
    if (path.exists() or path.is_symlink()) and not force:
        return "%s is there already: give --force to write over it, or another --out" % out
    return None


def _write(out, text):
    """`text` to `out` whole or not at all: a temporary file next to it, then renamed over it."""
    if out == "-":
        sys.stdout.write(text)
        return
    tmp = "%s.%d.tmp" % (out, os.getpid())
    try:
        with open(tmp, "x", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def cmd_import(args):
    """Read FILE, print what was not matched (exit 2, nothing written) or write our deck list and
    say what it holds and whether it is legal (exit 0)."""
    if not args.file:
        print("maester: decks import: give the deck file (or - for standard input)", file=sys.stderr)
        return 2
    out = args.out or default_out(args.file)
    try:
        refused = _refuse_out(out, args.file, args.force)
    except OSError as e:  # a name too long, a loop of links
        refused = "cannot write %s: %s" % (out, e.strerror or e)
    if refused:
        print("maester: %s" % refused, file=sys.stderr)
        return 2
    table = D._table()
    house = args.house.strip().lower() if args.house is not None else None
    if house is not None and house not in table["houses"]:
        print("maester: --house %r: the Houses are %s" % (args.house, ", ".join(table["houses"])), file=sys.stderr)
        return 2
    try:
        deck, entries, problems, info = D.import_file(args.file, house, table)
    except (OSError, ValueError) as e:
        return _unreadable(args.file, e)
    if problems:
        for line, text in problems:
            print("%s:%s %s" % (args.file, " line %d:" % line if line else "", text), file=sys.stderr)
        print("maester: nothing written: %d problem%s in %s" % (len(problems), "" if len(problems) == 1 else "s",
                                                                args.file), file=sys.stderr)
        return 2
    name = "stdin" if out == "-" else Path(out).stem
    deck["name"] = name
    source = "standard input" if args.file == "-" else Path(args.file).name
    comment = "%s\nimported from %s by maester decks import" % (info["title"] or name, source)
    try:
        _write(out, D.write(deck, table, comment))
    except OSError as e:  # no such folder, no permission, a full disk: nothing half-written
        print("maester: cannot write %s: %s" % (out, e.strerror or e), file=sys.stderr)
        return 2
    say = sys.stderr if out == "-" else sys.stdout
    if info["format"] == "o8d":
        print("%s: an OCTGN deck%s: its cards read by name" % (
            args.file, " (game %s)" % info["game"][:60] if info["game"] else ""), file=say)
    if info["title"]:
        print("title: %s" % info["title"], file=say)
    if info["house_from"] != "file":
        print("House: %s (%s: the file names none)" % (deck["house"].capitalize(), "--house" if
              info["house_from"] == "option" else "the House its cards share"), file=say)
    casual = [t for _, t in D.rules_problems(deck, table, True, entries)]
    tournament = [t for _, t in D.rules_problems(deck, table, False, entries)]
    verdict = ("legal for tournament play" if not tournament else
               "legal for casual play only (%s)" % "; ".join(tournament) if not casual else
               "not legal (%s): maester decks check %s says where" % ("; ".join(casual), out))
    print("wrote %s: %s, %d cards, %d plots: %s" % ("standard output" if out == "-" else out,
                                                     deck["house"].capitalize(), len(deck["draw"]),
                                                     len(deck["plots"]), verdict), file=say)
    if out != "-" and not casual:
        print("play it: maester play lcg --decks %s,stark" % out, file=say)
    return 0


def register(sub):
    p = sub.add_parser("decks", help="LCG deck lists: check one against the deck construction rules, import one",
                       description="Deck lists for the LCG (A Game of Thrones: The Card Game) as plain text: "
                                   "`3x Card Name` lines (also `3 Card Name`; a name alone is one copy), a "
                                   "`House: Stark` line, plots the same way (after a `Plots:` line, or known by "
                                   "their type), `#` comments. `decks check stark` checks a starter deck (stark, lannister, baratheon, "
                                   "targaryen: the Core's four, as files maester carries in cards_db/lcg/decks/). "
                                   "Play one with --decks FILE,FILE on play, sim, demo and bench. `decks import` "
                                   "reads OCTGN .o8d decks and deck builders' text exports; check, play and sim "
                                   "take those files too.")
    dsub = p.add_subparsers(dest="decks_command", metavar="COMMAND")
    c = dsub.add_parser("check", help="check a deck list: tournament rules, or casual with --casual",
                        description="The tournament rules of the rulebook: exactly 7 plots and no duplicate plot "
                                    "(unless the plot allows 2 copies), at least 60 cards in the House deck, at most "
                                    "3 copies of a card by name, no \"House X only\" card unless the deck's House is "
                                    "X, and the cards' own \"Limit 1 per deck\"/\"per plot deck\". --casual allows "
                                    "fewer than 60 cards (the Core's 45-card starter decks) and keeps the rest. "
                                    "Prints each problem with its line; exits 0 when legal, 1 when not, 2 when the "
                                    "file cannot be read.")
    c.add_argument("file", metavar="FILE", help="the deck list (ours, an OCTGN .o8d or a deck builder's export), "
                                                "or a starter deck's name (stark)")
    c.add_argument("--casual", action="store_true", help="casual play: any number of cards in the House deck")
    c.set_defaults(func=cmd_check)
    i = dsub.add_parser("import", help="an OCTGN .o8d deck or a deck builder's text export, as our deck list",
                        description="Reads an OCTGN deck file (.o8d: its cards are read by name, whatever OCTGN game "
                                    "definition its `game` attribute names) or the plain-text export of a deck "
                                    "builder (`3x Card Name` lines, `3 Card Name` or `Card Name x3`, a set such as "
                                    "\"(Core Set)\" after the name or not, section headers such as \"Characters (20)\" "
                                    "or \"Plots:\", a title line) and writes it as our deck list (see `maester decks "
                                    "--help`). A name that matches no card is printed with the closest names, and "
                                    "nothing is written (exit 2). The House is the file's, else --house, else the one "
                                    "its cards share. The output goes next to FILE, named as FILE with .txt "
                                    "(NAME-maester.txt for a .txt), never over a file that is there unless --force. "
                                    "Prints what it wrote and whether it is legal; exits 0 when written.")
    i.add_argument("file", metavar="FILE", help="the deck file (.o8d or text); - reads standard input")
    i.add_argument("--out", metavar="FILE", help="where to write our deck list (- for standard output)")
    i.add_argument("--force", action="store_true", help="write over the output file when one is there")
    i.add_argument("--house", metavar="HOUSE", help="the deck's House when the file names none (stark, ...)")
    i.set_defaults(func=cmd_import)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])
