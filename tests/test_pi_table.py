"""A table driven straight from a Raspberry Pi (table/pi.py): nfcpy readers and a WS2812 strip, no board.

What is real here and what is replaced, from the top down:

* real: the table runner, table/pi.py, the firmware's own renderer (maester_fw.leds), Adafruit's
  neopixel and adafruit_pixelbuf (which order the bytes and call `neopixel_write`), and Blinka's
  `board`, `digitalio` and `neopixel_write` modules, on the OS-agnostic board Blinka ships for tests
  (BLINKA_FORCEBOARD=OS_AGNOSTIC_BOARD: off a Pi, Blinka refuses to import at all). Its LED data pin
  is called Dx_OUTPUT there; on a Pi the config says D18.
* replaced: the one function below neopixel_write, the platform's `neopixel_write(pin, buf)` (on a Pi,
  rpi_ws281x's DMA to GPIO18): it records the bytes that would go down the strip's data line.
* the readers: nfcpy's own `udp` driver, a tag emulated by nfcpy in a second process
  (nfc_tag_emulator.py, as in test_nfc_reader.py); taking the card off is ending that process.
"""

import copy
import importlib
import json
import os
import random
import subprocess
import sys
import threading
import time

import pytest

from maester import cli
from maester.engine import PUBLIC, apply, new_game
from maester.engine.log import GameLog
from maester.engine.session import Session
from maester.games.btwixt import table as btable
from maester.table import pi
from maester.table import profile as P
from maester.table.board import BoardTable
from maester.table.runner import PATTERNS, segment_ids
from maester.table.taps import command_for_tap
from maester_fw.leds import Segments
from test_btwixt_leaks import hide_differently
from test_nfc_reader import TAG_A, desk, free_udp_port, tag_on_reader, wait_until

PIN = "Dx_OUTPUT"  # the LED data pin of Blinka's OS-agnostic board (D18 on a Pi)
# Every frame is rendered at a whole number of minutes: a moment when every blink is on and every
# pulse at its brightest, so the strip's bytes do not depend on when the test looked.
MINUTE = 60000


@pytest.fixture
def strip_line(monkeypatch):
    """The bytes written to the strip's data line, frame by frame."""
    monkeypatch.setenv("BLINKA_FORCEBOARD", "OS_AGNOSTIC_BOARD")
    monkeypatch.setenv("BLINKA_FORCECHIP", "OS_AGNOSTIC")
    import neopixel_write
    frames = []
    monkeypatch.setattr(neopixel_write._neopixel, "neopixel_write", lambda pin, buf: frames.append(bytes(buf)))
    return frames


def minutes():
    t = iter(range(0, 2 ** 29, MINUTE))
    return lambda: next(t)


def firmware_frame(profile, wanted, budget_ma=pi.LED_DEFAULTS["budget_ma"]):
    """The GRB bytes a board's firmware would put on its strip for the runner's segments (at phase 0)."""
    ids = segment_ids(profile)
    specs = sorted(profile["segments"], key=lambda s: ids[s["name"]])
    written = []
    strip = type("Strip", (), {"write": lambda self, buf: written.append(bytes(buf))})()
    leds = Segments(specs, profile["pixels"], strip, budget_ma, order="GRB")
    for name, (level, rgb, pattern, period) in wanted.items():
        leds.set(ids[name], level, *rgb, PATTERNS[pattern], period)
    leds.tick(0)
    return written[-1]


def a_game():
    """B'Twixt at four seats and a card the seat asked first may tap now: (session, seat, card)."""
    state, _ = new_game("btwixt", {"players": 4}, 3)
    ask = state["asks"][0]
    cards = sorted({x for c in ask["choices"] for x in c if isinstance(x, str) and "#" in x})
    cards += ["leader:%s" % l for l in state["g"]["leaders"]]
    card = next(c for c in cards if command_for_tap(state, ask["seat"], c)[0] is not None)
    return Session(state), ask["seat"], card


def pi_profile(readers, leds=None):
    profile = copy.deepcopy(P.for_game("btwixt", 4))
    profile["pi"] = {"readers": readers, "leds": leds or {"pin": PIN}}
    return profile


def test_a_tap_on_a_pi_reader_is_the_seats_move_and_the_strip_shows_what_the_firmware_would(strip_line):
    session, seat, card = a_game()
    port = free_udp_port()
    profile = pi_profile({"seat%d" % seat: desk(port)})
    said = []
    board = pi.connect_pi(profile, said.append, clock=minutes())
    table = BoardTable(board, session, {TAG_A: card}, report=said.append)
    try:
        before = firmware_frame(profile, btable.segments(session.view(PUBLIC)))
        assert wait_until(lambda: strip_line and strip_line[-1] == before, 5), "the strip never showed the game"
        seq = session.state["seq"]
        with tag_on_reader(port, TAG_A):
            assert wait_until(lambda: session.state["seq"] > seq, 15), said
            after = firmware_frame(profile, btable.segments(session.view(PUBLIC)))
            assert wait_until(lambda: strip_line[-1] == after, 5)
        assert not [s for s in said if "refused" in s], said
        assert after != before  # the move is on the strip: the next seat's light moved on
        assert "no reader configured for deck, seat" in said[0]  # the other readers: said once, at the start
    finally:
        table.close()
    assert strip_line[-1] == bytes(3 * profile["pixels"])  # the game closed, the strip dark


def test_a_refused_tap_flashes_the_seat_red_in_the_strips_own_byte_order(strip_line):
    session, seat, card = a_game()
    port = free_udp_port()
    profile = pi_profile({"seat%d" % seat: desk(port)}, {"pin": PIN, "order": "GRB"})
    said = []
    board = pi.connect_pi(profile, said.append, clock=minutes())
    table = BoardTable(board, session, {}, report=said.append)  # the sticker is not enrolled
    seg = next(s for s in profile["segments"] if s["name"] == "seat%d" % seat)
    red_in_grb = bytes((0, 255, 0)) * seg["length"]
    try:
        with tag_on_reader(port, TAG_A):
            assert wait_until(lambda: any("unknown sticker" in s for s in said), 15), said
            at = 3 * seg["start"]
            assert wait_until(lambda: strip_line[-1][at:at + 3 * seg["length"]] == red_in_grb, 5)
        assert session.state["seq"] == 0
    finally:
        table.close()


def test_two_states_differing_only_in_hidden_things_put_the_same_bytes_on_the_strip(strip_line):
    state, _ = new_game("btwixt", {"players": 5, "variants": ["advanced"]}, 3)
    rng = random.Random(3)
    profile = copy.deepcopy(P.for_game("btwixt", 5))
    config = pi._checked({"readers": {"deck": "usb"}, "leds": {"pin": PIN}}, profile)
    compared = 0
    for _ in range(40):
        if state["over"]:
            break
        seat = rng.randrange(5)
        strips = []
        for world in (state, hide_differently(state, seat, rng)):
            strip_line.clear()
            board = pi.PiBoard(profile, config, clock=minutes())  # no reader opened: only the strip is looked at
            board.link.start()
            table = BoardTable(board, Session(copy.deepcopy(world)), {})
            assert wait_until(lambda: strip_line, 5)
            board.link.stop.set()
            board.link.thread.join(2)
            strips.append(strip_line[-1])
            table.close()
        assert strips[0] == strips[1]
        compared += 1
        ask = state["asks"][0]
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
    assert compared > 20


def test_a_pi_config_with_a_reader_the_profile_lacks_or_no_path_is_refused_by_name():
    profile = P.for_game("btwixt", 4)
    with pytest.raises(ValueError, match="reader 'seat9' is not one of the profile's"):
        pi._checked({"readers": {"seat9": "usb"}}, profile)
    with pytest.raises(ValueError, match="'seat0' is not an nfcpy device path"):
        pi._checked({"readers": {"seat0": "seat0"}}, profile)
    with pytest.raises(ValueError, match="the strip has 10 pixels; the profile's segments need 22"):
        pi._checked({"readers": {"seat0": "usb"}, "leds": {"pixels": 10}}, profile)
    with pytest.raises(ValueError, match="budget_ma '2A' should be a whole number"):
        pi._checked({"readers": {"seat0": "usb"}, "leds": {"budget_ma": "2A"}}, profile)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    return tmp_path


def _play_on_the_pi(capsys):
    rc = cli.main(["play", "btwixt", "--players", "4", "--table", "pi", "--sim-stickers", "--no-web"])
    return rc, capsys.readouterr().err


def test_play_table_pi_without_a_pi_config_says_where_to_write_it(home, capsys):
    rc, err = _play_on_the_pi(capsys)
    assert rc == 2 and "no Pi config" in err and str(home / "pi.json") in err and "hardware/PI.md" in err


def test_play_table_pi_says_which_extra_to_install_when_the_neopixel_library_is_missing(home, capsys, monkeypatch):
    (home / "pi.json").write_text('{"readers": {"seat0": "tty:AMA0:pn532"}, "leds": {"pin": "D18"}}')
    monkeypatch.setitem(sys.modules, "neopixel", None)  # `import neopixel` raises ImportError
    rc, err = _play_on_the_pi(capsys)
    assert rc == 2 and "neopixel" in err and "maester's `pi` extra (pip install" in err
    assert not (home / "games").exists()  # nothing was written


def test_play_table_pi_says_which_extra_to_install_when_nfcpy_is_missing(home, capsys, monkeypatch):
    (home / "pi.json").write_text('{"readers": {"seat0": "tty:AMA0:pn532"}}')
    monkeypatch.setitem(sys.modules, "nfc", None)
    rc, err = _play_on_the_pi(capsys)
    assert rc == 2 and "nfcpy" in err and "maester's `pi` extra (pip install" in err


def test_a_pi_reader_that_does_not_answer_is_named_with_what_nfcpy_said(home, capsys, strip_line):
    (home / "pi.json").write_text('{"readers": {"seat1": "usb:0000:0000"}, "leds": {"pin": "%s"}}' % PIN)
    rc, err = _play_on_the_pi(capsys)
    assert rc == 2 and "reader seat1 of the Pi config: no NFC reader at usb:0000:0000" in err
    assert strip_line[-1] == bytes(3 * 22)  # the strip it had opened is dark again
    assert not (home / "games").exists()


def test_table_pi_is_refused_with_a_simulated_game_and_a_value_other_than_pi(home, capsys):
    assert cli.main(["demo", "--table", "pi", "--fast", "--plain"]) == 2
    assert "--table pi plays on the readers and strip of this Raspberry Pi" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["play", "btwixt", "--table", "board"])
    assert "--table takes no value, or pi" in capsys.readouterr().err


def test_a_strip_driver_that_cannot_run_is_said_before_the_game_with_the_root_hint(strip_line, monkeypatch):
    import neopixel_write

    def no_dma(pin, buf):  # what rpi_ws281x raises when it may not map the PWM and DMA registers
        raise RuntimeError("ws2811_init failed with code -5 (mmap() failed)")
    monkeypatch.setattr(neopixel_write._neopixel, "neopixel_write", no_dma)
    with pytest.raises(ValueError, match=r"cannot be driven: ws2811_init failed.*needs root: sudo"):
        pi.connect_pi(pi_profile({"seat0": "usb:0000:0000"}))


class Running:
    """A `maester` process, its output gathered line by line as it comes."""

    def __init__(self, home, *args):
        env = dict(os.environ, MAESTER_HOME=str(home), PYTHONUNBUFFERED="1",
                   BLINKA_FORCEBOARD="OS_AGNOSTIC_BOARD", BLINKA_FORCECHIP="OS_AGNOSTIC")
        # Off a Pi the process drives Blinka's OS-agnostic board, whose neopixel_write throws the bytes away.
        self.proc = subprocess.Popen([sys.executable, "-m", "maester.cli", *args], env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        threading.Thread(target=lambda: self.lines.extend(iter(self.proc.stdout.readline, "")), daemon=True).start()

    def text(self):
        return "".join(self.lines)

    def kill(self):
        self.proc.kill()
        self.proc.wait(timeout=10)


def test_play_table_pi_takes_a_tap_as_the_move_and_resume_reattaches_to_the_pis_readers(home, tmp_path):
    from maester.nfc import tags as tagfile
    from maester.commands import play
    config = play._config("btwixt", 4, None, None)
    config["observe"] = list(importlib.import_module("maester.games.btwixt").OBSERVABLE)
    state, _ = new_game("btwixt", config, 3)  # what `play --seed 3` deals
    seat = state["asks"][0]["seat"]  # seat 0 is dealt its hand: each card tapped in is the table's move
    card = next(x for c in state["asks"][0]["choices"] for x in c
                if isinstance(x, str) and "#" in x and command_for_tap(state, seat, x)[0] is not None)
    tagfile.save_tags("btwixt", {TAG_A: card})
    port = free_udp_port()
    (home / "pi.json").write_text(json.dumps({"readers": {"seat%d" % seat: desk(port)}, "leds": {"pin": PIN}}))
    log = tmp_path / "game.sqlite"
    game = Running(home, "play", "btwixt", "--players", "4", "--seed", "3", "--table", "pi", "--allow-missing",
                   "--no-web", "--plain", "--log", str(log))
    try:
        assert wait_until(lambda: "readers and LEDs on this Raspberry Pi" in game.text(), 30), game.text()
        with tag_on_reader(port, TAG_A):
            assert wait_until(lambda: _moves(log) >= 1, 30), game.text()
    finally:
        game.kill()
    assert "refused" not in game.text()
    again = Running(home, "resume", "--log", str(log), "--no-web", "--plain")
    try:
        assert wait_until(lambda: "Resumed" in again.text(), 30), again.text()
        time.sleep(1)
        assert again.proc.poll() is None, again.text()  # waiting for taps on the Pi's readers, not refused
    finally:
        again.kill()
    # The Pi's readers were opened again (the one configured; the others are said to have none).
    assert "table: no reader configured for deck, seat" in again.text(), again.text()


def _moves(log):
    """Moves in the game's log so far."""
    if not log.exists():
        return 0
    log = GameLog.open(str(log))
    try:
        return len(list(log.entries()))
    finally:
        log.close()
