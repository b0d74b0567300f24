"""Reading a game's page layout in tests: its blocks for a viewer, their words, their card chips.

`table(state)` and `seat(state, s)` build the blocks exactly as the pages get them (web/payload.py's
`layout`, from that viewer's view alone); `texts` gives every word a page would show of them, and
`chips` every card chip they hold.
"""

from maester.engine import PUBLIC, core
from maester.web.payload import Words, layout


def blocks_for(state, viewer):
    view = core.view(state, viewer)
    return layout(state, view, Words(state, view, viewer), viewer)


def table(state):
    return blocks_for(state, PUBLIC)


def seat(state, s):
    return blocks_for(state, s)


def texts(value, out=None):
    """Every string in some blocks, as the page would show them (card ids, places to tap and other
    fields for the page's code left out: never shown)."""
    out = [] if out is None else out
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in ("id", "type", "house", "tags", "state", "seat", "target"):
                texts(v, out)
    elif isinstance(value, list):
        for v in value:
            texts(v, out)
    return out


def chips(blocks):
    """Every card chip in some blocks."""
    out = []

    def walk(x):
        if isinstance(x, dict):
            if "id" in x and "name" in x:
                out.append(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(blocks)
    return out


def card_names(blocks):
    return [c["name"] for c in chips(blocks)]
