"""What an LCG round costs the table (issue 28): a tap that both chooses a challenge and declares its
first attacker, declarations (attackers, defenders, Stealth marks) that close after a public pause
following their last tap instead of a "done" press, and `bench inputs` telling a round ask by ask."""

import random

import pytest

from maester.bench import inputs
from maester.engine.session import Session
from maester.games.lcg import model as M
from maester.games.lcg import table as ltable
from maester.table import asking
from test_lcg_table import runner, tap  # noqa: F401 (the fixture: a TableRunner on a 2-seat game)

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

WINDOW_MS = 1500


def play_to(session, runner, want, seed=3):
    """Random choices through the runner (never "done" at a challenge while another is open) until
    `want(state, ask)` holds for an open ask."""
    rng = random.Random(seed)
    for _ in range(5000):
        for a in session.state["asks"]:
            if want(session.state, a):
                return a
        a = session.state["asks"][0]
        choices = [c for c in a["choices"] if c != ["done"]] if a["kind"] == "challenge" else a["choices"]
        assert runner.submit({"seat": a["seat"], "ask": a["id"], "choice": rng.choice(choices or a["choices"])}).ok
    raise AssertionError("never reached")


def fits(state, ask, n):
    """The seat's characters a tap of which at the challenge `ask` means exactly `n` challenges."""
    return [i for i in M.characters(state, ask["seat"])
            if len(ltable.challenge_choices(state, ask, i, ask["seat"])) == n]


# --- a tap that chooses the challenge and declares its first attacker -----------------------------

def test_a_character_tapped_at_the_challenge_ask_makes_the_challenge_its_icons_allow_and_attacks(runner):
    r, session, said = runner
    a = play_to(session, r, lambda s, a: a["kind"] == "challenge" and fits(s, a, 1))
    seat, card = a["seat"], fits(session.state, a, 1)[0]
    (choice,) = ltable.challenge_choices(session.state, a, card, seat)
    assert ltable.carriers(session.state, a, choice) >= {card}
    tap(r, seat, card)
    ch = session.state["g"]["challenge"]
    assert not said, said  # nothing refused
    assert (ch["type"], ch["defender"]) == tuple(choice[1:]) and ch["attackers"] == [card]
    # Both commands are in the log: a resumed game is the same game.
    log = session.log.path
    again = Session.resume(log)
    assert again.state == session.state
    again.close()


def test_a_character_fit_for_two_challenges_waits_for_the_pick_then_attacks(runner):
    r, session, said = runner
    a = play_to(session, r, lambda s, a: a["kind"] == "challenge" and fits(s, a, 2))
    seat, card = a["seat"], fits(session.state, a, 2)[0]
    seq = session.state["seq"]
    tap(r, seat, card)
    held = r.pending[seat]
    assert session.state["seq"] == seq and [c[0] for c in held["choices"]] == ["challenge", "challenge"]
    assert r.choose_pending(seat, 1).ok
    ch = session.state["g"]["challenge"]
    assert ch["type"] == held["choices"][1][1] and ch["attackers"] == [card]


def test_another_seats_reader_or_a_knelt_character_chooses_no_challenge(runner):
    r, session, said = runner
    a = play_to(session, r, lambda s, a: a["kind"] == "challenge" and fits(s, a, 1))
    seat, card = a["seat"], fits(session.state, a, 1)[0]
    assert ltable.challenge_choices(session.state, a, card, 1 - seat) == []
    session.state["g"]["cards"][card]["kneel"] = True
    assert ltable.challenge_choices(session.state, a, card, seat) == []


# --- declarations that close after a public pause ------------------------------------------------

def test_attackers_close_after_a_pause_following_the_first_tap_not_before(runner):
    r, session, said = runner
    first = play_to(session, r, lambda s, a: a["kind"] == "attackers" and len(a["choices"]) > 1)
    # Before the first attacker there is no "done": the challenge needs one, and nothing runs out.
    assert ["done"] not in first["choices"] and not asking.is_window(session.state, first)
    tap(r, first["seat"], first["choices"][0][1])
    after = next(a for a in session.state["asks"] if a["kind"] == "attackers")
    clock = asking.Asking([0, 1], WINDOW_MS)
    assert clock.due(session.state, 0.0) == ([], WINDOW_MS / 1000.0)
    assert clock.countdown(session.state, 0.5) == [{"ask": after["id"], "seat": after["seat"], "held": False,
                                                    "left_ms": 1000}]
    assert clock.due(session.state, 1.5)[0] == [{"seat": after["seat"], "ask": after["id"], "choice": ["done"]}]
    # The seat that holds it answers in its own time.
    assert clock.hold(session.state, after["seat"], after["id"]) is None
    assert clock.due(session.state, 99.0) == ([], None)


def test_declaring_no_defenders_is_a_press_and_after_a_defender_a_pause(runner):
    r, session, said = runner
    first = play_to(session, r, lambda s, a: a["kind"] == "defenders" and len(a["choices"]) > 2)
    assert not asking.is_window(session.state, first)  # none at all: a choice made on the page
    assert asking.needs_person(session.state, first, ["done"])
    tap(r, first["seat"], first["choices"][0][1])
    after = next(a for a in session.state["asks"] if a["kind"] == "defenders")
    assert asking.window_end(session.state, after) == ["done"] and not asking.needs_person(session.state, after, ["done"])


# --- the count ---------------------------------------------------------------------------------------

def test_bench_inputs_tells_a_round_ask_by_ask_and_no_done_after_attackers_is_pressed():
    out = inputs.run("lcg", 2, games=2, seed=5)
    by_ask = out["by_ask"]
    total = sum(v["taps"] + v["presses"] for v in by_ask.values())
    assert total == pytest.approx(out["inputs_per_round"]["mean"], abs=0.2)
    assert by_ask["draw: drew"]["taps"] > 0 and by_ask["draw: drew"]["presses"] == 0
    assert "attackers: done" not in by_ask  # the pause closes it
    # Some challenges ride on their first attacker's tap: fewer challenge presses than attackers' first taps.
    before = inputs.run("lcg", 2, games=2, seed=5, auto=None)["by_ask"]
    assert by_ask["challenge: challenge"]["presses"] < before["challenge: challenge"]["presses"]
    assert before["attackers: done"]["presses"] > 0


def test_stealth_marks_pause_only_after_the_first_mark():
    ch = {"attackers": ["S9#0"], "defenders": [], "stealthed": []}
    state = {"game": "lcg", "g": {"challenge": ch, "cards": {}}}
    ask = {"id": 4, "seat": 0, "kind": "stealth", "choices": [["stealth", "S9#0", "L38#1"], ["done"]], "prompt": ""}
    assert asking.window_end(state, ask) is None  # to use no Stealth at all: a press
    ch["stealthed"].append("L40#1")
    assert asking.window_end(state, ask) == ["done"]
    assert asking.window_end(state, dict(ask, kind="claim_kill")) is None  # not a declaration
