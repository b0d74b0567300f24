"""`maester build-fast`: a checkout's compiled build made again after a change (compiled.py)."""

import os
import shutil
import sys

from .. import compiled
from ..argtypes import int_range


def cmd_build(args):
    names = compiled.module_names()
    if args.module:
        unknown = [m for m in args.module if m not in names]
        if unknown:
            raise ValueError("--module: %s not among the modules the build compiles: %s"
                             % (", ".join(unknown), ", ".join(names)))
    if compiled.INSTALLED and not os.environ.get("MAESTER_COMPILED"):
        raise ValueError("build-fast rebuilds a checkout's compiled build; this maester is installed, and its "
                         "build was made when it was: %s" % compiled.REBUILD)

    def say(line):
        print(line, file=sys.stderr, flush=True)

    out = compiled.build_dir()
    why = compiled.why_pure()
    if why:  # not an error: maester runs as it is, only slower
        if not args.module:
            shutil.rmtree(out, ignore_errors=True)
        say(compiled.pure_line(why))
        return 0
    say("the compiled build of %d modules in %s: compiling what changed, %d at a time"
        % (len(args.module or names), out, args.jobs or compiled.cores()))
    try:
        manifest = compiled.build(args.module, out, progress=say, force=args.force, jobs=args.jobs,
                                  keep_others=bool(args.module))
    except RuntimeError as e:
        say("maester: %s" % e)
        return 1
    print("built %d modules in %.1f s; maester uses them from now on (MAESTER_PURE=1 runs the source); "
          "measure with `maester bench peers --build both`" % (len(manifest["modules"]), manifest["build_seconds"]))
    return 0


def register(sub):
    p = sub.add_parser(
        "build-fast", help="compile a checkout's engine, bots and rules with Cython again, after a change",
        description="In a checkout: compile the engine's core and chance, the bots and each game's rule modules with "
                    "Cython 3 from the same .py source into host/maester/_compiled, the compiled build that "
                    "`maester` runs when it is fresh (a build older than its source is never used). Only modules "
                    "whose source changed are compiled again, one a core at a time. The editable install and "
                    "`make demo`/`make test` run it; an installed maester made its build when it was installed. "
                    "Without Cython, a C compiler or Python's headers, or with MAESTER_PURE=1, says so in one line "
                    "and leaves the pure build. Example: maester build-fast && maester bench peers --build both")
    p.add_argument("--module", action="append", metavar="NAME",
                   help="compile only this module (repeat for more), e.g. maester.engine.chance; the build's other "
                        "modules whose source is unchanged stay compiled (default: all)")
    p.add_argument("--force", action="store_true",
                   help="compile every module again (default: keep those whose source is unchanged)")
    p.add_argument("--jobs", type=int_range(1, 64), metavar="N", help="modules compiled at a time, 1 to 64 (default: one a core)")
    p.set_defaults(func=cmd_build)
