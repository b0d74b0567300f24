"""The games: what every room says of them before a game's rules are loaded, and `load`.

Each sub-package registers a `Game` with the engine when imported (`load`, by name). The facts here
are what the command line, the table and the pages name a game by: its title, its seats and its
variants, kept in step with each game's own `check_config` (tests/test_cli.py checks them). This
module imports nothing of maester, so a command's `--help` may read it (issue 16, start-up).
"""

import importlib

NAMES = ("btwixt", "intrigue", "oathbreaker", "lcg")
TITLES = {"btwixt": "B'Twixt", "intrigue": "Westeros Intrigue", "oathbreaker": "Oathbreaker",
          "lcg": "A Game of Thrones: The Card Game"}
SHORT_TITLES = {"btwixt": "B'Twixt", "intrigue": "Intrigue", "oathbreaker": "Oathbreaker", "lcg": "LCG"}
PLAYERS = {"btwixt": (3, 6), "intrigue": (2, 6), "oathbreaker": (5, 8), "lcg": (2, 6)}  # fewest, most
# The LCG's default is the joust (two players): the Core box calls itself a four-player game, but
# its two-player game is the same game without titles, the one most played, and the shortest demo.
DEFAULT_PLAYERS = {"btwixt": 4, "intrigue": 4, "oathbreaker": 6, "lcg": 2}
VARIANTS = {"btwixt": ("advanced", "draft", "kingsmoot", "revealed", "short"),
            "intrigue": ("floor", "mat", "most_swords", "narrow_two", "winner_exempt", "winner_starts"),
            "oathbreaker": ("aloof_king", "cagey_court", "night_is_dark", "order_in_court"),
            "lcg": ("littlefinger", "two_on_two")}
DECK_GAMES = ("lcg",)  # games whose players each bring a deck (--decks)
STARTER_DECKS = ("stark", "lannister", "baratheon", "targaryen")  # the LCG Core Set's, in the order of the box


def load(name):
    if name not in NAMES:
        raise ValueError("unknown game %r (known: %s)" % (name, ", ".join(NAMES)))
    importlib.import_module("%s.%s" % (__name__, name))


def part(name, room):
    """Game `name`'s own module for a room (its "table", "web", "tui", "text"...), found by the game's
    name, or None when the game has none. The rooms reach a game's parts this way, so none imports a
    game, and a game plugs in by its folder alone."""
    module = "%s.%s.%s" % (__name__, name, room)
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name and (module == e.name or module.startswith(e.name + ".")):  # no such part, or game
            return None
        raise  # something the part imports is missing: a bug to see, not to hide
