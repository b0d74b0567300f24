"""Checks every game's config shares: the player count, lists of named options, seats, the card table.

Each raises ValueError with a reason a person can act on; `maester` prints it and exits 2.
"""

from . import cardtables


def players(config, low, high, title):
    n = config.get("players")
    if not isinstance(n, int) or isinstance(n, bool) or not low <= n <= high:
        raise ValueError("%s is for %d to %d players, not %r" % (title, low, high, n))
    return n


def options(config, key, allowed, unknown):
    """config[key] as a sorted list without repeats, every entry one of `allowed`.

    `unknown` words the refusal, with %r for the entry: "unknown variant %r".
    """
    chosen = sorted(set(config.get(key) or ()))
    for item in chosen:
        if item not in allowed:
            raise ValueError((unknown + " (choose from %s)") % (item, ", ".join(sorted(allowed))))
    config[key] = chosen
    return chosen


def seat(value, n, what):
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ValueError("%s must be a seat from 0 to %d, not %r" % (what, n - 1, value))
    return value


def cards(config, build):
    """The game's card table, registered (engine/cardtables.py), with only its key left in the config.

    `config["cards"]` may already name one (a key: a saved game's, registered when its log was
    read) or hold a table (a test's own); without it the table is `build(owner)`.
    """
    owner = config.pop("owner_cards", True)
    given = config.get("cards")
    if isinstance(given, str):
        table = cardtables.get(given)
    else:
        table = given or build(owner=owner)
        config["cards"] = cardtables.register(table)
    return table
