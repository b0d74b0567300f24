"""Bots' views: the lazy view a bot is given in-process is the full view, key by key; bots pick the
same with either; a bot leaves the state as it found it; and the Intrigue bot's way of weighing a
placement (what it changes, not a rebuilt court) agrees with the court the placement makes."""

import json
import random

import pytest

from maester.engine.bots import card_info, decide, make_bot
from maester.engine import PUBLIC, REFEREE, core
from maester.engine.lazyview import LazyView
from maester.games.intrigue import bot as intrigue_bot, court as C

GAMES = [("btwixt", {"players": 4}, 2), ("btwixt", {"players": 3, "variants": ["draft"]}, 1),
         ("intrigue", {"players": 4}, 2), ("intrigue", {"players": 5, "variants": ["mat"]}, 1),
         ("oathbreaker", {"players": 6}, 2), ("lcg", {"players": 2}, 1)]


def decisions(game, config, games, kind="heuristic"):
    """Every decision of `games` games played by `kind` bots: (state, ask, bots), before the answer."""
    for seed in range(games):
        state, _ = core.new_game(game, config, seed)
        info = card_info(state)
        bots = [make_bot(game, kind, seed, s, info) for s in range(core.get_game(game).seat_count(state))]
        while not state["over"]:
            ask = state["asks"][0]
            yield state, ask, bots
            choice = decide(bots[ask["seat"]], state, ask["seat"], ask, core.view)
            assert core.apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok


def full_view(state, viewer):
    return core.view(state, viewer)


@pytest.mark.parametrize("game,config,games", GAMES)
def test_the_lazy_view_is_the_full_view_key_by_key(game, config, games):
    rng = random.Random(7)
    checked = 0
    for state, ask, _ in decisions(game, config, games):
        others = [s for s in range(core.get_game(game).seat_count(state)) if s != ask["seat"]]
        for viewer in [ask["seat"], rng.choice(others), PUBLIC, REFEREE]:
            full = core.view(state, viewer)
            keys = list(full)
            rng.shuffle(keys)
            lazy = LazyView(state, viewer)
            for key in keys:  # read one at a time, in any order: each key computed on its own
                assert lazy[key] == full[key], (game, viewer, key)
            assert set(lazy) == set(full) and len(lazy) == len(full)
            assert dict(LazyView(state, viewer)) == full
            assert "no such key" not in lazy and LazyView(state, viewer).get("no such key", 5) == 5
            with pytest.raises(KeyError):
                LazyView(state, viewer)["no such key"]
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("game,config,games", GAMES)
def test_bots_pick_the_same_with_the_lazy_view_and_leave_the_state_alone(game, config, games):
    """At every decision the heuristic bot's pick with the lazy view (decide given core.view) is its
    pick with the full view (decide given another view function), one of the ask's own choices, and
    deciding changes nothing in the state."""
    for state, ask, bots in decisions(game, config, games):
        bot, seat = bots[ask["seat"]], ask["seat"]
        before = json.dumps(state, sort_keys=True)
        lazy_pick = decide(bot, state, seat, ask, core.view)
        assert json.dumps(state, sort_keys=True) == before
        assert lazy_pick in ask["choices"]
        assert decide(bot, state, seat, ask, full_view) == lazy_pick


def test_a_bot_given_the_lazy_view_reads_only_what_it_needs():
    """A bot that answers from its ask alone builds no view: an Intrigue ask with one choice."""
    for state, ask, bots in decisions("intrigue", {"players": 4}, 1):
        if len(ask["choices"]) == 1:
            view = LazyView(state, ask["seat"])
            bots[ask["seat"]].choose(view, ask)
            assert "nothing yet" in repr(view)
            return
    pytest.fail("no decision with a single choice")


@pytest.mark.parametrize("players,variants", [(4, []), (2, []), (5, ["mat"]), (3, ["mat"])])
def test_the_intrigue_bot_weighs_a_placement_as_the_court_it_makes(players, variants):
    """Weighing.after (what a placement changes) against open_spots of the court after placing."""
    checked = 0
    for state, ask, bots in decisions("intrigue", {"players": players, "variants": variants}, 2):
        if ask["kind"] != "place":
            continue
        g = state["g"]
        court = g["court"]
        bot = bots[ask["seat"]]
        houses, bit = bot.houses, bot.bit
        in_hand = dict.fromkeys(houses, 0)
        for inst in g["hands"][ask["seat"]]:
            in_hand[g["house_of"][inst]] += 1
        weighing = intrigue_bot.Weighing(court, C.open_spots(court), bit, {bit[h]: k for h, k in in_hand.items()})
        for _, inst, row, pos in ask["choices"]:
            house = g["house_of"][inst]
            after = C.copy_court(court)
            C.place(after, inst, house, row, pos)
            spots = C.open_spots(after)
            kept = {h for h in houses if in_hand[h] - (h == house)}
            bases = sum(1 for s in spots if s[2] is None)
            fit = {h for h in houses if bases or any(h in (a, b) for _, _, a, b in spots)}
            places = sum(1 for _, _, a, b in spots if a is not None and (a in kept or b in kept))
            got_bases, got_fit, got_places = weighing.after(bit[house], row, pos)
            assert (got_bases, got_places) == (bases, places)
            assert {h for h in houses if got_fit & bit[h]} == fit
            checked += 1
    assert checked > 100


def test_the_lazy_view_is_read_only_and_becomes_a_plain_dict_whole():
    """A bot cannot write its view; dict() of it is the full view, keys in the same order; and
    json refuses it (loudly) rather than writing part of it."""
    state, _ = core.new_game("btwixt", {"players": 4}, 1)
    seat = state["asks"][0]["seat"]
    full = core.view(state, seat)
    lazy = LazyView(state, seat)
    with pytest.raises(TypeError):
        lazy["hand"] = []
    with pytest.raises(TypeError):
        del lazy["hand"]
    for other in (dict(LazyView(state, seat)), {**LazyView(state, seat)}):
        assert other == full and list(other) == list(full)
    with pytest.raises(TypeError):
        json.dumps(LazyView(state, seat))
