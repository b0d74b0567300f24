"""`maester build-fast`: the engine, the bots and the games' rules compiled by Cython (compiled.py)."""

import sys

from .. import compiled


def cmd_build(args):
    names = compiled.module_names()
    if args.module:
        unknown = [m for m in args.module if m not in names]
        if unknown:
            raise ValueError("--module: %s not among the modules the build compiles: %s"
                             % (", ".join(unknown), ", ".join(names)))
        names = args.module
    out = compiled.build_dir()
    print("compiling %d modules with Cython into %s" % (len(names), out), file=sys.stderr)
    try:
        manifest = compiled.build(names, out, progress=lambda line: print(line, file=sys.stderr, flush=True),
                                  force=args.force)
    except RuntimeError as e:
        print("maester: %s" % e, file=sys.stderr)
        return 1
    print("built %d modules in %.1f s; measure with `maester bench peers --build both`"
          % (len(manifest["modules"]), manifest["build_seconds"]))
    return 0


def register(sub):
    p = sub.add_parser(
        "build-fast", help="compile the engine, bots and rules with Cython (optional; bench --build compiled)",
        description="Compile the engine's core and chance, the bots and each game's rule modules with Cython 3, "
                    "from the same .py source, into $MAESTER_HOME/compiled. Optional: needs a C compiler and the "
                    "`fast` extra: %s. The build is used only by `maester bench engine --build compiled` and "
                    "`maester bench peers --build compiled|both`; everything else, tests included, runs the "
                    "Python source. A build whose source changed since is refused, never used. Prints a line "
                    "per module. Example: maester build-fast && maester bench peers --build both" % compiled.INSTALL_HINT)
    p.add_argument("--module", action="append", metavar="NAME",
                   help="compile only this module (repeat for more), e.g. maester.engine.chance (default: all)")
    p.add_argument("--force", action="store_true",
                   help="compile every module again (default: keep those whose source is unchanged)")
    p.set_defaults(func=cmd_build)
