"""A seat played by a bot whose real cards a person at the table handles (`--bot-hands SEAT`, issue 30).

The bot decides exactly as at any bot seat, once for each of its seat's open decisions (its *plan*),
but a plan that a tap can express is not applied by the bot: the person handling the seat's cards
reads it on the seat's hands page (web/hands.py) and taps that card on that reader, and the tap is
applied like any seat's. A plan that no tap expresses (a pass, a number, a seat to target) is applied
by the table at once. A tap at the table that would answer the seat's decision any other way is
refused: the seat plays what its bot chose, not what its handler prefers.

Secrets: the plan names the seat's hidden cards, so its words go to the hands page alone. The table
page is told only what the public view already shows (`public_words`): a hidden card is HIDDEN_CARD.
The refusal of a wrong tap, said on the host display, names no card.

    bot ─► plan (ask, command, tap) ─► hands page: "play Ned Stark: tap it on seat2"
                                  └──► no tap: HandsDriver submits it
    tap ─► TableRunner._judge ─► judge_tap: the planned tap → the planned command; another → refused
"""

import json
import threading

from ..engine import PUBLIC, core
from ..engine.bots import card_info, decide, make_bot
from ..engine.session import WokenThread
from . import profile as P
from .simtable import pick_for, tap_for
from .taps import command_for_tap

WRONG_TAP = "seat %s is played by its bot: tap only what its hands page says"
HIDDEN_CARD = "a card only its handler sees"  # the table page's words for a card the public may not see


class BotHands:
    """The plans of the bot-hands seats, the one place that says which tap each of them waits for."""

    def __init__(self, session, runner, seats, kind="heuristic"):
        state = session.state
        info = card_info(state)
        self.session = session
        self.runner = runner
        self.seats = set(seats)
        self.bots = {s: make_bot(state["game"], kind, state["seed"], s, info) for s in self.seats}
        self.places = P.places(runner.profile)  # place (a seat, "table", a zone) → its reader's name
        self.plans = {}  # ask id → the plan made for it, kept while the ask is open: a bot decides once
        self.lock = threading.Lock()

    def open_plans(self):
        """The plans for the bot-hands seats' open decisions, made the first time one is asked for:
        [{"ask", "seat", "command", "tap": (place, card) or None, "reader"}]."""
        with self.session.lock, self.lock:
            state = self.session.state
            if state["over"]:
                return []
            out = []
            for ask in state["asks"]:
                if ask["seat"] not in self.seats:
                    continue
                plan = self.plans.get(ask["id"])
                if plan is None or plan["choices"] != ask["choices"]:
                    plan = self.plans[ask["id"]] = self._plan(state, ask)
                out.append(plan)
            live = {p["ask"] for p in out}
            for gone in set(self.plans) - live:  # answered: forget it
                del self.plans[gone]
            return out

    def _plan(self, state, ask):
        seat = ask["seat"]
        choice = decide(self.bots[seat], state, seat, ask, core.view)
        command = {"seat": seat, "ask": ask["id"], "choice": choice}
        # The tap that means this command, or (Intrigue) the tap whose held positions include it:
        # the handler taps the card; which position is the bot's to say, so it is applied at once.
        tap = tap_for(state, self.places, command)
        if tap is None:
            picked = pick_for(state, self.places, command)
            tap = picked[:2] if picked is not None else None
        return {"ask": ask["id"], "seat": seat, "choices": ask["choices"], "command": command, "tap": tap,
                "reader": self.places[tap[0]] if tap is not None else None}

    def judge_tap(self, state, place, card):
        """What a tap of `card` at `place` does for the bot-hands seats: (the planned command, None)
        when it is a planned tap, (None, why it is refused) when it would answer a bot-hands seat's
        decision otherwise, or None when it is not theirs (judged as any tap)."""
        plans = self.open_plans()
        for plan in plans:
            if plan["tap"] == (place, card):
                return plan["command"], None
        found, _ = command_for_tap(state, place, card)
        seat = found["seat"] if found is not None else place
        if seat in self.seats and any(p["seat"] == seat for p in plans):
            return None, WRONG_TAP % seat
        return None

    def private_words(self, plan):
        """The plan in the words of its seat's view (its own hidden cards named), for its hands page."""
        state = self.session.state
        ask = core.find_ask(state, plan["ask"])
        what = self.runner.choice_words(ask, plan["command"]["choice"]) if ask is not None else ""
        if plan["tap"] is None:
            return {"what": what, "tap": None}
        card = plan["tap"][1]
        name = self.runner.card_words(card)
        if name not in what:  # a choice worded by its place alone (Intrigue's court): say the card too
            what = "%s: %s" % (name, what)
        return {"what": what, "tap": {"card": card, "name": name, "reader": plan["reader"]}}

    def public_words(self, plan, view=None):
        """A plan that waits for a tap, as everyone may read it: its words only if every card it names
        is in the public view (a card in play to attack with), else "a card from its hand"."""
        view = core.view(self.session.state, PUBLIC) if view is None else view
        shown = json.dumps(view)
        cards = [x for x in plan["command"]["choice"] if isinstance(x, str) and "#" in x] + [plan["tap"][1]]
        private = self.private_words(plan)
        if all(json.dumps(c) in shown for c in cards):
            what = private["what"]
        else:
            what = HIDDEN_CARD
        return "Seat %s's bot: %s (the handler taps it on %s)" % (plan["seat"], what, plan["reader"])


class HandsDriver(WokenThread):
    """Applies the plans no tap expresses, after `delay` so the table can follow, and, with `lay`
    (the simulated table's hands: `lay(reader, card)`), taps the others too. Wakes on every command."""

    def __init__(self, hands, delay=0.0, lay=None):
        super().__init__(hands.session, "maester-bot-hands")
        self.hands = hands
        self.delay = delay
        self.lay = lay

    def _run(self):
        try:
            while not self._stop.is_set():
                self._wake.wait()
                self._wake.clear()  # before looking: a command accepted from now on wakes us again
                while not self._stop.is_set() and self._step():
                    pass
        except Exception as e:  # noqa: BLE001 — a failed write or rule: the loop waiting on the seat says so
            self.failed = e

    def _step(self):
        """Act on one open plan; False when none is ours to act on now."""
        for plan in self.hands.open_plans():
            if plan["tap"] is not None and self.lay is None:
                continue  # the person handling the cards taps it
            if self._stop.wait(self.delay):
                return False
            if core.find_ask(self.session.state, plan["ask"]) is None:
                return True  # answered meanwhile (a tap, the game moved on): look again
            if plan["tap"] is None:
                result = self.hands.runner.submit(plan["command"])
                if not result.ok and core.find_ask(self.session.state, plan["ask"]) is not None:
                    raise RuntimeError("the bot at seat %s made a move the rules refuse: %s"
                                       % (plan["seat"], result.reason))
            else:
                self.lay(plan["reader"], plan["tap"][1])
            return True
        return False


def driver_for(session, sim, seats, kind, delay):
    """The bot-hands seats of a game on `sim` (a SimTable, or a board's BoardTable): their plans are
    made the runner's judge of taps, and a HandsDriver made to act for them, not yet started (on the
    simulated table it taps for the handler too). None without such seats."""
    if not seats:
        return None
    runner = getattr(sim, "runner", None)
    if runner is None:
        raise ValueError("--bot-hands: a bot seat played with real cards needs a table (not --no-table)")
    hands = BotHands(session, runner, seats, kind)
    runner.hands = hands
    return HandsDriver(hands, delay, lay=getattr(sim, "lay", None))
