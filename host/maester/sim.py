"""Whole games played by bots: `maester sim` for statistics and `maester bench engine` for speed."""

import argparse
import json
import os
import sys
import time

from .argtypes import int_range, seconds as seconds_arg
import math

# The bots and the engine are imported where games are played, so `sim --help` starts without them.

GAME_VARIANTS = {"btwixt": ("advanced", "draft", "kingsmoot", "revealed", "short"),
                 "intrigue": ("floor", "mat", "most_swords", "narrow_two", "winner_exempt", "winner_starts"),
                 "oathbreaker": ("aloof_king", "cagey_court", "night_is_dark", "order_in_court"),
                 "lcg": ("littlefinger", "two_on_two")}
# The LCG's default is the joust (two players): the Core box calls itself a four-player game, but
# its two-player game is the same game without titles, the one most played, and the shortest demo.
DEFAULT_PLAYERS = {"btwixt": 4, "intrigue": 4, "oathbreaker": 6, "lcg": 2}
DECK_GAMES = ("lcg",)  # games whose players each bring a deck (--decks)


def deck_names(game):
    """The starter decks `--decks` may name for `game`, in the order of the box."""
    if game not in DECK_GAMES:
        return []
    from .games.lcg.cards import deck_names as lcg_decks
    return lcg_decks()


def parse_decks(game, text, players=None):
    """`--decks stark,lannister` or `--decks stark,my.txt`: one deck per seat, a starter deck's
    name or the path of a deck-list file (games/lcg/decks.py), checked under the casual rules.

    Returns the list of names (lower case) and deck dicts. Raises ValueError naming the problem: a
    game without decks, an unknown deck (and the known ones), a deck file that is not legal, or a
    count that is not the number of players; FileNotFoundError for a file that is not there."""
    if text is None:
        return None
    if game not in DECK_GAMES:
        raise ValueError("--decks is for the LCG only (maester ... lcg --decks stark,lannister); %s has no decks"
                         % game)
    known = deck_names(game)
    decks = []
    for item in (d.strip() for d in text.split(",")):
        if item.lower() in known:
            decks.append(item.lower())
        elif item and (os.sep in item or "/" in item or "." in item or os.path.exists(item)):
            from .games.lcg.decks import load
            if not os.path.exists(item):
                raise FileNotFoundError("--decks: no deck file %s" % item)
            try:
                decks.append(load(item, casual=True))  # a folder, a device, a huge file: ValueError (decks.read)
            except OSError as e:
                raise ValueError("--decks: cannot read %s: %s" % (item, e.strerror or e)) from None
        else:
            raise ValueError("--decks: unknown deck %r: the starter decks are %s, or give a deck file's path"
                             % (item, ", ".join(known)))
    if players is not None and len(decks) != players:
        raise ValueError("--decks names %d deck%s for %d players: give one per seat, comma-separated, e.g. "
                         "--decks %s" % (len(decks), "" if len(decks) == 1 else "s", players,
                                         ",".join(known[s % len(known)] for s in range(players))))
    lo, hi = PLAYERS[game]
    if not lo <= len(decks) <= hi:
        raise ValueError("--decks names %d deck%s: the LCG seats %d to %d players, one deck each"
                         % (len(decks), "" if len(decks) == 1 else "s", lo, hi))
    return decks


def players_and_decks(game, players, decks_text):
    """The player count and deck list of a command: --players, else one seat per --decks name,
    else the game's default."""
    decks = parse_decks(game, decks_text, players)
    if players is None:
        players = len(decks) if decks else DEFAULT_PLAYERS[game]
    return players, decks


def parse_bots(text):
    """`--bots heuristic` (every seat) or `--bots heuristic,random` (seat by seat, the list repeated
    round the table): the list of bot kinds. Raises ValueError on an unknown kind."""
    kinds = [k.strip() for k in str(text).split(",")]
    for k in kinds:
        from .bots import BOT_KINDS
        if k not in BOT_KINDS:
            raise ValueError("--bots: unknown bot %r (choose from %s)" % (k, ", ".join(BOT_KINDS)))
    return kinds


def play_one(game, config, seed, bot_kind, on_step=None, think_ms=50, playouts=None, bots_out=None, timing=None):
    """Play a whole game with bots at every seat (`bot_kind`: one kind, or kinds seat by seat as
    parse_bots gives). Returns (state, actions). `timing` (a dict) gets the seconds spent in the
    bots' decisions ("bot_s") and in core.apply ("engine_s") added to it; setup is in neither."""
    from .bots import card_info, decide, make_bot
    from .engine import core
    state, _ = core.new_game(game, config, seed)
    info = card_info(state)
    n = core.get_game(game).seat_count(state)
    kinds = parse_bots(bot_kind) if isinstance(bot_kind, str) else list(bot_kind)
    bots = [make_bot(game, kinds[seat % len(kinds)], seed, seat, info, think_ms=think_ms, playouts=playouts)
            for seat in range(n)]
    if bots_out is not None:
        bots_out.extend(bots)
    actions = 0
    bot_s = engine_s = 0.0
    apply, view, clock = core.apply, core.view, time.perf_counter
    while not state["over"]:
        ask = state["asks"][0]
        seat = ask["seat"]
        bot = bots[seat]
        if timing is None:  # three clock reads a decision are 2% of a random game's
            result = apply(state, {"seat": seat, "ask": ask["id"], "choice": decide(bot, state, seat, ask, view)})
        else:
            t0 = clock()
            choice = decide(bot, state, seat, ask, view)
            t1 = clock()
            result = apply(state, {"seat": seat, "ask": ask["id"], "choice": choice})
            engine_s += clock() - t1
            bot_s += t1 - t0
        if not result.ok:
            raise RuntimeError("bot %s chose an illegal move: %s" % (seat, result.reason))
        actions += 1
        if on_step is not None:
            on_step(state, result)
    if timing is not None:
        timing["bot_s"] = timing.get("bot_s", 0.0) + bot_s
        timing["engine_s"] = timing.get("engine_s", 0.0) + engine_s
    return state, actions


def league_game(i, kinds, deck_list):
    """Game `i` of a league (--league): the deck pairing (i // 2) mod 16 (every starter deck against
    every one, each in both seats) with the two bots in the --bots order on even games and swapped on
    odd ones. Returns (decks, bot kinds by seat, the --bots index at each seat)."""
    pairs = [(a, b) for a in deck_list for b in deck_list]
    decks = list(pairs[(i // 2) % len(pairs)])
    order = [0, 1] if i % 2 == 0 else [1, 0]
    return decks, [kinds[j] for j in order], order


def wilson(k, n, z=1.96):
    """The 95% Wilson score interval of k successes in n trials, as (low, high)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


class GameFailed(RuntimeError):
    """A game raised an exception: the message names the game and its seed (to replay it alone with
    `maester sim --games 1 --seed S`); args[1] is the traceback where it failed, in a worker or here."""

    def __str__(self):
        return self.args[0]


def _play_task(task):
    """One game of a run, in whichever process plays it: the figures run() gathers from it.
    `task` is (index, game, config, seed, bot kinds by seat, think_ms, playouts, split: whether to
    time the bots and the engine apart)."""
    i, game, cfg, seed, seat_kinds, think_ms, playouts, split = task
    try:
        made, timing = [], {} if split else None
        cpu0 = time.process_time()
        state, actions = play_one(game, cfg, seed, seat_kinds, think_ms=think_ms, playouts=playouts,
                                  bots_out=made, timing=timing)
        return {"actions": actions, "rounds": state["result"].get("rounds"), "winners": state["result"]["winners"],
                "samples": sum(getattr(b, "samples", 0) for b in made), "cpu_s": time.process_time() - cpu0,
                "bot_s": timing["bot_s"] if split else 0.0, "engine_s": timing["engine_s"] if split else 0.0}
    except Exception as e:
        import traceback
        raise GameFailed("game %d (seed %d) failed: %s: %s" % (i + 1, seed, type(e).__name__, e),
                         traceback.format_exc()) from None


def _named_losses(results):
    """The results, with a worker process lost on the way reported as the games it may have had."""
    from .parallel import WorkerLost
    try:
        yield from results
    except WorkerLost as e:
        raise GameFailed("%s: one of games %s (seeds %s) killed it" % (
            e, ", ".join(str(t[0] + 1) for t in e.in_flight), ", ".join(str(t[3]) for t in e.in_flight)), "") from None
    finally:
        results.close()


def run(game, players, games, seed, bots="random", variants=(), progress=False, decks=None, league=False,
        think_ms=50, playouts=None, budget_s=None, jobs=1, split=True):
    """Play `games` games; return the figures `sim` and `bench` print. `bots`: one kind, or kinds
    seat by seat ("heuristic,random"). `league` (LCG joust, two bot kinds): game i follows
    league_game, and the figures count each --bots entry's wins. `jobs`: worker processes playing
    whole games (1: here, one after another); game i always has seed+i and the figures are gathered
    in game order, so everything but the timings is the same for any `jobs`. `budget_s` stops after
    the first game (in game order) at which the games' CPU time, summed, passes that many seconds;
    games still under way in other workers then are dropped. `split`: time the bots and the engine
    apart (the figures' engine_us/bot_us_per_decision; None without). Raises GameFailed if a game raises."""
    kinds = parse_bots(bots)
    config = {"players": players, "variants": list(variants)}
    if decks:
        config["decks"] = list(decks)
    if league:
        if game != "lcg" or players != 2 or len(kinds) != 2:
            raise ValueError("--league is for an LCG joust between two bots: --players 2 --bots A,B")
        if decks:
            raise ValueError("--league plays every starter deck against every one: leave out --decks")
    from .engine import core
    checked = core.get_game(game).check_config(config)  # fail early on bad input, before the clock starts
    orders = {}  # league: game i's --bots index at each seat

    def tasks():
        for i in range(games):
            cfg, seat_kinds = config, kinds
            if league:
                d, seat_kinds, orders[i] = league_game(i, kinds, deck_names(game))
                cfg = dict(config, decks=d)
            yield i, game, cfg, seed + i, seat_kinds, think_ms, playouts, split

    from .parallel import ordered
    workers = max(1, min(jobs, games))
    results = _named_losses(ordered(_play_task, tasks(), workers))
    rounds, winners = [], []
    by_bot = [0] * len(kinds)
    sums = dict.fromkeys(("actions", "samples", "cpu_s", "bot_s", "engine_s"), 0)
    start = time.perf_counter()
    try:
        for i, r in enumerate(results):
            for k in sums:
                sums[k] += r[k]
            rounds.append(r["rounds"])
            winners.append(r["winners"])
            if league:
                order = orders.pop(i)
                for s in r["winners"]:
                    by_bot[order[s]] += 1
            if budget_s is not None and sums["cpu_s"] >= budget_s:
                break
            if progress and sys.stderr.isatty() and (i + 1) % max(1, games // 50) == 0:
                print("\r%d/%d games" % (i + 1, games), end="", file=sys.stderr, flush=True)
    finally:
        results.close()  # stops the workers if the loop ended early
        if progress and sys.stderr.isatty():
            print("\r" + " " * 30 + "\r", end="", file=sys.stderr)
    seconds = time.perf_counter() - start
    games, actions = len(winners), sums["actions"]
    out = {
        "game": game, "players": players, "variants": sorted(variants), "bots": bots, "seed": seed,
        "games": games, "actions": actions, "jobs": workers, "seconds": round(seconds, 4),
        # wall time: with jobs > 1, the games played side by side
        "games_per_s": round(games / seconds, 1) if seconds else None,
        "actions_per_s": round(actions / seconds, 1) if seconds else None,
        "rounds_per_game": rounds, "winners": winners,
        # where a decision's time goes: core.apply, and the bots' choosing (views they build included)
        "engine_us_per_decision": round(1e6 * sums["engine_s"] / actions, 2) if actions and split else None,
        "bot_us_per_decision": round(1e6 * sums["bot_s"] / actions, 2) if actions and split else None,
    }
    if checked.get("decks") and not league:
        out["decks"] = [d["name"] if isinstance(d, dict) else d for d in checked["decks"]]
    if budget_s is not None or "search" in kinds:
        out["cpu_seconds"] = round(sums["cpu_s"], 2)  # the games' own, summed over the workers
    if "search" in kinds:
        out["search"] = {"think_ms": None if playouts else think_ms, "playouts": playouts, "samples": sums["samples"]}
    if league:
        out["league"] = [{"bot": kinds[j], "wins": by_bot[j], "rate": round(by_bot[j] / games, 4),
                          "ci95": [round(x, 4) for x in wilson(by_bot[j], games)]} for j in range(len(kinds))]
    return out


def _print_summary(stats):
    print("%s, %d players%s%s, %s bots: %d games, %d actions in %.2f s"
          % (stats["game"], stats["players"],
             " (%s)" % ", ".join(stats["variants"]) if stats["variants"] else "",
             " with decks %s" % ", ".join(stats["decks"]) if stats.get("decks") else "",
             stats["bots"], stats["games"], stats["actions"], stats["seconds"]))
    print("  %.1f games/s, %.0f actions/s %s" % (
        stats["games_per_s"], stats["actions_per_s"],
        "on one core" if stats.get("jobs", 1) == 1 else "in wall time, %d worker processes" % stats["jobs"]))
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
    players, decks = players_and_decks(args.game, args.players, args.decks)
    if "search" in parse_bots(args.bots) and args.game != "lcg":
        raise ValueError("--bots search: the search bot plays the LCG only")
    try:
        stats = run(args.game, players, args.games, args.seed, args.bots, args.variant or (), progress=not args.json,
                    decks=decks, league=getattr(args, "league", False), think_ms=getattr(args, "think_ms", 50),
                    playouts=getattr(args, "playouts", None), budget_s=getattr(args, "budget_s", None),
                    jobs=getattr(args, "jobs", 1))
    except GameFailed as e:
        print(e.args[1], end="", file=sys.stderr)  # the traceback, from the worker that played it
        print("maester: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # the workers are stopped by now (run closes its pool on the way out)
        print("\nmaester: interrupted; no figures printed", file=sys.stderr)
        return 130
    if getattr(args, "build", None):  # bench engine: which build was measured
        from .compiled import describe
        stats["build"] = describe()
    if args.json:
        print(json.dumps(stats))
    else:
        _print_summary(stats)


# `maester bench WHAT`: each measurement other than the engine's lives in a module of its own, imported
# only when asked for, so `maester --help` and `bench engine` pay nothing for the others.
BENCH_MODULES = {"hil": ("bench_hil", "cmd_hil"), "peers": ("bench_peers", "cmd_peers"),
                 "chaos": ("bench_chaos", "cmd_chaos"), "fuzz": ("bench_fuzz", "cmd_fuzz")}


def cmd_bench(args):
    if args.what in BENCH_MODULES:
        import importlib
        module, func = BENCH_MODULES[args.what]
        return getattr(importlib.import_module("maester." + module), func)(args)
    from . import compiled
    if args.build == "both":
        raise ValueError("--build both is for bench peers; bench engine measures one build: pure or compiled")
    if args.build != compiled.label():  # the compiled build loads before the engine: measure in a process of its own
        return compiled.bench_engine(args)
    return cmd_sim(args)


PLAYERS = {"btwixt": (3, 6), "intrigue": (2, 6), "oathbreaker": (5, 8), "lcg": (2, 6)}  # as each game's check_config
MAX_GAMES = 1000000
DECKS = ("stark", "lannister", "baratheon", "targaryen")  # the Core Set's starter decks, for --help


MAX_JOBS = 256


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


def _options(p, games):
    """The options `sim` and `bench` share; numbers out of range are refused while parsing."""
    names = {"btwixt": "B'Twixt", "intrigue": "Intrigue", "oathbreaker": "Oathbreaker", "lcg": "LCG"}
    p.add_argument("--players", type=int_range(min(lo for lo, _ in PLAYERS.values()),
                                               max(hi for _, hi in PLAYERS.values())), metavar="N",
                   help="seats at the table: %s" % "; ".join(
                       "%s %d to %d (default %d)" % (names[g], lo, hi, DEFAULT_PLAYERS[g])
                       for g, (lo, hi) in sorted(PLAYERS.items())))
    p.add_argument("--games", type=int_range(1, MAX_GAMES), default=games, metavar="G",
                   help="how many games, 1 to %d (default %%(default)s)" % MAX_GAMES)
    p.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i (bench fuzz: the seed of the frames drawn)")
    p.add_argument("--bots", default="random", metavar="KIND[,KIND...]",
                   help="the bot at every seat, or one per seat comma-separated (repeated round the table): "
                        "random, heuristic, search (LCG) (default random)")
    p.add_argument("--think-ms", type=int_range(1, 60000), default=50, metavar="MS",
                   help="LCG search bot: thinking time per decision (default %(default)s; not reproducible)")
    p.add_argument("--playouts", type=int_range(1, 10000), metavar="N",
                   help="LCG search bot: N samples per decision instead of a time budget (reproducible)")
    p.add_argument("--league", action="store_true",
                   help="LCG joust, --bots A,B: game i plays deck pairing (i//2) mod 16 (every starter deck "
                        "against every one, both seats), the bots swapping seats every game; prints each bot's "
                        "win rate with a 95%% interval")
    p.add_argument("--jobs", type=jobs_arg, default=1, metavar="N",
                   help="sim, bench engine: worker processes playing whole games side by side, 1 to %d, or 0 "
                        "or auto: one per core (%d here) (default 1: in this process). Game i has seed+i whatever N is, so "
                        "every figure but the timings is the same for any N; games/s and actions/s then "
                        "count wall time, the us a decision figures each game's own time" % (MAX_JOBS, _cores()))
    p.add_argument("--budget-s", type=seconds_arg(0.001, None), metavar="S",
                   help="stop after the first game (in game order) at which the games' CPU time, summed "
                        "over all workers, passes S seconds; games still under way then are dropped (the "
                        "count played is reported)")
    p.add_argument("--variant", action="append", metavar="V",
                   help="a variant; repeat to combine. %s" % "; ".join(
                       "%s: %s" % (names[g], ", ".join(v)) for g, v in sorted(GAME_VARIANTS.items())))
    p.add_argument("--decks", metavar="D,D,...",
                   help="LCG: one deck per seat, comma-separated: a starter deck from %s, or the path of a "
                        "deck-list file (`maester decks check`), checked under the casual rules (any size, "
                        "so the 45-card starters qualify) (default: the starters in turn; without "
                        "--players, one seat per deck)" % ", ".join(DECKS))
    p.add_argument("--json", action="store_true", help="print one JSON object with the figures")


def _fault_rate(text):
    """bench chaos --fault-rate: a chance from 0 to 0.5 (more and hardly a frame gets through)."""
    import argparse
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
    p.add_argument("game", nargs="?", default="btwixt", choices=sorted(GAME_VARIANTS),
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
                                   "--build compiled|both adds the Cython build (`maester build-fast`). chaos: "
                                   "whole games of every game on a simulated board behind a proxy that damages "
                                   "frames (--fault-rate), with board reboots, cable pulls and the host killed and "
                                   "resumed; prints frames, faults by kind, taps lost and doubled, games equal to "
                                   "the fault-free game and failed resumes (exit 1 if any is wrong). fuzz: --frames random and "
                                   "mutated frames into the receive path of the host (CPython) and of the board "
                                   "(its .mpy build under the MicroPython unix port), checked against an oracle; "
                                   "prints frames accepted and rejected by reason, crashes and frames/s (exit 1 on "
                                   "any crash or corrupt frame accepted).")
    p.add_argument("what", choices=("engine",) + tuple(BENCH_MODULES), help="what to measure")
    p.add_argument("--taps", type=int_range(1, 100000), default=1000, metavar="N",
                   help="hil: how many taps, 1 to 100000 (default %(default)s)")
    p.add_argument("--profile", default="btwixt-3p", metavar="NAME",
                   help="hil: the table profile (a B'Twixt one; default %(default)s, 4 readers)")
    p.add_argument("--game", dest="game", default="btwixt", choices=sorted(GAME_VARIANTS),
                   help="which game (default btwixt)")
    p.add_argument("--build", choices=("pure", "compiled", "both"), default="pure",
                   help="engine, peers: measure the pure-Python source (default), the Cython build of it made by "
                        "`maester build-fast`, or (peers) both side by side")
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
    p.add_argument("--rounds", type=int_range(1, 1000), default=5, metavar="R",
                   help="peers: interleaved rounds; each side's figure is its median round (default %(default)s)")
    _options(p, 500)
    p.set_defaults(func=cmd_bench)
