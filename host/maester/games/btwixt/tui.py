"""B'Twixt in the terminal: the rich drawing, the plain lines, the final scores, and the parts the
full-screen view fits to the window (terminal/draw.py). Only what the view holds is drawn: power
token values only once the game is over."""

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...engine import cardtables
from ...terminal.draw import Part, clip_list, line_rows, one_line, pairs, winners_caption, wrapped
from .text import Names

SEASONS = ("summer", "autumn", "winter")


class _Table:
    """Facts about a B'Twixt view, shared by the rich and the plain drawings."""

    def __init__(self, view, config):
        self.v = view
        self.cards = cardtables.of_config(config)
        self.info = self.cards.get("info", {})
        self.nm = Names(view, self.cards)
        self.n = view["players"]
        comp = self.cards.get("components", {}).get("time_track", {})
        self.spaces = view["last_space"] + 1
        self.start = comp.get("start_space", {}).get(str(self.n), 0)

    def total(self, pile):
        return sum(self.info.get(c.split("#", 1)[0], {}).get("value", 0) for c in pile)

    def ally_power(self, allies):
        return sum(self.info.get(a.split("#", 1)[0], {}).get("power", 0) for a in allies)

    def track(self):
        """The 7 round spaces: ● the token, · a space played this season, ○ one still to come."""
        r = self.v["round_space"]
        marks = []
        for i in range(self.spaces):
            marks.append("●" if i == r else ("-" if i < self.start else ("·" if i < r else "○")))
        return " ".join(marks)

    def seasons(self):
        cur = self.v["season"]
        return "  ".join("[%s]" % s.upper() if s == cur else s for s in SEASONS)

    def current(self):
        v = self.v
        if v["current"] is None:
            return "none"
        toks = v["current_tokens"]
        extra = " + %d face-down token%s" % (toks, "s" if toks != 1 else "") if toks else ""
        return self.nm.card(v["current"]) + extra

    def tokens(self, council):
        toks = self.v["councils"][council]["tokens"]
        values = self.v.get("token_values")
        if values is not None and self.v.get("over"):
            shown = [values[t] for t in toks]
            power = (self.v.get("result") or {}).get("council_power")
            total = " → council %d" % power[council] if power else ""
            return "%s = %d%s" % ("+".join(str(x) for x in shown) or "0", sum(shown), total)
        return "%d face down" % len(toks)

    def counts(self):
        v = self.v
        return ("influence deck %d · discard %d · removed %d · ally deck %d · dead allies %d · token supply %d"
                % (v["deck"], len(v["discard"]), len(v["removed"]), v["ally_deck"], len(v["dead"]), v["supply"]))

    def seat_status(self, s):
        v = self.v
        bits = []
        if s == v["first"]:
            bits.append("first")
        if v["knelt"][s]:
            bits.append("knelt")
        for a in v.get("asks", []):
            if a["seat"] == s:
                bits.append(a.get("public") or a.get("kind", "deciding"))
                break
        return ", ".join(bits)

    def private(self):
        """(heading, cards) pairs only this seat may see."""
        v = self.v
        if "seat" not in v:
            return []
        s = v["seat"]
        out = [("Your hand (seat %d — %s)" % (s, self.nm.leader(s)), v.get("hand", []))]
        if v.get("leader_cards"):
            out.append(("Your leader cards still to come", v["leader_cards"]))
        for t, hand in sorted(v.get("seen_hands", {}).items(), key=lambda x: int(x[0])):
            out.append(("Hand of %s (seen through Intercepted)" % self.nm.seat(int(t)), hand))
        if v.get("draft"):
            out.append(("Draft pack", v["draft"]["pack"]))
            out.append(("Kept in the draft", v["draft"]["kept"]))
        return out


def render(view, config, log=()):
    """A rich renderable of the table as `view` sees it, with the last `log` lines below."""
    t = _Table(view, config)
    v, nm = view, t.nm

    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold")
    head.add_column()
    head.add_row("Round", "%s   (space %d of %d)" % (t.track(), v["round_space"] + 1, t.spaces))
    head.add_row("Season", t.seasons())
    head.add_row("First player", nm.seat(v["first"]))
    head.add_row("Ally up for bid", t.current())
    if v["row"]:
        head.add_row("Ally row", nm.cards(v["row"]))
    if v["effects"]:
        head.add_row("This round", ", ".join(v["effects"]))

    seats = Table(box=box.SIMPLE_HEAD, title="Leaders", title_justify="left")
    for col in ("Seat", "Leader", "Hand", "Bid pile", "Total", "Status"):
        seats.add_column(col, justify="right" if col in ("Seat", "Hand", "Total") else "left")
    for s in range(t.n):
        style = "bold" if v.get("seat") == s else None
        seats.add_row(str(s), nm.leader(s), str(v["hand_sizes"][s]), nm.cards(v["bids"][s]) if v["bids"][s] else "",
                      str(t.total(v["bids"][s])), t.seat_status(s), style=style)

    councils = Table(box=box.SIMPLE_HEAD, title="Councils", title_justify="left")
    for col in ("#", "Between", "Allies", "Ally power", "Power tokens"):
        councils.add_column(col, justify="right" if col in ("#", "Ally power") else "left")
    for c, council in enumerate(v["councils"]):
        councils.add_row(str(c), "%s & %s" % (nm.leader(c), nm.leader((c + 1) % t.n)),
                         nm.cards(council["allies"]) if council["allies"] else "",
                         str(t.ally_power(council["allies"])), t.tokens(c))

    parts = [Panel(head, title="A Game of Thrones: B'Twixt", title_align="left"), seats, councils,
             Text(t.counts(), style="dim")]
    for heading, insts in t.private():
        parts.append(Panel(nm.cards(insts), title=heading, title_align="left", border_style="cyan"))
    if log:
        parts.append(Panel("\n".join(log), title="Log", title_align="left", border_style="dim"))
    return Group(*parts)


def plain_lines(view, config):
    """The same table as simple text lines (for pipes, logs and tests)."""
    t = _Table(view, config)
    v, nm = view, t.nm
    lines = ["== Round space %d of %d [%s] · %s · first player %s"
             % (v["round_space"] + 1, t.spaces, t.track(), v["season"].capitalize(), nm.seat(v["first"])),
             "Ally up for bid: %s" % t.current()]
    if v["row"]:
        lines.append("Ally row: %s" % nm.cards(v["row"]))
    for s in range(t.n):
        status = t.seat_status(s)
        lines.append("Seat %d %s: %d in hand; bid pile %s = %d%s"
                     % (s, nm.leader(s), v["hand_sizes"][s], nm.cards(v["bids"][s]) if v["bids"][s] else "empty",
                        t.total(v["bids"][s]), "; " + status if status else ""))
    for c, council in enumerate(v["councils"]):
        lines.append("Council %d (%s & %s): allies %s; power tokens %s"
                     % (c, nm.leader(c), nm.leader((c + 1) % t.n),
                        nm.cards(council["allies"]) if council["allies"] else "none", t.tokens(c)))
    lines.append(t.counts().capitalize())
    for heading, insts in t.private():
        lines.append("%s: %s" % (heading, nm.cards(insts)))
    return lines


def scores_lines(view, config):
    """The final scores and the winner line, from a finished game's view."""
    res = view["result"]
    nm = Names(view, cardtables.of_config(config))
    lines = ["Final scores (small council, other council, allies):"]
    for r in res["scores"]:
        mark = "  ← winner" if r["seat"] in res["winners"] else ""
        lines.append("  %-32s %3d %3d %3d%s" % (nm.seat(r["seat"]), r["small"], r["other"], r["allies"], mark))
    lines.append(winners_caption(nm, res["winners"]))
    return lines


def parts(view, config):
    t = _Table(view, config)
    v, nm = view, t.nm
    title = "A Game of Thrones: B'Twixt"
    first_line = "Round %s (space %d of %d) · Season %s" % (t.track(), v["round_space"] + 1, t.spaces, t.seasons())
    second = "First player %s · Ally up for bid: %s" % (nm.seat(v["first"]), t.current())
    more = (["Ally row: %s" % nm.cards(v["row"])] if v["row"] else []) + (
        ["This round: %s" % ", ".join(v["effects"])] if v["effects"] else [])
    full_render = render(view, config)  # its first part is the heading panel

    def head_compact(w):
        return Group(one_line(Text(title, style="bold"), w), Text(first_line), Text(second), *(Text(m) for m in more))

    def head_min(w):
        return line_rows(["%s · %s" % ("B'Twixt", first_line), second] + more, w)

    def seat_row(s, w):
        status = t.seat_status(s)
        head = "%d %-20s %2d in hand · " % (s, nm.leader(s), v["hand_sizes"][s])
        tail = "%s%s" % (" = %d" % t.total(v["bids"][s]) if v["bids"][s] else "", " · " + status if status else "")
        if not v["bids"][s]:
            return head + "no bid" + tail
        return clip_list(head + "bid ", [nm.card(c) for c in v["bids"][s]], w, tail)

    def council_row(c, w):
        allies = v["councils"][c]["allies"]
        head = "%d %s & %s · tokens %s" % (c, nm.leader(c), nm.leader((c + 1) % t.n), t.tokens(c))
        if not allies:
            return head + " · no ally"
        return clip_list(head + " · allies (power %d) " % t.ally_power(allies), [nm.card(a) for a in allies], w)

    def short_seat(s):
        status = t.seat_status(s)
        return "%d %s %d · bid %d%s" % (s, nm.leader(s).split()[0], v["hand_sizes"][s], t.total(v["bids"][s]),
                                        " · " + status if status else "")

    def short_council(c):
        allies = v["councils"][c]["allies"]
        toks = len(v["councils"][c]["tokens"])
        return "%d&%d: %d token%s · %d all%s (power %d)" % (
            c, (c + 1) % t.n, toks, "" if toks == 1 else "s", len(allies), "y" if len(allies) == 1 else "ies",
            t.ally_power(allies))

    def private_form(w):
        return Group(*(wrapped(h, nm.cards(insts) or "nothing") for h, insts in t.private()))
    parts = [Part([lambda w: full_render.renderables[0], head_compact, head_min], rank=0),
             Part([lambda w: full_render.renderables[1],
                   lambda w: Group(Text("Leaders", style="bold"), *(Text(seat_row(s, 10 ** 4)) for s in range(t.n))),
                   lambda w: Group(Text("Leaders", style="bold"), line_rows([seat_row(s, w) for s in range(t.n)], w)),
                   lambda w: line_rows([seat_row(s, w) for s in range(t.n)], w),
                   lambda w: pairs([short_seat(s) for s in range(t.n)], w)], rank=1, base=3),
             Part([lambda w: full_render.renderables[2],
                   lambda w: Group(Text("Councils", style="bold"), *(Text(council_row(c, 10 ** 4))
                                                                     for c in range(t.n))),
                   lambda w: line_rows([council_row(c, w) for c in range(t.n)], w),
                   lambda w: pairs([short_council(c) for c in range(t.n)], w)], rank=2, base=2),
             Part([lambda w: Text(t.counts(), style="dim"), lambda w: one_line(t.counts(), w, "dim")], rank=6,
                  optional=True)]
    if t.private():
        parts.append(Part([lambda w: Group(*full_render.renderables[4:4 + len(t.private())]), private_form], rank=0))
    return parts


# What the colours of the simulated table's LED strip mean, (short, full): terminal/draw.py,
# led_part, says how its letters are read.
LED_KEY = ("round: lit space · season: 1st summer, 2nd autumn, 3rd winter · seats: W must act, R first "
           "player, r knelt, G won",
           "round track: the lit pixel is this round's space · season: the 1st pixel lit in summer, the 2nd in "
           "autumn, the 3rd in winter · each seat's 3 lights: W (pulsing) must act, R first player, r knelt, "
           "G winner, w idle")
