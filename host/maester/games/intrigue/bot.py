"""A Westeros Intrigue bot that tries to be the last one able to place.

It decides from its seat's view alone: the court, its own hand, the hand sizes and who is out, and
the public card list (how many cards each house has). Other hands are unknown, so it treats every
card it cannot see as equally likely to be in any of them.

For each legal placement it looks at the court that would result and scores it: how many of its
own remaining cards could still be placed, how many places still take its houses, and how likely
each opponent still in the round is to have a card that fits somewhere (which it wants low).

The court that would result is never built: placing one card only closes the place it takes, moves
an end of the base, and opens at most two places on the row above it (see Weighing.after). Two
cards of the same house put in the same place leave the same court and the same houses in hand,
so each (house, place) is weighed once. Houses are bits of a mask throughout.
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
        bit = self.bit
        # The cards this seat cannot see: everything not in the court and not in its hand.
        unseen = {bit[h]: k for h, k in self.totals.items()}
        for row, k in zip(court["houses"], court["count"]):
            if not k:
                break  # a row with no card has none above it either
            for h, b in bit.items():
                unseen[b] -= row.count(h)
        in_hand = dict.fromkeys(unseen, 0)
        card_bit = self.card_bit
        for inst in view["hand"]:
            b = card_bit(inst)
            unseen[b] -= 1
            in_hand[b] += 1
        total_unseen = sum(unseen.values()) or 1
        sizes, out = view["hand_sizes"], view["out"]
        rivals = [k for s, k in enumerate(sizes) if s != seat and not out[s] and k]  # a size per seat
        w = Weighing(court, C.open_spots(court), bit, in_hand)
        threat = {}  # fit mask -> the opponents' term
        by_outcome = {}  # (house bit, fit mask, open places for its houses) -> score
        scored = {}  # (house bit, row, pos) -> score
        bit_of = self._bit_of  # every card of the hand is in it (filled above)
        best, best_score = [], float("-inf")
        for choice in choices:
            hb = bit_of[choice[1]]
            key = (hb, choice[2], choice[3])
            score = scored.get(key)
            if score is None:
                bases, fit, places = w.after(hb, choice[2], choice[3])
                outcome = (hb, fit, bases + places)
                score = by_outcome.get(outcome)
                if score is None:
                    t = threat.get(fit)
                    if t is None:
                        q = sum(k for b, k in unseen.items() if b & fit) / total_unseen
                        t = threat[fit] = OPPONENT * sum(1 - (1 - q) ** k for k in rivals)
                    score = 0.0
                    score += OWN_PLAYABLE * (w.hand_fitting(fit) - (1 if hb & fit else 0))
                    score += OWN_PLACES * (bases + places)
                    score -= t
                    by_outcome[outcome] = score
                scored[key] = score
            if score > best_score + 1e-9:
                best, best_score = [choice], score
            elif abs(score - best_score) <= 1e-9:
                best.append(choice)
        return best[self.below(ask, len(best))]


class Weighing:
    """The open spots of a court and a hand (houses as bits), and what one placement changes."""

    def __init__(self, court, spots, bit, in_hand):
        self.court = court
        self.bit = bit
        self.in_hand = in_hand
        self.all = sum(in_hand)
        self.base = 0
        self.upper = upper = {}  # (row, pos) -> the mask of the two houses it rests on
        self.masks = masks = {}  # mask -> how many open upper spots have it
        self.contains = contains = dict.fromkeys(in_hand, 0)  # house bit -> open upper spots taking it
        for r, x, a, b in spots:
            if a is None:
                self.base += 1
                continue
            ba, bb = bit[a], bit[b]
            m = upper[r, x] = ba | bb
            masks[m] = masks.get(m, 0) + 1
            contains[ba] += 1
            if bb != ba:
                contains[bb] += 1
        self.fit_upper = sum(b for b, c in contains.items() if c)  # houses the upper spots take
        self._kept = {}
        self._fitting = {}

    def kept(self, hb):
        """(the houses left in hand once a card of house `hb` is played, how many open upper
        spots take one of them)."""
        got = self._kept.get(hb)
        if got is None:
            kept = sum(b for b, k in self.in_hand.items() if k - (b == hb))
            got = self._kept[hb] = (kept, sum(n for m, n in self.masks.items() if m & kept))
        return got

    def hand_fitting(self, fit):
        """Cards in hand of the houses in `fit`."""
        n = self._fitting.get(fit)
        if n is None:
            n = self._fitting[fit] = sum(k for b, k in self.in_hand.items() if b & fit)
        return n

    def after(self, hb, row, pos):
        """(open base positions, the mask of houses some open spot would take, open upper spots
        taking a house still in hand) once a card of house bit `hb` goes to (row, pos)."""
        court = self.court
        kept, places = self.kept(hb)
        if row == 0:
            count = court["count"][0] + 1
            span = court["span"][0]
            lo, hi = (pos, pos) if span is None else (min(span[0], pos), max(span[1], pos))
            bases = 0 if count >= court["width"] else (lo > 0) + (hi < court["slots"] - 1)
            fit = self.all if bases else self.fit_upper
        else:
            bases = self.base
            gone = self.upper[(row, pos)]
            if gone & kept:
                places -= 1
            if bases:
                fit = self.all  # a base position takes any house
            else:
                fit = sum(b for b, c in self.contains.items() if c - (1 if gone & b else 0))
        if row + 1 < court["width"]:
            below, above = court["houses"][row], court["houses"][row + 1]
            if pos > 0 and below[pos - 1] is not None and above[pos - 1] is None:
                m = self.bit[below[pos - 1]] | hb
                fit |= m
                places += 1 if m & kept else 0
            if pos + 1 < len(below) and below[pos + 1] is not None and above[pos] is None:
                m = hb | self.bit[below[pos + 1]]
                fit |= m
                places += 1 if m & kept else 0
        return bases, fit, places
