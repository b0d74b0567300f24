"""`undo` typed at the terminal's prompt (issue 30, item 1): ask the other human seats here, take the
last move back, then wait until the cards it moved lie where they were (table/undo.py decides who
agrees, what is warned of, and what each viewer may read of the cards)."""

from ..engine import PUBLIC, cardtables
from ..table.undo import Undo


class UndoAsked(Exception):
    """The person at the prompt typed `undo`."""


def run_undo(screen, by, humans, runner=None):
    """The undo asked by seat `by`, at the shared screen: the public table only, every card unnamed
    unless the public view shows it. With a table (`runner`), the seats whose cards move blink and
    a card tapped on any reader counts as put back. Returns the words said at the end."""
    screen.undo_ok = False  # an `undo` typed while this one is asked is no second undo
    try:
        return _agree_and_put_back(screen, by, humans, runner)
    finally:
        screen.undo_ok = True
        if runner is not None:
            runner.putting_back = None
            runner.refresh_leds()  # the LEDs show the state the game went back to


def _agree_and_put_back(screen, by, humans, runner):
    session = screen.session
    helper = Undo(session, humans)
    result = helper.ask(by)
    if not result.ok:
        return "Not undone: %s" % result.reason
    for line in helper.warn:
        screen.say("Warning: %s; it cannot be unseen." % line)
    while helper.waiting:
        seat = helper.waiting[0]
        text = screen.read("Seat %s: take back the last move? (y/n) " % seat).lower()
        result = helper.answer(seat, text in ("y", "yes"))
        if not result.ok:
            return "Not undone: %s" % result.reason
    names = screen.text.Names(session.state["g"], cardtables.of_config(screen.config))
    lines = helper.lines(PUBLIC, names.card)
    if lines:
        screen.say("Undone. Put these cards back:")
        for line in lines:
            screen.say("  " + line)
        if runner is not None:
            runner.putting_back = helper
            runner.refresh_leds()
        screen.read("Tap each card where it goes, or press Enter once they lie there (q quits) ")
        helper.confirm()
    return "Undone: the last move was taken back."
