"""The pages of a game served: `serve` for `maester serve --log PATH`, and `serving` for the pages
that `--web/--no-web`, `--lan` ask of `maester play`, `resume` and `demo` (commands/serve.py).

`play` builds its Session deep inside the terminal's loop, so the command line's wish travels in a
context variable: the command runs inside `wanting(...)`, and `serving(session, sim, humans)`, which
terminal/game.py wraps around its loop, starts the pages for that session when it is set. Without
`--web` (or with stdout not a terminal, the default then) nothing here runs and play is unchanged.

In `play`, the seats' pages show their views live, but a decision is still made where the loop
asks it (the terminal for `--human` seats, the bots for the others): the loop reads the state
without the session lock and prompts with input(), so a page that answered for it would leave a
stale prompt behind. `maester serve` has no such loop: the people's seats decide on their pages
and the bots' seats are played by bots on a background thread (seatbots.py).

Links last: a logged game's seat tokens and web port are kept beside its log (keys.py), so
`play --web`, `resume` and `serve` for one log print the same links (the port aside, when it has
been taken meanwhile). Bots' seats get no token and no link.
"""

import contextlib
import contextvars
import io
import socket
import sys

from ..engine import core
from ..engine.bots import PLAY_DELAY
from ..table import asking, clocks
from . import keys, payload
from .seatbots import BotSeats

_WANTED = contextvars.ContextVar("maester_web", default=None)  # {"lan": bool, "port": int} or None

LAN_WARNING = ("WARNING: --lan: the pages are served to your whole network. Anyone who gets a seat's "
               "link sees that seat's hand and secrets; share each link only with its player.")


def lan_address():
    """This machine's address on its network (no packet is sent: a UDP connect only picks a route)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return socket.gethostbyname(socket.gethostname())
    finally:
        s.close()


def links(web, base):
    return {"table": base + "/table",
            "seats": {s: "%s/seat/%d/%s" % (base, s, t) for s, t in sorted(web.tokens.items())},
            "hands": {s: "%s/hands/%d/%s" % (base, s, t) for s, t in sorted(web.hand_tokens.items())}}


def qr_text(url):
    """The URL as a QR code drawn with block characters, or None when `qrcode` is missing."""
    try:  # qrcode is optional: without it the links are printed alone
        import qrcode
    except ImportError:
        return None
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


PHONE_HINT = ("These links open on this computer only. To open the seat pages on phones on the same network, "
              "start with --lan (then each seat also gets a QR code to scan).")


def announce(web, server, lan, names=None, out=None, qr=True, save_to=None):
    """Save the table link and each person's secret seat link privately, then print them. Called
    before the server starts: a file that cannot be written stops the command before any page is up.

    QR codes only with `lan`: an address on this machine alone is no use to a phone. Seats that
    cannot decide on their page (bots) get no link at all.
    """
    out = out or sys.stdout
    host = lan_address() if lan else "127.0.0.1"
    found = links(web, "http://%s:%d" % (host, server.port))
    people = [(names[seat] if names else "Seat %d" % seat, url) for seat, url in found["seats"].items()
              if seat in web.answerable]
    # A bot-hands seat's page shows its bot's hand: for the person who handles those cards alone.
    handlers = [("%s's bot" % (names[seat] if names else "Seat %d" % seat), url) for seat, url in found["hands"].items()]
    if save_to:
        # The links are the seats' keys: this user's only, whole, never through a link (keys.py). The
        # screen may be cleared; the file stays.
        keys.write_private(save_to, "table: %s\n%s\n" % (found["table"], "\n".join(
            ["%s: %s" % p for p in people] + ["%s, hands page: %s" % h for h in handlers])), replace=True)
    if lan:
        print(LAN_WARNING, file=out)
    print("Table page (public): %s" % found["table"], file=out)
    shown = [("%s, private page" % who, url) for who, url in people]
    shown += [("%s, hands page (only for the person handling its cards)" % who, url) for who, url in handlers]
    for what, url in shown:
        print("%s: %s" % (what, url), file=out)
        code = qr_text(url) if qr and lan else None
        if code:
            print(code, file=out)
    if shown and not lan:
        print(PHONE_HINT, file=out)
    if save_to:
        print("These links are also in %s (readable by you only)." % save_to, file=out)
    out.flush()
    return found


def _seat_names(web):
    with web.session.lock:
        return payload.seat_payload(web.session.state, [], 0)["seat_names"]


def _host(lan):
    return "0.0.0.0" if lan else "127.0.0.1"


def open_pages(session, host, port=0, out=None):
    """(tokens, a bound WebServer not yet started) for `session`'s pages.

    A logged game reuses the tokens and port kept beside its log, or keeps the ones drawn now
    there; a game without a log gets tokens None (WebGame draws fresh ones, in memory only).
    A port given with --web-port wins. Raises ValueError (exit 2) for a tokens file that cannot
    be used, or a port that is taken when it was asked for by number.
    """
    from .server import WebServer  # uvicorn only when pages are wanted (start-up)
    out = out or sys.stdout
    if session.log is None:
        return None, _bind(WebServer(None, host, port))
    header = session.log.header()
    path = keys.tokens_path(session.log.path)
    seats = core.get_game(session.state["game"]).seat_count(session.state)
    kept = keys.load(path, header, seats)
    if kept is None:
        server = _bind(WebServer(None, host, port))
        try:
            tokens, _ = keys.save(path, header, keys.draw(seats), server.port)
        except BaseException:
            server.stop()
            raise
        return tokens, server
    tokens, kept_port = kept
    if port:
        if port != kept_port:
            print("The pages are on port %d (--web-port), not on port %d as before: the links differ in "
                  "their port." % (port, kept_port), file=out)
        return tokens, _bind(WebServer(None, host, port))
    try:
        return tokens, WebServer(None, host, kept_port).bind()
    except OSError:
        server = _bind(WebServer(None, host, 0))
        print("Port %d, where this game's pages were before, is taken now: they are on port %d this time, "
              "so the links differ from the earlier ones in their port only." % (kept_port, server.port), file=out)
        return tokens, server


def _bind(server):
    try:
        return server.bind()
    except OSError as e:
        raise ValueError("cannot serve the pages on port %d: %s; choose another with --web-port "
                         "(0: a free one)" % (server.port, e.strerror or e)) from None


@contextlib.contextmanager
def wanting(lan, port, on, off, window_ms=None, clock=None, clock_zero=None):
    """Run the block with pages wanted (`on`), or refused (`off`: --no-web), on `port` (0: the game's
    own, else a free one), to the whole network with `lan`: what `serving` then does. `window_ms`:
    how long a window stays open for a person (--window-ms; table/asking.py); `clock`, `clock_zero`:
    the seats' clocks (--clock, --clock-zero; table/clocks.py)."""
    token = _WANTED.set({"lan": lan, "port": port, "on": bool(on), "off": off, "window_ms": window_ms,
                         "clock": clock, "clock_zero": clock_zero})
    try:
        yield
    finally:
        _WANTED.reset(token)


def window_ms():
    """--window-ms of the command running, else the default."""
    wanted = _WANTED.get()
    return (wanted or {}).get("window_ms") or asking.WINDOW_MS


def clock_wanted():
    """(--clock, --clock-zero) of the command running: (None, None) when not given."""
    wanted = _WANTED.get() or {}
    return wanted.get("clock"), wanted.get("clock_zero")


@contextlib.contextmanager
def serving(session, sim=None, humans=(), board=False, pacer=None, hands=None):
    """Serve `session`'s pages while the block runs, if the command line asked for them.

    On a real table (`board`) the pages are how people make the choices a tap cannot say, so
    they are on unless the command line said --no-web. `pacer` (table/asking.py): the windows whose
    countdowns the pages show, and which a seat holds from its page. `hands`: the bot-hands seats
    (table/bothands.py), each given a hands page.
    """
    wanted = _WANTED.get()
    if wanted is None or not (wanted["on"] or board and not wanted["off"]):
        yield None
        return
    from .app import WebGame, build_app  # starlette and uvicorn only when pages are wanted (start-up)
    runner = getattr(sim, "runner", None)
    tokens, server = open_pages(session, _host(wanted["lan"]), wanted.get("port") or 0)
    # The people's seats decide on their pages; bots' seats have none.
    web = WebGame(session, runner, answerable=[s for s in humans if isinstance(s, int)], tokens=tokens, pacer=pacer,
                  hands=hands)
    if pacer is not None:
        pacer.on_change = web.changed
    server.app = build_app(web)
    try:
        save = session.log.path + ".links" if session.log is not None else None
        announce(web, server, wanted["lan"], _seat_names(web), save_to=save)
        server.start()
        if sys.stdin.isatty() and sys.stdout.isatty():
            try:
                input("Open the pages (or scan the codes), then press Enter to start. ")
            except EOFError:
                pass
        yield web
    finally:
        server.stop()
        web.close()


def served_people(extra, seats):
    """The seats people play under `serve`: those the log's header names. Every seat for a game
    on a board, or when the header does not say (an older log): a person can always take a page."""
    humans = extra.get("humans")
    if extra.get("table") == "board" or not isinstance(humans, list):
        return list(range(seats))
    return [s for s in humans if type(s) is int and 0 <= s < seats]


def _bot_delay(delay, extra):
    """The pause before a bot's move: `delay` if given, else as the game was started, else PLAY_DELAY."""
    if delay is not None:
        return delay
    delay = extra.get("delay")
    return delay if type(delay) in (int, float) and 0 <= delay <= 60 else PLAY_DELAY


def serve(session, log, lan=False, port=0, qr=True, delay=None, window=None, clock=None, clock_zero=None):
    """`maester serve`: `session`'s pages until Ctrl-C, the people deciding on their pages and the
    bots' seats played by bots (a pause of `delay` before each move, default as the game was started);
    the table answers what needs no person and closes the people's windows after `window` ms (None:
    the default)."""
    from .app import WebGame, build_app  # starlette and uvicorn only when serving (start-up)
    extra = session.log.header().get("extra") or {}
    seats = core.get_game(session.state["game"]).seat_count(session.state)
    people = served_people(extra, seats)
    tokens, server = open_pages(session, _host(lan), port)
    pacer = asking.Pacer(session, people, window or asking.WINDOW_MS)
    pacer.clocks = clocks.start(session, people, clock, clock_zero)  # None: a game without clocks
    web = WebGame(session, answerable=people, tokens=tokens, pacer=pacer)
    pacer.on_change = web.changed
    if pacer.clocks is not None:
        pacer.clocks.listeners.append(web.changed)
    bots = None
    try:
        bots = BotSeats(session, [s for s in range(seats) if s not in people], extra.get("bots", "heuristic"),
                        _bot_delay(delay, extra))
        server.app = build_app(web)
        names = _seat_names(web)
        announce(web, server, lan, names, qr=qr, save_to=session.log.path + ".links")
        server.start()
        if bots.bots:
            print("Bots play %s." % ", ".join(names[s] for s in sorted(bots.bots)))
        print("Serving %s (%d moves%s). Ctrl-C stops." % (log, session.state["seq"],
                                                          ", over" if session.state["over"] else ""))
        sys.stdout.flush()
        pacer.start()
        bots.start()
        _until_stopped(server, bots)
    except KeyboardInterrupt:
        print("\nStopped serving; the game is in %s." % log)
    finally:
        if bots is not None:
            bots.stop()
        pacer.stop()
        if pacer.clocks is not None:
            pacer.clocks.close()
        server.stop()
        web.close()
    return 0


def _until_stopped(server, bots):
    """Serve until Ctrl-C; say once when the game is over (its pages keep showing the result)."""
    told = False
    while server.thread.is_alive():
        server.thread.join(0.25)
        if bots.over.is_set() and not told:
            print("The game is over; its pages show the result until you stop serving (Ctrl-C).", flush=True)
            told = True


