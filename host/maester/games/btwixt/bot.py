"""A B'Twixt bot that plays for its small council: it keeps its two councils balanced.

It reads only its seat's view (public table + its own hand) and the public card data.
Power tokens are unseen, so each counts as the average token value.
"""

from ...engine.bots import HeuristicBase

TOKEN_GUESS = 2


class _Values(dict):
    """Card instance → its influence value or power, filled in on first use (the hot path is a lookup)."""

    def __init__(self, info):
        super().__init__()
        self.info = info

    def __missing__(self, inst):
        rec = self.info.get(inst.split("#", 1)[0], {})
        value = self[inst] = rec.get("value", rec.get("power", 0))
        return value


class HeuristicBot(HeuristicBase):
    lazy_view = False  # it reads most of its view at every decision, several times: a dict is quicker

    def __init__(self, seed=0, seat=0, info=None):
        super().__init__(seed, seat, info)
        self.values = _Values(self.info)  # card instance → influence value or ally power

    # --- what the bot can estimate from its view --------------------------------------------

    def value(self, inst):
        return self.values[inst]

    def council_power(self, view, c):
        council = view["councils"][c]
        return sum(self.value(a) for a in council["allies"]) + TOKEN_GUESS * len(council["tokens"])

    def my_councils(self, view):
        seat, n = view["seat"], view["players"]
        return seat, (seat - 1) % n

    def weaker(self, view, options):
        return min(options, key=lambda c: (self.council_power(view, c), c))

    # --- decisions ----------------------------------------------------------------------------

    def choose(self, view, ask):
        handler = getattr(self, "on_" + ask["kind"], None)
        choice = handler(view, ask) if handler else None
        return choice if choice is not None else super().choose(view, ask)

    def on_turn(self, view, ask):
        seat = view["seat"]
        values = self.values
        totals = [sum([values[c] for c in pile]) for pile in view["bids"]]
        mine = totals[seat]
        best_other = max(t for s, t in enumerate(totals) if s != seat)
        plays = sorted((values[c[1]], c) for c in ask["choices"] if c[0] == "play")
        kneel = ["kneel"]
        if mine > best_other or not plays or view["current"] is None:
            return kneel
        # Spend about a fair share of the hand per round left in the season.
        rounds_left = view["last_space"] - view["round_space"] + 1
        budget = len(view["hand"]) / max(rounds_left, 1)
        worth = self.value(view["current"]) >= 3 or rounds_left <= 1
        if not worth or len(view["bids"][seat]) >= budget + 1:
            return kneel
        for value, choice in plays:
            if mine + value > best_other:
                return choice
        return plays[-1][1] if len(view["hand"]) > rounds_left else kneel

    def on_place_ally(self, view, ask):
        return ["council", self.weaker(view, [c[1] for c in ask["choices"]])]

    on_place_token = on_place_ally

    def on_draft(self, view, ask):
        return max(ask["choices"], key=lambda c: self.value(c[1]))

    def on_discard(self, view, ask):
        return min(ask["choices"], key=lambda c: self.value(c[1]))

    def on_varys_take(self, view, ask):
        return max(ask["choices"], key=lambda c: self.value(c[1]))

    def on_betrayal(self, view, ask):
        takes = [c for c in ask["choices"] if c[0] == "take"]
        return max(takes, key=lambda c: self.value(c[1])) if takes else ["none"]

    def on_corruption(self, view, ask):
        left, right = self.my_councils(view)
        weak = self.weaker(view, [left, right])
        strong = right if weak == left else left
        for c in ask["choices"]:
            if c[2] == weak and c[1] in view["councils"][strong]["tokens"]:
                return c
        return None

    def on_shae(self, view, ask):
        # Move the ally that leaves the two councils closest in power.
        mine = self.my_councils(view)
        shae = next(c for c in mine if any(a.startswith("shae#") for a in view["councils"][c]["allies"]))
        other = mine[1] if shae == mine[0] else mine[0]
        gap = self.council_power(view, shae) - self.council_power(view, other)
        return min(ask["choices"], key=lambda c: abs(gap + 2 * self.value(c[1])))

    def on_robb_cancel(self, view, ask):
        return ["betray"] if ["betray"] in ask["choices"] else ["accept"]

    def on_robb_kill(self, view, ask):
        return ["decline"]

    def on_manual(self, view, ask):
        return ["done"]

    def on_kill_ally(self, view, ask):
        return max(ask["choices"], key=lambda c: self.value(c[1]))
