"""Helpers every game's invariant tests share: random playouts, a state digest, no-change rejections."""

import copy
import hashlib
import json
import random

from maester.engine import apply, new_game


def random_game(game, config, seed, check=None, max_steps=5000):
    """Play to the end with random legal choices. `check(state, ask)` runs before every decision
    (and `check(state, None)` at the end); the playout itself checks that a decision is always
    open, that it offers a choice, that every choice is accepted, and that the game ends."""
    state, _ = new_game(game, config, seed)
    rng = random.Random(seed)
    steps = 0
    while not state["over"]:
        assert state["asks"], "no decision open before the end"
        ask = state["asks"][0]
        assert ask["choices"], "an ask with no legal choice: %s" % ask
        if check is not None:
            check(state, ask)
        result = apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
        assert result.ok, result.reason
        steps += 1
        assert steps < max_steps, "the game did not end"
    if check is not None:
        check(state, None)
    return state


def digest(state):
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


def rejected_without_change(state, command):
    """Apply a command that must be refused; require the state untouched. Returns the reason."""
    before = copy.deepcopy(state)
    result = apply(state, command)
    assert not result.ok
    assert state == before
    return result.reason
