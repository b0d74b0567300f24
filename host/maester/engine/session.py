"""A game in progress: the live state, its log, and the events seen so far.

`submit` is the only way a command reaches a logged game: check it, apply it, write it to the log
(synced), and only then report it accepted. If writing fails, or the rules code raises, the state
is rebuilt from the log so nothing half-done survives. `resume` rebuilds a game from its log.
"""

import threading
import time

from . import core
from .log import UNDO, GameLog, LogError


class EngineFault(RuntimeError):
    """The rules code failed on a legal command. The game was restored from its log."""


class Session:
    def __init__(self, state, log=None, events=None, moves=None):
        self.state = state
        self.log = log
        self.events = events if events is not None else []
        # (command, outcomes) of the moves still standing: what an undo folds again (table/undo.py)
        self.moves = moves if moves is not None else []
        # Commands may come from several threads at once (the terminal loop, the table link, seat
        # pages): one lock keeps a command and the views read beside it whole. Reentrant, so a
        # watcher or a reader already holding it may look at the state.
        self.lock = threading.RLock()
        # Called with the accepted command after every accepted command (the web pages' broadcast).
        # They run under the lock, so they must only schedule work, never wait for it.
        self.watchers = []
        # Called (state, command) under the lock for a command accepted, before it is applied: a
        # value kept with it in the log (the clocks' reading, table/clocks.py), or None.
        self.stamp = None

    @classmethod
    def new(cls, game, config, seed, log_path=None, extra=None):
        state, events = core.new_game(game, config, seed)
        log = None
        if log_path is not None:
            log = GameLog.create(log_path, game, state["config"], state["seed"], state["setup_outcomes"], extra)
        return cls(state, log, events)

    @classmethod
    def resume(cls, log_path):
        """The game in the log at `log_path`. The log is checked and replayed read-only, and only
        then opened for writing: a log that is refused is left exactly as it was, -wal included.
        `log.note` says what could not be checked (a log from before `.acks`)."""
        log = GameLog.open(log_path)
        try:
            state, events, moves = replay(log, with_moves=True)
            log.writable()
        except BaseException:
            log.close()
            raise
        return cls(state, log, events, moves)

    def submit(self, command, applied=None):
        """Returns core.Applied or core.Rejected. Raises LogError/EngineFault (state restored).
        `applied`: called under the lock once the rules applied the command, before its log write
        and sync: what may show the move at once without waiting for the disk (a table's lights,
        table/runner.py; the tap itself is acknowledged only after the sync)."""
        with self.lock:
            result = self._submit(command, applied)
            if result.ok:
                for watch in list(self.watchers):
                    watch(command)
            return result

    def _submit(self, command, applied=None):
        ask, reason = core.check(self.state, command)
        if ask is None:
            return core.Rejected(reason)
        stamp = self.stamp(self.state, command) if self.stamp is not None else None
        try:
            result = core.apply(self.state, command)
        except Exception as e:  # a bug in a rule: never leave a half-applied state behind
            self._restore()
            raise EngineFault("the rules failed on %r (%s: %s); the game was restored from its log"
                              % (command, type(e).__name__, e)) from e
        if applied is not None:
            try:
                applied()
            except BaseException:
                self._restore()  # nothing logged: the state goes back to the log's
                raise
        if self.log is not None:
            try:
                self.log.append(self.log.next_seq(), command, result.outcomes, stamp)
            except LogError:
                self._restore()
                raise
        self.moves.append(({k: command[k] for k in ("seat", "ask", "choice")}, result.outcomes))
        self.events.extend(result.events)
        return result

    def _restore(self):
        if self.log is None:
            raise EngineFault("the game has no log to restore from")
        self.state, self.events, self.moves = replay(self.log, with_moves=True)

    def undo(self, by, agreed=()):
        """Take back the last move still standing: an undo row in the log, then the state folded
        again from the moves that stand. Returns core.Applied (its events: the refolded game's, for
        nobody new) or core.Rejected. The agreement and the cards put back are table/undo.py's."""
        with self.lock:
            if not self.moves:
                return core.Rejected("there is no move to take back")
            if self.log is not None:
                self.log.append_undo(by, list(agreed))
            self.moves.pop()
            self.state, self.events = fold(self.state, self.moves)
            for watch in list(self.watchers):
                watch({"seat": UNDO, "ask": 0, "choice": {"by": by}})
            return core.Applied([], [])

    def view(self, viewer):
        return core.view(self.state, viewer)

    def events_for(self, viewer, since=0):
        return core.filter_events(self.events[since:], viewer)

    def close(self):
        if self.log is not None:
            self.log.close()


def fold(state, moves):
    """The game `state` is of, folded again from its start through `moves` ((command, outcomes),
    the logged chance outcomes fed back in). Returns (state, events)."""
    state, events = core.new_game(state["game"], state["config"], state["seed"], forced=state["setup_outcomes"])
    for command, outcomes in moves:
        result = core.apply(state, command, forced=outcomes)
        if not result.ok:
            raise EngineFault("a move still standing does not fold again: %s" % result.reason)
        events.extend(result.events)
    return state, events


def replay(log, with_moves=False, each=None):
    """Fold the log into a state, feeding logged chance outcomes back in. Returns (state, events),
    and the moves still standing with `with_moves`. `each(state, events)`, when given, is called after
    setup and after every move still standing (a replay's frames)."""
    meta = log.header()
    try:
        state, events = core.new_game(meta["game"], meta["config"], meta["seed"], forced=meta["setup_outcomes"])
    except ValueError as e:  # an unknown game, a config the game refuses, setup outcomes that do not fit
        raise LogError("the game log %s does not replay: %s; it was left as it is" % (log.path, e)) from None
    if each is not None:
        each(state, events)
    moves = []
    for seq, command, outcomes in log.moves():
        moves.append((command, outcomes))
        try:
            result = core.apply(state, command, forced=outcomes)
        except ValueError as e:
            raise LogError("entry %d of %s does not replay: %s" % (seq, log.path, e)) from None
        if not result.ok:
            raise LogError("entry %d of %s does not replay: %s" % (seq, log.path, result.reason))
        events.extend(result.events)
        if each is not None:
            each(state, events)
    return (state, events, moves) if with_moves else (state, events)


class WokenThread:
    """A background thread beside a live session, woken by every command it accepts (a watcher) and
    by `start`; its `_run` waits on `_wake` and ends when `_stop` is set. The bots of `maester serve`
    (web/seatbots.py) and the table's own answers (table/asking.py) run on one each."""

    def __init__(self, session, name):
        self.session = session
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.failed = None  # the exception that stopped the thread, if one did (set by its _run)
        session.watchers.append(self._changed)

    def _changed(self, command=None):
        self._wake.set()  # runs under the session lock: only wake the thread, never wait here

    def _run(self):
        raise NotImplementedError

    def wait_closed(self, ask_id, poll=0.05):
        """Wait until the decision `ask_id` is answered (by this thread or anyone). Raises what stopped
        this thread, should a write or a rule fail on it: the loop waiting here says so."""
        while True:
            if self.failed is not None:
                raise self.failed
            with self.session.lock:
                if self.session.state["over"] or core.find_ask(self.session.state, ask_id) is None:
                    return
            time.sleep(poll)

    def start(self):
        self._wake.set()  # the first move may be the thread's own
        self.thread.start()
        return self

    def stop(self, timeout=5.0):
        self._stop.set()
        self._wake.set()
        if self.thread.is_alive():
            self.thread.join(timeout)
        if self._changed in self.session.watchers:
            self.session.watchers.remove(self._changed)
