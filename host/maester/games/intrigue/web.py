"""Westeros Intrigue on the seat and table pages (web/blocks.py): the court drawn as a pyramid in
house colours, with the places a card may go; the round, who started it and whose turn it is; the
seats' hands, penalties and Iron Throne cards; the rounds played; the result first when it is over.

Everything here reads the viewer's view only. The court is public; a seat's hand and its own Iron
Throne cards are in its own view, everyone's Iron Throne cards only once the game is over.

The court's places are named "row,pos" (the engine's row and position) as pyramid targets, so the
seat page can light the places a picked card may take (option_mark, page.js drawPicker).
"""

from ...web import blocks as B
from . import court as C
from . import defaults
from .text import Names


MIN_COLUMNS = 5


def _target(row, pos):
    return "%d,%d" % (row, pos)


# --- the court -----------------------------------------------------------------------------------

def _base_places(court):
    """The base places worth drawing: the cards on it and the places it may still grow to (its
    ends, or the first card's place), left to right."""
    xs = [x for (r, x, _, _) in C.open_spots(court) if r == 0]
    if court["span"][0] is not None:
        xs += list(range(court["span"][0][0], court["span"][0][1] + 1))
    return min(xs), max(xs)


def _rows_shown(court, spots):
    """How many rows, from the base up, hold a card or a place open now."""
    top = max([r for r in range(court["width"]) if court["count"][r]] + [r for (r, _, _, _) in spots] + [0])
    return top + 1


def _court_cell(words, court, open_now, row, pos, short):
    inst = court["cards"][row][pos]
    if inst is not None:
        house = court["houses"][row][pos]
        cell = B.card(words, inst, house=house)
        if short:
            cell["name"] = _short_name(inst)
        return cell
    if (row, pos) in open_now:
        return B.slot(_target(row, pos))
    return None  # not reachable yet: it does not rest on two cards


def _short_name(inst):
    """A phone's court place is about 45 px wide: the house's initial and the card's copy."""
    house, _, copy = inst.partition("#")
    return "%s%s" % (house[:1].upper(), copy)


def court_block(view, words, short=False, title="The court"):
    """The court as a pyramid, top row first, over the base's reachable places only: each row up
    starts half a place further right, as its cards rest across two below. Every open place is a
    slot named by its target, so a seat's page can light the ones a card may take."""
    court = view["court"]
    spots = C.open_spots(court)
    open_now = {(r, x) for (r, x, _, _) in spots}
    if not open_now and court["span"][0] is None:
        return B.text("The court is empty.", "muted")
    lo, hi = _base_places(court)
    # A short base is drawn centred among MIN_COLUMNS places, not stretched over the whole width.
    columns = max(hi - lo + 1, MIN_COLUMNS)
    shift = columns - (hi - lo + 1)  # half-places
    rows = []
    for r in range(_rows_shown(court, spots) - 1, -1, -1):
        cells = [_court_cell(words, court, open_now, r, x, short) for x in range(lo, hi + 1 - r)]
        rows.append({"indent": r + shift, "cells": cells})
    placed = sum(court["count"])
    caption = "%d card%s placed" % (placed, "" if placed == 1 else "s") if placed else "no card yet"
    return B.block("pyramid", "%s · %s" % (title, caption), rows=rows, columns=columns)


def option_mark(view, ask, choice):
    """A place choice is a card of the hand and a place of the court: tap the card, then the place."""
    if not choice or choice[0] != "place":
        return None
    _, inst, row, pos = choice
    return {"pick": inst, "pick_name": Names().card(inst), "at": _target(row, pos)}


# --- the round and the seats ---------------------------------------------------------------------

def _turn_seats(view):
    return {a["seat"] for a in view.get("asks", []) if a.get("kind") == "place"}


def _tags(view, seat, viewer):
    return ["you" if seat == viewer else None, "turn" if seat in _turn_seats(view) else None,
            "first" if seat == view["starter"] and not view.get("over") else None,
            "out" if view["out"][seat] and not view.get("over") else None]


def round_facts(view, words, viewer=None, deck=True):
    """The round, who started it, whose turn it is (and the Iron Throne cards still to win)."""
    if view.get("over"):
        return None
    # Whose turn it is only while a seat is placing (not while the hands are tapped in, say).
    turn = sorted(_turn_seats(view))
    who = ("you" if turn[0] == viewer else words.seat(turn[0])) if turn else None
    return B.facts([("Round", "%d of %d" % (view["round"], view["rounds"])),
                    ("Started by", "you" if view["starter"] == viewer else words.seat(view["starter"])),
                    ("Turn", who), ("Iron Throne cards left", view["throne_deck"] if deck else None)])


def round_track(view):
    """The rounds of the game as the table's lights show them: played, this one, still to come."""
    now, last = view["round"], view["rounds"]
    cells = [{"label": str(i), "state": "done" if i < now or view.get("over") else "now" if i == now else "todo"}
             for i in range(1, last + 1)]
    left = last - now
    caption = ("the game is over" if view.get("over") else "the last round" if left == 0
               else "%d round%s after this one" % (left, "" if left == 1 else "s"))
    return B.track("Rounds", cells, caption)


def deck_facts(view):
    return B.facts([("Iron Throne cards left to win", view["throne_deck"])])


def _round_cell(h, seat):
    paid = "+%d" % h["penalties"][seat] if h["penalties"][seat] else "0"
    if h["winner"] != seat:
        return paid
    return "won, %s" % paid if h["penalties"][seat] else "won"


def seats_block(view, words, viewer=None, rounds=False):
    """A row a seat: cards in hand, penalty points, Iron Throne cards held; with `rounds` (a TV's
    width), the points each round played cost it and who won it."""
    history = (view.get("history") or []) if rounds else []
    rows = [B.seat_row(words, s, [str(view["hand_sizes"][s]), str(view["penalties"][s]), str(view["throne_counts"][s])]
                       + [_round_cell(h, s) for h in history], _tags(view, s, viewer))
            for s in range(view["players"])]
    return B.seats("Seats", ["Cards in hand", "Penalty points", "Iron Throne cards"]
                   + ["Round %d" % h["round"] for h in history], rows)


def _round_lines(words, h):
    won = "nobody placed a card" if h["winner"] is None else "won by %s" % words.seat(h["winner"])
    paid = ["%s %d" % (words.seat(s), p) for s, p in enumerate(h["penalties"]) if p]
    return [won, "penalty points: %s" % (", ".join(paid) or "none")]


def rounds_block(view, words):
    """The rounds played so far: who won each, and who paid how many penalty points."""
    history = view.get("history") or []
    if not history:
        return None
    return B.panels("Rounds played", [{"title": "Round %d" % h["round"], "lines": _round_lines(words, h)}
                                      for h in history])


# A setting that differs from the rules' reading, said as a rule (the engine's names never shown).
def _rule_words(key, value):
    if key == "base_width":
        return "The base of the court holds at most %d cards." % value
    if key == "court":
        return "The court is a fixed pyramid of places, as on a printed mat."
    if key == "next_start":
        return "The winner of a round starts the next one."
    if key == "winner_pays":
        return ("A round's winner takes penalty points for cards left in hand too." if value else
                "A round's winner takes no penalty points for cards left in hand.")
    if key == "score_floor":
        return "A final score never goes below zero." if value else "A final score may go below zero."
    if key == "tiebreak":
        return {"most_swords": "A tie goes to the Iron Throne card with the most swords.",
                "fewest_swords": "A tie goes to the Iron Throne card with the fewest swords.",
                "none": "A tie is a shared victory."}[value]
    return None


def house_rules(view, words):
    """The rules this game plays that are not the rulebook's, in one sentence each; None when it
    plays the rulebook's."""
    comp = words.cards.get("components")
    settings = view.get("settings") or {}
    if not comp:
        return None
    usual = defaults(comp, view["players"])
    lines = [_rule_words(k, v) for k, v in settings.items() if k != "first" and usual.get(k) != v]
    lines = [x for x in lines if x]
    if not lines:
        return None
    return B.block("text", "House rules in play", text=" ".join(lines), tone="muted")


# --- the result ------------------------------------------------------------------------------------

def _info(words, inst):
    """A card's record in the game's card data (house, Iron Throne worth and swords)."""
    return words.info.get(inst.split("#", 1)[0]) or {}


def _swords(words, held):
    """The swords on each Iron Throne card held: a final tie goes by them."""
    return ", ".join(str(_info(words, t).get("swords", 0)) for t in held) or "none"


def result(view, words, viewer=None):
    """The final scores, best first: penalty points minus the Iron Throne cards' worth; lowest wins."""
    res = view.get("result")
    if not res:
        return None
    rows = [B.seat_row(words, s, [str(res["penalties"][s]), str(res["throne_values"][s]),
                                  _swords(words, res["thrones"][s]), str(res["scores"][s])],
                       ["winner" if s in res["winners"] else None, "you" if s == viewer else None])
            for s in res["ranking"]]
    return B.seats("Final scores: penalty points less Iron Throne worth; the lowest wins",
                   ["Penalty points", "Iron Throne worth", "Swords", "Score"], rows)


def winners_text(view, words, viewer=None):
    res = view.get("result")
    if not res:
        return None
    w = ["you" if s == viewer else words.seat(s) for s in res["winners"]]
    if len(w) > 1:
        return B.text("Shared victory: %s." % " and ".join(w), "good")
    return B.text("You win the game." if w[0] == "you" else "%s wins the game." % w[0], "good")


# --- the pages ---------------------------------------------------------------------------------------

def _house(words):
    return lambda inst: _info(words, inst).get("house")


def table_blocks(view, words):
    seats = seats_block(view, words, rounds=True)
    if view.get("over"):  # the result first, then how the rounds went; the last round's court below
        out = [winners_text(view, words), result(view, words), seats, house_rules(view, words),
               court_block(view, words, title="The last round's court")]
    else:
        out = [round_facts(view, words), house_rules(view, words), court_block(view, words), seats]
    return [b for b in out if b]


def _secret(view, words):
    hand = view.get("hand", [])
    out = [B.cards(words, "Your hand", hand, empty="no cards", house=_house(words))]
    mine = view.get("my_thrones", [])
    worth = sum(_info(words, t).get("value", 0) for t in mine)
    title = "Your Iron Throne cards" + (" (worth %d)" % worth if mine else "")
    out.append(B.cards(words, title, mine, empty="none yet"))
    return out


def seat_blocks(view, words, seat):
    # On a phone the court is about 350 px wide: what is asked and the court come first, the rest is a tab.
    about = [winners_text(view, words, seat), result(view, words, seat), round_facts(view, words, seat, deck=False),
             court_block(view, words, short=True)]
    board = [round_track(view), seats_block(view, words, seat), deck_facts(view), rounds_block(view, words),
             house_rules(view, words)]
    return {"about": [b for b in about if b], "board": [b for b in board if b], "secret": _secret(view, words),
            "hand_count": len(view.get("hand", []))}
