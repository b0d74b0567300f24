"""`maester sim --cluster`: whole games on a Dask distributed cluster (host/maester/cluster.py), the same
games as the serial run whatever the workers, a lost worker's games played again, Ctrl-C stopping cleanly.
The clusters are real: a LocalCluster of two worker processes, and `dask scheduler` / `dask worker`
started as a user starts them on each machine."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from maester import cli

pytest.importorskip("distributed", reason="Dask distributed (the `cluster` extra) is not installed")

TIMINGS = ("seconds", "games_per_s", "actions_per_s", "engine_us_per_decision", "bot_us_per_decision",
           "cpu_seconds", "jobs", "cluster")
SIM = [sys.executable, "-m", "maester.cli", "sim"]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))


def figures(capsys, *argv):
    """(the figures of `maester sim ARGV --json` but the timings, all of them)."""
    code = cli.main(["sim", *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    stats = json.loads(out)
    return {k: v for k, v in stats.items() if k not in TIMINGS}, stats


def children(pid):
    """The pids of the processes whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % entry) as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    return found


def cpu_ticks(pid):
    """utime + stime of a process, in clock ticks (proc(5), /proc/PID/stat fields 14 and 15)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def start_with_progress(argv, tmp_path):
    """`maester sim ARGV` with a terminal for stderr (pty(7)), where it shows its progress: the process
    and the terminal's other end, to read."""
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen(SIM + list(argv), stdout=subprocess.PIPE, stderr=slave, text=True,
                            start_new_session=True, env=dict(os.environ, MAESTER_HOME=str(tmp_path)))
    os.close(slave)
    return proc, master


def wait_for_progress(master, deadline):
    """Read the terminal until a progress count ("3/16 games") shows: games are being played."""
    import select
    seen = b""
    while time.monotonic() < deadline:
        if select.select([master], [], [], 0.5)[0]:
            seen += os.read(master, 4096)
            if b" games" in seen:
                return seen
    raise AssertionError("no progress shown: %r" % seen[-500:])


def drain(master):
    """What is left on the terminal once its process has ended."""
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the other end is closed
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return out.decode(errors="replace")


def workers_of(parent):
    """The worker processes of the local cluster started by `parent`: the children multiprocessing
    spawned (its resource tracker aside)."""
    found = []
    for pid in children(parent):
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                if b"spawn_main" in f.read():
                    found.append(pid)
        except OSError:
            pass
    return found


def busy_worker(parent, deadline):
    """A worker process of the local cluster started by `parent` caught playing: its CPU time grew by
    a tenth of a second in half a second (a Dask worker waiting for work burns next to none; on a
    loaded machine a playing one still gets a fifth of a core)."""
    tick = os.sysconf("SC_CLK_TCK")
    while time.monotonic() < deadline:
        try:
            before = {pid: cpu_ticks(pid) for pid in workers_of(parent)}
            time.sleep(0.5)
            for pid, ticks in before.items():
                if cpu_ticks(pid) - ticks >= 0.1 * tick:
                    return pid
        except OSError:  # a process that ended between the two looks
            pass
    raise AssertionError("no worker process of the local cluster was seen playing")


@pytest.mark.parametrize("argv", [
    ("btwixt", "--games", "6", "--bots", "heuristic", "--seed", "3"),
    ("lcg", "--games", "3", "--bots", "heuristic,random", "--league", "--seed", "7"),
])
def test_a_local_cluster_of_two_workers_plays_the_serial_games(capsys, argv):
    serial, _ = figures(capsys, *argv)
    clustered, stats = figures(capsys, *argv, "--cluster", "local", "--jobs", "2")
    assert stats["cluster"] == "local" and stats["jobs"] == 2
    assert clustered == serial  # same seeds, same winners, rounds and actions, in game order


def outcome(text):
    """The lines of `maester sim`'s summary that are not timings: games and actions (less the
    seconds), wins by seat, rounds, each bot's league record, the search bot's samples."""
    lines = [line.strip() for line in text.splitlines()]
    return [lines[0].rsplit(" in ", 1)[0]] + [line for line in lines if line.startswith(("wins", "rounds", "heuristic", "search", "random"))]


def test_a_worker_killed_mid_run_costs_only_its_games(capsys, tmp_path):
    # Without --json, so that progress shows on the terminal: the summary's lines are compared.
    # The search bot at one playout a decision: a game of a few tenths of a second, long enough that a
    # worker is caught playing one (a heuristic game now takes about 10 ms, less than Dask's own
    # traffic for it, so its workers were never seen busy), with results still fixed by the seed.
    argv = ("lcg", "--games", "16", "--bots", "search,random", "--playouts", "1", "--league", "--seed", "11")
    assert cli.main(["sim", *argv]) == 0
    serial = outcome(capsys.readouterr().out)
    proc, term = start_with_progress(argv + ("--cluster", "local", "--jobs", "2"), tmp_path)
    try:
        wait_for_progress(term, time.monotonic() + 90)  # a game has come back: the others are under way
        before = workers_of(proc.pid)
        victim = busy_worker(proc.pid, time.monotonic() + 30)
        os.kill(victim, signal.SIGKILL)  # as the OOM killer or a machine switched off: no word to anyone
        assert proc.poll() is None, "the run was over before a worker could be lost"
        out, _ = proc.communicate(timeout=120)
        err = drain(term)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "2 worker processes of a local Dask cluster" in out
    assert outcome(out) == serial and len(serial) == 6
    assert victim in before and len(before) == 2


def test_a_scheduler_and_workers_started_as_the_readme_says(capsys, tmp_path):
    # `dask scheduler` and `dask worker ... --preload maester.cluster`, as on each machine of a cluster.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = "tcp://127.0.0.1:%d" % port
    dask = os.path.join(os.path.dirname(sys.executable), "dask")
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], **quiet)
    worker = subprocess.Popen([dask, "worker", address, "--nworkers", "2", "--nthreads", "1",
                               "--no-dashboard", "--preload", "maester.cluster"], **quiet)
    try:
        argv = ("intrigue", "--games", "4", "--bots", "heuristic,random", "--seed", "5")
        serial, _ = figures(capsys, *argv)
        deadline = time.monotonic() + 60
        while True:  # the workers announce themselves to the scheduler once they have started
            code = cli.main(["sim", *argv, "--cluster", address, "--json"])
            out, err = capsys.readouterr()
            assert code == 0, err
            stats = json.loads(out)
            if stats["jobs"] == 2 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert stats["jobs"] == 2 and stats["cluster"] == address
        assert {k: v for k, v in stats.items() if k not in TIMINGS} == serial
    finally:
        for p in (worker, scheduler):
            p.send_signal(signal.SIGINT)  # as Ctrl-C: each closes cleanly
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_ctrl_c_closes_the_local_cluster(tmp_path):
    proc, term = start_with_progress(["btwixt", "--games", "2000", "--cluster", "local", "--jobs", "2"], tmp_path)
    try:
        wait_for_progress(term, time.monotonic() + 90)
        workers = workers_of(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
        out, _ = proc.communicate(timeout=60)
        err = drain(term)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.strip().endswith("maester: interrupted; no figures printed")
    assert "Traceback" not in err and out == ""
    assert len(workers) == 2
    for pid in workers:  # gone, or a zombie its parent has not reaped
        try:
            with open("/proc/%d/stat" % pid) as f:
                assert f.read().rsplit(")", 1)[1].split()[0] == "Z", "process %d still running" % pid
        except FileNotFoundError:
            pass


def test_an_unreachable_scheduler_is_one_line(capsys, monkeypatch):
    from maester import cluster
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")  # 10 s for a real network
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = cli.main(["sim", "--games", "1", "--cluster", "tcp://127.0.0.1:%d" % port])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("maester: cannot reach the Dask scheduler at tcp://127.0.0.1:%d" % port)
    assert len(err.splitlines()) == 1 and "dask scheduler" in err


def test_jobs_are_for_this_machine_only(capsys):
    code = cli.main(["sim", "--games", "1", "--cluster", "tcp://10.0.0.1:8786", "--jobs", "4"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "--jobs is for this machine" in err and "--cluster local" in err


def test_without_dask_it_says_how_to_install_it():
    # distributed hidden as if the extra were not installed: None in sys.modules makes its import fail.
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from maester.cli import main; sys.exit(main(['sim', '--games', '1', '--cluster', 'local']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "maester's `cluster` extra (pip install" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert proc.stdout == ""
