"""A simulated board driven by typed commands: `maester sim-board` (its own process, for `maester play
--port`) and `maester bench chaos`.

The unmodified firmware runs under the MicroPython unix port with simulated readers and a virtual
strip, behind a pty. The first line printed is `port: PATH`, a symlink to the pty (a stable name, as
/dev/serial/by-id gives a real board); a host opens that port by name, exactly as it opens
/dev/ttyACM0, and cannot tell the difference. Then the board takes commands,
one a line, from stdin (or from --script FILE first):

    tap READER CARD|UID   tap a card: lay it on a reader and lift it once the board has read it
                          (READER: number or name; CARD: a card id such as betrayal#2 or
                          leader:cersei, or a tag UID in hex; an id this table has no card for
                          is refused, with the closest names)
    place READER CARD|UID lay a card on a reader and leave it there (a card resting in play)
    lift READER           take the card off (answered once the board has seen it gone)
    cards [WORD]          the cards that may be tapped, id and name, per seat or kind (only those
                          matching WORD: cards seat 1, cards cersei)
    unplug / replug       pull the USB cable (the port disappears) / plug it back (same name)
    reboot                power-cycle the firmware (a new boot id; the cards stay on the table)
    wait MS               pause the script
    strip                 print the LED strip now
    quit (or q)           stop the board

When the firmware is not running (after `maester firmware repl`, or nothing flashed yet) the port is
the MicroPython unix port's own REPL, working in the board's filesystem: `maester firmware flash
--port PORT` and mpremote work on it as on a board, and Ctrl-D or `mpremote reset` there starts the
firmware again from what is now on it. --fs DIR keeps that filesystem in DIR across runs (an empty
DIR: a board with plain MicroPython, to flash); by default it is fresh, the firmware already on it.

Every command is answered with `ok: ...` or `error: ...`; when the LED strip has changed it is drawn
as `strip: [...]`, once a second at most (one character a pixel: . dark, R G B Y C M W colours, lower
case dim), unless --no-strip.
"""

import argparse
import os
import sys
import threading
import time

from .. import games, lazy
from ..argtypes import int_range
from ..files import read_text
from ..table import profile as profiles

simconsole = lazy.Module("maester.table.simconsole")  # the firmware's simulator when a board starts (start-up)

PLAYERS = int_range(2, 8)
MAX_SCRIPT = 1 << 20  # bytes of a --script: a board's commands, one a line


def _profile(args):
    if args.profile:
        return profiles.load(args.profile)
    if not args.game or args.players is None:
        raise ValueError("say which table: --profile NAME, or --game GAME --players N")
    return profiles.for_game(args.game, args.players)


def cmd_sim_board(args):
    profile = _profile(args)
    script = read_text(args.script, MAX_SCRIPT, "script").splitlines() if args.script else None
    if args.trace and os.path.lexists(args.trace):  # the stamps go to a file of their own, never over one
        raise ValueError("--trace %s is there already: give the name of a new file" % args.trace)
    if args.trace and not os.fsencode(args.trace).decode("utf-8", "ignore") == args.trace:
        raise ValueError("--trace: give a file name in UTF-8 (the simulated board takes no other)")
    try:
        sim = simconsole.SimBoardProcess(profile, args.board, trace=args.trace, fs=args.fs, paced=args.paced)
    except simconsole.SimBoardError as e:
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
    p.add_argument("--game", choices=games.NAMES, help="the game, with --players")
    p.add_argument("--players", type=PLAYERS, help="the number of players (with --game), %s" % PLAYERS.span)
    p.add_argument("--board", default="pico", choices=("pico", "esp32s3"),
                   help="whose pin map the board config is written for, as `firmware flash --board` (default pico)")
    p.add_argument("--fs", metavar="DIR", help="the board's filesystem, kept in DIR across runs (what a flash "
                                               "writes; empty: plain MicroPython). Default: a fresh one "
                                               "holding the firmware and the profile's config")
    p.add_argument("--script", metavar="FILE", help="commands to run first, one a line")
    p.add_argument("--no-strip", action="store_true", help="do not draw the strip when it changes")
    p.add_argument("--paced", action="store_true",
                   help="no reader transaction ends before a board would end it: the readers' modelled time "
                        "(SPI at 4 MHz, ~20 us per machine.SPI call, air time at 106 kbit/s, the chip's timer; "
                        "firmware/READERS.md) is waited out in wall time (the unix port is ~5x faster)")
    p.add_argument("--trace", metavar="FILE", help=argparse.SUPPRESS)  # time stamps for bench hil
    p.set_defaults(func=cmd_sim_board)
