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

from ..engine import cardtables
from ..games.btwixt.text import Names
from ..games.intrigue import text as itext
from ..games.oathbreaker import text as otext

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
    nm = Names(view, cardtables.of_config(config))
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


def _intrigue_render(view, config, log=()):
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


def _intrigue_plain(view, config):
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


def _intrigue_scores(view, config):
    res = view["result"]
    nm = itext.Names(view, cardtables.of_config(config))
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
    nm = otext.Names(view, cardtables.of_config(config))
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
    nm = otext.Names(view, cardtables.of_config(config))
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
    from ..games.lcg.text import Names as LcgNames
    res = view["result"]
    nm = LcgNames(view, cardtables.of_config(config))
    lines = ["Final power (%d to win):" % view["goal"]]
    for seat, power in enumerate(res["power"]):
        lines.append("  %-32s %3d%s" % (nm.seat(seat), power, "  ← winner" if seat in res["winners"] else ""))
    lines.append("Winner%s: %s" % ("s" if len(res["winners"]) > 1 else "", " and ".join(nm.seat(s) for s in res["winners"])))
    return lines


def _oath_scores(view, config):
    res = view["result"]
    nm = otext.Names(view, cardtables.of_config(config))
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
        from ..games.lcg.text import TITLE_NAMES, Names as LcgNames
        self.v = view
        self.cards = cardtables.of_config(config).get("cards", {})
        self.nm = LcgNames(view, cardtables.of_config(config))
        self.titles = TITLE_NAMES

    def rec(self, inst):
        return self.cards.get(inst.split("#", 1)[0], {})

    def house(self, seat):
        from ..games.lcg.text import HOUSES
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


# --- the full-screen view: parts that fit the terminal ----------------------------------------------
#
# `maester play/demo/resume` in a terminal draw the table on the alternate screen at its size. Each
# game's table is a list of parts (heading, seats, its central area, the hand...), each with forms
# from the richest (panels and tables) to the most compact (one clipped line per seat); `fit` gives
# every part its most compact form, then richer ones while there is room, and the log what is left.

from rich.console import Console
from rich.rule import Rule
from rich.segment import Segment

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


def _lines(rows, width, style=None):
    """Rows of text, each on one screen line."""
    return Group(*(one_line(r, width, style) for r in rows))


def _pairs(rows, width):
    """Short rows two to a screen line (the tightest form of a list of seats)."""
    cell = (width - 2) // 2
    cut = [str(one_line(r, cell)).ljust(cell) for r in rows]
    return Group(*(Text(("  ".join(cut[i:i + 2])).rstrip()) for i in range(0, len(cut), 2)))


def _wrapped(heading, text, style="cyan"):
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


def screen_parts(view, config):
    """The game's parts for the full-screen view, in the order they are drawn."""
    maker = {"btwixt": _btwixt_parts, "intrigue": _intrigue_parts, "oathbreaker": _oath_parts,
             "lcg": _lcg_parts}.get(view.get("game"))
    if maker is None:
        return [Part([lambda w: Pretty(view)])]
    return maker(view, config)


# --- each game's parts ---

def _btwixt_parts(view, config):
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
        return _lines(["%s · %s" % ("B'Twixt", first_line), second] + more, w)

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
        return Group(*(_wrapped(h, nm.cards(insts) or "nothing") for h, insts in t.private()))
    parts = [Part([lambda w: full_render.renderables[0], head_compact, head_min], rank=0),
             Part([lambda w: full_render.renderables[1],
                   lambda w: Group(Text("Leaders", style="bold"), *(Text(seat_row(s, 10 ** 4)) for s in range(t.n))),
                   lambda w: Group(Text("Leaders", style="bold"), _lines([seat_row(s, w) for s in range(t.n)], w)),
                   lambda w: _lines([seat_row(s, w) for s in range(t.n)], w),
                   lambda w: _pairs([short_seat(s) for s in range(t.n)], w)], rank=1, base=3),
             Part([lambda w: full_render.renderables[2],
                   lambda w: Group(Text("Councils", style="bold"), *(Text(council_row(c, 10 ** 4))
                                                                     for c in range(t.n))),
                   lambda w: _lines([council_row(c, w) for c in range(t.n)], w),
                   lambda w: _pairs([short_council(c) for c in range(t.n)], w)], rank=2, base=2),
             Part([lambda w: Text(t.counts(), style="dim"), lambda w: one_line(t.counts(), w, "dim")], rank=6,
                  optional=True)]
    if t.private():
        parts.append(Part([lambda w: Group(*full_render.renderables[4:4 + len(t.private())]), private_form], rank=0))
    return parts


def _intrigue_parts(view, config):
    nm = itext.Names(view, cardtables.of_config(config))
    full = _intrigue_render(view, config)
    head = "%s · Iron Throne deck %d" % (_intrigue_heading(view, nm), view["throne_deck"])

    def seat_rows(w):
        return _lines(["%s: %s" % (nm.seat(s), _intrigue_seat_line(view, s)) for s in range(view["players"])], w)
    parts = [Part([lambda w: full.renderables[0],
                   lambda w: Group(one_line(Text("Game of Thrones: Westeros Intrigue", style="bold"), w),
                                   one_line(head, w)),
                   lambda w: one_line(head if view.get("over") else "Westeros Intrigue · " + head, w)], rank=0),
             Part([lambda w: full.renderables[1],
                   lambda w: Group(Text("The court", style="bold"), _IntrigueCourt(view, config, nm)),
                   lambda w: _IntrigueCourt(view, config, nm)], rank=1),
             Part([lambda w: full.renderables[2], seat_rows,
                   lambda w: _pairs(["Seat %d: %d in hand · %d pen. · %d throne%s"
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
                rows.append(_wrapped("Your Iron Throne cards", nm.cards(view["my_thrones"])))
            return Group(*rows)
        parts.append(Part([lambda w: Group(*full.renderables[3:3 + (2 if view.get("my_thrones") else 1)]), hand],
                          rank=0))
    return parts


def _oath_parts(view, config):
    nm = otext.Names(view, cardtables.of_config(config))
    full = _oath_render(view, config)
    n = view["track_length"]
    i = 1
    missions = None
    if view["missions"]:
        missions, i = full.renderables[1], 2
    seats_full = full.renderables[i]

    def head_min(w):
        return _lines([_oath_heading(view),
                       "Order %d %s  Chaos %d %s" % (view["order"], _oath_bar(view["order"], n), view["chaos"],
                                                     _oath_bar(view["chaos"], n)),
                       "Round track %s" % _oath_track(view)], w)

    def mission_rows(w):
        rows = []
        for num, name, played, up, sigils, result in _oath_mission_rows(view, nm):
            line = "Mission %s %s: %s" % (num, name, played)
            for extra in (("face up " + up) if up else "", ("House Sigils " + sigils) if sigils else "", result):
                if extra:
                    line += "; " + extra
            rows.append(line)
        return rows

    def seat_row(s, w):
        if s in view["monarchs"]:
            what = "%d decrees in hand" % view["decree_hand_sizes"][s]
        else:
            what = "%d in hand · %s" % (view["hand_sizes"][s], _oath_cubes(view["cubes"][s]))
        status = _oath_status(view, s)
        decrees = [nm.card(d["card"]) + (" (sideways)" if d["sideways"] else "") for d in view["decrees"][s]]
        line = "%d %-20s %s%s" % (s, nm.leader(s)[:20], what, " · " + status if status else "")
        return clip_list(line + " · decrees ", decrees, w) if decrees else line

    def short_seat(s):
        status = _oath_status(view, s)
        if s in view["monarchs"]:
            what = "%d decrees" % view["decree_hand_sizes"][s]
        else:
            c = view["cubes"][s]
            what = "%d · %s" % (view["hand_sizes"][s], "-" if c is None else "/".join(str(c[r]) for r in OATH_RES))
        return "%d %s %s%s" % (s, nm.leader(s).split()[0], what, " · " + status if status else "")

    def private(w):
        return Group(*(_wrapped(h, text) for h, text in _oath_private(view, nm)))
    parts = [Part([lambda w: full.renderables[0], head_min], rank=0)]
    if missions is not None:
        parts.append(Part([lambda w: missions, lambda w: Text("\n".join(mission_rows(w))),
                           lambda w: _lines(mission_rows(w), w)], rank=1))
    parts += [Part([lambda w: seats_full,
                    lambda w: Group(*(Text(seat_row(s, 10 ** 4)) for s in range(view["players"]))),
                    lambda w: _lines([seat_row(s, w) for s in range(view["players"])], w),
                    lambda w: _pairs([short_seat(s) for s in range(view["players"])], w)], rank=2, base=2),
              Part([lambda w: Text(_oath_counts(view), style="dim"), lambda w: one_line(_oath_counts(view), w, "dim")],
                   rank=6, optional=True)]
    if _oath_private(view, nm):
        parts.append(Part([lambda w: Group(*full.renderables[i + 2:i + 2 + len(_oath_private(view, nm))]), private],
                          rank=0))
    return parts


def _lcg_parts(view, config):
    t = _LcgTable(view, config)
    v, nm = view, t.nm
    full = _lcg_render(view, config)

    def seat_row(s, w):
        p = v["seats"][s]
        status = t.status(s)
        return ("%d %-9s power %d · gold %d · hand %d · deck %d · plot %s%s"
                % (s, t.house(s), p["total_power"], p["gold"], p["hand_size"], p["deck_size"], t.plot(s),
                   " · " + status if status else ""))

    def play_rows(s, w):
        chars = clip_list("%d characters: " % s, [t.card(e) for e in t.characters(s)] or ["-"], w)
        others = [t.card(e) for e in t.others(s)]
        return [chars] + ([clip_list("  locations and attachments: ", others, w)] if others else [])

    def in_play_compact(w):
        return Group(Text("In play (characters: STR, icons M I P)", style="bold"),
                     *(Text(r) for s in range(v["players"]) for r in play_rows(s, 10 ** 4)))

    challenge = t.challenge()
    parts = [Part([lambda w: full.renderables[0],
                   lambda w: Group(one_line(Text("A Game of Thrones: The Card Game", style="bold"), w),
                                   Text(t.heading())),
                   lambda w: one_line("The Card Game · " + t.heading(), w)], rank=0),
             Part([lambda w: full.renderables[1],
                   lambda w: Group(*(Text(seat_row(s, 10 ** 4)) for s in range(v["players"]))),
                   lambda w: _lines([seat_row(s, w) for s in range(v["players"])], w)], rank=1),
             Part([lambda w: full.renderables[2], in_play_compact,
                   lambda w: _lines([r for s in range(v["players"]) for r in play_rows(s, w)], w),
                   lambda w: _lines([clip_list("%d in play: " % s, [t.card(e) for e in v["seats"][s]["play"]] or ["-"],
                                               w) for s in range(v["players"])], w)], rank=2)]
    k = 3
    if challenge:
        parts.append(Part([lambda w: full.renderables[3], lambda w: Text(challenge, style="red")], rank=0))
        k = 4
    private = t.private()
    if private:
        parts.append(Part([lambda w: Group(*full.renderables[k:k + len(private)]),
                           lambda w: Group(*(_wrapped(h, text) for h, text in private))], rank=0))
    return parts


# --- the LED strip and its legend ---

SEGMENT_WORDS = {"round": "round", "season": "season", "order": "Order", "chaos": "Chaos", "phase": "phase",
                 "challenge": "challenge", "power": "power", "first": "first player", "seat": "seat"}

# What the colours mean, per game: (short, full). The letters are the simulated strip's: the
# dominant colour of a pixel after the firmware's gamma (R G B Y C M W), in small letters when it
# is dim, '.' when dark; so an orange (the season, the first player) reads R.
SEAT_KEY = "seat lights: W (pulsing) must act, G winner"
LED_KEYS = {
    "btwixt": ("round: lit space · season: 1st summer, 2nd autumn, 3rd winter · seats: W must act, R first "
               "player, r knelt, G won",
               "round track: the lit pixel is this round's space · season: the 1st pixel lit in summer, the 2nd in "
               "autumn, the 3rd in winter · each seat's 3 lights: W (pulsing) must act, R first player, r knelt, "
               "G winner, w idle"),
    "intrigue": ("round: R one per round · seats: W must act, r out, G winner",
                 "round: one R pixel per round played · each seat's 3 lights: W (pulsing) must act, r out of the "
                 "round, G winner, w idle"),
    "oathbreaker": ("Order W, Chaos B bars · round: R a round · seats: W must act, R Hand of the King, "
                    "M monarch, G won",
                    "Order (W) and Chaos (B) tracks as bars · round: one R pixel per round played · each seat's 3 "
                    "lights: W (pulsing) must act, R Hand of the King, M monarch, G winner, w idle"),
    "lcg": ("phase: lit step · challenge: R military, G intrigue, B power · seat: Y power, C first, W must act",
            "phase: the lit pixel is the phase (plot, draw, marshalling, challenges, dominance, standing, taxation) · "
            "challenge: R military, G intrigue, B power · per seat: a Y power bar (one pixel a power), C first "
            "player, then the seat's light: W (pulsing) must act, the challenge colour bright for the attacker and "
            "dim for the defender, G winner"),
}
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


def led_part(game, profile, strip):
    """The LED strip cut into its named segments, with what its colours mean."""
    if profile is None:
        return Part([lambda w: Text("LED strip [%s]" % strip)], rank=3)
    groups = _segment_groups(profile)
    short, full = LED_KEYS.get(game, ("", ""))

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
