"""`maester bench peers`: our engine's speed beside OpenSpiel's, measured in one run on one core.

The peers are OpenSpiel's `python_block_dominoes` (pure Python) and its C++ `hearts`, through
`pyspiel` (the optional `peers` extra). Every side plays whole games with uniform random players:
a peer samples each chance outcome by its probability and picks a legal action with a seeded RNG;
ours are `maester sim`'s games with random bots (sim.run). Chance is inside the timed loop on both
sides, and a decision is a player's action (chance outcomes are not counted).

Time is the CPU time of the process that plays, so the helpers sharing a loaded machine cost us
less than wall-clock time would; the sides still run one after another, in rounds (dominoes,
hearts, each of our games, then again), each for --seconds, and the median round of each side is
its figure, so what noise remains hits every side alike. Each of our builds plays in a process of
its own (compiled.child), started before the first round: the pure-Python reference, and with
--build compiled|both the Cython build of the same source (compiled.py). With both, a game's two
builds play one after the other in each round, and the compiled one's `vs_pure` is the median of
the rounds' ratios: on a busy machine that pairing is steadier than a ratio of two medians.

The targets (issue 16) apply to B'Twixt with 4 players, the game the issue measured: at least 5x
the dominoes' rate and at least half of hearts'.

Beside our games runs the engine's floor (register_floor): the least game the engine can play, a seat
choosing one of four moves, with the random bot. It has no rules to speak of, so its rate is what
the engine's contract itself allows (apply and its checks, an ask with its choices, an event, the
bot's draw): no game on this engine can be faster.
"""

import json
import random
import statistics
import subprocess
import sys
import time

from .. import compiled, sim
from ..engine import core
from ..paths import missing

PEERS = (("python_block_dominoes", "OpenSpiel python_block_dominoes (Python)"),
         ("hearts", "OpenSpiel hearts (C++)"))
OURS = (("btwixt", 4, "B'Twixt"), ("intrigue", 4, "Intrigue"), ("oathbreaker", 6, "Oathbreaker"), ("lcg", 2, "LCG"),
        ("floor", 4, "engine floor (a one-step game)"))
TARGET_GAME = "btwixt"
TARGETS = {"python_block_dominoes": 5.0, "hearts": 0.5}
SHORT = {"python_block_dominoes": "dominoes", "hearts": "hearts"}
BUDGETED = 10 ** 6  # games a worker may play: its CPU budget (--seconds) stops it long before


def load_pyspiel():
    """pyspiel with OpenSpiel's Python games registered; ValueError (exit 2) when the extra is missing."""
    try:  # the `peers` extra, needed only here
        import pyspiel
        from open_spiel.python import games  # noqa: F401  (registers python_block_dominoes; the peers extra)
    except ImportError as e:
        raise ValueError(missing("OpenSpiel, which bench peers measures against (%s)," % e, "peers")) from None
    return pyspiel


def play_peer(game, rng, seconds):
    """Whole random games of an OpenSpiel game until `seconds` of CPU time have passed (the game in
    progress is finished). Returns (decisions, games, cpu seconds)."""
    decisions = games = 0
    c0 = time.process_time()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                r = rng.random()
                for action, p in state.chance_outcomes():
                    r -= p
                    if r < 0:
                        break
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        games += 1
        cpu = time.process_time() - c0
        if cpu >= seconds:
            return decisions, games, cpu


def register_floor():
    """Register the engine's floor (see the module's doc) as game "floor": 300 decisions a game, each
    one of four moves, each move one event. Only a bench worker registers it, never beside the real
    games."""

    def turn(ctx, st, answer):
        if answer is None:
            ctx.ask(st["seat"], "turn", [["play", "a"], ["play", "b"], ["play", "c"], ["kneel"]], "Play or kneel.",
                    public="playing")
            return
        ask, choice = answer
        g = ctx.g
        g["moves"] += 1
        ctx.emit("move", seat=ask["seat"], move=choice[-1])
        if g["moves"] == 300:
            ctx.end({"winners": [0], "rounds": 1})
        else:
            ctx.push({"s": "turn", "seat": (ask["seat"] + 1) % 4})

    class Floor(core.Game):
        name = "floor"
        steps = {"turn": turn}

        def setup(self, ctx, config):
            ctx.g["moves"] = 0
            ctx.push({"s": "turn", "seat": 0})

        def view(self, state, viewer):
            return {}

    core.register(Floor())


def serve():
    """A build's worker: one JSON job a line on stdin (game, players, seed, seconds), one JSON answer
    a line on stdout: decisions, games, cpu, and which build played them."""
    register_floor()
    for line in sys.stdin:
        job = json.loads(line)
        c0 = time.process_time()
        out = sim.run(job["game"], job["players"], BUDGETED, job["seed"], "random", budget_s=job["seconds"],
                      split=False)
        cpu = time.process_time() - c0
        n, imported = compiled.loaded()
        print(json.dumps({"decisions": out["actions"], "games": out["games"], "cpu": cpu, "build": compiled.label(),
                          "describe": compiled.describe(), "compiled": n, "imported": imported}), flush=True)


class Worker:
    """A process playing our games under one build (see serve)."""

    def __init__(self, build):
        self.build = build
        self.proc = subprocess.Popen(compiled.child("from maester.bench.peers import serve; serve()", build),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def play(self, game, players, seed, seconds):
        self.proc.stdin.write(json.dumps({"game": game, "players": players, "seed": seed, "seconds": seconds}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the %s build's worker stopped (exit %s); its error is above"
                               % (self.build, self.proc.wait()))
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def measure(builds, seconds, rounds, seed, progress=None):
    """Rates in decisions per CPU-second, each side measured `rounds` times, interleaved. Returns
    the result object `--json` prints."""
    pyspiel = load_pyspiel()
    peers = {name: pyspiel.load_game(name) for name, _ in PEERS}
    rngs = {name: random.Random(seed) for name, _ in PEERS}
    workers = {}
    try:
        for b in builds:
            workers[b] = Worker(b)
        # A game's builds one after the other, so their per-round ratio sees the same machine.
        sides = [("peer", name) for name, _ in PEERS] + [(b, g) for g, _, _ in OURS for b in builds]
        tally = {side: {"rates": [], "decisions": 0, "games": 0} for side in sides}
        seeds = {side: seed for side in sides}
        about = {}
        for r in range(rounds):
            for side in sides:
                kind, name = side
                if kind == "peer":
                    decisions, games, cpu = play_peer(peers[name], rngs[name], seconds)
                else:
                    players = dict((g, p) for g, p, _ in OURS)[name]
                    got = workers[kind].play(name, players, seeds[side], seconds)
                    decisions, games, cpu = got["decisions"], got["games"], got["cpu"]
                    seeds[side] += games  # the next round plays the games that follow
                    about[kind] = got
                t = tally[side]
                t["rates"].append(decisions / cpu)
                t["decisions"] += decisions
                t["games"] += games
            if progress:
                progress("round %d/%d" % (r + 1, rounds))
    finally:
        for w in workers.values():
            w.close()

    def figures(side):
        t = tally[side]
        return {"rate": round(statistics.median(t["rates"]), 1), "rates": [round(x, 1) for x in t["rates"]],
                "decisions": t["decisions"], "games": t["games"]}

    out = {"unit": "decisions per CPU-second, one core, random play, chance included",
           "seconds": seconds, "rounds": rounds, "seed": seed,
           "peers": {name: figures(("peer", name)) for name, _ in PEERS},
           "targets": {"game": TARGET_GAME, "players": dict((g, p) for g, p, _ in OURS)[TARGET_GAME],
                       **{"vs_" + SHORT[n]: x for n, x in TARGETS.items()}},
           "builds": {}, "pass": {}}
    for b in builds:
        games = {}
        for g, players, _ in OURS:
            f = figures((b, g))
            f["players"] = players
            for name, _ in PEERS:  # ratios of the rounded rates, so a reader can check them
                f["vs_" + SHORT[name]] = round(f["rate"] / out["peers"][name]["rate"], 3)
            if b != builds[0]:  # the build against the pure one: the median of the rounds' ratios
                f["vs_pure"] = round(statistics.median(
                    c / p for c, p in zip(tally[(b, g)]["rates"], tally[(builds[0], g)]["rates"])), 3)
            games[g] = f
        if about[b]["build"] != b or about[b]["imported"] != about[b]["compiled"]:
            raise RuntimeError("the %s worker ran %s" % (b, about[b]["describe"]))
        out["builds"][b] = {"describe": about[b]["describe"], "games": games}
        out["pass"][b] = {"vs_" + SHORT[n]: games[TARGET_GAME]["vs_" + SHORT[n]] >= x for n, x in TARGETS.items()}
    return out


def report(out):
    """The text `bench peers` prints."""
    lines = ["Decisions per second of CPU time on one core, uniform random play, chance included;",
             "%d interleaved rounds of %g s per side: the median round (slowest-fastest)" % (out["rounds"], out["seconds"])]

    def rate(f):
        return "%9.0f /s  %-17s" % (f["rate"], "(%.0f-%.0f)" % (min(f["rates"]), max(f["rates"])))
    for name, title in PEERS:
        lines.append("  %-44s %s" % (title, rate(out["peers"][name])))
    t = out["targets"]
    for b, res in out["builds"].items():
        lines.append("maester, %s build: %s" % (b, res["describe"]))
        for g, players, title in OURS:
            f = res["games"][g]
            lines.append("  %-44s %s %5.2fx dominoes  %4.2fx hearts%s"
                         % ("%s %dp" % (title, players), rate(f), f["vs_dominoes"], f["vs_hearts"],
                            "  %4.2fx pure (median round)" % f["vs_pure"] if "vs_pure" in f else ""))
        ok = out["pass"][b]
        lines.append("  targets (B'Twixt %dp): >= %gx dominoes: %s (%.2fx);  >= %gx hearts: %s (%.2fx)"
                     % (t["players"], t["vs_dominoes"], "PASS" if ok["vs_dominoes"] else "FAIL",
                        res["games"][t["game"]]["vs_dominoes"], t["vs_hearts"], "PASS" if ok["vs_hearts"] else "FAIL",
                        res["games"][t["game"]]["vs_hearts"]))
    return "\n".join(line.rstrip() for line in lines)


def cmd_peers(args):
    builds = ["pure", "compiled"] if args.build == "both" else [args.build]
    load_pyspiel()  # refuse early, before any worker starts
    if "compiled" in builds:
        compiled.load_manifest()  # no build, or a stale one: exit 2 with the reason
    tty = sys.stderr.isatty() and not args.json
    out = measure(builds, args.seconds, args.rounds, args.seed,
                  progress=(lambda s: print("\r" + s, end="", file=sys.stderr, flush=True)) if tty else None)
    if tty:
        print("\r" + " " * 20 + "\r", end="", file=sys.stderr)
    print(json.dumps(out) if args.json else report(out))
