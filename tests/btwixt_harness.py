"""A table harness for B'Twixt scenarios: rig the cards, then tap and choose like players do.

Rigging moves real card instances between zones (so cards stay conserved) and then re-asks the
waiting step, the way a deck builder fixes the order of a physical deck before a test.
"""

from harness import Harness
from maester.games.btwixt import zones as Z


class Table(Harness):
    game = "btwixt"

    def __init__(self, players=4, seed=1, variants=(), first=0, **config):
        config.update(players=players, variants=list(variants), first=first)
        super().__init__(config, seed)

    # --- rigging ------------------------------------------------------------------------------

    def _take(self, inst):
        """Remove a card instance from wherever it is (influence or ally zones)."""
        g = self.g
        for zone in [g["deck"], g["discard"], g["removed"], g["removed_unseen"], g["events_aside"], g["ally_deck"], g["row"],
                     g["dead"], *g["hands"], *g["bids"], *g["leader_cards"],
                     *(c["allies"] for c in g["councils"])]:
            if inst in zone:
                zone.remove(inst)
                return
        if g["current"] == inst:
            g["current"] = None
            return
        raise AssertionError("card %s is nowhere" % inst)

    def hand(self, seat, *cards):
        """Give `seat` exactly these cards; its old hand goes back into the deck."""
        g = self.g
        for inst in cards:
            self._take(inst)
        g["deck"] += g["hands"][seat]
        g["hands"][seat] = list(cards)
        self.refresh()

    def current(self, ally):
        g = self.g
        if g["current"] is not None:
            g["ally_deck"].append(g["current"])
        self._take(ally)
        g["current"] = ally
        g["round"]["effects"] = [e for e in ("jaime", "arianne") if Z.ability(g, ally) == e]
        self.refresh()

    def council(self, c, *allies, tokens=()):
        """Put allies (and tokens with given values) into council `c`."""
        g = self.g
        for inst in allies:
            self._take(inst)
            g["councils"][c]["allies"].append(inst)
        for value in tokens:
            tok = next(t for t in g["supply"] if g["token_value"][t] == value)
            g["supply"].remove(tok)
            g["councils"][c]["tokens"].append(tok)

    def ally_deck_top(self, *allies):
        """Put these allies on top of the ally deck, the first topmost."""
        for inst in allies:
            self._take(inst)
        self.g["ally_deck"].extend(reversed(allies))

    # --- playing ------------------------------------------------------------------------------

    def play(self, seat, card):
        return self.choose(seat, "play", card)

    def kneel(self, seat):
        return self.choose(seat, "kneel")

    def kneel_all(self):
        """Everyone still standing kneels, in turn order."""
        while self.state["asks"] and self.ask()["kind"] == "turn":
            self.kneel(self.ask()["seat"])
