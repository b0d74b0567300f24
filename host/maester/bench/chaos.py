"""`maester bench chaos`: whole table games through a bad cable, a flaky board and a killed host.

Game i (seed+i) is one of B'Twixt, Intrigue, Oathbreaker and the LCG in turn. Each is played the
way people at a built table play it (table/driver.py): cards laid on the readers of a simulated
board (the firmware under MicroPython, on a pty), choices a tap cannot say made on the seat pages,
and `maester play GAME --port` as the host, in its own process. Between the board's pty and the host
sits a fault proxy (link/faultproxy.py) that damages frames both ways: garbage, bit flips, truncated,
duplicated, reordered and dropped frames, each frame with probability --fault-rate. On top of that,
at moves drawn from the game's seed, the board reboots (cards may be laid while it is off), the USB
cable is pulled and put back, and the host is killed with SIGKILL and the game resumed from its log
with `maester resume` (when the next move is a tap, its card is laid while the host is dead:
`laid_while_dead` among the faults).

The board's own hardware fails too (issue 24; firmware/sim/ models each fault from its source): a
reader's chip resets to its power-on values (`reader_reset`), a stray card is slid onto a reader and
taken away (`two_cards`), a reader module holds the SPI bus's MISO line low for a while (`bus_hog`),
the host reads the board's port only a few bytes at a time for a while (`slow_host`), and every
reboot and unplug has the host's RESYNC bytes, with their 0x03 and 0x01, arrive while the board
boots (`resync_in_boot`).

Beside the table the driver applies the same commands to the engine directly: the fault-free game.
At the end the state in the host's log must equal it (`states_equal`). A tap that never became a
move is lost (the driver then lays the card again, as a player would); a tap that became two moves
is doubled. Exit status 1 if any game is unequal, any tap lost or doubled, or a resume failed.
"""

import collections
import json
import os
import queue
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

from maester_fw import wire

from ..engine import apply
from ..link.faultproxy import FaultProxy
from ..table import profile as P
from ..table.driver import TableGame
from ..table.simconsole import SimBoardProcess
from ..table.simtable import tap_for

GAMES = (("btwixt", 3, ["short"]), ("intrigue", 2, []), ("oathbreaker", 5, []), ("lcg", 2, []))
EVENTS = ("reboot", "unplug", "kill", "reader_reset", "two_cards", "bus_hog", "slow_host")
STRAY_UID = "04f00dfacec0de"  # a sticker on no card of the game
MOVE_TIMEOUT = 15.0  # a tap not applied by then is lost (a reconnect takes at most ~6 s)


class ChaosBoard:
    """The simulated board as the driver sees it (tap, lift), with the power switch and the cable."""

    def __init__(self, profile, proxy_rate, seed):
        self.sim = SimBoardProcess(profile, out=_Null())
        self.proxy = FaultProxy(self.sim.board.port, rate=proxy_rate, seed=seed).start()
        self.port = self.proxy.port
        self.calm = threading.Lock()  # held through a power cut, and by a tap that must not meet one
        self.errors = []
        self._cuts = queue.Queue()
        threading.Thread(target=self._power, name="power", daemon=True).start()

    def command(self, cmd):
        """A control command to the board, if it is on (a power cut may have it off: a reader
        reset or a held bus then means nothing, and the next boot starts clean)."""
        with self.sim.lock:
            if not self.sim.board.alive:
                return None
            return self.sim.board.command(cmd)

    def reset_reader(self, reader):
        """A supply dip on one reader: its chip back at its power-on values, the card still on it."""
        self.command({"cmd": "reset_reader", "reader": reader})

    def stray(self, reader, hold_s):
        """A card slid onto a reader (on top of the one there, if any) and taken away again."""
        with self.sim.lock:
            self.sim.board.tap(reader, STRAY_UID)
        time.sleep(hold_s)
        self.lift(reader, STRAY_UID)

    def bus_hog(self, reader, delay_s, hold_s):
        """After `delay_s`, a reader module holds MISO low for `hold_s` (the game goes on meanwhile)."""
        self._cuts.put(("hog", delay_s, (reader, hold_s)))

    def tap(self, reader, card):
        with self.sim.lock:
            self.sim.board.tap(reader, self.sim.uid(card))

    def lift(self, reader, uid=None):
        """Lift the card(s) and wait until the firmware has had the time to see it gone; the
        control channel is free meanwhile (a bus hog is released through it)."""
        with self.sim.lock:
            before = self.sim.board.lift(reader, uid)
            boots = self.sim.board.boots
        if before is None:
            return  # the board is off
        # a reader faulted by a bus hog is polled again only at its next retry (2 s, 4 s...)
        deadline = time.monotonic() + MOVE_TIMEOUT
        while True:
            with self.sim.lock:
                b = self.sim.board
                if not b.alive or b.boots != boots or b.settled(reader, before):
                    return  # seen gone, or the board was cut meanwhile: its next boot finds it gone
            if time.monotonic() > deadline:
                raise AssertionError("reader %d was not polled after the card was lifted" % reader)
            time.sleep(0.02)

    def cards(self, reader):
        """The sticker UIDs lying on a reader (for the notes of a lost tap)."""
        with self.sim.lock:
            return list(self.sim.board.table.get(reader, ()))

    def power_cut(self, delay_s, down_s, cable=False):
        """After `delay_s`, the board off for `down_s` (with `cable`: the host's port gone too), then
        back; runs on the power thread, while the game goes on. `wait_power` waits for it."""
        self._cuts.put(("cut", delay_s, (down_s, cable)))

    def wait_power(self):
        self._cuts.join()

    def _power(self):
        # One thread for the board's whole life: the firmware dies with the thread that started it
        # (simboard._die_with_parent), so a power cut in a thread of its own would kill it on exit.
        while True:
            what, delay_s, args = self._cuts.get()
            try:
                time.sleep(delay_s)
                if what == "cut":
                    self._power_cut(*args)
                else:
                    reader, hold_s = args
                    self.command({"cmd": "wire", "reader": reader, "holds_miso": True})
                    time.sleep(hold_s)
                    self.command({"cmd": "wire", "reader": reader, "holds_miso": False})
            except Exception as e:  # noqa: BLE001 — reported with the game
                self.errors.append("%s: %s: %s" % ("power cut" if what == "cut" else "bus hog", type(e).__name__, e))
            finally:
                self._cuts.task_done()

    def _power_cut(self, down_s, cable):
        with self.calm:
            if cable:
                self.proxy.unplug()
            with self.sim.lock:
                self.sim.board.power_off()
            time.sleep(down_s)
            if cable:
                self.proxy.replug()
            # the host's RESYNC, with its 0x03 and 0x01 bytes, meets the board as it boots
            self.proxy.to_board(wire.encode_frame(wire.RESYNC, wire.resync(wire.RESYNC_CONNECT)))
            with self.sim.lock:
                self.sim.board.power_on()

    def stop(self):
        self.proxy.stop()
        self.sim.stop()


class _Null:
    def write(self, text):
        pass

    def flush(self):
        pass


class ChaosGame(TableGame):
    """TableGame that counts lost and doubled taps instead of failing on them."""

    lost = doubled = 0

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.notes = []

    def lay(self, reader, card):
        if self.resting.get(reader) == card:
            # The same card again on the same reader: lifted and laid while the board is off it
            # leaves no trace (LINK.md, limits), so a hand waits for the lights to be back.
            with self.board.calm:
                return super().lay(reader, card)
        return super().lay(reader, card)

    def lay_while_dead(self, command):
        """With the host killed: if `command` is a plain tap, lay its card now (the host will
        find it on the readers when it is resumed); returns (place, card), else None."""
        found = tap_for(self.direct, self.places, command)
        if found is None or found[1] in self.unenrolled:
            return None
        self.lay(self.readers.index(self.places[found[0]]), found[1])
        self.taps += 1
        return found

    def finish_step(self, command, found):
        """The rest of step() for a card already laid: wait for its move, apply it beside."""
        self.await_move(self.direct["seq"] + 1, command, found)
        result = apply(self.direct, command)
        assert result.ok
        self.events.extend(result.events)

    def await_move(self, n, command, tap):
        deadline = time.monotonic() + MOVE_TIMEOUT
        retried = False
        while self.moves() < n:
            if self.play.poll() is not None:
                raise AssertionError("play exited (%s) waiting for move %d:\n%s"
                                     % (self.play.returncode, n, self.output()[-2000:]))
            if time.monotonic() > deadline:
                if tap is None or retried:
                    raise AssertionError("move %d (%s) never reached the log:\n%s" % (n, command, self.output()[-1200:]))
                self.lost += 1  # lay the card again, as a player whose tap did nothing would
                place, card = tap
                reader = self.readers.index(self.places[place])
                self.notes.append("lost: move %d %s at %s, board %s, cards there %s; host said: %s" % (
                    n, card, place, "on" if self.board.sim.board.alive else "off", self.board.cards(reader),
                    " / ".join(self.output().splitlines()[-4:])))
                self.resting.pop(reader, None)
                self.board.lift(reader)
                self.lay(reader, card)
                retried = True
                deadline = time.monotonic() + MOVE_TIMEOUT
            time.sleep(0.01)
        extra = self.moves() - n - self.table_gives(command)  # the table's own answers are no doubled tap
        if extra > 0:
            self.doubled += extra
            raise AssertionError("move %d was logged %d times" % (n, extra + 1))


def play_game(index, seed, rate, moves=None, workdir=None):
    """One game under chaos; returns its figures (a dict)."""
    game, players, variants = GAMES[index % len(GAMES)]
    tmp = Path(tempfile.mkdtemp(prefix="maester-chaos-", dir=workdir))
    rng = random.Random(seed)  # the players' choices
    plan_rng = random.Random("chaos %d" % seed)  # when the board, the cable and the host fail
    horizon = moves or 60
    plan = {}
    for kind in EVENTS:
        at = plan_rng.randrange(3, max(4, horizon - 2))
        while at in plan:
            at += 1
        plan[at] = kind
    out = {"game": game, "seed": seed, "moves": 0, "equal": False, "lost": 0, "doubled": 0, "resume_failed": 0,
           "refused": 0, "events": collections.Counter(), "error": None}
    board = ChaosBoard(P.for_game(game, players), rate, seed)
    g = None
    try:
        g = ChaosGame(tmp, game, players, seed, variants, board=board, port=board.port)
        g.start()
        n = 0
        while not g.direct["over"] and (moves is None or n < moves):
            kind = plan.pop(n, None)
            ask = g.direct["asks"][0]
            command = {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}
            if kind == "kill":
                g.play.send_signal(signal.SIGKILL)
                g.play.wait()
                out["events"]["kill"] += 1
                laid = g.lay_while_dead(command)  # the card must become its move once resumed
                out["events"]["laid_while_dead"] += laid is not None
                try:
                    g.resume()
                except AssertionError:
                    out["resume_failed"] += 1
                    raise
                if laid is not None:
                    g.finish_step(command, laid)
                    n += 1
                    out["moves"] = n
                    continue
            elif kind in ("reboot", "unplug"):
                board.power_cut(plan_rng.uniform(0.0, 0.3), plan_rng.uniform(0.2, 1.5), cable=(kind == "unplug"))
                out["events"][kind] += 1
                out["events"]["resync_in_boot"] += 1
            elif kind is not None:
                reader = plan_rng.randrange(len(g.readers))
                if kind == "reader_reset":
                    board.reset_reader(reader)
                elif kind == "two_cards":
                    board.stray(plan_rng.choice(sorted(g.resting)) if g.resting else reader, plan_rng.uniform(0.2, 1.0))
                elif kind == "bus_hog":
                    board.bus_hog(reader, plan_rng.uniform(0.0, 0.3), plan_rng.uniform(0.3, 1.5))
                elif kind == "slow_host":
                    board.proxy.slow(plan_rng.uniform(1.0, 3.0), 8)
                out["events"][kind] += 1
            g.step(command)
            n += 1
            out["moves"] = n
        board.wait_power()
        if g.direct["over"]:
            g.finish(60)
        else:
            g.kill()
        out["equal"] = g.logged_state() == g.direct
    except Exception as e:  # noqa: BLE001 — a game that broke is reported, the run goes on
        out["error"] = "%s: %s" % (type(e).__name__, str(e)[-1500:])
        if os.environ.get("MAESTER_CHAOS_DEBUG"):
            out["debug"] = {"frames": dict(board.proxy.frames), "overflow": board.proxy.overflow,
                            "alive": board.sim.board.alive, "fw_log": board.sim.board.log()[-1500:]}
    finally:
        if g is not None:
            out["lost"], out["doubled"] = g.lost, g.doubled
            refused = [line for line in g.output().splitlines() if "refused" in line]
            out["refused"] = len(refused)
            out["notes"] = g.notes + ["host: " + line for line in refused]
            g.close()
        else:
            board.stop()
        if board.errors:
            out["error"] = "; ".join(board.errors + [out["error"] or ""])

        out["frames"] = sum(board.proxy.frames.values())
        out["faults"] = dict(board.proxy.faults)
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def run(games, seed=1, rate=0.02, moves=None, progress=None, workdir=None):
    t0 = time.monotonic()
    faults = collections.Counter()
    totals = collections.Counter()
    per_game = collections.Counter()
    failures = []
    notes = []  # what went wrong in games that still ended equal (a tap laid twice, a refusal)
    done = 0
    for i in range(games):
        try:
            r = play_game(i, seed + i, rate, moves, workdir)
        except KeyboardInterrupt:  # Ctrl-C (SIGINT) ends a long run with the figures of its whole games
            break
        done += 1
        faults.update(r["faults"])
        faults.update(r["events"])
        per_game[r["game"]] += 1
        for k in ("frames", "moves", "lost", "doubled", "resume_failed", "refused"):
            totals[k] += r[k]
        totals["equal"] += r["equal"]
        if r.get("notes"):
            notes.append({"game": r["game"], "seed": r["seed"], "notes": r["notes"]})
        if not r["equal"] or r["error"]:
            failures.append({k: r[k] for k in ("game", "seed", "moves", "error", "debug") if k in r})
        if progress:
            progress(i + 1, games, totals)
    return {
        "games": done, "interrupted": done < games, "per_game": dict(per_game), "seed": seed, "fault_rate": rate, "moves_cap": moves,
        "moves": totals["moves"], "frames": totals["frames"],
        "faults": {k: faults[k] for k in sorted(faults)}, "faults_total": sum(faults.values()),
        "taps_lost": totals["lost"], "taps_doubled": totals["doubled"], "states_equal": totals["equal"],
        "resumes_failed": totals["resume_failed"], "refused": totals["refused"], "failures": failures, "notes": notes,
        "seconds": round(time.monotonic() - t0, 1),
    }


def _stop(signum, frame):
    raise KeyboardInterrupt


def cmd_chaos(args):
    tty = sys.stderr.isatty() and not args.json
    # Ctrl-C or SIGTERM end the run with the figures of the games played (a background run, as
    # started by nohup, inherits SIGINT ignored: SIGTERM is the way to stop it).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop)

    def progress(done, total, t):
        print("\r%d/%d games, %d moves, %d equal" % (done, total, t["moves"], t["equal"]), end="",
              file=sys.stderr, flush=True)
    out = run(args.games, args.seed, args.fault_rate, args.moves, progress=progress if tty else None)
    if tty:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(out))
    else:
        print("%d games (%s), %d moves, %d frames, %.1f s" % (
            out["games"], ", ".join("%s %d" % kv for kv in sorted(out["per_game"].items())), out["moves"],
            out["frames"], out["seconds"]))
        print("faults: %s" % ", ".join("%s %d" % kv for kv in out["faults"].items()))
        print("taps lost %d, taps doubled %d, states equal %d/%d, resumes failed %d"
              % (out["taps_lost"], out["taps_doubled"], out["states_equal"], out["games"], out["resumes_failed"]))
        if out["interrupted"]:
            print("interrupted after %d of %d games (the figures are theirs)" % (out["games"], args.games))
        for f in out["failures"]:
            print("  failed: %s seed %d after %d moves: %s" % (f["game"], f["seed"], f["moves"], f["error"]))
    bad = (out["states_equal"] != out["games"] or out["taps_lost"] or out["taps_doubled"]
           or out["resumes_failed"] or out["interrupted"])
    return 1 if bad else 0
