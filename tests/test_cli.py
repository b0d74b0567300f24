"""The command line tried as a new user would: every bad input is a clear message, exit status 2,
and nothing written."""

import argparse
import importlib
import os

import pytest

from maester import argtypes, cli, games
from maester.engine import core
from maester.cards import db as cardsdb


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """An empty MAESTER_HOME that a refused command must leave as it found it (absent)."""
    path = tmp_path / "home"
    monkeypatch.setenv("MAESTER_HOME", str(path))
    monkeypatch.delenv("MAESTER_CARDS_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    return path


def run(capsys, *argv):
    """(exit status, stdout, stderr) of `maester ARGV`, parse errors included."""
    try:
        code = cli.main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def tree(path):
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


# --- item 1: numbers out of range are refused while parsing, naming the range -----------------

OUT_OF_RANGE = {
    "sim players 0": (["sim", "--players", "0"], ["--players", "0", "from 2 to 8"]),
    "sim players 9": (["sim", "oathbreaker", "--players", "9"], ["--players", "9", "from 2 to 8"]),
    "sim games 0": (["sim", "--games", "0"], ["--games", "0", "from 1 to 1000000"]),
    "sim games -1": (["sim", "--games", "-1"], ["--games", "-1", "from 1 to 1000000"]),
    "sim games x": (["sim", "--games", "lots"], ["--games", "'lots'", "whole number from 1"]),
    "bench games 0": (["bench", "engine", "--games", "0"], ["--games", "0", "from 1 to"]),
    "bench players 1": (["bench", "engine", "--players", "1"], ["--players", "1", "from 2 to 8"]),
    "cards add copies": (["cards", "add", "btwixt", "--name", "X", "--type", "ally", "--power", "2",
                          "--ability", "none", "--copies", "1000000"], ["--copies", "1000000", "from 1 to 10"]),
    "cards add copies 0": (["cards", "add", "btwixt", "--id", "varys", "--copies", "0"], ["--copies", "from 1 to 10"]),
    "enroll only 0": (["enroll", "btwixt", "--sim", "--only", "0"], ["--only", "0", "at least 1"]),
    "enroll timeout nan": (["enroll", "btwixt", "--sim", "--timeout", "nan"], ["--timeout", "'nan'", "seconds"]),
    "hw test auto inf": (["hw", "test", "--sim", "--auto", "inf"], ["--auto", "'inf'", "from 0 to 60"]),
    "hw test timeout -1": (["hw", "test", "--sim", "--timeout", "-1"], ["--timeout", "-1", "from 0.1 to 600"]),
    "flash repl-wait nan": (["firmware", "flash", "--port", "/dev/null", "--repl-wait", "nan"],
                            ["--repl-wait", "'nan'", "from 0 to 60"]),
    "doctor timeout 0": (["doctor", "--timeout", "0"], ["--timeout", "0", "from 0.1 to 600"]),
    "serve web-port": (["serve", "--log", "x.sqlite", "--web-port", "70000"], ["--web-port", "70000", "0 to 65535"]),
    # play, resume and demo: each game's own player range is still checked by its config.
    "play players 9": (["play", "btwixt", "--sim", "--players", "9"], ["--players", "9", "from 2 to 8"]),
    "play players 1 on a board": (["play", "intrigue", "--players", "1"], ["--players", "1", "from 2 to 8"]),
    "play players x": (["play", "btwixt", "--sim", "--players", "four"], ["--players", "'four'", "from 2 to 8"]),
    "demo players 0": (["demo", "--players", "0"], ["--players", "0", "from 2 to 8"]),
    "demo players 9": (["demo", "oathbreaker", "--players", "9"], ["--players", "9", "from 2 to 8"]),
    "play delay -1": (["play", "btwixt", "--sim", "--delay", "-1"], ["--delay", "-1", "seconds from 0 to 60"]),
    "play delay nan": (["play", "btwixt", "--sim", "--delay", "nan"], ["--delay", "'nan'", "seconds from 0 to 60"]),
    "play delay inf": (["play", "intrigue", "--sim", "--delay", "inf"], ["--delay", "'inf'", "from 0 to 60"]),
    "play delay 1e300": (["play", "btwixt", "--sim", "--delay", "1e300"], ["--delay", "1e300", "from 0 to 60"]),
    "resume delay -1": (["resume", "--delay", "-1"], ["--delay", "-1", "seconds from 0 to 60"]),
    "resume delay -inf": (["resume", "--delay=-inf"], ["--delay", "'-inf'", "from 0 to 60"]),
    "play port missing": (["play", "btwixt", "--port", "/nonexistent/ttyACM7"],
                          ["--port", "/nonexistent/ttyACM7: no such file or directory", "maester doctor"]),
    "resume port missing": (["resume", "--port", "/nonexistent/ttyACM7"],
                            ["--port", "/nonexistent/ttyACM7: no such file or directory"]),
    "play web-port": (["play", "btwixt", "--sim", "--web-port", "70000"], ["--web-port", "70000", "0 to 65535"]),
    "resume web-port": (["resume", "--web-port", "-1"], ["--web-port", "-1", "0 to 65535"]),
    "demo web-port": (["demo", "--web-port", "http"], ["--web-port", "'http'", "0 to 65535"]),
}


@pytest.mark.parametrize("case", sorted(OUT_OF_RANGE))
def test_a_number_out_of_range_is_refused_while_parsing(case, capsys, home, tmp_path):
    argv, words = OUT_OF_RANGE[case]
    before = tree(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert all(w in err for w in words), err
    assert "Traceback" not in err and not out
    assert tree(tmp_path) == before


def test_argtypes_refuse_nan_inf_and_non_numbers_and_name_the_range():
    whole, secs = argtypes.int_range(1, 8), argtypes.seconds(0, 60)
    assert whole("3") == 3 and secs("2.5") == 2.5 and secs("0") == 0.0
    assert whole.span == "a whole number from 1 to 8" and secs.span == "a number of seconds from 0 to 60"
    assert argtypes.int_range(1).span == "a whole number of at least 1"
    for f, bad in ((whole, "0"), (whole, "9"), (whole, "2.0"), (whole, "two"), (secs, "nan"), (secs, "inf"),
                   (secs, "-inf"), (secs, "61"), (secs, "1e400")):
        with pytest.raises(argparse.ArgumentTypeError) as e:
            f(bad)
        assert "from" in str(e.value) and bad in str(e.value)


def test_sim_help_lists_every_games_variants(capsys):
    code, out, _ = run(capsys, "sim", "--help")
    assert code == 0
    text = " ".join(out.split())
    for word in ("B'Twixt: advanced", "kingsmoot", "Intrigue: floor", "most_swords", "Oathbreaker: aloof_king",
                 "order_in_court", "Oathbreaker 5 to 8 (default 6)"):
        assert word in text, text


@pytest.mark.parametrize("name", games.NAMES)
def test_what_the_commands_say_of_a_game_is_what_its_rules_accept(name):
    # maester/games/__init__.py tells the help texts a game's seats and variants without loading its
    # rules: it must say what the game's own check_config accepts, and nothing else.
    rules = core.get_game(name)
    lo, hi = games.PLAYERS[name]
    assert lo <= games.DEFAULT_PLAYERS[name] <= hi
    for n in (lo, hi):
        rules.check_config({"players": n, "variants": []})
    for n in (lo - 1, hi + 1):
        with pytest.raises(ValueError):
            rules.check_config({"players": n, "variants": []})
    accepted = set(importlib.import_module("maester.games.%s" % name).VARIANTS)
    assert set(games.VARIANTS[name]) <= accepted
    # Intrigue also accepts two old names that are the rules' defaults now, for games saved before.
    assert accepted - set(games.VARIANTS[name]) <= ({"wide", "winner_pays"} if name == "intrigue" else set())


def test_sim_plays_the_games_asked_for(capsys):
    code, out, err = run(capsys, "sim", "intrigue", "--players", "2", "--games", "1")
    assert code == 0, err
    assert "intrigue, 2 players" in out and "1 games" in out


# --- item 5: MAESTER_HOME that is a file; a damaged $MAESTER_HOME/last ------------------------

@pytest.mark.parametrize("argv", [["cards", "check", "btwixt"], ["cards", "add", "btwixt", "--name", "X", "--type",
                                  "ally", "--power", "2", "--ability", "none"], ["sim", "--games", "1"],
                                  ["resume", "--plain"], ["enroll", "btwixt", "--missing"]])
@pytest.mark.parametrize("where", ["file", "under a file"])
def test_maester_home_that_is_a_file_is_named(argv, where, home, capsys, monkeypatch):
    home.write_text("not a directory\n")
    if where == "under a file":
        monkeypatch.setenv("MAESTER_HOME", str(home / "sub"))
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert "MAESTER_HOME" in err and "%s is a file" % home in err and "directory" in err and "Traceback" not in err
    assert home.read_text() == "not a directory\n"


def test_read_last_returns_the_last_games_log(home, tmp_path):
    log = tmp_path / "g.sqlite"
    log.write_bytes(b"")
    home.mkdir()
    (home / "last").write_text(str(log) + "\n")
    assert cardsdb.read_last() == log


@pytest.mark.parametrize("content,words", [
    (None, "there is no game to resume"),
    (b"", "is empty"),
    (b"\n  \n", "is empty"),
    (b"\x00\xff garbage\nmore", "does not hold the path of a game log"),
    (b"/one.sqlite\n/two.sqlite\n", "does not hold the path of a game log"),
    (b"/nowhere/game.sqlite\n", "/nowhere/game.sqlite, which is not there"),
])
def test_read_last_refuses_a_missing_empty_or_garbled_file(content, words, home):
    home.mkdir()
    if content is not None:
        (home / "last").write_bytes(content)
    with pytest.raises(ValueError) as e:
        cardsdb.read_last()
    assert str(home / "last") in str(e.value) and words in str(e.value), e.value
    assert "--log" in str(e.value)


@pytest.mark.parametrize("content,words", [
    (b"", "is empty"),
    (b"\x00\xff garbage\nmore", "does not hold the path of a game log"),
    (b"/nowhere/game.sqlite\n", "/nowhere/game.sqlite, which is not there"),
])
def test_resume_reads_the_last_game_through_read_last(content, words, home, capsys):
    home.mkdir()
    (home / "last").write_bytes(content)
    code, out, err = run(capsys, "resume", "--plain")
    assert code == 2, (out, err)
    assert str(home / "last") in err and words in err and "Traceback" not in err, err
    assert (home / "last").read_bytes() == content and sorted(p.name for p in home.iterdir()) == ["last"]


# --- item 6: `serve` names its web port --web-port, as `play` does; --port is the serial port ---

def test_serve_refuses_port_which_is_the_serial_ports_name(tmp_path, capsys):
    # test_web.py::test_maester_serve_serves_a_saved_game serves on the port given with --web-port.
    code, out, err = run(capsys, "serve", "--log", str(tmp_path / "g.sqlite"), "--port", "8000")
    assert code == 2 and "unrecognized arguments: --port" in err
    assert "--web-port N" in run(capsys, "serve", "--help")[1]


# --- issue 25, item 10: paths that cannot be used are one line and exit 2, never a traceback -------

def _logged_game(path):
    from maester.engine.session import Session
    session = Session.new("btwixt", {"players": 3, "variants": ["short"]}, 1, log_path=str(path))
    session.close()
    return path


def _bad_path_cases(tmp_path, home):
    afile = tmp_path / "F"
    afile.write_text("a file\n")
    long = "x" * 300 + ".sqlite"
    game = tmp_path / "acks-dir" / "g.sqlite"
    game.parent.mkdir()
    _logged_game(game)
    (tmp_path / "acks-dir" / "g.sqlite.acks").unlink()
    (tmp_path / "acks-dir" / "g.sqlite.acks").mkdir()
    built = tmp_path / "built"
    built.write_text("not a folder\n")
    return {
        "log under a file": (["play", "btwixt", "--sim", "--no-table", "--no-web", "--log", str(afile / "g.sqlite")],
                             [str(afile), "not a folder"]),
        "resume under a file": (["resume", "--plain", "--log", str(afile / "g.sqlite")], [str(afile)]),
        "log name too long": (["play", "btwixt", "--sim", "--no-table", "--no-web", "--log", long], ["too long"]),
        "acks a folder": (["resume", "--plain", "--no-web", "--log", str(game)], [str(game) + ".acks"]),
        "sim-board without players": (["sim-board", "--game", "btwixt"], ["--players"]),
        "flash --out a file": (["firmware", "flash", "--port", "/dev/null", "--out", str(built)], [str(built)]),
    }


@pytest.mark.parametrize("case", ["log under a file", "resume under a file", "log name too long", "acks a folder",
                                  "sim-board without players", "flash --out a file"])
def test_a_path_that_cannot_be_used_is_one_line_and_exit_2(case, capsys, home, tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_MPREMOTE", "true")  # flash finds its tool and goes on to build
    argv, words = _bad_path_cases(tmp_path, home)[case]
    before = {p: (p.stat().st_mode, p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*")}
    code, out, err = run(capsys, *argv)
    assert code == 2 and "Traceback" not in err, (out, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("maester: "), err
    assert all(w in err for w in words), err
    after = {p: (p.stat().st_mode, p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*")}
    assert {p: v for p, v in after.items() if home not in p.parents and p != home} == before


def test_maester_home_games_a_file_is_one_line_and_exit_2(capsys, home):
    home.mkdir()
    (home / "games").write_text("a file\n")
    code, out, err = run(capsys, "play", "btwixt", "--sim", "--no-table", "--no-web")
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, (out, err)
    assert str(home / "games") in err and "is a file" in err, err
    assert (home / "games").read_text() == "a file\n"
