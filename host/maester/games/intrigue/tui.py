"""Westeros Intrigue in the terminal: the court pyramid in house colours, the seats, a seat's hand,
the final scores, and the parts the full-screen view fits to the window (terminal/draw.py)."""

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...engine import cardtables
from ...terminal.draw import Part, line_rows, one_line, pairs, winners_caption, wrapped
from . import text as itext

# The houses' card colours (cards_db/intrigue) as terminal styles; black is drawn on grey to show.
COLOUR_STYLES = {"grey": "bold grey70", "red": "bold red", "yellow": "bold yellow", "black": "bold black on grey62"}
CELL = 12  # characters per court place with full names ("Targaryen 9" and a space)
SHORT_CELL = 8


def _court_rows(court):
    """The court top row first, as (row, [card or None per place]) over the base's span."""
    span = court["span"][0]
    if span is None:
        return []
    lo, hi = span
    return [(r, [court["cards"][r][x] for x in range(lo, hi + 1 - r)])
            for r in range(court["width"] - 1, -1, -1) if court["count"][r]]


def _court_lines(court, label, cell):
    """[(indent, [(text, card or None), ...])] with each row shifted half a place per row up."""
    return [(" " * (r * cell // 2), [(label(c).center(cell) if c else "·".center(cell), c) for c in cells])
            for r, cells in _court_rows(court)]


def _house_styles(config):
    """Card id → terminal style of its house's colour."""
    info = cardtables.of_config(config).get("info", {})
    return {cid: COLOUR_STYLES.get(rec.get("colour"), "bold") for cid, rec in info.items()
            if rec.get("type") == "character"}


def _coloured(insts, names, styles):
    out = Text()
    for i, inst in enumerate(insts):
        out.append((", " if i else "") + names.card(inst), style=styles.get(inst.split("#", 1)[0], ""))
    return out


class _IntrigueCourt:
    """The court pyramid in house colours, with short names when full ones do not fit."""

    def __init__(self, view, config, names):
        self.court = view["court"]
        self.names = names
        self.house_style = _house_styles(config)

    def __rich_console__(self, console, options):
        span = self.court["span"][0]
        if span is None:
            yield Text("(no card in the court yet)", style="dim")
            return
        wide = (span[1] - span[0] + 1) * CELL <= options.max_width
        label, cell = (self.names.card, CELL) if wide else (self.names.short, SHORT_CELL)
        for indent, cells in _court_lines(self.court, label, cell):
            line = Text(indent)
            for text, card in cells:
                line.append(text, style=self.house_style.get(card.split("#", 1)[0], "") if card else "dim")
            yield line


def _intrigue_status(view, s):
    for a in view.get("asks", []):
        if a["seat"] == s:
            return "to play" if a.get("kind") == "place" else (a.get("public") or a.get("kind", "deciding"))
    if view["out"][s]:
        return "out"
    return ""


def _intrigue_heading(view, nm):
    if view.get("over"):
        return "Westeros Intrigue · game over after %d rounds" % view["rounds"]
    return "Round %d of %d · started by %s" % (view["round"], view["rounds"], nm.seat(view["starter"]))


def _intrigue_seat_line(view, s):
    held = view["throne_counts"][s]
    status = _intrigue_status(view, s)
    return ("%d in hand · %d penalty point%s · %d Iron Throne card%s%s"
            % (view["hand_sizes"][s], view["penalties"][s], "" if view["penalties"][s] == 1 else "s",
               held, "" if held == 1 else "s", " · " + status if status else ""))


def _intrigue_private(view, nm):
    """(heading, text) pairs only this seat may see: its hand and its own Iron Throne cards."""
    if "seat" not in view:
        return []
    s = view["seat"]
    out = [("Your hand (seat %d)" % s, nm.cards(view.get("hand", [])))]
    if view.get("my_thrones"):
        out.append(("Your Iron Throne cards", nm.cards(view["my_thrones"])))
    return out


def render(view, config, log=()):
    nm = itext.Names(view, cardtables.of_config(config))
    head = Text("%s · Iron Throne deck %d" % (_intrigue_heading(view, nm), view["throne_deck"]))
    seats = Table(box=box.SIMPLE_HEAD, title="Seats", title_justify="left")
    for col in ("Seat", "Hand", "Penalties", "Iron Throne", "Status"):
        seats.add_column(col, justify="left" if col == "Status" else "right")
    for s in range(view["players"]):
        seats.add_row(str(s), str(view["hand_sizes"][s]), str(view["penalties"][s]),
                      str(view["throne_counts"][s]), _intrigue_status(view, s),
                      style="bold" if view.get("seat") == s else None)
    parts = [Panel(head, title="Game of Thrones: Westeros Intrigue", title_align="left"),
             Panel(_IntrigueCourt(view, config, nm), title="The court", title_align="left"), seats]
    if "seat" in view:
        hand = _coloured(view.get("hand", []), nm, _house_styles(config)) if view.get("hand") else "nothing"
        parts.append(Panel(hand, title="Your hand (seat %d)" % view["seat"], title_align="left", border_style="cyan"))
        if view.get("my_thrones"):
            parts.append(Panel(nm.cards(view["my_thrones"]), title="Your Iron Throne cards", title_align="left",
                               border_style="cyan"))
    if log:
        parts.append(Panel("\n".join(log), title="Log", title_align="left", border_style="dim"))
    return Group(*parts)


def plain_lines(view, config):
    nm = itext.Names(view, cardtables.of_config(config))
    lines = ["== " + _intrigue_heading(view, nm)]
    court = _court_lines(view["court"], nm.card, CELL)
    lines.append("Court:" if court else "Court: empty")
    lines += [("  " + indent + "".join(text for text, _ in cells)).rstrip() for indent, cells in court]
    for s in range(view["players"]):
        lines.append("%s: %s" % (nm.seat(s), _intrigue_seat_line(view, s)))
    for heading, text in _intrigue_private(view, nm):
        lines.append("%s: %s" % (heading, text))
    return lines


def scores_lines(view, config):
    res = view["result"]
    nm = itext.Names(view, cardtables.of_config(config))
    lines = ["Final scores (penalty points - Iron Throne values = score; lowest wins):"]
    for s in res["ranking"]:
        mark = "  ← winner" if s in res["winners"] else ""
        lines.append("  %-8s %3d - %2d = %3d   %s%s" % (nm.seat(s), res["penalties"][s], res["throne_values"][s],
                                                     res["scores"][s], nm.cards(res["thrones"][s]), mark))
    lines.append(winners_caption(nm, res["winners"]))
    return lines


def parts(view, config):
    nm = itext.Names(view, cardtables.of_config(config))
    full = render(view, config)
    head = "%s · Iron Throne deck %d" % (_intrigue_heading(view, nm), view["throne_deck"])

    def seat_rows(w):
        return line_rows(["%s: %s" % (nm.seat(s), _intrigue_seat_line(view, s)) for s in range(view["players"])], w)
    parts = [Part([lambda w: full.renderables[0],
                   lambda w: Group(one_line(Text("Game of Thrones: Westeros Intrigue", style="bold"), w),
                                   one_line(head, w)),
                   lambda w: one_line(head if view.get("over") else "Westeros Intrigue · " + head, w)], rank=0),
             Part([lambda w: full.renderables[1],
                   lambda w: Group(Text("The court", style="bold"), _IntrigueCourt(view, config, nm)),
                   lambda w: _IntrigueCourt(view, config, nm)], rank=1),
             Part([lambda w: full.renderables[2], seat_rows,
                   lambda w: pairs(["Seat %d: %d in hand · %d pen. · %d throne%s"
                                     % (s, view["hand_sizes"][s], view["penalties"][s], view["throne_counts"][s],
                                        " · " + _intrigue_status(view, s) if _intrigue_status(view, s) else "")
                                     for s in range(view["players"])], w)], rank=2, base=1)]
    if "seat" in view:
        styles = _house_styles(config)

        def hand(w):
            out = Text()
            out.append("Your hand (seat %d): " % view["seat"], style="bold cyan")
            out.append_text(_coloured(view.get("hand", []), nm, styles) if view.get("hand") else Text("nothing"))
            rows = [out]
            if view.get("my_thrones"):
                rows.append(wrapped("Your Iron Throne cards", nm.cards(view["my_thrones"])))
            return Group(*rows)
        parts.append(Part([lambda w: Group(*full.renderables[3:3 + (2 if view.get("my_thrones") else 1)]), hand],
                          rank=0))
    return parts


# What the colours of the simulated table's LED strip mean, (short, full): terminal/draw.py,
# led_part, says how its letters are read.
LED_KEY = ("round: R one per round · seats: W must act, r out, G winner",
           "round: one R pixel per round played · each seat's 3 lights: W (pulsing) must act, r out of the "
           "round, G winner, w idle")
