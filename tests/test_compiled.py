"""The optional compiled build (host/maester/compiled.py): the same source compiled by Cython plays
the same games as the pure-Python reference, is used only when asked for, and is refused when stale."""

import hashlib
import json
import shlex
import shutil
import subprocess
import sys
import sysconfig

import pytest

from maester import compiled
from maester.cli import main
from maester.games import DEFAULT_PLAYERS
from maester.sim import play_one

# The modules every random decision runs through that have C types of their own (a .pxd beside
# them: the state's generator, with its 64-bit arithmetic, and the engine's loop with its context),
# and the bots that draw from the generator. Small, so quick to build.
MODULES = ["maester.engine.chance", "maester.engine.core", "maester.engine.bots"]
SEEDS = (1, 2, 3)


def _compiler_missing():
    try:
        import Cython  # noqa: F401
    except ImportError:
        return "Cython is not installed (the `fast` extra)"
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")[0]
    if not shutil.which(cc):
        return "no C compiler (%s) on PATH" % cc
    return None


needs_compiler = pytest.mark.skipif(_compiler_missing() is not None, reason=str(_compiler_missing()))


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """A MAESTER_HOME whose compiled/ holds a build of MODULES."""
    home = tmp_path_factory.mktemp("home")
    manifest = compiled.build(MODULES, home / "compiled", progress=lambda line: None)
    assert sorted(manifest["modules"]) == sorted(MODULES)
    return home


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
def test_the_compiled_build_plays_the_same_games_as_the_source(home, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(home))
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
def test_the_compiled_generator_draws_the_same_numbers_at_the_edges(home, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(home))
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


def test_the_tests_and_every_command_run_the_source_unless_asked():
    import maester.engine.chance
    assert maester.engine.chance.__file__.endswith(".py")
    assert compiled.label() == "pure"


@needs_compiler
def test_bench_engine_says_which_build_it_measured(home, monkeypatch, capsys):
    monkeypatch.setenv("MAESTER_HOME", str(home))
    assert main(["bench", "engine", "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["build"] == "pure Python (the reference)"
    # The compiled run is a child process writing to the inherited stdout: capture at the fd level.
    code = "import sys; from maester.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-c", code, "bench", "engine", "--build", "compiled", "--games", "2",
                           "--json"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["build"].startswith("Cython ") and "3 of the 3 modules imported here are compiled" in out["build"]
    assert out["games"] == 2


@needs_compiler
def test_a_stale_build_is_refused_naming_the_changed_source(home, tmp_path, monkeypatch, capsys):
    stale = tmp_path / "home"
    shutil.copytree(home, stale)
    path = stale / "compiled" / "manifest.json"
    manifest = json.loads(path.read_text())
    # As if chance.py had been edited after the build: its recorded hash no longer matches.
    manifest["modules"]["maester.engine.chance"]["sha256"] = hashlib.sha256(b"older source").hexdigest()
    path.write_text(json.dumps(manifest))
    monkeypatch.setenv("MAESTER_HOME", str(stale))
    with pytest.raises(ValueError, match=r"stale.*maester/engine/chance\.py"):
        compiled.load_manifest()
    assert main(["bench", "engine", "--build", "compiled", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "maester/engine/chance.py" in err and "maester build-fast" in err
    proc = subprocess.run(compiled.child("print('ran')", "compiled"), capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "stale" in proc.stderr and "ran" not in proc.stdout


def test_without_a_build_the_compiled_bench_says_how_to_make_one(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    assert main(["bench", "engine", "--build", "compiled", "--games", "1"]) == 2
    assert "no compiled build" in capsys.readouterr().err
    assert main(["bench", "engine", "--build", "both", "--games", "1"]) == 2
    assert "bench peers" in capsys.readouterr().err


def test_build_fast_refuses_a_module_outside_the_build(capsys):
    assert main(["build-fast", "--module", "maester.web.app"]) == 2
    assert "maester.engine.core" in capsys.readouterr().err


@needs_compiler
def test_a_rebuild_keeps_the_modules_whose_source_is_unchanged(home, tmp_path):
    out = tmp_path / "compiled"
    shutil.copytree(home / "compiled", out)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["modules"]["maester.engine.bots"]["sha256"] = "0" * 64  # as if bots.py changed since
    (out / "manifest.json").write_text(json.dumps(manifest))
    lines = []
    rebuilt = compiled.build(MODULES, out, progress=lines.append)
    assert "maester.engine.chance (unchanged, kept)" in lines[0]
    assert "maester.engine.bots" in lines[2] and "kept" not in lines[2]  # compiled again, and now matches its source
    source = compiled.source_of("maester.engine.bots")
    assert rebuilt["modules"]["maester.engine.bots"]["sha256"] == hashlib.sha256(source.read_bytes()).hexdigest()
    compiled.load_manifest(out)  # the result is a whole, fresh build


@needs_compiler
def test_bench_peers_measures_both_builds_side_by_side(home, monkeypatch, capsys):
    pytest.importorskip("pyspiel", reason="OpenSpiel (the `peers` extra) is not installed")
    monkeypatch.setenv("MAESTER_HOME", str(home))
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
def test_a_whole_build_is_stale_when_a_rule_module_was_added_since(home, tmp_path):
    out = tmp_path / "compiled"
    shutil.copytree(home / "compiled", out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is False  # three modules of many: the others run from source, as asked
    compiled.load_manifest(out)
    manifest["complete"] = True  # as if it had been the whole build, before the other modules existed
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match=r"maester/engine/cardtables\.py \(new, not in the build\)"):
        compiled.load_manifest(out)
