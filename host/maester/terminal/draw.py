"""The terminal's shared drawing: the parts a game's table is cut into (`Part`), the one-line and
list forms they use, and `fit`, which fills a screen of any size with them and the log; the LED
strip of the simulated table with what its colours mean. Each game draws its own table from these
(games/<game>/tui.py); terminal/screen.py picks the game's by its name.

`maester play/demo/resume` in a terminal draw the table on the alternate screen at its size. Each
game's table is a list of parts (heading, seats, its central area, the hand...), each with forms
from the richest (panels and tables) to the most compact (one clipped line per seat); `fit` gives
every part its most compact form, then richer ones while there is room, and the log what is left.
"""

from rich.console import Group
from rich.rule import Rule
from rich.segment import Segment
from rich.text import Text

WIDE = 120  # from this width the log moves to a column of its own on the right
LOG_MIN = 4  # rows kept for the log (its title and three lines) before parts get richer forms


class Part:
    """One piece of the view. `forms`: callables width → renderable, richest first.

    `rank` orders the parts that get a richer form when there is room (0 first); an `optional`
    part is left out when even its most compact form does not fit."""

    def __init__(self, forms, rank=5, optional=False, base=None):
        self.forms = list(forms)
        self.rank = rank
        self.optional = optional
        # The form every part gets first, before any part gets a richer one (one line a seat).
        self.base = len(self.forms) - 1 if base is None else base


def one_line(text, width, style=None):
    """A row that never wraps: cut with an ellipsis at `width`."""
    t = text if isinstance(text, Text) else Text(text, style=style or "")
    t.no_wrap = True
    t.overflow = "ellipsis"
    t.truncate(width, overflow="ellipsis")
    return t


def clip_list(prefix, items, width, suffix=""):
    """`prefix` + as many `items` as fit in `width` columns, then "… and N more"."""
    items = list(items)
    for shown in range(len(items), 0, -1):
        more = len(items) - shown
        text = prefix + ", ".join(items[:shown]) + (", … and %d more" % more if more else "") + suffix
        if len(text) <= width:
            return text
    if not items:
        return prefix + suffix
    # Not even one whole: the first cut short, so the row still says what it starts with.
    tail = (", and %d more" % (len(items) - 1) if len(items) > 1 else "") + suffix
    room = max(4, width - len(prefix) - len(tail))
    first = items[0] if len(items[0]) <= room else items[0][:room - 1] + "…"
    return prefix + first + tail


def winners_caption(names, winners, sep=" and "):
    """The last line of the final scores: "Winner: <seat>", or "Shared victory: <seat> and <seat>"
    (`names`: the game's text.Names; the log's own words are games/text.py winners_line)."""
    if len(winners) == 1:
        return "Winner: %s" % names.seat(winners[0])
    return "Shared victory: %s" % sep.join(names.seat(s) for s in winners)


def line_rows(rows, width, style=None):
    """Rows of text, each on one screen line."""
    return Group(*(one_line(r, width, style) for r in rows))


def pairs(rows, width):
    """Short rows two to a screen line (the tightest form of a list of seats)."""
    cell = (width - 2) // 2
    cut = [str(one_line(r, cell)).ljust(cell) for r in rows]
    return Group(*(Text(("  ".join(cut[i:i + 2])).rstrip()) for i in range(0, len(cut), 2)))


def wrapped(heading, text, style="cyan"):
    out = Text()
    out.append(heading + ": ", style="bold " + style)
    out.append(text)
    return out


def _log_rows(console, log, width, rows):
    """The last log lines that fit in `rows` screen lines (wrapped lines count for several)."""
    if rows <= 1 or not log:
        return []
    opts = console.options.update(width=width, height=None)
    out = []
    for line in reversed(log):
        rendered = console.render_lines(Text(line), opts, pad=True)
        if len(out) + len(rendered) > rows - 1:
            break
        out[:0] = rendered
    title = console.render_lines(Rule("Log", align="left", style="dim"), opts, pad=True)
    return title + out


def _render(console, renderable, width):
    return console.render_lines(renderable, console.options.update(width=width, height=None), pad=True)


def columns(width):
    """(the table's width, the log's width on its right or 0 when the log goes below)."""
    if width < WIDE:
        return width, 0
    left = max(78, int(width * 0.62))
    right = width - left - 3
    return (left, right) if right >= 30 else (width, 0)


def min_rows(console, parts, width):
    """The rows the parts need in their most compact forms (optional parts left out)."""
    left, _ = columns(width)
    return sum(len(_render(console, p.forms[-1](left), left)) for p in parts if not p.optional)


def option_pages(labels, width, rows):
    """The numbered options in columns (numbers running down) within `rows` rows of `width`;
    when they do not fit, pages whose last row says how to see the next."""
    items = ["%d. %s" % (i, label) for i, label in enumerate(labels, 1)]
    longest = max((len(x) for x in items), default=1)
    most = max(1, min(4, (width + 2) // (longest + 2)))  # columns with every label whole
    cols = next((c for c in range(1, most + 1) if -(-len(items) // c) <= rows), most)
    per_page = len(items) if -(-len(items) // cols) <= rows else max(1, rows - 1) * cols
    chunks = [items[i:i + per_page] for i in range(0, len(items), per_page)] or [[]]
    cell = max(1, (width - 2 * (cols - 1)) // cols)
    pages = []
    for k, chunk in enumerate(chunks):
        height = -(-len(chunk) // cols)
        page = []
        for r in range(height):
            cells = [chunk[c * height + r] for c in range(cols) if c * height + r < len(chunk)]
            page.append("  ".join(str(one_line(x, cell)).ljust(cell) for x in cells).rstrip())
        if len(chunks) > 1:
            page.append("(options %d-%d of %d: type m for more)"
                        % (k * per_page + 1, k * per_page + len(chunk), len(items)))
        pages.append(page)
    return pages


def fit(console, parts, log, width, height, log_min=LOG_MIN):
    """Screen lines (lists of rich Segments, each `width` wide) that fill at most `height` rows."""
    left, right = columns(width)
    two = right > 0 and bool(log)
    left = left if two else width
    cache = {}

    def rows(i, k):
        if (i, k) not in cache:
            cache[i, k] = _render(console, parts[i].forms[k](left), left)
        return cache[i, k]
    budget = height - (0 if two or not log else min(log_min, height // 4))
    form = {i: len(p.forms) - 1 for i, p in enumerate(parts)}
    used = lambda: sum(len(rows(i, k)) for i, k in form.items())
    # Leave out optional parts, the least important first, until the rest fits.
    for i in sorted((i for i, p in enumerate(parts) if p.optional), key=lambda i: -parts[i].rank):
        if used() <= budget:
            break
        del form[i]
    # Each part up to its base form, by rank, while it fits.
    for i in sorted(form, key=lambda i: parts[i].rank):
        for k in range(parts[i].base, form[i]):
            if used() - len(rows(i, form[i])) + len(rows(i, k)) <= budget:
                form[i] = k
                break
    # Then one step richer at a time, part after part by rank, while it fits.
    grew = True
    while grew:
        grew = False
        for i in sorted(form, key=lambda i: parts[i].rank):
            k = form[i]
            if k == 0:
                continue
            extra = len(rows(i, k - 1)) - len(rows(i, k))
            if used() + extra <= budget:
                form[i] = k - 1
                grew = True
    kept = {i: list(rows(i, form[i])) for i in form}
    while sum(len(r) for r in kept.values()) > height:  # a last resort: the least important part loses rows
        i = max((i for i in kept if kept[i]), key=lambda i: (parts[i].rank, i))
        kept[i].pop()
    lines = [line for i in sorted(kept) for line in kept[i]]
    if not two:
        return lines + _log_rows(console, log, width, height - len(lines))
    side = _log_rows(console, log, right, height)
    blank_left, blank_right = [Segment(" " * left)], [Segment(" " * right)]
    out = []
    for r in range(max(len(lines), len(side))):
        out.append((lines[r] if r < len(lines) else blank_left) + [Segment(" │ ", console.get_style("dim"))]
                   + (side[r] if r < len(side) else blank_right))
    return out


# --- the LED strip and its legend ---

SEGMENT_WORDS = {"round": "round", "season": "season", "order": "Order", "chaos": "Chaos", "phase": "phase",
                 "challenge": "challenge", "power": "power", "first": "first player", "seat": "seat"}

# A game says what its strip's colours mean in its tui.py's LED_KEY, (short, full). The letters are the
# simulated strip's: the dominant colour of a pixel after the firmware's gamma (R G B Y C M W), in
# small letters when it is dim, '.' when dark; so an orange (the season, the first player) reads R.
CASE_KEY = "capitals bright, small letters dim, . dark"
SHORT_CASE_KEY = "small: dim"


def _segment_groups(profile):
    """[(label, [(word, start, length)])]: the shared segments one by one, then one group per seat."""
    shared, seats = [], {}
    for seg in profile["segments"]:
        name = seg["name"]
        base = name.rstrip("0123456789")
        word = SEGMENT_WORDS.get(base, base)
        if base != name:  # a seat's segment: power0, first0, seat0
            seats.setdefault(int(name[len(base):]), []).append((word, seg["start"], seg["length"]))
        else:
            shared.append((word, [(word, seg["start"], seg["length"])]))
    return shared + [("seat %d" % s, segs) for s, segs in sorted(seats.items())]


def led_part(legend, profile, strip):
    """The LED strip cut into its named segments, with what its colours mean (`legend`: the game's
    LED_KEY, (short, full))."""
    if profile is None:
        return Part([lambda w: Text("LED strip [%s]" % strip)], rank=3)
    groups = _segment_groups(profile)
    short, full = legend

    def strip_text(named):
        out = Text()
        out.append("LED strip ", style="bold")
        for label, segs in groups:
            out.append(" %s " % label, style="dim")
            out.append(" ".join(("%s " % word if named and len(segs) > 1 else "") + strip[a:a + n]
                                for word, a, n in segs))
        return out

    def key(text, case=CASE_KEY):
        return Text(text + " (%s)" % case, style="dim")
    return Part([lambda w: Group(strip_text(True), key(full)),
                 lambda w: Group(strip_text(False), key(short, SHORT_CASE_KEY)),
                 lambda w: Group(strip_text(False), one_line(short, w, "dim"))], rank=3, base=1)
