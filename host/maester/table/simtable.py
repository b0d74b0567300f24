"""A whole simulated table for `maester play --table` and `maester demo --table`.

The firmware runs unmodified under the MicroPython unix port with simulated readers and a virtual
strip, behind a pty that the host opens with pyserial as it opens a real board. A choice that a tap
can express is made by laying the card on the right simulated reader; the rest (which token moves
where, an order of allies) is entered the way a seat page would send it.
"""

import threading

from ..link import BoardLink
from ..link.simboard import start_simulated_board
from . import profile as P
from .runner import TableRunner, board_config, sim_tags, sim_uid
from .taps import command_for_tap

TAP_TIMEOUT = 10.0


class TableError(RuntimeError):
    pass


class SimTable:
    def __init__(self, session, report=print):
        state = session.state
        self.profile = P.for_game(state["game"], state["config"]["players"])
        self.readers = [r["name"] for r in self.profile["readers"]]
        self.board = start_simulated_board(config=board_config(self.profile))
        self.runner = TableRunner(session, self.profile, sim_tags(state), report=report)
        self.resting = {}
        self.lifted = threading.Condition()
        self.lifts = []
        self.link = BoardLink(self.board.port, self._on_tap)
        self.link.start()
        if not self.link.wait_connected(20):
            self.close()
            raise TableError("the simulated board did not answer")
        self.runner.attach(self.link)
        self.taps = 0

    def _on_tap(self, tap):
        self.runner.on_tap(tap)
        if tap.kind == "removed":
            with self.lifted:
                self.lifts.append(tap.reader)
                self.lifted.notify_all()

    def tap_for(self, command):
        """The card whose tap at the command's place means exactly this command, or None."""
        state = self.runner.session.state
        choice = command["choice"]
        candidates = [x for x in choice if isinstance(x, str) and "#" in x]
        candidates += ["leader:%s" % l for l in state["g"].get("leaders", [])]
        for card in candidates:
            found, _ = command_for_tap(state, command["seat"], card)
            if found == command:
                return card
        return None

    def submit(self, command):
        card = self.tap_for(command)
        if card is None:
            return self.runner.submit(command)
        place = "deck" if command["seat"] == "table" else "seat%d" % command["seat"]
        reader = self.readers.index(place)
        if reader in self.resting:  # lift the last card first, as a player would
            with self.lifted:
                self.lifts.clear()
                self.board.lift(reader)
                if not self.lifted.wait_for(lambda: reader in self.lifts, TAP_TIMEOUT):
                    raise TableError("the board never saw the card lifted from %s" % place)
        seq = self.runner.session.state["seq"]
        self.board.tap(reader, sim_uid(card))
        self.resting[reader] = card
        if not self.runner.wait_for(lambda s: s["seq"] > seq, TAP_TIMEOUT):
            raise TableError("the tap of %s on %s was never applied" % (card, place))
        self.taps += 1
        return _Accepted()

    def strip_text(self):
        self.link.wait_leds_synced(1.0)
        return self.board.strip_text()

    def close(self):
        self.link.close()
        self.board.stop()


class _Accepted:
    ok = True
    reason = None
