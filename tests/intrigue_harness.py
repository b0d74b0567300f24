"""A table harness for Westeros Intrigue scenarios: rig the deal and the court, then place cards.

Houses are written by their initials (S Stark, L Lannister, B Baratheon, T Targaryen). Rigging
moves real card instances (so all 36 stay accounted for), checks the court is legal, and re-asks
the waiting turn so the choices reflect the rigged cards.
"""

from harness import Harness
from maester.games.intrigue import court as C
from maester.games.intrigue import flow

HOUSE = {"S": "stark", "L": "lannister", "B": "baratheon", "T": "targaryen"}
INITIAL = {v: k for k, v in HOUSE.items()}


def everything(g):
    return flow.all_characters(g)


class Table(Harness):
    game = "intrigue"

    def __init__(self, players=4, seed=1, **config):
        config.setdefault("owner_cards", False)
        config.update(players=players)
        super().__init__(config, seed)

    @property
    def court(self):
        return self.g["court"]

    # --- rigging ------------------------------------------------------------------------------

    def rig(self, rows=(), hands=None, turn=None, offset=0, full_deal=False):
        """Lay out the court and the hands for the current round.

        `rows` are strings from the base up, one character per position starting at `offset`
        ('.' = empty); `hands` maps a seat to a string of house initials, and seats not named hold
        nothing. The cards left over are set aside in the box for the round; with `full_deal` there
        must be none (every card in a hand or the court, as in a real deal for 3 players or more).
        `turn` is the seat to play next (default: this round's starter).
        """
        g = self.g
        pool = sorted(everything(g))
        taken = set()

        def take(initial):
            house = HOUSE[initial]
            for inst in pool:
                if inst not in taken and g["house_of"][inst] == house:
                    taken.add(inst)
                    return inst
            raise AssertionError("no %s card left to rig" % house)

        config = self.state["config"]
        court = C.new_court(config["base_width"], config["court"])
        for r, row in enumerate(rows):
            for i, ch in enumerate(row):
                if ch != ".":
                    C.place(court, take(ch), HOUSE[ch], r, offset + i)
        g["court"] = court
        g["start_card"] = None
        g["hands"] = [[take(ch) for ch in (hands or {}).get(seat, "")] for seat in range(g["n"])]
        g["box"] = [c for c in pool if c not in taken]
        if g["box"] and full_deal:
            raise AssertionError("%d cards are neither in the court nor in a hand" % len(g["box"]))
        assert C.problems(court, g["house_of"]) == [], C.problems(court, g["house_of"])
        g["out"] = [False] * g["n"]
        g["last"] = None
        g["turn"] = g["starter"] if turn is None else turn
        self.refresh()

    def throne_deck(self, *cards):
        """The Iron Throne cards still to draw, the first drawn first."""
        g = self.g
        rest = [c for c in g["throne_deck"] if c not in cards]
        g["throne_deck"] = rest + list(reversed(cards))

    # --- playing ------------------------------------------------------------------------------

    def card_in_hand(self, seat, initial):
        for inst in self.g["hands"][seat]:
            if self.g["house_of"][inst] == HOUSE[initial]:
                return inst
        raise AssertionError("seat %d holds no %s card: %s" % (seat, HOUSE[initial], self.g["hands"][seat]))

    def place(self, seat, initial, row, pos):
        """Seat places one of its cards of that house at (row, pos)."""
        return self.choose(seat, "place", self.card_in_hand(seat, initial), row, pos)

    def positions(self, seat, initial):
        """The positions on offer to `seat` for its cards of one house."""
        inst = self.card_in_hand(seat, initial)
        return [c[2:] for c in self.ask(seat)["choices"] if c[1] == inst]

    def houses(self, row):
        """A row of the court as initials ('.' empty), trimmed to the base's span."""
        court = self.court
        lo, hi = court["span"][0]
        return "".join(INITIAL[h] if h else "." for h in court["houses"][row][lo:hi + 1 - row])
