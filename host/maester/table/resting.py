"""The cards lying on a board's readers as the game has taken them, kept beside the game log.

A host killed in the middle of a game comes back with `maester resume`, and the board's snapshot
then shows what lies on each reader. Some of those cards were already played before the kill; a
card laid while the host was down was not. The board cannot tell them apart, and the game log
holds moves, not readers, so the runner keeps this file (LOG.readers, next to LOG) up to date:

    {"game": <the log's creation time>,
     "readers": {"0": {"uid": "04a1...", "move": null}, "2": {"uid": "04b2...", "move": [13, {command}]}}}

`move` says what the card on that reader became:

* null: nothing more will come of it (refused, or lying there before the game): it is known;
* [seq, command]: it was being played as move `seq`. The entry is written *before* the command
  goes to the log, so a kill between the two cannot lose it either way: on resume the card is
  known when the log's move `seq` is that command, and offered again as a new tap when it is not;
* "held": it waits for its seat to pick a position (CHOOSE_AFTER_TAP); on resume it is offered
  again, and the seat picks again.

A lifted card is {"uid": null}. The file is replaced whole (a temporary file renamed over it), so
a kill leaves the old version or the new one, never half of one. `game` ties it to its log: one
left by an earlier game whose log was removed by hand is not taken for this game's.
"""

import json
import os

SUFFIX = ".readers"


class RestingCards:
    def __init__(self, log):
        self.path = str(log.path) + SUFFIX
        self.game = log.header().get("created")
        self.cards = {}  # reader index -> {"uid", "move"}

    def known(self, log):
        """{reader: uid bytes or None} of the cards the game has taken, judged against `log`'s moves;
        None when there is no record of this game (a new game, or a log from before LOG.readers).

        A reader whose card may not have become its move is left out: whatever lies there now is
        news to the game (a tap)."""
        try:
            with open(self.path) as f:
                kept = json.load(f)
            if kept["game"] != self.game:
                return None
            self.cards = {int(r): e for r, e in kept["readers"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            self.cards = {}
            return None
        moves = None
        out = {}
        for reader, entry in self.cards.items():
            move = entry.get("move")
            if move == "held":
                continue
            if move is not None:
                if moves is None:
                    moves = {seq: command for seq, command, _ in log.entries()}
                seq, command = move
                if moves.get(seq) != command:
                    continue  # killed before the move reached the log: not played
            uid = entry.get("uid")
            out[reader] = bytes.fromhex(uid) if uid else None
        return out

    def start(self, presence):
        """The cards lying there when the game starts (not moves)."""
        self.cards = {r: {"uid": uid.hex() if uid else None, "move": None} for r, uid in presence.items()}
        self._write()

    def set(self, reader, uid, move=None):
        """`uid` (bytes, or None: lifted) on `reader`, becoming `move` (see the module doc)."""
        self.cards[reader] = {"uid": uid.hex() if uid else None, "move": move}
        self._write()

    def _write(self):
        tmp = "%s.%d.tmp" % (self.path, os.getpid())
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # private, like the log
        with os.fdopen(fd, "w") as f:
            json.dump({"game": self.game, "readers": {str(r): e for r, e in sorted(self.cards.items())}}, f)
        os.replace(tmp, self.path)
