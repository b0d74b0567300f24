"""`maester play`, `maester resume` and `maester demo`: a game's table in the terminal.

One loop (`run`) drives all three. It takes the first open ask, exactly as `sim.play_one` does:
a bot seat answers with `bot.choose(view or None, ask)`, a human seat picks a numbered option.
Every command goes through `Session.submit`, so it is in the log, synced, before it is shown.
Hidden information reaches the screen only through `view(state, seat)` for the seat whose turn it
is; with two or more people at one screen, it is cleared and handed over between them.

The game comes from the command (`play GAME`, `demo [GAME]`) or from the log's header (`resume`);
each game brings its words in `games/<game>/text.py` (`Names`, `describe_event`).
"""

import argparse
import importlib
import os
import sys
import textwrap
import time
from datetime import datetime, timezone
from pathlib import Path

from . import lazy
from .argtypes import int_range, seconds, serial_port
from .cardsdb import maester_home, make_folder, read_last
from .engine import PUBLIC, cardtables, core

# Imported when a game starts, not for --help (issue 16, start-up): the log's session (sqlite3) and the bots.
engine_session = lazy.Module("maester.engine.session")


class _OnFirstUse:
    """A module imported when first used. `tui` brings in rich, which `maester play --help` and the
    commands that only import this module's helpers do not need (issue 16: start-up)."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        return getattr(importlib.import_module(self._name), attr)


tui = _OnFirstUse("maester.tui")

GAMES = ("btwixt", "intrigue", "oathbreaker", "lcg")
TITLES = {"btwixt": "B'Twixt", "intrigue": "Westeros Intrigue", "oathbreaker": "Oathbreaker",
          "lcg": "A Game of Thrones: The Card Game"}
VARIANTS = {"btwixt": "advanced, draft, kingsmoot, revealed, short",
            "intrigue": "floor, mat, most_swords, narrow_two, winner_exempt, winner_starts",
            "oathbreaker": "aloof_king, cagey_court, night_is_dark, order_in_court",
            "lcg": "littlefinger, two_on_two"}
DEFAULT_PLAYERS = 4
GAME_PLAYERS = {"oathbreaker": 6, "lcg": 2}  # games whose default table is not DEFAULT_PLAYERS
PLAY_DELAY = 0.4   # seconds between two bot moves in `play`
DELAY = seconds(0, 60)  # --delay: refused while parsing if negative, nan, inf or absurdly long
SEATS = int_range(2, 8)  # --players: the widest range of the games; each game's config checks its own
DEMO_DELAY = 0.12  # a 4-player demo game (~200 moves) takes about 25 s
FRAME_GAP = 0.05  # bots playing with no delay: at most a frame this often (the rest could not be read anyway)


class Quit(Exception):
    """The person at the keyboard asked to stop (q) or their input ended."""

    def __init__(self, eof=False):
        self.eof = eof


class Screen:
    """What the terminal shows: a redrawn rich table, or simple lines with `plain`."""

    def __init__(self, session, humans, delay, plain):
        self.session = session
        self.humans = list(humans)
        self.delay = delay
        self.plain = plain
        self.config = session.state["config"]
        self.text = importlib.import_module("maester.games.%s.text" % session.state["game"])
        self.shown = len(session.events)  # events already printed (plain) or logged
        self.private_shown = {s: self.shown for s in self.humans}  # private lines printed (plain)
        self.strip = None  # the simulated table's LED strip, as text, when there is one
        self.profile = None  # the table profile that names the strip's segments (for its legend)
        self.on_pages = False  # people decide on their seat pages, not at this screen
        self.note = ""  # the game's title line, printed on the normal screen when the view closes
        self.status = ""  # a line under the table: who is awaited, a move that was refused
        self.alt = False  # drawing on the terminal's alternate screen
        self.drawn = 0.0  # when the last frame was drawn (time.monotonic)
        if not plain:
            from rich.console import Console
            self.console = Console(highlight=False)

    # --- text ----------------------------------------------------------------------------------

    def lines(self, events, viewer):
        g = self.session.state["g"]
        out = (self.text.describe_event(g, e, viewer, cardtables.of_config(self.config)) for e in events)
        return [line for line in out if line]

    def log_for(self, viewer, last=None):
        # A seat's new hand is in its hand panel already.
        events = [e for e in self.session.events_for(viewer) if e["e"] != "hand"]
        return self.lines(events[-last:] if last else events, viewer)

    def say(self, text=""):
        print(text, flush=True)

    def read(self, prompt):
        try:
            text = input(prompt)
        except EOFError:
            raise Quit(eof=True) from None
        if text.strip().lower() in ("q", "quit"):
            raise Quit()
        return text.strip()

    # --- screens -------------------------------------------------------------------------------

    def watcher(self):
        """Who the screen belongs to between turns: a lone human, else the public.

        With seat pages, the screen is the table's: everyone's secrets are on their own pages."""
        if self.on_pages:
            return PUBLIC
        return self.humans[0] if len(self.humans) == 1 else PUBLIC

    def draw(self, viewer):
        """Draw the table as `viewer` sees it: lines with `plain`, else the whole screen."""
        if not self.plain:
            self.frame(viewer, status=self.status)
            return
        view = self.session.view(viewer)
        for line in tui.plain_lines(view, self.config):
            self.say(line)
        if self.strip is not None:
            self.say("LED strip: [%s]" % self.strip())

    def clear(self):
        """Wipe what a seat saw. On the alternate screen nothing scrolled away, so nothing stays."""
        if not self.plain and self.alt:
            self.write("\x1b[H\x1b[2J")

    def start(self, note):
        self.note = note
        if self.plain:
            self.say(note)
            for line in self.lines(self.session.events[: self.shown], PUBLIC)[-12:]:
                self.say(line)
            self.draw(PUBLIC)
            return
        self.enter()
        self.draw(self.watcher())

    def after(self, seat):
        """Show what the last command changed, then wait a little if a bot moved."""
        events = self.session.events[self.shown:]
        self.shown = len(self.session.events)
        self.status = ""  # the wait it announced is over
        if self.plain:
            new = self.lines(events, PUBLIC)
            for line in new:
                self.say(line)
            if any(e["e"] in ("round", "season") for e in events):
                self.draw(PUBLIC)
        elif seat in self.humans or self.delay or time.monotonic() - self.drawn > FRAME_GAP:
            self.draw(self.watcher())
        if seat not in self.humans and self.delay and any(core.visible(e, self.watcher()) for e in events):
            time.sleep(self.delay)  # a bot's move that shows nothing (a pass in a window) takes no pause

    def waiting(self, text):
        """Who the game waits for (their page, a tap): a line, or the status under the table."""
        if self.plain:
            self.say(text)
        else:
            self.status = text
            self.draw(self.watcher())

    def refused(self, text):
        if self.plain:
            self.say(text)
        else:
            self.status = text  # shown under the table at the next prompt

    def ask_human(self, ask):
        state = self.session.state
        seat = ask["seat"]
        names = self.text.Names(state["g"], cardtables.of_config(self.config))
        who = names.seat(seat)
        if len(self.humans) > 1:
            title = "Seat %d" % seat
            if names.leader(seat) != title:  # B'Twixt seats have leaders; Intrigue's are just seats
                title += " — %s" % names.leader(seat)
            handover = "%s: press Enter when only you can see the screen (q quits) " % title
            if self.plain:
                self.read(handover)
            else:
                self.clear()
                self.frame(PUBLIC, footer=[""])  # the public table only, while the screen changes hands
                self.read(handover)
        if self.plain:
            self.say("--- %s decides ---" % who)
            # What only this seat learnt since its last decision (its new hand is in the table below).
            private = [e for e in self.session.events[self.private_shown[seat]:] if "vis" in e and e["e"] != "hand"]
            for line in self.lines(private, seat):
                self.say("(only you) " + line)
        self.private_shown[seat] = len(self.session.events)
        # The game's own words for a choice, unless its text module has friendlier ones for menus.
        describe = getattr(self.text, "describe_choice", None) or core.get_game(state["game"]).describe_choice
        labels = [describe(state, ask, c, seat) for c in ask["choices"]]
        choice = self.choose_plain(ask, labels, who) if self.plain else self.choose(seat, ask, labels, who)
        self.status = ""
        if len(self.humans) > 1:
            self.clear()  # the next person must not see this hand
            if not self.plain:
                self.frame(PUBLIC)
        return choice

    def choose_plain(self, ask, labels, who):
        self.draw(ask["seat"])
        self.say(ask["prompt"])
        for i, label in enumerate(labels, 1):
            self.say("  %d. %s" % (i, label))
        while True:
            text = self.read("Your choice, %s (1-%d, q to quit): " % (who, len(labels)))
            if text.isdigit() and 1 <= int(text) <= len(labels):
                return ask["choices"][int(text) - 1]
            self.say("%r is not one of the options: type a number from 1 to %d, or q to quit."
                     % (text, len(labels)))

    def choose(self, seat, ask, labels, who):
        """The seat's table with the prompt and its numbered options below, a page at a time if
        they do not fit; the answer is typed on the last line."""
        page, note = 0, self.status
        while True:
            width, height = self.size()
            parts = self.parts(self.session.view(seat))
            prompt = textwrap.wrap(ask["prompt"], width) or [""]
            room = height - 3 - len(prompt) - tui.min_rows(self.console, parts, width)
            pages = tui.option_pages(labels, width, max(3, room))
            page %= len(pages)
            self.frame(seat, footer=prompt + pages[page] + [note], parts=parts)
            more = ", m more" if len(pages) > 1 else ""
            text = self.read("Your choice, %s (1-%d%s, q to quit): " % (who, len(labels), more))
            if more and text.lower() == "m":
                page, note = page + 1, ""
                continue
            if text.isdigit() and 1 <= int(text) <= len(labels):
                return ask["choices"][int(text) - 1]
            note = "%r is not one of the options: type a number from 1 to %d, or q to quit." % (text, len(labels))

    def finish(self):
        view = self.session.view(PUBLIC)
        if self.plain:
            self.draw(PUBLIC)
        else:
            self.leave()
            self.print_table(below=len(tui.scores_lines(view, self.config)) + 1)
        for line in tui.scores_lines(view, self.config):
            self.say(line)

    # --- the full-screen view --------------------------------------------------------------------

    def write(self, text):
        sys.stdout.write(text)
        sys.stdout.flush()

    def size(self):
        try:
            return os.get_terminal_size(sys.stdout.fileno())  # asked at every frame: windows get resized
        except OSError:
            return self.console.size

    def enter(self):
        """Draw on the terminal's alternate screen: it has no scrollback, so a hand shown there is
        gone once the screen is cleared or left, and the normal screen keeps only what `leave` prints."""
        if not self.alt:
            self.write("\x1b[?1049h\x1b[H\x1b[2J")
            self.alt = True

    def leave(self, table=False):
        """Back to the normal screen (always, however the game ends); with `table`, print the public
        table there, the only thing of the game the scrollback keeps besides the messages."""
        if self.plain or not self.alt:
            return
        self.write("\x1b[H\x1b[2J\x1b[?25h\x1b[?1049l")  # cleared too, for a terminal without an alternate screen
        self.alt = False
        if self.note:
            self.say(self.note)
        if table:
            self.print_table()

    def print_table(self, below=0):
        """The public table on the normal screen, fitted to one screen with `below` rows to spare."""
        width, height = self.size()
        parts = tui.screen_parts(self.session.view(PUBLIC), self.config)
        for text in self.ansi(tui.fit(self.console, parts, (), width, max(8, height - below - 2))):
            self.say(text)

    def parts(self, view, status=""):
        parts = tui.screen_parts(view, self.config)
        if self.strip is not None:
            parts.append(tui.led_part(self.session.state["game"], self.profile, self.strip()))
        if status:
            parts.append(tui.Part([lambda w: tui.one_line(status, w, "bold")], rank=0))
        return parts

    def frame(self, viewer, footer=(), status="", parts=None):
        """Fill the screen: the table as `viewer` sees it, fitted above the `footer` rows (a prompt
        and its options), then the cursor on the row below them, where input is typed."""
        width, height = self.size()
        if parts is None:
            parts = self.parts(self.session.view(viewer), status)
        log = self.log_for(viewer, last=2 * height)  # more than a screen holds, not the whole game every frame
        rows = tui.fit(self.console, parts, log, width, max(1, height - len(footer) - 1))
        texts = self.ansi(rows) + [str(tui.one_line(f, width)) for f in footer]
        out = ["\x1b[?25l"]
        for r, text in enumerate(texts[:height - 1], 1):  # each row placed: nothing ever scrolls
            out.append("\x1b[%d;1H%s\x1b[0m\x1b[K" % (r, text))
        out.append("\x1b[%d;1H\x1b[J\x1b[?25h" % (min(len(texts), height - 1) + 1))
        self.write("".join(out))
        self.drawn = time.monotonic()

    def ansi(self, rows):
        """Rich's segment rows as text with colour codes, one string a row."""
        from rich.segment import Segment, Segments
        if not rows:
            return []
        segs = []
        for i, row in enumerate(rows):
            segs += ([Segment.line()] if i else []) + list(row)
        with self.console.capture() as cap:
            self.console.print(Segments(segs), end="", crop=False, soft_wrap=True)
        return cap.get().split("\n")


def _table_report(text):
    print("table: " + text, flush=True)


def run(session, humans, bots_kind, delay, plain, note="", table=False, board=None):
    """Play `session` to its end (or until a person quits). Returns the exit status.

    With `table`, every move that a tap can express is made on a simulated board (a `maester
    sim-board` process, opened by its port name) and the LED strip is drawn under the table.
    With `board` (a connected table.board.Board), people play on that board: taps are moves, the
    rest is decided on the seat pages, and the terminal shows the public table.
    """
    sim = None
    if board is not None:
        from .table.board import BoardTable
        sim = BoardTable(board, session, board.tags, report=_table_report, foreign=board.foreign)
    elif table:
        from .table.simtable import SimTable
        sim = SimTable(session, report=_table_report)
    from .web.launch import serving  # the seat and table pages, when `--web` asked for them
    try:
        with serving(session, sim, humans, board=board is not None) as web:
            if board is not None and web is None:
                _table_report("no seat pages (--no-web): only what a tap can say can be played")
            status = _loop(session, humans, bots_kind, delay, plain, note, sim, pages=web is not None)
            if web is not None and session.state["over"]:
                _keep_pages_up()
            return status
    finally:
        if sim is not None:
            sim.close()


def _keep_pages_up():
    """The pages show the final result until the person at the keyboard lets them go.

    Only when someone is there to answer (a terminal, as for the prompt before the game): from a
    pipe or a test it returns at once, so nothing hangs."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return
    print("The game is over; its pages stay up until you press Enter (or Ctrl-C).", flush=True)
    try:
        input()
    except (EOFError, KeyboardInterrupt):
        print()


def _wait_for_page(session, ask_id, poll=0.05):
    """Wait until a seat's page answered `ask_id` (the page submits through the session's lock)."""
    while True:
        with session.lock:
            if session.state["over"] or all(a["id"] != ask_id for a in session.state["asks"]):
                return
        time.sleep(poll)


def _loop(session, humans, bots_kind, delay, plain, note, sim, pages=False):
    from .bots import card_info, decide, make_bot
    state = session.state
    game = core.get_game(state["game"])
    info = card_info(state)
    seats = range(game.seat_count(state))
    bots = {s: make_bot(state["game"], bots_kind, state["seed"], s, info) for s in seats if s not in humans}
    screen = Screen(session, humans, delay, plain)
    screen.strip = getattr(sim, "strip_text", None)  # a real strip is on the table, not on screen
    screen.profile = getattr(sim, "profile", None)
    screen.on_pages = pages
    submit = getattr(sim, "submit", None) or session.submit
    path = session.log.path if session.log else None
    try:
        screen.start(note)
        while not session.state["over"]:
            state = session.state
            ask = state["asks"][0]
            seat = ask["seat"]
            if seat in humans and pages:
                # With seat pages, a person decides on their own page: the shared screen shows
                # only the public table, so no hand needs hiding while it changes hands.
                screen.waiting("Waiting for %s (a tap, or their page)…" % ("the table" if seat == core.TABLE
                                                                           else "seat %s" % seat))
                _wait_for_page(session, ask["id"])
                screen.after(seat)
                continue
            if seat in humans:
                choice = screen.ask_human(ask)
            else:
                bot = bots[seat]
                choice = decide(bot, state, seat, ask, core.view)
            result = submit({"seat": seat, "ask": ask["id"], "choice": choice})
            if not result.ok:
                if seat not in bots:
                    screen.refused("Not accepted: %s" % result.reason)
                    continue
                raise RuntimeError("bot %s chose an illegal move: %s" % (seat, result.reason))
            screen.after(seat)
    except Quit as q:
        if len(humans) > 1:
            screen.clear()  # do not leave a hand on the screen
        screen.leave(table=True)
        screen.say("\n%s The game is saved in %s (%d moves); continue it with: maester resume --log %s"
                   % ("Input ended." if q.eof else "Stopped.", path, session.state["seq"], path))
        return 1 if q.eof else 0
    except engine_session.EngineFault as e:
        screen.leave(table=True)
        screen.say("maester: %s. Continue with: maester resume --log %s" % (e, path))
        return 1
    finally:
        # Whatever stopped the game (Ctrl-C, an error), the normal screen comes back, with the public
        # table when the game is not over (at its end `finish` prints it with the scores).
        screen.leave(table=not session.state["over"])
    screen.finish()
    if path:
        screen.say("The game's log: %s" % path)
    return 0


# --- commands ---------------------------------------------------------------------------------

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
    games = maester_home() / "games"
    make_folder(games, "the game logs")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path, i = games / ("%s-%s.sqlite" % (stamp, game)), 2
    while path.exists():
        path, i = games / ("%s-%d-%s.sqlite" % (stamp, i, game)), i + 1
    return path


def _remember(path):
    home = maester_home()
    home.mkdir(parents=True, exist_ok=True)
    (home / "last").write_text(str(path) + "\n")


def _plain(args):
    return args.plain or not sys.stdout.isatty()


def _config(game, players, variants, decks_text=None):
    """The game's config from the command line: --players (else one seat per --decks name, else
    the game's default), --variant and --decks (the LCG's starter decks or deck files, checked by
    name, rules and count)."""
    from .sim import parse_decks
    decks = parse_decks(game, decks_text, players)
    if players is None and decks:
        players = len(decks)
    config = {"players": players or GAME_PLAYERS.get(game, DEFAULT_PLAYERS), "variants": list(variants or [])}
    if decks:
        config["decks"] = decks
    return config


def _start(game, players, humans, variants, seed, bots_kind, delay, log, plain, title, table=False, decks=None):
    config = _config(game, players, variants, decks)
    players = config["players"]
    humans = sorted(set(humans or []))
    for h in humans:
        if not 0 <= h < players:
            raise ValueError("--human %d: the seats of a %d-player game are 0 to %d" % (h, players, players - 1))
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    path = _log_path(log, game)
    extra = {"humans": humans, "bots": bots_kind, "delay": delay, "table": table}
    session = engine_session.Session.new(game, config, seed, str(path), extra)
    _remember(path)
    note = "%s: %d players, seed %d, log %s" % (title, players, seed, path)
    try:
        return run(session, humans, bots_kind, delay, plain, note, table=table)
    finally:
        session.close()


MISSING_SHOWN = 12  # cards named in the "no sticker" message; the rest are counted


def missing_stickers(state, tags):
    """The cards of this game (instance ids) that no enrolled sticker names, in a stable order.

    A game whose stickers are not its instances (the LCG: a sticker names a code and a copy, the
    reader says whose card it is) says what is missing itself, in its table module."""
    from .enroll import NO_TAG
    from .table.runner import sim_tags
    hook = getattr(_game_table(state["game"]), "missing_stickers", None)
    if hook is not None:
        return hook(state, tags)
    cards = cardtables.table(state)
    untagged = {i for key in NO_TAG.get(state["game"], ()) for i in cards.get(key, [])}
    have = set(tags.values())
    return sorted(c for c in set(sim_tags(state).values()) if c not in have and c not in untagged)


def _game_table(game):
    try:
        return importlib.import_module("maester.games.%s.table" % game)
    except ModuleNotFoundError:
        return None


def _missing_text(state, missing):
    cards = cardtables.table(state)
    info = cards.get("info") or cards.get("cards") or {}  # the LCG keeps its card records in "cards"
    game = state["game"]
    enroll = getattr(_game_table(game), "enroll_command", lambda missing: "maester enroll %s" % game)(missing)

    def name(inst):
        base, _, copy = inst.partition("#")
        rec = info.get(base)
        several = copy and (copy != "1" or "%s#2" % base in missing)
        return (rec["name"] if rec else inst) + (" (copy %s)" % copy if several else "")
    filler = [c for c in missing if (info.get(c.split("#", 1)[0]) or {}).get("simulation")]
    shown = ", ".join(name(c) for c in missing[:MISSING_SHOWN])
    more = " and %d more" % (len(missing) - MISSING_SHOWN) if len(missing) > MISSING_SHOWN else ""
    text = ("%d cards of this game have no sticker enrolled: %s%s. Enroll them with `%s`, or start "
            "anyway with --allow-missing and choose those cards on the seat pages." % (len(missing), shown, more, enroll))
    if filler:
        text += (" %d of them stand for cards the card data lacks (simulation filler): add each card you own with "
                 "`maester cards add %s`, then enroll it." % (len(filler), game))
    return text


def open_board(state, port, profile_name, allow_missing, sim_stickers=False, table="board"):
    """Check the stickers, connect and check the board; returns a table.board.Board ready for `run`.

    With table "pi" (or a profile with a "pi" section) the readers and the strip hang off this
    Raspberry Pi instead (table/pi.py): a PiBoard, which `run` takes like a board.
    Raises ValueError (exit 2) with the reason and the command that fixes it; nothing is written.
    """
    from .enroll import load_tags
    from .table import pi
    from .table import profile as profiles
    from .table.board import connect, find_port
    from .table.runner import sim_tags
    game = state["game"]
    players = state["config"]["players"]
    profile = profiles.load(profile_name) if profile_name else profiles.for_game(game, players)
    if profile.get("game") not in (None, game) or profile.get("players") not in (None, players):
        raise ValueError("table profile %s is for %s with %s players; this is %s with %d"
                         % (profile["name"], profile.get("game"), profile.get("players"), game, players))
    on_pi = table == "pi" or pi.uses_pi(profile)
    if on_pi:
        pi.pi_config(profile)  # no Pi config is the first thing to say
    else:
        port = find_port(port)  # no board at all is the first thing to say
    tags = sim_tags(state) if sim_stickers else load_tags(game)
    missing = missing_stickers(state, tags)
    if missing and not allow_missing:
        raise ValueError(_missing_text(state, missing))
    if missing:
        _table_report("%d cards have no sticker: choose them on the seat pages when they come up" % len(missing))
    foreign = {uid: TITLES.get(g, g) for g in GAMES if g != game for uid in load_tags(g) if uid not in tags}
    board = pi.connect_pi(profile, _table_report) if on_pi else connect(port, profile, _table_report)
    board.tags, board.foreign = tags, foreign
    return board


def _start_board(args):
    """`maester play GAME` on a board: every seat is a person; chance is observed from taps."""
    from .engine import new_game
    game = args.game
    config = _config(game, args.players, args.variant, args.decks)
    players = config["players"]
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    config["observe"] = list(importlib.import_module("maester.games.%s" % game).OBSERVABLE)  # shuffled by hand
    state, _ = new_game(game, config, seed)  # the card table, to check the stickers before anything is written
    board = open_board(state, args.port, args.profile, args.allow_missing, args.sim_stickers,
                       table="pi" if args.table == "pi" else "board")
    try:
        path = _log_path(args.log, game)
        extra = {"humans": list(range(players)), "bots": args.bots, "delay": 0, "table": _table_kind(board),
                 "port": board.port, "profile": board.profile["name"], "allow_missing": bool(args.allow_missing),
                 "sim_stickers": bool(args.sim_stickers)}
        session = engine_session.Session.new(game, config, seed, str(path), extra)
    except BaseException:
        board.close()
        raise
    _remember(path)
    where = "board %s" % board.port if _table_kind(board) == "board" else "readers and LEDs on this Raspberry Pi"
    note = "%s on the table: %d players, %s, log %s" % (TITLES[game], players, where, path)
    try:
        return run(session, _board_humans(session), args.bots, 0, _plain(args), note, board=board)
    finally:
        session.close()


def _board_humans(session):
    """On a real table every seat is a person, and the table itself answers what it observes."""
    return list(range(core.get_game(session.state["game"]).seat_count(session.state))) + [core.TABLE]


def _table_kind(board):
    """"pi" for a table driven by this Raspberry Pi, "board" for a board on a serial port (kept in the log)."""
    from .table.pi import PiBoard
    return "pi" if isinstance(board, PiBoard) else "board"


def _no_pi_with_sim(table):
    if table == "pi":
        raise ValueError("--table pi plays on the readers and strip of this Raspberry Pi; a simulated game "
                         "(--sim, demo) takes --table or --no-table")


def cmd_play(args):
    if not args.sim:
        return _start_board(args)
    _no_pi_with_sim(args.table)
    delay = PLAY_DELAY if args.delay is None else args.delay
    return _start(args.game, args.players, args.human, args.variant, args.seed, args.bots, delay, args.log,
                  _plain(args), TITLES[args.game], table=args.table is not False, decks=args.decks)


def cmd_demo(args):
    _no_pi_with_sim(args.table)
    delay = 0 if args.fast else DEMO_DELAY
    return _start(args.game, args.players, args.human, (), args.seed, "heuristic", delay, args.log, _plain(args),
                  "%s demo" % TITLES[args.game], table=args.table is not False, decks=args.decks)


def cmd_resume(args):
    path = Path(args.log) if args.log else read_last()
    session = engine_session.Session.resume(str(path))  # LogError (a ValueError) → exit 2, the file untouched
    try:
        extra = session.log.header().get("extra") or {}
        delay = extra.get("delay", PLAY_DELAY) if args.delay is None else args.delay
        humans = extra.get("humans", [])
        plain = _plain(args)
        if session.state["over"]:
            screen = Screen(session, humans, 0, plain)
            screen.say("This game is already over.")
            screen.finish()
            return 0
        _remember(path.resolve())
        note = "Resumed %s after %d moves" % (path, session.state["seq"])
        if session.log.note:  # e.g. a log from before `.acks`: it could not be checked for lost moves
            note += "; note: %s" % session.log.note
        if extra.get("table") in ("board", "pi"):  # a real table: reattach to the board (or the Pi's readers)
            board = open_board(session.state, args.port or extra.get("port"), extra.get("profile"),
                               extra.get("allow_missing", False), extra.get("sim_stickers", False),
                               table=extra["table"])
            return run(session, _board_humans(session), extra.get("bots", "heuristic"), 0, plain, note, board=board)
        _no_pi_with_sim(args.table)
        table = extra.get("table", False) if args.table is None else args.table
        return run(session, humans, extra.get("bots", "heuristic"), delay, plain, note, table=table)
    finally:
        session.close()


PLAYERS_HELP = ("seats at the table: B'Twixt 3 to 6, Intrigue 2 to 6 (default 4), Oathbreaker 5 to 8 (default 6), "
                "the LCG 2 to 6 (default 2)")


DECKS_HELP = ("the LCG: one deck per seat, comma-separated: a starter deck from stark, lannister, baratheon and "
              "targaryen, or the path of a deck-list file (see `maester decks check`), checked under the casual "
              "rules (any size, so the 45-card starters qualify); a deck may sit at two seats (default: the four "
              "starters in turn; without --players, one seat per deck)")


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
    p.add_argument("game", choices=GAMES, help="which game")
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
                   help="a seat (from 0) played by a person; repeat for several")
    p.add_argument("--bots", default="heuristic", choices=("random", "heuristic", "search"),
                   help="the bot at the other seats (default heuristic; search: the LCG's search bot, "
                        "50 ms a decision)")
    p.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    p.add_argument("--variant", action="append", metavar="V",
                   help="a variant; repeat to combine (%s)"
                        % "; ".join("%s: %s" % (TITLES[g], VARIANTS[g]) for g in GAMES))
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
    p.add_argument("game", nargs="?", default="btwixt", choices=GAMES, help="which game (default btwixt)")
    p.add_argument("--human", type=int, action="append", metavar="SEAT", help="a seat (from 0) you play")
    p.add_argument("--players", type=SEATS, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    p.add_argument("--decks", metavar="D,D,...", help=DECKS_HELP)
    p.add_argument("--fast", action="store_true", help="no pause between moves")
    p.add_argument("--log", metavar="PATH", help="the game log (default $MAESTER_HOME/games/<time>-<game>.sqlite)")
    _screen_options(p)
    p.set_defaults(func=cmd_demo)
