"""`maester sim` (whole games by bots, with statistics) and `maester bench` (the engine's speed here;
tap to light, peers, chaos and fuzz in maester/bench/). The games are played by maester/sim.py."""

import argparse
import importlib
import json
import os
import subprocess
import sys

from .. import games, lazy
from ..argtypes import int_range, seconds as seconds_arg

# Imported when games are played, not for --help (issue 16, start-up): the engine, the bots, the rules.
sim = lazy.Module("maester.sim")
compiled = lazy.Module("maester.compiled")

MAX_GAMES = 1000000
BENCH_GAMES = 500  # bench's --games, but for inputs: each of its games counts every decision of people
INPUTS_GAMES = 20
MAX_JOBS = 256


def _print_summary(stats):
    print("%s, %d players%s%s, %s bots: %d games, %d actions in %.2f s"
          % (stats["game"], stats["players"],
             " (%s)" % ", ".join(stats["variants"]) if stats["variants"] else "",
             " with decks %s" % ", ".join(stats["decks"]) if stats.get("decks") else "",
             stats["bots"], stats["games"], stats["actions"], stats["seconds"]))
    where = ("on one core" if stats.get("jobs", 1) == 1 and not stats.get("cluster") else
             "in wall time, %d worker processes" % stats["jobs"])
    if stats.get("cluster"):
        where += " of %s" % ("a local Dask cluster" if stats["cluster"] == "local" else
                             "the Dask cluster at %s" % stats["cluster"])
    print("  %.1f games/s, %.0f actions/s %s" % (stats["games_per_s"], stats["actions_per_s"], where))
    if stats.get("engine_us_per_decision") is not None:
        print("  engine %.1f us, bots %.1f us a decision"
              % (stats["engine_us_per_decision"], stats["bot_us_per_decision"]))
    wins = [0] * stats["players"]
    for w in stats["winners"]:
        for s in w:
            wins[s] += 1
    print("  wins by seat (shared victories count for each):", wins)
    r = stats["rounds_per_game"]
    print("  rounds per game: min %d, max %d" % (min(r), max(r)))
    for j, b in enumerate(stats.get("league") or ()):
        print("  %s (--bots entry %d): %d wins of %d games, %.1f%% (95%% CI %.1f%% to %.1f%%)"
              % (b["bot"], j + 1, b["wins"], stats["games"], 100 * b["rate"], 100 * b["ci95"][0], 100 * b["ci95"][1]))
    if stats.get("cpu_seconds") is not None:
        print("  %.1f s of CPU time" % stats["cpu_seconds"])
    if stats.get("build"):
        print("  build: %s" % stats["build"])
    if stats.get("search"):
        sr = stats["search"]
        print("  search bot: %s a decision, %d samples in all"
              % ("%d playouts" % sr["playouts"] if sr["playouts"] else "%d ms" % sr["think_ms"], sr["samples"]))


def cmd_sim(args):
    args.bots = args.bots or "random"
    players, decks = sim.players_and_decks(args.game, args.players, args.decks)
    if "search" in sim.parse_bots(args.bots) and args.game != "lcg":
        raise ValueError("--bots search: the search bot plays the LCG only")
    cluster, jobs = getattr(args, "cluster", None), getattr(args, "jobs", None)
    if cluster and cluster != "local" and jobs is not None:
        raise ValueError("--jobs is for this machine: the cluster at %s plays with the workers started there "
                         "(leave out --jobs, or use --cluster local)" % cluster)
    if jobs is None:  # not given: one process, or a local cluster of one worker per core
        jobs = _cores() if cluster == "local" else 1
    try:
        stats = sim.run(args.game, players, args.games, args.seed, args.bots, args.variant or (),
                        progress=not args.json, decks=decks, league=getattr(args, "league", False),
                        think_ms=getattr(args, "think_ms", 50), playouts=getattr(args, "playouts", None),
                        budget_s=getattr(args, "budget_s", None), jobs=jobs, cluster=cluster)
    except sim.GameFailed as e:
        print(e.args[1], end="", file=sys.stderr)  # the traceback, from the worker that played it
        print("maester: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # the workers are stopped by now (run closes its pool on the way out)
        print("\nmaester: interrupted; no figures printed", file=sys.stderr)
        return 130
    if getattr(args, "build", None):  # bench engine: which build was measured
        stats["build"] = compiled.describe()
    if args.json:
        print(json.dumps(stats))
    else:
        _print_summary(stats)


# `maester bench WHAT`: each measurement other than the engine's lives in a module of its own, imported
# only when asked for, so `maester --help` and `bench engine` pay nothing for the others.
BENCH_MODULES = {"hil": ("bench.hil", "cmd_hil"), "peers": ("bench.peers", "cmd_peers"),
                 "chaos": ("bench.chaos", "cmd_chaos"), "fuzz": ("bench.fuzz", "cmd_fuzz"),
                 "inputs": ("bench.inputs", "cmd_inputs")}


def cmd_bench(args):
    if args.games is None:
        args.games = INPUTS_GAMES if args.what == "inputs" else BENCH_GAMES
    args.build = args.build or compiled.label()  # default: the build this maester runs (maester --version)
    if args.what in BENCH_MODULES:
        module, func = BENCH_MODULES[args.what]
        return getattr(importlib.import_module("maester." + module), func)(args)
    if args.build == "both":
        raise ValueError("--build both is for bench peers; bench engine measures one build: pure or compiled")
    if args.build != compiled.label():  # the compiled build loads before the engine: measure in a process of its own
        return _bench_in_compiled_build(args)
    return cmd_sim(args)


def _bench_in_compiled_build(args):
    """`maester bench engine --build compiled`: this same bench in a process that loads the compiled
    build before the engine. Checks the build first so a stale one is refused here, exit 2."""
    compiled.load_manifest()
    fields = {k: v for k, v in vars(args).items() if not callable(v)}
    code = ("import json, sys\nfrom argparse import Namespace\nfrom maester.commands import sim\n"
            "try:\n    sys.exit(sim.cmd_bench(Namespace(**json.loads(sys.argv[1]))) or 0)\n"
            "except ValueError as e:\n    print('maester: %s' % e, file=sys.stderr)\n    sys.exit(2)\n")
    return subprocess.run(compiled.child(code, "compiled") + [json.dumps(fields)]).returncode


def _cores():
    try:
        return len(os.sched_getaffinity(0)) or 1  # the cores this process may use
    except AttributeError:
        return os.cpu_count() or 1


def jobs_arg(text):
    """--jobs: a whole number of worker processes, 1 to MAX_JOBS; 0 or "auto": one per core."""
    if str(text).strip().lower() == "auto":
        return _cores()
    try:
        n = int_range(0, MAX_JOBS)(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError("%r is not a number of worker processes: give a whole number from 1 "
                                         "to %d, or 0 or auto for one per core" % (text, MAX_JOBS)) from None
    return n or _cores()


jobs_arg.__name__ = "jobs"


def _options(p, default_games):
    """The options `sim` and `bench` share; numbers out of range are refused while parsing."""
    names = games.SHORT_TITLES
    p.add_argument("--players", type=int_range(min(lo for lo, _ in games.PLAYERS.values()),
                                               max(hi for _, hi in games.PLAYERS.values())), metavar="N",
                   help="seats at the table: %s" % "; ".join(
                       "%s %d to %d (default %d)" % (names[g], lo, hi, games.DEFAULT_PLAYERS[g])
                       for g, (lo, hi) in sorted(games.PLAYERS.items())))
    p.add_argument("--games", type=int_range(1, MAX_GAMES), default=default_games, metavar="G",
                   help="how many games, 1 to %d (default %s)" % (
                       MAX_GAMES, default_games or "%d; bench inputs: %d" % (BENCH_GAMES, INPUTS_GAMES)))
    p.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i (bench fuzz: the seed of the frames drawn)")
    p.add_argument("--bots", metavar="KIND[,KIND...]",
                   help="the bot at every seat, or one per seat comma-separated (repeated round the table): "
                        "random, heuristic, search (LCG) (default random; bench inputs: heuristic)")
    p.add_argument("--think-ms", type=int_range(1, 60000), default=50, metavar="MS",
                   help="LCG search bot: thinking time per decision (default %(default)s; not reproducible)")
    p.add_argument("--playouts", type=int_range(1, 10000), metavar="N",
                   help="LCG search bot: N samples per decision instead of a time budget (reproducible)")
    p.add_argument("--league", action="store_true",
                   help="LCG joust, --bots A,B: game i plays deck pairing (i//2) mod 16 (every starter deck "
                        "against every one, both seats), the bots swapping seats every game; prints each bot's "
                        "win rate with a 95%% interval")
    p.add_argument("--jobs", type=jobs_arg, metavar="N",
                   help="sim, bench engine: worker processes playing whole games side by side, 1 to %d, or 0 "
                        "or auto: one per core (%d here) (default 1: in this process; with --cluster local, one "
                        "per core). Game i has seed+i whatever N is, so "
                        "every figure but the timings is the same for any N; games/s and actions/s then "
                        "count wall time, the us a decision figures each game's own time" % (MAX_JOBS, _cores()))
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="sim, bench engine: play the games on a Dask distributed cluster (the cluster extra): the "
                        "address of its scheduler (tcp://HOST:8786, started with `dask scheduler`, its workers with "
                        "`dask worker ADDRESS --nworkers -1 --nthreads 1 --preload maester.cluster`), or local: a cluster of --jobs "
                        "worker processes started here. The same games and figures as --jobs; a worker lost "
                        "mid-run costs only the games it held, which others play again (README, \"A league on "
                        "several machines\")")
    p.add_argument("--budget-s", type=seconds_arg(0.001, None), metavar="S",
                   help="stop after the first game (in game order) at which the games' CPU time, summed "
                        "over all workers, passes S seconds; games still under way then are dropped (the "
                        "count played is reported)")
    p.add_argument("--variant", action="append", metavar="V",
                   help="a variant; repeat to combine. %s" % "; ".join(
                       "%s: %s" % (names[g], ", ".join(v)) for g, v in sorted(games.VARIANTS.items())))
    p.add_argument("--decks", metavar="D,D,...",
                   help="LCG: one deck per seat, comma-separated: a starter deck from %s, or the path of a "
                        "deck-list file (`maester decks check`), checked under the casual rules (any size, "
                        "so the 45-card starters qualify) (default: the starters in turn; without "
                        "--players, one seat per deck)" % ", ".join(games.STARTER_DECKS))
    p.add_argument("--json", action="store_true", help="print one JSON object with the figures")


def _fault_rate(text):
    """bench chaos --fault-rate: a chance from 0 to 0.5 (more and hardly a frame gets through)."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0.0 <= value <= 0.5:  # nan fails both comparisons
        raise argparse.ArgumentTypeError("%r is not a chance from 0 to 0.5" % text)
    return value


def register(sub):
    p = sub.add_parser("sim", help="play whole games with bots and print statistics",
                       description="Play whole games with bots at every seat and report speed, "
                                   "rounds and winners. Examples: maester sim btwixt --players 5 --games 100;  "
                                   "maester sim lcg --decks stark,targaryen --bots heuristic")
    p.add_argument("game", nargs="?", default="btwixt", choices=sorted(games.VARIANTS),
                   help="which game (default btwixt)")
    _options(p, 100)
    p.set_defaults(func=cmd_sim)

    p = sub.add_parser("bench", help="measure the engine's speed, or tap-to-light through a simulated board",
                       description="engine: full bot games on one core; prints games/s and actions/s (--json: the "
                                   "shape of `maester sim --json`). hil: taps laid on a `maester sim-board` process, "
                                   "through the serial link, the table, the engine and its log, back to the LED "
                                   "strip; prints lost and duplicated taps and the percentiles of placed → strip "
                                   "written, stage by stage. peers: decisions per second of our four games beside "
                                   "OpenSpiel's python_block_dominoes and C++ hearts, interleaved in one run (needs the "
                                   "peers extra), with the ratios to the targets (5x dominoes, 0.5x hearts), and the engine's "
                                   "floor (a game with no rules: what the engine itself allows); "
                                   "--build pure|compiled|both picks the build. chaos: "
                                   "whole games of every game on a simulated board behind a proxy that damages "
                                   "frames (--fault-rate), with board reboots, cable pulls and the host killed and "
                                   "resumed; prints frames, faults by kind, taps lost and doubled, games equal to "
                                   "the fault-free game and failed resumes (exit 1 if any is wrong). fuzz: --frames random and "
                                   "mutated frames into the receive path of the host (CPython) and of the board "
                                   "(its .mpy build under the MicroPython unix port), checked against an oracle; "
                                   "prints frames accepted and rejected by reason, crashes and frames/s (exit 1 on "
                                   "any crash or corrupt frame accepted). inputs: whole games of --game with a bot "
                                   "deciding for every seat, as at a built table, counting what the people "
                                   "would do: taps, page presses, keyboard entries, per round (median, p90) and "
                                   "per game, the prompts with a single choice that moves no card, the asks each "
                                   "seat saw, the LCG's per phase.")
    p.add_argument("what", choices=("engine",) + tuple(BENCH_MODULES), help="what to measure")
    p.add_argument("--taps", type=int_range(1, 100000), default=1000, metavar="N",
                   help="hil: how many taps, 1 to 100000 (default %(default)s)")
    p.add_argument("--profile", default="btwixt-3p", metavar="NAME",
                   help="hil: the table profile (a B'Twixt one; default %(default)s, 4 readers)")
    p.add_argument("--unpaced", action="store_true",
                   help="hil: let the simulated readers run as fast as the MicroPython unix port does. By "
                        "default each reader transaction takes at least a board's modelled time (SPI at 4 MHz, "
                        "~20 us per machine.SPI call, air time at 106 kbit/s, the chip's timer: "
                        "firmware/READERS.md), about 5x what the unix port needs, so the figure is a board's")
    p.add_argument("--game", dest="game", default="btwixt", choices=sorted(games.VARIANTS),
                   help="which game (default btwixt)")
    p.add_argument("--build", choices=("pure", "compiled", "both"),
                   help="engine, peers: measure the pure-Python source, the Cython build of it made when maester "
                        "was built, or (peers) both side by side (default: the build that runs, as `maester "
                        "--version` says)")
    p.add_argument("--seconds", type=seconds_arg(0.01, 600), default=1.0, metavar="S",
                   help="peers: CPU seconds per measurement, whole games (default %(default)s)")
    p.add_argument("--fault-rate", type=_fault_rate, default=0.02, metavar="P",
                   help="chaos: the chance that the fault proxy damages a frame, each way (default %(default)s)")
    p.add_argument("--moves", type=int_range(1, 100000), metavar="N",
                   help="chaos: stop each game after N moves and compare it there (default: whole games)")
    p.add_argument("--frames", type=int_range(1, 100000000), default=100000, metavar="N",
                   help="fuzz: how many frames (cases) per side, 1 to 100000000 (default %(default)s)")
    p.add_argument("--side", choices=("host", "board", "both"), default="both",
                   help="fuzz: the host's decoder under CPython, the board's under MicroPython, or both (default)")
    p.add_argument("--every-ask", action="store_true",
                   help="inputs: count every decision as put to a person, as before issue 28 (no answer "
                        "given by the table itself, no window that runs out)")
    p.add_argument("--rounds", type=int_range(1, 1000), default=5, metavar="R",
                   help="peers: interleaved rounds; each side's figure is its median round (default %(default)s)")
    _options(p, None)
    p.set_defaults(func=cmd_bench)
