"""`maester bench inputs` (issue 28): what people at a built table do in whole games, counted per
round and per game. A short run of each game; the figures themselves are in the README."""

import json
import subprocess

import pytest

from board_driver import maester_cmd
from maester.bench import inputs
from maester.table import asking
from maester.games import DEFAULT_PLAYERS, NAMES


def test_the_json_has_the_figures_the_issue_names(tmp_path):
    r = subprocess.run(maester_cmd("bench", "inputs", "--game", "lcg", "--players", "2", "--games", "1", "--json"),
                       capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert set(out["inputs_per_round"]) >= {"median", "p90"}
    assert out["inputs_per_round"]["median"] <= out["inputs_per_round"]["p90"]
    assert isinstance(out["single_choice_prompts"], int) and out["single_choice_prompts"] >= 0
    assert set(out["asks_by_seat"]) == {"0", "1"} and sum(out["asks_by_seat"].values()) == out["asks_put_to_people"]
    assert {"plot", "draw", "marshalling", "challenges"} <= set(out["phases"])  # the LCG's, per phase
    assert out["rounds"] >= 1 and out["setup_inputs"]["median"] > 0  # the LCG's setup is apart


@pytest.mark.parametrize("game", NAMES)
def test_every_decision_of_a_game_is_counted(game):
    out = inputs.run(game, DEFAULT_PLAYERS[game], games=1, seed=3)
    assert out["decisions"] >= out["asks_put_to_people"] > 0
    per_round = out["inputs_per_round"]
    assert 0 < per_round["median"] <= per_round["p90"]
    # A tap costs one input, a page press one: together they make the inputs, round by round.
    assert out["taps_per_round"]["mean"] + out["presses_per_round"]["mean"] == pytest.approx(per_round["mean"], abs=0.02)


def test_every_ask_counts_each_lone_pass_as_a_single_choice_prompt_and_a_press():
    before = inputs.run("lcg", 2, games=1, seed=2, auto=None)
    after = inputs.run("lcg", 2, games=1, seed=2)
    assert before["decisions"] == before["asks_put_to_people"] == after["decisions"]
    assert before["single_choice_prompts"] > 0 and not before["table_answers"]
    # Every lone answer was a press on a page (none moves a card), and each is gone after.
    assert before["presses_per_round"]["mean"] > after["presses_per_round"]["mean"]
    assert after["single_choice_prompts"] == 0


def test_what_moves_a_card():
    ask = {"id": 7, "seat": 1, "kind": "response", "choices": [["pass"]], "prompt": ""}
    assert not asking.moves_card({"game": "lcg"}, ask, ["pass"])
    assert asking.moves_card({"game": "lcg"}, ask, ["drew", "S5#1"])  # a card named: the cardboard follows
    assert asking.moves_card({"game": "btwixt"}, ask, ["kneel"])  # B'Twixt's leader card turns


def test_bad_options_are_refused():
    r = subprocess.run(maester_cmd("bench", "inputs", "--game", "chess"), capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "chess" in r.stderr
