"""`maester bench fuzz`: random and mutated frames into each side's receive path.

The generator, the oracle and the driver are firmware/sim/fuzz_wire.py, plain Python that both
interpreters run. `host` runs it here, against the wire.py the host imports. `board` compiles
wire.py (and the driver) with mpy-cross, as `maester firmware build` does for a board, and runs
it under the MicroPython unix port with a board-sized heap, feeding the Link the way app.py does.
"""

import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from maester_fw import wire as host_wire

from ..paths import FIRMWARE, tool

DRIVER = FIRMWARE / "sim" / "fuzz_wire.py"
BOARD_HEAP = "190k"  # about what an RP2040 leaves free for Python
FAILURES = ("crashes", "corrupt_accepted", "valid_rejected", "miscounted")


def load_driver():
    spec = importlib.util.spec_from_file_location("fuzz_wire", DRIVER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_host(frames, seed, progress=None, wire=None):
    """The host side in this process; `wire` replaces the real codec (the tests break one)."""
    return load_driver().run(wire or host_wire, frames, seed, "host", progress)


def build_board(out):
    """wire.py and the driver compiled to .mpy in `out`, laid out as on a board's flash."""
    mpy_cross = tool("mpy-cross", "tools")
    out = Path(out)
    (out / "maester_fw").mkdir(parents=True, exist_ok=True)
    jobs = [(FIRMWARE / "maester_fw" / "__init__.py", out / "maester_fw" / "__init__.mpy"),
            (FIRMWARE / "maester_fw" / "wire.py", out / "maester_fw" / "wire.mpy"),
            (DRIVER, out / "fuzz_wire.mpy")]
    for src, dst in jobs:
        proc = subprocess.run([mpy_cross, "-o", str(dst), str(src)], capture_output=True, text=True)
        if proc.returncode:
            raise RuntimeError("mpy-cross could not compile %s:\n%s" % (src, proc.stderr.strip()))


def run_board(frames, seed, progress=None, heap=BOARD_HEAP):
    """The board side: the .mpy build under the MicroPython unix port."""
    micropython = tool("micropython", "sim")
    with tempfile.TemporaryDirectory(prefix="maester-fuzz-") as tmp:
        build_board(tmp)
        code = ("import sys\nsys.path.insert(0, %r)\nimport fuzz_wire\nfuzz_wire.main([%r, %r, 'board'])\n"
                % (tmp, str(frames), str(seed)))
        proc = subprocess.Popen([micropython, "-X", "heapsize=" + heap, "-c", code], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=tmp)
        result = None
        for line in proc.stdout:
            if line.startswith("progress ") and progress is not None:
                done, crashes, _ = line.split()[1:]
                progress(int(done), int(crashes))
            elif line.startswith("result "):
                result = json.loads(line[len("result "):])
        err = proc.stderr.read()
        proc.wait()
    if proc.returncode or result is None:
        # the driver catches every exception a decoder raises: this is the driver itself failing
        raise RuntimeError("MicroPython exited %d:\n%s" % (proc.returncode, err.strip()))
    return result


def failed(result):
    return sum(result[k] for k in FAILURES)


def report(r, out=print):
    secs = r["seconds"] or 1e-9
    out("%s side (%s): %d frames fed in %.1f s, %.0f frames/s" % (r["side"], r["interpreter"], r["cases"], secs,
                                                                 r["cases"] / secs))
    out("  decoder saw %d frames: %d decoded, %d rejected by framing (%s)" % (
        r["frames"], r["decoded"], sum(r["framing"].values()), _reasons(r["framing"])))
    out("  link: %d dropped (%s), %d ACKs consumed, %d delivered" % (
        sum(r["link"].values()), _reasons(r["link"]), r["acks"], r["delivered"]))
    out("  messages: %d accepted (%d of them mutants still valid), %d refused (%s)" % (
        r["accepted"], r["mutants_valid"], sum(r["message"].values()), _reasons(r["message"])))
    out("  crashes %d, corrupt accepted %d, valid rejected %d, miscounted %d" % tuple(r[k] for k in FAILURES))
    for e in r["examples"]:
        out("  FAIL %s (%s case): %s\n    %s" % (e["what"], e["kind"], e["detail"], e["case_hex"]))


def _reasons(d):
    return ", ".join("%s %d" % (k, d[k]) for k in sorted(d, key=lambda k: -d[k])) or "none"


def cmd_fuzz(args):
    tty = sys.stderr.isatty() and not args.json
    sides = ("host", "board") if args.side == "both" else (args.side,)
    results = []
    for side in sides:
        def progress(done, crashes, side=side):
            if tty:
                print("\r%s: %d/%d frames, %d crashes" % (side, done, args.frames, crashes), end="",
                      file=sys.stderr, flush=True)
        if side == "host":
            r = run_host(args.frames, args.seed, lambda done, t: progress(done, t.crashes))
        else:
            try:
                r = run_board(args.frames, args.seed, progress)
            except RuntimeError as e:  # mpy-cross or the driver itself failed: no figures to give
                print("maester: bench fuzz, board side: %s" % e, file=sys.stderr)
                return 1
        if tty:
            print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)
        results.append(r)
        if not args.json:
            report(r)
    if args.json:
        print(json.dumps({"seed": args.seed, "frames": args.frames, "sides": results}, indent=1))
    return 1 if any(failed(r) for r in results) else 0
