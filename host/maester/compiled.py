"""The optional compiled build: the engine, the bots and the games' rules compiled by Cython.

`maester build-fast` (needs the `fast` extra: `pip install 'maester[fast]'` and a C compiler) runs
Cython 3 over the .py source of the hot modules (module_names) and puts the extension modules in
$MAESTER_HOME/compiled, with a manifest holding the SHA-256 of each source file it compiled. Two of
them have C types in a .pxd beside them (engine/chance.pxd: the generator's 64-bit arithmetic on C
integers; engine/core.pxd: the apply loop's context as an extension type): Cython reads those, Python
never does, so both builds run the same source and play the same games (tests/test_compiled.py).
Nothing imports them unless asked: `maester bench engine --build compiled` and `maester bench peers
--build compiled|both` run their measurement in a process that calls `activate()` before anything
of the engine is imported. Everything else, the tests included, runs the pure-Python source, which
stays the reference.

`activate()` refuses a stale build (a source changed, was removed or the build is for another
Python) with a ValueError naming what changed: a compiled module is never used in place of source
it was not built from.
"""

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from .cards.db import maester_home

PACKAGE = Path(__file__).resolve().parent  # host/maester
INSTALL_HINT = "pip install 'maester[fast]', in a checkout .venv/bin/pip install -e '.[fast]'"
# Modules that shape the game but play no part in the rules: pages, the table's taps, text, the terminal, deck files.
SKIP = {"web", "table", "text", "tui", "decks"}
# Compile without changing what the code means: annotations stay hints (Cython would otherwise
# make a `float` annotation a C double), functions stay introspectable like Python's.
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}


def build_dir():
    return maester_home() / "compiled"


def module_names():
    """The modules the build compiles: the engine's core, chance, card tables and lazy view, the bots,
    the loop that plays bots against the engine (sim: `maester sim` and the benches), and every module
    of each game's package except its web page, table, text and deck-file code. A module may have a
    .pxd beside it (engine/chance.pxd, engine/core.pxd): C types that only the compiled build reads."""
    names = ["maester.engine.core", "maester.engine.chance", "maester.engine.cardtables", "maester.engine.lazyview",
             "maester.engine.bots", "maester.sim"]
    for pkg in sorted(p for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file()):
        for src in sorted(pkg.glob("*.py")):
            if src.stem not in SKIP:
                names.append("maester.games.%s%s" % (pkg.name, "" if src.stem == "__init__" else "." + src.stem))
    return names


def source_of(name):
    """The .py file of module `name` (a package's __init__.py)."""
    rel = Path(*name.split(".")[1:])
    path = PACKAGE / rel / "__init__.py"
    return path if path.is_file() else PACKAGE / rel.with_suffix(".py")


def _sha256(path):
    """The hash of a module's source: its .py and, when it has one, the .pxd beside it that gives the
    compiled build its C types (a changed .pxd makes the build stale as a changed .py does)."""
    path = Path(path)
    h = hashlib.sha256(path.read_bytes())
    types = path.with_suffix(".pxd")
    if types.is_file():
        h.update(b"\0pxd\0" + types.read_bytes())
    return h.hexdigest()


def _abi():
    return sysconfig.get_config_var("EXT_SUFFIX")


def build(names=None, out=None, progress=print, force=False):
    """Compile `names` (default: module_names()) into `out` (default: build_dir()), replacing any
    build there only once the new one is complete. A module whose source is unchanged since the
    build there (same hash, Python, Cython and directives) is kept as it is, unless `force`.
    Returns the manifest. Raises ValueError when Cython is missing, RuntimeError with the
    compiler's words when a module does not compile."""
    try:  # the `fast` extra, needed only here
        from Cython import __version__ as cython_version
        from Cython.Build import cythonize
    except ImportError:
        raise ValueError("Cython is missing: %s" % INSTALL_HINT)
    from setuptools import Distribution, Extension  # what Cython builds with; only here (start-up)

    names = list(names or module_names())
    out = Path(out or build_dir())
    out.parent.mkdir(parents=True, exist_ok=True)
    _sweep(out.parent)
    work = Path(tempfile.mkdtemp(prefix=".building-%d-" % os.getpid(), dir=out.parent))
    modules = {}
    previous = {} if force else _reusable(out, cython_version)
    t0 = time.perf_counter()
    try:
        for i, name in enumerate(names, 1):
            t1 = time.perf_counter()
            src = source_of(name)
            digest = _sha256(src)  # hashed before compiling: an edit during the build makes it stale, not wrong
            kept = previous.get(name)
            if kept and kept["sha256"] == digest and (out / kept["so"]).is_file():
                (work / "lib" / kept["so"]).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(out / kept["so"], work / "lib" / kept["so"])
                modules[name] = kept
                progress("[%d/%d] %s (unchanged, kept)" % (i, len(names), name))
                continue
            # No debug info: it doubles the compile time and the module's size, and nobody steps through
            # generated C.
            ext = Extension(name, [str(src)], extra_compile_args=[] if os.name == "nt" else ["-g0"])
            try:
                exts = cythonize([ext], compiler_directives=DIRECTIVES, build_dir=str(work / "c"), quiet=True,
                                 force=True)
                dist = Distribution({"ext_modules": exts, "script_name": "maester build-fast"})
                cmd = dist.get_command_obj("build_ext")
                cmd.build_lib, cmd.build_temp = str(work / "lib"), str(work / "tmp")
                cmd.ensure_finalized()
                cmd.run()
            except (Exception, SystemExit) as e:  # Cython and distutils report failures as either
                raise RuntimeError("%s does not compile: %s" % (src.relative_to(PACKAGE.parent), e))
            so = cmd.get_ext_fullpath(name)
            modules[name] = {"source": str(src.relative_to(PACKAGE.parent)), "sha256": digest,
                             "so": str(Path(so).relative_to(work / "lib")), "package": src.name == "__init__.py"}
            progress("[%d/%d] %s (%.1f s)" % (i, len(names), name, time.perf_counter() - t1))
        manifest = {"python": sys.version.split()[0], "abi": _abi(), "cython": cython_version,
                    "directives": DIRECTIVES, "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "build_seconds": round(time.perf_counter() - t0, 1), "modules": modules,
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


def _reusable(out, cython_version):
    """The modules of the build in `out` that a new build may keep: all of them when it was made
    by this Python, this Cython and these directives, else none."""
    try:
        m = json.loads((out / "manifest.json").read_text())
    except (OSError, ValueError):
        return {}
    if (m.get("abi"), m.get("cython"), m.get("directives")) != (_abi(), cython_version, DIRECTIVES):
        return {}
    return m.get("modules", {})


def _sweep(parent):
    """Remove what builds killed before their cleanup left (tens of MB of C each)."""
    for d in parent.glob(".building-*-*"):
        try:
            os.kill(int(d.name.split("-")[1]), 0)
        except ProcessLookupError:
            shutil.rmtree(d, ignore_errors=True)
        except (ValueError, OSError):
            pass  # not a name we gave, or a live process we may not signal: leave it


def load_manifest(where=None):
    """The build's manifest, checked against the source. Raises ValueError when there is no build,
    or it is stale: the reason names each module whose source changed or went away."""
    where = Path(where or build_dir())
    try:
        manifest = json.loads((where / "manifest.json").read_text())
    except FileNotFoundError:
        raise ValueError("no compiled build in %s: run `maester build-fast` first (it needs a C compiler and "
                         "Cython: %s)" % (where, INSTALL_HINT))
    except ValueError:
        raise ValueError("%s/manifest.json is damaged: run `maester build-fast` again" % where)
    if manifest.get("abi") != _abi():
        raise ValueError("the compiled build in %s is for another Python (%s, this is %s): run `maester build-fast` "
                         "again" % (where, manifest.get("abi"), _abi()))
    stale = []
    for name, m in sorted(manifest["modules"].items()):
        src = PACKAGE.parent / m["source"]
        if not src.is_file():
            stale.append("%s (source gone)" % m["source"])
        elif _sha256(src) != m["sha256"]:
            stale.append(m["source"])
        elif not (where / m["so"]).is_file():
            stale.append("%s (compiled module missing)" % m["source"])
    if manifest.get("complete"):  # a module added since would run uncompiled among compiled ones
        stale += ["%s (new, not in the build)" % source_of(n).relative_to(PACKAGE.parent)
                  for n in module_names() if n not in manifest["modules"]]
    if stale:
        raise ValueError("the compiled build is stale, its source changed since it was built: %s. Run `maester "
                         "build-fast` again" % ", ".join(stale))
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


def child(argv, build):
    """Popen arguments for a Python process like this one that activates `build` ("pure" or
    "compiled") and then runs `python -c` code `argv` (a string)."""
    pre = "import maester.compiled as _c; _c.activate()\n" if build == "compiled" else ""
    return [sys.executable, "-c", pre + argv]


