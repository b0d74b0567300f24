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


# --- --jobs N: whole games over worker processes -------------------------------------------------

TIMINGS = ("seconds", "games_per_s", "actions_per_s", "engine_us_per_decision", "bot_us_per_decision",
           "cpu_seconds", "jobs")


def figures(capsys, *argv):
    code, out, err = sim(capsys, *argv, "--json")
    assert code in (0, None), err
    stats = json.loads(out)
    return {k: v for k, v in stats.items() if k not in TIMINGS}, stats


@pytest.mark.parametrize("argv", [
    ("btwixt", "--games", "2"),
    ("intrigue", "--games", "2", "--bots", "heuristic,random"),
    ("oathbreaker", "--games", "2"),
    ("lcg", "--games", "2", "--bots", "heuristic"),
    ("lcg", "--games", "3", "--bots", "heuristic,random", "--league", "--seed", "7"),
])
def test_any_number_of_jobs_gives_the_same_games(capsys, argv):
    one, stats = figures(capsys, *argv, "--jobs", "1")
    assert stats["jobs"] == 1
    for jobs in ("2", "3"):
        many, stats = figures(capsys, *argv, "--jobs", jobs)
        assert stats["jobs"] == min(int(jobs), one["games"])  # never more workers than games
        assert many == one


def test_a_budget_keeps_the_first_games_in_order(capsys):
    whole, _ = figures(capsys, "btwixt", "--games", "30", "--seed", "4")
    cut, stats = figures(capsys, "btwixt", "--games", "30", "--seed", "4", "--jobs", "2", "--budget-s", "0.05")
    assert 1 <= cut["games"] < 30
    assert stats["cpu_seconds"] >= 0.05
    n = cut["games"]
    assert cut["winners"] == whole["winners"][:n] and cut["rounds_per_game"] == whole["rounds_per_game"][:n]


@pytest.mark.parametrize("value", ["-1", "257", "two", "1.5", ""])
def test_a_bad_jobs_value_is_refused(capsys, value):
    code, out, err = sim(capsys, "--games", "1", "--jobs", value)
    assert code == 2
    assert "--jobs" in err and "auto" in err and out == ""


def test_auto_and_zero_mean_one_worker_per_core(capsys):
    import os
    cores = len(os.sched_getaffinity(0))
    for value in ("auto", "0"):
        _, stats = figures(capsys, "btwixt", "--games", "8", "--jobs", value)
        assert stats["jobs"] == min(cores, 8)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_game_that_fails_is_named_by_its_seed(capsys, monkeypatch, jobs):
    # The workers are forked from this process, so they play with the broken rule patched in here.
    from maester import sim as sim_module
    play_one = sim_module.play_one

    def breaks_on_seed_13(game, config, seed, *a, **kw):
        if seed == 13:
            raise KeyError("a rule that broke")
        return play_one(game, config, seed, *a, **kw)

    monkeypatch.setattr(sim_module, "play_one", breaks_on_seed_13)
    code, out, err = sim(capsys, "btwixt", "--games", "6", "--seed", "10", "--jobs", jobs)
    assert code == 1 and out == ""
    assert "maester: game 4 (seed 13) failed: KeyError: 'a rule that broke'" in err
    assert "breaks_on_seed_13" in err  # the worker's traceback, to find the fault


def test_a_worker_that_dies_is_reported_not_waited_for(capsys, monkeypatch):
    # multiprocessing.Pool replaces a worker that dies (the OOM killer, a crash) and would wait for
    # its game for ever; a run says so instead and names the games that were under way.
    import os
    from maester import sim as sim_module
    play_one = sim_module.play_one

    def dies_on_seed_13(game, config, seed, *a, **kw):
        if seed == 13:
            os._exit(9)
        return play_one(game, config, seed, *a, **kw)

    monkeypatch.setattr(sim_module, "play_one", dies_on_seed_13)
    code, out, err = sim(capsys, "btwixt", "--games", "6", "--seed", "10", "--jobs", "2")
    assert code == 1 and out == ""
    assert "maester: a worker process ended (exit code 9)" in err
    line = err.strip().splitlines()[-1]
    assert "games " in line and "4" in line.split("one of games ")[1].split(" (")[0].split(", ")
    assert "13" in line.split("(seeds ")[1].rstrip(") killed it").split(", ")


def test_ctrl_c_stops_every_worker(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    proc = subprocess.Popen([sys.executable, "-m", "maester.cli", "sim", "btwixt", "--games", "100000", "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=dict(os.environ, MAESTER_HOME=str(tmp_path)))

    def children():
        found = []
        for pid in os.listdir("/proc"):
            try:
                with open("/proc/%s/stat" % pid) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == proc.pid:
                        found.append(int(pid))
            except (OSError, ValueError, IndexError):
                pass
        return found

    deadline = time.monotonic() + 30
    while len(children()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = children()
    assert len(workers) >= 2
    time.sleep(0.3)  # games under way in both workers
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip().endswith("maester: interrupted; no figures printed")
    assert "Traceback" not in err and out == ""
    time.sleep(0.2)
    for pid in workers:
        try:
            with open("/proc/%d/stat" % pid) as f:
                assert f.read().rsplit(")", 1)[1].split()[0] == "Z" or False, "worker %d still running" % pid
        except FileNotFoundError:
            pass
