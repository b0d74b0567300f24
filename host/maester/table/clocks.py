"""Chess clocks for the people's seats (issue 30, item 3): `--clock 25m`, `--clock 20m+10s`.

One clock per seat a person plays. A clock runs while its seat has an open decision: the public rule
of who is asked (every seat with an open ask, several at once in a simultaneous decision), never
whether a hand holds a card that could act, so a clock tells nothing a seat's LEDs do not already
show. A window (table/asking.py) runs the clocks of the seats it asks, held or not; a decision the
table answers itself is gone in an instant. With an increment (Fischer), a seat that answers a
decision itself, its time not yet out, gets the increment back (a window closed by its end, a lone
answer the table gave, or an answer made at zero earns none).

At zero, what the seat's open decisions become (`zero_answer`), each submitted as the command it
stands for, through the same path as a tap or a page, so the log replays exactly:
- a window closes with its end (the LCG: pass, done; B'Twixt's Robb Stark questions);
- B'Twixt's bidding turn: the lowest influence card the seat may play, else it kneels;
- otherwise the decision's own pass (pass, done, decline, none), else its first listed choice.
A seat out of time stays at zero: each later decision of it is answered so, at once. With
`--clock-zero lose` the seat loses instead: the command `core.OUT_OF_TIME` ends the game there.

The clocks stop while they are paused (the board lost, the game paused) and while the game is over.
Their readings are kept in the game log, with each move (`stamp`, GameLog.append) and when they
stop (`record`): `resume` continues them from the last reading. Time comes from `now` (injected:
the tests run a simulated clock, no sleeping).
"""

import time

from .. import games
from ..engine import core
from . import asking
from .clockspec import ZERO_RULES, low_ms, parse_clock, shown, words  # noqa: F401 — one name for the callers

PASSES = (["pass"], ["done"], ["decline"], ["none"])
RECORD_EVERY_S = 15.0  # while clocks run, a reading is logged at least this often (a crash loses no more)


def zero_answer(state, ask):
    """The choice a decision of a seat whose time is out becomes (the rule the module docstring states)."""
    end = asking.window_end(state, ask)
    if end is not None:
        return end
    choices = ask["choices"]
    if state["game"] == "btwixt" and ask["kind"] == "turn":
        value = games.part("btwixt", "zones").facts(state["g"])["value"]
        bids = [c for c in choices if c[0] == "play"]
        if bids:
            return min(bids, key=lambda c: value.get(c[1], 0))  # the first of the lowest, in hand order
        return ["kneel"] if ["kneel"] in choices else choices[0]
    for word in PASSES:
        if word in choices:
            return word
    return choices[0]


class Clocks:
    """The seats' clocks: plain arithmetic on readings, driven by `now` (seconds, monotonic)."""

    def __init__(self, setting, seats, now, left=None, zero="rule"):
        if zero not in ZERO_RULES:
            raise ValueError("--clock-zero is %s, not %r" % (" or ".join(ZERO_RULES), zero))
        self.setting = dict(setting)
        self.zero = zero
        self.seats = sorted(set(s for s in seats if type(s) is int))
        self.left = {s: float(setting["base_ms"]) for s in self.seats}
        for s, ms in (left or {}).items():
            if s in self.left and isinstance(ms, (int, float)) and ms >= 0:
                self.left[s] = float(ms)
        self.running = set()
        self.since = now
        self.paused = set()  # why they are stopped: "board", "paused", "over"
        self.low = low_ms(setting)

    # --- time passing ------------------------------------------------------------------------

    def _charge(self, now):
        spent = (now - self.since) * 1000.0
        self.since = now
        if spent <= 0 or self.paused:
            return
        for s in self.running:
            self.left[s] = max(0.0, self.left[s] - spent)

    def sync(self, state, now):
        """Charge the time since the last look, then run the clocks of the seats asked now."""
        self._charge(now)
        self.running = set() if state["over"] else {a["seat"] for a in state["asks"] if a["seat"] in self.left}
        if state["over"]:
            self.paused.add("over")

    def pause(self, reason, now):
        self._charge(now)
        self.paused.add(reason)

    def unpause(self, reason, now):
        self._charge(now)
        self.paused.discard(reason)

    def stamp(self, state, command, now):
        """The reading kept with `command`, about to be applied to `state`: the time spent up to
        now, and the increment when the seat answered a decision itself with time left."""
        self._charge(now)
        seat = command.get("seat")
        if self.setting["increment_ms"] and seat in self.left and self.left[seat] > 0:
            ask = core.find_ask(state, command.get("ask"))
            # Only for an answer the seat made: not a window's end, nor a lone answer the table gave.
            if ask is not None and asking.needs_person(state, ask, command.get("choice")):
                self.left[seat] += self.setting["increment_ms"]
        return self.reading()

    # --- what is seen and done ---------------------------------------------------------------

    def reading(self, now=None):
        """{"left_ms": {seat: ms}} (whole ms), charged up to `now` when given."""
        if now is not None:
            self._charge(now)
        return {"left_ms": {str(s): int(ms) for s, ms in self.left.items()}}

    def public(self, now):
        """What every page, the terminal and the LEDs show: each clock, running or not, low or not.
        All public: the same whatever any hand holds."""
        self._charge(now)
        return {"setting": words(self.setting), "paused": sorted(self.paused - {"over"}),
                "seats": [{"seat": s, "left_ms": int(self.left[s]), "running": s in self.running and not self.paused,
                           "low": self.left[s] <= self.low} for s in self.seats]}

    def due(self, state, now):
        """(commands the clocks submit now, seconds until the next look or None): the zero rule for
        every open decision of a seat whose time is out."""
        self._charge(now)
        if self.paused or state["over"]:
            return [], None
        out, wait = [], None
        for ask in state["asks"]:
            seat = ask["seat"]
            if seat not in self.left:
                continue
            left = self.left[seat]
            if left <= 0:
                choice = core.OUT_OF_TIME if self.zero == "lose" else zero_answer(state, ask)
                out.append({"seat": seat, "ask": ask["id"], "choice": choice})
                if self.zero == "lose":
                    break  # the game ends with the first
                continue
            # The next look: when this clock reaches zero, or turns low (the LEDs start blinking).
            edge = left - self.low if left > self.low else left
            wait = edge / 1000.0 if wait is None else min(wait, edge / 1000.0)
        return out, wait


def setting_of(extra):
    """The clocks a game's log header keeps (`extra["clock"]`), or None."""
    kept = (extra or {}).get("clock")
    if not isinstance(kept, dict) or type(kept.get("base_ms")) is not int or type(kept.get("increment_ms")) is not int:
        return None
    return kept


def last_reading(log):
    """{seat: ms} of the last reading the log keeps, or {} (a game that has not moved yet)."""
    kept = log.last_clocks() if log is not None else None
    if not isinstance(kept, dict) or not isinstance(kept.get("left_ms"), dict):
        return {}
    return {int(s): ms for s, ms in kept["left_ms"].items() if s.lstrip("-").isdigit()}


def out_of_time_words(view, name_of):
    """The end of a game lost on time, in words, or None: `name_of(seat)` names a seat."""
    res = view.get("result") if view.get("over") else None
    if not isinstance(res, dict) or "out_of_time" not in res:
        return None
    winners = " and ".join(name_of(s) for s in res["winners"])
    return "%s ran out of time and loses the game; %s win%s." % (
        name_of(res["out_of_time"]), winners, "s" if len(res["winners"]) == 1 else "")


class SessionClocks:
    """Clocks beside a live session: each accepted move is stamped with their reading (logged with
    it), they follow the asks after each move, and a reading is logged when they stop, when a while
    has passed, and at the end. `listeners` are told when a seat's time turns low or runs out (the
    LEDs and the pages redraw). The Pacer (table/asking.py) runs `due` on its thread."""

    def __init__(self, session, clocks, now):
        self.session = session
        self.clocks = clocks
        self.now = now
        self.listeners = []
        self._low = None
        with session.lock:
            clocks.sync(session.state, now())
            self.recorded = now()
        session.stamp = self._stamp
        session.watchers.append(self._moved)

    def _stamp(self, state, command):  # under the session lock
        self.recorded = self.now()
        return self.clocks.stamp(state, command, self.recorded)

    def _moved(self, command=None):  # under the session lock, after the move
        self.clocks.sync(self.session.state, self.now())

    def record(self):
        with self.session.lock:
            if self.session.log is not None:
                self.session.log.record_clocks(self.session.state["seq"], self.clocks.reading(self.now()))
            self.recorded = self.now()

    def pause(self, reason):
        with self.session.lock:
            self.clocks.pause(reason, self.now())
        self.record()
        self._tell()

    def unpause(self, reason):
        with self.session.lock:
            self.clocks.unpause(reason, self.now())
        self._tell()

    def public(self):
        with self.session.lock:
            return self.clocks.public(self.now())

    def out_of_time(self, seat):
        with self.session.lock:
            self.clocks.reading(self.now())
            return self.clocks.left.get(seat, 1) <= 0

    def due(self, state, now):
        """As Clocks.due, called under the session lock; also logs a reading every RECORD_EVERY_S
        while the clocks run. Then call `told()` without the lock."""
        commands, wait = self.clocks.due(state, now)
        if self.clocks.running and not self.clocks.paused:
            if now - self.recorded >= RECORD_EVERY_S:
                self.record()
            wait = RECORD_EVERY_S if wait is None else min(wait, RECORD_EVERY_S)
        return commands, wait

    def told(self):
        """Tell the listeners when a seat turned low (or out) since the last look. Never under the
        session lock: a listener (the LEDs) takes the table runner's lock, which a tap holds while
        it waits for the session's."""
        with self.session.lock:
            low = frozenset(s for s, ms in self.clocks.left.items() if ms <= self.clocks.low)
        if low != self._low:
            self._low = low
            self._tell()

    def _tell(self):
        for listen in list(self.listeners):
            listen()

    def close(self):
        """Log the reading where the clocks stopped; let go of the session."""
        try:
            self.record()
        finally:
            if self.session.stamp == self._stamp:
                self.session.stamp = None
            if self._moved in self.session.watchers:
                self.session.watchers.remove(self._moved)


def start(session, people, wanted=None, zero=None, now=None):
    """The clocks of `session`, or None: those its log keeps (a resumed game continues them from
    their last reading), else `wanted` (--clock; kept in the log's header from now on). Raises
    ValueError when the command line asks for other clocks than the game has."""
    now = now or time.monotonic
    log = session.log
    extra = dict(log.header().get("extra") or {}) if log is not None else {}
    kept = setting_of(extra)
    if kept is not None:
        if wanted is not None and (wanted["base_ms"], wanted["increment_ms"]) != (kept["base_ms"], kept["increment_ms"]):
            raise ValueError("this game keeps its clocks (%s): drop --clock %s" % (words(kept), words(wanted)))
        setting, rule = kept, kept.get("zero", "rule")
    elif wanted is None:
        if zero is not None:
            raise ValueError("--clock-zero %s: this game has no clocks; give one with --clock" % zero)
        return None
    else:
        setting, rule = dict(wanted), zero or "rule"
    if zero is not None and zero != rule:
        raise ValueError("this game's clocks were started with --clock-zero %s; drop --clock-zero %s" % (rule, zero))
    if rule == "lose" and session.state["config"].get("clock_zero") != "lose":
        raise ValueError("--clock-zero lose is chosen when a game starts (play or demo); this game was started "
                         "without it")
    if kept is None and log is not None:
        extra["clock"] = dict(setting, zero=rule)
        log.set_extra(extra)
    clocks = Clocks(setting, people, now(), last_reading(log), rule)
    return SessionClocks(session, clocks, now)


PAUSE_WORDS = {"board": "the board is lost", "paused": "the game is paused"}


def clock_line(public, name_of):
    """The clocks in one line for the terminal: 'Clocks (25m): Seat 0 24:31 ▶ · Seat 1 LOW 0:42'."""
    parts = []
    for c in public["seats"]:
        parts.append("%s %s%s%s" % (name_of(c["seat"]), "LOW " if c["low"] and c["left_ms"] else "",
                                    shown(c["left_ms"]) if c["left_ms"] else "out of time", " ▶" if c["running"] else ""))
    paused = " (stopped: %s)" % ", ".join(PAUSE_WORDS.get(p, p) for p in public["paused"]) if public["paused"] else ""
    return "Clocks (%s)%s: %s" % (public["setting"], paused, " · ".join(parts))

