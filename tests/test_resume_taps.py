"""A card laid while the host is dead becomes its move once `maester resume` is back; the cards that
were already played and still lie on the readers are not played again (issue 16, Durability).

The host (`maester play GAME --port`) is killed with SIGKILL, a player lays the next card on its
reader, and the game is resumed from its log: the board's snapshot then shows every card lying
there, and only the table's own record of what each card became (LOG.readers) tells which of them
the game has taken. Real processes throughout (tests/board_driver.py).
"""

import os
import random
import signal
import time

import pytest

from maester.engine import apply
from maester.engine.session import Session
from maester.table.simtable import tap_for
from board_driver import TableGame


def _next_is_a_tap(t, rng):
    """Play on until the next decision can be made by a tap alone; returns (command, reader, card)."""
    for _ in range(200):
        ask = t.direct["asks"][0]
        command = {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}
        found = tap_for(t.direct, t.places, command)
        if found is not None and t.resting:  # some played card lies on a reader by now
            place, card = found
            return command, t.readers.index(t.places[place]), card
        t.step(command)
    raise AssertionError("no tap came up")


@pytest.mark.parametrize("wait_s", [0.0, 4.0], ids=["board-still-waiting-for-acks", "board-knows-host-gone"])
def test_a_card_laid_while_the_host_is_dead_is_played_once_after_resume(tmp_path, wait_s):
    t = TableGame(tmp_path, "btwixt", 3, 4, ["short"])
    try:
        t.start()
        rng = random.Random(4)
        for _ in range(6):
            command, reader, card = _next_is_a_tap(t, rng)
            t.step(command)
        command, reader, card = _next_is_a_tap(t, rng)
        before = t.moves()
        lying = dict(t.resting)  # cards already played, still on their readers across the kill
        t.play.send_signal(signal.SIGKILL)
        t.play.wait()
        t.lay(reader, card)  # while nobody listens to the board
        time.sleep(wait_s)  # past 3 s the board has stopped waiting for the dead host's acks
        t.resume()
        t.await_move(before + 1, command, None)
        result = apply(t.direct, command)
        assert result.ok
        time.sleep(1.0)  # time for a card to come twice
        assert t.moves() == before + 1
        assert t.logged_state() == t.direct
        assert lying and all(t.resting[r] == c for r, c in lying.items() if r != reader)
        # and the game goes on from there as usual
        for _ in range(3):
            ask = t.direct["asks"][0]
            t.step({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
        time.sleep(0.5)
        assert t.logged_state() == t.direct
        assert "refused" not in t.output(), t.output()
    finally:
        t.close()


def test_a_kill_between_the_record_and_the_log_neither_loses_the_card_nor_plays_it_twice(tmp_path):
    # The runner writes what a card is becoming before the command goes to the log; on resume the
    # log decides: the move there means the card was played, its absence means it was not.
    from maester.link.serial_link import PLACED, Tap
    from maester.table import profile as P
    from maester.table.resting import RestingCards
    from maester.table.runner import TableRunner, sim_tags, sim_uid
    prof = P.for_game("btwixt", 3)
    session = Session.new("btwixt", {"players": 3, "variants": ["short"], "observe": ["allies", "hands"]}, 21,
                          log_path=str(tmp_path / "game.sqlite"))
    try:
        runner = TableRunner(session, prof, sim_tags(session.state), report=lambda text: None)
        runner.resting = RestingCards(session.log)
        runner.resting.start({})
        places = P.places(prof)
        ask = session.state["asks"][0]
        place, card = next(found for choice in ask["choices"]
                           if (found := tap_for(session.state, places, {"seat": ask["seat"], "ask": ask["id"],
                                                                        "choice": choice})))
        reader = [r["name"] for r in prof["readers"]].index(places[place])
        uid = bytes.fromhex(sim_uid(card))
        tap = Tap(reader, PLACED, uid, 1, 100)
        from maester.table.taps import command_for_tap
        command, _ = command_for_tap(session.state, place, card)
        runner._rest(tap, command)  # as if killed right here, before the log
        assert RestingCards(session.log).known(session.log) == {}  # not played: laid again on resume
        assert session.submit(command).ok
        assert RestingCards(session.log).known(session.log) == {reader: uid}  # played: known
        runner.on_tap(Tap(reader, "removed", uid, 1, 200))
        assert RestingCards(session.log).known(session.log) == {reader: None}
        # a record left by another game whose log had the same name is not this game's
        other = Session.new("btwixt", {"players": 3, "variants": ["short"], "observe": ["allies", "hands"]}, 22,
                            log_path=str(tmp_path / "other.sqlite"))
        try:
            os.replace(runner.resting.path, str(tmp_path / "other.sqlite.readers"))
            assert RestingCards(other.log).known(other.log) is None
        finally:
            other.close()
    finally:
        session.close()


def test_what_the_board_sends_again_after_a_kill_is_played_only_if_the_game_lacks_it():
    # A resumed game's Board replays what the board said before the game attached: taps the killed
    # host had already taken (sent again because they were never acked) are not played twice, and
    # the same card laid again is a new placement, even with no removal seen before it (it was
    # lifted while the board was still booting: bench chaos lost such a tap, seed 3133).
    from maester.link.serial_link import PLACED as P_, REMOVED as R_, ReaderState, Snapshot, Tap
    from maester.table.board import Board
    x, w = bytes.fromhex("04000000000001"), bytes.fromhex("04000000000002")
    snap = Snapshot(7, (ReaderState(0, "present", x), ReaderState(1, "absent", None)), {}, "same")

    class Link:  # the board layer hands the link what the game believes lies where (believe)
        def believe(self, seen):
            self.seen = dict(seen)

    def replay(early, known, taken):
        board = Board(Link(), "port", {})
        for kind, item in early:
            (board._tap if kind == "tap" else board._snapshot)(item)
        got = []
        board.attach(got.append, known, taken)
        return [(t.reader, t.kind, t.uid, t.time_ms) for t in got]

    # the killed host took W's removal and X's placement (move logged) but acked neither
    again = [("tap", Tap(0, R_, w, 7, 10)), ("tap", Tap(0, P_, x, 7, 30)), ("snapshot", snap)]
    assert replay(again, {0: x}, {(0, 7, 30)}) == []
    # X laid again, its removal never seen: a new placement
    relaid = [("tap", Tap(0, P_, x, 7, 57)), ("snapshot", snap)]
    assert replay(relaid, {0: x}, {(0, 7, 30)}) == [(0, P_, x, 57)]
    # X lifted and laid again, both seen: both go to the game
    both = [("tap", Tap(0, R_, x, 7, 40)), ("tap", Tap(0, P_, x, 7, 57)), ("snapshot", snap)]
    assert replay(both, {0: x}, {(0, 7, 30)}) == [(0, R_, x, 40), (0, P_, x, 57)]
    # a new game: nothing that lay there before it is a move
    assert replay(both, None, set()) == []


def test_a_taps_light_goes_out_before_its_log_sync_and_a_log_that_fails_it_puts_the_lights_back(tmp_path):
    # Tap to light does not wait for the disk (issue 29): once the rules applied the move its lights
    # go on the wire, then the card's record is kept, then the log writes and syncs the move, and the
    # tap is acked only after that. A log that fails the move restores the state, and the lights.
    import copy

    from maester.engine import PUBLIC, core
    from maester.engine.log import LogError
    from maester.link.serial_link import PLACED, Tap
    from maester.table import profile as P
    from maester.table.resting import RestingCards
    from maester.table.runner import TableRunner, sim_tags, sim_uid
    prof = P.for_game("btwixt", 3)
    places = P.places(prof)
    readers = [r["name"] for r in prof["readers"]]
    session = Session.new("btwixt", {"players": 3, "variants": ["short"], "observe": ["allies", "hands"]}, 21,
                          log_path=str(tmp_path / "game.sqlite"))

    class Link:
        def __init__(self):
            self.segments, self.sent = {}, None

        def set_segment(self, seg, *value):
            self.segments[seg] = value

        def send_leds_now(self):
            self.sent = dict(self.segments)

    def next_lit_tap(rng):
        """Play on until a tap makes a move that changes the lights; returns that tap."""
        for _ in range(300):
            ask = session.state["asks"][0]
            command = {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}
            found = tap_for(session.state, places, command)
            after = copy.deepcopy(session.state)
            core.apply(after, command)
            lights = runner.game_table.segments
            if found and lights(core.view(after, PUBLIC)) != lights(core.view(session.state, PUBLIC)):
                place, card = found
                return Tap(readers.index(places[place]), PLACED, bytes.fromhex(sim_uid(card)), 1, len(session.moves))
            assert runner.submit(command).ok
        raise AssertionError("no tap changed the lights")

    try:
        runner = TableRunner(session, prof, sim_tags(session.state), report=lambda text: None)
        runner.resting = RestingCards(session.log)
        runner.resting.start({})
        link = Link()
        runner.attach(link)
        rng = random.Random(3)
        seen = []
        append = session.log.append

        def append_seeing_the_wire(*args):
            seen.append((link.sent, RestingCards(session.log).known(session.log)))
            return append(*args)
        session.log.append = append_seeing_the_wire
        tap = next_lit_tap(rng)
        shown = dict(link.segments)
        seen.clear()
        runner.on_tap(tap)
        (sent, known), = seen
        assert sent == link.segments != shown  # the move's lights, on the wire before the log wrote
        assert known == {}  # the card's record says the move is coming, which the log does not have yet
        assert RestingCards(session.log).known(session.log) == {tap.reader: tap.uid}

        tap = next_lit_tap(rng)
        shown, moves = dict(link.segments), len(session.moves)

        def failing(*args):
            seen.append(link.sent)
            raise LogError("disk full")
        session.log.append = failing
        with pytest.raises(LogError):
            runner.on_tap(tap)
        assert seen[-1] != shown  # its lights went out...
        assert link.segments == shown and len(session.moves) == moves  # ...and back with the state
    finally:
        session.close()
