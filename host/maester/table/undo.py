"""Undo by agreement, and the cardboard put back (issue 30, item 1).

An undo takes back the last move still standing (engine/session.py `Session.undo`: an undo row in
the log, the state folded again from the moves that stand; log.py `standing` is the one place the
fold skips undone moves). This module decides who must agree, what to warn about, and which physical
cards go back where, as each viewer may be told of it.

An undo takes back the last move of a person (a human seat), with the bots' and the table's answers
made after it: undoing a bot's move alone would only have the bot make it again.

Agreement (every game): every other human seat must agree; with no other human seat, the person
asking decides alone. Bots do not vote (they decide again from the state the undo leaves).

Moves whose consequences cannot be put back: a move that drew chance outcomes (a shuffle, a random
deal or draw) or after which a seat other than the mover sees a card it did not see before. The undo
is still offered, with a warning naming what cannot be undone, and needs the same agreement. The
state itself comes back whole: the generator is part of the state, so the same outcome comes back
with a simulated deck; a card drawn from a hand-shuffled deck goes back on top, face down, unnamed.

Secrets: a card is named to a viewer only if that viewer's view of the state the undo returns to
shows it; else it is "a card", with only the places it moves between (which every seat saw).
"""

import json

from ..engine import core
from ..engine.session import fold
from .runner import sim_tags

# Per game: whose agreement an undo needs ("others": every other human seat).
AGREEMENT = {"btwixt": "others", "intrigue": "others", "lcg": "others", "oathbreaker": "others"}
PUT_BACK_RGB = (255, 255, 255)  # a seat whose cards an undo moved: white, blinking, until they are back
GENERIC = ("cards",)  # container names that say nothing of the place ("court/…/cards": the court)
# The fields of a card's own record that say where it lies (the LCG keeps cards by id).
PLACE_FIELDS = ("zone", "ctrl", "on", "owner", "seat", "place")


def who_must_agree(state, humans, by):
    """The human seats whose agreement an undo asked by `by` needs."""
    assert AGREEMENT[state["game"]] == "others"  # the one rule so far; a game with another adds it here
    return [s for s in humans if s != by]


def places(state):
    """{card: its place}: each card's containers in the game data (a path such as
    ("players", 1, "hand")), plus the place fields of its own record. Cards the data never names
    (a box not in play) have no place."""
    cards = set(sim_tags(state).values())
    seats = core.get_game(state["game"]).seat_count(state)
    found = {}

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in cards and isinstance(v, dict):
                    fields = tuple((f, v[f]) for f in PLACE_FIELDS if f in v and not isinstance(v[f], (dict, list)))
                    found.setdefault(k, []).append(("record",) + fields)
                if isinstance(v, str):
                    if v in cards:
                        found.setdefault(v, []).append(path + (k,))
                else:
                    walk(v, path + (k,))
        elif isinstance(node, list):
            per_seat = len(node) == seats  # a list with an entry per seat (hands, bids): its index is a seat
            for i, v in enumerate(node):
                if isinstance(v, str):
                    if v in cards:
                        found.setdefault(v, []).append(path)
                else:
                    walk(v, path + (i,) if per_seat else path)

    walk(state["g"], ())
    return {c: tuple(sorted(map(tuple, p), key=repr)) for c, p in found.items()}


def _name_and_seat(path):
    """(the container's name, the seat it belongs to or None) of one path of a place."""
    if path and path[0] == "record":
        fields = dict(path[1:])
        return fields.get("zone", "its place"), fields.get("ctrl", fields.get("owner", fields.get("seat")))
    names = [p for p in path if isinstance(p, str) and not p.isdigit() and p not in GENERIC]
    seats = [int(p) for p in path if isinstance(p, int) or (isinstance(p, str) and p.isdigit())]
    return (names[-1] if names else "the table"), (seats[-1] if seats else None)


def _paths(place):
    """The paths that place a card: its own record's alone when it has one with place fields."""
    return [p for p in place if p and p[0] == "record" and len(p) > 1] or list(place)


def place_words(place):
    """A place in words: the container's name and the seat it belongs to ("hand of seat 1")."""
    if not place:
        return "out of the game"
    parts = []
    for path in _paths(place):
        name, seat = _name_and_seat(path)
        name = str(name).replace("_", " ")
        parts.append(name if seat is None else "%s of seat %s" % (name, seat))
    return ", ".join(dict.fromkeys(parts))


def _seats(place):
    """The seats a place belongs to."""
    return {seat for seat in (_name_and_seat(p)[1] for p in _paths(place)) if isinstance(seat, int)}


def seen(state, viewer, cards):
    """The cards of `cards` that `viewer`'s view of `state` names."""
    text = json.dumps(core.view(state, viewer))
    return {c for c in cards if json.dumps(c) in text}


def warnings(before, after, outcomes, mover, seats):
    """Why a move (from `before` to `after`, drawing `outcomes`) cannot be wholly put back."""
    out = []
    if outcomes:
        out.append("the move drew by chance (a shuffle or a draw): the same outcome comes back")
    cards = set(sim_tags(after).values())
    for s in seats:
        if s != mover and seen(after, s, cards) - seen(before, s, cards):
            out.append("seat %s saw a card it had not seen" % s)
    return out


def reconcile(undone, back):
    """The cards that move when the game goes from `undone` (before the undo) to `back` (after):
    [{"card", "from", "to", "top"}], `top` when the card goes back on top of a deck."""
    was, now = places(undone), places(back)
    moves = []
    for card in sorted(set(was) | set(now)):
        if was.get(card) != now.get(card):
            to = now.get(card, ())
            top = "deck" in place_words(to)
            moves.append({"card": card, "from": place_words(was.get(card, ())), "to": place_words(to), "top": top,
                          "seats": sorted(_seats(was.get(card, ())) | _seats(to))})
    return moves


def lines_for(moves, back, viewer, names):
    """The reconciliation as `viewer` may read it: a card named only if `viewer`'s view of the
    state the game went back to shows it. `names(card)` gives a card's name."""
    shown = seen(back, viewer, {m["card"] for m in moves})
    out = []
    for m in moves:
        what = names(m["card"]) if m["card"] in shown else "a card"
        where = "on top of the %s, face down" % m["to"] if m["top"] else "to the %s" % m["to"]
        out.append("%s: from the %s back %s" % (what, m["from"], where))
    return out


class Undo:
    """One undo under way: asked, agreed or refused, then the cards put back.

    `ask(by)` opens it for the last move of a person still standing (with the bots' after it); `answer(seat, yes)` records a vote; once all
    agree, `session.undo` runs and `pending` holds the cards to put back until `confirm` (a re-tap
    or a person's word) clears each."""

    def __init__(self, session, humans):
        self.session = session
        self.humans = list(humans)
        self.by = None
        self.waiting = []  # seats still to answer
        self.agreed = []
        self.warn = []
        self.span = 0  # the moves the undo under way takes back
        self.pending = []  # the reconciliation still to put back
        self.back = None

    def ask(self, by):
        with self.session.lock:
            if self.pending:
                return core.Rejected("put the cards of the last undo back first")
            span = self._span()
            if not span:
                return core.Rejected("there is no move of a person to take back")
            state = self.session.state
            seats = range(core.get_game(state["game"]).seat_count(state))
            moves = self.session.moves[-span:]
            before, _ = fold(state, self.session.moves[:-span])
            outcomes = [o for _, drawn in moves for o in drawn]
            self.warn = warnings(before, state, outcomes, moves[0][0]["seat"], seats)
            self.by, self.agreed, self.span = by, [], span
            self.waiting = who_must_agree(state, self.humans, by)
            if not self.waiting:
                return self._take_back()
            return core.Applied([], [])

    def _span(self):
        """How many moves an undo takes back: the last move of a person (a human seat), with the bots'
        and the table's answers after it (a bot would only make its move again), or 0 for none."""
        moves = self.session.moves
        for n in range(1, len(moves) + 1):
            if moves[-n][0]["seat"] in self.humans:
                return n
        return 0

    def answer(self, seat, yes):
        if seat not in self.waiting:
            return core.Rejected("no undo is waiting for seat %s" % seat)
        if not yes:
            self.waiting, self.by = [], None
            return core.Rejected("seat %s refused the undo" % seat)
        self.waiting.remove(seat)
        self.agreed.append(seat)
        if not self.waiting:
            return self._take_back()
        return core.Applied([], [])

    def _take_back(self):
        with self.session.lock:
            undone = self.session.state
            for _ in range(self.span):  # one logged undo row a move
                result = self.session.undo(self.by, self.agreed)
            if result.ok:
                self.back = self.session.state
                self.pending = reconcile(undone, self.back)
            self.by = None
            return result

    def confirm(self, card=None):
        """A card put back (re-tapped), or with `card` None every card (a person's word). A sticker
        that names a code and a copy (the LCG's "S5#1") stands for the first pending card of its code."""
        if card is None:
            had, self.pending = bool(self.pending), []
            return had
        for same in (lambda m: m["card"] == card, lambda m: m["card"].split("#")[0] == card.split("#")[0]):
            for m in self.pending:
                if same(m):
                    self.pending.remove(m)
                    return True
        return False

    def leds(self, wanted):
        """The LED frame while cards are put back: the segment of each seat a pending card goes to
        or comes from blinks white (which seats a move touched, every seat saw)."""
        out = dict(wanted)
        for seat in sorted({s for m in self.pending for s in m["seats"]}):
            if "seat%s" % seat in out:
                out["seat%s" % seat] = (255, PUT_BACK_RGB, "blink", 400)
        return out

    def lines(self, viewer, names):
        return lines_for(self.pending, self.back, viewer, names) if self.pending else []

