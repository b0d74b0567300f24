"""A table harness for LCG scenarios: start a game, rig the cards, then choose like players do.

A Table skips setup by default (every seat places nothing and the opening hands are drawn), so it
stops at round 1's plot choice with empty tables: a test then puts the cards it needs in play, in
hands and on decks, chooses the plots and plays on. Rigging moves real card instances between zones
the way the engine does (model.take_out / put), keeps the card records consistent (zone, controller,
host, attachments) and notes constant abilities, so every card stays accounted for. `auto()` plays on
with plain choices (done, pass, else the first choice) until a condition holds.
"""

import copy

from harness import Harness
from maester.engine import cardtables
from maester.games.lcg import abilities as A
from maester.games.lcg import model as M
from maester.games.lcg.cards import card_table

PASSIVE = (["done"], ["pass"])


def instances(g):
    """Where every card instance lies, read from the player lists (not from the card records)."""
    out = []
    for seat, p in enumerate(g["players"]):
        for zone in ("deck", "hand", "discard", "dead", "plots", "used", "setup"):
            out += [(i, zone, seat) for i in p[zone]]
        if p["revealed"]:
            out.append((p["revealed"], "revealed", seat))
        out += [(i, "play", seat) for i in p["play"]]
    for inst, c in g["cards"].items():
        out += [(d, "dup", c["ctrl"]) for d in c["dups"]]
    return out


class Table(Harness):
    game = "lcg"

    def __init__(self, players=2, decks=None, seed=1, first=0, variants=(), observe=(), setup=False,
                 cards=None):
        config = {"players": players, "first": first, "variants": list(variants), "observe": list(observe),
                  "owner_cards": False}
        if decks is not None:
            config["decks"] = list(decks)
        if cards is not None:
            config["cards"] = cards
        self.asked = []    # (seat, kind) of every decision answered through this harness
        self.offered = []  # (phase, ask) of the same
        super().__init__(config, seed)
        if not setup:
            self.skip_setup()

    def choose(self, seat, *choice):
        ask = self.ask(seat)
        self.asked.append((ask["seat"], ask["kind"]))
        self.offered.append((self.g["phase"], ask))
        return super().choose(seat, *choice)

    def skip_setup(self):
        """Every seat places nothing; observed draws take the first card offered."""
        while self.state["asks"] and self.ask()["kind"] in ("setup", "draw"):
            ask = self.ask()
            self.choose(ask["seat"], *(["done"] if ask["kind"] == "setup" else ask["choices"][0]))

    # --- rigging --------------------------------------------------------------------------------

    def take(self, inst):
        g = self.g
        c = g["cards"][inst]
        if c["zone"] == "play":
            assert not c["att"] and not c["dups"], "take %s's attachments off first" % inst
            if c["on"] is not None:
                g["cards"][c["on"]]["att"].remove(inst)
                c["on"] = None
        M.take_out(g, inst)
        c["kneel"] = False
        c["ctrl"] = c["owner"]

    def to(self, zone, *insts, top=False):
        for inst in (reversed(insts) if top else insts):
            self.take(inst)
            M.put(self.g, inst, zone, top=top)

    def hand(self, seat, *insts):
        """Give `seat` exactly these cards in hand; the old hand goes to the bottom of the deck."""
        for inst in list(self.g["players"][seat]["hand"]):
            if inst not in insts:
                self.to("deck", inst)
        for inst in insts:
            if self.g["cards"][inst]["zone"] != "hand":
                self.to("hand", inst)
        self.refresh()

    def deck_top(self, *insts):
        """The next cards their owners draw, the first listed first."""
        self.to("deck", *insts, top=True)

    def play(self, inst, seat=None, kneel=False, power=0, on=None):
        """Put `inst` in play under `seat` (its owner by default), as if it had always been there."""
        g = self.g
        seat = M.owner_of(inst) if seat is None else seat
        self.take(inst)
        g["cards"][inst]["ctrl"] = seat
        M.put(g, inst, "play")
        c = g["cards"][inst]
        c["kneel"] = kneel
        if power:
            self._bank_power(power)
            c["power"] += power
        if on is not None:
            c["on"] = on
            g["cards"][on]["att"].append(inst)
        self.refresh()
        return inst

    def dup(self, inst, on):
        """Attach `inst` as a duplicate under `on`."""
        g = self.g
        self.take(inst)
        g["cards"][inst].update(zone="dup", on=on)
        g["cards"][on]["dups"].append(inst)

    def _bank_power(self, n):
        bank = self.g["bank"]
        assert bank["power"] >= n
        bank["power"] -= n

    def power(self, seat, n):
        """Set the power on `seat`'s House card (taken from or returned to the pool)."""
        p = self.g["players"][seat]
        self._bank_power(n - p["power"])
        p["power"] = n
        self.refresh()

    def gold(self, seat, n):
        """Set `seat`'s gold pool (taken from or returned to the Treasury)."""
        p = self.g["players"][seat]
        self.g["bank"]["gold"] -= n - p["gold"]
        p["gold"] = n
        self.refresh()

    # --- playing --------------------------------------------------------------------------------

    def plots(self, *plots):
        """Each seat in turn chooses the plot listed for it."""
        for seat, plot in enumerate(plots):
            self.choose(seat, "plot", plot)

    def asks_of(self, kind):
        return [a for a in self.state["asks"] if a["kind"] == kind]

    def auto(self, until=lambda t: False, limit=3000, prefer=PASSIVE):
        """Answer asks with plain choices until `until(self)` holds or the game ends."""
        for _ in range(limit):
            if self.state["over"] or until(self):
                return
            ask = self.ask()
            ch = ask["choices"]
            pick = next((c for c in prefer if c in ch), ch[0])
            self.choose(ask["seat"], *pick)
        raise AssertionError("auto() did not reach its condition; open: %s"
                             % [(a["seat"], a["kind"]) for a in self.state["asks"]])

    def until_ask(self, kind, seat=None):
        """Play on until `seat` (anyone) is asked a decision of `kind`."""
        self.auto(lambda t: any(a["kind"] == kind and (seat is None or a["seat"] == seat)
                                for a in t.state["asks"]))
        return self.ask(seat) if seat is not None else self.asks_of(kind)[0]

    def to_phase(self, phase):
        self.auto(lambda t: t.g["phase"] == phase and t.state["asks"])

    def declare(self, seat, ctype, opp, *attackers):
        """`seat` makes a challenge of `ctype` against `opp` with `attackers` (its next challenge)."""
        self.until_ask("challenge", seat)
        self.choose(seat, "challenge", ctype, opp)
        for a in attackers:
            self.choose(seat, "attacker", a)
        if self.state["asks"] and self.ask()["kind"] == "attackers":
            self.choose(seat, "done")

    def defend(self, seat, *defenders):
        """Play on (passing) until `seat` declares defenders, and declare these. With none to
        declare, a seat that has no character able to defend is not asked at all."""
        def at_defenders(t):
            ch = t.g["challenge"]
            return ch is None or "winner" in ch or any(
                a["kind"] == "defenders" and a["seat"] == seat for a in t.state["asks"])
        self.auto(at_defenders)
        if not any(a["kind"] == "defenders" and a["seat"] == seat for a in self.state["asks"]):
            assert not defenders, "seat %s was not asked for defenders" % seat
            return
        for d in defenders:
            self.choose(seat, "defender", d)
        if any(a["seat"] == seat and a["kind"] == "defenders" for a in self.state["asks"]):
            self.choose(seat, "done")  # (declaring the last one who could defend ends it by itself)

    def finish_challenge(self):
        """Pass and be done until the challenge under way is over."""
        self.auto(lambda t: t.g["challenge"] is None)

    def result(self):
        return [e for e in self.events if e["e"] == "challenge_result"][-1]

    def strength(self, inst):
        return M.strength(self.state, inst)

    def total_power(self, seat):
        return M.total_power(self.g, seat)

    def where(self, inst):
        return self.g["cards"][inst]["zone"]


def table_with(extra=None, decks=None):
    """The shipped card table with `extra` cards ({code: changes to the card it copies, with "of"})
    and `decks` ({name: {"house", "draw", "plots"}}) added: for a scenario the starter decks cannot
    set up (a second copy of a unique card, another House's card in a deck)."""
    table = copy.deepcopy(card_table(owner=False))
    for code, spec in (extra or {}).items():
        spec = dict(spec)
        rec = dict(table["cards"][spec.pop("of")])
        rec.update(spec)
        table["cards"][code] = rec
    for name, deck in (decks or {}).items():
        table["decks"][name] = deck
    return table


def worded(t, kinds):
    """The kinds among `kinds` that the game so far emitted; each of those events has words of its
    own in the play log (not the generic "Kind: field value" line)."""
    from maester.engine import PUBLIC
    from maester.games.lcg.text import describe_event
    mine = [e for e in t.events if e["e"] in kinds]
    for e in mine:
        line = describe_event(t.g, e, PUBLIC, cardtables.table(t.state))
        assert line and not line.startswith(e["e"].replace("_", " ").capitalize()), e
    return {e["e"] for e in mine}
