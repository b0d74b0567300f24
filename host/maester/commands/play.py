"""`maester play`, `maester resume` and `maester demo`: a game on a table (a board, this Raspberry
Pi's readers, or the simulated one) or in the terminal alone.

The command line becomes a game's config and log; terminal/game.py plays it (the loop the three
share), table/opening.py opens a real table first. The game comes from the command (`play GAME`,
`demo [GAME]`) or from the log's header (`resume`).
"""

import argparse
import importlib
import os
import sys
from datetime import datetime, timezone
from pathlib import Path

from .. import games, lazy
from ..argtypes import int_range, seconds, serial_port
from ..cards.db import maester_home, make_folder, read_last
from ..engine import core
from ..engine.bots import PLAY_DELAY

# Imported when a game starts, not for --help (issue 16, start-up): the log's session (sqlite3), the
# loop with its screen (rich), the table and the pages, and the `--decks` words (sim.py).
engine_session = lazy.Module("maester.engine.session")
terminal_game = lazy.Module("maester.terminal.game")
screen = lazy.Module("maester.terminal.screen")
opening = lazy.Module("maester.table.opening")
sim = lazy.Module("maester.sim")

DELAY = seconds(0, 60)  # --delay: refused while parsing if negative, nan, inf or absurdly long
SEATS = int_range(2, 8)  # --players: the widest range of the games; each game's config checks its own
DEMO_DELAY = 0.12  # a 4-player demo game (~200 moves) takes about 25 s


def _log_path(log, game):
    """The game log `--log` names, as a full path (else a new one under MAESTER_HOME/games), its
    folder made; a ValueError in one line when it cannot be (a link that loops, a file in the way)."""
    if not log:
        return _default_log(game)
    try:
        path = Path(log).resolve()
    except (OSError, RuntimeError) as e:  # RuntimeError: pathlib's "Symlink loop"
        raise ValueError("cannot use %s as a game log: %s" % (log, e)) from None
    make_folder(path.parent, "the game log")
    return path


def _default_log(game):
    folder = maester_home() / "games"
    make_folder(folder, "the game logs")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path, i = folder / ("%s-%s.sqlite" % (stamp, game)), 2
    while path.exists():
        path, i = folder / ("%s-%d-%s.sqlite" % (stamp, i, game)), i + 1
    return path


def _remember(path):
    home = maester_home()
    home.mkdir(parents=True, exist_ok=True)
    (home / "last").write_text(str(path) + "\n")


def _plain(args):
    return args.plain or not sys.stdout.isatty()


def _config(game, players, variants, decks_text=None, clock_zero=None):
    """The game's config from the command line: --players (else one seat per --decks name, else
    the game's default), --variant and --decks (the LCG's starter decks or deck files, checked by
    name, rules and count), and `--clock-zero lose` (the engine then takes a seat's loss on time)."""
    decks = sim.parse_decks(game, decks_text, players)
    if players is None and decks:
        players = len(decks)
    config = {"players": players or games.DEFAULT_PLAYERS[game], "variants": list(variants or [])}
    if decks:
        config["decks"] = decks
    if clock_zero == "lose":
        config["clock_zero"] = "lose"
    return config


def _bot_hands(hands, players, people, table=True):
    """The --bot-hands seats, checked: in the game, not also a person's, and on a table."""
    hands = sorted(set(hands or []))
    for s in hands:
        if not 0 <= s < players:
            raise ValueError("--bot-hands %d: the seats of a %d-player game are 0 to %d" % (s, players, players - 1))
        if s in people:
            raise ValueError("--bot-hands %d: that seat is already a person's (--human or --page)" % s)
    if hands and not table:
        raise ValueError("--bot-hands: the bot's cards are tapped on a table; drop --no-table")
    return hands


def _start(game, players, humans, variants, seed, bots_kind, delay, log, plain, title, table=False, decks=None,
           pages=(), clock_zero=None, hands=()):
    config = _config(game, players, variants, decks, clock_zero)
    players = config["players"]
    pages = sorted(set(pages or []))
    humans = sorted(set(humans or []) | set(pages))
    for h in humans:
        if not 0 <= h < players:
            raise ValueError("--%s %d: the seats of a %d-player game are 0 to %d"
                             % ("page" if h in pages else "human", h, players, players - 1))
    hands = _bot_hands(hands, players, humans, table)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    path = _log_path(log, game)
    # "pages": the people who decide on their seat page; the other humans type at the keyboard (resume keeps both).
    extra = {"humans": humans, "bots": bots_kind, "delay": delay, "table": table}
    if pages:
        extra["pages"] = pages
    if hands:
        extra["bot_hands"] = hands  # resume keeps them
    session = engine_session.Session.new(game, config, seed, str(path), extra)
    _remember(path)
    note = "%s: %d players, seed %d, log %s" % (title, players, seed, path)
    try:
        return terminal_game.run(session, humans, bots_kind, delay, plain, note, table=table, pages=pages, hands=hands)
    finally:
        session.close()


def _start_board(args):
    """`maester play GAME` on a board: every seat is a person; chance is observed from taps."""
    game = args.game
    config = _config(game, args.players, args.variant, args.decks, args.clock_zero)
    players = config["players"]
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    config["observe"] = list(importlib.import_module("maester.games.%s" % game).OBSERVABLE)  # shuffled by hand
    state, _ = core.new_game(game, config, seed)  # the card table, to check the stickers before anything is written
    hands = _bot_hands(args.bot_hands, players, ())
    board = opening.open_board(state, args.port, args.profile, args.allow_missing, args.sim_stickers,
                       table="pi" if args.table == "pi" else "board")
    try:
        path = _log_path(args.log, game)
        extra = {"humans": list(range(players)), "bots": args.bots, "delay": 0, "table": opening.table_kind(board),
                 "port": board.port, "profile": board.profile["name"], "allow_missing": bool(args.allow_missing),
                 "sim_stickers": bool(args.sim_stickers)}
        if hands:
            extra["bot_hands"] = hands
        session = engine_session.Session.new(game, config, seed, str(path), extra)
    except BaseException:
        board.close()
        raise
    _remember(path)
    where = "board %s" % board.port if opening.table_kind(board) == "board" else "readers and LEDs on this Raspberry Pi"
    note = "%s on the table: %d players, %s, log %s" % (games.TITLES[game], players, where, path)
    try:
        return terminal_game.run(session, _board_people(session, hands), args.bots, 0, _plain(args), note, board=board,
                                 hands=hands)
    finally:
        session.close()


def _board_people(session, hands):
    """A real table's people: every seat but the bot-hands ones, and the table itself."""
    return [s for s in opening.board_humans(session) if s not in hands]


def _no_pi_with_sim(table):
    if table == "pi":
        raise ValueError("--table pi plays on the readers and strip of this Raspberry Pi; a simulated game "
                         "(--sim, demo) takes --table or --no-table")


def _clock_zero(args):
    """--clock-zero of a new game: it needs --clock (refused before anything is written)."""
    if args.clock_zero is not None and args.clock is None:
        raise ValueError("--clock-zero %s says what a clock at zero does: give the clock too, e.g. --clock 25m"
                         % args.clock_zero)
    return args.clock_zero


def cmd_play(args):
    _clock_zero(args)
    if not args.sim:
        return _start_board(args)
    _no_pi_with_sim(args.table)
    delay = PLAY_DELAY if args.delay is None else args.delay
    return _start(args.game, args.players, args.human, args.variant, args.seed, args.bots, delay, args.log,
                  _plain(args), games.TITLES[args.game], table=args.table is not False, decks=args.decks,
                  pages=args.page, clock_zero=args.clock_zero, hands=args.bot_hands)


def cmd_demo(args):
    _clock_zero(args)
    _no_pi_with_sim(args.table)
    delay = 0 if args.fast else DEMO_DELAY
    return _start(args.game, args.players, args.human, (), args.seed, "heuristic", delay, args.log, _plain(args),
                  "%s demo" % games.TITLES[args.game], table=args.table is not False, decks=args.decks,
                  clock_zero=args.clock_zero, hands=args.bot_hands)


def cmd_resume(args):
    path = Path(args.log) if args.log else read_last()
    session = engine_session.Session.resume(str(path))  # LogError (a ValueError) → exit 2, the file untouched
    try:
        extra = session.log.header().get("extra") or {}
        delay = extra.get("delay", PLAY_DELAY) if args.delay is None else args.delay
        humans = extra.get("humans", [])
        plain = _plain(args)
        if session.state["over"]:
            shown = screen.Screen(session, humans, 0, plain)
            shown.say("This game is already over.")
            shown.finish()
            return 0
        _remember(path.resolve())
        note = "Resumed %s after %d moves" % (path, session.state["seq"])
        if session.log.note:  # e.g. a log from before `.acks`: it could not be checked for lost moves
            note += "; note: %s" % session.log.note
        if extra.get("table") in ("board", "pi"):  # a real table: reattach to the board (or the Pi's readers)
            board = opening.open_board(session.state, args.port or extra.get("port"), extra.get("profile"),
                               extra.get("allow_missing", False), extra.get("sim_stickers", False),
                               table=extra["table"])
            hands = extra.get("bot_hands", [])
            return terminal_game.run(session, _board_people(session, hands), extra.get("bots", "heuristic"), 0, plain,
                                     note, board=board, hands=hands)
        _no_pi_with_sim(args.table)
        table = extra.get("table", False) if args.table is None else args.table
        hands = _bot_hands(extra.get("bot_hands"), session.state["config"]["players"], humans, table)
        return terminal_game.run(session, humans, extra.get("bots", "heuristic"), delay, plain, note, table=table,
                                 pages=extra.get("pages", []), hands=hands)
    finally:
        session.close()


PLAYERS_HELP = ("seats at the table: B'Twixt 3 to 6, Intrigue 2 to 6 (default 4), Oathbreaker 5 to 8 (default 6), "
                "the LCG 2 to 6 (default 2)")


DECKS_HELP = ("the LCG: one deck per seat, comma-separated: a starter deck from stark, lannister, baratheon and "
              "targaryen, or the path of a deck-list file (see `maester decks check`), checked under the casual "
              "rules (any size, so the 45-card starters qualify); a deck may sit at two seats (default: the four "
              "starters in turn; without --players, one seat per deck)")


BOT_HANDS_HELP = ("a seat (from 0) played by a bot (heuristic, or what --bots names) with real cards that a person at the table handles: "
                  "its hands page says what the bot plays, the person taps those cards; repeat for several "
                  "(fills an empty seat of a melee or an Oathbreaker table)")


def _screen_options(p):
    """What play, resume and demo share about the screen and the table."""
    p.add_argument("--plain", action="store_true", help="print simple lines, no screen drawing")
    p.add_argument("--no-table", dest="table", action="store_const", const=False,
                   help="no table: the engine alone, the moves typed or made by bots")
    p.add_argument("--table", action=_TableOption, default=None,
                   help="play through the simulated table (the default for play and demo): the firmware "
                        "under MicroPython with simulated NFC readers and LED strip, over a pty and the "
                        "serial link, taps making the moves. "
                        "`play GAME --table pi`: a real table whose NFC readers and LED strip hang off this "
                        "Raspberry Pi, no board (hardware/PI.md)")


class _TableOption(argparse.Action):
    """--table (the simulated table) or --table pi (a table on this Raspberry Pi)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs="?", metavar="pi", **kwargs)

    def __call__(self, parser, namespace, value, option_string=None):
        if value not in (None, "pi"):  # `demo --table intrigue`: the word after --table is taken as its value
            parser.error("--table takes no value, or pi (a table on this Raspberry Pi), not %r; name the game "
                         "before --table" % value)
        setattr(namespace, self.dest, True if value is None else value)


def register(sub):
    p = sub.add_parser("play", help="play a game on your table (or --sim: a simulated one in the terminal)",
                       description="Play a game on a built table: the board is found by its USB id (or --port), "
                                   "checked (firmware, protocol, its config against the table profile) and the "
                                   "enrolled stickers loaded; every seat is a person who taps cards, and makes the "
                                   "choices a tap cannot say on their seat page. The terminal shows the public "
                                   "table. With --sim: a simulated table in this terminal, seats named with --human "
                                   "typed at the keyboard, the others bots. Examples: maester play btwixt "
                                   "--players 4;  maester play intrigue --sim --human 0;  maester play lcg --sim "
                                   "--decks stark,targaryen --human 0")
    p.add_argument("game", choices=games.NAMES, help="which game")
    p.add_argument("--sim", action="store_true",
                   help="no hardware: a simulated table in this terminal, bots at the seats not --human")
    p.add_argument("--port", type=serial_port, metavar="PORT",
                   help="the board's serial port (default: the first Pico or ESP32-S3 found by its USB id); "
                        "a `maester sim-board` port works the same")
    p.add_argument("--profile", metavar="NAME",
                   help="the table profile the board was flashed with (default: GAME-Np for the player count)")
    p.add_argument("--allow-missing", action="store_true",
                   help="start even if some cards have no sticker; those are chosen on the seat pages")
    p.add_argument("--sim-stickers", action="store_true",
                   help="the board is a `maester sim-board`: every card carries its simulated sticker, "
                        "so nothing needs enrolling")
    p.add_argument("--players", type=SEATS, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--human", type=int, action="append", metavar="SEAT",
                   help="a seat (from 0) played by a person at this keyboard; repeat for several")
    p.add_argument("--page", type=int, action="append", metavar="SEAT",
                   help="a seat (from 0) played by a person on its own seat page, e.g. on a phone (turns the "
                        "pages on); repeat for several")
    p.add_argument("--bot-hands", type=int, action="append", metavar="SEAT", help=BOT_HANDS_HELP)
    p.add_argument("--bots", default="heuristic", choices=("random", "heuristic", "search"),
                   help="the bot at the other seats (default heuristic; search: the LCG's search bot, "
                        "50 ms a decision)")
    p.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    p.add_argument("--variant", action="append", metavar="V",
                   help="a variant; repeat to combine (%s)"
                        % "; ".join("%s: %s" % (games.TITLES[g], ", ".join(games.VARIANTS[g])) for g in games.NAMES))
    p.add_argument("--decks", metavar="D,D,...", help=DECKS_HELP)
    p.add_argument("--log", metavar="PATH", help="the game log (default $MAESTER_HOME/games/<time>-<game>.sqlite)")
    p.add_argument("--delay", type=DELAY, metavar="SECONDS",
                   help="pause after each bot move, %s (default %s)" % (DELAY.span, PLAY_DELAY))
    _screen_options(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("resume", help="continue the last game (or --log PATH) from its log",
                       description="Continue a game from its log after the program stopped or was killed. "
                                   "The seats keep their roles (people and bots).")
    p.add_argument("--log", metavar="PATH", help="the game log (default: the latest game, see $MAESTER_HOME/last)")
    p.add_argument("--delay", type=DELAY, metavar="SECONDS",
                   help="pause after each bot move, %s (default: as started)" % DELAY.span)
    p.add_argument("--port", type=serial_port, metavar="PORT", help="a game played on a board: its port now (default: as started, "
                                                  "else the first board found)")
    _screen_options(p)
    p.set_defaults(func=cmd_resume)

    p = sub.add_parser("demo", help="watch bots play a whole game (B'Twixt unless named)",
                       description="Bots play a whole game (B'Twixt, or the game named) on screen in about "
                                   "half a minute. With --human a person takes that seat. The game is logged "
                                   "like `play`. Examples: maester demo intrigue;  maester demo lcg --decks baratheon,lannister")
    p.add_argument("game", nargs="?", default="btwixt", choices=games.NAMES, help="which game (default btwixt)")
    p.add_argument("--human", type=int, action="append", metavar="SEAT", help="a seat (from 0) you play")
    p.add_argument("--players", type=SEATS, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    p.add_argument("--decks", metavar="D,D,...", help=DECKS_HELP)
    p.add_argument("--bot-hands", type=int, action="append", metavar="SEAT", help=BOT_HANDS_HELP)
    p.add_argument("--fast", action="store_true", help="no pause between moves")
    p.add_argument("--log", metavar="PATH", help="the game log (default $MAESTER_HOME/games/<time>-<game>.sqlite)")
    _screen_options(p)
    p.set_defaults(func=cmd_demo)
