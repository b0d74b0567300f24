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


def view(state, viewer):
    g = state["g"]
    n = g["n"]
    over = state["over"]
    space = g["track"][g["space"]] if g["space"] < len(g["track"]) else {"round": "end"}
    out = {
        "game": "oathbreaker", "players": n, "king": g["king"], "queen": g["queen"],
        "monarchs": list(g["monarchs"]), "nobles": list(g["nobles"]), "judge": list(g["judge"]),
        "hand_of_king": g["hand_of_king"], "phase": g["phase"], "space": g["space"],
        "track": [dict(s) for s in g["track"]], "round": dict(space), "rounds_played": g["rounds_played"],
        "order": g["order"], "chaos": g["chaos"], "track_length": g["track_length"],
        "agent_in_game": g["agent"] is not None, "variants": list(g["variants"]),
        "characters": list(g["characters"]), "used": list(g["used"]),
        "cubes": [dict(zip(Z.RES, c)) if c is not None else None for c in g["cubes"]],
        "hand_sizes": [len(h) for h in g["hands"]], "decree_hand_sizes": [len(h) for h in g["decree_hands"]],
        "deck": len(g["deck"]), "discard": len(g["discard"]), "decree_deck": len(g["decree_deck"]),
        "mission_deck": len(g["mission_deck"]), "missions_done": list(g["missions_done"]),
        "missions": [mission_view(m) for m in g["missions"]],
        "history": [dict(h, counts=list(h["counts"]), sigils=list(h["sigils"]), face_up=list(h["face_up"]),
                         revealed=list(h["revealed"])) for h in g["history"]],
        "decrees": [[dict(d) for d in held] for held in g["decrees"]],
        "cells": list(g["cells"]), "pending_cells": list(g["pending_cells"]),
        "pending_cornered": [list(x) for x in g["pending_cornered"]], "barred": [list(x) for x in g["barred"]],
        "resolving": list(g["resolving"]), "confessed": sorted(s for s, _ in g["confessed"]),
        "guesses": list(g["guesses"]), "trade_used": g["trade_used"], "reshuffles": g["reshuffles"],
    }
    if over or g["revealed"] or viewer == REFEREE:
        out["loyalty"] = list(g["loyalty"])
        out["ambition"] = list(g["ambition"])
        out["agent"] = g["agent"]
    if viewer == REFEREE:
        out["hands"] = [list(h) for h in g["hands"]]
        out["decree_hands_all"] = [list(h) for h in g["decree_hands"]]
        out["deck_order"] = list(g["deck"])
        out["discard_cards"] = list(g["discard"])
        out["decree_deck_order"] = list(g["decree_deck"])
        out["mission_deck_order"] = list(g["mission_deck"])
        out["piles"] = [list(m["cards"]) for m in g["missions"]]
        out["plays"] = [[list(p) for p in mine] for mine in g["mine"]]
        out["confessed_cards"] = [list(x) for x in g["confessed"]]
        out["notes_all"] = [list(x) for x in g["notes"]]
        out["ambitions_unused"] = list(g["ambitions_unused"])
    elif viewer != PUBLIC:
        out["seat"] = viewer
        out["notes"] = [dict(x) for x in g["notes"][viewer]]
        if viewer in g["nobles"]:
            out["hand"] = list(g["hands"][viewer])
            out["loyalty_mine"] = g["loyalty"][viewer]
            out["ambition_mine"] = g["ambition"][viewer]
            out["my_plays"] = [list(p) for p in g["mine"][viewer]]
            out["my_confession"] = next((c for s, c in g["confessed"] if s == viewer), None)
        else:
            out["decree_hand"] = list(g["decree_hands"][viewer])
            other = Z.partner(g, viewer)
            if other is not None:
                out["partner_hand"] = list(g["decree_hands"][other])
    return out
