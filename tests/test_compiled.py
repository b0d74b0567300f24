"""The compiled build (host/maester/compiled.py): the same source compiled by Cython plays the same
games as the pure-Python reference, runs when it is fresh and is never used when stale, and without a
compiler or with MAESTER_PURE=1 leaves the pure build with one line saying so."""

import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from maester import compiled
from maester.cli import main
from maester.games import DEFAULT_PLAYERS
from maester.sim import play_one

# The modules every random decision runs through that have C types of their own (a .pxd beside
# them: the state's generator, with its 64-bit arithmetic, and the engine's loop with its context),
# and the bots that draw from the generator. Small, so quick to build, and kept from the checkout's
# own build when their source is unchanged.
MODULES = ["maester.engine.chance", "maester.engine.core", "maester.engine.bots"]
SEEDS = (1, 2, 3)

needs_compiler = pytest.mark.skipif(compiled.cannot_compile() is not None, reason=str(compiled.cannot_compile()))


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    """A build of MODULES in a folder of its own."""
    out = tmp_path_factory.mktemp("build") / "compiled"
    manifest = compiled.build(MODULES, out, progress=lambda line: None, reuse=compiled.build_dir())
    assert sorted(manifest["modules"]) == sorted(MODULES)
    return out


@pytest.fixture
def use(build, monkeypatch):
    """That build as the one maester finds, here and in the processes a test starts."""
    monkeypatch.setenv("MAESTER_COMPILED", str(build))
    return build


def maester(*args, pure=False, timeout=300):
    """`maester ARGS` in a process of its own, running its default build (MAESTER_PURE unset)."""
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    if pure:
        env[compiled.PURE_ENV] = "1"
    return subprocess.run([sys.executable, "-m", "maester.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


# Whole games, each summed up by its actions, winners and a hash of its final state (zones, hands,
# the generator, the result: any different draw or choice shows there).
PLAY = """
import hashlib, json, sys
from maester.sim import play_one
out = []
for game, players, seed in json.loads(sys.argv[1]):
    state, actions = play_one(game, {"players": players, "variants": []}, seed, "random")
    out.append([actions, state["result"]["winners"],
                hashlib.sha256(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()])
print(json.dumps({"games": out, "loaded": maester.compiled.loaded()}))
"""


def _games():
    return [[g, DEFAULT_PLAYERS[g], s] for g in sorted(DEFAULT_PLAYERS) for s in SEEDS]


@needs_compiler
def test_the_compiled_build_plays_the_same_games_as_the_source(use):
    code = "import maester.compiled\n" + PLAY
    runs = {}
    for build in ("pure", "compiled"):
        proc = subprocess.run(compiled.child(code, build) + [json.dumps(_games())], capture_output=True, text=True,
                              timeout=600)
        assert proc.returncode == 0, proc.stderr
        runs[build] = json.loads(proc.stdout)
    assert runs["compiled"]["loaded"] == [3, 3]  # every module really ran compiled
    assert runs["pure"]["loaded"] == [0, 0]
    assert runs["compiled"]["games"] == runs["pure"]["games"]
    # ...and those are the games this (pure) test process plays, with wins spread over the table.
    for (game, players, seed), got in zip(_games(), runs["pure"]["games"]):
        state, actions = play_one(game, {"players": players, "variants": []}, seed, "random")
        assert got[:2] == [actions, state["result"]["winners"]]


# The LCG's rule modules with C types of their own (a .pxd beside each: cpdef questions and window
# helpers, called in C across modules by cimport), with the engine's: built apart, kept from the
# checkout's build when their source is unchanged. A .pxd that no longer matches its .py (an argument
# added on one side only) fails here with the compiler's words.
LCG_TYPED = MODULES + ["maester.games.lcg." + m for m in ("model", "abilities", "timing", "flow", "challenge",
                                                          "effects", "ordering")]
LCG_PLAY = """
import hashlib, json, sys
import maester.compiled
from maester.sim import play_one
out = []
for players, seed, bots in json.loads(sys.argv[1]):
    state, actions = play_one("lcg", {"players": players, "variants": []}, seed, bots)
    out.append([actions, hashlib.sha256(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()])
print(json.dumps({"games": out, "loaded": maester.compiled.loaded()}))
"""


@needs_compiler
def test_the_lcgs_typed_modules_play_the_same_games_compiled(tmp_path_factory, monkeypatch):
    out = tmp_path_factory.mktemp("lcg") / "compiled"
    compiled.build(LCG_TYPED, out, progress=lambda line: None, reuse=compiled.build_dir())
    monkeypatch.setenv("MAESTER_COMPILED", str(out))
    games = [[2, 1, "random"], [3, 2, "random"], [2, 3, "heuristic"]]
    runs = {}
    for build in ("pure", "compiled"):
        proc = subprocess.run(compiled.child(LCG_PLAY, build) + [json.dumps(games)], capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        runs[build] = json.loads(proc.stdout)
    assert runs["compiled"]["loaded"] == [len(LCG_TYPED)] * 2  # every typed module really ran compiled
    assert runs["compiled"]["games"] == runs["pure"]["games"]


# The generator's 64-bit arithmetic at its edges: C integers (chance.pxd) must wrap exactly where the
# source masks, and a seed of any size or sign is still Python arithmetic.
EDGES = """
import json, sys
import maester.compiled
from maester.engine import chance
M = (1 << 64) - 1
out = []
for k in (0, 1, 12345, M, M - 1, 1 << 63, (1 << 63) - 1, 0x9E3779B97F4A7C15):
    items = list(range(60))
    out.append([chance.mix64(k), chance._next(k), [chance.draw(k, i, n) for i in (0, 1, 7, 10**6, M) for n in (1, 3, 52, M)],
                chance._shuffle(k or 1, items), items])
out.append([chance.seed_state(s) for s in (0, -1, 1, 10**30, -10**30, M, M + 1)])
print(json.dumps({"out": out, "loaded": maester.compiled.loaded()}))
"""


@needs_compiler
def test_the_compiled_generator_draws_the_same_numbers_at_the_edges(use):
    runs = {}
    for build in ("pure", "compiled"):
        proc = subprocess.run(compiled.child(EDGES, build), capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        runs[build] = json.loads(proc.stdout)
    assert runs["compiled"]["loaded"][0] >= 1 and runs["pure"]["loaded"][0] == 0
    assert runs["compiled"]["out"] == runs["pure"]["out"]


def test_a_modules_hash_covers_the_c_types_beside_it(tmp_path):
    src = tmp_path / "mod.py"
    src.write_text("X = 1\n")
    alone = compiled._sha256(src)
    (tmp_path / "mod.pxd").write_text("cdef long X\n")
    typed = compiled._sha256(src)
    (tmp_path / "mod.pxd").write_text("cdef long long X\n")
    assert len({alone, typed, compiled._sha256(src)}) == 3  # a .pxd edited after a build makes it stale


def test_a_modules_hash_covers_the_declarations_its_c_types_cimport(tmp_path, monkeypatch):
    # flow.pxd cimports zones (games/btwixt): compiled, flow calls zones' cpdef functions through the
    # signatures zones.pxd declares, so a changed zones.pxd must make flow stale as well as zones.
    pkg = tmp_path / "maester"
    (pkg / "games").mkdir(parents=True)
    monkeypatch.setattr(compiled, "PACKAGE", pkg)
    (pkg / "games" / "zones.pxd").write_text("cpdef facts(g)\n")
    src = pkg / "games" / "flow.py"
    src.write_text("X = 1\n")
    (pkg / "games" / "flow.pxd").write_text("cimport maester.games.zones as Z\n")
    before = compiled._sha256(src)
    (pkg / "games" / "zones.pxd").write_text("cpdef dict facts(g)\n")
    assert compiled._sha256(src) != before


def test_the_tests_run_the_source():
    import maester.engine.chance
    assert maester.engine.chance.__file__.endswith(".py")
    assert compiled.label() == "pure" and os.environ[compiled.PURE_ENV] == "1"  # tests/conftest.py


@needs_compiler
def test_maester_runs_a_fresh_build_and_says_so(use):
    version = maester("--version").stdout
    assert version.startswith("maester ") and "compiled build (3 modules by Cython" in version
    out = json.loads(maester("bench", "engine", "--games", "2", "--json").stdout)  # the default build, here
    assert out["build"].startswith("Cython ") and "3 of the 3 modules imported here are compiled" in out["build"]
    assert maester("--version", pure=True).stdout.endswith(", pure build (MAESTER_PURE=1)\n")
    out = json.loads(maester("bench", "engine", "--games", "2", "--json", pure=True).stdout)
    assert out["build"] == "pure Python (the reference)"


@needs_compiler
def test_bench_engine_measures_the_build_asked_for(use, capsys):
    assert main(["bench", "engine", "--games", "2", "--json"]) == 0  # this process: the source
    assert json.loads(capsys.readouterr().out)["build"] == "pure Python (the reference)"
    proc = maester("bench", "engine", "--build", "compiled", "--games", "2", "--json", pure=True)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["build"].startswith("Cython ") and "3 of the 3 modules imported here are compiled" in out["build"]
    assert out["games"] == 2


def _stale_copy(build, tmp_path):
    """A copy of `build` as if chance.py had been edited after it: its recorded hash no longer matches."""
    stale = tmp_path / "compiled"
    shutil.copytree(build, stale)
    path = stale / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["modules"]["maester.engine.chance"]["sha256"] = hashlib.sha256(b"older source").hexdigest()
    path.write_text(json.dumps(manifest))
    return stale


@needs_compiler
def test_a_stale_build_is_never_used_and_the_change_is_named(build, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MAESTER_COMPILED", str(_stale_copy(build, tmp_path)))
    with pytest.raises(ValueError, match=r"stale.*maester/engine/chance\.py"):
        compiled.load_manifest()
    # The command line runs the source and says why, in one line; --version says it too.
    proc = maester("bench", "engine", "--games", "1", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["build"] == "pure Python (the reference)"
    warning, = proc.stderr.splitlines()
    assert warning.startswith("maester: running the pure build: the compiled build is stale")
    assert "maester/engine/chance.py" in warning and "maester build-fast" in warning
    assert "pure build (the compiled build is stale" in maester("--version").stdout
    # Asked for by name, it is refused.
    assert main(["bench", "engine", "--build", "compiled", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "maester/engine/chance.py" in err and "maester build-fast" in err
    proc = subprocess.run(compiled.child("print('ran')", "compiled"), capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "stale" in proc.stderr and "ran" not in proc.stdout


def test_without_a_build_the_source_runs_and_a_compiled_bench_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MAESTER_COMPILED", str(tmp_path / "none"))
    assert maester("--version").stdout.endswith(", pure build (none in this checkout: `maester build-fast` makes it)\n")
    assert main(["bench", "engine", "--build", "compiled", "--games", "1"]) == 2
    assert "no compiled build" in capsys.readouterr().err
    assert main(["bench", "engine", "--build", "both", "--games", "1"]) == 2
    assert "bench peers" in capsys.readouterr().err


def test_the_pure_build_when_asked_or_when_the_machine_cannot_compile(tmp_path, monkeypatch):
    out = tmp_path / "compiled"
    (out / "maester").mkdir(parents=True)
    (out / "manifest.json").write_text("{}")  # an older build: it must not outlive the pure build's line
    lines = []
    assert compiled.build_or_explain(out, say=lines.append) is None  # MAESTER_PURE=1, from tests/conftest.py
    assert lines == [compiled.pure_line("MAESTER_PURE=1 asks for it")] and not out.exists()
    monkeypatch.delenv(compiled.PURE_ENV)
    monkeypatch.setenv("CC", "no-such-cc -pthread")  # the compiler setuptools would run
    assert compiled.why_pure() == "no C compiler (no-such-cc) on PATH"
    lines.clear()
    assert compiled.build_or_explain(out, say=lines.append) is None
    assert lines == [compiled.pure_line("no C compiler (no-such-cc) on PATH")]
    assert lines[0].startswith("maester: the pure build (no C compiler") and "\n" not in lines[0]


def test_build_fast_refuses_a_module_outside_the_build(capsys):
    assert main(["build-fast", "--module", "maester.web.app"]) == 2
    assert "maester.engine.core" in capsys.readouterr().err


@needs_compiler
def test_a_rebuild_compiles_only_the_modules_whose_source_changed(build, tmp_path):
    out = tmp_path / "compiled"
    shutil.copytree(build, out)
    lines = []
    assert compiled.build(MODULES, out, progress=lines.append) == json.loads((out / "manifest.json").read_text())
    assert lines == ["the compiled build in %s is up to date: its 3 modules' source is unchanged" % out]
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["modules"]["maester.engine.bots"]["sha256"] = "0" * 64  # as if bots.py changed since
    (out / "manifest.json").write_text(json.dumps(manifest))
    lines.clear()
    rebuilt = compiled.build(MODULES, out, progress=lines.append, jobs=2)
    assert lines[0] == "kept 2 modules whose source is unchanged since the build in %s" % out
    assert lines[1].startswith("[3/3] maester.engine.bots (") and len(lines) == 2  # compiled again, and now matches
    source = compiled.source_of("maester.engine.bots")
    # (its source's hash: bots.py's, with the bots.pxd beside it and the chance.pxd that one cimports)
    assert rebuilt["modules"]["maester.engine.bots"]["sha256"] == compiled._sha256(source)
    compiled.load_manifest(out)  # the result is a whole, fresh build


@needs_compiler
def test_bench_peers_measures_both_builds_side_by_side(use, capsys):
    pytest.importorskip("pyspiel", reason="OpenSpiel (the `peers` extra) is not installed")
    assert main(["bench", "peers", "--build", "both", "--seconds", "0.05", "--rounds", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    pure, fast = out["builds"]["pure"], out["builds"]["compiled"]
    assert pure["describe"].startswith("pure Python") and fast["describe"].startswith("Cython ")
    assert "3 of the 3 modules imported here are compiled" in fast["describe"]
    assert set(out["pass"]) == {"pure", "compiled"}
    for game, f in fast["games"].items():
        ratios = sorted(c / p for c, p in zip(f["rates"], pure["games"][game]["rates"]))
        assert f["vs_pure"] == pytest.approx(ratios[1], abs=2e-3)  # the median of 3 rounds' ratios
        assert "vs_pure" not in pure["games"][game]


@needs_compiler
def test_a_whole_build_is_stale_when_a_rule_module_was_added_since(build, tmp_path):
    out = tmp_path / "compiled"
    shutil.copytree(build, out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is False  # three modules of many: the others run from source, as asked
    compiled.load_manifest(out)
    manifest["complete"] = True  # as if it had been the whole build, before the other modules existed
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match=r"maester/engine/cardtables\.py \(new, not in the build\)"):
        compiled.load_manifest(out)


@needs_compiler
def test_build_fast_of_one_module_keeps_the_rest_of_the_build(build, tmp_path, monkeypatch, capsys):
    # Before, `build-fast --module X` wrote a build of X alone: every other module then ran as
    # Python without a word, and the next whole build compiled them all again.
    out = tmp_path / "compiled"
    shutil.copytree(build, out)
    monkeypatch.setattr(compiled, "build_dir", lambda: out)
    monkeypatch.setenv("MAESTER_COMPILED", str(out))
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    assert main(["build-fast", "--module", "maester.engine.bots", "--force"]) == 0
    err = capsys.readouterr().err
    assert "kept 2 modules whose source is unchanged" in err and "[3/3] maester.engine.bots (" in err
    manifest = compiled.load_manifest(out)
    assert sorted(manifest["modules"]) == sorted(MODULES)  # the two not named are still compiled
