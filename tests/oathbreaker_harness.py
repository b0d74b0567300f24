"""A table harness for Oathbreaker scenarios: rig the cards, then choose like players do.

A Table stops at the King's choice of the first Hand of the King, before the first Mission Round
is dealt, so a test can stack the mission deck and the hands first; `start(hand)` then answers
it. Rigging moves real card instances between zones (every card stays accounted for) and re-asks
the waiting step so its choices reflect the rigged cards. `auto()` plays on with plain choices
(done when it may, pass on abilities, else the first choice) until a condition holds.
"""

from harness import Harness
from maester.games.oathbreaker import missions as M

# The diamond side of each board, in board order: Stark, Baratheon, Targaryen, Lannister, Tyrell, Greyjoy.
DIAMONDS = ["ned-stark", "stannis-baratheon", "daenerys-targaryen", "tyrion-lannister", "olenna-tyrell",
            "yara-greyjoy"]


def default_characters(players, king=0, queen=None):
    chars, it = [], iter(DIAMONDS)
    for seat in range(players):
        chars.append(None if seat in (king, queen) else next(it))
    return chars


def influence_everywhere(g):
    return (g["deck"] + g["discard"] + [c for h in g["hands"] for c in h]
            + [c for m in g["missions"] for c in m["cards"]] + [c for _, c in g["confessed"]])


def decrees_everywhere(g):
    return (g["decree_deck"] + [c for h in g["decree_hands"] for c in h]
            + [d["card"] for held in g["decrees"] for d in held] + g["resolving"])


class Table(Harness):
    game = "oathbreaker"

    def __init__(self, players=6, seed=1, king=0, characters="default", **config):
        config.setdefault("owner_cards", False)
        queen = config.get("queen", (king + 1) % players if players == 8 else None)
        if characters == "default":
            characters = default_characters(players, king, queen)
        if characters is not None:
            config["characters"] = characters
        config.update(players=players, king=king)
        super().__init__(config, seed)

    def start(self, hand=1):
        self.choose(self.g["king"], "hand", hand)

    # --- rigging ------------------------------------------------------------------------------

    def _take(self, inst):
        g = self.g
        zones = [g["deck"], g["discard"], *g["hands"], *(m["cards"] for m in g["missions"]),
                 g["decree_deck"], *g["decree_hands"], g["mission_deck"]]
        for zone in zones:
            if inst in zone:
                zone.remove(inst)
                return
        raise AssertionError("card %s is nowhere it can be taken from" % inst)

    def hand(self, seat, *cards):
        """Give a noble exactly these influence cards; the old hand goes back into the deck."""
        g = self.g
        for inst in cards:
            self._take(inst)
        g["deck"] = g["hands"][seat] + g["deck"]
        g["hands"][seat] = list(cards)
        self.refresh()

    def deck_top(self, *cards):
        """The next influence cards drawn, the first listed first."""
        for inst in cards:
            self._take(inst)
        self.g["deck"] += list(reversed(cards))

    def mission_deck_top(self, *cards):
        for inst in cards:
            self._take(inst)
        self.g["mission_deck"] += list(reversed(cards))

    def decree_deck_top(self, *cards):
        for inst in cards:
            self._take(inst)
        self.g["decree_deck"] += list(reversed(cards))

    def decree_hand(self, seat, *cards):
        g = self.g
        for inst in cards:
            self._take(inst)
        g["decree_deck"] = g["decree_hands"][seat] + g["decree_deck"]
        g["decree_hands"][seat] = list(cards)
        self.refresh()

    def missions(self, *cards):
        """Replace this round's missions (nothing played yet) with these."""
        g = self.g
        for m in g["missions"]:
            g["deck"] += m["cards"]
            g["mission_deck"].insert(0, m["card"])
        for inst in cards:
            self._take(inst)
        g["missions"] = [M.new_mission(g, inst) for inst in cards]
        self.refresh()

    def cubes(self, seat, coin=0, honor=0, power=0):
        self.g["cubes"][seat] = [coin, honor, power]
        self.refresh()

    def loyalty(self, seat, loyalty):
        """Swap loyalty cards so `seat` holds `loyalty` (with another noble or the Agent)."""
        g = self.g
        if g["loyalty"][seat] == loyalty:
            return
        for s in g["nobles"]:
            if g["loyalty"][s] == loyalty and s != seat:
                g["loyalty"][s], g["loyalty"][seat] = g["loyalty"][seat], loyalty
                return
        assert g["agent"] == loyalty, "no %s loyalty to swap with" % loyalty
        g["agent"], g["loyalty"][seat] = g["loyalty"][seat], loyalty

    def loyalties(self, **by_seat):
        for seat, loyalty in by_seat.items():
            self.loyalty(int(seat[1:]), loyalty)

    # --- playing ------------------------------------------------------------------------------

    def play(self, seat, *plays):
        """Seat plays cards face down: play(2, ("crown#1", 0), ("sabotage#1", 1)), then done."""
        for inst, mission in plays:
            self.choose(seat, "play", inst, mission)
        if self.state["asks"] and self.ask()["seat"] == seat and ["done"] in self.choices(seat):
            self.choose(seat, "done")

    def auto(self, until=lambda t: False, limit=5000):
        """Answer asks with plain choices until `until(self)` holds or the game ends."""
        for _ in range(limit):
            if self.state["over"] or until(self):
                return
            ask = self.ask()
            ch = ask["choices"]
            pick = next((c for c in (["done"], ["pass"], ["no_trade"], ["decline"]) if c in ch), ch[0])
            self.choose(ask["seat"], *pick)
        raise AssertionError("auto() did not reach its condition")

    def to_decree_round(self):
        self.auto(lambda t: t.g["phase"] == "decree" and t.state["asks"] and t.ask()["kind"] == "decree")

    def at_round_start(self):
        g = self.g
        return (g["phase"] == "mission" and bool(self.state["asks"]) and self.ask()["kind"] in ("play", "cornered")
                and not any(sum(m["counts"]) for m in g["missions"]))

    def to_mission_round(self):
        """Play on until a Mission Round's first decision: the next one, unless one is just starting."""
        if self.at_round_start():
            return
        space = self.g["space"]
        self.auto(lambda t: t.g["space"] > space and t.at_round_start())

    def to_turn(self, seat):
        """Play on (plain choices) until it is `seat`'s turn to play cards."""
        self.auto(lambda t: t.ask()["kind"] == "play" and t.ask()["seat"] == seat)
