"""`maester bench fuzz` (host/maester/bench/fuzz.py, firmware/sim/fuzz_wire.py): random and mutated
frames into the host's and the board's receive path.

A short run per side must find nothing wrong, and every frame must be accounted for exactly once.
The fuzzer must also be able to fail: fed a wire.py with a bug put in on purpose, it reports it.
"""
import json
import types

import pytest

from maester.bench import fuzz as bench_fuzz
from maester.cli import main
from maester.paths import FIRMWARE

FRAMES = 20000
WIRE_SRC = (FIRMWARE / "maester_fw" / "wire.py").read_text(encoding="utf-8")


def broken_wire(old, new):
    """wire.py with one piece of text replaced: a codec with a bug in it."""
    assert WIRE_SRC.count(old) >= 1, old
    mod = types.ModuleType("maester_fw.wire_broken")
    mod.__package__ = "maester_fw"  # for its `from .cpython import const`
    exec(compile(WIRE_SRC.replace(old, new), "wire_broken.py", "exec"), mod.__dict__)
    return mod


def check_clean(r):
    """No failure, and every frame fed is accounted for exactly once."""
    assert {k: r[k] for k in bench_fuzz.FAILURES} == {k: 0 for k in bench_fuzz.FAILURES}, r["examples"]
    assert r["cases"] == FRAMES == sum(r["by_kind"].values())
    driver = bench_fuzz.load_driver()
    assert set(r["by_kind"]) == set(driver.KINDS)  # every kind of case was tried
    # each run of bytes between zeros is rejected by the framing or decoded; each decoded frame is
    # dropped by the link, consumed (an ACK) or delivered; each delivered message accepted or refused
    assert r["frames"] == r["decoded"] + sum(r["framing"].values())
    assert r["decoded"] == sum(r["link"].values()) + r["acks"] + r["delivered"]
    assert r["delivered"] == r["accepted"] + sum(r["message"].values())
    assert set(r["framing"]) == set(driver.FRAMING)  # every framing check was reached...
    assert r["link"].get("bad_version", 0) > 0
    assert r["message"].get("bad utf-8", 0) > 0 and r["message"].get("short payload", 0) > 0  # ...and the messages'
    assert r["accepted"] >= r["by_kind"]["valid"] - r["acks"]  # every valid frame's message got through


@pytest.fixture(scope="module")
def host_result():
    return bench_fuzz.run_host(FRAMES, 7)


def test_a_short_host_run_finds_nothing_and_counts_every_frame(host_result):
    check_clean(host_result)
    assert host_result["interpreter"] == "cpython"


def test_the_board_build_under_micropython_rejects_exactly_what_the_host_rejects(host_result):
    r = bench_fuzz.run_board(FRAMES, 7)
    check_clean(r)
    assert r["interpreter"] == "micropython"
    # the same seed draws the same cases on both interpreters: every verdict must agree
    same = ("cases", "by_kind", "frames", "decoded", "framing", "link", "acks", "accepted", "message", "mutants_valid")
    assert {k: r[k] for k in same} == {k: host_result[k] for k in same}


def test_the_fuzzer_catches_a_missing_bounds_check():
    # the receive buffer's bound removed: an over-long frame writes past the end of the buffer
    wire = broken_wire("if n == cap:", "if False:")
    r = bench_fuzz.run_host(3000, 1, wire=wire)
    assert r["crashes"] > 0
    assert any(e["what"] == "crash" and "IndexError" in e["detail"] for e in r["examples"])


def test_the_fuzzer_catches_a_decoder_that_skips_the_crc():
    wire = broken_wire("if crc16(buf, n - CRC_LEN) != buf[n - 2] | (buf[n - 1] << 8):", "if False:")
    r = bench_fuzz.run_host(3000, 1, wire=wire)
    assert r["corrupt_accepted"] > 0
    assert any(e["detail"] == "decoded a frame the oracle rejects" for e in r["examples"])


def test_the_fuzzer_catches_a_message_decoder_that_takes_an_unknown_enum():
    wire = broken_wire('    _enum(kind, PLACED, "tap kind")\n', "")  # TAP's kind no longer checked
    r = bench_fuzz.run_host(5000, 1, wire=wire)
    assert r["corrupt_accepted"] > 0
    assert any("does not re-encode" in e["detail"] for e in r["examples"])


def test_the_command_prints_the_figures_and_fails_on_a_bug(capsys, monkeypatch):
    assert main(["bench", "fuzz", "--frames", "500", "--side", "host"]) == 0
    out = capsys.readouterr().out
    assert "host side (cpython): 500 frames fed" in out
    assert "crashes 0, corrupt accepted 0, valid rejected 0, miscounted 0" in out

    assert main(["bench", "fuzz", "--frames", "200", "--side", "host", "--json", "--seed", "3"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["seed"] == 3 and doc["sides"][0]["cases"] == 200

    wire = broken_wire("if n == cap:", "if False:")
    real = bench_fuzz.run_host
    monkeypatch.setattr(bench_fuzz, "run_host", lambda n, seed, progress=None: real(n, seed, progress, wire=wire))
    assert main(["bench", "fuzz", "--frames", "3000", "--side", "host"]) == 1
    out = capsys.readouterr().out
    assert "FAIL crash" in out and "IndexError" in out


@pytest.mark.parametrize("argv", [["--frames", "0"], ["--frames", "x"], ["--side", "phone"]])
def test_bad_options_exit_2_with_a_reason(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(["bench", "fuzz"] + argv)
    assert e.value.code == 2
    assert "argument --" in capsys.readouterr().err
