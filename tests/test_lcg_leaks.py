"""The LCG's secrets stay secret: hands, deck order, a plot chosen but not yet revealed and the
face-down setup cards never reach another seat's view, the public view, the events another seat may
read, nor the web payloads, whether the host shuffles the decks or the table draws from real ones
(observe: draws).

1. Differential views: along random games, copies of a state that differ only in what a viewer may
   not see (a seat's hand against its deck, its chosen plot, its face-down setup cards; the order of
   every deck) give that viewer the same view, the same web payload and, once the waiting decision is
   asked again, the same questions.
2. Events: no event another seat (or the table) may read names a card lying hidden in a seat's hand,
   deck, plot deck or face-down setup, unless it tells the card leaving play for there.
3. Bad input: a closed or unknown decision, another seat's decision, a choice that is not listed and
   a value of the wrong JSON type are refused with a reason and change nothing.
"""

import copy
import random

import pytest

from maester.engine import PUBLIC, REFEREE, apply, core, filter_events, new_game, view
from maester.web.payload import seat_payload, table_payload
import table_words
from playout import rejected_without_change

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

DECKS = ["stark", "lannister", "baratheon", "targaryen"]
HIDDEN = ("hand", "deck", "plots", "setup")  # zones whose cards only their owner (or nobody) may see


def config(players, observe=(), variants=()):
    return {"players": players, "decks": [DECKS[s % 4] for s in range(players)], "observe": list(observe),
            "variants": list(variants), "owner_cards": False}


def states_along_a_game(cfg, seed, every=1, limit=None):
    """(state, events so far) at every `every`-th decision of a random game."""
    state, events = new_game("lcg", cfg, seed)
    rng = random.Random(seed)
    i = 0
    while not state["over"] and (limit is None or i < limit):
        if i % every == 0:
            yield state, events
        ask = state["asks"][0]
        choices = [c for c in ask["choices"] if c[0] != "give"] or ask["choices"]
        result = apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(choices)})
        assert result.ok
        events = events + result.events
        i += 1


# --- 1. differential views ----------------------------------------------------------------------

def fork(state):
    """A deep copy of the state that shares its config (the frozen card table, never written)."""
    out = copy.deepcopy({k: v for k, v in state.items() if k != "config"})
    out["config"] = state["config"]
    return out


def _swap(g, a, b):
    """Swap two cards between their (hidden) places: lists and records."""
    ca, cb = g["cards"][a], g["cards"][b]
    la = g["players"][ca["owner"]][ca["zone"]]
    lb = g["players"][cb["owner"]][cb["zone"]]
    ia, ib = la.index(a), lb.index(b)
    la[ia], lb[ib] = b, a
    ca["zone"], cb["zone"] = cb["zone"], ca["zone"]


def hide_differently(state, secret_of, rng):
    """A copy that differs only in what nobody but `secret_of` may see: which cards are in its hand
    and which in its deck, which plot it chose (not yet revealed), which cards it placed face down."""
    other = fork(state)
    g = other["g"]
    p = g["players"][secret_of]
    for inst in list(p["hand"]):
        if p["deck"] and rng.random() < 0.7:
            _swap(g, inst, rng.choice(p["deck"]))
    for inst in list(p["setup"]):
        swappable = [h for h in p["hand"] if g["cards"][h]["zone"] == "hand"]
        if swappable:
            _swap(g, inst, rng.choice(swappable))
    if p["chosen"] is not None and len(p["plots"]) > 1:
        p["chosen"] = rng.choice([x for x in p["plots"] if x != p["chosen"]])
    if g["observe_draws"]:
        p["deck"].sort()  # a real deck: the host keeps the set, in a fixed order
    return other


def shuffle_decks(state, rng):
    """A copy whose every deck is in another order (hidden from everyone, owners included)."""
    other = fork(state)
    for p in other["g"]["players"]:
        rng.shuffle(p["deck"])
    return other


# Steps that may be asked again at once (re-run with no answer) to see what the copy would ask.
REASKABLE = {"window", "responses", "marshal_turn", "setup_place", "challenge_turn", "remove", "cancel_window",
             "observe_draw", "attackers", "defenders", "stealth", "claim_kill", "influence"}


def reasked(state):
    """The state with its waiting decision asked again, or None when that step may not be re-run."""
    if not state["stack"] or state["stack"][-1]["s"] not in REASKABLE or len(state["asks"]) != 1:
        return None
    out = fork(state)
    out["asks"].clear()
    core._run(core.GAMES["lcg"], core.Ctx(out, []))
    return out


def assert_same_for(a, b, viewers, events, payloads):
    for viewer in viewers:
        assert view(a, viewer) == view(b, viewer), "%s's view tells a secret" % viewer
        if payloads:
            if viewer == PUBLIC:
                assert table_payload(a, events) == table_payload(b, events)
            else:
                assert seat_payload(a, events, viewer) == seat_payload(b, events, viewer), \
                    "seat %s's page tells a secret" % viewer


@pytest.mark.parametrize("players,observe,variants", [(2, (), ()), (3, (), ()), (4, (), ("two_on_two",)),
                                                      (2, ("draws",), ()), (4, ("draws",), ("littlefinger",))])
def test_views_and_pages_do_not_change_with_what_the_viewer_may_not_see(players, observe, variants):
    rng = random.Random(players)
    checked = changed = reasks = 0
    for i, (state, events) in enumerate(states_along_a_game(config(players, observe, variants), players * 7,
                                                            every=3, limit=600)):
        payloads = i % 8 == 0
        for secret_of in range(players):
            other = hide_differently(state, secret_of, rng)
            changed += other["g"] != state["g"]
            viewers = [PUBLIC] + [s for s in range(players) if s != secret_of]
            assert_same_for(state, other, viewers, events, payloads)
            checked += len(viewers)
            again, again_other = reasked(state), reasked(other)
            if again is not None:
                assert_same_for(again, again_other, viewers, events, False)
                reasks += 1
        if not observe:
            other = shuffle_decks(state, rng)
            assert_same_for(state, other, [PUBLIC] + list(range(players)), events, payloads)
            again, again_other = reasked(state), reasked(other)
            if again is not None:
                assert_same_for(again, again_other, [PUBLIC] + list(range(players)), events, False)
    assert checked > 300 and changed > 100 and reasks > 30


def test_a_chosen_plot_and_face_down_setup_cards_are_differences_the_test_makes():
    """The differential test must reach the secrets it is about: setup cards lying face down, plots
    chosen by some seats while others still choose, and an owner who does see its own."""
    seen_setup = seen_plot = 0
    rng = random.Random(1)
    for state, events in states_along_a_game(config(3), 5, limit=400):
        g = state["g"]
        for seat in range(3):
            p = g["players"][seat]
            if p["setup"] or (p["chosen"] and any(a["kind"] == "plot" for a in state["asks"])):
                other = hide_differently(state, seat, rng)
                if other["g"] != g:
                    assert view(other, seat) != view(state, seat) and view(other, REFEREE) != view(state, REFEREE)
                    seen_setup += bool(p["setup"])
                    seen_plot += bool(p["chosen"])
    assert seen_setup and seen_plot


def test_the_owner_does_not_know_its_deck_order_either():
    state, _ = new_game("lcg", config(2), 3)
    other = shuffle_decks(state, random.Random(2))
    assert other["g"]["players"][0]["deck"] != state["g"]["players"][0]["deck"]
    assert view(other, 0) == view(state, 0) and view(other, REFEREE) != view(state, REFEREE)


# --- 2. events ----------------------------------------------------------------------------------

# Cards an ability shows on purpose: revealed to everyone (a search's find, a hand shown by Call
# Their Bluff) or peeked at by the one seat that may look (Raff the Sweetling: an event for that seat only).
SHOWN = ("revealed", "hand_revealed", "peeked")


def card_ids(value, out):
    if isinstance(value, str) and "#" in value:
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            card_ids(v, out)
    elif isinstance(value, list):
        for v in value:
            card_ids(v, out)
    return out


@pytest.mark.parametrize("players,observe", [(2, ()), (4, ()), (3, ("draws",)), (5, ())])
def test_no_event_another_seat_may_read_names_a_hidden_card(players, observe):
    for seed in range(2):
        state, _ = new_game("lcg", config(players, observe), seed)
        rng = random.Random(seed)
        named = 0
        while not state["over"]:
            ask = state["asks"][0]
            choices = [c for c in ask["choices"] if c[0] != "give"] or ask["choices"]
            was = {i: c["zone"] for i, c in state["g"]["cards"].items()}  # a card named while public is no leak
            result = apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(choices)})
            g = state["g"]
            for viewer in [PUBLIC] + list(range(players)):
                for e in filter_events(result.events, viewer):
                    for inst in card_ids(e, set()):
                        c = g["cards"][inst]
                        if c["zone"] in HIDDEN and was[inst] in HIDDEN and c["owner"] != viewer:
                            assert e["e"] in ("left_play",) + SHOWN, "%s reads %s while %s lies in a %s" % (
                                viewer, e, inst, c["zone"])
                        named += 1
        assert named > 100


def test_what_a_seat_draws_and_places_face_down_and_its_plot_are_told_to_it_alone():
    state, events = new_game("lcg", config(3, ("draws",)), 4)
    rng = random.Random(4)
    while state["g"]["round"] < 2 and not state["over"]:
        ask = state["asks"][0]
        events += apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).events
    private = [e for e in events if "vis" in e]
    assert {e["e"] for e in private} >= {"drew_cards", "placed_setup"}
    assert all(e["vis"] == [e["seat"]] for e in private)
    public = filter_events(events, PUBLIC)
    assert [e for e in public if e["e"] == "plot_chosen"] and all(set(e) == {"e", "seat"} for e in public
                                                                  if e["e"] in ("plot_chosen", "placed_face_down"))
    assert all("cards" not in e for e in public if e["e"] == "drew")


# --- 3. bad input ------------------------------------------------------------------------------

@pytest.fixture
def midgame():
    """A 3-player game at seat 0's marshalling, a hand in front of it."""
    state, _ = new_game("lcg", config(3), 6)
    rng = random.Random(6)
    while not (state["asks"] and state["asks"][0]["kind"] == "marshal" and len(state["asks"][0]["choices"]) > 2):
        ask = state["asks"][0]
        assert apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    return state


def test_bad_commands_are_refused_with_a_reason_and_change_nothing(midgame):
    g = midgame["g"]
    ask = midgame["asks"][0]
    seat = ask["seat"]
    other = (seat + 1) % 3
    mine = ask["choices"][0]
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["marshal", g["players"][other]["hand"][0]]})
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["marshal", "S5#9"]})
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["pass"]})            # a window's word, not here
    assert "not yours" in rejected_without_change(midgame, {"seat": other, "ask": ask["id"], "choice": mine})
    assert "closed" in rejected_without_change(midgame, {"seat": seat, "ask": ask["id"] - 1, "choice": mine})
    assert "nothing is asked" in rejected_without_change(midgame, {"seat": other, "ask": ask["id"] + 9, "choice": mine})
    # Values of the wrong JSON type, at any depth.
    assert rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": "done"})
    assert rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": [mine[0], [mine[1]]]})
    assert rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": {"0": mine[0]}})
    assert "whole number" in rejected_without_change(midgame, {"seat": seat, "ask": str(ask["id"]), "choice": mine})
    assert "whole number" in rejected_without_change(midgame, {"seat": seat, "ask": float(ask["id"]), "choice": mine})
    assert rejected_without_change(midgame, {"seat": str(seat), "ask": ask["id"], "choice": mine})
    assert rejected_without_change(midgame, {"seat": True if seat == 1 else seat + 0.0, "ask": ask["id"], "choice": mine})
    assert rejected_without_change(midgame, {})
    assert rejected_without_change(midgame, ["seat", seat])
    # And the right command is still taken afterwards.
    assert apply(midgame, {"seat": seat, "ask": ask["id"], "choice": mine}).ok


def test_a_challenge_or_a_plot_of_the_wrong_type_is_refused():
    state, _ = new_game("lcg", config(2), 2)
    while state["asks"][0]["kind"] != "plot":
        ask = state["asks"][0]
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": ["done"]})
    ask = state["asks"][0]
    plot = ask["choices"][0][1]
    other_plot = state["g"]["players"][1]["plots"][0]
    assert "not a legal choice" in rejected_without_change(
        state, {"seat": 0, "ask": ask["id"], "choice": ["plot", other_plot]})   # another seat's plot
    assert "not yours" in rejected_without_change(state, {"seat": 1, "ask": ask["id"], "choice": ["plot", plot]})
    assert rejected_without_change(state, {"seat": 0, "ask": ask["id"], "choice": ["plot", plot, 1]})
    assert rejected_without_change(state, {"seat": 0, "ask": ask["id"], "choice": ["PLOT", plot]})


def test_a_double_read_is_absorbed(midgame):
    ask = midgame["asks"][0]
    command = {"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]}
    assert apply(midgame, command).ok
    reason = rejected_without_change(midgame, command)
    assert "closed" in reason or "not yours" in reason


def test_a_refusal_never_names_another_seats_card(midgame):
    """Asking for another seat's hand card is refused in the very words of a card that does not
    exist: the reason tells nothing about where that card is."""
    ask = midgame["asks"][0]
    seat = ask["seat"]
    g = midgame["g"]
    fake = rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": ["marshal", "X1#7"]})
    for other in range(3):
        if other == seat:
            continue
        for card in g["players"][other]["hand"] + g["players"][other]["deck"][:5]:
            reason = rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": ["marshal", card]})
            assert reason.replace(card, "X") == fake.replace("X1#7", "X")


# --- 4. what the table says of a tap ----------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3])
def test_a_tap_on_any_reader_names_a_card_only_to_whom_it_is_not_hidden(players):
    """Any card on any reader (another seat's hand card on mine, say): the host display and each
    seat's page name it only where its own view does (issue 25: seat 0's page named seat 1's card)."""
    tried = 0
    for state, events in states_along_a_game(config(players), seed=11 + players, every=60 * (players - 1)):
        tried += table_words.assert_taps_tell_no_secret(state, events)
    assert tried > 500
