"""`maester play GAME --port` on a `maester sim-board` process: the path a player with a built table
takes, with nothing shared in memory between the board, the host and the people (tests/board_driver.py).
"""

import json
import random
import signal
import subprocess
import time

import pytest

from maester.engine import cardtables
from board_driver import TableGame, maester_cmd

# B'Twixt's whole game on a board process is the one with cards that have no sticker below (and the
# one with faults): a third fault-free B'Twixt game would prove nothing more.
GAMES = [("intrigue", 2, []), ("oathbreaker", 5, [])]


def play_out(t, rng, faults=None, limit=2000):
    """Answer every decision with a random legal choice until the game ends; `faults` maps a move
    number to a function run just before that move (unplug the board, kill the host...)."""
    n = 0
    while not t.direct["over"]:
        assert n < limit, "the game did not end"
        if faults and n in faults:
            faults.pop(n)(t)
        ask = t.direct["asks"][0]
        t.step({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
        n += 1
    return n


def final_state(t):
    return t.logged_state()


@pytest.fixture
def table_game(tmp_path):
    games = []

    def make(*args, **kw):
        games.append(TableGame(tmp_path, *args, **kw))
        return games[-1]
    yield make
    for g in games:
        g.close()


@pytest.mark.parametrize("game,players,variants", GAMES)
def test_a_whole_game_on_a_board_process_ends_as_the_engine_alone(table_game, game, players, variants):
    t = table_game(game, players, 5, variants)
    t.start()
    play_out(t, random.Random(5))
    assert t.finish() == 0, t.output()
    assert final_state(t) == t.direct
    assert t.taps > 20 and t.page_choices > 0
    fault_free(t.output())


def fault_free(out):
    assert "refused" not in out, out
    # The shared screen shows the public table only: no seat's hand was ever printed there.
    assert "board lost" not in out


def test_cards_without_a_sticker_are_chosen_on_the_seat_pages(table_game):
    probe = table_game("btwixt", 3, 6, ["short"], enroll=False)
    cards = cardtables.table(probe.direct)
    missing = set(cards["ally_instances"][::5]) | set(cards["standard_instances"][::6])
    probe.close()
    t = table_game("btwixt", 3, 6, ["short"], unenrolled=missing)
    t.start("--allow-missing")
    play_out(t, random.Random(6))
    assert t.finish() == 0, t.output()
    assert final_state(t) == t.direct
    assert "%d cards have no sticker" % len(missing) in t.output()
    assert t.for_table > 0  # an ally with no sticker came off the deck and was named on a page
    assert t.taps > 20 and t.page_choices > 0
    fault_free(t.output())


def _unplug(t):
    t.board.command("unplug")
    time.sleep(0.5)
    t.board.command("replug")


def _reboot(t):
    t.board.command("reboot")


def _kill_and_resume(t):
    t.play.send_signal(signal.SIGKILL)
    t.play.wait()
    t.resume()


def test_unplug_reboot_and_a_killed_host_lose_no_tap_and_double_none(table_game):
    t = table_game("btwixt", 3, 8, ["short"])
    t.start()
    faults = {25: _unplug, 50: _reboot, 75: _kill_and_resume, 90: _unplug}
    play_out(t, random.Random(8), faults)
    assert not faults, "the game ended before every fault was tried"
    assert t.finish() == 0, t.output()
    assert final_state(t) == t.direct  # every tap applied exactly once
    out = t.output()
    assert "board lost, waiting for it" in out and "board back" in out
    assert "refused" not in out, out


def _play_rc(tmp_path, t, *args):
    r = subprocess.run(maester_cmd("play", t.game, "--players", str(t.players), "--port", t.port, "--plain",
                                   "--log", str(tmp_path / "new.sqlite"), *args),
                       capture_output=True, text=True, env=t.env, timeout=60, stdin=subprocess.DEVNULL)
    assert not (tmp_path / "new.sqlite").exists(), "a refused start wrote a log"
    return r


def test_missing_stickers_refuse_the_start_naming_the_fix(tmp_path, table_game):
    t = table_game("intrigue", 3, 1, enroll=False)
    r = _play_rc(tmp_path, t)
    assert r.returncode == 2
    assert "43 cards of this game have no sticker" in r.stderr and "maester enroll intrigue" in r.stderr
    assert "--allow-missing" in r.stderr


def test_a_board_flashed_for_another_table_is_refused_with_the_flash_command(tmp_path, table_game):
    t = table_game("btwixt", 3, 1, profile="btwixt-4p")  # the board holds the 4-player config
    r = _play_rc(tmp_path, t)
    assert r.returncode == 2, r.stderr
    assert "set up for table profile 'btwixt-4p'" in r.stderr
    assert "maester firmware flash --port %s --profile btwixt-3p" % t.port in r.stderr
    assert "--profile btwixt-4p" in r.stderr  # or play it as it is


def test_another_firmware_version_is_refused(tmp_path, table_game, monkeypatch):
    import shutil
    from maester.paths import FIRMWARE
    fw = tmp_path / "fw"
    shutil.copytree(FIRMWARE, fw, ignore=shutil.ignore_patterns("__pycache__"))
    app = fw / "maester_fw" / "app.py"
    app.write_text(app.read_text().replace('FIRMWARE = "maester-fw ', 'FIRMWARE = "maester-fw 0.0-old '))
    monkeypatch.setenv("MAESTER_FIRMWARE", str(fw))
    t = table_game("intrigue", 2, 1)
    r = _play_rc(tmp_path, t)
    assert r.returncode == 2
    assert "the board runs 'maester-fw 0.0-old" in r.stderr and "maester firmware flash --port" in r.stderr


def test_a_foreign_sticker_and_two_cards_on_a_reader_are_refused_without_a_move(table_game, tmp_path):
    t = table_game("intrigue", 2, 3)
    from board_driver import enroll_all
    from maester.engine import new_game
    other, _ = new_game("btwixt", {"players": 3}, 1)
    enroll_all(t.home, "btwixt", other)
    t.start()
    seat0 = t.readers.index("seat0")

    def said(text):
        deadline = time.monotonic() + 10
        while text not in t.output():
            assert time.monotonic() < deadline, "never said %r:\n%s" % (text, t.output())
            time.sleep(0.05)
    t.board.tap(seat0, "leader:cersei")  # a B'Twixt leader card on the Intrigue table
    said("refused: a card of B'Twixt on seat0: it is not part of this game")
    t.board.lift(seat0)
    # Two stickers at once: their UIDs collide in the anticollision (the simulated MFRC522 raises
    # the collision at its bit, issue 24), so the board reports the reader crowded (READER_STATUS)
    # and the table says it in plain words; neither card makes a move.
    t.board.tap(seat0, "04000000000000")
    said("refused: an unknown sticker (04000000000000) on seat0")
    t.board.tap(seat0, "04ffffffffffff")
    said("two cards on reader seat0: lift one")
    assert t.moves() == 0


def test_sim_board_taps_in_one_command_lists_its_cards_and_refuses_a_typo_by_name(tmp_path):
    """Driven by hand (issue 28, item 7): `tap` lays and lifts; `cards` names what may be tapped; a
    mistyped card is refused at the board with the closest names; `q` stops it."""
    script = tmp_path / "hand.txt"
    script.write_text("cards cersei\ntap 0 betrayl#2\ntap deck leader:cersei\nq\n")
    r = subprocess.run(maester_cmd("sim-board", "--game", "btwixt", "--players", "3", "--script", str(script),
                                   "--no-strip"), capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    lines = r.stdout.splitlines()
    assert r.returncode == 0, r.stderr
    assert "Leader cards:" in lines and any(l.split() == ["leader:cersei", "Leader", "card:", "Cersei", "Lannister"]
                                            for l in lines)
    refused = [l for l in lines if l.startswith("error: no card 'betrayl#2'")]
    assert refused and "did you mean betrayal#" in refused[0] and "(Betrayal, copy" in refused[0]
    assert "ok: tap deck leader:cersei" in lines  # laid and lifted: the reader is empty again
    assert lines[-1] == "ok: tap deck leader:cersei"  # q stopped it, stdin never read


def test_sim_board_script_and_strip(tmp_path):
    script = tmp_path / "taps.txt"
    script.write_text("# a card on the deck reader, then off\nplace deck leader:cersei\nwait 100\nstrip\n"
                      "lift 0\ntap 9 x\nquit\n")
    r = subprocess.run(maester_cmd("sim-board", "--game", "btwixt", "--players", "3", "--script", str(script),
                                   "--no-strip"), capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    lines = r.stdout.splitlines()
    assert r.returncode == 0, r.stderr
    assert lines[0].startswith("port: /") and lines[0].endswith("/ttyMAESTER")  # a stable name for the pty
    assert "ok: place deck leader:cersei" in lines and "ok: lift 0" in lines
    assert any(line.startswith("strip: [") for line in lines)
    assert any(line.startswith("error: no reader '9'") for line in lines)


def test_bench_hil_times_taps_through_a_sim_board_process():
    # 60 taps: the first ones (hands tapped at the season start) change no light
    r = subprocess.run(maester_cmd("bench", "hil", "--taps", "60", "--json"), capture_output=True, text=True,
                       timeout=300, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    import json
    out = json.loads(r.stdout)
    assert (out["taps"], out["lost"], out["duplicated"], out["readers"]) == (60, 0, 0, 4)
    assert out["paced"] is True  # the readers take a board's modelled time, not the unix port's
    assert out["timed"] > 0 and 0 < out["p50_ms"] <= out["p99_ms"] <= out["max_ms"]
    stages = out["stages"]
    assert set(stages) == {"poll_detection", "wire_up", "engine", "wire_down", "render"}
    # the stages add up to the whole, tap by tap, so their medians cannot exceed it by much
    assert sum(s["p50_ms"] for s in stages.values()) <= out["max_ms"] * 1.5
    # each timed tap's move was committed and synced by the log (after its light: runner.py)
    assert 0 < out["log_sync"]["p50_ms"] <= out["log_sync"]["p99_ms"]
    assert out["bytes_per_tap"] > 0 and out["polls_per_s"] > 0


def test_a_board_set_up_for_another_game_is_not_offered_as_this_games_profile():
    """An LCG game on a board flashed for B'Twixt: the fix is to flash an LCG profile, never to play
    with --profile btwixt-3p (which `play lcg` then refuses); another table of the same game may be."""
    from types import SimpleNamespace

    from maester.table import profile as P
    from maester.table.board import fit_problem
    board = SimpleNamespace(config_len=100, config_crc=1, board="btwixt-3p", reader_count=7, pixels=60)
    said = fit_problem(board, P.for_game("lcg", 2), "/dev/ttyACM0")
    assert "--profile lcg-2p" in said and "--profile btwixt-3p" not in said
    said = fit_problem(board, P.for_game("btwixt", 4), "/dev/ttyACM0")
    assert "play on the board as it is with --profile btwixt-3p" in said



# `bench hil` pairs a frame written on one side with the same frame read on the other by their
# stamps. A write stamped after write() returned can be later than the other side's read of it (the
# writer descheduled meanwhile): the analysis then paired it with a later frame of the same seq and
# payload and reported a wire stage of minutes (78 s and 136 s seen under load). Both sides stamp a
# write before it.

def test_bench_hil_stamps_a_host_write_before_the_board_can_read_it():
    from maester.link import BoardLink

    class SlowPort:  # the board reads the bytes at once; the host's write() returns 20 ms later
        def write(self, data):
            self.read_at = time.monotonic_ns() // 1000
            time.sleep(0.02)

    trace = {"rx": [], "tx": []}
    link = BoardLink("/dev/null", on_tap=lambda t: None, refind=False, trace=trace)
    link._ser = SlowPort()
    link._raw_write(b"\x00frame")
    assert trace["tx"][0][0] <= link._ser.read_at


def test_bench_hil_stamps_a_board_write_before_the_host_can_read_it(run_micropython, tmp_path):
    out = tmp_path / "trace.jsonl"
    proc = run_micropython(r'''
import json, time
from trace_sim import Trace, TracedSerial

class SlowPort:  # the host reads the bytes at once; the board's write returns 20 ms later
    def write(self, buf, n):
        self.read_at = time.ticks_us()
        time.sleep_ms(20)
        return n

trace = Trace(%r)
port = SlowPort()
TracedSerial(port, trace).write(b"\x00frame", 6)
trace.f.close()
print(json.dumps(port.read_at))
''' % str(out))
    (rec,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert rec[0] == "tx" and rec[1] <= json.loads(proc.stdout)


def test_bench_hil_times_a_light_change_that_leaves_the_frame_as_it_was_by_its_render(run_micropython, tmp_path):
    # The strip is written only when the frame differs: a change that renders to the frame already
    # shown (a seat going idle near its pulse's low point) is on the strip from its render, which the
    # board stamps; timed by the strip alone it waited for the next frame that differed (100-220 ms).
    out = tmp_path / "trace.jsonl"
    proc = run_micropython(r'''
import json
from maester_fw.leds import Segments, SOLID, OFF
from trace_sim import Trace, trace_renders

class Strip:
    def write(self, buf):
        pass

trace = Trace(%r)
trace_renders(Segments, trace)
leds = Segments([("s", 0, 2)], 2, Strip())
wrote = []
leds.set(0, 255, 255, 0, 0, SOLID)
wrote.append(leds.tick(0))    # red: written
leds.set(0, 255, 255, 0, 0, OFF)
wrote.append(leds.tick(10))   # dark: written
leds.set(0, 255, 0, 0, 0, SOLID)
wrote.append(leds.tick(20))   # black, the frame shown: rendered, not written
leds.set(0, 255, 0, 0, 255, OFF)
wrote.append(leds.tick(21))   # held back by the least gap between frames: not rendered yet
wrote.append(leds.tick(23))   # rendered: off, the frame shown
wrote.append(leds.tick(40))   # nothing asked: nothing rendered
trace.f.close()
print(json.dumps(wrote))
''' % str(out))
    assert json.loads(proc.stdout) == [True, True, False, False, False, False]
    assert [json.loads(line)[0] for line in out.read_text().splitlines()] == ["shown", "shown"]
