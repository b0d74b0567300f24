"""A Westeros Intrigue bot that tries to be the last one able to place.

It decides from its seat's view alone: the court, its own hand, the hand sizes and who is out, and
the public card list (how many cards each house has). Other hands are unknown, so it treats every
card it cannot see as equally likely to be in any of them.

For each legal placement it looks at the court that would result and scores it: how many of its
own remaining cards could still be placed, how many places still take its houses, and how likely
each opponent still in the round is to have a card that fits somewhere (which it wants low).

The court that would result is never built: placing one card only closes the place it takes, moves
an end of the base, and opens at most two places on the row above it (see _Trials). And two cards
of the same house put in the same place leave the same court and the same houses in hand, so each
(house, place) is scored once.
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
        self._house = {}

    def house(self, inst):
        h = self._house.get(inst)
        if h is None:
            h = self._house[inst] = self.info[inst.split("#", 1)[0]]["house"]
        return h

    def choose(self, view, ask):
        if ask["kind"] != "place" or len(ask["choices"]) == 1:
            return super().choose(view, ask)
        seat = view["seat"]
        court = view["court"]
        houses = self.houses
        # The cards this seat cannot see: everything not in the court and not in its hand.
        unseen = dict(self.totals)
        for row, k in zip(court["houses"], court["count"]):
            if not k:
                break  # a row with no card has none above it either
            for h in houses:
                unseen[h] -= row.count(h)
        in_hand = dict.fromkeys(houses, 0)
        house = self.house
        for inst in view["hand"]:
            h = house(inst)
            unseen[h] -= 1
            in_hand[h] += 1
        total_unseen = sum(unseen.values()) or 1
        sizes, out = view["hand_sizes"], view["out"]
        rivals = [sizes[s] for s in range(view["players"]) if s != seat and not out[s] and sizes[s]]
        trial = _Trials(court, C.open_spots(court), houses, in_hand)
        threat = {}  # the opponents' term, by the houses that would fit somewhere (a bit mask)
        by_outcome = {}  # (house played, fit mask, open places for its houses) -> score
        scored = {}  # (house played, row, pos) -> score
        house_of = self._house  # every card of the hand is in it (filled above)
        n = len(houses)
        best, best_score = [], float("-inf")
        for choice in ask["choices"]:
            h = house_of[choice[1]]
            key = (h, choice[2], choice[3])
            score = scored.get(key)
            if score is None:
                bases, fit, places = trial.after(h, choice[2], choice[3])
                outcome = (h, fit, bases + places)
                score = by_outcome.get(outcome)
                if score is None:
                    rest = trial.rest[h]
                    t = threat.get(fit)
                    if t is None:
                        q = sum(unseen[houses[i]] for i in range(n) if fit >> i & 1) / total_unseen
                        t = threat[fit] = OPPONENT * sum(1 - (1 - q) ** k for k in rivals)
                    score = 0.0
                    score += OWN_PLAYABLE * sum(rest[i] for i in range(n) if fit >> i & 1)
                    score += OWN_PLACES * (bases + places)
                    score -= t
                    by_outcome[outcome] = score
                scored[key] = score
            if score > best_score + 1e-9:
                best, best_score = [choice], score
            elif abs(score - best_score) <= 1e-9:
                best.append(choice)
        return best[self.below(ask, len(best))]


class _Trials:
    """The court after one placement, told by what changes: the open spots above the base (and
    which houses they take) less the one filled and plus those it opens, and the hand less the card.
    Houses are bits of a mask, in the order of `houses`."""

    def __init__(self, court, spots, houses, in_hand):
        self.court = court
        self.bit = bit = {h: 1 << i for i, h in enumerate(houses)}
        self.all = (1 << len(houses)) - 1
        self.base = 0
        self.upper = upper = {}  # (row, pos) -> the mask of the two houses it rests on
        masks = {}  # mask -> how many open upper spots have it
        contains = [0] * len(houses)  # house index -> open upper spots that take it
        index = {h: i for i, h in enumerate(houses)}
        for r, x, a, b in spots:
            if a is None:
                self.base += 1
                continue
            m = upper[r, x] = bit[a] | bit[b]
            masks[m] = masks.get(m, 0) + 1
            contains[index[a]] += 1
            if b != a:
                contains[index[b]] += 1
        self.contains = contains
        self.rest, self.kept, self.places = {}, {}, {}
        for h, k in in_hand.items():
            if k:
                rest = [in_hand[x] - (x == h) for x in houses]
                kept = sum(1 << i for i, n in enumerate(rest) if n)
                self.rest[h], self.kept[h] = rest, kept
                self.places[h] = sum(n for m, n in masks.items() if m & kept)

    def after(self, house, row, pos):
        """(open base positions, the mask of houses some open spot would take, open upper spots
        taking a house still in hand) once a card of `house` goes to (row, pos)."""
        court = self.court
        kept = self.kept[house]
        places = self.places[house]
        if row == 0:
            count = court["count"][0] + 1
            span = court["span"][0]
            lo, hi = (pos, pos) if span is None else (min(span[0], pos), max(span[1], pos))
            bases = 0 if count >= court["width"] else (lo > 0) + (hi < court["slots"] - 1)
            contains = self.contains
        else:
            bases = self.base
            gone = self.upper[(row, pos)]
            if gone & kept:
                places -= 1
            if not bases:
                contains = [c - (gone >> i & 1) for i, c in enumerate(self.contains)]
        # A base position takes any house.
        fit = self.all if bases else sum(1 << i for i, c in enumerate(contains) if c)
        up = row + 1
        if up < court["width"]:
            below, above = court["houses"][row], court["houses"][up]
            bit = self.bit
            if pos > 0 and below[pos - 1] is not None and above[pos - 1] is None:
                m = bit[below[pos - 1]] | bit[house]
                fit |= m
                places += bool(m & kept)
            if pos + 1 < len(below) and below[pos + 1] is not None and above[pos] is None:
                m = bit[house] | bit[below[pos + 1]]
                fit |= m
                places += bool(m & kept)
        return bases, fit, places
