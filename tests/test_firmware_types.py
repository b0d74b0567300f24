"""The firmware type-checked against the real MicroPython APIs of both boards it runs on.

pyright reads `firmware/maester_fw` and `main.py` with the MicroPython 1.29 stubs of the rp2 port
(a Pico) and of the esp32 port (an ESP32-S3), installed by `make test` into .venv/stubs/ (the two
ports' stubs cannot share one site-packages). Zero errors is the bar: a call the port does not have
(CPython's `time.monotonic_ns` on a board, `machine.bootloader` on a plain ESP32), a wrong argument
type or an Optional used unchecked shows up here, before a board does. `cpython.py` (CPython
stand-ins, never on a board) is left out, and so is the rp2-only PIO module from the ESP32 check.
"""

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PORTS = ("rp2", "esp32")
PYRIGHT = Path(sys.executable).parent / "pyright"


def stubs(port):
    path = ROOT / ".venv" / "stubs" / port
    if not (path / "machine.pyi").exists():
        pytest.fail("the MicroPython %s stubs are not installed: run `make test` (it installs them into %s)"
                    % (port, path.parent))
    return path


def pyright(config):
    if not PYRIGHT.exists():
        pytest.fail("pyright is not installed: run `make test` (it is in maester's test extra)")
    out = subprocess.run([str(PYRIGHT), "-p", str(config), "--outputjson"], capture_output=True, text=True,
                         timeout=600)
    try:
        return json.loads(out.stdout)
    except ValueError:
        pytest.fail("pyright gave no report (exit %d): %s" % (out.returncode, (out.stderr or out.stdout)[-2000:]))


def problems(report):
    return ["%s:%d: %s" % (Path(d["file"]).relative_to(ROOT) if d["file"].startswith(str(ROOT)) else d["file"],
                           d["range"]["start"]["line"] + 1, d["message"].splitlines()[0])
            for d in report["generalDiagnostics"] if d["severity"] == "error"]


def test_the_firmware_type_checks_against_both_ports_with_zero_errors():
    for port in PORTS:
        stubs(port)
    with ThreadPoolExecutor(len(PORTS)) as pool:  # two pyright processes: the test takes one's time
        reports = dict(zip(PORTS, pool.map(lambda p: pyright(ROOT / "firmware" / ("pyright-%s.json" % p)), PORTS)))
    for port, report in reports.items():
        firmware = sorted(p.name for p in (ROOT / "firmware" / "maester_fw").glob("*.py"))
        assert report["summary"]["filesAnalyzed"] >= len(firmware) - 1, (port, report["summary"])
        assert problems(report) == [], "%s port:\n%s" % (port, "\n".join(problems(report)))


def test_a_call_the_board_does_not_have_is_an_error(tmp_path):
    """The check can fail: CPython's clock function, called in firmware code, is not on a board."""
    tree = tmp_path / "firmware"
    shutil.copytree(ROOT / "firmware" / "maester_fw", tree / "maester_fw")
    (tree / "maester_fw" / "clock.py").write_text(
        (ROOT / "firmware" / "maester_fw" / "clock.py").read_text()
        + "\n\ndef now_ns():\n    import time\n    return time.monotonic_ns()\n")
    config = dict(json.loads("\n".join(line for line in (ROOT / "firmware" / "pyright-rp2.json").read_text()
                                       .splitlines() if not line.startswith("//"))),
                  include=["maester_fw"], stubPath=str(stubs("rp2")), typeshedPath=str(stubs("rp2")))
    (tree / "pyrightconfig.json").write_text(json.dumps(config))
    found = problems(pyright(tree / "pyrightconfig.json"))
    assert any("monotonic_ns" in p and "clock.py" in p for p in found), found
