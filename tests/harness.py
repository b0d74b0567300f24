"""What every game's table harness shares: start a game, re-ask after rigging, ask, choose, look.

A game's harness subclasses `Harness`, sets `game`, and adds its own rigging (hands, decks, court)
and shortcuts (play, kneel, place). `choose` fails with the choices that were on offer.
"""

from maester.engine import core
from maester.engine.core import Ctx, apply, view


class Harness:
    game = ""

    def __init__(self, config, seed):
        self.state, self.events = core.new_game(self.game, config, seed)

    @property
    def g(self):
        return self.state["g"]

    def refresh(self):
        """Re-ask the waiting step so its legal choices reflect the rigged cards."""
        state = self.state
        if not state["asks"]:
            return
        state["asks"].clear()
        core._run(core.GAMES[self.game], Ctx(state, self.events))

    def ask(self, seat=None):
        asks = self.state["asks"]
        if seat is not None:
            asks = [a for a in asks if a["seat"] == seat]
        assert asks, "nothing is asked of seat %s; open asks: %s" % (
            seat, [(a["seat"], a["kind"]) for a in self.state["asks"]])
        return asks[0]

    def choices(self, seat=None):
        return self.ask(seat)["choices"]

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

    def view(self, viewer):
        return view(self.state, viewer)

    def emitted(self, kind):
        return [e for e in self.events if e["e"] == kind]
