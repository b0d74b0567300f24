"""A Westeros Intrigue bot that tries to be the last one able to place.

It decides from its seat's view alone: the court, its own hand, the hand sizes and who is out, and
the public card list (how many cards each house has). Other hands are unknown, so it treats every
card it cannot see as equally likely to be in any of them.

For each legal placement it looks at the court that would result and scores it: how many of its
own remaining cards could still be placed, how many places still take its houses, and how likely
each opponent still in the round is to have a card that fits somewhere (which it wants low).
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

    def house(self, inst):
        return self.info[inst.split("#", 1)[0]]["house"]

    def choose(self, view, ask):
        if ask["kind"] != "place" or len(ask["choices"]) == 1:
            return super().choose(view, ask)
        seat = view["seat"]
        hand = view["hand"]
        court = view["court"]
        # The cards this seat cannot see: everything not in the court and not in its hand.
        unseen = dict(self.totals)
        for row in court["houses"]:
            for h in row:
                if h is not None:
                    unseen[h] -= 1
        for inst in hand:
            unseen[self.house(inst)] -= 1
        total_unseen = sum(unseen.values()) or 1
        rivals = [view["hand_sizes"][s] for s in range(view["players"])
                  if s != seat and not view["out"][s] and view["hand_sizes"][s]]
        best, best_score = [], None
        for choice in ask["choices"]:
            _, inst, row, pos = choice
            trial = C.copy_court(court)
            C.place(trial, inst, self.house(inst), row, pos)
            spots = C.open_spots(trial)
            rest = list(hand)
            rest.remove(inst)
            score = 0.0
            base_open = bool(spots) and spots[0][2] is None
            fit = {}
            for h in self.totals:
                fit[h] = base_open or any(a == h or b == h for (_, _, a, b) in spots)
            score += OWN_PLAYABLE * sum(1 for c in rest if fit[self.house(c)])
            score += OWN_PLACES * sum(1 for (_, _, a, b) in spots
                                      if a is None or any(self.house(c) in (a, b) for c in rest))
            q = sum(unseen[h] for h in fit if fit[h]) / total_unseen
            score -= OPPONENT * sum(1 - (1 - q) ** k for k in rivals)
            if best_score is None or score > best_score + 1e-9:
                best, best_score = [choice], score
            elif abs(score - best_score) <= 1e-9:
                best.append(choice)
        return best[self.below(ask, len(best))]
