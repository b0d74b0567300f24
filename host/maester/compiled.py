"""The compiled build: the engine, the bots and the games' rules compiled by Cython from the same .py
source, made when maester is built and used by every command when it is there and fresh.

Building. setup.py runs `build` when pip builds maester (a wheel, `pip install`, or the editable
install of a checkout); `maester build-fast` runs it again in a checkout, compiling only what changed.
Cython 3 turns each module of the rules (module_names) into C and the C compiler builds it, one module
a core at a time, the largest first, with the flags of cflags() (README, "Speed": how long it takes,
and why these flags and modules). Without Cython, a C compiler or Python's C headers, or with
MAESTER_PURE=1, nothing is compiled and one line says so (why_pure): maester runs as pure Python, as
it always can. Two modules have C types in a .pxd
beside them (engine/chance.pxd: the generator's 64-bit arithmetic on C integers; engine/core.pxd: the
apply loop's context as an extension type): Cython reads those, Python never does, so both builds run
the same source and play the same games (tests/test_compiled.py).

Where it lives. In the package's folder, maester/_compiled/ (build_dir): inside the installed
package for a wheel, host/maester/_compiled/ in a checkout (ignored by git). Its manifest holds the
SHA-256 of each source file it was compiled from. The extension modules are not put beside their
.py, where Python would import them before the source whatever the source said since.

Using it. `maester` calls use_default() before it imports any of the engine: with a fresh build the
modules it lists are imported compiled (a meta path finder), else the source runs. A stale build (a
source changed or went away, or it is for another Python) is never used: one line names what
changed. MAESTER_PURE=1 runs the source. Everything that imports maester without the command line,
the tests included, runs the source, which stays the reference; `bench engine|peers --build` picks a
build for a measurement in a process of its own (child).
"""

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

from .paths import INSTALLED, PACKAGE

PURE_ENV = "MAESTER_PURE"  # set (not "" or "0"): build and run the pure build
# Modules that shape the game but play no part in the rules: pages, the table's taps, text, the terminal, deck files.
SKIP = {"web", "table", "text", "tui", "decks"}
# The LCG's card files (games/lcg/cards_*.py), which register each card's ability, are compiled too:
# their targets, conditions and constant abilities are asked at every window. Compiled, the engine's
# part of 20 seeded random games (ir.py, callgrind) took 19M fewer instructions (1,031M against
# 1,050M), and a process no longer compiles their 2,650 lines of source into bytecode at its first
# game (without .pyc files, 160M); the four take 26 s of CPU to build at -O1 (issue 29).
# Compile without changing what the code means: annotations stay hints (Cython would otherwise
# make a `float` annotation a C double), functions stay introspectable like Python's.
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}
# The C compiler's options, after Python's own (its -O3 and -g): no debug info (it doubles the compile
# time and the module's size, and nobody steps through generated C), and for most modules -O1. The
# compiler is nearly all of a build's time: -O2 took 372 s of CPU for the whole build on this 2-core
# machine, -O1 209 s, for games 2.5-7% slower than at -O2 or -O3. The engine, the bots, the decision
# loop and B'Twixt's rules keep -O3: B'Twixt is the game the speed targets are set on (bench/peers.py
# TARGET_GAME), and -O3 plays it 7% faster than -O1 (64.7k against 60.5k decisions a CPU-second, in
# turns on the same loaded machine), which its 0.5x hearts target needs. So do the three LCG modules
# its decisions spend their compiled time in (issue 29: model, abilities, timing): the LCG's modules at
# -O3 played its random games 2-3% faster than at -O1 (10.7k and 10.8k against 10.4k and 10.6k decisions
# a CPU-second, in pairs on a quiet machine), but all ten took 113 s to build instead of 34 s (2 at a time).
# Sampling and ordering, which copy the state the order of passive effects is played out on, are at
# -O3 too: 2.6M fewer instructions in those 20 games' passive_order (89.1M against 91.8M), for 3 s
# more of the C compiler's CPU (4.2 and 2.7 s against 2.2 and 1.4). Flow, challenge and effects at -O3
# took 3.5M more off between them (flow's marshalling 1M of it; the bots' module nothing in random
# play) for 11 s more (flow 10.3 s against 4.6): they stay at -O1.
# Intrigue and Oathbreaker, whose compiled speed has a target of its own (8x dominoes), keep -O3 too:
# Oathbreaker's random games were 1-6% faster than at -O1 (three pairs on a loaded machine; issue 29).
CFLAGS = ["-g0", "-O1"]
HOT = ("maester.engine.", "maester.sim", "maester.games.btwixt",  # the engine's room holds the bots
       "maester.games.intrigue", "maester.games.oathbreaker",
       "maester.games.lcg.model", "maester.games.lcg.abilities", "maester.games.lcg.timing",
       "maester.games.lcg.ordering", "maester.games.lcg.sampling")
HOT_CFLAGS = ["-g0"]  # Python's own -O3


def cflags(name):
    """The C compiler's options for module `name`."""
    return HOT_CFLAGS if name.startswith(HOT) else CFLAGS


REBUILD = "in a checkout, `maester build-fast` rebuilds it" if not INSTALLED else "reinstall maester to rebuild it"


def build_dir():
    """The compiled build's folder: $MAESTER_COMPILED (the tests' builds), else maester/_compiled."""
    return Path(os.environ.get("MAESTER_COMPILED") or PACKAGE / "_compiled")


def pure_asked():
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def module_names():
    """The modules the build compiles: the engine's core, chance, card tables and lazy view, the bots,
    the loop that plays bots against the engine (sim: `maester sim` and the benches), and every module
    of each game's package except its web page, table, text, terminal drawing and deck-file code. A module may have a
    .pxd beside it (engine/chance.pxd, engine/core.pxd): C types that only the compiled build reads."""
    names = ["maester.engine.core", "maester.engine.chance", "maester.engine.cardtables", "maester.engine.lazyview",
             "maester.engine.bots", "maester.sim"]
    games = os.path.join(PACKAGE, "games")  # os, not pathlib: every command's start runs this (use_default)
    for pkg in sorted(os.listdir(games)):
        if not os.path.isfile(os.path.join(games, pkg, "__init__.py")):
            continue
        for stem in sorted(f[:-3] for f in os.listdir(os.path.join(games, pkg)) if f.endswith(".py")):
            if stem not in SKIP:
                names.append("maester.games.%s%s" % (pkg, "" if stem == "__init__" else "." + stem))
    return names


def source_of(name):
    """The .py file of module `name` (a package's __init__.py)."""
    rel = Path(*name.split(".")[1:])
    path = PACKAGE / rel / "__init__.py"
    return path if path.is_file() else PACKAGE / rel.with_suffix(".py")


def _sha256(path):
    """The hash of a module's source: its .py and, when it has one, the .pxd beside it that gives the
    compiled build its C types (a changed .pxd makes the build stale as a changed .py does)."""
    path = str(path)
    with open(path, "rb") as f:
        h = hashlib.sha256(f.read())
    try:
        with open(os.path.splitext(path)[0] + ".pxd", "rb") as f:
            pxd = f.read()
    except FileNotFoundError:
        return h.hexdigest()
    h.update(b"\0pxd\0" + pxd)
    # A .pxd may cimport another module's (`cimport maester.games.btwixt.zones as Z`): the module then
    # calls that one's cpdef functions in C, through their declared signatures, so it is stale when
    # those declarations change too (kept, it would fail to import against the new ones).
    for line in pxd.splitlines():
        if line.startswith(b"cimport maester."):
            dep = line.split()[1].decode()
            with open(os.path.join(PACKAGE.parent, *dep.split(".")) + ".pxd", "rb") as f:
                h.update(b"\0cimport\0" + f.read())
    return h.hexdigest()


def _abi():
    return importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so


# ---------------------------------------------------------------- building

def why_pure():
    """Why a build here is the pure build (one short reason), or None when it compiles."""
    if pure_asked():
        return "%s=%s asks for it" % (PURE_ENV, os.environ[PURE_ENV])
    return cannot_compile()


def cannot_compile():
    """What this machine lacks to compile the build (one short reason), or None."""
    # start-up: every command's start imports this module; only a build needs these
    import shlex
    import shutil
    import sysconfig
    try:
        import Cython  # noqa: F401  (optional: a build requirement, not installed with a wheel)
    except ImportError:
        return "Cython is not installed"
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")[0]  # as setuptools picks it
    if not shutil.which(cc):
        return "no C compiler (%s) on PATH" % cc
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "Python's C headers are not installed (no Python.h: on Debian, apt install python3-dev)"
    return None


def _compile(name, src, work):
    """One module: Cython's C from `src`, then the extension module, in `work` (a worker process).
    Returns (the module's path under work/lib, seconds); RuntimeError with the compiler's words."""
    import time  # start-up: every command's start imports this module; only a build needs these
    t = time.perf_counter()
    # optional: Cython is a build requirement, not installed with a wheel; setuptools is what it builds with
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    ext = Extension(name, [str(src)], extra_compile_args=[] if os.name == "nt" else cflags(name))
    try:
        exts = cythonize([ext], compiler_directives=DIRECTIVES, build_dir=str(work / "c"), quiet=True, force=True)
        dist = Distribution({"ext_modules": exts, "script_name": "maester build-fast"})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib, cmd.build_temp = str(work / "lib"), str(work / "tmp" / name)
        cmd.ensure_finalized()
        cmd.run()
    except (Exception, SystemExit) as e:  # Cython and distutils report failures as either
        raise RuntimeError("%s does not compile: %s" % (src.relative_to(PACKAGE.parent), e)) from None
    return str(Path(cmd.get_ext_fullpath(name)).relative_to(work / "lib")), time.perf_counter() - t


def cores():
    """The cores this process may use: how many modules a build compiles at a time by default."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:
        return os.cpu_count() or 1


def build(names=None, out=None, progress=print, force=False, reuse=None, jobs=None, keep_others=False):
    """Compile `names` (default: module_names()) into `out` (default: build_dir()), `jobs` modules at
    a time (default: one a core), replacing any build there only once the new one is complete. A
    module whose source is unchanged since the build in `reuse` (default `out`; same hash, Python,
    Cython, directives and C flags) is copied from it, unless `force`. With `keep_others`, the
    build's other modules whose source is unchanged stay in it too (`build-fast --module X` must not
    turn the rest of a whole build back into Python). Returns the manifest. Raises
    ValueError when Cython is missing, RuntimeError with the compiler's words when a module does not
    compile."""
    # start-up: every command's start imports this module; only a build needs these
    import shutil
    import tempfile
    import time
    from concurrent.futures import ProcessPoolExecutor, as_completed
    try:  # optional: a build requirement, not installed with a wheel
        from Cython import __version__ as cython_version
    except ImportError:
        raise ValueError("Cython is missing: pip install Cython (it is in maester's build requirements)") from None

    names = list(names or module_names())
    out = Path(out or build_dir())
    out.parent.mkdir(parents=True, exist_ok=True)
    _sweep(out.parent)
    work = Path(tempfile.mkdtemp(prefix="%s.building-%d-" % (out.name, os.getpid()), dir=out.parent))
    modules = {}
    reuse = Path(reuse or out)
    previous = {"modules": {}} if force else _reusable(reuse, cython_version)
    if keep_others:  # even with `force`: that applies to the modules named, not to the rest
        others = _reusable(reuse, cython_version)["modules"]
        carried = {n: m for n, m in others.items() if n not in names and n in module_names()
                   and _still_good(m, n, _sha256(source_of(n)), reuse)}
        names += sorted(carried)
        previous = {"modules": dict(previous["modules"], **carried)}
    t0 = time.perf_counter()
    try:
        todo = {}
        for name in names:
            src = source_of(name)
            digest = _sha256(src)  # hashed before compiling: an edit during the build makes it stale, not wrong
            entry = {"source": src.relative_to(PACKAGE.parent).as_posix(), "sha256": digest,
                     "package": src.name == "__init__.py", "cflags": cflags(name)}
            kept = previous.get("modules", {}).get(name)
            if kept and _still_good(kept, name, digest, reuse):
                modules[name] = dict(entry, so=kept["so"])
            else:
                todo[name] = (src, entry)
        if not todo and reuse == out and sorted(previous["modules"]) == sorted(names):
            progress("the compiled build in %s is up to date: its %d modules' source is unchanged" % (out, len(names)))
            return previous
        for name in modules:
            (work / "lib" / modules[name]["so"]).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(reuse / modules[name]["so"], work / "lib" / modules[name]["so"])
        if modules:
            progress("kept %d modules whose source is unchanged since the build in %s" % (len(modules), reuse))
        done = len(modules)
        if todo:
            import multiprocessing  # start-up: only a build starts workers
            # Forked workers where the platform has fork: they start at once, with this module loaded.
            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
            with ProcessPoolExecutor(min(jobs or cores(), len(todo)), mp_context=multiprocessing.get_context(method)) as pool:
                # The largest first, so that no worker is left with a big one while the others idle.
                order = sorted(todo, key=lambda name: -todo[name][0].stat().st_size)
                running = {pool.submit(_compile, name, todo[name][0], work): name for name in order}
                try:
                    for future in as_completed(running):
                        name = running[future]
                        so, seconds = future.result()
                        modules[name] = dict(todo[name][1], so=so)
                        done += 1
                        progress("[%d/%d] %s (%.1f s)" % (done, len(names), name, seconds))
                except BaseException:
                    for future in running:
                        future.cancel()
                    raise
        manifest = {"python": sys.version.split()[0], "abi": _abi(), "cython": cython_version,
                    "directives": DIRECTIVES,
                    "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "build_seconds": round(time.perf_counter() - t0, 1),
                    "modules": {name: modules[name] for name in names},
                    "complete": sorted(names) == sorted(module_names())}
        (work / "lib" / "manifest.json").write_text(json.dumps(manifest, indent=1))
        old = out.with_name(out.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if out.exists():
            out.rename(old)
        (work / "lib").rename(out)
        shutil.rmtree(old, ignore_errors=True)
        return manifest
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _still_good(entry, name, digest, where):
    """Whether a module's entry in the build in `where` may be kept: made from source of this hash,
    with today's C flags, and its library still there."""
    return (entry["sha256"], entry.get("cflags")) == (digest, cflags(name)) and (where / entry["so"]).is_file()


def pure_line(why):
    """The one line saying that maester runs as pure Python, and why."""
    return "maester: the pure build (%s): everything runs as Python, only slower" % why


def build_or_explain(out=None, say=print, reuse=None, jobs=None):
    """What setup.py runs: the whole build into `out`, or, when this machine cannot compile it
    (why_pure) or a module does not compile, no build there and pure_line. Returns the manifest, or
    None for the pure build."""
    import shutil  # start-up: every command's start imports this module
    out = Path(out or build_dir())
    why = why_pure()
    if why is None:
        say("maester: the compiled build: %d modules by Cython, into %s" % (len(module_names()), out))
        try:
            return build(out=out, reuse=reuse, jobs=jobs, progress=lambda line: say("  " + line))
        except (RuntimeError, ValueError) as e:
            why = str(e).strip().splitlines()[0]
    shutil.rmtree(out, ignore_errors=True)  # an older build must not outlive the line below
    say(pure_line(why))
    return None


def _reusable(out, cython_version):
    """The manifest of the build in `out` when a new build may keep its modules (made by this Python,
    this Cython and these directives; each module's C flags are checked with it), else an empty one."""
    try:
        m = json.loads((out / "manifest.json").read_text())
    except (OSError, ValueError):
        return {"modules": {}}
    if (m.get("abi"), m.get("cython"), m.get("directives")) != (_abi(), cython_version, DIRECTIVES):
        return {"modules": {}}
    return m


def _sweep(parent):
    """Remove what builds killed before their cleanup left (tens of MB of C each)."""
    import shutil  # start-up: every command's start imports this module
    for d in parent.glob("*.building-*-*"):
        try:
            os.kill(int(d.name.split(".building-")[1].split("-")[0]), 0)
        except ProcessLookupError:
            shutil.rmtree(d, ignore_errors=True)
        except (ValueError, OSError):
            pass  # not a name we gave, or a live process we may not signal: leave it


# ---------------------------------------------------------------- using it

def load_manifest(where=None):
    """The build's manifest, checked against the source. Raises ValueError when there is no build,
    or it is stale: the reason names each module whose source changed or went away."""
    where = Path(where or build_dir())
    try:
        manifest = json.loads((where / "manifest.json").read_text())
    except FileNotFoundError:
        raise ValueError("no compiled build in %s (%s; it needs Cython and a C compiler)" % (where, REBUILD)) from None
    except ValueError:
        raise ValueError("%s/manifest.json is damaged: %s" % (where, REBUILD)) from None
    if manifest.get("abi") != _abi():
        raise ValueError("the compiled build in %s is for another Python (%s, this is %s): %s"
                         % (where, manifest.get("abi"), _abi(), REBUILD))
    stale = []
    for name, m in sorted(manifest["modules"].items()):  # in os.path's strings: this is every command's start
        try:
            if _sha256(os.path.join(PACKAGE.parent, m["source"])) != m["sha256"]:
                stale.append(m["source"])
            elif not os.path.isfile(os.path.join(where, m["so"])):
                stale.append("%s (compiled module missing)" % m["source"])
        except FileNotFoundError:
            stale.append("%s (source gone)" % m["source"])
    if manifest.get("complete"):  # a module added since would run uncompiled among compiled ones
        stale += ["%s (new, not in the build)" % source_of(n).relative_to(PACKAGE.parent).as_posix()
                  for n in module_names() if n not in manifest["modules"]]
    if stale:
        raise ValueError("the compiled build is stale, its source changed since it was built: %s; %s"
                         % (", ".join(stale), REBUILD))
    return manifest


class _Finder:
    """Finds the compiled build's modules; every other import goes on to the usual finders. (A
    meta path finder needs only find_spec: no importlib.abc base, which costs 10 ms to import.)"""

    def __init__(self, where, modules):
        self.where, self.modules = where, modules

    def find_spec(self, fullname, path=None, target=None):
        m = self.modules.get(fullname)
        if m is None:
            return None
        search = [str((PACKAGE.parent / m["source"]).parent)] if m["package"] else None
        return importlib.util.spec_from_file_location(fullname, self.where / m["so"],
                                                      submodule_search_locations=search)


_active = None  # the manifest of the build in use, once activate() ran
_why_pure = "not asked for"  # why this process runs the source, for describe()


def activate(where=None):
    """Use the compiled build for the rest of this process. Must run before any compiled module is
    imported (RuntimeError otherwise: half a build would measure nothing meaningful). Raises
    ValueError as load_manifest does. Returns the manifest."""
    global _active
    where = Path(where or build_dir())
    manifest = load_manifest(where)
    early = sorted(n for n in manifest["modules"] if n in sys.modules)
    if early:
        raise RuntimeError("activate() came after importing %s" % ", ".join(early))
    sys.meta_path.insert(0, _Finder(where, manifest["modules"]))
    _active = manifest
    return manifest


def use_default(warn=None):
    """What `maester` runs: the compiled build when there is a fresh one and MAESTER_PURE is not set,
    else the source. A stale or damaged build is not used, and `warn` (default: stderr) gets one
    line saying why."""
    global _why_pure
    if _active is not None:
        return
    if pure_asked():
        _why_pure = "%s=%s" % (PURE_ENV, os.environ[PURE_ENV])
        return
    where = build_dir()
    if not (where / "manifest.json").exists():
        _why_pure = ("none was made when maester was installed (pip install -v shows why)" if INSTALLED else
                     "none in this checkout: `maester build-fast` makes it")
        return
    try:
        activate(where)
    except RuntimeError:  # a program that imported the engine before it ran maester's command line
        _why_pure = "the engine was imported before the build could be loaded"
    except ValueError as e:
        _why_pure = str(e)
        (warn or (lambda line: print(line, file=sys.stderr)))("maester: running the pure build: %s" % e)


def loaded():
    """(how many of the active build's modules this process imported compiled, how many it imported
    at all): equal when the finder took every one. (0, 0) under the pure build."""
    if _active is None:
        return 0, 0
    mods = [sys.modules[name] for name in _active["modules"] if name in sys.modules]
    ext = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sum(1 for m in mods if str(getattr(m, "__file__", "")).endswith(ext)), len(mods)


def label():
    """Which build this process runs: "pure" or "compiled"."""
    return "pure" if _active is None else "compiled"


def describe():
    """One line on the build in use, for a bench's output."""
    if _active is None:
        return "pure Python (the reference)"
    n, imported = loaded()
    return "Cython %s, built %s; %d of the %d modules imported here are compiled" % (
        _active["cython"], _active["built"], n, imported)


def summary():
    """The build this process runs, for `maester --version` and `maester doctor`: the compiled build
    with its module count, or the pure build and why."""
    if _active is None:
        return "pure build (%s)" % _why_pure
    return "compiled build (%d modules by Cython %s)" % (len(_active["modules"]), _active["cython"])


def child(argv, build):
    """Popen arguments for a Python process like this one that activates `build` ("pure" or
    "compiled") and then runs `python -c` code `argv` (a string)."""
    pre = "import maester.compiled as _c; _c.activate()\n" if build == "compiled" else ""
    return [sys.executable, "-c", pre + argv]

