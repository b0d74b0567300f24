"""Play a whole game the way people at a built table would, against two real processes.

`maester sim-board` is the board (the firmware under MicroPython, on a pty); `maester play GAME
--port /dev/pts/N` is the host, opening that port by name. The driver shares no memory with either:
it lays cards on the simulated readers through the sim-board's stdin, makes the choices a tap
cannot say by POSTing to the seat pages, and reads the game's progress from its log file. Beside
them it applies the same commands to the engine directly, so a caller can compare the two games.

The tests (tests/test_board_play.py) and `maester bench chaos` drive games with it; the bench
passes its own `board` (anything with tap(reader, card), lift(reader), stop()) and the `port` the
host should open (its fault proxy's).
"""

import copy
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request

from maester.engine import apply, new_game
from maester.engine.session import Session
from maester.link.simboard import _die_with_parent
from maester.table import asking, profile as P
from maester.table.runner import sim_tags
from maester.table.simtable import SimBoardClient, pick_for, tap_for

STEP_TIMEOUT = 20.0
# The players' windows stay open far longer than a step takes: the driver passes on the page as it
# acts, so no window runs out under it (the window rule itself: tests/test_asking.py).
WINDOW_MS = "60000"


def enroll_all(home, game, state, but=()):
    """Write the tag file `maester enroll` would leave after every card of `state` (`but` these) was tapped."""
    path = home / "tags" / ("%s.json" % game)
    path.parent.mkdir(parents=True, exist_ok=True)
    tags = {uid: card for uid, card in sim_tags(state).items() if card not in but}
    path.write_text(json.dumps({"game": game, "version": 1, "tags": tags}))


def maester_cmd(*args):
    return [sys.executable, "-m", "maester.cli", *args]


class TableGame:
    def __init__(self, tmp_path, game, players, seed, variants=(), profile=None, enroll=True, unenrolled=(),
                 board=None, port=None):
        self.tmp = tmp_path
        self.game = game
        self.home = tmp_path / "home"
        self.home.mkdir(exist_ok=True)
        self.env = dict(os.environ, MAESTER_HOME=str(self.home), PYTHONUNBUFFERED="1")
        self.profile = P.load(profile) if profile else P.for_game(game, players)
        self.readers = [r["name"] for r in self.profile["readers"]]
        self.places = P.places(self.profile)
        self.seed = seed
        self.players = players
        self.variants = list(variants)
        observe = list(__import__("maester.games.%s" % game, fromlist=["OBSERVABLE"]).OBSERVABLE)
        # The same game applied to the engine directly, with every event (what each viewer was told).
        self.direct, self.events = new_game(game, {"players": players, "variants": self.variants, "observe": observe},
                                            seed)
        self.unenrolled = set(unenrolled)  # cards with no sticker: chosen on a seat page (--allow-missing)
        if enroll:
            enroll_all(self.home, game, self.direct, self.unenrolled)
        self.log = tmp_path / "game.sqlite"
        self.board = board if board is not None else SimBoardClient(self.profile["name"])
        self.port = port or self.board.port
        self.resting = {}
        self.play = None
        self.out_path = tmp_path / "play.out"
        self.tokens = {}
        self.taps = self.page_choices = self.for_table = 0

    # --- the host process -------------------------------------------------------------------

    def start(self, *extra, wait=True):
        args = ["play", self.game, "--players", str(self.players), "--port", self.port, "--seed", str(self.seed),
                "--log", str(self.log), "--plain", "--window-ms", WINDOW_MS, *extra]
        for v in self.variants:
            args += ["--variant", v]
        return self._spawn(args, wait)

    def resume(self):
        return self._spawn(["resume", "--log", str(self.log), "--plain", "--window-ms", WINDOW_MS], True)

    def _spawn(self, args, wait):
        links = self.tmp / "game.sqlite.links"
        if links.exists():
            links.unlink()
        self.out = open(self.out_path, "a")
        # The host dies with its driver: one left behind (a run killed) keeps opening its port's
        # name, a symlink to a /dev/pts/N that the kernel gives to the next pty made, another
        # table's, and holds that port's lock (bench chaos's failed resume).
        self.play = subprocess.Popen(maester_cmd(*args), stdin=subprocess.DEVNULL, stdout=self.out,
                                     stderr=subprocess.STDOUT, env=self.env, preexec_fn=_die_with_parent)
        if not wait:
            return self.play
        deadline = time.monotonic() + 30
        while not links.exists() or "table:" not in links.read_text():
            if self.play.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("play did not start its pages:\n" + self.output())
            time.sleep(0.05)
        for m in re.finditer(r"(http://[\d.:]+)/seat/(\d+)/(\S+)", links.read_text()):
            self.base = m.group(1)
            self.tokens[int(m.group(2))] = m.group(3)
        self.wait_moves(self.moves())  # the log exists
        return self.play

    def output(self):
        return self.out_path.read_text() if self.out_path.exists() else ""

    def kill(self):
        self.play.kill()
        self.play.wait()

    def finish(self, timeout=30):
        code = self.play.wait(timeout)
        self.out.close()
        return code

    def moves(self):
        """Commands in the host's log, read from the file (the host is another process)."""
        if not self.log.exists():
            return 0
        db = sqlite3.connect("file:%s?mode=ro" % self.log, uri=True, timeout=5)
        try:
            return db.execute("SELECT count(*) FROM entries").fetchone()[0]
        except sqlite3.OperationalError:
            return 0
        finally:
            db.close()

    def logged_state(self):
        """The game as the host's log holds it, read back the way `maester resume` does."""
        session = Session.resume(str(self.log))
        try:
            return session.state
        finally:
            session.close()

    def wait_moves(self, n, what="a move"):
        deadline = time.monotonic() + STEP_TIMEOUT
        while self.moves() < n:
            if self.play.poll() is not None:
                raise AssertionError("play exited (%s) waiting for %s:\n%s" % (self.play.returncode, what,
                                                                                self.output()[-3000:]))
            if time.monotonic() > deadline:
                raise AssertionError("%s never reached the log:\n%s" % (what, self.output()[-3000:]))
            time.sleep(0.01)

    # --- the people at the table ------------------------------------------------------------

    def page(self, seat, body=None):
        url = "%s/seat/%d/%s/%s" % (self.base, seat, self.tokens[seat], "choose" if body is not None else "state")
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read())

    def lay(self, reader, card):
        if reader in self.resting:  # lift the last card first, as a hand would
            self.board.lift(reader)
        self.board.tap(reader, card)
        self.resting[reader] = card

    def step(self, command):
        """Make `command` at the table (a tap if it can be one, else its seat's page) and wait for it."""
        done = self.direct["seq"]
        ask = next(a for a in self.direct["asks"] if a["id"] == command["ask"])
        if asking.single(self.direct, ask) is not None and not asking.is_window(self.direct, ask):
            # A lone answer that moves no card: the host's table gives it itself (table/asking.py).
            self.await_move(done + 1, command, None)
            result = apply(self.direct, command)
            assert result.ok
            self.events.extend(result.events)
            return
        found = tap_for(self.direct, self.places, command)
        pick = None if found is not None else pick_for(self.direct, self.places, command)
        if pick is not None:
            found = pick[:2]
        if found is not None and found[1] in self.unenrolled:
            found = pick = None  # no sticker on it: its page says it instead
        if found is not None:
            place, card = found
            self.lay(self.readers.index(self.places[place]), card)
            self.taps += 1
            if pick is not None:  # the card fits several places: the seat picks one on its page
                deadline = time.monotonic() + STEP_TIMEOUT
                while not (self.page(command["seat"]).get("pending") or {}).get("labels"):
                    assert time.monotonic() < deadline, "the tap never asked for a position"
                    time.sleep(0.02)
                out = self.page(command["seat"], {"ask": command["ask"], "pending": pick[2]})
                assert out["ok"], out
                self.page_choices += 1
        else:
            seat = 0 if command["seat"] == "table" else command["seat"]  # any seat's page speaks for the table
            self.for_table += command["seat"] == "table"
            out = self.page(seat, {"ask": command["ask"], "choice": command["choice"]})
            assert out["ok"], (command, out)
            self.page_choices += 1
        self.await_move(done + 1, command, found)
        result = apply(self.direct, command)
        assert result.ok
        self.events.extend(result.events)

    def table_gives(self, command):
        """How many moves the host's table makes by itself right after `command`: the lone answers
        that move no card (table/asking.py), one after another."""
        state = copy.deepcopy(self.direct)
        apply(state, command)
        given = 0
        while not state["over"]:
            ask = next((a for a in state["asks"] if asking.single(state, a) is not None
                        and not asking.is_window(state, a)), None)
            if ask is None:
                return given
            apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]})
            given += 1
        return given

    def await_move(self, n, command, tap):
        """Wait for move `n` (`command`, made by `tap` (place, card) or on a page: tap None)."""
        self.wait_moves(n, "move %d (%s)" % (n, command))

    def close(self):
        if self.play is not None and self.play.poll() is None:
            self.kill()
        self.board.stop()
