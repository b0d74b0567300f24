"""`maester replay LOG`: a page that steps through a game move by move (web/replay.py, web/replay_app.py),
and `maester replay LOG --export FILE [--with-secrets]`: a replay file that others open the same way."""

import sys
import time

from .. import lazy
from .serve import WEB_PORT

# Imported when a replay is read or served, not for --help (issue 16, start-up).
replays = lazy.Module("maester.web.replay")
launch = lazy.Module("maester.web.launch")


def cmd_replay(args):
    if args.with_secrets and not args.export:
        raise ValueError("--with-secrets goes with --export FILE; on the replay page, a switch shows the "
                         "seats' hidden cards of a finished game")
    if sys.stderr.isatty():  # a long game takes a few seconds to read; a pipe gets no progress line
        print("Reading %s..." % args.log, file=sys.stderr, flush=True)
    replay = replays.load(args.log)  # ValueError (one line, exit 2) for anything that is not a replay
    what = "%s, %d move%s, %s" % (replay.title, replay.moves, "" if replay.moves == 1 else "s",
                                  "over" if replay.over else "still running")
    if args.export:
        replay.export(args.export, args.with_secrets)
        print("Wrote %s (%s): %s." % (args.export, what, "with each seat's hidden cards, the seed and the moves "
                                      "(readable by you only)" if args.with_secrets else "the public replay"))
        return 0
    return serve(replay, what, args)


def serve(replay, what, args):
    from ..web.replay_app import build_app  # starlette and uvicorn only when serving (start-up)
    from ..web.server import WebServer  # start-up, as above
    server = WebServer(build_app(replay), launch._host(args.lan), args.web_port)
    try:
        server.bind()
    except OSError as e:
        raise ValueError("cannot serve the replay on port %d: %s; choose another with --web-port (0: a free one)"
                         % (args.web_port, e.strerror or e)) from None
    host = launch.lan_address() if args.lan else "127.0.0.1"
    url = "http://%s:%d/replay" % (host, server.port)
    server.start()
    try:
        print("Replay of %s (%s): %s" % (args.log, what, url))
        if replay.secrets is None and replay.refused:
            print("Hidden cards: not shown: %s." % replay.refused)
        print("Ctrl-C stops.", flush=True)
        if not args.no_browser:
            import webbrowser  # start-up: only when a browser is to be opened
            webbrowser.open(url)
        while server.thread.is_alive():
            time.sleep(0.25)
    except KeyboardInterrupt:
        print("\nStopped the replay.")
    finally:
        server.stop()
    sys.stdout.flush()
    return 0


def register(sub):
    p = sub.add_parser(
        "replay", help="step through a game move by move in the browser, or export its replay",
        description="Serve a page that steps through a game move by move (first, back, forward, last, a "
                    "slider), showing the table as the public saw it after each move. Once the game is over, "
                    "a switch shows each seat's hidden cards too; a game still running keeps them hidden. "
                    "LOG is a game log, or a replay file written by --export. The log is only read. "
                    "Examples: maester replay game.sqlite; maester replay game.sqlite --export game.replay.json")
    p.add_argument("log", metavar="LOG", help="a game log (or a replay file made by --export)")
    p.add_argument("--export", metavar="FILE",
                   help="write the replay to FILE (a new file) instead of serving it: the public frames only, "
                        "no hand, face-down card, role, seed or chance outcome; anyone opens it with "
                        "`maester replay FILE`")
    p.add_argument("--with-secrets", action="store_true",
                   help="with --export: also write each seat's hidden cards at every move, the seed and the "
                        "moves (a finished game only; the file is then readable by you only)")
    p.add_argument("--web-port", type=WEB_PORT, default=0, metavar="N",
                   help="the web port, %s (default 0: a free one)" % WEB_PORT.span)
    p.add_argument("--lan", action="store_true", help="serve to the whole network, not just this machine")
    p.add_argument("--no-browser", action="store_true", help="print the page's link without opening a browser")
    p.set_defaults(func=cmd_replay)
