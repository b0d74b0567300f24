"""For every game: the log folds back into the live state, at any point, and a resumed game equals it;
a damaged log is refused, naming the file, and left as it is."""

import random
import sqlite3

import pytest

from maester import cli
from maester.engine.log import LogError
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


# --- a damaged log is refused, naming the file and what is wrong, and left as it is ------------


@pytest.fixture(scope="module")
def whole_log(tmp_path_factory):
    """A whole 4-player B'Twixt game's log, and the first entry that drew chance outcomes."""
    path = tmp_path_factory.mktemp("log") / "whole.sqlite"
    session = Session.new("btwixt", {"players": 4}, 7, log_path=path, extra={"humans": [], "delay": 0})
    rng = random.Random(7)
    while not session.state["over"]:
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    session.close()
    db = sqlite3.connect(str(path))
    drew = db.execute("SELECT min(seq) FROM entries WHERE outcomes != '[]'").fetchone()[0]
    db.close()
    assert drew
    return path, drew


DAMAGE = {
    "outcomes a string": ("UPDATE entries SET outcomes = '[\"x\"]' WHERE seq = {drew}", "entry {drew} of the game log",
                          'chance outcomes must be a list of whole numbers from 0, not ["x"]'),
    "outcomes an object": ("UPDATE entries SET outcomes = '{{\"a\": 1}}' WHERE seq = {drew}", "entry {drew} of",
                           'not {{"a": 1}}'),
    "outcomes a fraction": ("UPDATE entries SET outcomes = '[0.5]' WHERE seq = {drew}", "entry {drew} of", "not [0.5]"),
    "outcomes negative": ("UPDATE entries SET outcomes = '[-1]' WHERE seq = 1", "entry 1 of", "not [-1]"),
    "extra a list": ("UPDATE meta SET value = '[1]' WHERE key = 'extra'", "is damaged",
                     "header's extra must be an object, not [1]"),
    "setup outcomes": ("UPDATE meta SET value = '[\"x\"]' WHERE key = 'setup_outcomes'", "is damaged",
                       "setup_outcomes must be a list of whole numbers from 0"),
    "config a list": ("UPDATE meta SET value = '[1]' WHERE key = 'config'", "is damaged", "config must be an object"),
    "unknown game": ("UPDATE meta SET value = '\"chess\"' WHERE key = 'game'", "does not replay", "unknown game 'chess'"),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_damaged_log_is_refused_naming_the_file_and_left_as_it_is(case, whole_log, tmp_path, capsys, monkeypatch):
    source, drew = whole_log
    sql, where, words = (text.format(drew=drew) for text in DAMAGE[case])
    path = tmp_path / "damaged.sqlite"
    path.write_bytes(source.read_bytes())
    db = sqlite3.connect(str(path))
    db.execute(sql)
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(LogError) as e:
        Session.resume(path)
    assert str(path) in str(e.value) and where in str(e.value) and words in str(e.value), e.value
    assert path.read_bytes() == before
    # and `maester resume --log` says the same, with exit status 2
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    assert cli.main(["resume", "--log", str(path), "--plain", "--no-web"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("maester: ") and str(path) in err and words in err and "Traceback" not in err
    assert path.read_bytes() == before
