"""Hidden information never leaks: hands, token values and deck orders stay with whoever may see them.

The main check is differential: take a real mid-game state, change only what seat B may not see
(a card of B's hand swapped with one from the deck, every power token's value, the order of the
decks and the supply), and require every other viewer's view, asks and prompts included, to be
unchanged.
"""

import copy
import random

import pytest

import table_words
from maester.engine import PUBLIC, REFEREE, apply, filter_events, new_game, view

VARIANTS = [[], ["advanced"], ["draft"], ["revealed", "kingsmoot"]]


def states_along_a_game(players, variants, seed, every=7):
    state, events = new_game("btwixt", {"players": players, "variants": variants}, seed)
    rng = random.Random(seed)
    i = 0
    while not state["over"]:
        if i % every == 0:
            yield state, events
        ask = state["asks"][0]
        result = apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
        events += result.events
        i += 1
    yield state, events


def hide_differently(state, seat, rng):
    """A copy differing only in what nobody but `seat` (or nobody at all) may see."""
    other = copy.deepcopy(state)
    g = other["g"]
    holder = g["draft_state"]["packs"] if g["draft_state"] else g["hands"]
    if holder[seat] and g["deck"]:
        i, j = rng.randrange(len(holder[seat])), rng.randrange(len(g["deck"]))
        holder[seat][i], g["deck"][j] = g["deck"][j], holder[seat][i]
    if not other["over"]:
        values = list(g["token_value"].values())
        rng.shuffle(values)
        g["token_value"] = dict(zip(g["token_value"], values))
    rng.shuffle(g["deck"])
    rng.shuffle(g["ally_deck"])
    rng.shuffle(g["supply"])
    return other


def may_see_hand(state, viewer, seat):
    g = state["g"]
    if any(t == seat and card in g["bids"][viewer] for card, t in g["peeks"]):
        return True
    return any(a["seat"] == viewer and a.get("data", {}).get("target") == seat for a in state["asks"])


@pytest.mark.parametrize("variants", VARIANTS)
@pytest.mark.parametrize("players", [3, 5])
def test_views_do_not_change_with_what_the_viewer_may_not_see(players, variants):
    rng = random.Random(players)
    checked = 0
    for state, _ in states_along_a_game(players, variants, seed=players * 31):
        for seat in range(players):
            other = hide_differently(state, seat, rng)
            if state["over"]:
                continue
            assert view(other, PUBLIC) == view(state, PUBLIC)
            for viewer in range(players):
                if viewer == seat or may_see_hand(state, viewer, seat):
                    continue
                assert view(other, viewer) == view(state, viewer), \
                    "seat %d's view changed with seat %d's hidden cards" % (viewer, seat)
                checked += 1
    assert checked > 50


def test_the_referee_sees_what_the_others_do_not():
    state, _ = new_game("btwixt", {"players": 4}, 3)
    other = hide_differently(state, 1, random.Random(1))
    assert view(other, REFEREE) != view(state, REFEREE)  # the differential test can fail


def test_no_token_value_reaches_anyone_before_the_end():
    for state, events in states_along_a_game(4, ["advanced"], seed=8, every=50):
        if state["over"]:
            break
        for viewer in (PUBLIC, 0, 1, 2, 3):
            v = view(state, viewer)
            assert "token_values" not in v
            for e in filter_events(events, viewer):
                assert e["e"] != "tokens_revealed" and "value" not in e and "values" not in e
    assert state["over"]
    assert set(view(state, PUBLIC)["token_values"]) == set(state["g"]["token_value"])


def test_hands_reach_only_their_seat_in_the_event_log():
    *_, (state, events) = states_along_a_game(4, ["advanced", "draft"], seed=4, every=10_000)
    assert state["over"]
    for viewer in (PUBLIC, 0, 1, 2, 3):
        for e in filter_events(events, viewer):
            if e["e"] in ("hand", "leader_card"):
                assert e["seat"] == viewer
            if e["e"] == "saw_allies":
                assert e["seat"] == viewer
            if e["e"] == "took_card" and "card" in e:
                assert viewer in (e["seat"], e["target"])


def test_a_seat_asked_about_robb_stark_is_asked_whether_or_not_it_holds_betrayal():
    # Skipping seats without a Betrayal would tell everyone who holds one.
    from btwixt_harness import Table
    t = Table(4)
    t.hand(0); t.hand(1); t.hand(2); t.hand(3)
    t.current("robb-stark#1")
    t.kneel_all()
    t.choose(0, "council", 0)
    asked = []
    while t.state["asks"]:
        ask = t.ask()
        asked.append(ask["seat"])
        t.choose(ask["seat"], *ask["choices"][-1])
        if ask["kind"] != "robb_kill":
            break
    assert asked[:3] == [1, 2, 3]


def test_leader_cards_thrown_in_with_a_hand_stay_secret():
    # At a season's end a leader card still in hand leaves the game; nobody else learns which.
    from btwixt_harness import Table
    t = Table(4, variants=["advanced"], leaders=["euron", "cersei", "olenna", "jon"])
    t.hand(0, "the-silence#1")
    while t.view("public")["season"] == "summer":
        ask = t.ask()
        t.choose(ask["seat"], *(["kneel"] if ["kneel"] in ask["choices"] else ask["choices"][0]))
    from maester.engine import filter_events
    for viewer in ("public", 1, 2, 3):
        assert "the-silence#1" not in str(filter_events(t.events, viewer))
        assert "the-silence#1" not in str(t.view(viewer))
    assert "the-silence#1" in str(filter_events(t.events, 0))


@pytest.mark.parametrize("players,variants", [(3, []), (5, ["advanced"])])
def test_a_tap_on_any_reader_names_a_card_only_to_whom_it_is_not_hidden(players, variants):
    """Any card on any reader (another seat's hand card on mine, say): the host display and each
    seat's page name it only where its own view does (issue 25)."""
    tried = 0
    for state, events in states_along_a_game(players, variants, seed=players, every=40):
        tried += table_words.assert_taps_tell_no_secret(state, events)
    assert tried > 500
