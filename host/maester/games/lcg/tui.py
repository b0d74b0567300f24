"""The LCG in the terminal: the seats, the cards in play, the challenge under way, a seat's hand and
plots, the final power, and the parts the full-screen view fits to the window (terminal/draw.py)."""

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...engine import cardtables
from ...terminal.draw import Part, clip_list, line_rows, one_line, wrapped
from .text import HOUSES, TITLE_NAMES, Names

def scores_lines(view, config):
    """The LCG's end: each seat's power (on its House and its cards) and the winners."""
    res = view["result"]
    nm = Names(view, cardtables.of_config(config))
    lines = ["Final power (%d to win):" % view["goal"]]
    for seat, power in enumerate(res["power"]):
        lines.append("  %-32s %3d%s" % (nm.seat(seat), power, "  ← winner" if seat in res["winners"] else ""))
    lines.append("Winner%s: %s" % ("s" if len(res["winners"]) > 1 else "", " and ".join(nm.seat(s) for s in res["winners"])))
    return lines


LCG_ICONS = (("military", "M"), ("intrigue", "I"), ("power", "P"))
DECLARE_KINDS = ("challenge", "attackers", "defenders", "stealth")  # asks that weigh the characters in play


class _LcgTable:
    """Facts about an LCG view, shared by the rich and the plain drawings."""

    def __init__(self, view, config):
        self.v = view
        self.cards = cardtables.of_config(config).get("cards", {})
        self.nm = Names(view, cardtables.of_config(config))
        self.titles = TITLE_NAMES

    def rec(self, inst):
        return self.cards.get(inst.split("#", 1)[0], {})

    def house(self, seat):
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


def render(view, config, log=()):
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


def plain_lines(view, config):
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


def parts(view, config):
    t = _LcgTable(view, config)
    v, nm = view, t.nm
    full = render(view, config)

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

    # Declaring a challenge, its attackers or its defenders, a seat weighs every character on the table:
    # its own and those that could defend. Then no character is cut to "… and N more": the rows wrap, and
    # the hand, of no use for this choice, gives way when the window is short.
    declaring = any(a["seat"] == v.get("seat") and a["kind"] in DECLARE_KINDS for a in v.get("asks", ()))

    def characters_wrapped(w):
        return Group(*(Text("%s%s: %s" % (nm.seat(s), " (you)" if s == v.get("seat") else "",
                                          "; ".join(t.card(e) for e in t.characters(s)) or "none"))
                       for s in range(v["players"])))

    challenge = t.challenge()
    parts = [Part([lambda w: full.renderables[0],
                   lambda w: Group(one_line(Text("A Game of Thrones: The Card Game", style="bold"), w),
                                   Text(t.heading())),
                   lambda w: one_line("The Card Game · " + t.heading(), w)], rank=0),
             Part([lambda w: full.renderables[1],
                   lambda w: Group(*(Text(seat_row(s, 10 ** 4)) for s in range(v["players"]))),
                   lambda w: line_rows([seat_row(s, w) for s in range(v["players"])], w)], rank=1),
             Part([lambda w: full.renderables[2], in_play_compact, characters_wrapped] if declaring else
                  [lambda w: full.renderables[2], in_play_compact,
                   lambda w: line_rows([r for s in range(v["players"]) for r in play_rows(s, w)], w),
                   lambda w: line_rows([clip_list("%d in play: " % s, [t.card(e) for e in v["seats"][s]["play"]]
                                                  or ["-"], w) for s in range(v["players"])], w)],
                  rank=0 if declaring else 2)]
    k = 3
    if challenge:
        parts.append(Part([lambda w: full.renderables[3], lambda w: Text(challenge, style="red")], rank=0))
        k = 4
    private = t.private()
    if private:
        parts.append(Part([lambda w: Group(*full.renderables[k:k + len(private)]),
                           lambda w: Group(*(wrapped(h, text) for h, text in private))],
                          rank=4 if declaring else 0, optional=declaring))
    return parts


# What the colours of the simulated table's LED strip mean, (short, full): terminal/draw.py,
# led_part, says how its letters are read.
LED_KEY = ("phase: lit step · challenge: R military, G intrigue, B power · seat: Y power, C first, W must act",
           "phase: the lit pixel is the phase (plot, draw, marshalling, challenges, dominance, standing, taxation) · "
           "challenge: R military, G intrigue, B power · per seat: a Y power bar (one pixel a power), C first "
           "player, then the seat's light: W (pulsing) must act, the challenge colour bright for the attacker and "
           "dim for the defender, G winner")
