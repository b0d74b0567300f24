"""`maester serve`: the bots' seats of a served game, played on a background thread.

`play` has a loop that asks each bot in turn; `serve` has only pages, so without this thread a
seat that was a bot's would wait for a person for ever. The thread sleeps until the session
accepts a command (Session.watchers fire after each one, from whichever thread sent it), then
answers the open decisions of the bots' seats one at a time, each after a short pause so the
people can follow on the table page. At the end of the game it says so once and stops.
"""

import threading

from ..engine.bots import card_info, decide, make_bot
from ..engine import core
from ..engine.session import WokenThread


class BotSeats(WokenThread):
    def __init__(self, session, seats, kind="heuristic", delay=0.4, say=print):
        state = session.state
        info = card_info(state)
        self.bots = {s: make_bot(state["game"], kind, state["seed"], s, info) for s in seats}
        self.delay = delay
        self.say = say
        self.refused = set()  # asks a bot answered illegally: left to wait rather than retried for ever
        self.over = threading.Event()  # set once the game has ended
        super().__init__(session, "maester-bots")

    def _run(self):
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()  # before looking: a command accepted from now on wakes us again
            try:
                if not self._play_open_asks():
                    return
            except Exception as e:  # noqa: BLE001 — a failed write or rule: say so; the pages stay up
                self.say("The bots stopped: %s. The pages still serve the game." % e)
                return

    def _play_open_asks(self):
        """Answer the bots' open decisions; False once the game is over or serving stops."""
        while not self._stop.is_set():
            over, command = self._next_command()
            if over:
                self.over.set()
                return False
            if command is None:
                return True
            if self._stop.wait(self.delay):  # a pause so the people can follow on the table page
                return False
            result = self.session.submit(command)
            if not result.ok and self._still_open(command["ask"]):
                self.refused.add(command["ask"])
                self.say("The bot at seat %s made a move the rules refuse (%s); that decision waits."
                         % (command["seat"], result.reason))
        return False

    def _next_command(self):
        """(game over, the next bot's command or None), read whole under the session's lock."""
        with self.session.lock:
            state = self.session.state
            if state["over"]:
                return True, None
            for ask in state["asks"]:
                seat = ask["seat"]
                if seat in self.bots and ask["id"] not in self.refused:
                    choice = decide(self.bots[seat], state, seat, ask, core.view)
                    return False, {"seat": seat, "ask": ask["id"], "choice": choice}
            return False, None

    def _still_open(self, ask_id):
        with self.session.lock:
            return any(a["id"] == ask_id for a in self.session.state["asks"])
