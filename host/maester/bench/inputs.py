"""`maester bench inputs`: what a table of people pays in attention, counted over whole games.

A bot (the heuristic one unless --bots says) chooses for every seat, and each decision is counted
as the people at a built table would have to make it: chance is observed from taps as on a board
(the config's `observe`, as `maester play` sets it), and a decision costs

    a tap            when laying a card on a reader says it (table/simtable.tap_for, the game's
                     table profile): the cardboard follows the game
    a tap and a press  when the tapped card fits several places and the seat picks one on its page
    a press          on the seat page for everything a tap cannot say
    a keyboard entry at the terminal (--no-table): one a decision put to a person

Every decision put to a person is also counted for its seat (`asks_by_seat`), and those whose only
legal answer moves no card are the single-choice prompts (`single_choice_prompts`): the figure issue
28 brings to zero. What the table answers itself costs nothing (table/asking.py: a lone answer
that moves no card, a window that runs out); --every-ask counts as before, every decision put to a person.

Figures are per round of play, all seats together (the setup before the first round of the LCG and
Westeros Intrigue is apart: `setup_inputs`), as the median and 90th percentile over every round of
every game; the LCG's also per phase.
"""

import importlib
import json
import math
import statistics
import sys

from .. import games
from ..engine import core
from ..engine.bots import RandomBot, card_info, decide, make_bot
from ..games import DEFAULT_PLAYERS
from ..table import asking, profile as P
from ..table.simtable import pick_for, tap_for

SETUP = 0  # the round number of the setup, in the games that count rounds from 1 (the LCG, Intrigue)


def round_of(g):
    """The round under way: games that count rounds played (B'Twixt, Oathbreaker) from 1; the others'
    own round number, 0 during setup."""
    return g["rounds_played"] + 1 if "rounds_played" in g else g.get("round", 1)


def cost(state, places, ask, choice):
    """(taps, presses) that a person at a built table spends on `choice`."""
    command = {"seat": ask["seat"], "ask": ask["id"], "choice": choice}
    if tap_for(state, places, command) is not None:
        return 1, 0
    if pick_for(state, places, command) is not None:
        return 1, 1
    return 0, 1


def table_answers(state, ask, choice):
    """Whether the table layer gives this answer itself (table/asking.py): a lone answer that moves
    no card, or a pass in a window, which its end gives."""
    return not asking.needs_person(state, ask, choice)


def play_counted(game, config, seed, bots="heuristic", auto=table_answers):
    """Play one game; returns its rows, one per decision: [round, phase, seat, taps, presses, put to
    a person, a single-choice prompt, a window that ran out, the ask's kind, the answer's verb].
    `auto(state, ask, choice)` says which decisions the table answers itself (None: every one is put
    to a person, as before issue 28).

    A tap that goes on to answer the seat's next decision (the game's `carriers`: the LCG's
    character tapped to choose a challenge, then declared its first attacker) makes that choice
    free when one of the cards the seat then declares could carry it: a person taps that one first."""
    state, _ = core.new_game(game, config, seed)
    places = P.places(P.for_game(game, state["config"]["players"]))
    info = card_info(state)
    n = core.get_game(game).seat_count(state)
    bot_list = [make_bot(game, bots, seed, seat, info) for seat in range(n)]
    dealer = RandomBot(seed, n)  # the table's own asks (which card was dealt) are chance: drawn at random
    carriers = getattr(games.part(game, "table"), "carriers", None)
    rows = []
    carry = None  # a choice a tap may carry: its row, its seat, the cards that would, the kind carried to
    while not state["over"]:
        ask = state["asks"][0]
        seat = ask["seat"]
        bot = bot_list[seat] if isinstance(seat, int) else dealer
        choice = decide(bot, state, seat, ask, core.view)
        g = state["g"]
        row = [round_of(g), g.get("phase"), seat, 0, 0, False, False, False, ask["kind"], choice[0]]
        if carry is not None:  # the carried decision: the same seat's next ones, all of one kind
            follow = carry["kind"] or ask["kind"]
            carry = dict(carry, kind=follow) if seat == carry["seat"] and ask["kind"] == follow else None
        if auto is not None and auto(state, ask, choice):
            row[7] = asking.is_window(state, ask)
        else:
            row[3:5] = cost(state, places, ask, choice)
            row[5] = True
            row[6] = len(ask["choices"]) == 1 and not asking.moves_card(state, ask, choice)
            if carry is not None and set(choice[1:2]) & carry["cards"]:
                carry["row"][3:5] = [0, 0]  # the tap of this card chose it first
                carry = None
            cards = auto is not None and carriers is not None and carriers(state, ask, choice)
            if cards:
                carry = {"row": row, "seat": seat, "cards": cards, "kind": None}
        rows.append(row)
        result = core.apply(state, {"seat": seat, "ask": ask["id"], "choice": choice})
        if not result.ok:
            raise RuntimeError("bot %s chose an illegal move: %s" % (seat, result.reason))
    return rows


def percentile(values, q):
    """The nearest-rank percentile `q` (0 to 100) of `values`; None for none."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def spread(values):
    return {"median": statistics.median(values) if values else None, "p90": percentile(values, 90),
            "mean": round(statistics.fmean(values), 2) if values else None}


def run(game, players, games=20, seed=1, bots="heuristic", variants=(), auto=table_answers, progress=None):
    """Play `games` games (seed, seed+1, ...) and gather the figures `bench inputs` prints."""
    observe = list(getattr(importlib.import_module("maester.games." + game), "OBSERVABLE", ()))
    config = {"players": players, "variants": list(variants), "observe": observe}
    per_round, taps_round, presses_round, keys_round, windows_round = [], [], [], [], []
    setup, per_game = [], []
    phases = {}
    by_seat = {}
    by_ask = {}  # "kind: verb" -> [taps, presses] over every round counted
    singles = decisions = put = 0
    for i in range(games):
        rows = play_counted(game, config, seed + i, bots, auto)
        decisions += len(rows)
        rounds = {}
        for rnd, phase, seat, taps, presses, asked, single, ran_out, kind, verb in rows:
            r = rounds.setdefault(rnd, {"inputs": 0, "taps": 0, "presses": 0, "keys": 0, "windows": 0, "phases": {},
                                        "asks": {}})
            if taps or presses:
                a = r["asks"].setdefault("%s: %s" % (kind, verb), [0, 0])
                a[0] += taps
                a[1] += presses
            r["windows"] += ran_out
            r["inputs"] += taps + presses
            r["taps"] += taps
            r["presses"] += presses
            r["keys"] += asked
            if phase is not None:
                r["phases"][phase] = r["phases"].get(phase, 0) + taps + presses
            if asked:
                put += 1
                by_seat[str(seat)] = by_seat.get(str(seat), 0) + 1
            singles += single
        has_setup = game in ("lcg", "intrigue")
        for rnd, r in sorted(rounds.items()):
            if has_setup and rnd == SETUP:
                setup.append(r["inputs"])
                continue
            per_round.append(r["inputs"])
            taps_round.append(r["taps"])
            presses_round.append(r["presses"])
            keys_round.append(r["keys"])
            windows_round.append(r["windows"])
            for key, (taps, presses) in r["asks"].items():
                a = by_ask.setdefault(key, [0, 0])
                a[0] += taps
                a[1] += presses
            for phase, k in r["phases"].items():
                phases.setdefault(phase, []).append(k)
        per_game.append(sum(r["inputs"] for r in rounds.values()))
        if progress is not None:
            progress(i + 1, games)
    out = {
        "game": game, "players": players, "games": games, "seed": seed, "bots": bots, "variants": sorted(variants),
        "table_answers": auto is not None,
        "rounds": len(per_round),
        "inputs_per_round": spread(per_round),
        "taps_per_round": spread(taps_round),
        "presses_per_round": spread(presses_round),
        "keyboard_per_round": spread(keys_round),
        "inputs_per_game": spread(per_game),
        # windows that ran out with nobody acting: each costs the table --window-ms of waiting
        "windows_run_out_per_round": spread(windows_round),
        "single_choice_prompts": singles,
        "decisions": decisions,
        "asks_put_to_people": put,
        "asks_by_seat": dict(sorted(by_seat.items())),
    }
    # What a round's inputs are, ask by ask: the mean a round of taps and presses, "ask kind: answer"
    # (e.g. "attackers: done"), most first: where to look for the next cut.
    rounds_n = max(1, len(per_round))
    out["by_ask"] = {k: {"taps": round(t / rounds_n, 2), "presses": round(p / rounds_n, 2)}
                     for k, (t, p) in sorted(by_ask.items(), key=lambda kv: (-sum(kv[1]), kv[0]))}
    if setup:
        out["setup_inputs"] = spread(setup)
    if game == "lcg":
        out["phases"] = {p: spread(v) for p, v in sorted(phases.items())}
    return out


def _line(name, s):
    return "  %-22s median %5s   p90 %5s   mean %6s" % (name, _num(s["median"]), _num(s["p90"]), _num(s["mean"]))


def _num(x):
    return "-" if x is None else ("%g" % x)


def report(out, file=None):
    file = file or sys.stdout
    print("%s, %d players, %s bots: %d games, %d rounds, %d decisions, %d put to people%s"
          % (out["game"], out["players"], out["bots"], out["games"], out["rounds"], out["decisions"],
             out["asks_put_to_people"], "" if out["table_answers"] else " (--every-ask)"), file=file)
    print(_line("inputs per round", out["inputs_per_round"]), file=file)
    print(_line("  taps", out["taps_per_round"]), file=file)
    print(_line("  page presses", out["presses_per_round"]), file=file)
    print(_line("keyboard per round", out["keyboard_per_round"]), file=file)
    print(_line("inputs per game", out["inputs_per_game"]), file=file)
    if out["table_answers"]:
        print(_line("windows run out/round", out["windows_run_out_per_round"]), file=file)
    if "setup_inputs" in out:
        print(_line("setup (before round 1)", out["setup_inputs"]), file=file)
    print("  single-choice prompts: %d (%.2f a game)" % (out["single_choice_prompts"],
                                                         out["single_choice_prompts"] / out["games"]), file=file)
    print("  asks put to each seat: %s" % ", ".join("%s %d" % kv for kv in out["asks_by_seat"].items()), file=file)
    for phase, s in (out.get("phases") or {}).items():
        print(_line("%s phase" % phase, s), file=file)
    shown = [(k, v) for k, v in out["by_ask"].items() if v["taps"] + v["presses"] >= 0.1]
    if shown:
        print("  a round, ask by ask (mean taps + presses, 0.1 or more):", file=file)
        for k, v in shown:
            print("    %-28s %5.2f taps  %5.2f presses" % (k, v["taps"], v["presses"]), file=file)


def cmd_inputs(args):
    players = args.players or DEFAULT_PLAYERS[args.game]
    bots = args.bots or "heuristic"

    def progress(done, total):
        print("\r%d/%d games" % (done, total), end="", file=sys.stderr, flush=True)
    tty = not args.json and sys.stderr.isatty()
    out = run(args.game, players, args.games, args.seed, bots, args.variant or (),
              auto=None if args.every_ask else table_answers, progress=progress if tty else None)
    if tty:
        print("\r" + " " * 20 + "\r", end="", file=sys.stderr)
    if args.json:
        print(json.dumps(out))
    else:
        report(out)
    return 0
