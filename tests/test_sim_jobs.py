"""`maester sim`: where a decision's time goes (engine against bots), and `--jobs N` (whole games
across worker processes, the same results for any N)."""

import json

import pytest

from maester import cli


def sim(capsys, *argv):
    """(exit status, stdout, stderr) of `maester sim ARGV`, parse errors included."""
    try:
        code = cli.main(["sim"] + list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))


@pytest.mark.parametrize("game, bots", [("btwixt", "random"), ("intrigue", "heuristic")])
def test_figures_split_a_decision_between_engine_and_bots(capsys, game, bots):
    code, out, _ = sim(capsys, game, "--games", "2", "--bots", bots, "--json")
    assert code in (0, None)
    stats = json.loads(out)
    engine, bot = stats["engine_us_per_decision"], stats["bot_us_per_decision"]
    assert engine > 0 and bot > 0
    # both are parts of the whole run's time per decision, which also holds setup and bookkeeping
    assert engine + bot <= 1e6 * stats["seconds"] / stats["actions"]

    code, out, _ = sim(capsys, game, "--games", "2", "--bots", bots)
    assert "us, bots" in out and "us a decision" in out
