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

from ...bots import HeuristicBase
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
        self.every = (1 << len(self.houses)) - 1  # the mask of every house
        self.cards = sum(self.totals.values())
        self._bit_of = {}  # card instance -> its house's bit (printed data, the same all game)

    def card_bit(self, inst):
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
        in_hand = dict.fromkeys(self.bit.values(), 0)  # house bit -> its cards in hand
        bit_of, card_bit = self._bit_of, self.card_bit
        for inst in hand:
            in_hand[bit_of.get(inst) or card_bit(inst)] += 1
        sizes, out = view["hand_sizes"], view["out"]
        rivals = [k for s, k in enumerate(sizes) if s != seat and not out[s] and k]  # a size per seat
        w = Weighing(court, C.open_spots(court), self.bit, in_hand)
        terms = Terms(self, court, in_hand, len(hand), rivals)
        # The ask lists each card's places together, and every card of a house has the same places
        # in the same order (court.legal_moves), so a house's places are weighed at its first card
        # and its other cards take the same scores.
        scores = {}  # house bit -> the scores of its places, in the ask's order
        cards = []  # (index of a card's first choice, its house bit), in the ask's order
        i, n = 0, len(choices)
        while i < n:
            inst = choices[i][1]
            hb = bit_of[inst]  # every card of the hand is in it (filled above)
            run = scores.get(hb)
            end = i + len(run) if run else 0
            if run is None or end > n or choices[end - 1][1] != inst or (end < n and choices[end][1] == inst):
                end = i + 1  # its house's first card (or a card whose places are not those of the first)
                while end < n and choices[end][1] == inst:
                    end += 1
                run = scores[hb] = w.scores(hb, choices[i:end], terms)
            cards.append((i, hb))
            i = end
        # The best scores, a score within 1e-9 of the best counting as equal, in the ask's order.
        best, best_score = [], float("-inf")
        for i, hb in cards:
            for score in scores[hb]:
                if score > best_score + 1e-9:
                    best, best_score = [choices[i]], score
                elif abs(score - best_score) <= 1e-9:
                    best.append(choices[i])
                i += 1
        # the draw is the same for one best choice as for no draw at all (any number mod 1 is 0)
        return best[0] if len(best) == 1 else best[self.below(ask, len(best))]


class Terms(dict):
    """Fit mask -> the terms of a score that depend only on the houses some open spot would take:
    (cards in hand of those houses, the rivals' term: OPPONENT times the expected number of rivals
    still in the round holding a card of one of them). Each worked out when first asked for.

    Every card the seat cannot see is as likely to be in any rival's hand."""

    def __init__(self, bot, court, in_hand, hand_size, rivals):
        # (no dict.__init__: the mapping starts empty)
        self.bot = bot
        self.court = court
        self.in_hand = in_hand
        self.hand_size = hand_size
        self.rivals = rivals  # the hand size of each rival still in the round
        self.unseen = bot.cards - sum(court["count"]) - hand_size
        self._unseen_of = None

    def unseen_of(self):
        """House bit -> how many of its cards the seat cannot see (not in the court, not in hand)."""
        if self._unseen_of is None:
            bit = self.bot.bit
            out = {bit[h]: k - self.in_hand[bit[h]] for h, k in self.bot.totals.items()}
            court = self.court
            for row, k, span in zip(court["houses"], court["count"], court["span"]):
                if not k:
                    break  # a row with no card has none above it either
                for h in row[span[0]:span[1] + 1]:
                    if h is not None:
                        out[bit[h]] -= 1
            self._unseen_of = out
        return self._unseen_of

    def __missing__(self, fit):
        if fit == self.bot.every:  # a base position is open: every house fits, no need to count
            own, fitting = self.hand_size, self.unseen
        else:
            own = sum(k for b, k in self.in_hand.items() if b & fit)
            fitting = sum(k for b, k in self.unseen_of().items() if b & fit)
        q = fitting / (self.unseen or 1)
        got = self[fit] = (own, OPPONENT * sum(1 - (1 - q) ** k for k in self.rivals))
        return got


class Weighing:
    """The open spots of a court and a hand (houses as bits), and what one placement changes.

    What a placement changes is in two parts: what the place does whatever the card (`at`: the
    base positions left, the houses the other open spots take, the houses of the place it closes,
    the cards beside it that a card there would open a place above with), and what the card's house
    adds to that. The first part is worked out once per place, for all the cards that may go there.
    """

    def __init__(self, court, spots, bit, in_hand):
        self.court = court
        self.houses = court["houses"]
        self.bit = bit
        self.in_hand = in_hand
        self.all = sum(in_hand)  # every house (in_hand has a count, maybe 0, for each)
        self.held = held = sum(b for b, k in in_hand.items() if k)  # houses in hand
        self.single = sum(b for b, k in in_hand.items() if k == 1)  # houses with one card in hand
        base = places = 0  # open base positions, open upper spots taking a house in hand
        self.only = only = dict.fromkeys(in_hand, 0)  # house bit -> those taking no other house in hand
        once = twice = 0  # houses that one open upper spot takes, that two or more take
        for _, _, a, b in spots:
            if a is None:
                base += 1
                continue
            m = bit[a] | bit[b]
            twice |= once & m
            once |= m
            x = m & held
            if x:
                places += 1
                if x in only:  # a single house
                    only[x] += 1
        self.base, self.places = base, places
        self.fit_upper = once  # houses the upper spots take
        self.alone = once & ~twice  # houses only one of them takes
        self._at = {}

    def kept(self, hb):
        """(the houses left in hand once a card of house `hb` is played, how many open upper
        spots take one of them)."""
        if hb & self.single:  # its last card of the house: the spots taking it alone no longer count
            return self.held & ~hb, self.places - self.only[hb]
        return self.held, self.places

    def at(self, row, pos):
        """What a card at (row, pos) does whatever its house: (open base positions after it, the
        houses the open spots but this one take (every house while a base position is open), the
        houses of the place it closes (0 on the base), the house of the card left of it and the
        house of the card right of it on its row (0 where a card there would open no place above)."""
        court, houses, bit = self.court, self.houses, self.bit
        if row:
            bases = self.base
            below = houses[row - 1]
            gone = bit[below[pos]] | bit[below[pos + 1]]
            # a house drops out of the upper spots' houses if this place was the only one taking it
            fit = self.all if bases else self.fit_upper & ~(gone & self.alone)
        else:
            gone = 0
            span = court["span"][0]
            if court["count"][0] + 1 >= court["width"]:
                bases = 0  # the base is full
            else:
                lo, hi = (pos, pos) if span is None else (min(span[0], pos), max(span[1], pos))
                bases = (lo > 0) + (hi < court["slots"] - 1)
            fit = self.all if bases else self.fit_upper
        left = right = 0
        if row + 1 < court["width"]:
            below, above = houses[row], houses[row + 1]
            if pos and above[pos - 1] is None:
                h = below[pos - 1]
                if h is not None:
                    left = bit[h]
            if pos + 1 < len(below) and above[pos] is None:
                h = below[pos + 1]
                if h is not None:
                    right = bit[h]
        got = self._at[row, pos] = (bases, fit, gone, left, right)
        return got

    def after(self, hb, row, pos):
        """(open base positions, the mask of houses some open spot would take, open upper spots
        taking a house still in hand) once a card of house bit `hb` goes to (row, pos)."""
        return self.scores(hb, (("place", None, row, pos),))[0]

    def scores(self, hb, places, terms=None):
        """The score of a card of house bit `hb` at each of `places` (["place", card, row, pos], a
        place ask's choices), in their order; `terms` as Terms gives them. Without `terms`, what
        `after` gives instead of each score."""
        kept, kept_places = self.kept(hb)
        ats = self._at
        out = []
        for _, _, row, pos in places:
            bases, fit, gone, left, right = ats.get((row, pos)) or self.at(row, pos)
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
            own, threat = terms[fit]
            out.append(OWN_PLAYABLE * (own - (1 if hb & fit else 0)) + OWN_PLACES * (bases + n) - threat)
        return out
