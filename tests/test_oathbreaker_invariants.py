"""Oathbreaker random playouts at every player count and with each optional rule: a decision is
always open with legal choices until the end, every card is conserved, the same seed gives the same
game, games end on the last space of the round track; then bots, bad input and the bench."""

import itertools
import json
import random

import pytest

from oathbreaker_harness import decrees_everywhere, influence_everywhere
from maester import cli
from maester.engine import apply, cardtables, new_game
from maester.engine.session import Session, replay
from maester.sim import play_one
import playout
from playout import digest, rejected_without_change

VARIANTS = [[], ["night_is_dark"], ["aloof_king"], ["cagey_court"], ["order_in_court"],
            ["aloof_king", "cagey_court", "night_is_dark", "order_in_court"]]


pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def check_invariants(state):
    g = state["g"]
    cards = cardtables.table(state)
    assert sorted(influence_everywhere(g)) == sorted(cards["influence_instances"]), "influence cards lost"
    assert sorted(decrees_everywhere(g)) == sorted(cards["decree_instances"]), "decrees lost"
    missions = g["mission_deck"] + [m["card"] for m in g["missions"]] + g["missions_done"]
    assert sorted(missions) == sorted(cards["mission_instances"]), "missions lost"
    held = [g["ambition"][s] for s in g["nobles"]]
    assert sorted(held + g["ambitions_unused"]) == sorted(cards["ambition_instances"])
    loyal = cards["components"]["loyalty"][str(g["n"])]
    dealt = [g["loyalty"][s] for s in g["nobles"]] + ([g["agent"]] if g["agent"] else [])
    assert dealt.count("conspirator") == loyal["conspirator"] and dealt.count("loyalist") == loyal["loyalist"]
    assert all(min(g["cubes"][s]) >= 0 for s in g["nobles"]) and g["order"] >= 0 and g["chaos"] >= 0
    assert g["hand_of_king"] is None or g["hand_of_king"] in g["nobles"]
    assert all(not g["hands"][m] for m in g["monarchs"]) and all(not g["decree_hands"][s] for s in g["nobles"])
    assert all(len(g["decree_hands"][m]) <= 6 for m in g["monarchs"])
    boards = [cardtables.get(g["table"])["info"][c]["board"] for c in g["characters"] if c]
    assert len(boards) == len(set(boards))
    for m in g["monarchs"]:
        side = [s for s in g["nobles"] if g["judge"][s] == m]
        assert len(side) == (3 if g["queen"] is not None else len(g["nobles"]))


def random_game(players, seed, variants=(), check_every=True):
    config = {"players": players, "variants": list(variants), "owner_cards": False}
    check = (lambda state, ask: check_invariants(state)) if check_every else None
    state = playout.random_game("oathbreaker", config, seed, check)
    check_invariants(state)
    return state


@pytest.mark.parametrize("players,variants", list(itertools.product((5, 6, 7, 8), VARIANTS)))
def test_random_playouts_keep_every_invariant(players, variants):
    for seed in range(4):
        state = random_game(players, seed, variants)
        g, r = state["g"], state["result"]
        assert r["rounds"] == len(g["track"]) == g["space"] and g["phase"] == "over"
        assert (r["realm"] == "order") == (r["order"] > r["chaos"])
        assert set(g["monarchs"]) <= set(r["winners"]) if r["realm"] == "order" else not set(g["monarchs"]) & set(r["winners"])
        side = "loyalist" if r["realm"] == "order" else "conspirator"
        for s in g["nobles"]:
            assert (s in r["winners"]) == (g["loyalty"][s] == side and r["ambition_met"][s])
        assert all(x is not None for x in (g["guesses"][s] for s in g["nobles"]))
        json.dumps(state)  # plain data all the way down


def test_same_seed_same_game_and_different_seed_different_game():
    a = digest(random_game(6, 11, check_every=False))
    b = digest(random_game(6, 11, check_every=False))
    c = digest(random_game(6, 12, check_every=False))
    assert a == b != c


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_bot_games_are_reproducible_and_legal(players):
    config = {"players": players, "owner_cards": False}
    a, acts_a = play_one("oathbreaker", config, 3, "heuristic")
    b, acts_b = play_one("oathbreaker", config, 3, "heuristic")
    assert acts_a == acts_b and digest(a) == digest(b) and a["result"]["rounds"] == 7


def test_a_logged_game_replays_and_resumes(tmp_path):
    session = Session.new("oathbreaker", {"players": 8, "variants": ["night_is_dark"]}, 4, log_path=tmp_path / "g.sqlite")
    rng = random.Random(4)
    while not session.state["over"]:
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    folded, events = replay(session.log)
    assert folded == session.state and events == session.events
    session.close()


# --- bad input: a clear reason and no change ----------------------------------------------------------

@pytest.fixture
def midgame():
    state, _ = new_game("oathbreaker", {"players": 6, "owner_cards": False}, 5)
    rng = random.Random(5)
    while not (state["asks"] and state["asks"][0]["kind"] == "play" and len(state["asks"][0]["choices"]) > 3):
        ask = state["asks"][0]
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
    return state


def test_bad_commands_are_rejected_with_a_reason_and_change_nothing(midgame):
    g = midgame["g"]
    ask = midgame["asks"][0]
    seat = ask["seat"]
    other = next(s for s in g["nobles"] if s != seat)
    mine = g["hands"][seat][0]
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["play", mine, 7]})              # no such mission
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["play", g["hands"][other][0], 0]})  # not in hand
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["play", "dragon#1", 0]})
    assert "not yours" in rejected_without_change(
        midgame, {"seat": other, "ask": ask["id"], "choice": ask["choices"][0]})
    assert "closed" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"] - 1, "choice": ask["choices"][0]})
    assert "nothing is asked" in rejected_without_change(
        midgame, {"seat": g["king"], "ask": ask["id"] + 5, "choice": ["done"]})
    assert rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": "done"})
    assert rejected_without_change(midgame, {})


def test_done_is_refused_before_two_cards(midgame):
    ask = midgame["asks"][0]
    if ["done"] not in ask["choices"]:
        assert "not a legal choice" in rejected_without_change(
            midgame, {"seat": ask["seat"], "ask": ask["id"], "choice": ["done"]})


def test_a_double_read_is_absorbed(midgame):
    ask = midgame["asks"][0]
    command = {"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]}
    assert apply(midgame, command).ok
    reason = rejected_without_change(midgame, command)
    assert "closed" in reason or "not yours" in reason


def test_a_rejection_never_names_another_seats_card(midgame):
    ask = midgame["asks"][0]
    seat = ask["seat"]
    g = midgame["g"]
    fake = rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": ["play", "nobody#1", 0]})
    for other in g["nobles"]:
        if other == seat:
            continue
        for card in g["hands"][other]:
            reason = rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": ["play", card, 0]})
            assert reason.replace(card, "X") == fake.replace("nobody#1", "X")


# --- commands ---------------------------------------------------------------------------------

def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sim_and_bench_run_oathbreaker(capsys):
    code, out, _ = run(capsys, "sim", "oathbreaker", "--games", "5", "--json")
    stats = json.loads(out)
    assert code == 0 and stats["players"] == 6 and stats["rounds_per_game"] == [7] * 5
    code, out, _ = run(capsys, "bench", "engine", "--game", "oathbreaker", "--games", "5", "--json")
    stats = json.loads(out)
    assert code == 0 and stats["games"] == 5 and stats["games_per_s"] > 0
    for variant in ("aloof_king", "cagey_court", "night_is_dark", "order_in_court"):
        code, out, _ = run(capsys, "sim", "oathbreaker", "--games", "2", "--players", "8", "--bots", "heuristic",
                           "--variant", variant)
        assert code == 0 and "oathbreaker, 8 players (%s), heuristic bots" % variant in out
    code, _, err = run(capsys, "sim", "oathbreaker", "--players", "4", "--games", "1")
    assert code == 2 and "5 to 8 players" in err
