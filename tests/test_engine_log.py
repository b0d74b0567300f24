"""For every game: the log folds back into the live state, at any point, and a resumed game equals it."""

import random

import pytest

from maester.engine.session import Session, replay

CASES = [
    ("btwixt", {"players": 5}), ("btwixt", {"players": 4, "variants": ["advanced", "draft"]}),
    ("btwixt", {"players": 3, "variants": ["revealed", "kingsmoot"], "observe": ["allies", "hands"]}),
    ("intrigue", {"players": 2}), ("intrigue", {"players": 5}),
    ("oathbreaker", {"players": 6}), ("oathbreaker", {"players": 8, "variants": ["night_is_dark"]}),
]


@pytest.mark.parametrize("game,config", CASES)
def test_the_log_folds_back_into_the_live_state(tmp_path, game, config):
    session = Session.new(game, config, 7, log_path=tmp_path / "g.sqlite")
    rng = random.Random(7)
    while not session.state["over"]:
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
        if session.state["seq"] in (1, 20, 45, 200):
            folded, _ = replay(session.log)
            assert folded == session.state
    folded, events = replay(session.log)
    assert folded == session.state and events == session.events
    session.close()
    resumed = Session.resume(tmp_path / "g.sqlite")
    assert resumed.state == session.state
    resumed.close()
