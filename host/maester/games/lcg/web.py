"""Hints for the seat and table pages (web/hints.py): the generic renderer draws the LCG's view.

The seat's own hand, plots, chosen plot and face-down setup cards (the view repeats them at its top
for a seat) go in the page's "only you" box; the seats' records (House, power, gold, counts, cards in
play with their STR and kneeling) one seat to a row; the challenge in progress near the top.
"""

HINTS = {
    "order": ["round", "phase", "first", "initiative", "goal", "challenge", "seats", "title_pool", "teams",
              "effects", "bank", "result"],
    "labels": {"round": "Round", "phase": "Phase", "first": "First player", "initiative": "Won initiative",
               "goal": "Power to win", "challenge": "Challenge in progress", "seats": "Seats",
               "title_pool": "Titles not taken", "teams": "Teams", "effects": "Lasting effects",
               "bank": "Power and gold pools", "hand": "Your hand", "plots": "Your plot deck",
               "chosen_plot": "Your chosen plot", "setup_cards": "Your setup cards, face down"},
    "secret": ["hand", "plots", "chosen_plot", "setup_cards"],
    "per_seat": ["seats"],
    "seats": ["first", "initiative"],
    "hide": ["melee"],
}


# --- the LCG's own layout (web/blocks.py): table_blocks for the TV, seat_blocks for a phone --------
#
# Everything below reads the view it is given and nothing else: a seat's hand, plot deck, chosen
# plot and face-down setup cards are in its own view only, so only its "secret" tab can show them.
# The words are the rulebook's (House, power, gold, plot, STR, knelt), never the view's field names.

from ...web import blocks as B  # noqa: E402  (after HINTS, which the generic renderer still reads)
from .model import PHASES  # noqa: E402
from .text import TITLE_NAMES  # noqa: E402

# The choices whose second item is a card the seat picks, worded as what the card is for.
CARD_CHOICES = ("target", "kill", "stand", "kneel", "attacker", "defender", "stealth", "dup", "card",
                "marshal", "place", "duplicate", "ambush", "discard", "take", "keep", "action", "respond",
                "save", "cancel", "kneel_influence", "attach")


def _rec(words, inst):
    """The printed card (name, type, STR, cost, plot values) from the config's card table."""
    return (words.cards.get("cards") or {}).get(inst.split("#", 1)[0]) or {}


def _house_of(words, inst):
    houses = _rec(words, inst).get("houses") or ()
    return houses[0] if houses else None


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _plot_stats(words, inst):
    p = _rec(words, inst).get("plot") or {}
    return "income %s, initiative %s, claim %s" % (p.get("income"), p.get("initiative"), p.get("claim"))


def _in_play(view):
    """Every card on the table, by id: its public record from the view (STR, kneeling, power...)."""
    return {e["card"]: (seat, e) for seat, p in enumerate(view["seats"]) for e in p["play"] + p["attachments"]}


def play_card(view, words, entry, knelt=True):
    """One card in play as a chip: STR for a character, then knelt, power, what is attached to it.
    `knelt`: mark a knelt card (not in a challenge, where every attacker kneels as it attacks)."""
    inst = entry["card"]
    knelt = knelt and entry.get("kneel")
    bits = []
    if "str" in entry:
        bits.append("STR %d" % entry["str"])
    if knelt:
        bits.append("knelt")
    if entry.get("power"):
        bits.append("%d power" % entry["power"])
    if entry.get("attachments"):
        bits.append("with " + ", ".join(words.card(a) for a in entry["attachments"]))
    if entry.get("duplicates"):
        bits.append("+%s" % _plural(entry["duplicates"], "duplicate"))
    if "owner" in entry:
        bits.append("owned by " + words.seat(entry["owner"]))
    return B.card(words, inst, " · ".join(bits) or None, ["knelt"] if knelt else (),
                  _house_of(words, inst))


# --- the round -------------------------------------------------------------------------------------

def round_track(view, words):
    """The seven phases of the round in order, the current one lit (setup before round 1)."""
    phase = view["phase"]
    now = PHASES.index(phase) if phase in PHASES else -1
    over = bool(view.get("over"))
    cells = [{"label": name.capitalize(),
              "state": "done" if over or i < now else "now" if i == now else "todo"}
             for i, name in enumerate(PHASES)]
    title = "Setup" if view["round"] == 0 else "Round %d" % view["round"]
    return B.track(title, cells)


def titles_left(view):
    """In melee: the titles nobody took this round."""
    if not view.get("melee") or view["phase"] == "setup":
        return None
    pool = [TITLE_NAMES.get(t, t) for t in view.get("title_pool", [])]
    return B.text("Titles not taken this round: %s" % (", ".join(pool) or "none"), "muted")


# --- the challenge in progress -------------------------------------------------------------------

def challenge(view, words):
    """The challenge being made: who attacks whom, the attacking and defending cards with their STR."""
    ch = view.get("challenge")
    if not ch:
        return None
    table = _in_play(view)
    defending = ch["supporter"] if ch.get("supporter") is not None else ch["defender"]
    sides = [("Attacking", ch["attacker"], ch["attackers"]), ("Defending", defending, ch["defenders"])]
    items = []
    for label, seat, cards in sides:
        chips = [play_card(view, words, table[c][1], knelt=False) for c in cards if c in table]
        total = sum(table[c][1].get("str", 0) for c in cards if c in table)
        tags = []
        if ch.get("winner") is not None:
            tags = ["won" if ch["winner"] == seat else "lost"]
        items.append({"title": "%s: %s%s" % (label, words.seat(seat), ", STR %d" % total if chips else ""),
                      "cards": chips, "lines": [] if chips else ["no characters yet"], "tags": tags})
    notes = _challenge_notes(view, words, ch)
    if notes:
        items[1]["lines"] += notes
    title = "%s challenge: %s against %s" % (ch["type"].capitalize(), words.seat(ch["attacker"]),
                                             words.seat(ch["defender"]))
    return B.panels(title, items)


def _challenge_notes(view, words, ch):
    out = []
    if ch.get("supporter") is not None:
        out.append("%s defends for %s (their titles support each other)" % (words.seat(ch["supporter"]),
                                                                           words.seat(ch["defender"])))
    if ch.get("stealthed"):
        out.append("Kept from defending by stealth: " + ", ".join(words.card(c) for c in ch["stealthed"]))
    if ch.get("redirected"):
        out.append("Taken on by the %s" % TITLE_NAMES.get(ch["redirected"], "title"))
    return out


# --- the seats -----------------------------------------------------------------------------------

def _turn_seats(view):
    return {a["seat"] for a in view.get("asks", [])}


def _power(view, seat, unit=" power"):
    """Power toward the goal: "9 of 15 power" (in two-on-two the team's total counts: "9 power,
    team 20 of 30")."""
    p = view["seats"][seat]
    for team in view.get("teams") or ():
        if seat in team:
            total = sum(view["seats"][s]["total_power"] for s in team)
            return "%d%s, team %d of %d" % (p["total_power"], unit, total, view["goal"])
    return "%d of %d%s" % (p["total_power"], view["goal"], unit)


def _plot_line(view, words, seat):
    """The plot face up (last round's until the new ones are revealed together), and in the plot
    phase whether the next one is chosen yet: never which (it stays face down)."""
    p = view["seats"][seat]
    bits = []
    if p["revealed"]:
        bits.append("Plot: %s (%s)" % (words.card(p["revealed"]), _plot_stats(words, p["revealed"])))
    choosing = any(a["seat"] == seat and a["kind"] == "plot" for a in view.get("asks", []))
    if p["has_chosen"] or choosing:
        bits.append("next plot %s" % ("chosen, face down" if p["has_chosen"] else "being chosen"))
    text = " · ".join(bits)
    return text[:1].upper() + text[1:] if text else None


def seat_panel(view, words, seat, viewer=None):
    """One seat: House, power toward the goal, gold, cards in hand and deck, its plot, its title,
    and its cards in play (characters with STR; locations), knelt ones marked. Its badges: you,
    the first player, the winner of initiative, the seat the table waits for."""
    p = view["seats"][seat]
    over = view.get("result") or {}
    tags = ["you" if seat == viewer else None, "winner" if seat in over.get("winners", ()) else None,
            "first" if seat == view["first"] and not over else None,
            "initiative" if seat == view.get("initiative") and view["round"] > 0 and not over else None,
            "turn" if seat in _turn_seats(view) and not over else None]
    lines = ["Gold %d · Hand %d · Deck %d · Plots %d · Discard %d · Dead %d" % (
                 p["gold"], p["hand_size"], p["deck_size"], p["plots_left"], len(p["discard"]), len(p["dead"])),
             _plot_line(view, words, seat),
             "Title: %s" % TITLE_NAMES.get(p["title"], p["title"]) if view.get("melee") and p.get("title") else None]
    if p.get("setup_face_down"):
        lines.append("%s face down for setup" % _plural(p["setup_face_down"], "card"))
    chars = [play_card(view, words, e) for e in p["play"] if "str" in e]
    others = [play_card(view, words, e) for e in p["play"] if "str" not in e]
    return {"title": "%s: %s" % (words.seat(seat), _power(view, seat)), "tags": [t for t in tags if t],
            "lines": [x for x in lines if x], "groups": [["Characters", chars], ["Locations", others]]}


def seat_panels(view, words, viewer=None):
    return B.panels(None, [seat_panel(view, words, s, viewer) for s in range(view["players"])])


# --- the end -------------------------------------------------------------------------------------

def result(view, words):
    """At the end: who won, and every seat's power, the winners first."""
    res = view.get("result")
    if not res:
        return None
    winners = res["winners"]
    order = sorted(range(view["players"]), key=lambda s: (s not in winners, -res["power"][s], s))
    rows = [B.seat_row(words, s, [str(res["power"][s])], ["winner"] if s in winners else []) for s in order]
    title = "%s after %s" % (" and ".join(words.seat(w) for w in winners) + (" win" if len(winners) > 1 else " wins"),
                             _plural(res["rounds"], "round"))
    return B.seats(title, ["Power (%d to win%s)" % (view["goal"], " as a team" if view.get("teams") else "")], rows)


# --- the pages -----------------------------------------------------------------------------------

def table_blocks(view, words):
    side = [result(view, words), round_track(view, words), challenge(view, words),
            titles_left(view)]
    seats = seat_panels(view, words)
    if view["players"] <= 3:
        # Two or three seats: the round and the challenge in a narrow column, the seats one under
        # the other in a wide one, so each seat's cards get a long row; more seats share the width.
        for b in side:
            if b:
                b["column"] = 0
        seats["column"] = 1
    return [b for b in side + [seats] if b]


def _my_asks(view, seat):
    return [a for a in view.get("asks", []) if a["seat"] == seat and "choices" in a]


def _status(view, seat):
    p = view["seats"][seat]
    phase = "Setup" if view["phase"] == "setup" else "Round %d, %s" % (view["round"], view["phase"])
    return B.facts([("Now", phase), ("Your power", _power(view, seat, "")),
                    ("Your gold", p["gold"])])


def _choice_cards(view, words, ask):
    """The cards an ask lets the seat choose among, each with what a person weighs: whose it is and
    its STR for a card in play, its cost for a card in hand."""
    table = _in_play(view)
    insts = []
    for c in ask["choices"]:
        if len(c) > 1 and c[0] in CARD_CHOICES and isinstance(c[1], str) and "#" in c[1] and c[1] not in insts:
            insts.append(c[1])
    chips = []
    for inst in insts:
        if inst in table:
            seat, entry = table[inst]
            chip = play_card(view, words, entry)
            chip["note"] = " · ".join(x for x in (words.seat(seat), chip.get("note")) if x)
        else:
            cost = _rec(words, inst).get("cost")
            chip = B.card(words, inst, "%d gold" % cost if cost is not None else None, house=_house_of(words, inst))
        chips.append(chip)
    return chips


def _about_ask(view, words, seat, ask):
    """What one decision is about, beside its buttons."""
    kind = ask["kind"]
    if kind == "plot":
        return _plots_so_far(view, words)
    if kind == "challenge":
        made = view["seats"][seat]["challenges_made"]
        return B.text("Made this round: %s" % (", ".join(t.capitalize() for t in made) or "none yet"))
    if kind == "marshal":  # the buttons give each card's cost; the gold is in the facts above
        played = view["seats"][seat]["limited_played"]
        return B.text("You have played your limited card this round.", "muted") if played else None
    chips = _choice_cards(view, words, ask)
    if chips and kind not in ("attackers", "defenders"):
        return B.block("cards", "To choose from", cards=chips)
    return None


def _plots_so_far(view, words):
    """For the plot choice: the plots each seat has revealed so far this cycle (public), and how
    many each still holds."""
    rows = [B.seat_row(words, s, [[B.card(words, c) for c in p["used_plots"] + [p["revealed"]] if c],
                                  str(p["plots_left"])]) for s, p in enumerate(view["seats"])]
    return B.seats("Plots revealed so far", ["Revealed", "Still to come"], rows)


def seat_blocks(view, words, seat):
    asks = _my_asks(view, seat)
    about = [result(view, words)]
    if not view.get("over"):
        about.append(_status(view, seat))
        about.append(challenge(view, words))
        if asks:  # the first open decision is the one whose buttons come first
            about.append(_about_ask(view, words, seat, asks[0]))
            if asks[0]["kind"] in ("attackers", "stealth", "challenge"):
                about.append(_others_standing(view, words, seat))
    board = [result(view, words), round_track(view, words), challenge(view, words),
             seat_panels(view, words, seat), titles_left(view)]
    return {"about": [b for b in about if b], "board": [b for b in board if b], "secret": secret(view, words),
            "hand_count": len(view.get("hand", []))}


def _others_standing(view, words, seat):
    """When challenges are declared: every other seat's characters that still stand, with STR."""
    rows = []
    for s, p in enumerate(view["seats"]):
        if s != seat:
            rows.append(B.seat_row(words, s, [[play_card(view, words, e) for e in p["play"]
                                               if "str" in e and not e["kneel"]]]))
    return B.seats("Who could defend: the others' standing characters", ["Characters"], rows)


def _hand_note(words, inst):
    """What a card in hand is worth knowing at a glance: its cost, and its STR or what kind it is."""
    rec = _rec(words, inst)
    bits = ["%d gold" % rec["cost"]] if rec.get("cost") is not None else []
    bits.append("STR %d" % (rec.get("str") or 0) if rec.get("type") == "character" else rec.get("type") or "")
    return " · ".join(b for b in bits if b) or None


def secret(view, words):
    """The seat's own hand, plot deck, chosen plot and face-down setup cards: its view's top."""
    hand = view.get("hand", [])
    notes = {c: _hand_note(words, c) for c in hand}
    out = [B.cards(words, "Your hand", hand, empty="no cards", notes=notes, house=lambda c: _house_of(words, c)),
           B.cards(words, "Your plot deck", view.get("plots", []), empty="no plots",
                   notes={c: _plot_stats(words, c) for c in view.get("plots", [])})]
    if view.get("chosen_plot"):
        out.append(B.cards(words, "The plot you chose (face down until all have chosen)", [view["chosen_plot"]],
                           notes={view["chosen_plot"]: _plot_stats(words, view["chosen_plot"])}))
    if view.get("setup_cards"):
        out.append(B.cards(words, "Placed face down for setup", view["setup_cards"]))
    return out
