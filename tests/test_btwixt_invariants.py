"""Random-playout invariants for B'Twixt over many seeds, every player count and every variant."""

import itertools
import json
import random

import pytest

from maester.engine import apply, cardtables, new_game
from maester.sim import play_one
import playout
from playout import digest, rejected_without_change

COMBOS = [[], ["advanced"], ["draft"], ["kingsmoot"], ["revealed"], ["short"],
          ["advanced", "revealed"], ["advanced", "draft", "short"], ["kingsmoot", "revealed"]]
SEEDS = range(6)


def influence_everywhere(g, state):
    zones = [g["deck"], g["discard"], g["removed"], g["removed_unseen"], g["events_aside"], *g["hands"], *g["bids"],
             *g["leader_cards"]]
    d = g["draft_state"]
    if d:
        zones += d["packs"] + d["kept"]
    # A played card is in flight while its ability resolves, before it lands in a bid pile.
    zones.append([st["card"] for st in state["stack"] if st["s"] in ("land", "ab_bribery")])
    return [c for z in zones for c in z]


def allies_everywhere(g, state):
    held = [c for st in state["stack"] for key in ("seen", "stack") for c in st.get(key, [])
            if isinstance(c, str)]
    held += [st["ally"] for st in state["stack"] if st["s"] == "place_ally" and st["from"] == "extra"]
    current = [g["current"]] if g["current"] else []
    return (g["observed"] + g["ally_deck"] + g["row"] + g["dead"] + current + held
            + [a for c in g["councils"] for a in c["allies"]])


def check_conservation(state):
    g = state["g"]
    cards = cardtables.table(state)
    inf = influence_everywhere(g, state)
    expected = (cards["standard_instances"] + cards["event_instances"] + cards["leader_instances"])
    if not g["advanced"] and not g["kingsmoot"]:
        expected = cards["standard_instances"]
    else:
        # Leader cards of leaders nobody plays never enter the game in the advanced game.
        unused = [c for l, cs in cards["leader_card_instances"].items() if l not in g["leaders"] for c in cs]
        if not g["kingsmoot"]:
            expected = [c for c in expected if c not in unused]
    assert sorted(inf) == sorted(expected), "influence cards lost or duplicated"
    allies = allies_everywhere(g, state)
    assert sorted(allies) == sorted(cards["ally_instances"]), "allies lost or duplicated"
    tokens = g["supply"] + g["current_tokens"] + [t for c in g["councils"] for t in c["tokens"]]
    assert sorted(tokens) == sorted(g["token_value"]) and len(tokens) == 54


def random_game(players, variants, seed, check_every=True, observe=()):
    config = {"players": players, "variants": variants, "observe": list(observe)}
    check = (lambda state, ask: check_conservation(state)) if check_every else None
    state = playout.random_game("btwixt", config, seed, check)
    check_conservation(state)
    return state


@pytest.mark.parametrize("players,variants", list(itertools.product((3, 4, 5, 6), COMBOS)))
def test_random_playouts_keep_every_invariant(players, variants):
    for seed in SEEDS:
        state = random_game(players, variants, seed)
        seasons = (2 if players >= 5 else 3) - (1 if "short" in variants else 0)
        assert state["g"]["rounds_played"] == seasons * (players + 1)
        assert state["result"]["winners"]
        json.dumps(state)  # plain data all the way down


@pytest.mark.parametrize("variants", [[], ["advanced", "revealed"], ["draft", "short"]])
def test_random_playouts_with_the_table_tapping_allies_and_hands(variants):
    for seed in SEEDS:
        state = random_game(4, variants, seed, observe=("allies", "hands"))
        assert state["result"]["winners"]


def test_same_seed_same_game_and_different_seed_different_game():
    a = digest(random_game(4, ["advanced"], 11, check_every=False))
    b = digest(random_game(4, ["advanced"], 11, check_every=False))
    c = digest(random_game(4, ["advanced"], 12, check_every=False))
    assert a == b != c


def test_bot_games_are_reproducible():
    config = {"players": 4, "variants": ["advanced"]}
    a, acts_a = play_one("btwixt", config, 3, "heuristic")
    b, acts_b = play_one("btwixt", config, 3, "heuristic")
    assert acts_a == acts_b and digest(a) == digest(b)


# --- bad input: a clear reason and no change ----------------------------------------------------------

@pytest.fixture
def midgame():
    state, _ = new_game("btwixt", {"players": 4}, 5)
    rng = random.Random(5)
    for _ in range(30):
        ask = state["asks"][0]
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
    return state


def test_bad_commands_are_rejected_with_a_reason_and_change_nothing(midgame):
    ask = midgame["asks"][0]
    seat = ask["seat"]
    other = (seat + 1) % 4
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["play", "no-such-card#1"]})
    not_mine = midgame["g"]["hands"][other][0] if midgame["g"]["hands"][other] else "betrayal#1"
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["play", not_mine]})
    assert "not yours" in rejected_without_change(
        midgame, {"seat": other, "ask": ask["id"], "choice": ask["choices"][0]})
    assert "closed" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"] - 1, "choice": ask["choices"][0]})
    assert rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": "kneel"})
    assert rejected_without_change(midgame, {})


def test_a_double_read_is_absorbed(midgame):
    ask = midgame["asks"][0]
    command = {"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]}
    assert apply(midgame, command).ok
    reason = rejected_without_change(midgame, command)
    assert "closed" in reason or "not yours" in reason


def test_a_rejection_never_names_another_seats_card(midgame):
    ask = midgame["asks"][0]
    seat = ask["seat"]
    hidden = [c for s, h in enumerate(midgame["g"]["hands"]) if s != seat for c in h]
    for card in hidden:
        reason = rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": ["play", card]})
        assert "seat" not in reason and "hand of" not in reason
