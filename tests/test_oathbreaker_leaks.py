"""Oathbreaker's secrets stay secret.

1. Face-down plays: two games identical except which seat played which face-down card give the
   same public view, the same views for every other seat, the same events for them (ask ids
   included), and once the round is over the very same state.
2. Differential views: change only what a seat may not see (another noble's hand, loyalty and
   ambition, the monarch's decree hand, the order of every deck and of every mission pile) and
   require the other viewers' views, asks and prompts included, to be unchanged.
3. Loyalties, ambitions, the Agent and the King's hand never reach anyone else's view or events
   before the end.
"""

import copy
import random

import pytest

import table_words
from oathbreaker_harness import Table
from maester.engine import PUBLIC, REFEREE, apply, filter_events, new_game, view


pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


# --- 1. which seat played which face-down card ------------------------------------------------------

def twin_games(missions, x, y, seed=3, characters="default", players=6):
    """Two tables at their first turn: seat 1 holds x and seat 2 holds y, or the other way round."""
    tables = []
    for a, b in ((x, y), (y, x)):
        t = Table(players, seed=seed, characters=characters)
        t.mission_deck_top(*missions)
        t.hand(1, a, "raven#9")
        t.hand(2, b, "raven#10")
        t.start(1)
        tables.append(t)
    return tables


def play_two(t, seat, secret, other):
    """The secret card to mission 0, the other to the last mission (Infiltrate Dorne if it is out)."""
    t.choose(seat, "play", secret, 0)
    t.choose(seat, "play", other, len(t.g["missions"]) - 1)
    if t.state["asks"] and t.ask()["kind"] == "sigil":
        t.choose(seat, "sigil", 0)


def observers(t):
    return [PUBLIC] + [s for s in range(t.g["n"]) if s not in (1, 2)]


def assert_same_for_observers(ta, tb):
    for viewer in observers(ta):
        assert view(ta.state, viewer) == view(tb.state, viewer), "%s's view tells who played what" % viewer
        assert filter_events(ta.events, viewer) == filter_events(tb.events, viewer), \
            "%s's events tell who played what" % viewer


def play_twins(ta, tb, swap, rng, until):
    """Answer both games alike (seats 1 and 2 with their swapped card) and compare after each step."""
    while not ta.state["over"] and not until(ta):
        ask = ta.ask()
        choice = rng.choice(ask["choices"])
        twin = [swap.get(x, x) if ask["seat"] in (1, 2) and isinstance(x, str) else x for x in choice]
        ta.choose(ask["seat"], *choice)
        tb.choose(ask["seat"], *twin)
        assert_same_for_observers(ta, tb)


@pytest.mark.parametrize("missions", [
    ("feed-flea-bottom#1", "hire-the-faceless-men#1"),
    ("battle-of-the-bay#1", "feed-flea-bottom#1"),         # chance draws from the pile
    ("consult-the-maesters#1", "infiltrate-dorne#1"),        # deck cards mixed into a pile
])
def test_which_seat_played_which_card_is_told_to_nobody(missions):
    x, y = "sabotage#1", "double-crown#1"
    ta, tb = twin_games(missions, x, y)
    assert_same_for_observers(ta, tb)
    # Seat 1 plays its secret card to mission 0 first, then seat 2 does the same.
    for t, (a, b) in ((ta, (x, y)), (tb, (y, x))):
        play_two(t, 1, a, "raven#9")
        play_two(t, 2, b, "raven#10")
    assert_same_for_observers(ta, tb)
    rng = random.Random(7)
    play_twins(ta, tb, {x: y, y: x}, rng, until=lambda t: t.g["space"] >= 1)
    # The round is over: nothing at all is left that depends on who played what.
    assert ta.state == tb.state
    assert {x, y} <= set(ta.g["history"][0]["revealed"]) | set(ta.g["discard"])
    play_twins(ta, tb, {}, rng, until=lambda t: False)
    assert ta.state == tb.state and ta.state["over"]


def test_melisandre_sees_a_mission_as_a_set_not_who_played_it():
    chars = [None, "ned-stark", "daenerys-targaryen", "melisandre", "olenna-tyrell", "yara-greyjoy"]
    x, y = "sabotage#1", "double-crown#1"
    ta, tb = twin_games(("feed-flea-bottom#1", "hire-the-faceless-men#1"), x, y, characters=chars)
    for t, (a, b) in ((ta, (x, y)), (tb, (y, x))):
        t.g["cubes"][3] = [2, 0, 0]
        play_two(t, 1, a, "raven#9")
        play_two(t, 2, b, "raven#10")
        t.auto(lambda t: t.ask()["kind"] == "ability")
        t.choose(3, "ability", 2, 0, 0)
        t.choose(3, "look", 0)
    # Melisandre (seat 3) sees the same sorted set in both games.
    assert view(ta.state, 3) == view(tb.state, 3)
    assert_same_for_observers(ta, tb)


# --- 2. differential views ----------------------------------------------------------------------

def states_along_a_game(players, seed, every=3, variants=()):
    state, events = new_game("oathbreaker", {"players": players, "variants": list(variants), "owner_cards": False}, seed)
    rng = random.Random(seed)
    i = 0
    while not state["over"]:
        if i % every == 0:
            yield state, events
        ask = state["asks"][0]
        result = apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
        events += result.events
        i += 1


def hide_differently(state, secret_of, rng):
    """A copy that differs only in what nobody but `secret_of` may see (a noble's hand, loyalty and
    ambition; a monarch's decree hand), and in what nobody may see (deck orders, pile orders)."""
    other = copy.deepcopy(state)
    g = other["g"]
    if secret_of in g["nobles"]:
        hand = g["hands"][secret_of]
        for i in range(len(hand)):
            if g["deck"]:
                j = rng.randrange(len(g["deck"]))
                hand[i], g["deck"][j] = g["deck"][j], hand[i]
        g["mine"][secret_of] = [[c, m] for c, m in g["mine"][secret_of]]   # own plays stay (in the piles)
        if g["agent"] is not None and g["agent"] != g["loyalty"][secret_of]:
            g["agent"], g["loyalty"][secret_of] = g["loyalty"][secret_of], g["agent"]
        if g["ambitions_unused"]:
            g["ambitions_unused"][0], g["ambition"][secret_of] = g["ambition"][secret_of], g["ambitions_unused"][0]
    else:
        hand = g["decree_hands"][secret_of]
        for i in range(len(hand)):
            j = rng.randrange(len(g["decree_deck"]))
            hand[i], g["decree_deck"][j] = g["decree_deck"][j], hand[i]
    rng.shuffle(g["deck"])
    rng.shuffle(g["decree_deck"])
    rng.shuffle(g["mission_deck"])
    rng.shuffle(g["discard"])
    for m in g["missions"]:
        rng.shuffle(m["cards"])
    return other


def may_see(state, viewer, secret_of):
    g = state["g"]
    if viewer == secret_of:
        return True
    if secret_of in g["monarchs"] and viewer in g["monarchs"]:
        return True   # the King and Queen see each other's hands
    return False


@pytest.mark.parametrize("players,variants", [(5, []), (6, ["night_is_dark"]), (7, []), (8, [])])
def test_views_do_not_change_with_what_the_viewer_may_not_see(players, variants):
    rng = random.Random(players)
    checked = changed = 0
    for state, _ in states_along_a_game(players, seed=players * 31, variants=variants):
        for secret_of in range(players):
            other = hide_differently(state, secret_of, rng)
            changed += other["g"] != state["g"]
            for viewer in [PUBLIC] + list(range(players)):
                if may_see(state, viewer, secret_of):
                    continue
                assert view(other, viewer) == view(state, viewer), \
                    "%s's view changed with seat %d's secrets" % (viewer, secret_of)
                checked += 1
    assert checked > 500 and changed > 100


def test_the_differential_test_can_fail():
    state, _ = new_game("oathbreaker", {"players": 6, "owner_cards": False}, 3)
    other = hide_differently(state, 2, random.Random(1))
    assert view(other, 2) != view(state, 2) and view(other, REFEREE) != view(state, REFEREE)
    assert view(other, 1) == view(state, 1)
    other = hide_differently(state, 0, random.Random(1))
    assert view(other, 0) != view(state, 0) and view(other, 1) == view(state, 1)


# --- 3. identities and the King's hand ---------------------------------------------------------------

@pytest.mark.parametrize("players", [6, 8])
def test_identities_and_the_monarchs_hands_reach_only_their_owners(players):
    state, events = new_game("oathbreaker", {"players": players, "owner_cards": False}, 9)
    rng = random.Random(9)
    while not (state["asks"] and state["asks"][0]["kind"] == "guess"):   # up to the Final Judgment
        ask = state["asks"][0]
        events += apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).events
    g = state["g"]
    assert g["rounds_played"] == 7
    for viewer in [PUBLIC] + list(range(players)):
        v = view(state, viewer)
        assert "loyalty" not in v and "ambition" not in v and "agent" not in v
        if viewer in g["nobles"]:
            assert (v["loyalty_mine"], v["ambition_mine"]) == (g["loyalty"][viewer], g["ambition"][viewer])
        else:
            assert "loyalty_mine" not in v and "ambition_mine" not in v and "hand" not in v
        seen = filter_events(events, viewer)
        for e in seen:
            if e["e"] in ("loyalty", "ambition", "drew", "played_card", "discarded", "saw_mission",
                          "took_from_mission"):
                assert e["seat"] == viewer, e
            if e["e"] in ("drew_decrees", "traded"):
                assert viewer in g["monarchs"], e
            if e["e"] in ("saw_hand", "saw_discard"):
                assert e["seat"] == viewer, e
            if e["e"] == "played":
                assert "card" not in e or e.get("face_up")
        hidden = [] if viewer in g["monarchs"] else [c for m in g["monarchs"] for c in g["decree_hands"][m]]
        assert hidden or viewer in g["monarchs"]
        assert not set(hidden) & set(str(v).replace("'", " ").split()), "a monarch's hand in %s's view" % viewer


def test_loyalties_and_the_agent_are_revealed_at_the_end():
    state, events = new_game("oathbreaker", {"players": 5, "owner_cards": False}, 2)
    rng = random.Random(2)
    while not state["over"]:
        ask = state["asks"][0]
        events += apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).events
    v = view(state, PUBLIC)
    assert v["loyalty"] == state["g"]["loyalty"] and v["agent"] == state["g"]["agent"]
    assert [e for e in filter_events(events, PUBLIC) if e["e"] == "agent"]


@pytest.mark.parametrize("players", [5, 8])
def test_a_tap_on_any_reader_names_a_card_only_to_whom_it_is_not_hidden(players):
    """Any card (a hand card, a decree, a mission still in its deck) on any reader, a mission's
    included: the host display and each seat's page name it only where its own view does (issue 25:
    a mission still in the deck was named on the host display)."""
    tried = 0
    for state, events in states_along_a_game(players, seed=players, every=20 * players - 60):
        tried += table_words.assert_taps_tell_no_secret(state, events)
    assert tried > 500
