"""Undo from the pages (issue 30, item 1): "Undo last move" on a seat page, the other seats' votes on
theirs, and the cards to put back on every page, each in the words its viewer may read
(table/undo.py decides who agrees, what is warned of and what a viewer may be told)."""

from .. import games
from ..engine import cardtables
from ..table.undo import Undo


def part(web, viewer):
    """What `viewer` (a seat or PUBLIC) sees of the undo under way, or None when there is none."""
    helper = web.undoing
    if helper is None or not (helper.waiting or helper.pending):
        return None
    state = web.session.state
    names = games.part(state["game"], "text").Names(state["g"], cardtables.of_config(state["config"]))
    return {"asked_by": helper.by, "waiting": list(helper.waiting), "warn": list(helper.warn),
            "vote": viewer in helper.waiting, "put_back": helper.lines(viewer, names.card)}


def choose(web, seat, what):
    """A seat page's undo button: "ask", "yes", "no" or "done" (the cards are back). Returns (status,
    {"ok", "reason"})."""
    if web.undoing is None:
        web.undoing = Undo(web.session, sorted(web.answerable))
    helper = web.undoing
    if what == "ask":
        result = helper.ask(seat)
    elif what in ("yes", "no"):
        result = helper.answer(seat, what == "yes")
    elif what == "done":
        helper.confirm()
        result = None
    else:
        return 400, {"ok": False, "reason": "send {\"undo\": \"ask\"|\"yes\"|\"no\"|\"done\"}"}
    if web.runner is not None:  # the table blinks the seats concerned and takes a re-tap as put back
        web.runner.putting_back = helper if helper.pending else None
        web.runner.refresh_leds()
    web.changed()
    if result is not None and not result.ok:
        return 409, {"ok": False, "reason": result.reason}
    return 200, {"ok": True, "reason": None}

