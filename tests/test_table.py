"""The table layer: profiles, taps read against open decisions, LEDs drawn from the public view."""

import copy
import json
import random

import pytest

from maester.engine import PUBLIC, apply, new_game, view
from maester.games.btwixt import table as btable
from maester.table import profile as P
from maester.table.taps import command_for_tap
from test_btwixt_leaks import hide_differently


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_btwixt_profile_is_valid_and_has_a_reader_per_seat(players):
    prof = P.for_game("btwixt", players)
    seats = sorted(r["seat"] for r in prof["readers"] if r["role"] == "seat")
    assert seats == list(range(players))
    names = {s["name"] for s in prof["segments"]}
    assert {"round", "season"} | {"seat%d" % s for s in range(players)} <= names


def test_a_broken_profile_is_refused_with_the_reason(tmp_path):
    prof = P.for_game("btwixt", 4)
    bad = copy.deepcopy(prof)
    bad["segments"][1]["start"] = 3  # season overlaps the round track
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="share pixel"):
        P.load(path)
    bad = copy.deepcopy(prof)
    bad["segments"][-1]["length"] = 50
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="does not fit"):
        P.load(path)
    with pytest.raises(ValueError, match="no table profile"):
        P.load("btwixt-9p")


def tap_for(state, command):
    """A tap that means `command`, if the table can express it: (place, card) or None."""
    choice = command["choice"]
    g = state["g"]
    candidates = [x for x in choice if isinstance(x, str) and "#" in x]
    candidates += ["leader:%s" % l for l in g["leaders"]]
    for card in candidates:
        found, _ = command_for_tap(state, command["seat"], card)
        if found == command:
            return card
    return None


def test_a_game_played_by_taps_ends_as_the_same_commands_applied_directly():
    config = {"players": 4, "variants": ["advanced"], "observe": ["allies", "hands"]}
    by_taps, _ = new_game("btwixt", config, 9)
    direct, _ = new_game("btwixt", config, 9)
    rng = random.Random(9)
    tapped = total = 0
    while not by_taps["over"]:
        ask = by_taps["asks"][0]
        command = {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}
        card = tap_for(by_taps, command)
        total += 1
        if card is not None:
            found, reason = command_for_tap(by_taps, command["seat"], card)
            assert found == command, reason
            tapped += 1
        assert apply(by_taps, command).ok and apply(direct, command).ok
    assert by_taps == direct
    # Plays, kneels, draft picks, observed cards and leader choices are all taps.
    assert tapped / total > 0.8


def test_your_own_leader_card_kneels_and_a_neighbours_picks_the_shared_council():
    from btwixt_harness import Table
    t = Table(4, leaders=["cersei", "tyrion", "olenna", "jon"])
    t.hand(0); t.hand(1); t.hand(2); t.hand(3)
    t.current("shae#1")
    command, _ = command_for_tap(t.state, 0, "leader:cersei")
    assert command["choice"] == ["kneel"]
    t.kneel_all()
    # Cersei (seat 0) won at 0; Tyrion sits on her left: council 0 is theirs.
    command, _ = command_for_tap(t.state, 0, "leader:tyrion")
    assert command["choice"] == ["council", 0]
    command, _ = command_for_tap(t.state, 0, "leader:jon")
    assert command["choice"] == ["council", 3]


def test_refused_taps_say_nothing_about_other_hands():
    state, _ = new_game("btwixt", {"players": 4}, 2)
    ask = state["asks"][0]
    seat = ask["seat"]
    other_card = state["g"]["hands"][(seat + 1) % 4][0]
    command, reason = command_for_tap(state, seat, other_card)
    assert command is None and reason == "that card cannot be used for this decision"
    command, reason = command_for_tap(state, (seat + 1) % 4, other_card)
    assert command is None and reason == "nothing is asked here now"


def test_leds_show_the_time_track_first_player_and_who_acts():
    state, _ = new_game("btwixt", {"players": 4, "first": 2}, 1)
    segs = btable.segments(view(state, PUBLIC))
    # Space 2 of the round track is its third pixel; summer is the first season pixel.
    assert segs["round"][0] == 3 and segs["season"][0] == 1
    assert segs["seat2"][2] == "pulse"  # the first player is asked first
    ask = state["asks"][0]
    apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": ["kneel"]})
    segs = btable.segments(view(state, PUBLIC))
    assert segs["seat2"][1] == btable.KNELT and segs["seat3"][2] == "pulse"


def test_leds_never_change_with_hidden_information():
    state, _ = new_game("btwixt", {"players": 5, "variants": ["advanced"]}, 3)
    rng = random.Random(3)
    for _ in range(150):
        for seat in range(5):
            other = hide_differently(state, seat, rng)
            assert btable.segments(view(other, PUBLIC)) == btable.segments(view(state, PUBLIC))
        ask = state["asks"][0]
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})


# --- Westeros Intrigue ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_intrigue_profile_is_valid_and_has_a_reader_per_seat(players):
    prof = P.for_game("intrigue", players)
    assert sorted(r["seat"] for r in prof["readers"]) == list(range(players))


def test_an_intrigue_card_tap_places_it_or_asks_for_the_position():
    from maester.games.intrigue import table as itable
    state, _ = new_game("intrigue", {"players": 4}, 5)
    rng = random.Random(5)
    single = several = 0
    for _ in range(40):
        if state["over"]:
            break
        ask = state["asks"][0]
        seat = ask["seat"]
        for card in {c[1] for c in ask["choices"]}:
            meant = [c for c in ask["choices"] if c[1] == card]
            command, reason = command_for_tap(state, seat, card)
            if len(meant) == 1:
                assert command["choice"] == meant[0]
                single += 1
            else:
                assert command is None and "seat page" in reason
                several += 1
        apply(state, {"seat": seat, "ask": ask["id"], "choice": rng.choice(ask["choices"])})
        segs = itable.segments(view(state, PUBLIC))
        # Moving a card between two other hands changes nothing on the LEDs.
        other = copy.deepcopy(state)
        hands = other["g"]["hands"]
        others = [s for s in range(4) if s != seat and hands[s]]
        if len(others) >= 2:
            a, b = others[:2]
            hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
            assert itable.segments(view(other, PUBLIC)) == segs
    assert single and several
