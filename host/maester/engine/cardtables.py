"""Card tables kept once per process, out of the game state, named by a hash of their content.

A game's card table (every printed fact it uses) never changes during a game and weighs far more
than the rest of the state (58 KB of a 63 KB B'Twixt state). So the state's config holds only its
key, a hash of the table's canonical JSON, and the table lives here. A JSON dump, a deep copy or a
log header of the state then pays for a short string; the log keeps the table itself once, in its
header, and registers it again on resume (see log.py), so a replay never depends on cards_db.

Tables are frozen once registered: never change one in place (copy it, and register the copy).
"""

import hashlib
import json

_BY_KEY = {}  # key -> table
_BY_ID = {}  # id(table) -> key: the same object is hashed once (it stays alive in _BY_KEY)


class CardTableError(ValueError):
    """A key with no table registered, or a table whose content does not match its key."""


def canonical(table):
    """The bytes a key is the hash of: JSON with sorted keys and no spaces."""
    return json.dumps(table, sort_keys=True, separators=(",", ":")).encode()


def digest(table):
    return "ct-" + hashlib.blake2b(canonical(table), digest_size=16).hexdigest()


def register(table, key=None):
    """Keep `table` and return its key. With `key` (a table read back from a log), the table must
    hash to it, else CardTableError: it was changed since it was logged."""
    known = _BY_ID.get(id(table))
    if known is not None and (key is None or key == known):
        return known
    actual = digest(table)
    if key is not None and key != actual:
        raise CardTableError("the card table does not match its hash (%s, but it hashes to %s): it was changed "
                             "after it was recorded" % (key, actual))
    table = _BY_KEY.setdefault(actual, table)
    _BY_ID[id(table)] = actual
    return actual


def get(key):
    """The table registered under `key`."""
    try:
        return _BY_KEY[key]
    except (KeyError, TypeError):
        raise CardTableError("no card table %r is known to this process (a game's table is registered when the game "
                             "is made or its log is read)" % (key,)) from None


def table(state):
    """The card table of a game: its state, or a log header (anything with the game's config)."""
    return get(state["config"]["cards"])


def of_config(config):
    """The card table a config names; `{}` when it names none. (A log from before tables left the
    state holds the table itself in its header's config.)"""
    key = config.get("cards")
    if key is None or isinstance(key, dict):
        return key or {}
    return get(key)
