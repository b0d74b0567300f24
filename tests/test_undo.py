"""Undo by agreement (issue 30, item 1): per game, random games undone at random points."""

import json
import random

import pytest

from maester.engine import PUBLIC, REFEREE, core
from maester.engine.session import Session
from maester.table import undo as U

GAMES = [("btwixt", {"players": 3}), ("intrigue", {"players": 4}), ("lcg", {"players": 2}),
         ("oathbreaker", {"players": 5})]


def _same(a, b):
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _views(state):
    seats = range(core.get_game(state["game"]).seat_count(state))
    return {v: core.view(state, v) for v in list(seats) + [PUBLIC]}


def _payloads(session):
    """What each seat's page and the table page are sent (web/payload.py)."""
    from maester.web import payload
    seats = range(core.get_game(session.state["game"]).seat_count(session.state))
    out = {s: payload.seat_payload(session.state, session.events, s) for s in seats}
    out[PUBLIC] = payload.table_payload(session.state, session.events)
    return json.loads(json.dumps(out))


def _play(session, rng, moves):
    for _ in range(moves):
        state = session.state
        if state["over"]:
            return
        ask = state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok


@pytest.mark.parametrize("game,config", GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("seed", [1, 2])
def test_undo_at_random_points_restores_state_views_and_replays(tmp_path, game, config, seed):
    rng = random.Random(seed)
    path = tmp_path / "g.db"
    session = Session.new(game, config, seed, log_path=str(path))
    seats = range(core.get_game(game).seat_count(session.state))
    names = lambda c: c  # noqa: E731 (the card id stands for its name: any leak would show)
    for _ in range(3):
        _play(session, rng, rng.randrange(5, 40))
        if session.state["over"]:
            break
        before, views = json.loads(json.dumps(session.state)), _views(session.state)
        pages = _payloads(session)
        _play(session, rng, 1)
        undone = session.state
        moved = U.places(before) != U.places(undone)
        helper = U.Undo(session, humans=list(seats))
        assert helper.ask(0).ok and helper.waiting == [s for s in seats if s != 0]
        for s in list(helper.waiting):
            assert helper.answer(s, True).ok
        # the state, and every view, are those before the move
        assert _same(session.state, before)
        for viewer, view in _views(session.state).items():
            assert _same(view, views[viewer]), viewer
        assert _same(_payloads(session), pages)  # the pages (their logs too) are those before the move
        # the reconciliation lists exactly the cards whose place changed, and names none to a
        # viewer that could not see it before the move
        recon = {m["card"] for m in helper.pending}
        was, now = U.places(undone), U.places(before)
        assert recon == {c for c in set(was) | set(now) if was.get(c) != now.get(c)}
        assert bool(recon) == moved
        for viewer, view in views.items():
            text = json.dumps(view)
            for line, m in zip(helper.lines(viewer, names), helper.pending):
                assert (m["card"] in line) == (json.dumps(m["card"]) in text), (viewer, line)
        assert helper.confirm() == moved and not helper.pending
    # resume replays the log, undos included, to the same state; and the game goes on from it
    live = json.loads(json.dumps(session.state))
    session.close()
    again = Session.resume(str(path))
    assert _same(again.state, live)
    _play(again, rng, 3)
    again.close()


def test_a_simulated_deck_gives_the_same_outcome_back(tmp_path):
    """A move that draws by chance, undone and played again, draws the same (the generator is state)."""
    session = Session.new("btwixt", {"players": 3}, 7)
    rng = random.Random(7)
    for _ in range(200):
        ask = session.state["asks"][0]
        choice = rng.choice(ask["choices"])
        after = json.loads(json.dumps(session.state))
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok
        outcomes = session.moves[-1][1]
        if outcomes:
            first = json.loads(json.dumps(session.state))
            assert session.undo(0).ok
            assert _same(session.state, after)
            assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok
            assert session.moves[-1][1] == outcomes and _same(session.state, first)
            return
    pytest.fail("no move drew by chance in 200")


def test_nothing_to_undo_and_a_refusal():
    session = Session.new("intrigue", {"players": 4}, 3)
    helper = U.Undo(session, humans=[0, 1])
    assert not helper.ask(0).ok
    _play(session, random.Random(3), 2)
    assert helper.ask(0).ok and helper.waiting == [1]
    seq = session.state["seq"]
    assert not helper.answer(1, False).ok
    assert session.state["seq"] == seq  # refused: nothing taken back


def test_the_log_keeps_the_undone_move_and_the_undo(tmp_path):
    path = str(tmp_path / "g.db")
    session = Session.new("lcg", {"players": 2}, 5, log_path=path)
    _play(session, random.Random(5), 4)
    assert session.undo(1, [0]).ok
    rows = list(session.log.entries())
    assert len(rows) == 5 and rows[-1][1]["seat"] == "undo" and rows[-1][1]["choice"] == {"by": 1, "agreed": [0]}
    assert len(session.log.moves()) == 3
    _play(session, random.Random(6), 1)  # a move after an undo gets the next row
    assert [r[0] for r in session.log.entries()] == [1, 2, 3, 4, 5, 6]
    session.close()
    assert len(Session.resume(path).moves) == 4


def test_warns_of_a_card_seen(tmp_path):
    """A move that draws by chance is warned of before the others agree."""
    session = Session.new("btwixt", {"players": 3}, 7)
    rng = random.Random(7)
    for _ in range(200):
        _play(session, rng, 1)
        if session.moves[-1][1]:
            helper = U.Undo(session, humans=[0, 1])
            assert helper.ask(0).ok
            assert any("chance" in w for w in helper.warn)
            return
    pytest.fail("no move drew by chance")


def test_undo_typed_at_the_terminal_of_a_simulated_table_is_logged_and_resumes(tmp_path):
    """End to end: `play --sim` (the real firmware on a simulated board), a person types `undo`, the
    table lists the card to put back, Enter confirms it, and `resume` replays the undo."""
    import os
    import subprocess
    import sys

    from maester.engine.log import GameLog

    log = str(tmp_path / "g.sqlite")
    env = dict(os.environ, MAESTER_HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "maester.cli", "play", "btwixt", "--sim", "--plain", "--seed", "6",
                        "--human", "0", "--delay", "0", "--log", log], input="1\n1\n1\nundo\n\nq\n",
                       capture_output=True, text=True, env=env, timeout=180)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Undone. Put these cards back:" in out and "back to the hands of seat" in out
    assert "Undone: the last move was taken back." in out
    opened = GameLog.open(log)
    rows = list(opened.entries())
    standing = opened.moves()
    opened.close()
    undos = [c["seat"] for _, c, _ in rows].count("undo")
    assert undos >= 1 and len(standing) == len(rows) - 2 * undos
    assert standing[-1][1]["seat"] != 0  # the person's own move was taken back, bots' answers with it
    resumed = Session.resume(log)
    assert resumed.state["seq"] == len(standing) and len(resumed.moves) == len(standing)
    resumed.close()


def test_an_agreed_undo_on_the_simulated_board_waits_for_the_card_to_be_retapped(tmp_path):
    """The real firmware on a simulated board: a card is tapped into the court, the move is undone
    by agreement, the seat's LEDs blink until the card is tapped back, and then the strip is the
    one before the move; no move is taken while the card is out."""
    import time

    from maester.table.simtable import SimTable

    session = Session.new("intrigue", {"players": 3}, 8, log_path=str(tmp_path / "t.sqlite"))
    said = []
    sim = SimTable(session, report=said.append)
    rng = random.Random(8)
    try:
        while True:
            ask = session.state["asks"][0]
            command = {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}
            found = sim.tap_for(command)
            if found is not None and session.state["seq"] > 3:
                trial = json.loads(json.dumps(session.state))
                core.apply(trial, command)
                was, now = U.places(session.state), U.places(trial)
                if [c for c in now if now[c] != was.get(c)] == [found[1]]:  # a move of that card alone
                    break
            assert sim.submit(command).ok
        strip_before, views = sim.strip_text(), _views(session.state)
        frame_before = dict(sim.runner.shown)
        assert sim.submit(command).ok
        place, card = found
        reader = sim.readers.index(sim.places[place])
        helper = U.Undo(session, humans=[0, 1, 2])
        assert helper.ask(ask["seat"]).ok
        for seat in list(helper.waiting):
            assert helper.answer(seat, True).ok
        assert [m["card"] for m in helper.pending] == [card]
        sim.runner.putting_back = helper
        sim.runner.refresh_leds()
        seats = helper.pending[0]["seats"]
        assert seats and all(sim.runner.shown[sim.runner.seg_ids["seat%d" % s]][2] == 2 for s in seats)  # blink
        for viewer, view in _views(session.state).items():
            assert _same(view, views[viewer])
        seq = session.state["seq"]
        sim.board.lift(reader)
        sim.board.tap(reader, card)  # the card tapped back
        deadline = time.monotonic() + 10
        while helper.pending and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not helper.pending and session.state["seq"] == seq  # the re-tap played nothing
        sim.runner.putting_back = None
        assert sim.strip_text() == strip_before and sim.runner.shown == frame_before
        assert any("put back: 0 cards to go" in s for s in said)
    finally:
        sim.close()
        session.close()


def test_undo_from_the_seat_pages_in_chromium(chromium):
    """Seat 0 presses "Undo last move", seat 1 agrees on its page, and every page lists the card to
    put back, unnamed where its viewer could not see it; the payloads then are those before the move,
    but for the undo part."""
    from test_web import open_page, seat_url, served, wait_until

    session = Session.new("intrigue", {"players": 4, "owner_cards": False}, 3)
    _play(session, random.Random(3), 14)
    while session.state["asks"][0]["seat"] not in (0, 1):  # the next move is a person's
        _play(session, random.Random(3), 1)
    before = json.loads(json.dumps(session.state))
    mover = session.state["asks"][0]["seat"]
    _play(session, random.Random(4), 1)
    while session.state["asks"][0]["seat"] not in (0, 1):  # and the bots' answers after it
        _play(session, random.Random(4), 1)
    ctx = chromium.new_context(viewport={"width": 1100, "height": 900})
    try:
        with served(session, answerable=[0, 1]) as (web, base):
            pages = {s: open_page(ctx.new_page(), seat_url(web, base, s)) for s in (0, 1)}
            table = open_page(ctx.new_page(), base + "/table")
            pages[0].click("button.undo-ask")
            pages[1].wait_for_selector('[data-undo="asked"] button:has-text("Agree")').click()
            for pg in list(pages.values()) + [table]:
                pg.wait_for_selector('[data-undo="put-back"] ul.put-back li')
            assert _same(session.state, before)
            lines = {v: pg.inner_text("ul.put-back") for v, pg in list(pages.items()) + [(PUBLIC, table)]}
            moved = web.undoing.pending
            assert moved and json.dumps(moved[0]["card"]) in json.dumps(core.view(session.state, mover))
            for viewer, text in lines.items():
                shown = json.dumps(moved[0]["card"]) in json.dumps(core.view(session.state, viewer))
                assert text.startswith("a card") != shown, (viewer, text)
            assert not lines[mover].startswith("a card") and lines[PUBLIC].startswith("a card")
            pages[1].click('button:has-text("The cards are back")')
            wait_until(lambda: web.undoing.pending == [])
    finally:
        ctx.close()
