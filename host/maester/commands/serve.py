"""`maester serve --log PATH`, and `--web/--no-web`, `--lan`, `--web-port` on `maester play`, `resume` and
`demo` (added to their parsers here, after commands/play.py registered them). The pages: web/launch.py."""

import argparse
import sys

from .. import lazy
from ..argtypes import int_range, seconds
from ..table import clockspec as clocks

# Imported when pages are served, not for --help (issue 16, start-up): the engine, the log, the web app.
launch = lazy.Module("maester.web.launch")
engine_session = lazy.Module("maester.engine.session")

WEB_PORT = int_range(0, 65535)  # 0: the system picks a free one
BOT_DELAY = seconds(0, 60)  # serve --delay, as play's


def _with_web(func, default_on):
    def run(args):
        pages = getattr(args, "page", None)  # `play --page SEAT`: that seat is played on its page
        if pages and args.web is False:
            raise ValueError("--page %d plays that seat on its seat page: drop --no-web, or play it at the "
                             "keyboard with --human %d" % (pages[0], pages[0]))
        on = args.web if args.web is not None else (args.lan or bool(pages) or (default_on and sys.stdout.isatty()))
        with launch.wanting(args.lan, args.web_port, on, args.web is False, args.window_ms, args.clock,
                            args.clock_zero):
            return func(args)
    return run


CLOCK_HELP = ("a chess clock for each person's seat: its time, with an optional increment per move (Fischer), "
              "e.g. 25m, 1h30m or 20m+10s. It runs while the seat is asked; at zero the game's rule answers for the "
              "seat (see the README's Clocks; the LCG: it passes). Kept in the game log: resume continues it")
CLOCK_ZERO_HELP = ("what a seat's clock at zero does: rule (the default: the game's rule answers each of its "
                   "decisions) or lose (the seat loses the game; chosen when the game starts)")


def add_clock_options(parser):
    parser.add_argument("--clock", type=clocks.parse_clock, metavar="TIME[+INC]", help=CLOCK_HELP)
    parser.add_argument("--clock-zero", choices=clocks.ZERO_RULES, help=CLOCK_ZERO_HELP)


WINDOW_MS = int_range(100, 60000)
WINDOW_HELP = ("how long a window stays open for a person who does not act (the LCG's action, response, save, "
               "marshalling and setup windows; B'Twixt's Robb Stark question), in ms, %s (default 2000): the "
               "same for every seat, whatever it holds, so that being asked tells nobody what is in a hand; act "
               "within it, or press Hold on your page to stop its clock" % WINDOW_MS.span)


def add_web_options(parser, default_on):
    parser.add_argument("--web", action=argparse.BooleanOptionalAction, default=None,
                        help="serve a page per seat (secret link; a QR code with --lan) and a public table page "
                             "(default: on for a game on a board; otherwise %s)"
                             % ("on when the output is a terminal" if default_on else "off"))
    parser.add_argument("--lan", action="store_true",
                        help="serve the pages to the whole network, not just this machine (implies --web)")
    # Not --port: that name is kept for the table's serial port.
    parser.add_argument("--web-port", type=WEB_PORT, default=0, metavar="N",
                        help="the web port, %s (default: the game's port as before if free, else a free "
                             "one)" % WEB_PORT.span)
    parser.add_argument("--window-ms", type=WINDOW_MS, metavar="MS", help=WINDOW_HELP)
    add_clock_options(parser)
    parser.set_defaults(func=_with_web(parser.get_default("func"), default_on))


def cmd_serve(args):
    session = engine_session.Session.resume(args.log)  # LogError (a ValueError) → exit 2, the file untouched
    try:
        return launch.serve(session, args.log, args.lan, args.web_port, not args.no_qr, args.delay,
                            args.window_ms, args.clock, args.clock_zero)
    finally:
        session.close()


def register(sub):
    p = sub.add_parser("serve", help="serve a saved game's seat and table pages in the browser",
                       description="Serve a game from its log: a public table page and a private page per "
                                   "person's seat (a secret link, printed with a QR code, and saved in "
                                   "LOG.links). The people decide on their pages, bots play the seats that "
                                   "were bots; each choice is logged like a tap. The links are kept beside "
                                   "the log (LOG.web.json): `play`, `resume` and `serve` of one game give "
                                   "the same ones. Example: maester serve --log game.sqlite")
    p.add_argument("--log", required=True, metavar="PATH", help="the game log to serve")
    p.add_argument("--lan", action="store_true", help="serve to the whole network, not just this machine")
    # --web-port, as on `play`: --port is the board's serial port in every other command.
    p.add_argument("--web-port", type=WEB_PORT, default=0, metavar="N",
                   help="the web port, %s (default: the game's port as before if free, else a free "
                        "one)" % WEB_PORT.span)
    p.add_argument("--no-qr", action="store_true", help="print the links without QR codes")
    p.add_argument("--window-ms", type=WINDOW_MS, metavar="MS", help=WINDOW_HELP)
    add_clock_options(p)
    p.add_argument("--delay", type=BOT_DELAY, metavar="SECONDS",
                   help="pause before each bot move, %s (default: as the game was started, else 0.4)"
                        % BOT_DELAY.span)
    p.set_defaults(func=cmd_serve)
    # The terminal commands registered before this module get the web options.
    for name, default_on in (("play", True), ("resume", True), ("demo", False)):
        parser = sub.choices.get(name)
        if parser is not None:
            add_web_options(parser, default_on)
