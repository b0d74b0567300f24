"""B'Twixt on the seat and table pages (web/blocks.py): the time track and season, the ally up for
bid with the bids, the councils between neighbours, the leaders; a seat's hand behind its tab.

Everything here reads the viewer's view only: a face-down power token is counted, never valued,
until the game is over and the view holds the values.
"""

from ...web import blocks as B

SEASONS = ("summer", "autumn", "winter")


def _value(words, inst):
    return (words.info.get(inst.split("#", 1)[0]) or {}).get("value", 0)


def _power(words, inst):
    return (words.info.get(inst.split("#", 1)[0]) or {}).get("power", 0)


def _start_space(view, words):
    track = (words.cards.get("components") or {}).get("time_track") or {}
    return (track.get("start_space") or {}).get(str(view["players"]), 0)


def time_track(view, words):
    """The round spaces of this season: played, the token's space, still to come; spaces before
    the players' starting space are not used at this table size."""
    start, now = _start_space(view, words), view["round_space"]
    cells = [{"label": str(i + 1), "state": "off" if i < start else "done" if i < now else "now" if i == now
              else "todo"} for i in range(view["last_space"] + 1)]
    left = view["last_space"] - now
    caption = "%s: %s" % (view["season"].capitalize(),
                          "the last round of the season" if left == 0 else "%d round%s after this one"
                          % (left, "" if left == 1 else "s"))
    return B.track("Round", cells, caption)


def season_track(view):
    now = SEASONS.index(view["season"])
    return B.track("Season", [{"label": s.capitalize(), "state": "done" if i < now else "now" if i == now
                               else "todo"} for i, s in enumerate(SEASONS)])


def _turn_seats(view):
    return {a["seat"] for a in view.get("asks", [])}


def _tags(view, seat, viewer):
    return ["you" if seat == viewer else None, "first" if seat == view["first"] else None,
            "turn" if seat in _turn_seats(view) else None, "knelt" if view["knelt"][seat] else None]


def ally_up(view, words):
    if view["current"] is None:
        return B.text("No ally is up for bid.", "muted")
    tokens = view["current_tokens"]
    note = "with %d power token%s face down" % (tokens, "" if tokens == 1 else "s") if tokens else None
    return B.block("cards", "Ally up for bid", cards=[B.card(words, view["current"], note)])


def bids(view, words, viewer):
    rows = [B.seat_row(words, s, [[B.card(words, c) for c in view["bids"][s]],
                                  str(sum(_value(words, c) for c in view["bids"][s]))], _tags(view, s, viewer))
            for s in range(view["players"])]
    return B.seats("Bids", ["Bid", "Total"], rows)


def leaders(view, words, viewer):
    rows = [B.seat_row(words, s, [str(view["hand_sizes"][s]), [B.card(words, c) for c in view["bids"][s]],
                                  str(sum(_value(words, c) for c in view["bids"][s]))], _tags(view, s, viewer))
            for s in range(view["players"])]
    return B.seats("Leaders", ["Cards in hand", "Bid", "Total"], rows)


def _tokens(view, c):
    toks = view["councils"][c]["tokens"]
    values = view.get("token_values")
    if values is not None and view.get("over"):
        shown = [values[t] for t in toks]
        return "%s = %d" % (" + ".join(str(x) for x in shown) or "none", sum(shown))
    return "%d face down" % len(toks)


def councils(view, words):
    """One row a council: the two neighbours it lies between, its allies, their power, its tokens."""
    n = view["players"]
    rows = [{"seat": c, "name": "%s & %s" % (words.seat(c), words.seat((c + 1) % n)),
             "cells": [[B.card(words, a) for a in council["allies"]],
                       str(sum(_power(words, a) for a in council["allies"])), _tokens(view, c)]}
            for c, council in enumerate(view["councils"])]
    return B.seats("Councils", ["Allies", "Ally power", "Power tokens"], rows)


def decks(view):
    return B.facts([("Influence deck", view["deck"]), ("Discard pile", len(view["discard"])),
                    ("Ally deck", view["ally_deck"]), ("Dead allies", len(view["dead"])),
                    ("Token supply", view["supply"])], "Decks")


def result(view, words):
    res = view.get("result")
    if not res:
        return None
    rows = [B.seat_row(words, r["seat"], [str(r["small"]), str(r["other"]), str(r["allies"])],
                       ["winner"] if r["seat"] in res["winners"] else [])
            for r in res["scores"]]
    return B.seats("Final scores", ["Weaker council", "Stronger council", "Allies"], rows)


def _row(view, words):
    return B.cards(words, "Allies in the row", view["row"]) if view["row"] else None


def table_blocks(view, words):
    side = [time_track(view, words), season_track(view), ally_up(view, words), _row(view, words), decks(view)]
    main = [result(view, words), leaders(view, words, None), councils(view, words)]
    return [dict(b, column=0) for b in side if b] + [dict(b, column=1) for b in main if b]


def seat_blocks(view, words, seat):
    secret = [B.cards(words, "Your hand", view.get("hand", []), empty="no cards")]
    if view.get("leader_cards"):
        secret.append(B.cards(words, "Your leader cards still to come", view["leader_cards"]))
    for other, hand in sorted(view.get("seen_hands", {}).items(), key=lambda x: int(x[0])):
        secret.append(B.cards(words, "%s's hand (you intercepted it)" % words.seat(int(other)), hand))
    draft = view.get("draft")
    if draft:
        secret.append(B.cards(words, "Your draft pack", draft["pack"]))
        secret.append(B.cards(words, "Kept from the draft", draft["kept"]))
    about = [result(view, words), ally_up(view, words), bids(view, words, seat),
             B.facts([("Season", view["season"].capitalize()),
                      ("Time track", "space %d of %d" % (view["round_space"] + 1, view["last_space"] + 1)),
                      ("First player", words.seat(view["first"]))])]
    board = [time_track(view, words), season_track(view), _row(view, words), leaders(view, words, seat),
             councils(view, words), decks(view)]
    return {"about": [b for b in about if b], "board": [b for b in board if b], "secret": secret,
            "hand_count": len(view.get("hand", []))}
