"""The card table lives outside the game state (engine/cardtables.py): the state names it by the hash
of its content, and a game log keeps the table itself once, checked against that hash on resume."""

import json
import sqlite3

import pytest

from maester import cli
from maester.engine.bots import RandomBot
from maester.engine import cardtables, core
from maester.engine.log import LogError
from maester.engine.session import Session

PLAYERS = {"btwixt": 4, "oathbreaker": 6, "lcg": 2, "intrigue": 4}


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_the_state_carries_the_tables_key_not_the_table(game):
    state, _ = core.new_game(game, {"players": PLAYERS[game]}, 1)
    key = state["config"]["cards"]
    table = cardtables.table(state)
    assert isinstance(key, str) and key == cardtables.digest(table)
    text = json.dumps(state)
    # The table's own JSON is larger than the whole state now (58 KB of a 63 KB B'Twixt state before).
    assert len(text) < len(json.dumps(table))
    assert len(text) < 16000, "%s state is %d bytes" % (game, len(text))
    for name in ("info", "ability_of", "eff"):
        assert name not in state["g"], "the game data still copies the table's %r" % name


def play(session, moves):
    bots = {}
    for _ in range(moves):
        ask = session.state["asks"][0]
        bot = bots.setdefault(ask["seat"], RandomBot(5, ask["seat"]))
        result = session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": bot.choose(None, ask)})
        assert result.ok


def forget_tables(monkeypatch):
    """As in a new process: no table registered yet."""
    monkeypatch.setattr(cardtables, "_BY_KEY", {})
    monkeypatch.setattr(cardtables, "_BY_ID", {})


def test_a_log_keeps_its_table_once_and_resumes_with_it_after_cards_db_changed(tmp_path, monkeypatch, capsys,
                                                                               shipped_data):
    path = tmp_path / "game.db"
    session = Session.new("btwixt", {"players": 4, "variants": ["advanced"]}, 3, log_path=path)
    play(session, 40)
    key, played = session.state["config"]["cards"], json.dumps(session.state, sort_keys=True)
    assert cardtables.table(session.state)["info"]["royal-decree"]["value"] != 7
    session.close()
    db = sqlite3.connect(str(path))
    rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
    db.close()
    assert json.loads(rows["config"])["cards"] == key
    assert cardtables.digest(json.loads(rows["card_table"])) == key
    assert sum(text.count('"royal-decree"') for text in rows.values()) == 1, "the table is kept once"

    # The owner corrects a card; a new game would use the new value, the logged game keeps its own.
    assert cli.main(["cards", "add", "btwixt", "--id", "royal-decree", "--value", "7"]) == 0
    capsys.readouterr()
    forget_tables(monkeypatch)
    resumed = Session.resume(path)
    try:
        assert resumed.state["config"]["cards"] == key
        assert json.dumps(resumed.state, sort_keys=True) == played
        assert cardtables.table(resumed.state)["info"]["royal-decree"]["value"] != 7
        play(resumed, 5)  # and it plays on
    finally:
        resumed.close()
    fresh, _ = core.new_game("btwixt", {"players": 4}, 3)
    assert fresh["config"]["cards"] != key
    assert cardtables.table(fresh)["info"]["royal-decree"]["value"] == 7


def test_a_logged_table_that_does_not_match_its_hash_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "game.db"
    session = Session.new("btwixt", {"players": 4}, 3, log_path=path)
    play(session, 10)
    session.close()
    db = sqlite3.connect(str(path))
    table = json.loads(db.execute("SELECT value FROM meta WHERE key = 'card_table'").fetchone()[0])
    table["info"]["royal-decree"]["value"] = 9  # a card changed by hand in the file
    db.execute("UPDATE meta SET value = ? WHERE key = 'card_table'", (json.dumps(table),))
    db.commit()
    db.close()
    forget_tables(monkeypatch)
    with pytest.raises(LogError, match="does not match its hash"):
        Session.resume(path)


def test_a_config_naming_an_unknown_table_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="no card table 'ct-missing'"):
        core.new_game("btwixt", {"players": 4, "cards": "ct-missing"}, 1)
