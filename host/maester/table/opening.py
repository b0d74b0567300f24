"""A real table opened for a game: its profile, the stickers its cards carry, and the board (or this
Raspberry Pi's readers and strip) connected and checked before anything is written.

`open_board` refuses, with the command that fixes it, a profile for another game, a missing board and
cards without a sticker (unless the players choose those on their pages); what the table does while it
opens is said on stdout by `report`.
"""

from .. import games
from ..engine import cardtables, core
from ..nfc.tags import NO_TAG, load_tags
from . import pi
from . import profile as profiles
from .board import connect, find_port
from .runner import sim_tags


def report(text):
    """What the table does (connecting, a card without a sticker), a line on stdout."""
    print("table: " + text, flush=True)


MISSING_SHOWN = 12  # cards named in the "no sticker" message; the rest are counted


def missing_stickers(state, tags):
    """The cards of this game (instance ids) that no enrolled sticker names, in a stable order.

    A game whose stickers are not its instances (the LCG: a sticker names a code and a copy, the
    reader says whose card it is) says what is missing itself, in its table module."""
    hook = getattr(games.part(state["game"], "table"), "missing_stickers", None)
    if hook is not None:
        return hook(state, tags)
    cards = cardtables.table(state)
    untagged = {i for key in NO_TAG.get(state["game"], ()) for i in cards.get(key, [])}
    have = set(tags.values())
    return sorted(c for c in set(sim_tags(state).values()) if c not in have and c not in untagged)


def missing_text(state, missing):
    cards = cardtables.table(state)
    info = cards.get("info") or cards.get("cards") or {}  # the LCG keeps its card records in "cards"
    game = state["game"]
    enroll = getattr(games.part(game, "table"), "enroll_command", lambda missing: "maester enroll %s" % game)(missing)

    def name(inst):
        base, _, copy = inst.partition("#")
        rec = info.get(base)
        several = copy and (copy != "1" or "%s#2" % base in missing)
        return (rec["name"] if rec else inst) + (" (copy %s)" % copy if several else "")
    filler = [c for c in missing if (info.get(c.split("#", 1)[0]) or {}).get("simulation")]
    shown = ", ".join(name(c) for c in missing[:MISSING_SHOWN])
    more = " and %d more" % (len(missing) - MISSING_SHOWN) if len(missing) > MISSING_SHOWN else ""
    text = ("%d cards of this game have no sticker enrolled: %s%s. Enroll them with `%s`, or start "
            "anyway with --allow-missing and choose those cards on the seat pages." % (len(missing), shown, more, enroll))
    if filler:
        text += (" %d of them stand for cards the card data lacks (simulation filler): add each card you own with "
                 "`maester cards add %s`, then enroll it." % (len(filler), game))
    return text


def open_board(state, port, profile_name, allow_missing, sim_stickers=False, table="board"):
    """Check the stickers, connect and check the board; returns a table.board.Board ready for `run`.

    With table "pi" (or a profile with a "pi" section) the readers and the strip hang off this
    Raspberry Pi instead (table/pi.py): a PiBoard, which `run` takes like a board.
    Raises ValueError (exit 2) with the reason and the command that fixes it; nothing is written.
    """
    game = state["game"]
    players = state["config"]["players"]
    profile = profiles.load(profile_name) if profile_name else profiles.for_game(game, players)
    if profile.get("game") not in (None, game) or profile.get("players") not in (None, players):
        raise ValueError("table profile %s is for %s with %s players; this is %s with %d"
                         % (profile["name"], profile.get("game"), profile.get("players"), game, players))
    on_pi = table == "pi" or pi.uses_pi(profile)
    if on_pi:
        pi.pi_config(profile)  # no Pi config is the first thing to say
    else:
        port = find_port(port)  # no board at all is the first thing to say
    tags = sim_tags(state) if sim_stickers else load_tags(game)
    missing = missing_stickers(state, tags)
    if missing and not allow_missing:
        raise ValueError(missing_text(state, missing))
    if missing:
        report("%d cards have no sticker: choose them on the seat pages when they come up" % len(missing))
    foreign = {uid: games.TITLES.get(g, g) for g in games.NAMES if g != game for uid in load_tags(g) if uid not in tags}
    board = pi.connect_pi(profile, report) if on_pi else connect(port, profile, report)
    board.tags, board.foreign = tags, foreign
    return board


def board_humans(session):
    """On a real table every seat is a person, and the table itself answers what it observes."""
    return list(range(core.get_game(session.state["game"]).seat_count(session.state))) + [core.TABLE]


def table_kind(board):
    """"pi" for a table driven by this Raspberry Pi, "board" for a board on a serial port (kept in the log)."""
    return "pi" if isinstance(board, pi.PiBoard) else "board"
