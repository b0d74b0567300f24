"""The games. Each sub-package registers a `Game` with the engine when imported."""

import importlib

NAMES = ("btwixt", "intrigue", "oathbreaker", "lcg")


def load(name):
    if name not in NAMES:
        raise ValueError("unknown game %r (known: %s)" % (name, ", ".join(NAMES)))
    importlib.import_module("%s.%s" % (__name__, name))
