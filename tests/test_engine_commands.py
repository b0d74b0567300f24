"""A command matches an open decision exactly: JSON types count (true is not 1, 1.0 is not 1, "1"
is not 1), at every depth of a choice. Anything else is refused with a reason, nothing changed,
and nothing raised, for every game."""

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from maester.engine import core
from maester.engine.core import apply, check, new_game

CONFIGS = [
    ("btwixt", {"players": 4}),
    ("btwixt", {"players": 3, "variants": ["advanced"], "observe": ["allies", "hands"]}),
    ("intrigue", {"players": 3}),
    ("oathbreaker", {"players": 6}),
    ("oathbreaker", {"players": 5, "observe": ["hands", "missions"]}),
]

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def played(game, config, seed, moves):
    state, _ = new_game(game, dict(config, owner_cards=False), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state["over"]:
            break
        ask = rng.choice(state["asks"])
        assert apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    return state


def exact(value):
    """A value's JSON text, types included (true, 1 and 1.0 all differ)."""
    return json.dumps(value, sort_keys=True)


def exactly_legal(state, command):
    if state["over"] or not isinstance(command, dict):
        return False
    for ask in state["asks"]:
        if exact(ask["id"]) == exact(command.get("ask")) and exact(ask["seat"]) == exact(command.get("seat")):
            return exact(command.get("choice")) in {exact(c) for c in ask["choices"]}
    return False


def refused_and_unchanged(state, command):
    before = copy.deepcopy(state)
    result = apply(state, command)
    assert not result.ok, command
    assert isinstance(result.reason, str) and result.reason
    assert state == before
    ask, reason = check(state, command)
    assert ask is None and reason == result.reason


def council_ask(seed=5):
    """A B'Twixt ask whose choices are ["council", <int>]."""
    state, _ = new_game("btwixt", {"players": 4, "owner_cards": False}, seed)
    rng = random.Random(seed)
    while True:
        for ask in state["asks"]:
            if any(c[0] == "council" for c in ask["choices"]):
                return state, ask
        ask = state["asks"][0]
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})


def test_a_float_or_a_boolean_never_stands_for_a_whole_number():
    state, ask = council_ask()
    choice = next(c for c in ask["choices"] if c[0] == "council")
    seat, number = ask["seat"], choice[1]
    # The reported case: a float index passed the check, then the rules failed with the state half changed.
    refused_and_unchanged(state, {"seat": seat, "ask": ask["id"], "choice": ["council", float(number)]})
    refused_and_unchanged(state, {"seat": seat, "ask": ask["id"], "choice": ["council", str(number)]})
    if number in (0, 1):
        refused_and_unchanged(state, {"seat": seat, "ask": ask["id"], "choice": ["council", bool(number)]})
    refused_and_unchanged(state, {"seat": seat, "ask": float(ask["id"]), "choice": choice})
    refused_and_unchanged(state, {"seat": float(seat), "ask": ask["id"], "choice": choice})
    refused_and_unchanged(state, {"seat": seat, "ask": ask["id"], "choice": [choice]})
    refused_and_unchanged(state, {"seat": seat, "ask": ask["id"], "choice": {"0": choice[0], "1": number}})
    # The same command with its own types is accepted.
    assert apply(state, {"seat": seat, "ask": ask["id"], "choice": list(choice)}).ok


def test_true_is_not_seat_one_nor_decision_one():
    for game, config in CONFIGS:
        state, _ = new_game(game, dict(config, owner_cards=False), 1)
        first = min(state["asks"], key=lambda a: a["id"])
        assert first["id"] == 1
        refused_and_unchanged(state, {"seat": first["seat"], "ask": True, "choice": first["choices"][0]})
        refused_and_unchanged(state, {"seat": first["seat"], "ask": 1.0, "choice": first["choices"][0]})
        rng = random.Random(1)
        while not any(a["seat"] == 1 for a in state["asks"]):
            ask = state["asks"][0]
            assert apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
        ask = next(a for a in state["asks"] if a["seat"] == 1)
        for seat in (True, 1.0, "1", [1]):
            refused_and_unchanged(state, {"seat": seat, "ask": ask["id"], "choice": ask["choices"][0]})


def test_commands_of_the_wrong_shape_are_refused_not_raised():
    state = played("oathbreaker", {"players": 6}, 3, 10)
    ask = state["asks"][0]
    deep = []
    for _ in range(50_000):
        deep = [deep]
    for command in (None, 7, "choose", [ask["seat"], ask["id"], ask["choices"][0]], {},
                    {"seat": ask["seat"]}, {"seat": ask["seat"], "ask": ask["id"]},
                    {"seat": ask["seat"], "ask": ask["id"], "choice": deep},
                    {"seat": ask["seat"], "ask": deep, "choice": ask["choices"][0]},
                    {"seat": deep, "ask": ask["id"], "choice": ask["choices"][0]},
                    {"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0] + [None]},
                    {"seat": ask["seat"], "ask": ask["id"], "choice": float("nan")}):
        refused_and_unchanged(state, command)


# --- the property: mutated commands never change the state and never raise -----------------------

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=True),
                    st.text(max_size=6))


def retype(value, draw):
    """`value` with its JSON type changed but, where it can be, the same Python value."""
    if type(value) is bool:
        return draw(st.sampled_from([int(value), float(value), str(value).lower(), [value]]))
    if type(value) is int:
        options = [float(value), str(value), [value], {"v": value}, None]
        if value in (0, 1):
            options.append(bool(value))
        return draw(st.sampled_from(options))
    if type(value) is float:
        return draw(st.sampled_from([int(value), str(value)]))
    if type(value) is str:
        return draw(st.sampled_from([[value], value.encode().decode() + " ", None, 0]))
    if value is None:
        return draw(st.sampled_from([0, False, "", [], {}]))
    return draw(SCALARS)


@st.composite
def mutations(draw, command):
    command = copy.deepcopy(command)
    how = draw(st.sampled_from(["seat", "ask", "item", "wrap", "tuple-in-dict", "extra", "drop",
                                "replace", "shape"]))
    if how in ("seat", "ask"):
        command[how] = retype(command[how], draw)
    elif how == "item":
        choice = command["choice"]
        if choice:
            i = draw(st.integers(0, len(choice) - 1))
            choice[i] = retype(choice[i], draw)
    elif how == "wrap":
        command["choice"] = [command["choice"]] if draw(st.booleans()) else {"choice": command["choice"]}
    elif how == "tuple-in-dict":
        command["choice"] = dict(enumerate(command["choice"]))
    elif how == "extra":
        command["choice"] = command["choice"] + [draw(SCALARS)]
    elif how == "drop":
        del command[draw(st.sampled_from(["seat", "ask", "choice"]))]
    elif how == "replace":
        command[draw(st.sampled_from(["seat", "ask", "choice"]))] = draw(
            st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=8))
    else:
        command = draw(st.sampled_from([None, [command["seat"], command["ask"], command["choice"]],
                                        command["choice"], json.dumps(command)]))
    return command


STATES = {}


def state_for(index, moves):
    key = (index, moves)
    if key not in STATES:
        game, config = CONFIGS[index]
        STATES[key] = played(game, config, 11 + index, moves)
    return STATES[key]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), index=st.integers(0, len(CONFIGS) - 1), moves=st.sampled_from([0, 7, 40]))
def test_mutated_commands_never_change_the_state_and_never_raise(data, index, moves):
    state = copy.deepcopy(state_for(index, moves))
    if state["over"]:
        return
    ask = data.draw(st.sampled_from(state["asks"]))
    legal = {"seat": ask["seat"], "ask": ask["id"], "choice": data.draw(st.sampled_from(ask["choices"]))}
    command = data.draw(mutations(legal))
    if exactly_legal(state, command):
        return  # the mutation landed on another legal command: nothing to refuse
    refused_and_unchanged(state, command)


def test_a_step_that_ends_the_game_asks_and_queues_nothing_after():
    """The engine reads whether the game ended off its context (Ctx.ended, set with state["over"] by
    Ctx.end): a step that ends the game and then asks or pushes leaves no open decision and no step,
    and no further step runs."""
    ran = []

    def turn(ctx, st, answer):
        if answer is None:
            ctx.ask(0, "turn", [["end"]], "End the game.")
            return
        ctx.end({"winners": [0]})
        assert ctx.ask(1, "turn", [["end"]], "Too late.") is None
        ctx.push({"s": "after"})

    def after(ctx, st, answer):
        ran.append(st)

    class Ender(core.Game):
        name = "test_ender"
        steps = {"turn": turn, "after": after}

        def setup(self, ctx, config):
            ctx.push({"s": "turn"}, {"s": "after"})

    core.register(Ender())
    try:
        state, _ = core.new_game("test_ender", {"players": 2}, 0)
        result = core.answer(state, state["asks"][0], state["asks"][0]["choices"][0])
    finally:
        core.GAMES.pop("test_ender")  # the test's own game: not left beside the real ones
    assert result.ok and state["over"] and state["result"]["winners"] == [0]
    assert state["asks"] == [] and state["stack"] == [] and ran == []
