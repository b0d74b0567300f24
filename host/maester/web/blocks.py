"""The pieces a game's page layout is made of, as plain data that static/render.js draws.

A game's `web.py` may offer `table_blocks(view, words)` (the TV page) and `seat_blocks(view, words,
seat)` (a phone: {"about": blocks next to the decision, "board": the table, "secret": the seat's
hand and secrets}). Each builds its blocks from the viewer's view alone, with the game's words, so
a block can hold no more than the view did, and no engine field name reaches a screen: every label
is written here by the game, in its own words. A game without a layout gets the generic renderer.

Blocks (every "title" optional):
    facts    {"items": [[label, value], ...]}                  a few big labelled values
    track    {"cells": [{"label", "state"}], "caption"}        a row of spaces: state done/now/todo/off
    cards    {"cards": [card], "empty"}                        a row of cards by name
    seats    {"columns": [...], "rows": [{"seat", "name", "cells", "tags"}]}  one row a seat
    pyramid  {"rows": [[card or slot or None]]}                top row first; see `slot`
    panels   {"items": [{"title", "lines", "tags", "cards", "groups"}]}   side-by-side boxes (missions,
             councils, a seat); "groups": [[label, [card]]], labelled rows of cards under the lines
    text     {"text", "tone"}                                  a sentence (tone: muted, good, bad)
A cell of a seats row is a string or a list of cards. On the TV page a block may carry "column": 0
or 1: the board is then drawn as two columns (the first narrower), instead of blocks flowing in rows.
A seats row or a panel may carry "target", like a `slot`: a place to tap in a two-step choice (the
game's `option_mark` names it as "at"; an Oathbreaker mission, a noble for a decree).
"""


def block(kind, title=None, **fields):
    out = {"type": kind}
    if title:
        out["title"] = title
    out.update(fields)
    return out


def card(words, inst, note=None, tags=(), house=None):
    """A card by its name (never its id); `house` colours its border (stark, lannister, ...)."""
    out = {"id": inst, "name": words.card(inst) or "a card"}  # the id is for tests; pages show the name
    if house:
        out["house"] = house
    if note:
        out["note"] = note
    if tags:
        out["tags"] = list(tags)
    return out


def cards(words, title, insts, empty="none", notes=None, house=None):
    """A row of cards; `house(inst)` gives each card's house when the game has houses."""
    notes = notes or {}
    return block("cards", title, cards=[card(words, c, notes.get(c), house=house(c) if house else None)
                                        for c in insts], empty=empty)


def facts(items, title=None):
    return block("facts", title, items=[[label, str(value)] for label, value in items if value is not None])


def track(title, cells, caption=None):
    return block("track", title, cells=cells, caption=caption)


def seats(title, columns, rows):
    return block("seats", title, columns=list(columns), rows=rows)


def seat_row(words, seat, cells, tags=()):
    return {"seat": seat, "name": words.seat(seat), "cells": list(cells), "tags": [t for t in tags if t]}


def slot(target=None):
    """An empty place in a pyramid; `target` names it when a card may be placed there."""
    return {"slot": True, "target": target}


def pyramid(title, rows):
    return block("pyramid", title, rows=rows)


def panels(title, items):
    return block("panels", title, items=items)


def text(words_text, tone=None):
    return block("text", None, text=words_text, tone=tone)
