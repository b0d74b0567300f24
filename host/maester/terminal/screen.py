"""What the terminal shows of a game: the table redrawn on the alternate screen, fitted to the window
(or one line per event with `plain`), a person's hand, prompt and numbered options.

Hidden information reaches the screen only through `view(state, seat)` for the seat whose turn it
is; with two or more people at one screen, it is cleared and handed over between them. Each game
brings its words in `games/<game>/text.py` (`Names`, `describe_event`) and its drawing in
`games/<game>/draw.py` (`render`, `plain_lines`, `scores_lines`, `parts`, `LED_KEY`), both found by the
game's name; a game without a drawing is shown as its view, pretty-printed.
"""

import os
import select
import sys
import textwrap
import time

from rich.console import Console, Group
from rich.pretty import Pretty
from rich.segment import Segment, Segments
from rich.text import Text

from .. import games
from ..engine import PUBLIC, cardtables, core
from ..games.text import about_card
from ..table import clocks
from ..web import payload
from . import draw
from .undo import UndoAsked

HELP = ("?", "help")  # at a prompt: what the cards of the options are (`? 3`: option 3's; `? ned`: by name)

FRAME_GAP = 0.05  # bots playing with no delay: at most a frame this often (the rest could not be read anyway)


# --- a game's table, drawn by the game (games/<game>/tui.py) -------------------------------------

def drawing(game):
    """The game's terminal drawing (games/<game>/tui.py), or None."""
    return games.part(game, "tui") if game else None


def render(view, config, log=()):
    """A rich renderable of the table as `view` sees it, with the last `log` lines below."""
    found = drawing(view.get("game"))
    if found is None:
        return Group(Pretty(view), *(Text(line) for line in log))
    return found.render(view, config, log)


def plain_lines(view, config):
    """The same table as simple text lines (for pipes, logs and tests)."""
    found = drawing(view.get("game"))
    return found.plain_lines(view, config) if found else [repr(view)]


def scores_lines(view, config):
    """The final scores and the winner line, from a finished game's view."""
    timed_out = clocks.out_of_time_words(view, lambda s: "Seat %s" % s)
    if timed_out:  # not the game's own end: no scores of its own (table/clocks.py)
        return [timed_out]
    found = drawing(view.get("game"))
    return found.scores_lines(view, config) if found else ["Result: %r" % (view.get("result"),)]


def screen_parts(view, config):
    """The game's parts for the full-screen view, in the order they are drawn."""
    found = drawing(view.get("game"))
    if found is None:
        return [draw.Part([lambda w: Pretty(view)])]
    return found.parts(view, config)


def led_part(game, profile, strip):
    """The simulated table's LED strip cut into its segments, with what the game's colours mean."""
    return draw.led_part(getattr(drawing(game), "LED_KEY", ("", "")), profile, strip)


class Quit(Exception):
    """The person at the keyboard asked to stop (q) or their input ended."""

    def __init__(self, eof=False):
        self.eof = eof


class Answered(Exception):
    """The decision being typed was answered meanwhile by the table (a seat's clock ran out)."""


class Screen:
    """What the terminal shows: a redrawn rich table, or simple lines with `plain`."""

    def __init__(self, session, humans, delay, plain):
        self.session = session
        self.humans = list(humans)
        self.delay = delay
        self.plain = plain
        self.config = session.state["config"]
        self.text = games.part(session.state["game"], "text")
        self.shown = len(session.events)  # events already printed (plain) or logged
        self.private_shown = {s: self.shown for s in self.humans}  # private lines printed (plain)
        self.strip = None  # the simulated table's LED strip, as text, when there is one
        self.profile = None  # the table profile that names the strip's segments (for its legend)
        self.clocks = None  # a function giving the seats' clocks in one line (table/clocks.py), when they run
        self.pause = None  # with clocks: stops or starts them again (p and Enter), returns what it did
        # With clocks: says whether the decision being typed was answered meanwhile (its time ran out);
        # a prompt then stops waiting (Answered) rather than answer a closed decision.
        self.gone = None
        self.note = ""  # the game's title line, printed on the normal screen when the view closes
        self.status = ""  # a line under the table: who is awaited, a move that was refused
        self.alt = False  # drawing on the terminal's alternate screen
        self.drawn = 0.0  # when the last frame was drawn (time.monotonic)
        self.undo_ok = True  # `undo` at a prompt takes the last move back (not while one is asked)
        self.keyboard = sys.stdin.isatty()  # someone may type here while pages decide (`typed`)
        if not plain:
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
            text = input(prompt) if self.gone is None else self._read_unless_gone(prompt)
        except EOFError:
            raise Quit(eof=True) from None
        if text.strip().lower() in ("q", "quit"):
            raise Quit()
        if text.strip().lower() == "undo" and self.undo_ok:
            raise UndoAsked()  # terminal/undo.py: ask the others, take the last move back
        return text.strip()

    def _read_unless_gone(self, prompt, poll=0.1):
        """A line typed here, or Answered as soon as `gone()` says the decision closed meanwhile."""
        sys.stdout.write(prompt)
        sys.stdout.flush()
        while not select.select([sys.stdin], [], [], poll)[0]:
            if self.gone():
                self.say("")
                raise Answered()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    # --- screens -------------------------------------------------------------------------------

    def watcher(self):
        """Who the screen belongs to between turns: the lone person at the keyboard, else the public
        (several share it, or everyone decides on their own seat page)."""
        return self.humans[0] if len(self.humans) == 1 else PUBLIC

    def draw(self, viewer):
        """Draw the table as `viewer` sees it: lines with `plain`, else the whole screen."""
        if not self.plain:
            self.frame(viewer, status=self.status)
            return
        view = self.session.view(viewer)
        for line in plain_lines(view, self.config):
            self.say(line)
        if self.strip is not None:
            self.say("LED strip: [%s]" % self.strip())
        if self.clocks is not None:
            self.say(self.clocks())

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

    def catch_up(self, status):
        """Show what others changed while the game still waits (`status` says for whom): their new
        lines with `plain`, else the table redrawn under the same status."""
        events = self.session.events[self.shown:]
        self.shown = len(self.session.events)
        if self.plain:
            for line in self.lines(events, PUBLIC):
                self.say(line)
        else:
            self.status = status
            self.draw(self.watcher())

    def typed(self, wait, status):
        """While the game waits for a page or a tap (`status` says for whom): wait up to `wait` seconds
        for a line typed here. `q` (or `quit`) stops the game as at a prompt; `p` (or `pause`) pauses
        the clocks, if any, or starts them again; anything else is answered with how to, since typed
        keys make no move here. Without a terminal on stdin it only waits."""
        if not self.keyboard:
            time.sleep(wait)
            return
        ready, _, _ = select.select([sys.stdin], [], [], wait)
        if not ready:
            return
        line = sys.stdin.readline()
        if not line:  # the input ended: nothing more to read, the pages and taps go on
            self.keyboard = False
            return
        if line.strip().lower() in ("q", "quit"):
            raise Quit()
        if line.strip().lower() in ("p", "pause") and self.pause is not None:
            self.waiting("%s %s" % (self.pause(), status))
            return
        self.waiting("%s Decisions are made on the seat pages and with taps; q and Enter stops the game "
                     "(it is saved)%s." % (status, "; p and Enter pauses the clocks" if self.pause else ""))

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
            text = self.read("Your choice, %s (1-%d, ? about a card, undo, q to quit): " % (who, len(labels)))
            if text.isdigit() and 1 <= int(text) <= len(labels):
                return ask["choices"][int(text) - 1]
            if _asks_help(text):
                for line in self.card_help(ask, text):
                    self.say(line)
                continue
            self.say("%r is not one of the options: type a number from 1 to %d, ? about a card, or q to quit."
                     % (text, len(labels)))

    def choose(self, seat, ask, labels, who):
        """The seat's table with the prompt and its numbered options below, a page at a time if
        they do not fit; the answer is typed on the last line."""
        page, note = 0, self.status
        while True:
            width, height = self.size()
            parts = self.parts(self.session.view(seat))
            prompt = textwrap.wrap(ask["prompt"], width) or [""]
            room = height - 3 - len(prompt) - draw.min_rows(self.console, parts, width)
            pages = draw.option_pages(labels, width, max(3, room))
            page %= len(pages)
            self.frame(seat, footer=prompt + pages[page] + [note], parts=parts)
            more = ", m more" if len(pages) > 1 else ""
            text = self.read("Your choice, %s (1-%d%s, ? about a card, undo, q to quit): " % (who, len(labels), more))
            if more and text.lower() == "m":
                page, note = page + 1, ""
                continue
            if text.isdigit() and 1 <= int(text) <= len(labels):
                return ask["choices"][int(text) - 1]
            if _asks_help(text):
                self.show_help(seat, self.card_help(ask, text))
                note = ""
                continue
            note = ("%r is not one of the options: type a number from 1 to %d, ? about a card, or q to quit."
                    % (text, len(labels)))

    def card_help(self, ask, text):
        """Lines about the cards `text` asks for: `?` every option's cards, `? N` option N's, `? word`
        the cards of the seat's own view whose name holds the word. Only cards its view names."""
        state = self.session.state
        typed = text.split(None, 1)
        arg = typed[1].strip() if len(typed) > 1 else ""
        view = self.session.view(ask["seat"])
        words = payload.Words(state, view, ask["seat"])  # the cards a page would name, by the same walk
        if arg.isdigit() and 1 <= int(arg) <= len(ask["choices"]):
            found = list(words.names_in(ask["choices"][int(arg) - 1]))
        elif arg:
            found = [c for c, name in words.names_in(view).items() if arg.lower() in name.lower()]
        else:
            found = list(words.names_in(ask["choices"]))
        out, seen = [], set()
        for card in found:
            about = about_card(state["game"], card)
            if about is None or about["name"] in seen:
                continue
            seen.add(about["name"])
            out.append("%s — %s" % (about["name"], about["lines"][0]))
            out += ["  " + line for line in about["lines"][1:]]
        if not out:
            return ["No card %s. Type ? for the options' cards, ? 3 for option 3's, ? and a name for a card you "
                    "can see." % ("matches %r" % arg if arg else "is named by these options")]
        return out

    def show_help(self, seat, lines):
        """Card text under the seat's table, a page at a time (`m`), until Enter brings the options back."""
        page = 0
        while True:
            width, height = self.size()
            parts = self.parts(self.session.view(seat))
            rows = [row for line in lines for row in (textwrap.wrap(line, width, subsequent_indent="    ") or [""])]
            room = max(3, height - 2 - draw.min_rows(self.console, parts, width))
            pages = [rows[i:i + room] for i in range(0, len(rows), room)] or [[]]
            page %= len(pages)
            self.frame(seat, footer=pages[page], parts=parts)
            more = ", m: more (%d of %d)" % (page + 1, len(pages)) if len(pages) > 1 else ""
            if not (more and self.read("Enter: back to the options%s " % more).lower() == "m"):
                if not more:
                    self.read("Enter: back to the options ")
                return
            page += 1

    def finish(self):
        view = self.session.view(PUBLIC)
        if self.plain:
            self.draw(PUBLIC)
        else:
            self.leave()
            self.print_table(below=len(scores_lines(view, self.config)) + 1)
        for line in scores_lines(view, self.config):
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
        parts = screen_parts(self.session.view(PUBLIC), self.config)
        for text in self.ansi(draw.fit(self.console, parts, (), width, max(8, height - below - 2))):
            self.say(text)

    def parts(self, view, status=""):
        parts = screen_parts(view, self.config)
        if self.strip is not None:
            parts.append(led_part(self.session.state["game"], self.profile, self.strip()))
        if self.clocks is not None:
            line = self.clocks()
            parts.append(draw.Part([lambda w: draw.one_line(line, w, "bold")], rank=0))
        if status:
            parts.append(draw.Part([lambda w: draw.one_line(status, w, "bold")], rank=0))
        return parts

    def frame(self, viewer, footer=(), status="", parts=None):
        """Fill the screen: the table as `viewer` sees it, fitted above the `footer` rows (a prompt
        and its options), then the cursor on the row below them, where input is typed."""
        width, height = self.size()
        if parts is None:
            parts = self.parts(self.session.view(viewer), status)
        log = self.log_for(viewer, last=2 * height)  # more than a screen holds, not the whole game every frame
        rows = draw.fit(self.console, parts, log, width, max(1, height - len(footer) - 1))
        texts = self.ansi(rows) + [str(draw.one_line(f, width)) for f in footer]
        out = ["\x1b[?25l"]
        for r, text in enumerate(texts[:height - 1], 1):  # each row placed: nothing ever scrolls
            out.append("\x1b[%d;1H%s\x1b[0m\x1b[K" % (r, text))
        out.append("\x1b[%d;1H\x1b[J\x1b[?25h" % (min(len(texts), height - 1) + 1))
        self.write("".join(out))
        self.drawn = time.monotonic()

    def ansi(self, rows):
        """Rich's segment rows as text with colour codes, one string a row."""
        if not rows:
            return []
        segs = []
        for i, row in enumerate(rows):
            segs += ([Segment.line()] if i else []) + list(row)
        with self.console.capture() as cap:
            self.console.print(Segments(segs), end="", crop=False, soft_wrap=True)
        return cap.get().split("\n")


def _asks_help(text):
    words = text.split()
    return bool(words) and words[0].lower() in HELP
