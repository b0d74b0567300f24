"""Westeros Intrigue on a real table: the deal learned from taps, a tapped card that fits several
places waiting for its position, the LEDs, and whole games played by taps on the simulated board."""

import random

import pytest

from intrigue_harness import Table, everything
from maester.engine import PUBLIC, apply, cardtables, new_game
from maester.engine.session import Session
from maester.games.intrigue import table as itable
from maester.link.serial_link import Tap
from maester.table import profile as P
from maester.table.runner import TableRunner, sim_tags, sim_uid
from maester.table.simtable import SimTable
from maester.table.taps import meanings
from maester.table import lights


pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def choices(t, seat):
    return t.ask(seat)["choices"]


# --- the deal, tapped -----------------------------------------------------------------------------

def test_on_a_real_table_hands_are_learned_from_taps():
    t = Table(4, observe=["hands"])
    rng_before = t.state["rng"]
    asks = t.state["asks"]
    assert sorted(a["seat"] for a in asks) == [0, 1, 2, 3] and {a["kind"] for a in asks} == {"observe_hand"}
    # Every seat is offered the same list: all 36 cards, since none is face up yet.
    assert all(a["choices"] == asks[0]["choices"] for a in asks) and len(asks[0]["choices"]) == 36
    cards = sorted(cardtables.table(t.state)["characters"])
    dealt = {s: cards[s::4] for s in range(4)}
    t.choose(0, "card", dealt[0][0])
    # Seat 1's list still offers the card seat 0 tapped: the list says nothing about other hands.
    assert ["card", dealt[0][0]] in choices(t, 1)
    t.choose(1, "card", dealt[0][0])  # already in seat 0's hand: refused, and only seat 1 is told
    refused = t.emitted("tap_refused")[-1]
    assert refused["vis"] == [1] and t.g["hands"][1] == [] and t.g["hands"][0] == [dealt[0][0]]
    for seat in range(4):
        for inst in dealt[seat]:
            if inst not in t.g["hands"][seat]:
                t.choose(seat, "card", inst)
    assert [sorted(h) for h in t.g["hands"]] == [dealt[s] for s in range(4)]
    assert t.g["box"] == [] and t.state["rng"] == rng_before  # the host shuffled nothing
    ask = t.ask()
    assert ask["kind"] == "place" and ask["seat"] == 0
    assert {c[1] for c in ask["choices"]} == set(dealt[0])
    # Each seat is told its whole hand once it is complete, and nobody else is.
    hands = [e for e in t.events if e["e"] == "hand"]
    assert [(e["seat"], e["vis"], sorted(e["cards"])) for e in hands[-4:]] == [(s, [s], dealt[s]) for s in range(4)]


def test_with_five_players_the_starting_player_taps_the_spare_card_that_starts_the_court():
    t = Table(5, observe=["hands"], first=2)
    # First only the starting player is asked: the spare card, laid face up, then tapped.
    assert [(a["seat"], a["kind"]) for a in t.state["asks"]] == [(2, "observe_start_card")]
    cards = sorted(cardtables.table(t.state)["characters"])
    spare, rest = cards[0], cards[1:]
    t.choose(2, "card", spare)
    assert t.g["start_card"] == spare and t.court["cards"][0][7] == spare
    assert t.emitted("start_card")[-1] == {"e": "start_card", "card": spare, "house": t.g["house_of"][spare],
                                           "row": 0, "pos": 7}
    # Then every seat taps its hand; the spare card is face up, so no list offers it.
    asks = t.state["asks"]
    assert sorted(a["seat"] for a in asks) == list(range(5)) and {a["kind"] for a in asks} == {"observe_hand"}
    assert all(a["choices"] == [["card", c] for c in rest] for a in asks)
    for seat in range(5):
        for inst in rest[seat::5]:
            t.choose(seat, "card", inst)
    assert [len(h) for h in t.g["hands"]] == [7] * 5 and t.g["box"] == []
    assert sorted(everything(t.g)) == cards
    assert t.ask()["seat"] == 2 and t.ask()["kind"] == "place"


def test_with_two_players_the_undealt_cards_stay_unseen_in_the_box():
    t = Table(2, observe=["hands"])
    cards = sorted(cardtables.table(t.state)["characters"])
    for seat in (0, 1):
        for inst in cards[seat * 14:(seat + 1) * 14]:
            t.choose(seat, "card", inst)
    assert sorted(t.g["box"]) == cards[28:]
    assert t.view(PUBLIC)["box"] == 8 and "box_cards" not in t.view(PUBLIC) and "box_cards" not in t.view(0)
    assert t.ask()["kind"] == "place"


def test_observing_is_checked_in_the_config():
    with pytest.raises(ValueError, match="cannot observe 'allies'"):
        new_game("intrigue", {"players": 4, "observe": ["allies"]}, 1)
    assert new_game("intrigue", {"players": 4}, 1)[0]["config"]["observe"] == []


def random_observed_game(players, seed, **config):
    """Random taps for the deal (a card already recorded now and then) and random placements."""
    state, _ = new_game("intrigue", dict(config, players=players, observe=["hands"]), seed)
    rng = random.Random(seed)
    steps = 0
    while not state["over"]:
        asks = state["asks"]
        ask = asks[0]
        g = state["g"]
        if ask["kind"].startswith("observe"):
            assert all(a["choices"] == ask["choices"] for a in asks)  # one list for every seat
            fresh = [c for c in ask["choices"] if c[1] in g["box"]]
            choice = rng.choice(ask["choices"] if rng.random() < 0.1 else fresh)
        else:
            assert sorted(everything(g)) == sorted(cardtables.table(state)["characters"])
            assert sum(len(h) for h in g["hands"]) + g["placed"] == g["deal"] * players
            choice = rng.choice(ask["choices"])
        assert apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok
        steps += 1
        assert steps < 2000, "the game did not end"
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_playouts_with_the_deal_tapped(players):
    for seed in range(4):
        state = random_observed_game(players, seed, variants=["mat"] if seed % 2 else [])
        g = state["g"]
        assert g["round"] == players == len(g["history"]) and state["result"]["winners"]
        assert sum(len(t) for t in g["thrones"]) == players
        assert [h["left"] for h in g["history"]][-1] == [len(h) for h in g["hands"]]


# --- a tap that fits several places waits for its position ---------------------------------------------

def tap(runner, place, card):
    reader = [r["name"] for r in runner.profile["readers"]].index("seat%d" % place)
    runner.on_tap(Tap(reader, "placed", bytes.fromhex(sim_uid(card)), 1))


@pytest.fixture
def runner(tmp_path):
    session = Session.new("intrigue", {"players": 3}, 4, log_path=tmp_path / "g.sqlite")
    said = []
    r = TableRunner(session, P.for_game("intrigue", 3), sim_tags(session.state), report=said.append)
    yield r, session, said
    session.close()


def test_a_tapped_card_that_fits_several_places_waits_for_the_seat_to_pick_one(runner):
    r, session, said = runner
    state = session.state
    # The first card of a round has one place: the tap alone places it.
    first = state["asks"][0]
    card = first["choices"][0][1]
    tap(r, first["seat"], card)
    assert state["seq"] == 1 and state["g"]["court"]["cards"][0][7] == card and not said
    # The next card may go at either end of the base: nothing is placed yet, the seat is asked.
    ask = state["asks"][0]
    seat, card = ask["seat"], ask["choices"][0][1]
    tap(r, seat, card)
    assert state["seq"] == 1
    # the tap itself (table/resting.py) and the reader it was laid on (a tap that carries a choice) aside
    held = {k: v for k, v in r.pending[seat].items() if k not in ("tap", "place")}
    assert held == {"ask": ask["id"], "card": card, "choices": [["place", card, 0, 6], ["place", card, 0, 8]]}
    # The host display is public: it says a choice is waiting, never which card or where it fits.
    assert said[-1] == "seat %s: the tapped card fits in 2 places; choose one privately" % seat
    assert itable.card_words(state, card) not in said[-1]
    # A slip of the finger keeps the selection; a real pick places the card there.
    assert not r.choose_pending(seat, 5).ok and seat in r.pending
    assert r.choose_pending(seat, 1).ok
    assert state["g"]["court"]["cards"][0][8] == card and seat not in r.pending
    assert not r.choose_pending(seat, 0).ok  # nothing waits any more


def test_a_tap_of_another_card_replaces_the_waiting_one_and_a_closed_decision_makes_it_stale(runner):
    r, session, said = runner
    state = session.state
    ask = state["asks"][0]
    tap(r, ask["seat"], ask["choices"][0][1])
    ask = state["asks"][0]
    seat = ask["seat"]
    a, b = sorted({c[1] for c in ask["choices"]})[:2]
    tap(r, seat, a)
    tap(r, seat, b)
    assert r.pending[seat]["card"] == b and said[-1].startswith("seat %s: the tapped card fits" % seat)
    # The decision is answered another way (a seat page talking to the session): the pick is stale.
    assert session.submit({"seat": seat, "ask": ask["id"], "choice": r.pending[seat]["choices"][0]}).ok
    seq = state["seq"]
    result = r.choose_pending(seat, 1)
    assert not result.ok and "stale" in result.reason and state["seq"] == seq and seat not in r.pending
    # A card that fits nowhere is refused as before, and leaves nothing waiting.
    other = next(c for c in everything(state["g"]) if c not in state["g"]["hands"][state["asks"][0]["seat"]])
    tap(r, state["asks"][0]["seat"], other)
    assert "cannot be used" in said[-1] and not r.pending


def test_btwixt_taps_with_several_meanings_are_still_refused():
    state, _ = new_game("btwixt", {"players": 4, "variants": ["advanced"]}, 1)
    rng = random.Random(1)
    while True:  # play on until a tap has several meanings (a dead ally claimed by hand)
        ask = state["asks"][0]
        cards = sorted({x for c in ask["choices"] for x in c if isinstance(x, str) and "#" in x})
        several = next((c for c in cards if len(meanings(state, ask, c)) > 1), None)
        if several:
            break
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
    said = []
    session = Session(state)
    r = TableRunner(session, P.for_game("btwixt", 4), sim_tags(state), report=said.append)
    seq = state["seq"]
    tap(r, ask["seat"], several)
    assert state["seq"] == seq and not r.pending
    assert said and "refused" in said[-1] and "seat page" in said[-1]


# --- LEDs -----------------------------------------------------------------------------------------

def test_leds_show_whose_turn_it_is_and_who_is_out():
    t = Table(3, first=0)
    t.rig(["BTBTBTBT"], hands={0: "BB", 1: "SS", 2: "T"})
    t.place(0, "B", 1, 0)  # seat 1 holds only Starks, which fit nowhere: out
    segs = itable.segments(t.view(PUBLIC))
    assert segs["seat1"][1] == itable.OUT and segs["seat2"][2] == "pulse" and segs["seat0"][1] == lights.IDLE
    assert segs["round"][0] == 1
    # While the deal is tapped, every seat that still taps pulses.
    t = Table(3, observe=["hands"])
    segs = itable.segments(t.view(PUBLIC))
    assert [segs["seat%d" % s][2] for s in range(3)] == ["pulse"] * 3


# --- whole games by taps, through the firmware on a simulated board -----------------------------

@pytest.mark.parametrize("players,observe", [(5, ["hands"]), (3, [])])
def test_a_game_played_by_taps_on_the_simulated_table_ends_as_the_same_commands(tmp_path, players, observe):
    config = {"players": players, "observe": observe}
    session = Session.new("intrigue", config, 8, log_path=tmp_path / "t.sqlite")
    direct, _ = new_game("intrigue", config, 8)
    said = []
    sim = SimTable(session, report=said.append)
    rng = random.Random(8)
    picked = moves = 0
    try:
        while not session.state["over"]:
            ask = session.state["asks"][0]
            box = session.state["g"]["box"]
            fresh = [c for c in ask["choices"] if c[0] == "card" and c[1] in box]
            choice = rng.choice(fresh or ask["choices"])
            command = {"seat": ask["seat"], "ask": ask["id"], "choice": choice}
            picked += sim.tap_for(command) is None
            assert sim.submit(command).ok
            assert apply(direct, command).ok
            moves += 1
        # The board was told to blink the winners green (the last tap's refresh runs on the link's
        # thread after the move is applied: have it done before looking).
        sim.runner.refresh_leds()
        for seat in session.state["result"]["winners"]:
            assert sim.link.segments[sim.runner.seg_ids["seat%d" % seat]][1] == lights.WINNER
    finally:
        sim.close()
        session.close()
    assert session.state == direct
    assert sim.taps == moves and picked > 10 and not said  # every move a tap; nothing refused


# --- the Iron Throne card drawn on a real table is tapped by its winner alone -----------------------

def throne_game(seed, slip):
    """A random 3-player game with tapped Iron Throne draws; returns (state, draws, refusals)."""
    state, _ = new_game("intrigue", {"players": 3, "observe": ["thrones"]}, seed)
    rng = random.Random(seed)
    thrones = sorted(cardtables.table(state)["throne"])
    refused = drawn = 0
    while not state["over"]:
        ask = state["asks"][0]
        if ask["kind"] != "observe_throne":
            apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
            continue
        seat = ask["seat"]
        mine = state["g"]["thrones"][seat]
        # Every throne card but the winner's own: the list never tells who holds what.
        assert [c[1] for c in ask["choices"]] == [t for t in thrones if t not in mine]
        others = [t for s, h in enumerate(state["g"]["thrones"]) if s != seat for t in h]
        if slip and others and not refused:
            card = others[0]  # a slip: someone else's card is refused, and only this seat is told
        else:
            card = rng.choice(state["g"]["throne_deck"])
        result = apply(state, {"seat": seat, "ask": ask["id"], "choice": ["card", card]})
        assert result.ok
        refusals = [e for e in result.events if e["e"] == "tap_refused"]
        if refusals:
            refused += 1
            assert all(e["vis"] == [seat] for e in refusals) and card not in mine
        else:
            drawn += 1
            assert card in state["g"]["thrones"][seat] and card not in state["g"]["throne_deck"]
    return state, drawn, refused


def test_the_round_winner_taps_the_iron_throne_card_drawn_and_the_list_shows_nothing_of_others():
    refusals = 0
    for seed in range(12):
        state, drawn, refused = throne_game(seed, slip=True)
        assert drawn == 3 and len(state["g"]["throne_deck"]) == 4
        refusals += refused
    assert refusals > 0  # the slip happened in some game, and was refused
