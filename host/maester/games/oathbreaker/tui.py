"""Oathbreaker in the terminal: Order and Chaos, the round track, the missions, the seats, a seat's
secrets, the final judgment, and the parts the full-screen view fits to the window (terminal/draw.py)."""

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...engine import cardtables
from ...terminal.draw import Part, clip_list, line_rows, one_line, pairs, winners_caption, wrapped
from . import text as otext

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


def render(view, config, log=()):
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


def plain_lines(view, config):
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


def scores_lines(view, config):
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
    lines.append(winners_caption(nm, w, sep=", ") if w else "Nobody wins.")
    return lines


def parts(view, config):
    nm = otext.Names(view, cardtables.of_config(config))
    full = render(view, config)
    n = view["track_length"]
    i = 1
    missions = None
    if view["missions"]:
        missions, i = full.renderables[1], 2
    seats_full = full.renderables[i]

    def head_min(w):
        return line_rows([_oath_heading(view),
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
        return Group(*(wrapped(h, text) for h, text in _oath_private(view, nm)))
    parts = [Part([lambda w: full.renderables[0], head_min], rank=0)]
    if missions is not None:
        parts.append(Part([lambda w: missions, lambda w: Text("\n".join(mission_rows(w))),
                           lambda w: line_rows(mission_rows(w), w)], rank=1))
    parts += [Part([lambda w: seats_full,
                    lambda w: Group(*(Text(seat_row(s, 10 ** 4)) for s in range(view["players"]))),
                    lambda w: line_rows([seat_row(s, w) for s in range(view["players"])], w),
                    lambda w: pairs([short_seat(s) for s in range(view["players"])], w)], rank=2, base=2),
              Part([lambda w: Text(_oath_counts(view), style="dim"), lambda w: one_line(_oath_counts(view), w, "dim")],
                   rank=6, optional=True)]
    if _oath_private(view, nm):
        parts.append(Part([lambda w: Group(*full.renderables[i + 2:i + 2 + len(_oath_private(view, nm))]), private],
                          rank=0))
    return parts


# What the colours of the simulated table's LED strip mean, (short, full): terminal/draw.py,
# led_part, says how its letters are read.
LED_KEY = ("Order W, Chaos B bars · round: R a round · seats: W must act, R Hand of the King, "
           "M monarch, G won",
           "Order (W) and Chaos (B) tracks as bars · round: one R pixel per round played · each seat's 3 "
           "lights: W (pulsing) must act, R Hand of the King, M monarch, G winner, w idle")
