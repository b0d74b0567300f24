"""Drawing a table in the terminal: `render` gives a rich renderable, `plain_lines` simple text.

Both draw only what the view holds: a view for the public shows no hand, and power token values
are shown only once the game is over (the view holds them only then). B'Twixt, Westeros
Intrigue, Oathbreaker and the LCG have full drawings; another game falls back to a pretty-printed view.
"""

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from .games.btwixt.text import Names
from .games.intrigue import text as itext
from .games.oathbreaker import text as otext

SEASONS = ("summer", "autumn", "winter")


class _Table:
    """Facts about a B'Twixt view, shared by the rich and the plain drawings."""

    def __init__(self, view, config):
        self.v = view
        self.cards = config.get("cards", {})
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
    if view.get("game") == "intrigue":
        return _intrigue_render(view, config, log)
    if view.get("game") == "oathbreaker":
        return _oath_render(view, config, log)
    if view.get("game") == "lcg":
        return _lcg_render(view, config, log)
    if view.get("game") != "btwixt":
        return Group(Pretty(view), *(Text(line) for line in log))
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
    if view.get("game") == "intrigue":
        return _intrigue_plain(view, config)
    if view.get("game") == "oathbreaker":
        return _oath_plain(view, config)
    if view.get("game") == "lcg":
        return _lcg_plain(view, config)
    if view.get("game") != "btwixt":
        return [repr(view)]
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
    if view.get("game") == "intrigue":
        return _intrigue_scores(view, config)
    if view.get("game") == "oathbreaker":
        return _oath_scores(view, config)
    if view.get("game") == "lcg":
        return _lcg_scores(view, config)
    res = view["result"]
    nm = Names(view, config.get("cards", {}))
    lines = ["Final scores (small council, other council, allies):"]
    for r in res["scores"]:
        mark = "  ← winner" if r["seat"] in res["winners"] else ""
        lines.append("  %-32s %3d %3d %3d%s" % (nm.seat(r["seat"]), r["small"], r["other"], r["allies"], mark))
    w = res["winners"]
    if len(w) == 1:
        lines.append("Winner: %s" % nm.seat(w[0]))
    else:
        lines.append("Shared victory: %s" % " and ".join(nm.seat(s) for s in w))
    return lines


# --- Westeros Intrigue ---------------------------------------------------------------------------

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
    info = config.get("cards", {}).get("info", {})
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


def _intrigue_render(view, config, log=()):
    nm = itext.Names(view, config.get("cards", {}))
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


def _intrigue_plain(view, config):
    nm = itext.Names(view, config.get("cards", {}))
    lines = ["== " + _intrigue_heading(view, nm)]
    court = _court_lines(view["court"], nm.card, CELL)
    lines.append("Court:" if court else "Court: empty")
    lines += [("  " + indent + "".join(text for text, _ in cells)).rstrip() for indent, cells in court]
    for s in range(view["players"]):
        lines.append("%s: %s" % (nm.seat(s), _intrigue_seat_line(view, s)))
    for heading, text in _intrigue_private(view, nm):
        lines.append("%s: %s" % (heading, text))
    return lines


def _intrigue_scores(view, config):
    res = view["result"]
    nm = itext.Names(view, config.get("cards", {}))
    lines = ["Final scores (penalty points - Iron Throne values = score; lowest wins):"]
    for s in res["ranking"]:
        mark = "  ← winner" if s in res["winners"] else ""
        lines.append("  %-8s %3d - %2d = %3d   %s%s" % (nm.seat(s), res["penalties"][s], res["throne_values"][s],
                                                     res["scores"][s], nm.cards(res["thrones"][s]), mark))
    w = res["winners"]
    if len(w) == 1:
        lines.append("Winner: %s" % nm.seat(w[0]))
    else:
        lines.append("Shared victory: %s" % " and ".join(nm.seat(s) for s in w))
    return lines


# --- Oathbreaker --------------------------------------------------------------------------------

OATH_RES = ("coin", "honor", "power")


def _oath_cubes(c):
    return "-" if c is None else " ".join("%d %s" % (c[r], r) for r in OATH_RES)


def _oath_track(view):
    """The round track: M2 a Mission Round with two missions, D1 a Decree Round with one decree;
    [..] the round marker, lower case the rounds played."""
    marks = []
    for i, sp in enumerate(view["track"]):
        mark = ("M%d" % sp["banners"]) if sp["round"] == "mission" else ("D%d" % sp["scrolls"])
        if i == view["space"] and not view.get("over"):
            mark = "[%s]" % mark
        elif i < view["space"]:
            mark = mark.lower()
        marks.append(mark)
    return " ".join(marks)


def _oath_bar(value, length):
    value = max(0, min(value, length))
    return "#" * value + "." * (length - value)


def _oath_heading(view):
    if view.get("over"):
        return "Oathbreaker · game over after %d rounds" % view["rounds_played"]
    rnd = view["round"]
    if rnd.get("round") == "mission":
        now = "a Mission Round (%d missions)" % rnd["banners"]
    elif rnd.get("round") == "decree":
        now = "a Decree Round (%d decrees)" % rnd["scrolls"]
    else:
        now = "Final Judgment"
    return "Round %d of %d · %s" % (min(view["space"] + 1, len(view["track"])), len(view["track"]), now)


def _oath_tracks(view):
    n = view["track_length"]
    return ["Order %2d %s" % (view["order"], _oath_bar(view["order"], n)),
            "Chaos %2d %s" % (view["chaos"], _oath_bar(view["chaos"], n)),
            "Round track %s" % _oath_track(view)]


def _oath_status(view, s):
    bits = []
    if s == view["hand_of_king"]:
        bits.append("Hand of the King")
    for a in view.get("asks", []):
        if a["seat"] == s:
            bits.append(a.get("public") or a.get("kind", "deciding"))
            break
    return ", ".join(bits)


def _oath_mission_rows(view, nm):
    """(number, name and type, face-down count with who played how many, face up, sigils, result)."""
    rows = []
    for i, m in enumerate(view["missions"]):
        counts = ", ".join("seat %d: %d" % (s, k) for s, k in enumerate(m["counts"]) if k)
        extra = []
        if m["extra"]:
            extra.append("%d from the deck" % m["extra"])
        if m["taken"]:
            extra.append("%d taken" % m["taken"])
        face_down = m["cards"] - len(m["face_up"])
        played = "%d face down" % face_down + (" (%s)" % "; ".join(([counts] if counts else []) + extra)
                                               if counts or extra else "")
        r = m["result"]
        if r is None:
            result = ""
        elif r["success"]:
            result = "success %d-%d, Order +%d" % (r["match"], r["sabotage"], r["order"])
        else:
            result = "failure %d-%d, Chaos +%d" % (r["match"], r["sabotage"], r["chaos"])
        rows.append((str(i + 1), nm.card(m["card"]), played, nm.cards(m["face_up"]) if m["face_up"] else "",
                     ", ".join("seat %d" % s for s in m["sigils"]), result))
    return rows


def _oath_decrees(view, nm, s):
    held = view["decrees"][s]
    return ", ".join(nm.card(d["card"]) + (" (sideways)" if d["sideways"] else "") for d in held)


def _oath_private(view, nm):
    """(heading, text) pairs only this seat may see."""
    if "seat" not in view:
        return []
    s = view["seat"]
    out = []
    if "hand" in view:
        out.append(("Your loyalty (seat %d)" % s, view["loyalty_mine"] or "none"))
        out.append(("Your ambition", nm.card(view["ambition_mine"]) if view["ambition_mine"] else "none"))
        out.append(("Your hand", nm.cards(view["hand"])))
        if view.get("my_plays"):
            out.append(("Your cards on the missions", ", ".join(
                "%s to mission %d" % (nm.card(c), i + 1) for c, i in view["my_plays"])))
        if view.get("my_confession"):
            out.append(("Your Confess! discard", nm.card(view["my_confession"])))
    if "decree_hand" in view:
        out.append(("Your decrees (seat %d)" % s, nm.cards(view["decree_hand"])))
        if "partner_hand" in view:
            out.append(("Your partner's decrees", nm.cards(view["partner_hand"])))
    for note in view.get("notes", []):
        if note["what"] == "hand":
            out.append(("Seen with Well-Placed Spy", "%s held %s" % (nm.seat(note["seat"]), nm.cards(note["cards"]))))
        elif note["what"] == "confess":
            out.append(("Seen with Confess!", "%s discarded %s" % (nm.seat(note["seat"]), nm.card(note["card"]))))
        elif note["what"] == "mission":
            out.append(("Seen with Melisandre", "mission %d held %s" % (note["mission"] + 1, nm.cards(note["cards"]))))
    return out


def _oath_counts(view):
    return ("influence deck %d · discard %d · decree deck %d · mission deck %d · missions done %d"
            % (view["deck"], view["discard"], view["decree_deck"], view["mission_deck"], len(view["missions_done"])))


def _oath_render(view, config, log=()):
    nm = otext.Names(view, config.get("cards", {}))
    head = Text("\n".join([_oath_heading(view)] + _oath_tracks(view)))
    parts = [Panel(head, title="Game of Thrones: Oathbreaker", title_align="left")]
    if view["missions"]:
        missions = Table(box=box.SIMPLE_HEAD, title="Missions", title_justify="left")
        for col in ("#", "Mission", "Played", "Face up", "House Sigils", "Result"):
            missions.add_column(col, justify="right" if col == "#" else "left")
        for row in _oath_mission_rows(view, nm):
            missions.add_row(*row)
        parts.append(missions)
    seats = Table(box=box.SIMPLE_HEAD, title="Seats", title_justify="left")
    for col in ("Seat", "Who", "Hand", "Cubes", "Decrees in front", "Status"):
        seats.add_column(col, justify="right" if col in ("Seat", "Hand") else "left")
    for s in range(view["players"]):
        hand = view["decree_hand_sizes"][s] if s in view["monarchs"] else view["hand_sizes"][s]
        seats.add_row(str(s), nm.leader(s), str(hand), _oath_cubes(view["cubes"][s]), _oath_decrees(view, nm, s),
                      _oath_status(view, s), style="bold" if view.get("seat") == s else None)
    parts += [seats, Text(_oath_counts(view), style="dim")]
    for heading, text in _oath_private(view, nm):
        parts.append(Panel(text, title=heading, title_align="left", border_style="cyan"))
    if log:
        parts.append(Panel("\n".join(log), title="Log", title_align="left", border_style="dim"))
    return Group(*parts)


def _oath_plain(view, config):
    nm = otext.Names(view, config.get("cards", {}))
    lines = ["== " + _oath_heading(view)] + _oath_tracks(view)
    for num, name, played, up, sigils, result in _oath_mission_rows(view, nm):
        line = "Mission %s %s: %s" % (num, name, played)
        if up:
            line += "; face up %s" % up
        if sigils:
            line += "; House Sigils %s" % sigils
        if result:
            line += "; %s" % result
        lines.append(line)
    for s in range(view["players"]):
        if s in view["monarchs"]:
            what = "%d decrees in hand" % view["decree_hand_sizes"][s]
        else:
            what = "%d in hand · %s" % (view["hand_sizes"][s], _oath_cubes(view["cubes"][s]))
            decrees = _oath_decrees(view, nm, s)
            if decrees:
                what += " · decrees %s" % decrees
        status = _oath_status(view, s)
        lines.append("%s: %s%s" % (nm.seat(s), what, " · " + status if status else ""))
    lines.append(_oath_counts(view).capitalize())
    for heading, text in _oath_private(view, nm):
        lines.append("%s: %s" % (heading, text))
    return lines


def _lcg_scores(view, config):
    """The LCG's end: each seat's power (on its House and its cards) and the winners."""
    from .games.lcg.text import Names as LcgNames
    res = view["result"]
    nm = LcgNames(view, config.get("cards", {}))
    lines = ["Final power (%d to win):" % view["goal"]]
    for seat, power in enumerate(res["power"]):
        lines.append("  %-32s %3d%s" % (nm.seat(seat), power, "  ← winner" if seat in res["winners"] else ""))
    lines.append("Winner%s: %s" % ("s" if len(res["winners"]) > 1 else "", " and ".join(nm.seat(s) for s in res["winners"])))
    return lines


def _oath_scores(view, config):
    res = view["result"]
    nm = otext.Names(view, config.get("cards", {}))
    realm = "Order" if res["realm"] == "order" else "Chaos"
    lines = ["The realm falls to %s: Order %d, Chaos %d (a tie goes to Chaos). The monarchs' judgment was %s."
             % (realm, res["order"], res["chaos"], "right" if res["judgment_correct"] else "wrong")]
    if res.get("agent"):
        lines.append("The Agent was a %s." % res["agent"])
    for s in range(view["players"]):
        mark = "  ← winner" if s in res["winners"] else ""
        if s in view["monarchs"]:
            lines.append("  %-28s monarch%s" % (nm.seat(s), mark))
            continue
        lines.append("  %-28s %-11s judged %-11s ambition %s %s%s" % (
            nm.seat(s), res["loyalty"][s], res["guesses"][s] or "-", nm.card(res["ambition"][s]),
            "met" if res["ambition_met"][s] else "not met", mark))
    w = res["winners"]
    if not w:
        lines.append("Nobody wins.")
    elif len(w) == 1:
        lines.append("Winner: %s" % nm.seat(w[0]))
    else:
        lines.append("Shared victory: %s" % ", ".join(nm.seat(s) for s in w))
    return lines


# --- A Game of Thrones: The Card Game ---------------------------------------------------------------

LCG_ICONS = (("military", "M"), ("intrigue", "I"), ("power", "P"))


class _LcgTable:
    """Facts about an LCG view, shared by the rich and the plain drawings."""

    def __init__(self, view, config):
        from .games.lcg.text import TITLE_NAMES, Names as LcgNames
        self.v = view
        self.cards = config.get("cards", {}).get("cards", {})
        self.nm = LcgNames(view, config.get("cards", {}))
        self.titles = TITLE_NAMES

    def rec(self, inst):
        return self.cards.get(inst.split("#", 1)[0], {})

    def house(self, seat):
        from .games.lcg.text import HOUSES
        house = self.v["seats"][seat]["house"]
        return HOUSES.get(house, house)

    def heading(self):
        v = self.v
        goal = "%d power %s" % (v["goal"], "a team" if v.get("teams") else "to win")
        if v.get("over"):
            return "Game over after %d rounds · %s" % (v["round"], goal)
        if v["phase"] == "setup":
            return "Setup · first player %s · %s" % (self.nm.seat(v["first"]), goal)
        return "Round %d · %s phase · first player %s · %s" % (v["round"], v["phase"].capitalize(),
                                                               self.nm.seat(v["first"]), goal)

    def icons(self, inst):
        have = set(self.rec(inst).get("icons") or ())
        for e in self.v.get("effects", ()):
            if e.get("target") == inst and e.get("kind") in ("icon", "lose_icon"):
                (have.add if e["kind"] == "icon" else have.discard)(e["value"])
        return "".join(letter for icon, letter in LCG_ICONS if icon in have)

    def card(self, entry):
        """One card in play: name, STR and icons for a character, then what lies on it."""
        inst = entry["card"]
        text = self.nm.card(inst)
        if "str" in entry:
            text += " %d%s" % (entry["str"], (" " + self.icons(inst)) if self.icons(inst) else "")
        bits = []
        if entry["kneel"]:
            bits.append("knelt")
        if entry.get("power"):
            bits.append("%d power" % entry["power"])
        if entry.get("attachments"):
            bits.append("with " + ", ".join(self.nm.card(a) for a in entry["attachments"]))
        if entry.get("duplicates"):
            bits.append("%d duplicate%s" % (entry["duplicates"], "" if entry["duplicates"] == 1 else "s"))
        if "owner" in entry:
            bits.append("owned by %s" % self.nm.seat(entry["owner"]))
        return text + (" (%s)" % ", ".join(bits) if bits else "")

    def characters(self, seat):
        return [e for e in self.v["seats"][seat]["play"] if "str" in e]

    def others(self, seat):
        return [e for e in self.v["seats"][seat]["play"] if "str" not in e]

    def plot(self, seat):
        p = self.v["seats"][seat]
        if p["revealed"]:
            stats = self.rec(p["revealed"]).get("plot") or {}
            return "%s (income %s, initiative %s, claim %s)" % (self.nm.card(p["revealed"]), stats.get("income"),
                                                               stats.get("initiative"), stats.get("claim"))
        return "chosen, face down" if p["has_chosen"] else "-"

    def status(self, seat):
        v = self.v
        bits = []
        if seat == v["first"]:
            bits.append("first player")
        if v["seats"][seat].get("title"):
            bits.append(self.titles.get(v["seats"][seat]["title"], v["seats"][seat]["title"]))
        for a in v.get("asks", []):
            if a["seat"] == seat:
                bits.append(a.get("public") or a.get("kind", "deciding"))
                break
        return ", ".join(bits)

    def counts(self, seat):
        p = self.v["seats"][seat]
        return ("power %d (House %d) · gold %d · hand %d · deck %d · plots %d · discard %d · dead %d"
                % (p["total_power"], p["power"], p["gold"], p["hand_size"], p["deck_size"], p["plots_left"],
                   len(p["discard"]), len(p["dead"])))

    def challenge(self):
        ch = self.v.get("challenge")
        if not ch:
            return None
        strength = {e["card"]: e.get("str", 0) for p in self.v["seats"] for e in p["play"]}

        def side(cards):
            if not cards:
                return "none"
            return "%s = %d" % (", ".join("%s %d" % (self.nm.card(i), strength.get(i, 0)) for i in cards),
                                sum(strength.get(i, 0) for i in cards))
        line = "%s challenge: %s against %s · attackers %s · defenders %s" % (
            ch["type"].capitalize(), self.nm.seat(ch["attacker"]), self.nm.seat(ch["target"]),
            side(ch["attackers"]), side(ch["defenders"]))
        if ch.get("supporter") is not None:
            line += " (defended by %s, whose title supports the target's)" % self.nm.seat(ch["supporter"])
        if ch.get("stealthed"):
            line += " · kept from defending: %s" % self.nm.cards_text(ch["stealthed"])
        if ch.get("winner") is not None:
            line += " · won by %s" % self.nm.seat(ch["winner"])
        return line

    def private(self):
        """(heading, text) pairs only this seat may see."""
        v = self.v
        if "seat" not in v:
            return []
        s = v["seat"]
        p = v["seats"][s]
        out = []
        if "hand" in p:
            out.append(("Your hand (%s)" % self.nm.seat(s), ", ".join(
                "%s%s" % (self.nm.card(i), " (%s gold)" % self.rec(i)["cost"] if self.rec(i).get("cost") is not None
                           else "") for i in p["hand"]) or "empty"))
        if p.get("plots"):
            out.append(("Your plots", self.nm.cards_text(p["plots"])))
        if p.get("chosen"):
            out.append(("Your chosen plot", self.nm.card(p["chosen"])))
        if p.get("setup"):
            out.append(("Your setup cards, face down", self.nm.cards_text(p["setup"])))
        return out


def _lcg_render(view, config, log=()):
    t = _LcgTable(view, config)
    v, nm = view, t.nm
    seats = Table(box=box.SIMPLE_HEAD, title="Seats", title_justify="left")
    for col in ("Seat", "House", "Power", "Gold", "Hand", "Deck", "Plot", "Status"):
        seats.add_column(col, justify="right" if col in ("Seat", "Power", "Gold", "Hand", "Deck") else "left")
    for s in range(v["players"]):
        p = v["seats"][s]
        seats.add_row(str(s), t.house(s), "%d" % p["total_power"], str(p["gold"]),
                      str(p["hand_size"]), str(p["deck_size"]), t.plot(s), t.status(s),
                      style="bold" if v.get("seat") == s else None)
    table = Table(box=box.SIMPLE_HEAD, title="In play", title_justify="left")
    table.add_column("Seat", justify="right")
    table.add_column("Characters (STR, icons M I P)")
    table.add_column("Locations and attachments")
    for s in range(v["players"]):
        table.add_row(str(s), "\n".join(t.card(e) for e in t.characters(s)) or "-",
                      "\n".join(t.card(e) for e in t.others(s)) or "-")
    parts = [Panel(Text(t.heading()), title="A Game of Thrones: The Card Game", title_align="left"), seats, table]
    challenge = t.challenge()
    if challenge:
        parts.append(Panel(challenge, title="Challenge", title_align="left", border_style="red"))
    for heading, text in t.private():
        parts.append(Panel(text, title=heading, title_align="left", border_style="cyan"))
    if log:
        parts.append(Panel("\n".join(log), title="Log", title_align="left", border_style="dim"))
    return Group(*parts)


def _lcg_plain(view, config):
    t = _LcgTable(view, config)
    v, nm = view, t.nm
    lines = ["== " + t.heading()]
    for s in range(v["players"]):
        status = t.status(s)
        lines.append("%s: %s · plot %s%s" % (nm.seat(s), t.counts(s), t.plot(s), " · " + status if status else ""))
        chars = t.characters(s)
        if chars:
            lines.append("  characters: " + "; ".join(t.card(e) for e in chars))
        others = t.others(s)
        if others:
            lines.append("  locations and attachments: " + "; ".join(t.card(e) for e in others))
    challenge = t.challenge()
    if challenge:
        lines.append(challenge)
    for heading, text in t.private():
        lines.append("%s: %s" % (heading, text))
    return lines
