"""Checks every game's config shares: the player count, lists of named options, seats, the card table.

Each raises ValueError with a reason a person can act on; `maester` prints it and exits 2.
"""


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
    """The card table frozen into the config: the one a saved game carries, else `build(owner)`."""
    owner = config.pop("owner_cards", True)
    config["cards"] = config.get("cards") or build(owner=owner)
    return config["cards"]
