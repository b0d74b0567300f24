"""LCG random playouts at every player count (2 to 6), in each variant and with observed draws, by
the random bot and the heuristic bot, checking after every command that every card lies in exactly
one place, that power and gold are conserved against the pool, and that the game is legal to its end;
then that the same seed gives the same game and that the log folds back into the live state."""

import json
import random

import pytest

from lcg_harness import instances
from maester.engine.bots import card_info, make_bot
from maester.engine import apply, core, new_game
from maester.engine.session import Session, replay
from maester.games.lcg import model as M
from playout import digest

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

DECKS = ["stark", "lannister", "baratheon", "targaryen"]


def playing(state):
    """Event cards being played: out of the hand, not yet in a pile, each the source of an ability
    step still on the stack."""
    return {st["src"] for st in state["stack"] if st["s"] == "ability"}


def check_invariants(state):
    g = state["g"]
    n = g["n"]
    cards = g["cards"]
    # Every instance in exactly one place, and its record says the same place.
    placed = instances(g)
    names = [i for i, _, _ in placed]
    assert len(names) == len(set(names)), "a card lies in two places: %s" % sorted(
        i for i in set(names) if names.count(i) > 1)
    loose = set(cards) - set(names)
    assert all(cards[i]["zone"] == "playing" for i in loose), "cards nowhere: %s" % sorted(loose)
    assert loose <= playing(state), "an event out of its hand with nothing resolving it: %s" % sorted(loose)
    for inst, zone, seat in placed:
        c = cards[inst]
        assert c["zone"] == zone, "%s lies in %s but says %s" % (inst, zone, c["zone"])
        assert c["owner"] == M.owner_of(inst)
        if zone == "play":
            assert c["ctrl"] == seat, "%s is on seat %d's side, controlled by %d" % (inst, seat, c["ctrl"])
            if c["on"] is not None:
                assert cards[c["on"]]["zone"] == "play" and inst in cards[c["on"]]["att"], inst
        elif zone == "dup":
            host = cards[c["on"]]
            assert host["zone"] == "play" and inst in host["dups"]
            assert M.info(state, inst)["name"] == M.info(state, c["on"])["name"]
        else:
            assert seat == c["owner"] and c["ctrl"] == c["owner"], "%s in another's %s" % (inst, zone)
            assert c["on"] is None and not c["att"] and not c["dups"] and not c["power"] and not c["kneel"], inst
        for a in c["att"]:
            assert cards[a]["on"] == inst and cards[a]["zone"] == "play", (inst, a)
        if zone in ("plots", "used", "revealed"):
            assert M.info(state, inst)["type"] == "plot"
        elif zone != "playing":
            assert M.info(state, inst)["type"] != "plot", inst
    for seat, p in enumerate(g["players"]):
        assert p["chosen"] is None or p["chosen"] in p["plots"]
        assert p["gold"] >= 0 and p["power"] >= 0
    # Power and gold: what is on the table plus what is in the pool is what the pool started with.
    bank = g["bank"]
    on_table = sum(p["power"] for p in g["players"]) + sum(c["power"] for c in cards.values())
    assert on_table + bank["power"] == 15 * n + bank["added_power"], "power is not conserved"
    gold = sum(p["gold"] for p in g["players"]) + sum(c.get("gold", 0) for c in cards.values())
    assert gold + bank["gold"] == 10 * n + bank["added_gold"], "gold is not conserved"
    assert bank["power"] >= 0 and bank["gold"] >= 0
    # Nobody is past the goal while the game goes on (unless the first player is choosing the winner).
    if not state["over"] and not any(a["kind"] == "winner" for a in state["asks"]):
        assert all(M.team_power(g, s) < g["goal"] for s in range(n)), "a player won and the game went on"
    if not state["over"]:
        assert state["asks"] and all(a["choices"] for a in state["asks"])


def play(config, seed, bots="random", check=True, on_command=None, max_commands=20000):
    """A whole game: bots answer, an observed draw is a random card of the deck. Returns the state
    and the commands with their chance outcomes."""
    state, _ = new_game("lcg", dict(config, owner_cards=False), seed)
    info = card_info(state)
    players = [make_bot("lcg", bots, seed, s, info) for s in range(config["players"])]
    rng = random.Random(seed)
    log = []
    if check:
        check_invariants(state)
    while not state["over"]:
        ask = state["asks"][0]
        seat = ask["seat"]
        gives = [c for c in ask["choices"] if c[0] == "give"]
        if ask["kind"] == "draw":
            choice = rng.choice(ask["choices"])
        elif gives and rng.random() < 0.9:
            # Littlefinger: a random bot would hand gold over at most turns; fewer gifts keep the
            # games about as long as the others (gifts no longer reopen a window).
            choice = rng.choice([c for c in ask["choices"] if c[0] != "give"])
        else:
            bot = players[seat]
            choice = bot.choose(core.view(state, seat) if bot.uses_view else None, ask)
        command = {"seat": seat, "ask": ask["id"], "choice": choice}
        result = apply(state, command)
        assert result.ok, result.reason
        log.append((command, result.outcomes))
        if on_command is not None:
            on_command(state, command, result)
        if check:
            check_invariants(state)
        assert len(log) < max_commands, "the game did not end"
    assert state["result"]["winners"]
    return state, log


def config(players, variants=(), observe=()):
    return {"players": players, "decks": [DECKS[s % 4] for s in range(players)], "variants": list(variants),
            "observe": list(observe)}


CASES = [(2, (), ()), (3, (), ()), (4, (), ()), (5, (), ()), (6, (), ()),
         (4, ("two_on_two",), ()), (3, ("littlefinger",), ()), (5, ("littlefinger",), ()),
         (2, (), ("draws",)), (4, ("two_on_two",), ("draws",)), (3, ("littlefinger",), ("draws",))]


@pytest.mark.parametrize("players,variants,observe", CASES)
def test_random_playouts_keep_every_invariant(players, variants, observe):
    for seed in range(4):
        state, log = play(config(players, variants, observe), seed)
        g, r = state["g"], state["result"]
        assert all(M.team_power(g, s) >= g["goal"] for s in r["winners"])
        if "two_on_two" in variants:
            assert sorted(r["winners"]) in ([0, 2], [1, 3])
        else:
            assert len(r["winners"]) == 1
        json.dumps(state)  # plain data all the way down


@pytest.mark.parametrize("first,second", [(a, b) for a in DECKS for b in DECKS if a != b])
def test_every_starter_deck_against_every_other_keeps_every_invariant(first, second):
    """Each starter deck against each other one, in both seats, with random and heuristic bots:
    the card abilities of both decks meet, and nothing is lost or made up on the way."""
    for bots, seed in (("random", 11), ("heuristic", 12)):
        state, log = play({"players": 2, "decks": [first, second], "variants": [], "observe": []}, seed, bots=bots)
        assert state["over"]


@pytest.mark.parametrize("players,variants", [(2, ()), (3, ()), (4, ()), (4, ("two_on_two",)), (5, ()),
                                              (6, ("littlefinger",))])
def test_heuristic_bot_playouts_keep_every_invariant(players, variants):
    for seed in (3, 4):
        state, log = play(config(players, variants), seed, bots="heuristic")
        assert state["over"]


def test_the_invariant_checks_can_fail():
    import copy
    state, _ = play(config(3), 2, check=False, max_commands=20000)
    check_invariants(state)
    g = state["g"]
    broken = []
    s = copy.deepcopy(state)                                 # a card in two places
    s["g"]["players"][0]["hand"].append(s["g"]["players"][0]["deck"][0])
    broken.append(s)
    s = copy.deepcopy(state)                                 # a card nowhere
    s["g"]["players"][1]["deck"].pop()
    broken.append(s)
    s = copy.deepcopy(state)                                 # a record that says the wrong zone
    s["g"]["cards"][g["players"][2]["deck"][0]]["zone"] = "hand"
    broken.append(s)
    s = copy.deepcopy(state)                                 # a power counter lost
    s["g"]["bank"]["power"] -= 1
    broken.append(s)
    s = copy.deepcopy(state)                                 # gold made from nothing
    s["g"]["players"][0]["gold"] += 1
    broken.append(s)
    for s in broken:
        with pytest.raises(AssertionError):
            check_invariants(s)


def test_a_playout_goes_through_every_phase_and_the_asks_that_matter():
    """The random playouts are only worth their checks if they reach the interesting places."""
    kinds, events = set(), set()

    def seen(state, command, result):
        events.update(e["e"] for e in result.events)

    for players, variants in ((2, ()), (4, ()), (3, ("littlefinger",))):
        for seed in range(3):
            state, log = play(config(players, variants), seed, check=False, on_command=seen)
            kinds.update(c["choice"][0] for c, _ in log)
    assert {"plot", "first", "title", "marshal", "attach", "challenge", "attacker", "defender", "kill", "give",
            "redirect", "stealth", "target", "kneel_influence"} <= kinds
    assert {"income", "challenge_result", "left_play", "power", "power_moved", "dominance", "stood", "taxed",
            "plots_recycled", "game_over"} <= events


def test_same_seed_same_game_and_different_seed_different_game():
    a, log_a = play(config(4), 11, check=False)
    b, log_b = play(config(4), 11, check=False)
    c, _ = play(config(4), 12, check=False)
    assert digest(a) == digest(b) != digest(c) and log_a == log_b
    d, _ = play(config(2, observe=("draws",)), 5, check=False, bots="heuristic")
    e, _ = play(config(2, observe=("draws",)), 5, check=False, bots="heuristic")
    assert digest(d) == digest(e)


@pytest.mark.parametrize("players,variants,observe", [(2, (), ()), (4, ("two_on_two",), ("draws",)),
                                                       (5, ("littlefinger",), ())])
def test_the_log_folds_into_the_live_state_and_a_resumed_game_goes_on_the_same(tmp_path, players, variants,
                                                                                 observe):
    cfg = dict(config(players, variants, observe), owner_cards=False)
    path = tmp_path / "g.sqlite"
    session = Session.new("lcg", cfg, 7, log_path=path)
    _, log = play(config(players, variants, observe), 7, check=False)
    half = len(log) // 2
    for command, _ in log[:half]:
        assert session.submit(command).ok
    session.close()
    # Resumed from its log in the middle of the game: the same state, then the same game to its end.
    session = Session.resume(path)
    for command, outcomes in log[half:]:
        result = session.submit(command)
        assert result.ok and result.outcomes == outcomes
    assert session.state["over"]
    folded, events = replay(session.log)
    assert folded == session.state and events == session.events
    live, _ = new_game("lcg", cfg, 7)
    for command, _ in log:
        apply(live, command)
    assert live == session.state
    session.close()
