"""Hidden information never leaks on a real table, where the engine learns the deal from taps
(``observe``), for every game.

Differential: from a state where several seats are tapping the cards they were dealt, build two
worlds that differ only in which cards the *other* seats tapped (so hold); seat A then taps the
same card in both. A's view (its open decision and the choices it is offered included), the
public view and the events A may see must be the same in both worlds.
"""

import copy
import random

import pytest

from maester.engine import PUBLIC, apply, filter_events, new_game, view

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

TAPS = {"observe_hand", "observe_draw"}  # a seat tapping a card it was dealt, all seats at once


def accepted(state, command):
    """The state after `command` when the engine takes the tap (not refused), else None."""
    trial = copy.deepcopy(state)
    result = apply(trial, command)
    if not result.ok or any(e["e"] == "tap_refused" for e in result.events):
        return None
    return trial, result.events


def tap(state, ask, rng, key=lambda card: 0):
    """Answer `ask` with a tap the engine accepts, trying the cards `key` ranks lowest first."""
    choices = list(ask["choices"])
    rng.shuffle(choices)
    choices.sort(key=lambda c: key(c[1]))
    for choice in choices:
        done = accepted(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice})
        if done is not None:
            return done
    raise AssertionError("no card of %s is accepted" % ask)


def play(state, rng, until):
    """Play on (taps that the engine accepts, other decisions at random) until `until(state)`."""
    while not state["over"] and not until(state):
        ask = state["asks"][0]
        if ask["kind"].startswith("observe"):
            state, _ = tap(state, ask, rng)
        else:
            assert apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    return state


def tapping(state, seat):
    return next((a for a in state["asks"] if a["seat"] == seat and a["kind"] in TAPS), None)


def others_tap(state, a, key):
    """Every seat but `a` taps its whole hand, preferring cards by `key`. Returns (state, events,
    the cards in the order they were tapped)."""
    s, events, order, rng = copy.deepcopy(state), [], [], random.Random(1)
    while True:
        ask = next((x for x in s["asks"] if x["seat"] != a and x["kind"] in TAPS), None)
        if ask is None:
            return [s, events, order]
        s, new = tap(s, ask, rng, key)
        events += new
        order += [e["card"] for e in new if e["e"] == "tapped_into_hand"]


def two_worlds(state, a, key1, key2=None):
    """The others tap their hands, preferring cards by `key1` in one world and `key2` in the other
    (by default: the very cards of the first world, shared out among them the other way round,
    which is all that can differ when every card is dealt); then `a` taps the same card in both.
    Returns the two [state, events since the fork]."""
    first = others_tap(state, a, key1)
    if key2 is None:
        order = first[2]
        key2 = lambda card: -order.index(card) if card in order else 1  # noqa: E731
    worlds = [first[:2], others_tap(state, a, key2)[:2]]
    (s1, _), (s2, _) = worlds
    mine = tapping(s1, a)
    assert mine is not None and mine == tapping(s2, a)
    for choice in mine["choices"]:
        command = {"seat": a, "ask": mine["id"], "choice": choice}
        one, two = accepted(s1, command), accepted(s2, command)
        if one and two:
            worlds[0][0], worlds[1][0] = one[0], two[0]
            worlds[0][1] += one[1]
            worlds[1][1] += two[1]
            return worlds
    raise AssertionError("no card is free in both worlds")


def assert_same_for(worlds, a):
    (s1, e1), (s2, e2) = worlds
    assert s1["g"] != s2["g"], "the two worlds should differ in what the others hold"
    assert tapping(s1, a) is not None, "seat %d should still be tapping" % a
    assert view(s1, a) == view(s2, a), "seat %d's view or choices tell what the others tapped" % a
    assert view(s1, PUBLIC) == view(s2, PUBLIC)
    assert filter_events(e1, a) == filter_events(e2, a)


# --- B'Twixt ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 5])
def test_btwixt_what_a_seat_may_tap_does_not_tell_which_events_the_others_were_dealt(players):
    # Advanced game: at the end of a season events are shuffled in by hand. One world deals them
    # to the other seats, the other leaves them in the deck.
    state, _ = new_game("btwixt", {"players": players, "variants": ["advanced"], "observe": ["hands"],
                                   "owner_cards": False}, 4)
    rng = random.Random(4)
    state = play(state, rng, lambda s: s["g"]["events_owed"] and tapping(s, 0))
    events = set(state["g"]["events_aside"])
    is_event = lambda card: 0 if card in events else 1  # noqa: E731
    worlds = two_worlds(state, 0, is_event, lambda card: 1 - is_event(card))
    held = [c for s in range(1, players) for c in worlds[0][0]["g"]["hands"][s]]
    assert events & set(held), "the first world should deal events to the others"
    assert not events & {c for s in range(1, players) for c in worlds[1][0]["g"]["hands"][s]}
    assert_same_for(worlds, 0)


def test_btwixt_the_first_deal_on_a_real_table_tells_a_seat_nothing_of_the_others():
    state, _ = new_game("btwixt", {"players": 4, "observe": ["hands", "allies"], "owner_cards": False}, 2)
    assert tapping(state, 2)
    worlds = two_worlds(state, 2, lambda c: c, lambda c: [-ord(ch) for ch in c])
    assert_same_for(worlds, 2)


# --- Westeros Intrigue -----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4, 5])
def test_intrigue_what_a_seat_may_tap_does_not_tell_what_the_others_were_dealt(players):
    state, _ = new_game("intrigue", {"players": players, "observe": ["hands"], "owner_cards": False}, 3)
    state = play(state, random.Random(3), lambda s: tapping(s, 1))
    house = state["g"]["house_of"]
    order = ("stark", "lannister", "baratheon", "targaryen")
    if players == 2:  # 8 cards go back in the box: the other seat may hold other cards altogether
        worlds = two_worlds(state, 1, lambda c: order.index(house[c]), lambda c: -order.index(house[c]))
    else:             # every card is dealt: the others may only share theirs out differently
        worlds = two_worlds(state, 1, lambda c: order.index(house[c]))
    assert_same_for(worlds, 1)


# --- Oathbreaker -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [5, 8])
def test_oathbreaker_what_a_noble_may_tap_does_not_tell_what_the_others_were_dealt(players):
    state, _ = new_game("oathbreaker", {"players": players, "observe": ["hands", "missions"],
                                        "owner_cards": False}, 5)
    state = play(state, random.Random(5), lambda s: sum(a["kind"] in TAPS for a in s["asks"]) > 1)
    a = next(x["seat"] for x in state["asks"] if x["kind"] in TAPS)
    worlds = two_worlds(state, a, lambda c: c, lambda c: [-ord(ch) for ch in c])
    assert_same_for(worlds, a)


# --- The LCG ---------------------------------------------------------------------------------------

def test_lcg_what_a_seat_may_tap_does_not_tell_what_the_other_drew():
    # A real, hand-shuffled deck: each seat taps the cards it draws. Seat 0 draws its setup hand
    # first, the first cards of its deck list in one world and the last ones in the other; then
    # seat 1 draws the same card in both. What seat 1 is offered and sees, and the public view,
    # must be the same in both worlds.
    state, _ = new_game("lcg", {"players": 2, "observe": ["draws"], "first": 0, "owner_cards": False}, 6)
    worlds = []
    for end in (0, -1):
        s, events = copy.deepcopy(state), []
        while s["asks"][0]["seat"] == 0:
            ask = s["asks"][0]
            assert ask["kind"] == "draw"
            result = apply(s, {"seat": 0, "ask": ask["id"], "choice": ask["choices"][end]})
            events += result.events
        mine = s["asks"][0]
        assert (mine["seat"], mine["kind"]) == (1, "draw")
        result = apply(s, {"seat": 1, "ask": mine["id"], "choice": mine["choices"][3]})
        worlds.append([s, events + result.events])
    (s1, e1), (s2, e2) = worlds
    assert s1["g"]["players"][0]["hand"] != s2["g"]["players"][0]["hand"]
    assert s1["asks"][0]["seat"] == 1, "seat 1 should still be drawing"
    assert view(s1, 1) == view(s2, 1), "seat 1's view or choices tell what seat 0 drew"
    assert view(s1, PUBLIC) == view(s2, PUBLIC)
    assert filter_events(e1, 1) == filter_events(e2, 1)
