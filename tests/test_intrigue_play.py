"""`maester play intrigue`, `resume`, `demo intrigue` and `bench engine --game intrigue` as a person
uses them, through the real command line; and the terminal drawing, which must keep every secret."""

import copy
import json
import os
import random
import re

import pytest

from maester.terminal import screen
from maester.engine import PUBLIC, cardtables, core
from maester.engine.core import find_ask
from maester.engine.log import GameLog
from maester.games.intrigue.text import Names, describe_event
from maester.sim import play_one
from test_intrigue import hide_differently, states_along_a_game
from test_play import COMPARED, final_state, maester, reference

WINNER = re.compile(r"^(Winner|Shared victory): (.+)$", re.M)
CARD = re.compile(r"\b(Stark|Lannister|Baratheon|Targaryen) (\d)\b")
THRONE = re.compile(r"Iron Throne card (\d)")



def assert_winner_printed(out, state):
    found = WINNER.findall(out)
    assert len(found) == 1, "expected one winner line in:\n" + out[-2000:]
    kind, names = found[0]
    winners = state["result"]["winners"]
    assert kind == ("Winner" if len(winners) == 1 else "Shared victory")
    assert sorted(int(s) for s in re.findall(r"Seat (\d)", names)) == sorted(winners)


@pytest.mark.parametrize("more,bots", [((), "heuristic"),
                                       (("--players", "5", "--variant", "mat", "--no-table"), "random")])
def test_bots_play_to_the_end_and_the_log_replays_as_the_simulation(tmp_path, more, bots):
    log = tmp_path / "game.sqlite"
    r = maester(tmp_path, "play", "intrigue", "--sim", "--plain", "--seed", "3", "--delay", "0",
                "--bots", bots, "--log", str(log), *more)
    assert r.returncode == 0, r.stderr
    state, ref = final_state(log), reference(log, bots)
    assert state["over"]
    for key in COMPARED:
        assert state[key] == ref[key], key
    assert_winner_printed(r.stdout, state)
    res = state["result"]
    for s in range(state["config"]["players"]):  # every seat's final sum, as the rules count it
        assert re.search(r"Seat %d\s+%d -\s+%d =\s+%d" % (s, res["penalties"][s], res["throne_values"][s],
                                                          res["scores"][s]), r.stdout)
    if not more:
        assert "LED strip: [" in r.stdout and "table: refused" not in r.stdout
    assert (tmp_path / "last").read_text().strip() == str(log.resolve())


def _replay(log_path):
    """Replay a log; per round, seat 0's hand and the cards laid face up; seat 0's Iron Throne cards.

    Also checks seat 0 (the person) always took option 1.
    """
    log = GameLog.open(str(log_path))
    meta = log.header()
    state, events = core.new_game("intrigue", meta["config"], meta["seed"], forced=meta["setup_outcomes"])
    human_moves = 0
    for seq, command, outcomes in log.entries():
        if command["seat"] == 0:
            assert command["choice"] == find_ask(state, command["ask"])["choices"][0], seq
            human_moves += 1
        events += core.apply(state, command, forced=outcomes).events
    log.close()
    rounds, thrones = [], []
    for e in events:
        if e["e"] == "round":
            rounds.append({"mine": set(), "public": set(), "hidden": set()})
        elif e["e"] == "hand":
            rounds[-1]["mine" if e["seat"] == 0 else "hidden"].update(e["cards"])
        elif e["e"] in ("placed", "start_card"):
            rounds[-1]["public"].add(e["card"])
        elif e["e"] == "throne_card" and e["seat"] == 0:
            thrones.append(e["card"])
    for r in rounds:
        r["hidden"] -= r["public"]  # what the other seats still held when the round ended
    return state, rounds, thrones, human_moves


def test_a_human_seat_plays_through_stdin_and_never_sees_another_seats_cards(tmp_path):
    log = tmp_path / "h.sqlite"
    r = maester(tmp_path, "play", "intrigue", "--sim", "--plain", "--seed", "4", "--human", "0", "--delay", "0",
                "--log", str(log), input="99\nabc\n" + "1\n" * 400)
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    out = r.stdout
    assert "'99' is not one of the options: type a number from 1 to" in out and "'abc' is not one" in out
    state, rounds, thrones, human_moves = _replay(log)
    assert state["over"] and human_moves > 10
    assert_winner_printed(out, state)
    nm = Names(None, cardtables.table(state))

    # Split the output at each round's first line; the Iron Throne cards are shown at the end only.
    reveal = out.index("The Iron Throne cards are turned face up")
    before = out[:reveal]
    parts = re.split(r"^Round \d+ of \d+:.*$", before, flags=re.M)[1:]
    assert len(parts) == len(rounds) == 4
    hidden_somewhere = 0
    for part, rnd in zip(parts, rounds):
        allowed = {nm.card(c) for c in rnd["mine"] | rnd["public"]}
        shown = {m.group(0) for m in CARD.finditer(part)}
        assert shown <= allowed, "printed another seat's card: %s" % (shown - allowed)
        hidden_somewhere += len(rnd["hidden"])
        # Seat 0's own hand is shown to it, in full, the first time it decides.
        mine = re.search(r"^Your hand \(seat 0\): (.+)$", part, re.M).group(1)
        assert set(mine.split(", ")) <= {nm.card(c) for c in rnd["mine"]}
    assert hidden_somewhere, "no card stayed hidden: the check above proved nothing"
    assert "Your hand (seat 1" not in out and "Your hand (seat 2" not in out
    own = {nm.card(t).split(" (")[0] for t in thrones}
    assert {"Iron Throne card %s" % n for n in THRONE.findall(before)} <= own
    others = [t for s, held in enumerate(state["result"]["thrones"]) if s != 0 for t in held]
    assert others, "no other seat won a round: the check above proved nothing"
    for t in others:
        assert nm.card(t).split(" (")[0] in out[reveal:]


def test_two_people_hand_the_screen_over(tmp_path):
    r = maester(tmp_path, "play", "intrigue", "--sim", "--plain", "--no-table", "--seed", "7", "--human", "0",
                "--human", "1", "--delay", "0", "--log", str(tmp_path / "two.sqlite"), input="1\n" * 800)
    assert r.returncode == 0, r.stderr
    for seat in (0, 1):
        assert "Seat %d: press Enter when only you can see the screen" % seat in r.stdout
    assert "Your hand (seat 2" not in r.stdout and "Your hand (seat 3" not in r.stdout


def test_demo_takes_an_optional_game_and_stays_btwixt_by_default(tmp_path):
    r = maester(tmp_path, "demo", "intrigue", "--fast", "--plain", "--no-table", "--seed", "2", "--players", "3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Westeros Intrigue demo: 3 players, seed 2")
    path = (tmp_path / "last").read_text().strip()
    state = final_state(path)
    assert state["game"] == "intrigue" and state["result"] == reference(path, "heuristic")["result"]
    assert_winner_printed(r.stdout, state)
    r = maester(tmp_path, "demo", "--help")
    assert "default btwixt" in r.stdout


def test_bench_engine_prints_the_same_json_shape_as_btwixt(tmp_path):
    r = maester(tmp_path, "bench", "engine", "--game", "intrigue", "--games", "20", "--json")
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    for key in ("games", "actions", "seconds", "games_per_s", "actions_per_s", "rounds_per_game", "winners"):
        assert key in stats, key
    assert stats["games"] == 20 and stats["rounds_per_game"] == [4] * 20 and len(stats["winners"]) == 20
    assert stats["actions"] > 20 * 4 * 20 and stats["games_per_s"] > 0


# --- the drawing shows nothing that its viewer may not know --------------------------------------

def _texts(state, events, viewer):
    view = core.view(state, viewer)
    from rich.console import Console
    out = []
    for width in (80, 160):
        con = Console(width=width, record=True, file=open(os.devnull, "w"))
        con.print(screen.render(view, state["config"]))
        out.append(con.export_text())
    log = [describe_event(state["g"], e, viewer, cardtables.table(state)) for e in core.filter_events(events, viewer)]
    return screen.plain_lines(view, state["config"]), out, log


def test_screens_do_not_change_when_only_secrets_change():
    rng = random.Random(4)
    checked, kept = 0, None
    for state, events in states_along_a_game(4, seed=17, every=7):
        if state["over"]:
            continue
        for viewer in (PUBLIC, 0, 2):
            other = hide_differently(state, viewer, rng)
            assert _texts(other, events, viewer) == _texts(state, events, viewer)
            checked += 1
        if kept is None and state["g"]["round"] == 2:
            kept = copy.deepcopy(state)
    assert checked > 30
    # ...and the check can fail: seat 1's own screen shows its hand (and Iron Throne cards).
    plain = screen.plain_lines(core.view(kept, 1), kept["config"])
    assert any(l.startswith("Your hand (seat 1): ") for l in plain)
    other = hide_differently(kept, 0, rng)
    assert screen.plain_lines(core.view(other, 1), kept["config"]) != plain


def test_the_court_is_drawn_as_a_pyramid_and_the_final_scores_name_the_iron_throne_cards():
    state, _ = play_one("intrigue", {"players": 3}, 5, "heuristic")
    view = core.view(state, PUBLIC)
    nm = Names(None, cardtables.table(state))
    lines = screen.plain_lines(view, state["config"])
    court = lines[lines.index("Court:") + 1:]
    court = court[:next(i for i, l in enumerate(court) if l.startswith("Seat "))]
    base = [c for c in state["g"]["court"]["cards"][0] if c]
    assert court[-1].split() == " ".join(nm.card(c) for c in base).split()  # the base is the bottom line
    indents = [len(l) - len(l.lstrip()) for l in court]
    assert indents == sorted(indents, reverse=True)  # each row sits half a card further in
    scores = "\n".join(screen.scores_lines(view, state["config"]))
    for held in state["result"]["thrones"]:
        for t in held:
            assert nm.card(t) in scores
