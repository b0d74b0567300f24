"""A table harness for B'Twixt scenarios: rig the cards, then tap and choose like players do.

Rigging moves real card instances between zones (so cards stay conserved) and then re-asks the
waiting step, the way a deck builder fixes the order of a physical deck before a test.
"""

from maester.engine import core
from maester.engine.core import Ctx, apply, view
from maester.games.btwixt import zones as Z


class Table:
    def __init__(self, players=4, seed=1, variants=(), first=0, **config):
        config.update(players=players, variants=list(variants), first=first)
        self.state, self.events = core.new_game("btwixt", config, seed)

    @property
    def g(self):
        return self.state["g"]

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

    def refresh(self):
        """Re-ask the waiting step so its legal choices reflect the rigged cards."""
        state = self.state
        state["asks"].clear()
        core._run(core.GAMES["btwixt"], Ctx(state, self.events))

    # --- playing ------------------------------------------------------------------------------

    def ask(self, seat=None):
        asks = self.state["asks"]
        if seat is not None:
            asks = [a for a in asks if a["seat"] == seat]
        assert asks, "nothing is asked of seat %s; open asks: %s" % (seat, self.state["asks"])
        return asks[0]

    def choose(self, seat, *choice):
        ask = self.ask(seat)
        choice = list(choice)
        if choice not in ask["choices"]:
            raise AssertionError("seat %s cannot choose %s at %s; on offer: %s"
                                 % (seat, choice, ask["kind"], ask["choices"]))
        result = apply(self.state, {"seat": seat, "ask": ask["id"], "choice": choice})
        assert result.ok, result
        self.events.extend(result.events)
        return result

    def play(self, seat, card):
        return self.choose(seat, "play", card)

    def kneel(self, seat):
        return self.choose(seat, "kneel")

    def kneel_all(self):
        """Everyone still standing kneels, in turn order."""
        while self.state["asks"] and self.ask()["kind"] == "turn":
            self.kneel(self.ask()["seat"])

    def choices(self, seat=None):
        return self.ask(seat)["choices"]

    def view(self, viewer):
        return view(self.state, viewer)

    def emitted(self, kind):
        return [e for e in self.events if e["e"] == kind]
