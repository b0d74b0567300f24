"""A whole simulated table for `maester play --table` and `maester demo --table`.

The firmware runs unmodified under the MicroPython unix port with simulated readers and a virtual
strip, behind a pty that the host opens with pyserial as it opens a real board. A choice that a tap
can express is made by laying the card on the right simulated reader; the rest (which token moves
where, an order of allies) is entered the way a seat page would send it. In a game where a tapped
card may fit several places (Westeros Intrigue), the card is tapped and the position then picked
from the seat's pending selection, as a person would on the host prompt.
"""

import threading
import time

from ..link import BoardLink
from ..link.simboard import start_simulated_board
from . import profile as P
from .runner import TableRunner, board_config, sim_tags, sim_uid
from .taps import asks_at, command_for_tap, meanings

TAP_TIMEOUT = 10.0
FRAME_WAIT = 0.05


class TableError(RuntimeError):
    pass


class SimTable:
    def __init__(self, session, report=print):
        state = session.state
        self.profile = P.for_game(state["game"], state["config"]["players"])
        self.readers = [r["name"] for r in self.profile["readers"]]
        self.places = P.places(self.profile)  # place (a seat, "table", a zone) → its reader's name
        self.board = start_simulated_board(config=board_config(self.profile))
        # The simulated seat picks its position itself, so a pending selection needs no report.
        self.runner = TableRunner(session, self.profile, sim_tags(state), report=report,
                                  on_pending=lambda seat, card, labels: None)
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

    def _places_for(self, command):
        """Where to try a tap: zone and shared readers, then the deciding seat's own, then the others."""
        seat = command["seat"]
        seats = [p for p in self.places if isinstance(p, int)]
        return ([p for p in self.places if not isinstance(p, int)] + [p for p in seats if p == seat]
                + [p for p in seats if p != seat])

    def _cards_for(self, command):
        state = self.runner.session.state
        cards = [x for x in command["choice"] if isinstance(x, str) and "#" in x]
        cards += ["leader:%s" % l for l in state["g"].get("leaders", [])]
        more = getattr(self.runner.game_table, "tap_cards", None)  # a card that stands for a choice
        if more is not None:
            cards += [c for c in more(state, command) if c not in cards]
        return cards

    def tap_for(self, command):
        """(place, card): a tap of `card` at `place` means exactly this command; or None."""
        state = self.runner.session.state
        for card in self._cards_for(command):
            for place in self._places_for(command):
                found, _ = command_for_tap(state, place, card)
                if found == command:
                    return place, card
        return None

    def pick_for(self, command):
        """(place, card, index) when the command is a tap of `card` at `place` followed by picking
        choice `index` of the pending selection it leaves; None when the game has no such selection."""
        if not getattr(self.runner.game_table, "CHOOSE_AFTER_TAP", False):
            return None
        state = self.runner.session.state
        ask = next((a for a in state["asks"] if a["id"] == command["ask"]), None)
        if ask is None:
            return None
        for card in self._cards_for(command):
            for place in self._places_for(command):
                if ask not in asks_at(state, place):
                    continue
                found = meanings(state, ask, card, place)
                if len(found) > 1 and command["choice"] in found:
                    # the runner holds the first ask of the place that the card fits several ways
                    first = next((a for a in asks_at(state, place) if meanings(state, a, card, place)), None)
                    if first is ask:
                        return place, card, found.index(command["choice"])
        return None

    def submit(self, command):
        found = self.tap_for(command)
        pick = None if found is not None else self.pick_for(command)
        if pick is not None:
            found = pick[:2]
        if found is None:
            return self.runner.submit(command)
        place, card = found
        name = self.places[place]
        reader = self.readers.index(name)
        if reader in self.resting:  # lift the last card first, as a player would
            with self.lifted:
                self.lifts.clear()
                self.board.lift(reader)
                if not self.lifted.wait_for(lambda: reader in self.lifts, TAP_TIMEOUT):
                    raise TableError("the board never saw the card lifted from %s" % name)
        seq = self.runner.session.state["seq"]
        self.board.tap(reader, sim_uid(card))
        self.resting[reader] = card
        if pick is not None:
            if not self.runner.wait_pending(command["seat"], card, TAP_TIMEOUT):
                raise TableError("the tap of %s on %s never asked for a position" % (card, name))
            self.taps += 1
            return self.runner.choose_pending(command["seat"], pick[2])
        if not self.runner.wait_for(lambda s: s["seq"] > seq, TAP_TIMEOUT):
            raise TableError("the tap of %s on %s was never applied" % (card, name))
        self.taps += 1
        return _Accepted()

    def strip_text(self):
        # A tap's LED refresh runs on the link thread after the move is applied: make sure it is sent.
        self.runner.refresh_leds()
        self.link.wait_leds_synced(1.0)
        # The board acks a change before it renders it: its next frame comes within 20 ms (50 Hz).
        time.sleep(FRAME_WAIT)
        return self.board.strip_text()

    def close(self):
        self.link.close()
        self.board.stop()


class _Accepted:
    ok = True
    reason = None
