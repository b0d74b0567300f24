"""`maester bench chaos`: table games of every game through a fault proxy, board reboots, cable
pulls and a killed host, each ending as the fault-free game (a short run; the long one is in the
issue 16 report)."""

import json
import os
import signal
import subprocess
import time

from maester.link.faultproxy import KINDS
from board_driver import maester_cmd


def test_a_short_chaos_run_loses_no_tap_and_ends_every_game_as_the_fault_free_one(tmp_path):
    r = subprocess.run(maester_cmd("bench", "chaos", "--games", "4", "--moves", "15", "--fault-rate", "0.15",
                                   "--seed", "3", "--json"),
                       capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
                       env={**__import__("os").environ, "MAESTER_HOME": str(tmp_path)})
    out = json.loads(r.stdout)
    assert r.returncode == 0, (out["failures"], out["notes"], r.stderr[-2000:])
    assert out["per_game"] == {"btwixt": 1, "intrigue": 1, "oathbreaker": 1, "lcg": 1}
    assert out["moves"] == 60 and out["frames"] > 200
    for kind in KINDS + ("reboot", "unplug", "kill", "laid_while_dead", "reader_reset", "two_cards", "bus_hog",
                         "slow_host", "resync_in_boot"):
        assert out["faults"][kind] > 0, kind
    assert (out["taps_lost"], out["taps_doubled"], out["resumes_failed"]) == (0, 0, 0)
    assert out["states_equal"] == 4


def test_bad_options_are_refused(tmp_path):
    r = subprocess.run(maester_cmd("bench", "chaos", "--fault-rate", "0.9"), capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "not a chance from 0 to 0.5" in r.stderr


def _children(pid):
    out = []
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                out += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return out


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_a_killed_run_leaves_no_host_behind(tmp_path):
    # A host left running after its bench was killed kept reopening its port's name, a symlink
    # to a /dev/pts/N the kernel gave to a later pty, another run's, and held that port's lock:
    # "Could not exclusively lock port" for the other run's resume (issue 16).
    bench = subprocess.Popen(maester_cmd("bench", "chaos", "--games", "1", "--moves", "40", "--seed", "5"),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                             env={**os.environ, "MAESTER_HOME": str(tmp_path)})
    hosts = []
    try:
        deadline = time.monotonic() + 60
        while not hosts:
            assert time.monotonic() < deadline and bench.poll() is None, "the bench never started a host"
            hosts = [c for c in _children(bench.pid) if "maester.cli\0play" in _cmdline(c)]
            time.sleep(0.1)
        args = _cmdline(hosts[0]).split("\0")
        links = args[args.index("--log") + 1] + ".links"
        while not os.path.exists(links):  # the game is on: the host would wait for its board for ever
            assert time.monotonic() < deadline and bench.poll() is None, "the host never started its game"
            time.sleep(0.1)
        bench.send_signal(signal.SIGKILL)
        bench.wait()
        deadline = time.monotonic() + 20
        while any(_alive(h) for h in hosts):
            assert time.monotonic() < deadline, "the host outlived its bench"
            time.sleep(0.1)
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.wait()
        for h in hosts:  # when it failed: leave nothing behind either
            if _alive(h):
                os.kill(h, signal.SIGKILL)


def _cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid) as f:
            return f.read()
    except OSError:
        return ""


def test_a_card_under_a_stray_one_through_a_reboot_is_not_played_again(tmp_path):
    # bench chaos, Intrigue seed 4: a stray card lay on top of a played one while the board
    # restarted. The boot's snapshot called the crowded reader empty, so the host took the played
    # card as lifted, and when the stray went, as a new tap: a move the player never made.
    from maester.bench.chaos import STRAY_UID, ChaosBoard, ChaosGame
    from maester.table import profile as P
    board = ChaosBoard(P.for_game("intrigue", 2), 0.0, 1)
    g = ChaosGame(tmp_path, "intrigue", 2, 4, board=board, port=board.port)
    try:
        g.start()
        for _ in range(3):
            ask = g.direct["asks"][0]
            g.step({"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]})
        played = g.moves()
        (reader,) = [r for r, card in g.resting.items() if g.readers[r] == "seat0"]

        def said(text, count=1):
            deadline = time.monotonic() + 20
            while g.output().count(text) < count:
                assert time.monotonic() < deadline, "never said %r:\n%s" % (text, g.output()[-2000:])
                time.sleep(0.05)
        with board.sim.lock:
            board.sim.board.tap(reader, STRAY_UID)
        said("two cards on reader seat0: lift one")
        board.power_cut(0, 0.3)  # the board restarts with both cards on the reader
        board.wait_power()
        said("the board restarted")
        time.sleep(2)  # the new boot's snapshot (sent once every reader was polled) is long out
        board.lift(reader, STRAY_UID)
        said("reader seat0: one card again")
        time.sleep(1)
        assert g.moves() == played, "the card that never moved was played again"
        ask = g.direct["asks"][0]
        g.step({"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]})
        assert g.logged_state() == g.direct
    finally:
        g.close()
