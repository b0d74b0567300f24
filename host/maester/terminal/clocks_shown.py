"""The seats' clocks (table/clocks.py) at a live table: started from the command line or the log,
stopped while the board is lost, and shown on the LEDs (a low seat's segment blinks), on the pages
(through the Pacer) and on this terminal."""

from ..table import clocks


def start(session, people, sim, board, pacer, wanted=None, zero=None, now=None):
    """The SessionClocks of this game (None without clocks), hooked to the table and the pacer."""
    found = clocks.start(session, people, wanted, zero, now)
    if found is None:
        return None
    runner = getattr(sim, "runner", None)
    if runner is not None:
        runner.clocks = found  # the LEDs: TableRunner.refresh_leds
        found.listeners.append(runner.refresh_leds)
    found.listeners.append(lambda: pacer.on_change() if pacer.on_change is not None else None)
    notice = getattr(board, "lost", None)  # a board's link: the clocks stop while it is lost
    if notice is not None and hasattr(notice, "listeners"):
        notice.listeners.append(lambda lost: found.pause("board") if lost else found.unpause("board"))
    return found


def line(found):
    return clocks.clock_line(found.public(), lambda s: "Seat %s" % s)


def pause_or_go(found):
    """`p` and Enter at the terminal: the game is paused (the clocks stop), or goes on."""
    if "paused" in found.clocks.paused:
        found.unpause("paused")
        return "The clocks run again."
    found.pause("paused")
    return "Paused: the clocks are stopped (p and Enter starts them again)."


def out(found, seat):
    """Whether `seat` is out of time: the table answers its decisions (no prompt for them)."""
    return found is not None and found.out_of_time(seat)
