"""A Westeros Intrigue bot that tries to be the last one able to place.

It decides from its seat's view alone: the court, its own hand, the hand sizes and who is out, and
the public card list (how many cards each house has). Other hands are unknown, so it treats every
card it cannot see as equally likely to be in any of them.

For each legal placement it looks at the court that would result and scores it: how many of its
own remaining cards could still be placed, how many places still take its houses, and how likely
each opponent still in the round is to have a card that fits somewhere (which it wants low).

The court that would result is never built: placing one card only closes the place it takes, moves
an end of the base, and opens at most two places on the row above it (see Weighing). Two cards of
the same house put in the same place leave the same court and the same houses in hand, so each
(house, place) is weighed once. Houses are bits of a mask throughout.
"""

from itertools import islice

from ...cards import db as cardsdb
from ...engine.bots import HeuristicBase
from . import court as C

OWN_PLAYABLE = 1.0   # per own card that would still have a place
OWN_PLACES = 0.2     # per place that takes one of its remaining houses
OPPONENT = 1.5       # per opponent likely to be able to play


class HeuristicBot(HeuristicBase):
    def __init__(self, seed=0, seat=0, info=None):
        super().__init__(seed, seat, info)
        self.totals = {}
        for rec in self.info.values():
            if rec.get("type") == "character":
                self.totals[rec["house"]] = self.totals.get(rec["house"], 0) + rec.get("copies", 1)
        self.houses = tuple(self.totals)
        self.bit = {h: 1 << i for i, h in enumerate(self.houses)}
        self.bits = tuple(self.bit.values())
        self.every = (1 << len(self.houses)) - 1  # the mask of every house
        self.cards = sum(self.totals.values())
        # card instance -> its house's bit (printed data, the same all game), every copy at once so
        # that no decision pays for looking one up
        self._bit_of = {inst: self.bit[rec["house"]] for card, rec in self.info.items() if rec.get("type") == "character"
                        for inst in cardsdb.instances([{"id": card, "copies": rec.get("copies", 1)}])}

    def card_bit(self, inst):
        """Its house's bit, for a card instance of any name (the table above has those of the box)."""
        b = self._bit_of.get(inst)
        if b is None:
            b = self._bit_of[inst] = self.bit[self.info[inst.split("#", 1)[0]]["house"]]
        return b

    def choose(self, view, ask):
        choices = ask["choices"]
        if ask["kind"] != "place" or len(choices) == 1:
            return super().choose(view, ask)
        seat = ask["seat"]  # its own ask (a view read fewer: each costs in a lazy view)
        court = view["court"]
        hand = view["hand"]
        bit_of = self._bit_of
        in_hand = dict.fromkeys(self.bits, 0)  # house bit -> its cards in hand
        try:
            for inst in hand:
                in_hand[bit_of[inst]] += 1
        except KeyError:  # a card named otherwise than the box's: looked up by its id, then again
            for inst in hand:
                self.card_bit(inst)
            return self.choose(view, ask)
        sizes, out = view["hand_sizes"], view["out"]
        rivals = [k for s, k in enumerate(sizes) if s != seat and not out[s] and k]  # a size per seat
        w = Weighing(court, C.open_spots(court), self.bit, in_hand)
        terms = Terms(self, court, in_hand, len(hand), rivals)
        # The ask lists the cards' places in hand order, each card's together, and every card of a
        # house has the same places in the same order (court.legal_moves): a house's places are
        # weighed at its first card, and its other cards take the same scores.
        scores = {}  # house bit -> the scores of its places, in the ask's order
        seq = []  # the score of each choice
        n = len(choices)
        for inst in hand:
            hb = bit_of[inst]
            run = scores.get(hb)
            at = len(seq)
            mine = at < n and choices[at][1] == inst
            if run is None:
                run = scores[hb] = w.scores(hb, inst, islice(choices, at, None), terms) if mine else []  # [] if no place
            elif run and not mine:
                break  # not the order above
            seq += run
        if len(seq) != n:  # choices in another order: each weighed alone
            seq = [w.scores(self.card_bit(c[1]), c[1], (c,), terms)[0] for c in choices]
        return choices[self.best(ask, seq)]

    def best(self, ask, seq):
        """The index of the choice to take, given each choice's score: a best score's, drawn among
        them when several are equal (scores within 1e-9 of each other counting as equal, see
        _best_in_order)."""
        ordered = sorted(seq)
        top = ordered[-1]
        ties = seq.count(top)
        if ties < len(seq) and ordered[-ties - 1] > top - 1e-8:  # a near tie: the scan decides
            best = _best_in_order(seq)
            return best[self.below(ask, len(best))]
        # Otherwise the best are exactly the choices scoring `top`, and the draw picks the k-th.
        i = seq.index(top)
        if ties > 1:  # (with one, there is no need to draw: any number mod 1 is 0)
            for _ in range(self.below(ask, ties)):
                i = seq.index(top, i + 1)
        return i


def _best_in_order(seq):
    """The indices of the best scores in `seq`, in order, by the scan that defines them: a score
    more than 1e-9 above the best so far starts the list again, one within 1e-9 of it joins it."""
    best, best_score = [], float("-inf")
    for i, score in enumerate(seq):
        if score > best_score + 1e-9:
            best, best_score = [i], score
        elif abs(score - best_score) <= 1e-9:
            best.append(i)
    return best


class Terms(dict):
    """Fit mask (the houses some open spot would take) -> the terms of a score that depend on it
    alone: the own term, OWN_PLAYABLE per card left in hand of those houses, for a card played
    of one of them and for a card played of another house; and the rivals' term, OPPONENT times the
    expected number of rivals still in the round holding a card of one of them. Each worked out when
    first asked for.

    Every card the seat cannot see is as likely to be in any rival's hand."""

    __slots__ = ("bot", "court", "in_hand", "hand_size", "rivals", "unseen", "_unseen_of")

    def __init__(self, bot, court, in_hand, hand_size, rivals):
        # (no dict.__init__: the mapping starts empty)
        self.bot = bot
        self.court = court
        self.in_hand = in_hand
        self.hand_size = hand_size
        self.rivals = rivals  # the hand size of each rival still in the round
        self.unseen = bot.cards - sum(court["count"]) - hand_size  # cards the seat cannot see
        self._unseen_of = {}

    def unseen_of(self, hb):
        """How many cards of house bit `hb` the seat cannot see (not in the court, not in hand)."""
        k = self._unseen_of.get(hb)
        if k is None:
            house = self.bot.houses[hb.bit_length() - 1]
            k = self.bot.totals[house] - self.in_hand[hb]
            for row, span in zip(self.court["houses"], self.court["span"]):
                if span is None:
                    break  # a row with no card has none above it either
                k -= row[span[0]:span[1] + 1].count(house)
            self._unseen_of[hb] = k
        return k

    def __missing__(self, fit):
        own, fitting = self.hand_size, self.unseen
        left_out = self.bot.every & ~fit  # while the base can grow, none: every house fits
        while left_out:
            hb = left_out & -left_out
            left_out ^= hb
            own -= self.in_hand[hb]
            fitting -= self.unseen_of(hb)
        if fitting == self.unseen:
            # every card it cannot see fits (q is 1, or 0 with none): each rival's chance is 1, or 0
            threat = OPPONENT * len(self.rivals) if fitting else 0.0
        else:
            q = fitting / (self.unseen or 1)
            threat = OPPONENT * sum([1 - (1 - q) ** k for k in self.rivals])
        got = self[fit] = (OWN_PLAYABLE * (own - 1), OWN_PLAYABLE * own, threat)
        return got


class Weighing:
    """The open spots of a court and a hand (houses as bits), and what one placement changes.

    What a placement changes is in two parts: what the place does whatever the card (`at`: the
    base positions left, the houses the other open spots take, the houses of the place it closes,
    the cards beside it that a card there would open a place above with), worked out for every open
    spot in one pass over `spots` (court.open_spots), and what the card's house adds to that
    (`scores`, `after`).
    """

    __slots__ = ("held", "single", "only", "at", "places")

    def __init__(self, court, spots, bit, in_hand):
        every = sum(in_hand)  # in_hand has a count, maybe 0, for each house
        held = single = 0  # houses in hand, houses with one card in hand
        for b, k in in_hand.items():
            if k:
                held |= b
                if k == 1:
                    single |= b
        self.held, self.single = held, single
        base = places = 0  # open base positions, open upper spots taking a house in hand
        self.only = only = dict.fromkeys(in_hand, 0)  # house bit -> those taking no other house in hand
        once = twice = 0  # houses that one open upper spot takes, that two or more take
        # at[row, pos]: what a card there does whatever its house: (open base positions after it,
        # the houses the open spots but this one take (every house while a base position is open),
        # the houses of the place it closes (0 on the base), the house of the card left of it and
        # the house of the card right of it on its row (0 where a card there would open no place
        # above)).
        self.at = at = {}
        late = []  # places leaving no base position, whose fit waits for every upper spot's houses
        houses, width = court["houses"], court["width"]
        span, last = court["span"][0], court["slots"] - 1
        base_full = court["count"][0] + 1 >= width  # one more card fills the base
        on = below = above = None
        for row, pos, a, b in spots:  # the base positions first (open_spots sorts by row)
            if a is None:
                base += 1
                gone = 0
                if base_full:
                    bases = 0
                elif span is None:
                    bases = (pos > 0) + (pos < last)
                else:
                    bases = ((pos if pos < span[0] else span[0]) > 0) + ((pos if pos > span[1] else span[1]) < last)
            else:
                bases = base
                gone = bit[a] | bit[b]
                twice |= once & gone
                once |= gone
                x = gone & held
                if x:
                    places += 1
                    if x in only:  # a single house
                        only[x] += 1
            if row != on:  # the row's cards and the row above, once per row
                on = row
                below = houses[row]
                above = houses[row + 1] if row + 1 < width else None
            left = right = 0
            if above is not None:
                if pos and above[pos - 1] is None:
                    h = below[pos - 1]
                    if h is not None:
                        left = bit[h]
                if pos < len(above) and above[pos] is None:
                    h = below[pos + 1]
                    if h is not None:
                        right = bit[h]
            if bases:
                at[row, pos] = (bases, every, gone, left, right)
            else:
                late.append((row, pos, gone, left, right))
        self.places = places
        # a house drops out of the upper spots' houses if the place taken was the only one taking it
        alone = once & ~twice
        for row, pos, gone, left, right in late:
            at[row, pos] = (0, once & ~(gone & alone), gone, left, right)

    def after(self, hb, row, pos):
        """(open base positions, the mask of houses some open spot would take, open upper spots
        taking a house still in hand) once a card of house bit `hb` goes to (row, pos)."""
        return self.scores(hb, None, (("place", None, row, pos),))[0]

    def scores(self, hb, card, choices, terms=None):
        """The score of `card`, of house bit `hb`, at each of its places: the choices at the head of
        `choices` (a place ask's, from the card's first on) naming it, in their order;
        `terms` as Terms gives them. Without `terms`, what `after` gives instead of each score."""
        # the houses left in hand once the card is played, and the open upper spots taking one of them
        if hb & self.single:  # its last card of the house: the spots taking it alone no longer count
            kept, kept_places = self.held & ~hb, self.places - self.only[hb]
        else:
            kept, kept_places = self.held, self.places
        at = self.at
        out = []
        for _, c, row, pos in choices:
            if c != card:
                break
            bases, fit, gone, left, right = at[row, pos]
            n = kept_places - 1 if gone & kept else kept_places
            if left:
                m = left | hb
                fit |= m
                if m & kept:
                    n += 1
            if right:
                m = hb | right
                fit |= m
                if m & kept:
                    n += 1
            if terms is None:
                out.append((bases, fit, n))
                continue
            own_less_one, own, threat = terms[fit]
            out.append((own_less_one if hb & fit else own) + OWN_PLACES * (bases + n) - threat)
        return out
