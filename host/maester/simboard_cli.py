"""`maester sim-board`: a simulated board in its own process, for `maester play --port`.

The unmodified firmware runs under the MicroPython unix port with simulated readers and a virtual
strip, behind a pty. The first line printed is `port: PATH`, a symlink to the pty (a stable name, as
/dev/serial/by-id gives a real board); a host opens that port by name, exactly as it opens
/dev/ttyACM0, and cannot tell the difference. Then the board takes commands,
one a line, from stdin (or from --script FILE first):

    tap READER CARD|UID   lay a card on a reader and leave it there (READER: number or name,
                          CARD: a card id such as betrayal#2 or leader:cersei, or a tag UID in hex)
    lift READER           take the card off (answered once the board has seen it gone)
    unplug / replug       pull the USB cable (the port disappears) / plug it back (same name)
    reboot                power-cycle the firmware (a new boot id; the cards stay on the table)
    wait MS               pause the script
    strip                 print the LED strip now
    quit                  stop the board

Every command is answered with `ok: ...` or `error: ...`; whenever the LED strip changes it is drawn
as `strip: [...]` (one character a pixel: . dark, R G B Y C M W colours, lower case dim).
"""

import argparse
import os
import re
import sys
import threading
import time

from .argtypes import int_range
from .files import read_text

PLAYERS = int_range(2, 8)
MAX_SCRIPT = 1 << 20  # bytes of a --script: a board's commands, one a line
UID_RE = re.compile(r"^(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{14}|[0-9a-fA-F]{20})$")
STRIP_EVERY = 0.1  # seconds between two looks at the strip


class SimBoardProcess:
    """The board and its command language; `run(lines)` reads commands until quit or the end."""

    def __init__(self, profile, board="pico", trace=False, out=None):
        from .firmware_cli import config_bytes
        from .link.simboard import SimBoard
        import os
        import tempfile

        self.profile = profile
        self.readers = [r["name"] for r in profile["readers"]]
        self.out = out or sys.stdout
        self.lock = threading.Lock()  # the control channel takes one command at a time
        self.say_lock = threading.Lock()
        # The config a board flashed for this profile holds, byte for byte, so `play` finds it fits.
        fd, path = tempfile.mkstemp(prefix="maester-board-", suffix=".json")
        with os.fdopen(fd, "wb") as f:
            f.write(config_bytes(profile, board))
        try:
            self.board = SimBoard(config=path, trace=trace)
        finally:
            os.unlink(path)
        self.last_strip = None
        self.stopped = threading.Event()

    def say(self, text):
        with self.say_lock:
            print(text, file=self.out, flush=True)

    def reader(self, word):
        if word.isdigit() and int(word) < len(self.readers):
            return int(word)
        if word in self.readers:
            return self.readers.index(word)
        raise ValueError("no reader %r: this table has %s (or 0 to %d)"
                         % (word, ", ".join(self.readers), len(self.readers) - 1))

    @staticmethod
    def uid(word):
        if UID_RE.match(word):
            return word.lower()
        from .table.runner import sim_uid
        return sim_uid(word)  # a card id: the sticker the simulated table puts on that card

    def strip_text(self):
        with self.lock:
            if not self.board.plugged:
                return None
            return self.board.strip_text()

    def draw_strip(self, force=False):
        text = self.strip_text()
        if text is not None and (force or text != self.last_strip):
            self.last_strip = text
            self.say("strip: [%s]" % text)

    def watch_strip(self):
        while not self.stopped.wait(STRIP_EVERY):
            try:
                self.draw_strip()
            except Exception:  # noqa: BLE001 — the board is being stopped or unplugged
                pass

    def command(self, line):
        """Run one command line; returns False when the board should stop."""
        words = line.split()
        if not words or words[0].startswith("#"):
            return True
        what, args = words[0].lower(), words[1:]
        want = {"tap": 2, "lift": 1, "wait": 1, "unplug": 0, "replug": 0, "reboot": 0, "strip": 0, "quit": 0,
                "trace": 0, "polls": 0}
        if what not in want:
            raise ValueError("unknown command %r (tap, lift, unplug, replug, reboot, wait, strip, quit)" % what)
        if len(args) != want[what]:
            raise ValueError("%s takes %d argument%s" % (what, want[what], "" if want[what] == 1 else "s"))
        if what == "quit":
            return False
        if what == "wait":
            if not args[0].isdigit():
                raise ValueError("wait MS: a whole number of milliseconds, got %r" % args[0])
            time.sleep(int(args[0]) / 1000)
        elif what == "strip":
            self.draw_strip(force=True)
            return True
        elif what == "polls":  # how often each reader was asked for a card (bench hil)
            with self.lock:
                self.say("polls: %s" % " ".join(str(n) for n in self.board.polls()))
            return True
        else:
            with self.lock:
                if what == "tap":
                    self.board.tap(self.reader(args[0]), self.uid(args[1]))
                elif what == "lift":
                    self.board.lift(self.reader(args[0]), settle=True)
                elif what == "unplug":
                    self.board.unplug()
                elif what == "replug":
                    self.board.replug()
                elif what == "reboot":
                    self.board.reboot()
                elif what == "trace":
                    self.board.flush_trace()
        self.say("ok: %s" % " ".join(words))
        return True

    def run(self, lines):
        from .link.simboard import SimBoardError
        for line in lines:
            try:
                if not self.command(line.strip()):
                    return False
            except (ValueError, SimBoardError) as e:
                self.say("error: %s" % e)
        return True

    def stop(self):
        self.stopped.set()
        with self.lock:
            self.board.stop()


def _profile(args):
    from .table import profile as profiles
    if args.profile:
        return profiles.load(args.profile)
    if not args.game or args.players is None:
        raise ValueError("say which table: --profile NAME, or --game GAME --players N")
    return profiles.for_game(args.game, args.players)


def cmd_sim_board(args):
    from .link.simboard import SimBoardError
    profile = _profile(args)
    script = read_text(args.script, MAX_SCRIPT, "script").splitlines() if args.script else None
    if args.trace and os.path.lexists(args.trace):  # the stamps go to a file of their own, never over one
        raise ValueError("--trace %s is there already: give the name of a new file" % args.trace)
    if args.trace and not os.fsencode(args.trace).decode("utf-8", "ignore") == args.trace:
        raise ValueError("--trace: give a file name in UTF-8 (the simulated board takes no other)")
    try:
        sim = SimBoardProcess(profile, args.board, trace=args.trace)
    except SimBoardError as e:
        raise ValueError("the simulated board did not start: %s" % e) from None
    sim.say("port: %s" % sim.board.port)
    sim.say("board: %s (%s build), readers: %s" % (profile["name"], args.board,
                                                    ", ".join("%d %s" % x for x in enumerate(sim.readers))))
    if not args.no_strip:
        threading.Thread(target=sim.watch_strip, name="strip", daemon=True).start()
    try:
        going = True
        if script is not None:
            going = sim.run(script)
            if going:  # the script left the board running: until a signal, or quit on stdin
                going = sim.run(sys.stdin)
                while going:
                    time.sleep(3600)
        else:
            sim.run(sys.stdin)
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0


def register(sub):
    p = sub.add_parser("sim-board", help="a simulated board in its own process, on a pty (for play --port)",
                       description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--profile", metavar="NAME", help="the table profile (hardware/profiles), e.g. btwixt-4p")
    p.add_argument("--game", choices=("btwixt", "intrigue", "oathbreaker", "lcg"), help="the game, with --players")
    p.add_argument("--players", type=PLAYERS, help="the number of players (with --game), %s" % PLAYERS.span)
    p.add_argument("--board", default="pico", choices=("pico", "esp32s3"),
                   help="whose pin map the board config is written for, as `firmware flash --board` (default pico)")
    p.add_argument("--script", metavar="FILE", help="commands to run first, one a line")
    p.add_argument("--no-strip", action="store_true", help="do not draw the strip when it changes")
    p.add_argument("--trace", metavar="FILE", help=argparse.SUPPRESS)  # time stamps for bench hil
    p.set_defaults(func=cmd_sim_board)
