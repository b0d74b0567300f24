"""Westeros Intrigue events as one readable line each, for the table log and the terminal.

`describe_event(g, event, viewer, cards)` has the same shape as B'Twixt's: `g` is the engine's
state["g"] or a view, `cards` the config's card table. It returns None for an event the viewer may
not see. A character card is named by its house and copy ("Stark 3"); the data holds no character
names, and only the house matters in play. No Iron Throne card is named to anyone but its holder
before `thrones_revealed`.
"""

from ...engine import PUBLIC, cardtables
from ..text import generic_line, hidden_from, variants_words, winners_line


class Names:
    """Seat and card names. Seats have no leaders in this game: a seat is "Seat 2"."""

    def __init__(self, g=None, cards=None):
        self.info = (cards or {}).get("info") or {}

    def seat(self, seat):
        return "nobody" if seat is None else "Seat %d" % seat

    leader = seat  # the shared terminal loop asks for a seat's "leader" name

    def card(self, inst):
        cid, _, copy = inst.partition("#")
        rec = self.info.get(cid)
        if rec is not None and rec["type"] == "iron_throne":
            return "%s (worth %d, %d sword%s)" % (rec["name"], rec["value"], rec["swords"],
                                                  "" if rec["swords"] == 1 else "s")
        return "%s %s" % (cid.capitalize(), copy)

    def short(self, inst):
        """A name for a narrow court: the house's first four letters and the copy."""
        cid, _, copy = inst.partition("#")
        return "%s %s" % (cid[:4].capitalize(), copy)

    def cards(self, insts):
        return ", ".join(self.card(c) for c in insts) or "nothing"


def position_words(names, court, row, pos):
    """Where a legal position of `court` is, naming the cards it touches."""
    if row == 0:
        span = court["span"][0]
        if span is None:
            return "the base, as its first card" + ("" if court["mode"] == "free" else " (place %d)" % (pos + 1))
        if pos < span[0]:
            return "the base, left end (beside %s)" % names.card(court["cards"][0][span[0]])
        return "the base, right end (beside %s)" % names.card(court["cards"][0][span[1]])
    below = court["cards"][row - 1]
    return "row %d, on %s and %s" % (row + 1, names.card(below[pos]), names.card(below[pos + 1]))


def describe_choice(state, ask, choice, viewer=None):
    """A menu label: "Stark 3 → row 2, on Stark 1 and Lannister 4", or a card to tap."""
    names = Names(state["g"], cardtables.table(state))
    if choice[0] == "place":
        _, inst, row, pos = choice
        return "%s → %s" % (names.card(inst), position_words(names, state["g"]["court"], row, pos))
    if choice[0] == "card":
        return names.card(choice[1])
    return " ".join(str(x) for x in choice)


def _you(names, seat, viewer):
    return "You" if viewer == seat else names.seat(seat)


def _verb(viewer, seat, you, other):
    return you if viewer == seat else other


def describe_event(g, event, viewer=PUBLIC, cards=None):
    """One line for `event` as `viewer` may read it, or None if it is not theirs to see."""
    if hidden_from(event, viewer):
        return None
    k = event.get("e")
    nm = Names(g, cards)
    seat = event.get("seat")
    who = _you(nm, seat, viewer)

    if k == "setup":
        variants = variants_words(event.get("variants"), "standard rules")
        return "Westeros Intrigue for %d players (%s): %d rounds, a court %d cards wide. %s starts." % (
            event["players"], variants, event["rounds"], event["base_width"], nm.seat(event["first"]))
    if k == "round":
        how = "deal the cards by hand and tap each one on your reader" if event.get("tapped") else "the cards are dealt"
        return "Round %d of %d: %s; %s starts." % (event["round"], event["rounds"], how, nm.seat(event["starter"]))
    if k == "start_card":
        return "The spare card %s starts the court face up." % nm.card(event["card"])
    if k == "hand":
        lead = "Your hand" if viewer == seat else "%s's hand" % nm.seat(seat)
        return "%s: %s." % (lead, nm.cards(event["cards"]))
    if k == "tapped_into_hand":
        return "%s tapped %s into %s hand (%d of %d)." % (
            who, nm.card(event["card"]), _verb(viewer, seat, "your", "their"), event["count"], event["of"])
    if k == "tap_refused":
        return "%s is already recorded: tap only the cards you were dealt." % nm.card(event["card"])
    if k == "placed":
        if event.get("on"):
            where = "row %d, on %s and %s" % (event["row"] + 1, nm.card(event["on"][0]), nm.card(event["on"][1]))
        elif event.get("end") == "first":
            where = "the base, as its first card"
        else:
            where = "the %s end of the base" % event.get("end", "")
        left = event["left"]
        return "%s %s %s on %s (%d card%s left)." % (
            who, _verb(viewer, seat, "place", "places"), nm.card(event["card"]), where, left, "" if left == 1 else "s")
    if k == "out":
        if event.get("why") == "no cards left":
            return "%s %s placed every card and %s out of the round." % (
                who, _verb(viewer, seat, "have", "has"), _verb(viewer, seat, "are", "is"))
        return "%s cannot place a card and %s out of the round with %d in hand." % (
            who, _verb(viewer, seat, "are", "is"), event.get("left", 0))
    if k == "round_won":
        if seat is None:
            return "Round %d ends with no card placed." % event["round"]
        return "%s placed the last card and %s round %d." % (who, _verb(viewer, seat, "win", "wins"), event["round"])
    if k == "throne_drawn":
        return "%s %s an Iron Throne card face down (%d held)." % (
            who, _verb(viewer, seat, "draw", "draws"), event["count"])
    if k == "throne_card":
        return "%s Iron Throne card: %s." % ("Your new" if viewer == seat else "%s's new" % nm.seat(seat),
                                            nm.card(event["card"]))
    if k == "no_throne":
        return "No Iron Throne card is left for %s." % nm.seat(seat)
    if k == "penalty":
        return "%s %s %d penalty point%s (tokens %s): %d in all." % (
            who, _verb(viewer, seat, "take", "takes"), event["points"], "" if event["points"] == 1 else "s",
            "+".join(str(t) for t in event["tokens"]), event["total"])
    if k == "thrones_revealed":
        held = ["%s: %s" % (nm.seat(s), nm.cards(t)) for s, t in enumerate(event["thrones"]) if t]
        return "The Iron Throne cards are turned face up. %s." % ("; ".join(held) or "Nobody holds one")
    if k == "game_over":
        return "Game over after %d rounds: %s." % (event.get("rounds", 0), winners_line(nm, event["winners"]))
    return generic_line(event)


def about_lines(rec):
    """A card's facts for a person who asks; its text is cards_db's (games/text.py adds it)."""
    if "swords" in rec:
        return ["Iron Throne card · worth %d off your penalties · %d sword%s"
                % (rec["value"], rec["swords"], "" if rec["swords"] == 1 else "s")]
    return ["character · House %s" % rec.get("house", "").capitalize()]
