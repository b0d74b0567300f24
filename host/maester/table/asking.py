"""What is put to a person, and what the table answers itself: the one place for that rule (issue 28).

The engine asks; this layer stands between its asks and the people at the table (seat pages, the
keyboard, the readers). Two kinds of decision are not put to anyone:

- **No choice.** An ask with a single legal answer that moves no card (a lone "pass", "done", the
  only seat a target can be) is answered at once, with that answer. A single answer that moves a
  card stays a tap: the cardboard must follow the game.
- **Windows.** An ask of a kind the game names in its table module's WINDOW_KINDS (the LCG's action,
  response, save and cancel windows, its marshalling and setup; B'Twixt's questions when Robb Stark
  is claimed) is one where the choices hang on a hidden hand: whether the seat holds a card that
  could act. The engine asks it on public facts only (games/lcg/timing.py, the Robb Stark step in
  games/btwixt/abilities.py), and here it closes on one public rule whatever the hand: it stays
  open `window_ms` for every seat, and then closes with the answer the game names for its end
  (pass; done; decline). A seat that wants to act does so within that time, or holds the window
  (`hold`: the clock stops until it answers). Any seat asked may hold, so a hold tells nothing
  certain either. A seat with nothing to play is not prompted at all: its window runs out.
- **Pauses.** A declaration a seat makes card by card (the LCG's attackers, defenders and Stealth
  marks: the game's `pause_end`) closes the same way once the seat has tapped a card into it: a
  public pause of `window_ms` after its last tap stands for its "done". What could still be added
  lies in play, so nothing hidden hangs on it; it spares a press, and hold works the same.

Every answer given here is submitted as the command it stands for, through the same path as a
tap or a page (TableRunner.submit or Session.submit): logged, so a resumed or replayed game is
exact, and a bot would have given the very same command (a single choice has one answer).

The layer is a clock and a rule, no game knowledge beyond WINDOW_KINDS and the games' table
hooks: `Asking.due(state, now)` says what to submit at time `now` and when to look again; `Pacer`
runs it on a thread beside a live game.
"""

import time

from .. import games
from ..engine import core
from ..engine.session import WokenThread

WINDOW_MS = 2000  # --window-ms: long enough to see one's own page light up and tap "hold"


def window_end(state, ask):
    """The answer that closes `ask` when its window runs out, or None when `ask` is no window. A
    game's `pause_end` adds declarations that close after a public pause following their last tap
    (the LCG's attackers, defenders and Stealth marks): the same clock, on public facts alone."""
    table = games.part(state["game"], "table")
    end = getattr(table, "WINDOW_KINDS", {}).get(ask["kind"])
    if end is None and hasattr(table, "pause_end"):
        end = table.pause_end(state, ask)
    return end if end is not None and end in ask["choices"] else None


def moves_card(state, ask, choice):
    """Whether answering `ask` with `choice` moves a physical card (or token): it names a card
    instance, or a tap of a card stands for it (the game's table module: tap_cards), or the game says
    so (its moves_card: B'Twixt's kneel turns the leader card)."""
    if any(type(x) is str and "#" in x for x in choice):
        return True
    table = games.part(state["game"], "table")
    hook = getattr(table, "moves_card", None)
    if hook is not None and hook(state, ask, choice):
        return True
    more = getattr(table, "tap_cards", None)
    return bool(more is not None and more(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice}))


def single(state, ask):
    """The lone answer of `ask` when it has one that moves no card, else None."""
    choices = ask["choices"]
    if len(choices) == 1 and not moves_card(state, ask, choices[0]):
        return choices[0]
    return None


def is_window(state, ask):
    return window_end(state, ask) is not None


def put_to_person(state, ask):
    """Whether `ask` is shown to its seat as a decision: not when it has a lone answer that moves no
    card (a window with nothing but pass included: its end answers it)."""
    return ask is not None and single(state, ask) is None


def needs_person(state, ask, choice):
    """Whether a person must act for `ask` to be answered with `choice`: False for what the table
    answers itself (a lone answer, or a pass in a window, which the window's end gives)."""
    end = window_end(state, ask)
    if end is not None:
        return choice != end
    return single(state, ask) is None


class Asking:
    """The rule, with the clock it needs: which people's asks to answer now, and the windows' ends."""

    def __init__(self, people, window_ms=WINDOW_MS):
        self.people = set(people)  # the seats played by people (and core.TABLE, when people answer it)
        self.window_ms = window_ms
        self.opened = {}  # ask id -> when this layer first saw it open (a window's clock starts there)
        self.held = set()  # ask ids whose window a seat holds
        # Seats played at the keyboard, where input cannot be timed: their windows with a choice wait
        # for the prompt (a window with nothing but its end still runs out).
        self.prompted = set()

    def due(self, state, now):
        """(commands to submit now, seconds until the next look or None). Only the people's asks:
        a bot's seat answers its own, with the same command."""
        out, wait = [], None
        live = set()
        for ask in state["asks"]:
            if ask["seat"] not in self.people:
                continue
            live.add(ask["id"])
            end = window_end(state, ask)
            if end is not None:
                start = self.opened.setdefault(ask["id"], now)
                if ask["id"] in self.held or ask["seat"] in self.prompted and single(state, ask) is None:
                    continue
                left = start + self.window_ms / 1000.0 - now
                if left <= 0:
                    out.append({"seat": ask["seat"], "ask": ask["id"], "choice": end})
                else:
                    wait = left if wait is None else min(wait, left)
                continue
            choice = single(state, ask)
            if choice is not None:
                out.append({"seat": ask["seat"], "ask": ask["id"], "choice": choice})
        for gone in set(self.opened) - live:  # closed asks: forget their clocks
            del self.opened[gone]
            self.held.discard(gone)
        return out, wait

    def hold(self, state, seat, ask_id):
        """Stop the clock of `seat`'s window `ask_id`: it waits for the seat's answer. Returns a reason
        when there is nothing to hold (None when held)."""
        ask = core.find_ask(state, ask_id)
        if ask is None or not core.same(ask["seat"], seat) or not is_window(state, ask):
            return "no window of yours is open to hold"
        self.held.add(ask_id)
        return None

    def countdown(self, state, now):
        """The open windows as everyone may see them: [{"ask", "seat", "left_ms", "held"}]. The same
        for a seat that holds a card that could act and one that does not."""
        out = []
        for ask in state["asks"]:
            if ask["seat"] in self.people and is_window(state, ask):
                left = self.opened.setdefault(ask["id"], now) + self.window_ms / 1000.0 - now
                held = ask["id"] in self.held
                out.append({"ask": ask["id"], "seat": ask["seat"], "held": held,
                            "left_ms": None if held else max(0, int(left * 1000))})
        return out


class Pacer(WokenThread):
    """Runs an Asking beside a live game: wakes on every accepted command (Session.watchers) and at
    each window's end, and submits what is due through `submit` (a TableRunner's, else the session's)."""

    def __init__(self, session, people, window_ms=WINDOW_MS, submit=None, clock=time.monotonic, on_change=None):
        super().__init__(session, "maester-asking")
        self.asking = Asking(people, window_ms)
        self.submit = submit or session.submit
        self.clock = clock
        self.on_change = on_change  # told when a countdown starts or stops (the pages redraw)
        self.clocks = None  # the seats' clocks (table/clocks.py SessionClocks): their answers at zero, here too

    def hold(self, seat, ask_id):
        with self.session.lock:
            reason = self.asking.hold(self.session.state, seat, ask_id)
        self._wake.set()
        if reason is None and self.on_change is not None:
            self.on_change()
        return reason

    def countdown(self):
        with self.session.lock:
            return self.asking.countdown(self.session.state, self.clock())

    def _run(self):
        try:
            while not self._stop.is_set():
                with self.session.lock:
                    if self.session.state["over"]:
                        return
                    now = self.clock()
                    commands, wait = self.asking.due(self.session.state, now)
                    if self.clocks is not None:
                        more, later = self.clocks.due(self.session.state, now)
                        commands = more + commands  # a seat out of time: its rule first
                        wait = later if wait is None else wait if later is None else min(wait, later)
                if self.clocks is not None:
                    self.clocks.told()  # a seat turned low: the LEDs and pages redraw (outside the lock)
                # A command closed meanwhile (the seat acted first) is refused, harmlessly.
                accepted = [self.submit(command).ok for command in commands]
                if any(accepted):
                    continue  # the answers may have opened new asks
                self._wake.wait(wait)
                self._wake.clear()
        except Exception as e:  # noqa: BLE001 — a failed write or rule: the loop waiting on us says so
            self.failed = e
