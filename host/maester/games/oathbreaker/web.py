"""Oathbreaker on the seat and table pages (web/blocks.py): the Order and Chaos tracks, the round
track, the missions of the round side by side, the court (each seat's character, cubes, decrees
in front of them), and behind a seat's "Your hand" tab its loyalty, ambition, hand, plays and
what it learned.

Everything here reads the viewer's view only: the public view counts the cards on a mission per
seat, never names them; a seat's own plays and notes are in its own view, and loyalties and
ambitions appear only once the view holds them (the reveal at the end).
"""

from ...web import blocks as B
from . import VARIANT_NAMES
from .text import RES, Names, cubes as cubes_words, winners_line

TYPE_WORDS = {"crown": "Crown", "raven": "Raven", "sword": "Sword"}
# The asks decided on the missions of the round: their "about" is the missions side by side.
MISSION_ASKS = ("play", "arya", "sigil", "resolve", "cornered", "melisandre_look", "melisandre_take")


def _names(view, words):
    return Names(view, words.cards)


def _info(words, inst):
    return words.info.get(inst.split("#", 1)[0]) or {}


def _short(words, seat):
    """A seat's name short enough for a line of counts: the character's first name ("Tyrion")."""
    name = words.seat(seat)
    return name if name.startswith("Seat ") else name.split(" ")[0]


def _plural(k, one, many=None):
    return "%d %s" % (k, one if k == 1 else many or one + "s")


# --- the realm: the tracks and the round track ------------------------------------------------------

def realm(view, words, title="The realm", agent=True):
    """Order and Chaos, the Hand of the King, whether an Agent is in the game (`agent`: the TV says
    that in the round track's caption, for room), the optional rules."""
    n = view["track_length"]
    items = [("Order", "%d of %d" % (view["order"], n)), ("Chaos", "%d of %d" % (view["chaos"], n))]
    if view["hand_of_king"] is not None:
        items.append(("Hand of the King", words.seat(view["hand_of_king"])))
    if agent:
        items.append(("Agent", "in the game" if view["agent_in_game"] else "none"))
    if view["variants"]:
        items.append(("Optional rules", ", ".join(VARIANT_NAMES[v] for v in view["variants"])))
    return B.facts(items, title)


def _space_words(space):
    if space["round"] == "mission":
        return _plural(space["banners"], "mission")
    return _plural(space["scrolls"], "decree")


def _results_on(view, i):
    """✓ and ✗ for the missions resolved on round-track space `i`, in the order they were resolved."""
    return "".join("✓" if h["success"] else "✗" for h in view["history"] if h["space"] == i)


def round_track(view, with_decks=False):
    """Every space of the round track: the rounds played (a Mission Round with its missions'
    results), the round marker's space lit, the rounds to come. `with_decks`: the decks' sizes in
    the caption (the TV has no room for a box of them)."""
    now = view["space"]
    cells = []
    for i, space in enumerate(view["track"]):
        marks = _results_on(view, i)
        # A played Mission Round shows its results; Pincer Maneuver may have added a mission to it.
        label = "%s %s" % (_plural(len(marks), "mission"), marks) if marks else _space_words(space)
        state = "done" if i < now or view["over"] else "now" if i == now else "todo"
        cells.append({"label": label, "state": state})
    caption = _round_caption(view)
    if with_decks:
        caption += " Decks: influence %d · discard %d · decrees %d · missions %d. %s" % (
            view["deck"], view["discard"], view["decree_deck"], view["mission_deck"],
            "An Agent is in play." if view["agent_in_game"] else "No Agent.")
    return B.track("Rounds", cells, caption)


def _round_caption(view):
    total = len(view["track"])
    if view["over"]:
        return "The game is over after %s." % _plural(view["rounds_played"], "round")
    if view["space"] >= total:
        return "Final Judgment: the monarchs judge every noble."
    space = view["track"][view["space"]]
    what = "a Mission Round" if space["round"] == "mission" else "a Decree Round"
    return "Round %d of %d: %s, %s." % (view["space"] + 1, total, what, _space_words(space))


# --- the missions ---------------------------------------------------------------------------------

def _result(m):
    """A mission's result (success, match, sabotage, order, chaos) or None: a live mission holds it
    under "result" once resolved, a history entry (an earlier round's mission) is its own result."""
    return m["result"] if "result" in m else m


def _played_line(words, m):
    per_seat = ", ".join("%s %d" % (_short(words, s), k) for s, k in enumerate(m["counts"]) if k)
    total = sum(m["counts"])
    if not total:
        return "No cards played yet"
    return "%s: %s" % (_plural(total, "card"), per_seat)


def mission_panel(view, words, i, m, mine=()):
    """One mission: its name, type, the cards played on it by seat and in all, the House Sigils,
    the result once resolved. `mine`: the viewer's own cards on it (its own view only)."""
    nm = _names(view, words)
    lines = ["%s · %s" % (TYPE_WORDS.get(m["type"], m["type"].capitalize()), _played_line(words, m))]
    if m["extra"]:
        lines.append("and %s from the deck, face down" % _plural(m["extra"], "card"))
    if m["taken"]:
        lines.append("%s taken back by Melisandre" % _plural(m["taken"], "card"))
    if mine:
        lines.append("Yours: %s" % nm.cards(mine))
    if m["sigils"]:
        lines.append("Sigils: %s" % ", ".join(_short(words, s) for s in m["sigils"]))
    tags = []
    r = _result(m)
    if r is not None:
        tags = ["won" if r["success"] else "lost"]
        gain = "Order +%d" % r["order"] if r["success"] else "Chaos +%d" % r["chaos"]
        lines.append("%d helping, %d sabotage: %s" % (r["match"], r["sabotage"], gain))
    cards = [B.card(words, c, "face up") for c in m.get("face_up", [])]
    return {"title": "%d. %s" % (i + 1, nm.name(m["card"])), "lines": lines, "tags": tags, "cards": cards,
            "target": _mission_spot(i)}


def _mission_spot(i):
    return "mission-%d" % i


def _seat_spot(s):
    return "seat-%d" % s


def option_mark(view, ask, choice):
    """A card played to a mission (face down, or face up for Arya) and a decree played on a noble are
    a card and a place: on a phone the seat taps the card, then the mission or the noble lit for it
    (page.js names the card from the page's names). With one card only, its buttons say where: there
    is nothing to pick first."""
    if len(choice) != 3 or len({c[1] for c in ask["choices"] if c[0] == choice[0] and len(c) == 3}) < 2:
        return None
    if choice[0] in ("play", "face_up"):
        return {"pick": choice[1], "at": _mission_spot(choice[2])}
    if choice[0] == "decree":
        return {"pick": choice[1], "at": _seat_spot(choice[2])}
    return None


def _last_missions(view):
    """The missions to show: this round's, or between Mission Rounds the last round's (resolved)."""
    if view["missions"]:
        return view["missions"], "Missions of this round"
    if not view["history"]:
        return [], None
    space = view["history"][-1]["space"]
    done = sorted((h for h in view["history"] if h["space"] == space), key=lambda h: h["mission"])
    return done, "Missions of round %d" % (space + 1)


def missions(view, words, viewer=None):
    ms, title = _last_missions(view)
    if not ms:
        return None
    live = bool(view["missions"])
    mine = {}
    for card, i in view.get("my_plays", []) if live else []:
        mine.setdefault(i, []).append(card)
    items = [mission_panel(view, words, m.get("mission", i), m, mine.get(i, ())) for i, m in enumerate(ms)]
    return B.panels(title, items)


# --- the court ------------------------------------------------------------------------------------

def _asked(view):
    return {a["seat"] for a in view.get("asks", [])}


def _tags(view, seat, viewer, phone=False):
    barred = {s for s, _ in view["barred"]} | {x[0] for x in view["pending_cornered"]}
    return ["you" if seat == viewer else None, "turn" if seat in _asked(view) else None,
            "hand" if seat == view["hand_of_king"] else None, "used" if phone and view["used"][seat] else None,
            "cells" if seat in view["cells"] or seat in view["pending_cells"] else None,
            "cornered" if seat in barred else None]


def _decrees_in_front(view, words, seat):
    return [B.card(words, d["card"], "sideways" if d["sideways"] else None) for d in view["decrees"][seat]]


def _cubes(view, s, phone):
    c = view["cubes"][s]
    if c is None:  # a monarch holds no cubes
        return ["—"] if phone else ["—", "—", "—"]
    return [cubes_words(c) or "none"] if phone else [str(c[r]) for r in RES]


def _in_hand(view, s, phone):
    if s in view["monarchs"]:
        decrees = _plural(view["decree_hand_sizes"][s], "decree")
        # On the TV a no-break space keeps "5 decrees" on one line, the row one line high.
        return decrees if phone else decrees.replace(" ", "\u00a0")
    return str(view["hand_sizes"][s])


def _final(view, words, s):
    """Loyalty, the monarchs' guess and the ambition of a seat, once the view holds them (the end)."""
    res = view["result"]
    if res["loyalty"][s] is None:
        return ["monarch", "—", "—"]
    met = "met" if res["ambition_met"][s] else "not met"
    ambition = _names(view, words).name(res["ambition"][s])
    return [res["loyalty"][s], res["guesses"][s] or "—", "%s, %s" % (ambition, met)]


def _court_columns(view, words, phone):
    """[(heading, cells of seat s)]: what the court shows, for the moment and the screen. A phone has
    the cubes in one column; at the end the court shows what the reveal tells (an ambition met or
    not stands for the cubes), and a phone leaves out the decrees too."""
    over = bool(view.get("result"))
    cols = []
    if not over:
        cols.append((["Cubes"] if phone else [r.capitalize() for r in RES], lambda s: _cubes(view, s, phone)))
    if not over:
        cols.append((["Hand" if phone else "In hand"], lambda s: [_in_hand(view, s, phone)]))
        if not phone:  # a phone says it with a tag: no room for a column
            cols.append((["Ability"], lambda s: ["used" if view["used"][s] else "—"]))
    if not (phone and over):
        cols.append((["Decrees" if phone else "Decrees in front"], lambda s: [_decrees_in_front(view, words, s)]))
    if view["queen"] is not None and not over:  # at 8 players each monarch judges one side
        cols.append((["Judge"], lambda s: [words.seat(view["judge"][s]) if view["judge"][s] is not None else "—"]))
    if any(view["guesses"]) and not over:
        cols.append((["Judged as"], lambda s: [view["guesses"][s] or "—"]))
    if over:
        cols.append((["Loyalty", "Judged as", "Ambition"], lambda s: _final(view, words, s)))
    return cols


def court(view, words, viewer=None, phone=False):
    """One row a seat: cubes, cards in hand (decrees for a monarch), decrees in front; who judges
    whom when a Queen shares the judging; the monarchs' announced guesses at Final Judgment; at the
    end each noble's loyalty and ambition, and the winners."""
    cols = _court_columns(view, words, phone)
    res = view.get("result")
    rows = []
    for s in range(view["players"]):
        cells = [cell for _, make in cols for cell in make(s)]
        tags = ["winner" if s in res["winners"] else None] if res else _tags(view, s, viewer, phone)
        rows.append(dict(B.seat_row(words, s, cells, tags), target=_seat_spot(s)))
    return B.seats("Final Judgment" if res else "The court", [h for heads, _ in cols for h in heads], rows)


def decks(view):
    return B.facts([("Influence deck", view["deck"]), ("Discard pile", view["discard"]),
                    ("Decree deck", view["decree_deck"]), ("Mission deck", view["mission_deck"])], "Decks")


# --- the end --------------------------------------------------------------------------------------

def result(view, words):
    """Who won, in one sentence (the court below gives each noble's loyalty and ambition)."""
    res = view.get("result")
    if not res:
        return None
    nm = _names(view, words)
    realm_ = "Order" if res["realm"] == "order" else "Chaos"
    head = "%s wins the realm, Order %d to Chaos %d: %s. The monarchs' judgment was %s." % (
        realm_, res["order"], res["chaos"], winners_line(nm, res["winners"]),
        "right" if res["judgment_correct"] else "wrong")
    if res.get("agent"):
        head += " The Agent was a %s." % res["agent"]
    return B.text(head, "good" if res["realm"] == "order" else "bad")


# --- the pages ------------------------------------------------------------------------------------

def table_blocks(view, words):
    """The TV: the realm beside the missions, the court a seat a line across the whole width, the
    round track with the decks' sizes (style.css places them). At the end the result and the final
    court come first."""
    if view.get("result"):
        out = [result(view, words), realm(view, words, None, False), court(view, words), round_track(view, True)]
    else:  # the realm's facts need no title on the TV: their labels say it, and the room is short
        out = [realm(view, words, None, False), missions(view, words), court(view, words), round_track(view, True)]
    return [b for b in out if b]


def _ambition(view, words):
    """The seat's loyalty, and its ambition as a card (its name says the cubes it needs) noting
    what is still to gain with the cubes it has now."""
    inst = view.get("ambition_mine")
    if not inst:
        return []
    rec = _info(words, inst)
    have = view["cubes"][view["seat"]]
    short = {r: rec.get(r, 0) - have[r] for r in RES if rec.get(r, 0) > have[r]}
    note = "still to gain: %s" % cubes_words(short) if short else "met with your cubes now"
    return [B.facts([("Your loyalty", view["loyalty_mine"].capitalize())], "Only you know"),
            B.block("cards", "Your ambition", cards=[B.card(words, inst, note)])]


def _notes(view, words):
    """What this seat learned privately (Well-Placed Spy, Confess!, Melisandre), by round."""
    nm = _names(view, words)
    lines = []
    for note in view.get("notes", []):
        when = "Round %d: " % (note["space"] + 1)
        if note["what"] == "hand":
            lines.append(when + "%s held %s" % (nm.seat(note["seat"]), nm.cards(note["cards"])))
        elif note["what"] == "confess":
            lines.append(when + "%s discarded %s for Confess!" % (nm.seat(note["seat"]), nm.card(note["card"])))
        elif note["what"] == "mission":
            lines.append(when + "mission %d held %s" % (note["mission"] + 1, nm.cards(note["cards"])))
    if not lines:
        return None
    return B.panels("What you learned", [{"lines": lines}])


def secret_blocks(view, words):
    out = []
    if "hand" in view:
        out += _ambition(view, words)
        out.append(B.cards(words, "Your hand", view["hand"], empty="no cards"))
        plays = view.get("my_plays", [])
        if plays:
            out.append(B.block("cards", "Your cards on the missions this round",
                               cards=[B.card(words, c, "mission %d" % (i + 1)) for c, i in plays]))
        if view.get("my_confession"):
            out.append(B.cards(words, "Your discard for Confess!", [view["my_confession"]]))
    if "decree_hand" in view:
        out.append(B.cards(words, "Your decrees", view["decree_hand"], empty="no decrees"))
        if "partner_hand" in view:
            other = next(m for m in view["monarchs"] if m != view["seat"])
            out.append(B.cards(words, "%s's decrees" % words.seat(other), view["partner_hand"], empty="no decrees"))
    out.append(_notes(view, words))
    return [b for b in out if b]


def _my_asks(view, seat):
    return [a for a in view.get("asks", []) if a["seat"] == seat and "choices" in a]


def _characters(view, words):
    """The Character Boards for a noble choosing one: each board's two sides, and who took it."""
    boards = {}
    for rec in words.info.values():
        if rec.get("type") == "character":
            boards.setdefault(rec["board"], {})[rec["side"]] = rec["name"]
    taken = {_info(words, c)["board"]: words.seat(s) for s, c in enumerate(view["characters"]) if c}
    rows = [{"seat": i, "name": "%s board" % board.capitalize(),
             "cells": [sides.get("diamond", "—"), sides.get("other", "—"), taken.get(board, "free")],
             "tags": ["taken"] if board in taken else []}
            for i, (board, sides) in enumerate(sorted(boards.items()))]
    return B.block("seats", "The Character Boards",
                   columns=["Diamond side", "Other side", "Taken by"], rows=rows)


def _seen(view, words):
    """The cards Melisandre just looked at (her latest note), to take one of."""
    seen = [n for n in view.get("notes", []) if n["what"] == "mission"]
    if not seen:
        return None
    return B.cards(words, "The cards of mission %d" % (seen[-1]["mission"] + 1), seen[-1]["cards"])


def _resolving(view, words):
    if not view["resolving"]:
        return None
    return B.cards(words, "The decree being played", view["resolving"])


def _judged(view, words, ask):
    """Final Judgment: the noble being judged, as the table knows them."""
    s = (ask.get("data") or {}).get("target")
    if s is None:
        return None
    c = view["cubes"][s]
    return B.block("seats", "The noble you judge", columns=["Cubes", "Decrees in front"],
                   rows=[B.seat_row(words, s, [cubes_words(c) or "none", _decrees_in_front(view, words, s)])])


def about_blocks(view, words, seat):
    """What the seat's decision is about, shown right by its buttons."""
    asks = _my_asks(view, seat)
    if not asks:
        return [missions(view, words, seat)] if view["missions"] else [realm(view, words), round_track(view)]
    ask = asks[0]
    kind = ask["kind"]
    if kind == "character":
        return [_characters(view, words)]
    if kind == "melisandre_take":
        return [_seen(view, words), missions(view, words, seat)]
    if kind in MISSION_ASKS or (kind == "ability" and view["phase"] == "mission"):
        return [missions(view, words, seat)]
    if kind == "guess":
        return [_judged(view, words, ask), court(view, words, seat, phone=True)]
    if kind in ("discard", "confess"):
        return [B.cards(words, "Your hand", view.get("hand", []), empty="no cards")]
    if kind == "cube":
        return _ambition(view, words)
    if kind in ("trade_offer", "trade_accept"):
        return secret_blocks(view, words)
    if kind in ("decree", "vote", "tie_break", "first_hand", "confess_look", "ability"):
        return [_resolving(view, words), court(view, words, seat, phone=True)]
    return [realm(view, words), round_track(view)]


def seat_blocks(view, words, seat):
    if view.get("result"):
        about = [result(view, words), court(view, words, seat, phone=True)]
    else:
        about = about_blocks(view, words, seat)
    board = [realm(view, words), round_track(view), missions(view, words, seat),
             court(view, words, seat, phone=True), decks(view)]
    hand = view.get("hand", view.get("decree_hand", []))
    return {"about": [b for b in about if b], "board": [b for b in board if b],
            "secret": secret_blocks(view, words), "hand_count": len(hand)}
