"""A game played from this terminal to its end: `run` takes the first open ask, exactly as `sim.play_one`
does: a bot seat answers with its bot, a person's seat at the keyboard (the Screen) or on their seat
page, and with a table (the simulated one, a board, or this Raspberry Pi's readers) every move a tap
can express is made by a tap. Every command goes through `Session.submit`, so it is in the log,
synced, before it is shown.
"""

import sys
import time

from ..engine import core
from ..engine.bots import card_info, decide, make_bot
from ..engine.session import EngineFault
from ..table import asking, bothands
from ..table.asking import Pacer
from ..table.board import BoardTable
from ..table.opening import report
from ..table.simtable import SimTable
from ..web.launch import clock_wanted, serving, window_ms
from . import clocks_shown
from .screen import Answered, Quit, Screen
from .undo import UndoAsked, run_undo


def run(session, humans, bots_kind, delay, plain, note="", table=False, board=None, pages=None, hands=()):
    """Play `session` to its end (or until a person quits). Returns the exit status.

    `humans`: the people's seats; `pages`: those of them who decide on their seat page (`--page`),
    the others at this keyboard (`--human`). None: every person on a page (a board's table). A seat
    meant for a page is asked at the keyboard when no pages are served (--no-web).

    With `table`, every move that a tap can express is made on a simulated board (a `maester
    sim-board` process, opened by its port name) and the LED strip is drawn under the table.
    With `board` (a connected table.board.Board), people play on that board: taps are moves, the
    rest is decided on the seat pages, and the terminal shows the public table.
    `hands`: seats a bot plays whose cards a person taps, told what to tap on a hands page
    (table/bothands.py); on the simulated table its simulated hands tap after `delay`.
    """
    sim = None
    if board is not None:
        sim = BoardTable(board, session, board.tags, report=report, foreign=board.foreign)
    elif table:
        sim = SimTable(session, report=report)
    # The table answers the people's decisions that need no person, and times their windows
    # (table/asking.py); its answers go the way a page's do (the runner's submit on a table).
    runner = getattr(sim, "runner", None)
    pacer = Pacer(session, humans, window_ms(), submit=runner.submit if runner is not None else None)
    pacer.clocks = clocks_shown.start(session, humans, sim, board, pacer, *clock_wanted())
    driver = None
    try:
        driver = bothands.driver_for(session, sim, hands, bots_kind, delay)
        on_pages = list(humans) if pages is None else [s for s in humans if s in pages]
        with serving(session, sim, on_pages, board=board is not None, pacer=pacer,
                     hands=driver.hands if driver is not None else None) as web:
            if board is not None and web is None:
                report("no seat pages (--no-web): only what a tap can say can be played")
                if driver is not None:
                    report("no hands page (--no-web): the bot-hands seats' handlers cannot see what to tap")
            on_pages = on_pages if web is not None else ()
            # At the keyboard a prompt cannot be timed: a window with a choice waits for it.
            pacer.asking.prompted = {s for s in humans if s not in on_pages}
            pacer.start()
            if driver is not None:
                driver.start()
            status = _loop(session, humans, bots_kind, delay, plain, note, sim, on_pages=on_pages, pacer=pacer,
                           driver=driver)
            if web is not None and session.state["over"]:
                _keep_pages_up()
            return status
    finally:
        pacer.stop()
        if pacer.clocks is not None:
            pacer.clocks.close()
        if driver is not None:
            driver.stop()
        if sim is not None:
            sim.close()


def _keep_pages_up():
    """The pages show the final result until the person at the keyboard lets them go.

    Only when someone is there to answer (a terminal, as for the prompt before the game): from a
    pipe or a test it returns at once, so nothing hangs."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return
    print("The game is over; its pages stay up until you press Enter (or Ctrl-C).", flush=True)
    try:
        input()
    except (EOFError, KeyboardInterrupt):
        print()


def _wait_for_page(session, ask_id, on_change, wait, poll=0.05):
    """Wait until a seat's page answered `ask_id` (the page submits through the session's lock),
    calling `on_change` (under the lock) whenever another command was accepted meanwhile: with several
    decisions open at once (every seat tapping its hand, plots chosen together) the others' answers
    must show while this one is still awaited. `wait(poll)` passes the time between two looks (the
    screen reads what is typed meanwhile: q stops the game)."""
    seq = None
    while True:
        with session.lock:
            state = session.state
            if state["over"] or all(a["id"] != ask_id for a in state["asks"]):
                return
            if seq is not None and state["seq"] != seq:
                on_change()
            seq = state["seq"]
        wait(poll)


def _closed(session, ask_id):
    with session.lock:
        return session.state["over"] or core.find_ask(session.state, ask_id) is None


def _loop(session, humans, bots_kind, delay, plain, note, sim, on_pages=(), pacer=None, driver=None):
    state = session.state
    game = core.get_game(state["game"])
    info = card_info(state)
    seats = range(game.seat_count(state))
    hands = driver.hands.seats if driver is not None else ()
    bots = {s: make_bot(state["game"], bots_kind, state["seed"], s, info) for s in seats
            if s not in humans and s not in hands}
    keyboard = [s for s in humans if s not in on_pages]
    screen = Screen(session, keyboard, delay, plain)
    screen.strip = getattr(sim, "strip_text", None)  # a real strip is on the table, not on screen
    screen.profile = getattr(sim, "profile", None)
    if pacer is not None and pacer.clocks is not None:
        screen.clocks = lambda: clocks_shown.line(pacer.clocks)
        screen.pause = lambda: clocks_shown.pause_or_go(pacer.clocks)
    submit = getattr(sim, "submit", None) or session.submit
    path = session.log.path if session.log else None
    try:
        screen.start(note)
        while not session.state["over"]:
            with session.lock:  # read whole: the table (pacer) and the pages answer from other threads
                state = session.state
                if state["over"]:
                    break
                ask = state["asks"][0]
            seat = ask["seat"]
            window = seat in humans and asking.is_window(state, ask)
            if window and (seat in on_pages or not asking.put_to_person(state, ask)):
                # A window: this shared screen says the same whether the seat could act or not; the
                # seat acts on its page or with a tap, or the table closes it when its time is up.
                screen.waiting("%s window closes in %.1f s…"
                               % ("The table's" if seat == core.TABLE else "Seat %s's" % seat,
                                  pacer.asking.window_ms / 1000.0))
                pacer.wait_closed(ask["id"])
                screen.after(seat)
                continue
            if seat in humans and (not asking.put_to_person(state, ask) or clocks_shown.out(pacer.clocks, seat)):
                # A lone answer that moves no card, or a seat out of time: the table gives it.
                pacer.wait_closed(ask["id"])
                screen.after(seat)
                continue
            if seat in on_pages:
                # With seat pages, a person decides on their own page: the shared screen shows
                # only the public table, so no hand needs hiding while it changes hands.
                text = "Waiting for %s (a tap, or their page)…" % ("the table" if seat == core.TABLE
                                                                    else "seat %s" % seat)
                screen.waiting(text)
                _wait_for_page(session, ask["id"], lambda: screen.catch_up(text), lambda t: screen.typed(t, text))
                screen.after(seat)
                continue
            if seat in hands:  # its bot has chosen; its handler taps the card (or the table applies it)
                screen.waiting("Seat %s's bot: its handler taps what its hands page says…" % seat)
                driver.wait_closed(ask["id"])
                screen.after(seat)
                continue
            if seat in keyboard:
                if pacer is not None and pacer.clocks is not None:  # a clock at zero answers in its place
                    screen.gone = lambda: _closed(session, ask["id"])
                try:
                    choice = screen.ask_human(ask)
                except Answered:
                    screen.say("Seat %s's time ran out: the table answered for it (the README's Clocks)." % seat)
                    screen.after(seat)
                    continue
                except UndoAsked:
                    screen.say(run_undo(screen, seat, humans, getattr(sim, "runner", None)))
                    continue
            else:
                bot = bots[seat]
                with session.lock:  # the table's answers (pacer) and the pages may change the state meanwhile
                    choice = decide(bot, state, seat, ask, core.view)
            result = submit({"seat": seat, "ask": ask["id"], "choice": choice})
            if not result.ok:
                if seat not in bots:
                    screen.refused("Not accepted: %s" % result.reason)
                    continue
                raise RuntimeError("bot %s chose an illegal move: %s" % (seat, result.reason))
            screen.after(seat)
    except Quit as q:
        if len(keyboard) > 1:
            screen.clear()  # do not leave a hand on the screen
        screen.leave(table=True)
        screen.say("\n%s The game is saved in %s (%d moves); continue it with: maester resume --log %s"
                   % ("Input ended." if q.eof else "Stopped.", path, session.state["seq"], path))
        return 1 if q.eof else 0
    except EngineFault as e:
        screen.leave(table=True)
        screen.say("maester: %s. Continue with: maester resume --log %s" % (e, path))
        return 1
    finally:
        # Whatever stopped the game (Ctrl-C, an error), the normal screen comes back, with the public
        # table when the game is not over (at its end `finish` prints it with the scores).
        screen.leave(table=not session.state["over"])
    screen.finish()
    if path:
        screen.say("The game's log: %s" % path)
    return 0
