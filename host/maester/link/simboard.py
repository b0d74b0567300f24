"""A simulated Maester board: the unmodified firmware under the MicroPython unix port, on a pty.

    board = start_simulated_board()           # or start_simulated_board(config={...})
    ser = serial.Serial(board.port)           # a symlink to its pty, opened like a real board's port
    board.tap(0, "04a1b2c3d4e5f6")            # lay a card on reader 0
    board.lift(0)                             # and take it away
    board.strip_frame()                       # the LED frame the firmware last wrote
    board.reboot()                            # kill and restart: a new boot id, same port
    board.power_off(); board.tap(1, uid); board.power_on()   # a card laid while it is down
    board.unplug(); board.replug()            # the port vanishes, then comes back (same name)
    board.at_repl()                           # True while the REPL, not the firmware, has the port
    board.stop()

How it is wired (see firmware/FIRMWARE.md):

* serial: a pty pair.  The MicroPython process gets the master end as its stdin and stdout,
  the way a board's firmware has USB CDC as sys.stdin/sys.stdout; the host opens the slave
  end, `.port`, with pyserial.  This object keeps the slave open too, so the port survives
  a reboot of the simulated board (unlike a real ttyACM, which disappears for a moment).
* control: a second pty.  The firmware process opens its slave end (run_sim.py --control)
  and reads JSON-line commands; this object writes to the master end and reads the answers.
* filesystem: `.fs`, a directory that is the board's flash: main.py, maester_fw/, maester.json.
  The firmware is imported from there (run_sim.py --fs), so what `maester firmware flash` copies
  is what runs after the reset.  By default a fresh directory holding the firmware's sources and
  the config; `fs=DIR` names one that outlives the board (a board with plain MicroPython when
  empty).
* the REPL: when the firmware ends (REPL command, a KeyboardInterrupt, nothing to
  run), the port is given to the MicroPython unix port's own REPL, raw REPL included, running in
  `.fs` on the same pty (firmware/sim/board_repl.py): the real `mpremote` works against it.  When
  that REPL ends (Ctrl-D: a soft reset; machine.reset(), as mpremote's `reset`), the firmware runs
  again from `.fs`.  A thread per board watches the process that has the port and starts the next.
"""

import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import tty
from pathlib import Path

from .. import paths
from ..paths import tool

FIRMWARE = Path(os.environ.get("MAESTER_FIRMWARE", paths.FIRMWARE))
RUN_SIM = FIRMWARE / "sim" / "run_sim.py"
BOARD_REPL = FIRMWARE / "sim" / "board_repl.py"
FIRMWARE_EXIT_TO_REPL = 5  # run_sim.py EXIT_TO_REPL: the firmware ended, the REPL takes the port
REPL_RESET = 7  # board_repl.py RESET: machine.reset() at the REPL
HOST_ONLY = ("cpython.py",)  # maester_fw's CPython stand-ins: never on a board (table/firmware.py)

# Four seats' worth of readers of both kinds and a strip with a few trackers.
DEFAULT_SIM_CONFIG = {
    "board": "sim-table",
    "readers": [
        {"type": "mfrc522", "cs": 17, "name": "seat0"},
        {"type": "mfrc522", "cs": 20, "name": "seat1"},
        {"type": "pn532", "cs": 21, "name": "seat2"},
        {"type": "pn532", "cs": 26, "name": "centre"},
    ],
    "leds": {"pin": 22, "pixels": 24, "budget_ma": 500},
    "segments": {"round": [0, 7], "season": [7, 3, False, "dot"], "first": [10, 4, False, "dot"],
                 "status": [14, 10]},
    "poll": {"interval_ms": 20},
    "watchdog_ms": 0,
}


SETTLE_POLLS = 5  # the firmware's miss_limit (3) and a margin: after these, a lifted card is gone
# A hand's time between seeing a card gone and laying the next one: the simulated board takes a card
# as it is laid, mid-pass, and a card found in the very millisecond its reader's lift was told reads to
# the host as two cards at once (table/runner.py _judge); no hand is that fast, a harness is.
HAND_S = 0.005


class SimBoardError(RuntimeError):
    pass


def _die_with_parent():
    """In the child: ask Linux to kill the simulated board when the host process dies.

    A host killed with SIGKILL (as `maester resume` is tested) cannot stop its board; without
    this the board would keep polling a pty nobody reads, for ever. Linux sends the signal when the
    *thread* that started the process ends, so start a board from a thread that outlives it.
    """
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the board stops when its pty closes


def micropython_binary():
    try:
        return tool("micropython", "sim")
    except FileNotFoundError as e:
        raise SimBoardError(str(e)) from None


def install_sources(fs):
    """Put the firmware this host carries on a board's filesystem, as sources: main.py and
    maester_fw/ (what `maester firmware flash` copies, compiled; the unix port imports either)."""
    pkg = os.path.join(fs, "maester_fw")
    os.makedirs(pkg, exist_ok=True)
    shutil.copyfile(FIRMWARE / "main.py", os.path.join(fs, "main.py"))
    for src in (FIRMWARE / "maester_fw").glob("*.py"):
        if src.name not in HOST_ONLY:
            shutil.copyfile(src, os.path.join(pkg, src.name))


def _uid_hex(uid):
    if isinstance(uid, (bytes, bytearray)):
        return bytes(uid).hex()
    return str(uid).lower()


class SimBoard:
    def __init__(self, config=None, taps=None, heap=None, start=True, ready_timeout=20.0, trace=False, fs=None,
                 paced=False):
        self.workdir = tempfile.mkdtemp(prefix="maester-sim-")
        if fs is None:  # a board flashed with the firmware this host carries
            self.fs = os.path.join(self.workdir, "fs")
            install_sources(self.fs)
            if config is None:
                config = DEFAULT_SIM_CONFIG
        else:  # the caller's: kept as it is, config and all, unless `config` says otherwise
            self.fs = str(fs)
            os.makedirs(self.fs, exist_ok=True)
        self.config_path = os.path.join(self.fs, "maester.json")
        if isinstance(config, (str, Path)):
            shutil.copyfile(config, self.config_path)
        elif config is not None:
            with open(self.config_path, "w") as f:
                json.dump(config, f)
        self.taps_path = None
        if taps is not None:
            if isinstance(taps, (str, Path)):
                self.taps_path = str(taps)
            else:
                self.taps_path = os.path.join(self.workdir, "taps.jsonl")
                with open(self.taps_path, "w") as f:
                    for t in taps:
                        f.write(json.dumps(t) + "\n")
        self.paced = paced  # reader transactions take their modelled time in wall time too (run_sim --paced)
        self.trace = trace  # a file to stamp serial bytes, placements and strip writes into (bench hil)
        self.heap = heap
        self.ready_timeout = ready_timeout
        # The host opens `.port`, a symlink to the pty in the work directory: a stable name, as
        # udev's /dev/serial/by-id gives a real board. A bare /dev/pts/N would not do: while the
        # cable is out its number is free, and another program's new pty (another simulated board,
        # in tests run side by side) could take it, so a reconnecting host would open that one.
        self.port = os.path.join(self.workdir, "ttyMAESTER")
        self._plug_pty()
        self.plugged = True
        self._cmaster, self._cslave = os.openpty()
        tty.setraw(self._cslave)
        self._control_path = os.ttyname(self._cslave)
        self._log_path = os.path.join(self.workdir, "stderr.log")
        self._lines = b""
        self._next_id = 0
        self.events = []
        self.proc = None
        self.running = None  # what has the port: "firmware", "repl" or None (off)
        self._lock = threading.Lock()  # self.proc and self.running change together
        self.boot_id = None
        self.boots = 0
        # What lies on the readers ({reader: [uid hex]}). The cards are on the table, not in the
        # board: they stay there whatever happens to the firmware, and a hand may lay or lift one
        # while it is off. Kept here so that any power-on (reboot, replug, a crash) finds them.
        self.table = {}
        if start:
            self.start()

    # -- process -------------------------------------------------------------------------

    def start(self, cards=None):
        """Run the firmware; `cards` ({reader: [uid hex]}, default: what lies on the table) are
        on the readers at power-on.  Returns once the firmware runs its loop, or has ended at
        the REPL (nothing to run, a KeyboardInterrupt at boot): `at_repl` then says so."""
        if self.alive:
            raise SimBoardError("already running")
        if cards is not None:
            self.table = {int(r): list(uids) for r, uids in cards.items()}
        self._drain_control()
        self.events = []  # this boot's
        with self._lock:
            proc = self._spawn("firmware")
        threading.Thread(target=self._watch, args=(proc,), name="sim-board power", daemon=True).start()
        try:
            ev = self._wait_event(("ready", "exit"), self.ready_timeout)
        except BaseException:
            self.kill()
            raise
        self.boot_id = ev.get("boot_id")
        self.boots += 1
        return self

    def _spawn(self, what):
        """Start the firmware or the REPL on the port (the caller holds the lock)."""
        if what == "firmware":
            cmd = [micropython_binary()]
            if self.heap:
                cmd += ["-X", "heapsize=%s" % self.heap]
            cmd += [str(RUN_SIM), "--serial", "-", "--control", self._control_path, "--fs", self.fs,
                    "--config", "maester.json"]
            if self.taps_path:
                cmd += ["--taps", self.taps_path]
            if self.trace:
                cmd += ["--trace", str(self.trace)]
            if self.paced:
                cmd += ["--paced", "on"]
            cards = {str(r): uids for r, uids in self.table.items() if uids}
            if cards:
                cards_path = os.path.join(self.workdir, "cards.json")
                with open(cards_path, "w") as f:
                    json.dump(cards, f)
                cmd += ["--cards", cards_path]
        else:
            cmd = [micropython_binary(), "-i", str(BOARD_REPL)]
        with open(self._log_path, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdin=self._master, stdout=self._master, stderr=log,
                                         cwd=self.fs, preexec_fn=_die_with_parent)
        self.running = what
        return self.proc

    def _watch(self, proc):
        """The board's power supply, from one power-on to its end: when the process that has the
        port ends by itself, start what a board runs next (shared/runtime/pyexec.c, ports/rp2/main.c):
        the REPL after the firmware, the firmware after a soft or hard reset at the REPL.  A kill
        (power off, unplug, stop) replaces self.proc first, and the watch ends there."""
        while True:
            code = proc.wait()
            with self._lock:
                if self.proc is not proc:
                    return  # killed on purpose
                if self.running == "firmware" and code == FIRMWARE_EXIT_TO_REPL:
                    proc = self._spawn("repl")
                    self.events.append({"event": "repl"})
                elif self.running == "repl" and code in (0, REPL_RESET):
                    if code == 0:  # Ctrl-D: a soft reset prints this before main.py runs again
                        try:
                            os.write(self._master, b"MPY: soft reboot\r\n")
                        except OSError:
                            pass
                    self.events.append({"event": "soft_reset" if code == 0 else "reset"})
                    proc = self._spawn("firmware")
                else:  # BOOTLOADER (4), a crash: the board stays silent until power-cycled
                    self.running = None
                    return

    def at_repl(self, timeout=0.0):
        """True when the firmware has ended and the REPL has the port (within `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while self.running != "repl" and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.running == "repl"

    @property
    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """Cut the power: the process dies at once, mid-frame if it was writing one."""
        with self._lock:
            proc, self.proc, self.running = self.proc, None, None
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()

    def reboot(self):
        """Kill and restart the firmware: a new boot id, the same port, the same cards."""
        self.power_off()
        return self.power_on()

    def power_off(self):
        """Cut the power and leave it off: the port stays, nothing answers on it. Cards may be
        laid and lifted meanwhile (`tap`, `lift`); `power_on` finds them where they are."""
        self._sync_table()
        self.kill()

    def power_on(self):
        return self.start()

    def _sync_table(self):
        """Take what the firmware's readers hold as the table (cards a --taps script laid too)."""
        if self.running == "firmware":
            try:
                self.table = {r["reader"]: r["cards"] for r in self.state()["readers"]}
            except SimBoardError:
                pass  # it died under us: the table as last laid stands

    def unplug(self):
        """Pull the USB cable: the firmware loses power and the port disappears.

        The host's open port fails at its next read, as a real ttyACM does, and the port's name
        is gone until `replug`.
        """
        if not self.plugged:
            raise SimBoardError("already unplugged")
        self.power_off()  # the cards stay on the table meanwhile
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._master = self._slave = -1
        try:
            os.unlink(self.port)
        except FileNotFoundError:
            pass
        self.plugged = False

    def replug(self):
        """Plug the cable back in: the same port name (as udev's stable name would give), a fresh boot."""
        if self.plugged:
            raise SimBoardError("not unplugged")
        self._plug_pty()
        self.plugged = True
        return self.start()

    def _plug_pty(self):
        """A fresh pty, raw until pyserial opens it (no echo of the firmware's bytes), with the port
        name pointed at it in one step."""
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        tmp = self.port + ".new"
        os.symlink(os.ttyname(self._slave), tmp)
        os.replace(tmp, self.port)

    def stop(self):
        """Kill the firmware and release the ptys and the work directory."""
        self.kill()
        for fd in (self._master, self._slave, self._cmaster, self._cslave):
            if fd < 0:
                continue
            try:
                os.close(fd)
            except OSError:
                pass
        self._master = self._slave = self._cmaster = self._cslave = -1
        shutil.rmtree(self.workdir, ignore_errors=True)

    def log(self):
        """What the firmware process wrote to stderr (tracebacks)."""
        try:
            with open(self._log_path, "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # -- control channel -----------------------------------------------------------------

    def _drain_control(self):
        while select.select([self._cmaster], [], [], 0)[0]:
            try:
                if not os.read(self._cmaster, 4096):
                    break
            except OSError:
                break
        self._lines = b""

    def _read_line(self, deadline):
        while b"\n" not in self._lines:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            proc = self.proc
            if select.select([self._cmaster], [], [], min(left, 0.1))[0]:
                try:
                    self._lines += os.read(self._cmaster, 4096)
                except OSError:
                    return None
            elif proc is None or proc.poll() is not None:  # gone, and all it said is read
                code = None if proc is None else proc.returncode
                raise SimBoardError("the simulated board exited (%s):\n%s" % (code, self.log()))
        line, self._lines = self._lines.split(b"\n", 1)
        msg = json.loads(line)
        if msg.get("event") == "ready":  # also a boot after a reset at the REPL
            self.boot_id = msg.get("boot_id")
        return msg

    def _wait_event(self, names, timeout):
        deadline = time.monotonic() + timeout
        while True:
            msg = self._read_line(deadline)
            if msg is None:
                raise SimBoardError("no %r from the simulated board within %.1f s:\n%s" % (names, timeout, self.log()))
            self.events.append(msg)
            if msg.get("event") in names:
                return msg

    def command(self, cmd, timeout=5.0):
        """Send one control command (a dict) and return its answer; raises on {"ok": false}."""
        if self.running != "firmware":
            raise SimBoardError("the firmware is not running" + (" (the board is at the REPL)" if self.alive else ""))
        self._next_id += 1
        cmd = dict(cmd, id=self._next_id)
        os.write(self._cmaster, (json.dumps(cmd) + "\n").encode())
        deadline = time.monotonic() + timeout
        while True:
            msg = self._read_line(deadline)
            if msg is None:
                raise SimBoardError("no answer to %r within %.1f s" % (cmd, timeout))
            if msg.get("id") == self._next_id:
                if not msg.get("ok"):
                    raise SimBoardError(msg.get("error", "command failed"))
                return msg
            self.events.append(msg)

    def tap(self, reader, uid):
        """Lay a card (uid: bytes or hex) on a reader and leave it there (the board on or off, or at
        the REPL: the firmware finds it when it starts)."""
        uid = _uid_hex(uid)
        if self.running == "firmware":
            self.command({"cmd": "place", "reader": reader, "uid": uid})
        else:
            self._check_reader(reader)
        on = self.table.setdefault(reader, [])
        if uid not in on:
            on.append(uid)

    def _check_reader(self, reader):
        try:
            with open(self.config_path) as f:
                count = len(json.load(f)["readers"])
        except (OSError, ValueError, KeyError, TypeError):
            return  # a config the firmware will judge itself
        if not isinstance(reader, int) or not 0 <= reader < count:
            raise SimBoardError("no reader %r (the table has %d)" % (reader, count))

    def lift(self, reader, uid=None, settle=False, timeout=5.0):
        """Take the cards (or the one with this uid) off a reader.

        With `settle`, return only once the firmware has asked the reader for a card often
        enough to call it gone (SETTLE_POLLS empty polls), as a hand lifting a card and reaching
        for the next one gives it time to: a card laid on at once would look like a second card.
        """
        if uid is not None:
            uid = _uid_hex(uid)
        left = [u for u in self.table.get(reader, ()) if uid is not None and u != uid]
        if self.running != "firmware":
            self._check_reader(reader)
            self.table[reader] = left
            return None  # off or at the REPL: nothing polls the reader, nothing to settle
        cmd = {"cmd": "remove", "reader": reader}
        if uid is not None:
            cmd["uid"] = uid
        # Count from the removal itself, as the firmware answers it: polls counted before it (a
        # driver stalled between asking and lifting) found the card still there.
        before = self.command(cmd)["polls"][reader]
        self.table[reader] = left
        if settle:
            self.settle(reader, before, timeout)
        return before

    def settled(self, reader, before):
        """True once the reader was asked for a card SETTLE_POLLS times since `before` (lift's count)."""
        return self.polls()[reader] >= before + SETTLE_POLLS

    def settle(self, reader, before, timeout=5.0):
        deadline = time.monotonic() + timeout
        while not self.settled(reader, before):
            if time.monotonic() > deadline:
                raise SimBoardError("reader %d was not polled after the card was lifted" % reader)
            time.sleep(0.02)

    def press(self, reader, uid, timeout=5.0):
        """Tap a card: lay it on a reader, leave it until the firmware has read it (SETTLE_POLLS polls,
        more than the presence confirm count), then lift it and wait until it is seen gone."""
        before = self.polls()[reader] if self.alive else 0
        self.tap(reader, uid)
        deadline = time.monotonic() + timeout
        while self.alive and self.polls()[reader] < before + SETTLE_POLLS:
            if time.monotonic() > deadline:
                raise SimBoardError("reader %d was not polled while the card lay on it" % reader)
            time.sleep(0.02)
        self.lift(reader, uid, settle=True, timeout=timeout)

    def polls(self):
        """How often each reader has been asked for a card since the firmware started."""
        return self.command({"cmd": "polls"})["polls"]

    def noise(self, reader, every=0, next=0):
        """Corrupt every n-th answer of the cards on a reader (0: clean), or the next few."""
        self.command({"cmd": "noise", "reader": reader, "every": every, "next": next})

    def strip_frame(self):
        """The last frame written to the LED strip: 3 bytes per pixel, in strip order (GRB)."""
        return bytes.fromhex(self.command({"cmd": "strip"})["frame"])

    def strip_text(self):
        """The same frame as one character per pixel ('.' dark, R G B Y C M W)."""
        return self.command({"cmd": "strip"})["text"]

    def state(self):
        return self.command({"cmd": "state"})

    def flush_trace(self):
        """Flush the time stamps (needs trace=FILE) to their file; returns how many were taken."""
        return self.command({"cmd": "trace"})["records"]


def start_simulated_board(config=None, taps=None, **kw):
    """Start the firmware on a simulated board; returns a running SimBoard (see the module doc)."""
    return SimBoard(config=config, taps=taps, **kw)
