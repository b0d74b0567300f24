"""`maester decks check FILE [--casual]`: is a deck list legal (the LCG's deck construction rules)?"""

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


def cmd_check(args):
    """Print each problem with its line; exit 1 when the deck is not legal, 0 when it is, 2 when the
    file cannot be read."""
    try:
        deck, problems = D.check(deck_file(args.file), casual=args.casual)
    except OSError as e:
        print("maester: cannot read the deck %s: %s" % (args.file, e.strerror or e), file=sys.stderr)
        return 2
    except ValueError as e:  # not a file, too big, not text (decks.read)
        print("maester: %s" % e, file=sys.stderr)
        return 2
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


def register(sub):
    p = sub.add_parser("decks", help="LCG deck lists: check one against the deck construction rules",
                       description="Deck lists for the LCG (A Game of Thrones: The Card Game) as plain text: "
                                   "`3x Card Name` lines (also `3 Card Name`; a name alone is one copy), a "
                                   "`House: Stark` line, plots the same way (after a `Plots:` line, or known by "
                                   "their type), `#` comments. `decks check stark` checks a starter deck (stark, lannister, baratheon, "
                                   "targaryen: the Core's four, as files maester carries in cards_db/lcg/decks/). "
                                   "Play one with --decks FILE,FILE on play, sim, demo and bench.")
    dsub = p.add_subparsers(dest="decks_command", metavar="COMMAND")
    c = dsub.add_parser("check", help="check a deck list: tournament rules, or casual with --casual",
                        description="The tournament rules of the rulebook: exactly 7 plots and no duplicate plot "
                                    "(unless the plot allows 2 copies), at least 60 cards in the House deck, at most "
                                    "3 copies of a card by name, no \"House X only\" card unless the deck's House is "
                                    "X, and the cards' own \"Limit 1 per deck\"/\"per plot deck\". --casual allows "
                                    "fewer than 60 cards (the Core's 45-card starter decks) and keeps the rest. "
                                    "Prints each problem with its line; exits 0 when legal, 1 when not, 2 when the "
                                    "file cannot be read.")
    c.add_argument("file", metavar="FILE", help="the deck list, or a starter deck's name (stark)")
    c.add_argument("--casual", action="store_true", help="casual play: any number of cards in the House deck")
    c.set_defaults(func=cmd_check)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])
