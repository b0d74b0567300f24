"""Whole games played by bots at every seat: `maester sim` for statistics, `maester bench engine` and
`bench peers` for speed (commands/sim.py, bench/peers.py), and the `--decks` and `--bots` words the
commands that start games share."""

import contextlib
import gc
import math
import os
import sys
import time
import traceback

from . import cluster as dask_cluster, parallel
from .engine import core
from .engine import bots as bots_mod
from .engine.bots import BOT_KINDS, RandomBot, card_info, decide, make_bot
from .games import DECK_GAMES, DEFAULT_PLAYERS, PLAYERS


def deck_names(game):
    """The starter decks `--decks` may name for `game`, in the order of the box."""
    if game not in DECK_GAMES:
        return []
    from .games.lcg.cards import deck_names as lcg_decks  # the LCG's rules only for a game with decks (start-up)
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
            from .games.lcg.decks import load  # the LCG's rules only when a deck file is named (start-up)
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
        if k not in BOT_KINDS:
            raise ValueError("--bots: unknown bot %r (choose from %s)" % (k, ", ".join(BOT_KINDS)))
    return kinds


def play_one(game, config, seed, bot_kind, on_step=None, think_ms=50, playouts=None, bots_out=None, timing=None):
    """Play a whole game with bots at every seat (`bot_kind`: one kind, or kinds seat by seat as
    parse_bots gives). Returns (state, actions). `timing` (a dict) gets the seconds spent in the
    bots' decisions ("bot_s") and in core.apply ("engine_s") added to it; setup is in neither."""
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
    # The bots hand back their ask's own choice, so core.answer skips building and matching a command
    # (compiled, a C call: sim.pxd).
    view, clock = core.view, time.perf_counter
    # A bot that reads neither a view nor the state is asked directly, not via decide; the random bot's
    # pick is made here from its stream (bots.random_pick: compiled, a C call, no method call).
    blind = [not (b.uses_view or b.uses_state) for b in bots]
    random_keys = [b.key if type(b) is RandomBot else None for b in bots]
    quiet = on_step is None  # no one reads the events: the engine keeps none
    while not state["over"]:
        ask = state["asks"][0]
        seat = ask["seat"]
        if timing is None:  # three clock reads a decision are 2% of a random game's
            key = random_keys[seat]
            if key is not None:
                result = core.answer(state, ask, bots_mod.random_pick(key, ask), quiet)
            elif blind[seat]:
                result = core.answer(state, ask, bots[seat].choose(None, ask), quiet)
            else:
                result = core.answer(state, ask, decide(bots[seat], state, seat, ask, view), quiet)
        else:
            t0 = clock()
            choice = decide(bots[seat], state, seat, ask, view)
            t1 = clock()
            result = core.answer(state, ask, choice, quiet)
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


# Bot games make many short-lived dicts and lists (an ask a decision, a state's copy a lookahead) and
# keep few; at the collector's default first threshold (700 new objects) a young collection ran every
# few LCG decisions, each also walking what the run had loaded (card tables, records, modules): about a
# tenth of a random game's CPU. A process that plays games collects every 10,000 instead, with what
# is loaded by its first game frozen out of every collection. Nothing of a game depends on when the
# collector runs (no finalizers): the games and their hashes are the same.
GC_THRESHOLD = (10000, 10, 10)


def _tune_gc():
    if gc.get_threshold() != GC_THRESHOLD:
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLD)


def _play_task(task):
    """One game of a run, in whichever process plays it: the figures run() gathers from it.
    `task` is (index, game, config, seed, bot kinds by seat, think_ms, playouts, split: whether to
    time the bots and the engine apart)."""
    i, game, cfg, seed, seat_kinds, think_ms, playouts, split = task
    _tune_gc()
    try:
        made, timing = [], {} if split else None
        cpu0 = time.process_time()
        state, actions = play_one(game, cfg, seed, seat_kinds, think_ms=think_ms, playouts=playouts,
                                  bots_out=made, timing=timing)
        return {"actions": actions, "rounds": state["result"].get("rounds"), "winners": state["result"]["winners"],
                "samples": sum(getattr(b, "samples", 0) for b in made), "cpu_s": time.process_time() - cpu0,
                "bot_s": timing["bot_s"] if split else 0.0, "engine_s": timing["engine_s"] if split else 0.0}
    except Exception as e:
        raise GameFailed("game %d (seed %d) failed: %s: %s" % (i + 1, seed, type(e).__name__, e),
                         traceback.format_exc()) from None


def _named_losses(results):
    """The results, with a worker process lost on the way reported as the games it may have had."""
    try:
        yield from results
    except parallel.WorkerLost as e:
        raise GameFailed("%s: one of games %s (seeds %s) killed it" % (
            e, ", ".join(str(t[0] + 1) for t in e.in_flight), ", ".join(str(t[3]) for t in e.in_flight)), "") from None
    finally:
        results.close()


def run(game, players, games, seed, bots="random", variants=(), progress=False, decks=None, league=False,
        think_ms=50, playouts=None, budget_s=None, jobs=1, split=True, cluster=None):
    """Play `games` games; return the figures `sim` and `bench` print. `bots`: one kind, or kinds
    seat by seat ("heuristic,random"). `league` (LCG joust, two bot kinds): game i follows
    league_game, and the figures count each --bots entry's wins. `jobs`: worker processes playing
    whole games (1: here, one after another); game i always has seed+i and the figures are gathered
    in game order, so everything but the timings is the same for any `jobs`. `budget_s` stops after
    the first game (in game order) at which the games' CPU time, summed, passes that many seconds;
    games still under way in other workers then are dropped. `split`: time the bots and the engine
    apart (the figures' engine_us/bot_us_per_decision; None without). `cluster`: the address of a Dask
    scheduler, or "local" for a LocalCluster of `jobs` worker processes, to play the games there
    instead (cluster.py): the same games, gathered the same way. Raises GameFailed if a game raises."""
    kinds = parse_bots(bots)
    config = {"players": players, "variants": list(variants)}
    if decks:
        config["decks"] = list(decks)
    if league:
        if game != "lcg" or players != 2 or len(kinds) != 2:
            raise ValueError("--league is for an LCG joust between two bots: --players 2 --bots A,B")
        if decks:
            raise ValueError("--league plays every starter deck against every one: leave out --decks")
    checked = core.get_game(game).check_config(config)  # fail early on bad input, before the clock starts
    orders = {}  # league: game i's --bots index at each seat

    def tasks():
        for i in range(games):
            cfg, seat_kinds = config, kinds
            if league:
                d, seat_kinds, orders[i] = league_game(i, kinds, deck_names(game))
                cfg = dict(config, decks=d)
            yield i, game, cfg, seed + i, seat_kinds, think_ms, playouts, split

    workers = max(1, min(jobs, games))
    rounds, winners = [], []
    by_bot = [0] * len(kinds)
    sums = dict.fromkeys(("actions", "samples", "cpu_s", "bot_s", "engine_s"), 0)
    # A cluster is reached (or a local one started) before the clock starts: its start-up is not play.
    with dask_cluster.connect(cluster, workers) if cluster else contextlib.nullcontext() as client:
        if client:
            workers = dask_cluster.threads(client)
            results = dask_cluster.ordered(_play_task, tasks(), client)
        else:
            results = parallel.ordered(_play_task, tasks(), workers)
        results = _named_losses(results)
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
            results.close()  # stops the workers, or cancels the cluster's games, if the loop ended early
            if progress and sys.stderr.isatty():
                print("\r" + " " * 30 + "\r", end="", file=sys.stderr)
        seconds = time.perf_counter() - start  # before a local cluster is closed
    games, actions = len(winners), sums["actions"]
    out = {
        "game": game, "players": players, "variants": sorted(variants), "bots": bots, "seed": seed,
        "games": games, "actions": actions, "jobs": workers, "cluster": cluster, "seconds": round(seconds, 4),
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


