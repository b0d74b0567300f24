"""What each viewer may see of an Oathbreaker game.

Public: the tracks, the missions with how many cards each seat put on each (never which), the
sigils, revealed piles (sorted), decrees in front of nobles, cubes, hand sizes, announced guesses.
A noble also sees their hand, loyalty, ambition, the cards they played this round and what they
learned privately (notes). A monarch sees their decree hand, and at 8 players the partner's.
Loyalties, ambitions and the Agent become public with the reveal at the end.
"""

from ...engine import PUBLIC, REFEREE
from . import zones as Z


def mission_view(m):
    out = {"card": m["card"], "type": m["type"], "counts": list(m["counts"]), "sigils": list(m["sigils"]),
           "face_up": list(m["face_up"]), "extra": m["extra"], "taken": m["taken"], "cards": len(m["cards"]),
           "result": None}
    r = m["result"]
    if r is not None:
        out["result"] = dict(r, revealed=list(r["revealed"]), rewards=dict(r["rewards"]))
    return out


def _space(g):
    return g["track"][g["space"]] if g["space"] < len(g["track"]) else {"round": "end"}


def _partner_hand(state, g, viewer):
    return list(g["decree_hands"][Z.partner(g, viewer)])


# The view is a table of fields, each a function of (state, g, viewer), so that a bot's LazyView
# (engine/lazyview.py) computes only the fields it reads. Which fields a viewer gets is decided by
# view_keys and nowhere else.
FIELDS = {
    "game": lambda state, g, v: "oathbreaker",
    "players": lambda state, g, v: g["n"],
    "king": lambda state, g, v: g["king"],
    "queen": lambda state, g, v: g["queen"],
    "monarchs": lambda state, g, v: list(g["monarchs"]),
    "nobles": lambda state, g, v: list(g["nobles"]),
    "judge": lambda state, g, v: list(g["judge"]),
    "hand_of_king": lambda state, g, v: g["hand_of_king"],
    "phase": lambda state, g, v: g["phase"],
    "space": lambda state, g, v: g["space"],
    "track": lambda state, g, v: [dict(s) for s in g["track"]],
    "round": lambda state, g, v: dict(_space(g)),
    "rounds_played": lambda state, g, v: g["rounds_played"],
    "order": lambda state, g, v: g["order"],
    "chaos": lambda state, g, v: g["chaos"],
    "track_length": lambda state, g, v: g["track_length"],
    "agent_in_game": lambda state, g, v: g["agent"] is not None,
    "variants": lambda state, g, v: list(g["variants"]),
    "characters": lambda state, g, v: list(g["characters"]),
    "used": lambda state, g, v: list(g["used"]),
    "cubes": lambda state, g, v: [dict(zip(Z.RES, c)) if c is not None else None for c in g["cubes"]],
    "hand_sizes": lambda state, g, v: [len(h) for h in g["hands"]],
    "decree_hand_sizes": lambda state, g, v: [len(h) for h in g["decree_hands"]],
    "deck": lambda state, g, v: len(g["deck"]),
    "discard": lambda state, g, v: len(g["discard"]),
    "decree_deck": lambda state, g, v: len(g["decree_deck"]),
    "mission_deck": lambda state, g, v: len(g["mission_deck"]),
    "missions_done": lambda state, g, v: list(g["missions_done"]),
    "missions": lambda state, g, v: [mission_view(m) for m in g["missions"]],
    "history": lambda state, g, v: [dict(h, counts=list(h["counts"]), sigils=list(h["sigils"]),
                                         face_up=list(h["face_up"]), revealed=list(h["revealed"]))
                                    for h in g["history"]],
    "decrees": lambda state, g, v: [[dict(d) for d in held] for held in g["decrees"]],
    "cells": lambda state, g, v: list(g["cells"]),
    "pending_cells": lambda state, g, v: list(g["pending_cells"]),
    "pending_cornered": lambda state, g, v: [list(x) for x in g["pending_cornered"]],
    "barred": lambda state, g, v: [list(x) for x in g["barred"]],
    "resolving": lambda state, g, v: list(g["resolving"]),
    "confessed": lambda state, g, v: sorted(s for s, _ in g["confessed"]),
    "guesses": lambda state, g, v: list(g["guesses"]),
    "trade_used": lambda state, g, v: g["trade_used"],
    "reshuffles": lambda state, g, v: g["reshuffles"],
    # once revealed (or the game is over), and for the referee
    "loyalty": lambda state, g, v: list(g["loyalty"]),
    "ambition": lambda state, g, v: list(g["ambition"]),
    "agent": lambda state, g, v: g["agent"],
    # the referee only
    "hands": lambda state, g, v: [list(h) for h in g["hands"]],
    "decree_hands_all": lambda state, g, v: [list(h) for h in g["decree_hands"]],
    "deck_order": lambda state, g, v: list(g["deck"]),
    "discard_cards": lambda state, g, v: list(g["discard"]),
    "decree_deck_order": lambda state, g, v: list(g["decree_deck"]),
    "mission_deck_order": lambda state, g, v: list(g["mission_deck"]),
    "piles": lambda state, g, v: [list(m["cards"]) for m in g["missions"]],
    "plays": lambda state, g, v: [[list(p) for p in mine] for mine in g["mine"]],
    "confessed_cards": lambda state, g, v: [list(x) for x in g["confessed"]],
    "notes_all": lambda state, g, v: [list(x) for x in g["notes"]],
    "ambitions_unused": lambda state, g, v: list(g["ambitions_unused"]),
    # a seat, its own
    "seat": lambda state, g, v: v,
    "notes": lambda state, g, v: [dict(x) for x in g["notes"][v]],
    # a noble, their own
    "hand": lambda state, g, v: list(g["hands"][v]),
    "loyalty_mine": lambda state, g, v: g["loyalty"][v],
    "ambition_mine": lambda state, g, v: g["ambition"][v],
    "my_plays": lambda state, g, v: [list(p) for p in g["mine"][v]],
    "my_confession": lambda state, g, v: next((c for s, c in g["confessed"] if s == v), None),
    # a monarch, their own decree hand and, at 8 players, the partner's
    "decree_hand": lambda state, g, v: list(g["decree_hands"][v]),
    "partner_hand": _partner_hand,
}
_SHARED = ("game", "players", "king", "queen", "monarchs", "nobles", "judge", "hand_of_king", "phase", "space",
           "track", "round", "rounds_played", "order", "chaos", "track_length", "agent_in_game", "variants",
           "characters", "used", "cubes", "hand_sizes", "decree_hand_sizes", "deck", "discard", "decree_deck",
           "mission_deck", "missions_done", "missions", "history", "decrees", "cells", "pending_cells",
           "pending_cornered", "barred", "resolving", "confessed", "guesses", "trade_used", "reshuffles")
_REVEALED = ("loyalty", "ambition", "agent")
_REFEREE = ("hands", "decree_hands_all", "deck_order", "discard_cards", "decree_deck_order", "mission_deck_order",
            "piles", "plays", "confessed_cards", "notes_all", "ambitions_unused")
_NOBLE = ("seat", "notes", "hand", "loyalty_mine", "ambition_mine", "my_plays", "my_confession")
_MONARCH = ("seat", "notes", "decree_hand")


def view_keys(state, viewer):
    """The fields `viewer` gets, in the order of the whole view."""
    g = state["g"]
    keys = list(_SHARED)
    if state["over"] or g["revealed"] or viewer == REFEREE:
        keys += _REVEALED
    if viewer == REFEREE:
        keys += _REFEREE
    elif viewer != PUBLIC:
        if viewer in g["nobles"]:
            keys += _NOBLE
        else:
            keys += _MONARCH
            if Z.partner(g, viewer) is not None:
                keys.append("partner_hand")
    return keys
