"""Westeros Intrigue: the court's geometry, the deal, turns and rounds, scoring (the rules' example),
random-playout invariants, hidden information, bad input, the card data and the commands."""

import copy
import json
import random

import pytest

from intrigue_harness import HOUSE, Table, everything
from maester.cards import db as cardsdb
from maester import cli
from maester.cards import check
from maester.engine import PUBLIC, REFEREE, apply, cardtables, filter_events, new_game, view
from maester.engine.session import Session, replay
from maester.games import intrigue as I
from maester.games.intrigue import court as C
from maester.games.intrigue import flow
from maester.sim import play_one
import playout
import table_words
from playout import digest, rejected_without_change


pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def court_of(rows, width=8, mode="free", offset=0):
    """A court from strings of house initials, base first ('.' = empty)."""
    court = C.new_court(width, mode)
    n = 0
    for r, row in enumerate(rows):
        for i, ch in enumerate(row):
            if ch != ".":
                n += 1
                C.place(court, "%s#%d" % (HOUSE[ch], n), HOUSE[ch], r, offset + i)
    assert C.problems(court) == [], C.problems(court)
    return court


def where(court, house):
    return [tuple(p) for p in C.legal_positions(court, HOUSE[house])]


# --- the court: placement rules ---------------------------------------------------------------

def test_the_first_card_goes_anywhere_on_the_base():
    # Free court: the base grows at either end, so every first place is the same one.
    assert C.legal_positions(C.new_court(8), "stark") == [[0, 7]]
    # On a fixed mat, any of the 8 places of the base.
    assert C.legal_positions(C.new_court(8, "mat"), "stark") == [[0, x] for x in range(8)]
    assert C.legal_positions(C.new_court(7, "mat"), "lannister") == [[0, x] for x in range(7)]


def test_base_cards_go_next_to_the_row_at_either_end_never_into_a_gap():
    court = court_of(["SLB"], offset=6)          # places 6, 7, 8
    for h in "SLBT":                                 # any house on the base
        assert where(court, h)[:2] == [(0, 5), (0, 9)]
    all_spots = {(r, x) for r, x, *_ in C.open_spots(court)}
    assert (0, 4) not in all_spots and (0, 10) not in all_spots   # not away from the row
    assert not any(r == 0 and 6 <= x <= 8 for r, x in all_spots)  # nor onto a taken place


def test_the_base_stops_at_eight_cards_and_at_seven_with_two_players():
    court = court_of(["SLBTSLBT"])
    assert [p for p in where(court, "S") if p[0] == 0] == []
    court = court_of(["SLBTSLB"], width=7)
    assert [p for p in where(court, "S") if p[0] == 0] == []
    court = court_of(["SLBTSLB"], offset=1)          # 7 of 8: both ends still open
    assert [p for p in where(court, "T") if p[0] == 0] == [(0, 0), (0, 8)]


def test_a_free_base_can_grow_seven_places_either_way():
    left = court_of(["SLBTSLBT"], offset=0)          # grew left from place 7
    right = court_of(["SLBTSLBT"], offset=7)         # grew right from place 7
    assert C.problems(left) == C.problems(right) == []
    court = court_of(["S"], offset=7)
    assert where(court, "L") == [(0, 6), (0, 8)]


def test_a_mat_base_can_only_grow_where_the_mat_has_room():
    court = court_of(["S"], mode="mat", offset=0)
    assert where(court, "L") == [(0, 1)]
    court = court_of(["S"], mode="mat", offset=7)
    assert where(court, "L") == [(0, 6)]


def test_a_card_above_shares_a_house_with_one_of_the_two_below():
    court = court_of(["SSLLB"], offset=3)            # places 3 to 7
    upper = lambda h: [p for p in where(court, h) if p[0] == 1]  # noqa: E731
    assert upper("S") == [(1, 3), (1, 4)]            # on S+S and on S+L
    assert upper("L") == [(1, 4), (1, 5), (1, 6)]    # on S+L, L+L and L+B
    assert upper("B") == [(1, 6)]                    # on L+B
    assert upper("T") == []                          # matches nothing


def test_upper_rows_need_two_side_by_side_cards_and_an_empty_place():
    court = court_of(["S"], offset=7)
    assert [p for p in where(court, "S") if p[0] > 0] == []
    court = court_of(["SS", "S"], offset=7)
    assert [p for p in where(court, "S") if p[0] > 0] == []   # the only place above is taken
    court = court_of(["SSS", "S."], offset=6)
    assert [p for p in where(court, "S") if p[0] > 0] == [(1, 7)]
    court = court_of(["SSS", "SS"], offset=6)
    assert [p for p in where(court, "S") if p[0] > 0] == [(2, 6)]
    # A card rests on the two cards below it: (2, 6) sits on (1, 6) and (1, 7).


def test_upper_rows_may_start_before_the_base_is_full():
    court = court_of(["LL"], offset=7)
    assert (1, 7) in where(court, "L") and (0, 6) in where(court, "L")


def test_the_full_pyramid_has_no_place_left():
    rows = ["L" + "S" * (7 - r) for r in range(8)]   # a Lannister edge on a Stark pyramid
    court = C.new_court(8)
    n = 0
    for r, row in enumerate(rows):
        for i, ch in enumerate(row):
            n += 1
            C.place(court, "c#%d" % n, HOUSE[ch], r, i)
    assert C.problems(court) == [] and C.open_spots(court) == []
    assert sum(court["count"]) == 36 and court["count"] == [8, 7, 6, 5, 4, 3, 2, 1]


def test_a_hand_lists_every_legal_card_and_position_and_a_tap_filters_them():
    court = court_of(["SL"], offset=7)
    hand = ["stark#9", "targaryen#9", "lannister#9"]
    house_of = {c: c.split("#")[0] for c in hand}
    moves = C.legal_moves(court, hand, house_of)
    assert moves == [["place", "stark#9", 0, 6], ["place", "stark#9", 0, 9], ["place", "stark#9", 1, 7],
                     ["place", "targaryen#9", 0, 6], ["place", "targaryen#9", 0, 9],
                     ["place", "lannister#9", 0, 6], ["place", "lannister#9", 0, 9], ["place", "lannister#9", 1, 7]]
    ask = {"choices": moves}
    assert I.choices_for_card(ask, "targaryen#9") == [["place", "targaryen#9", 0, 6], ["place", "targaryen#9", 0, 9]]
    assert I.choices_for_card(ask, "baratheon#1") == []
    assert C.playable(court, ["targaryen#9"], house_of)


def test_the_court_draws_as_a_pyramid_of_initials():
    assert C.rows_text(C.new_court(8)) == ["(empty court)"]
    court = court_of(["SSL", "SL", "S"], offset=6)
    assert C.rows_text(court) == ["  S", " S L", "S S L"]


def test_the_court_checker_catches_broken_courts():
    court = court_of(["SL"], offset=7)
    bad = C.copy_court(court)
    C.place(bad, "x#1", "stark", 0, 10)              # a gap in the base
    assert any("gap" in p for p in C.problems(bad))
    bad = C.copy_court(court)
    C.place(bad, "x#1", "baratheon", 1, 7)           # no house in common with S and L
    assert any("baratheon on stark and lannister" in p for p in C.problems(bad))
    bad = C.copy_court(court)
    C.place(bad, "x#1", "stark", 1, 8)               # rests on one card only
    assert any("does not rest on two cards" in p for p in C.problems(bad))


# --- the deal -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players,each,box,start", [(2, 14, 8, 0), (3, 12, 0, 0), (4, 9, 0, 0), (5, 7, 0, 1), (6, 6, 0, 0)])
def test_the_deal_by_player_count(players, each, box, start):
    t = Table(players)
    g = t.g
    assert [len(h) for h in g["hands"]] == [each] * players
    assert len(g["box"]) == box and sum(g["court"]["count"]) == start
    assert sorted(everything(g)) == sorted(cardtables.table(t.state)["characters"])
    assert g["court"]["width"] == 8          # the rules: up to 8, with two players too
    if players == 5:
        # The spare card lies face up as the first card of the base; play goes on from it.
        assert g["start_card"] == g["court"]["cards"][0][7]
        assert t.emitted("start_card")[0]["card"] == g["start_card"]
        assert [c[2:] for c in t.ask(0)["choices"] if c[1] == g["hands"][0][0]] == [[0, 6], [0, 8]]
    else:
        assert g["start_card"] is None
    v = t.view(PUBLIC)
    assert v["hand_sizes"] == [each] * players and v["box"] == box and "box_cards" not in v


def test_two_players_play_on_an_eight_wide_base_unless_the_narrow_two_variant_is_on():
    assert Table(2).g["court"]["width"] == 8
    assert Table(2, base_width=7).g["court"]["width"] == 7
    # Not the rules: a review's (and Pinguin Party's) 7-wide base for two, which 2 x 14 cards fill.
    t = Table(2, variants=["narrow_two"])
    assert t.g["court"]["width"] == 7 and t.state["config"]["base_width"] == 7
    assert Table(3, variants=["narrow_two"]).g["court"]["width"] == 8   # two players only
    # The name the rules' reading had before it became the default still replays saved games.
    assert Table(2, variants=["wide"]).g["court"]["width"] == 8


# --- turns and rounds ---------------------------------------------------------------------------

def test_a_seat_that_cannot_place_is_out_and_the_last_to_place_wins_the_round():
    t = Table(3, first=0)
    # A full base of Baratheons and Targaryens: a Stark fits nowhere.
    t.rig(["BTBTBTBT"], hands={0: "BB", 1: "SS", 2: "T"})
    assert t.ask()["seat"] == 0
    t.place(0, "B", 1, 0)
    # Seat 1 cannot place a Stark anywhere: out for the round, with its 2 cards.
    out = t.emitted("out")[-1]
    assert out == {"e": "out", "seat": 1, "why": "cannot place a card", "left": 2}
    t.place(2, "T", 1, 1)                            # its last card
    assert t.emitted("out")[-1]["why"] == "no cards left"
    t.place(0, "B", 1, 2)                            # the last card of the round
    won = t.emitted("round_won")[-1]
    assert won["seat"] == 0 and won["round"] == 1
    assert t.g["penalties"] == [0, 2, 0]
    assert [e["seat"] for e in t.emitted("throne_drawn")] == [0]
    assert len(t.g["thrones"][0]) == 1
    # Round 2 begins, started by the next seat clockwise.
    assert t.g["round"] == 2 and t.g["starter"] == 1 and t.ask()["seat"] == 1


def test_an_eliminated_seat_stays_out_even_when_a_place_opens_for_it():
    t = Table(3, first=0)
    # A full base; the only Targaryen place, on B and T, is taken: a Targaryen fits nowhere.
    t.rig(["BLBLBLBT", "......T"], hands={0: "BL", 1: "T", 2: "L"})
    t.place(0, "B", 1, 0)
    assert t.emitted("out")[-1] == {"e": "out", "seat": 1, "why": "cannot place a card", "left": 1}
    t.place(2, "L", 1, 5)                            # (2, 5) now rests on L and T: a Targaryen fits
    assert [2, 5] in C.legal_positions(t.court, "targaryen")
    assert t.ask()["seat"] == 0                      # but seat 1 is out for the round
    t.place(0, "L", 2, 5)
    assert t.emitted("round_won")[-1]["seat"] == 0 and t.g["penalties"] == [0, 1, 0]


def test_the_round_ends_when_nobody_can_place_and_the_winner_pays_for_cards_left():
    t = Table(2)
    # Two players; seat 0 places the last card but is then blocked with a card left.
    t.rig(["BBBBBBBB"], hands={0: "BS", 1: "TT"})
    assert t.g["out"] == [False, False] and t.ask()["seat"] == 0
    t.place(0, "B", 1, 1)
    # Seat 1 holds only Targaryens: out with 2. Seat 0 keeps going: its Stark fits nowhere.
    assert t.emitted("round_won")[-1]["seat"] == 0
    assert t.g["history"][0]["left"] == [1, 2]
    assert t.g["penalties"] == [1, 2]                # the rules: everyone holding cards, the winner too


@pytest.mark.parametrize("config", [{"variants": ["winner_exempt"]}, {"winner_pays": False}])
def test_the_winner_exempt_variant_spares_the_round_winner(config):
    t = Table(2, **config)
    t.rig(["BBBBBBBB"], hands={0: "BS", 1: "TT"})
    t.place(0, "B", 1, 1)
    assert t.g["penalties"] == [0, 2]


def test_penalty_tokens_are_suggested_for_each_penalty():
    assert flow.tokens_for(4) == [2, 2] and flow.tokens_for(8) == [5, 2, 1] and flow.tokens_for(0) == []
    t = Table(3)
    t.rig(["BTBTBTBT"], hands={0: "B", 1: "SSSS", 2: "SSS"})
    t.place(0, "B", 1, 0)
    pens = {e["seat"]: e for e in t.emitted("penalty")}
    assert pens[1]["points"] == 4 and pens[1]["tokens"] == [2, 2] and pens[2]["tokens"] == [2, 1]


def test_rounds_rotate_the_start_clockwise_or_go_to_the_winner():
    def starters(**config):
        t = Table(4, first=2, **config)
        rng = random.Random(1)
        seen = []
        while not t.state["over"]:
            if t.g["round"] > len(seen):
                seen.append((t.g["starter"], t.g["history"][-1]["winner"] if t.g["history"] else None))
            ask = t.ask()
            t.choose(ask["seat"], *rng.choice(ask["choices"]))
        return seen

    assert [s for s, _ in starters()] == [2, 3, 0, 1]
    got = starters(next_start="winner")
    assert got[0][0] == 2 and all(s == w for s, w in got[1:])


def test_only_the_winner_sees_which_iron_throne_card_they_drew():
    t = Table(3)
    t.rig(["BTBTBTBT"], hands={0: "B", 1: "S", 2: "S"})
    t.place(0, "B", 1, 0)
    drawn = t.g["thrones"][0][0]
    for viewer in (PUBLIC, 1, 2):
        assert drawn not in json.dumps(t.view(viewer))
        assert drawn not in json.dumps(filter_events(t.events, viewer))
    assert t.view(0)["my_thrones"] == [drawn]
    assert [e["card"] for e in filter_events(t.events, 0) if e["e"] == "throne_card"] == [drawn]
    assert t.view(PUBLIC)["throne_counts"] == [1, 0, 0]


# --- scoring: the rules' example ----------------------------------------------------------------

EXAMPLE_THRONES = {"it-a": (2, 3), "it-b": (4, 5), "it-c": (3, 4), "it-d": (1, 1),
                   "it-e": (2, 2), "it-f": (5, 7), "it-g": (3, 6)}


def example_cards():
    """The shipped card table with Iron Throne values fixed for the example (ours are assumed)."""
    cards = copy.deepcopy(I.card_table(owner=False))
    cards["throne"] = {"%s#1" % k: {"value": v, "swords": s} for k, (v, s) in EXAMPLE_THRONES.items()}
    cards["throne_instances"] = sorted(cards["throne"])
    return cards


def test_the_rules_final_score_example():
    # Four players clockwise: top left (0), top right (1), bottom right (2), bottom left (3).
    # Top left is the youngest and starts. Only Starks and Lannisters can still be placed in each
    # rigged round; Baratheons and Targaryens in hand are stuck there.
    TL, TR, BR, BL = 0, 1, 2, 3
    t = Table(4, first=TL, cards=example_cards())
    t.throne_deck("it-a#1", "it-b#1", "it-c#1", "it-d#1")
    base = ["BBBSTTLT", "BBSTTLL", "BSSTLL", "SSSLL"]

    # Round 1 (the rules' round example): top right places last and wins; top left has played
    # every card; bottom left and bottom right keep 2 and 4 cards.
    t.rig(base, hands={TL: "SS", TR: "LL", BR: "BBTT", BL: "BT"}, full_deal=True)
    t.place(TL, "S", 4, 0)
    t.place(TR, "L", 4, 3)
    assert [e["seat"] for e in t.emitted("out")] == [BR, BL]
    t.place(TL, "S", 4, 1)
    t.place(TR, "L", 4, 2)
    assert t.emitted("round_won")[-1]["seat"] == TR
    assert t.g["history"][-1]["penalties"] == [0, 0, 4, 2]

    # Round 2, started by top right: bottom left wins; top right keeps 3 cards, bottom right 1.
    assert t.g["starter"] == TR
    t.rig(["BBBTSTLB", "BBTSTLL", "BTSTLL", "TSSLL", "SSL."], hands={TR: "BBT", BR: "T", BL: "SS", TL: "L"}, full_deal=True)
    t.place(BL, "S", 5, 0)
    t.place(TL, "L", 4, 3)
    t.place(BL, "S", 5, 1)
    assert t.emitted("round_won")[-1]["seat"] == BL and t.g["history"][-1]["penalties"] == [0, 3, 1, 0]

    # Round 3, started by bottom right, who wins it; top right and bottom left keep 2 each.
    assert t.g["starter"] == BR
    t.rig(["BBBTSTLB", "BBTSTLL", "BTSTLL", "BSSLL", "SSL."], hands={BR: "SS", BL: "BT", TL: "L", TR: "TT"}, full_deal=True)
    t.place(BR, "S", 5, 0)
    t.place(TL, "L", 4, 3)
    t.place(BR, "S", 5, 1)
    assert t.emitted("round_won")[-1]["seat"] == BR and t.g["history"][-1]["penalties"] == [0, 2, 0, 2]

    # Round 4, started by bottom left, who wins again; everyone else empties their hand.
    assert t.g["starter"] == BL
    t.rig(["BBBTBSLB", "BBTTSLB", "BTTSLL", "TTSLL", "TSSL", "T.."], hands={BL: "SL", TL: "S", TR: "L", BR: "S"}, full_deal=True)
    t.place(BL, "L", 5, 2)
    t.place(TL, "S", 5, 1)
    t.place(TR, "L", 6, 1)
    t.place(BR, "S", 6, 0)
    t.place(BL, "S", 7, 0)
    assert t.state["over"]
    result = t.state["result"]
    # Penalties: top left 0, top right 5, bottom right 5, bottom left 4. Iron Throne cards: top
    # right 2, bottom left 4 + 1, bottom right 3. Final: -1, 0, 2, 3 and bottom left wins.
    assert result["penalties"] == [0, 5, 5, 4]
    assert result["throne_values"] == [0, 2, 3, 5]
    assert result["scores"] == [0, 3, 2, -1]
    assert result["ranking"] == [BL, TL, BR, TR]
    assert result["winners"] == [BL]
    assert result["rounds"] == 4
    # The Iron Throne cards are shown to everyone once the game is over.
    assert t.view(PUBLIC)["thrones"] == [[], ["it-a#1"], ["it-c#1"], ["it-b#1", "it-d#1"]]


def test_a_tie_goes_to_the_iron_throne_card_with_fewest_swords():
    info = {"a#1": {"value": 2, "swords": 3}, "b#1": {"value": 2, "swords": 1}, "c#1": {"value": 1, "swords": 6}}
    scores = flow.final_scores([4, 4, 3, 2], [["a#1"], ["b#1"], ["c#1"], []], info)
    assert scores == [2, 2, 2, 2]
    order, winners = flow.ranking(scores, [["a#1"], ["b#1"], ["c#1"], []], info, "fewest_swords")
    assert winners == [1] and order == [1, 0, 2, 3]  # a seat without a card cannot win the tie
    _, winners = flow.ranking(scores, [["a#1"], ["b#1"], ["c#1"], []], info, "most_swords")
    assert winners == [2]
    _, winners = flow.ranking(scores, [["a#1"], ["b#1"], ["c#1"], []], info, "none")
    assert winners == [0, 1, 2, 3]
    _, winners = flow.ranking([1, 1], [[], []], info, "fewest_swords")
    assert winners == [0, 1]                          # still tied: a shared win
    # With several cards, the one with the fewest swords counts.
    _, winners = flow.ranking([0, 0], [["a#1", "b#1"], ["c#1"]], info, "fewest_swords")
    assert winners == [0]


def test_scores_may_go_below_zero_unless_floored():
    info = {"a#1": {"value": 5, "swords": 1}}
    assert flow.final_scores([2], [["a#1"]], info) == [-3]
    assert flow.final_scores([2], [["a#1"]], info, floor=True) == [0]


# --- random playouts: invariants -----------------------------------------------------------------

def check_invariants(state):
    g = state["g"]
    assert sorted(everything(g)) == sorted(cardtables.table(state)["characters"]), "cards lost or duplicated"
    assert C.problems(g["court"], g["house_of"]) == []
    dealt = g["deal"] * g["n"]
    assert sum(len(h) for h in g["hands"]) + g["placed"] == dealt
    thrones = [c for t in g["thrones"] for c in t] + g["throne_deck"]
    assert sorted(thrones) == sorted(cardtables.table(state)["throne_instances"])
    assert sum(len(t) for t in g["thrones"]) == len(g["history"])  # one Iron Throne card per round won


def random_game(players, seed, check_every=True, **config):
    def check(state, ask):
        if ask is not None:
            assert ask["seat"] == state["g"]["turn"] and not state["g"]["out"][ask["seat"]]
        if check_every or ask is None:
            check_invariants(state)

    return playout.random_game("intrigue", dict(config, players=players), seed, check, max_steps=400)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("variants", [[], ["mat"], ["winner_starts", "winner_exempt"], ["narrow_two"]])
def test_random_playouts_keep_every_invariant(players, variants):
    for seed in range(8):
        state = random_game(players, seed, variants=variants)
        g = state["g"]
        assert g["round"] == players == len(g["history"]) == state["result"]["rounds"]
        assert sum(len(t) for t in g["thrones"]) == players   # one Iron Throne card per round
        assert state["result"]["winners"]
        for h in g["history"]:
            assert h["winner"] is not None
            assert h["penalties"][h["winner"]] == (0 if "winner_exempt" in variants else h["left"][h["winner"]])
        json.dumps(state)


def test_same_seed_same_game_and_different_seed_different_game():
    a = digest(random_game(4, 11, check_every=False))
    b = digest(random_game(4, 11, check_every=False))
    c = digest(random_game(4, 12, check_every=False))
    assert a == b != c


def test_bot_games_are_reproducible_and_legal():
    for players in (2, 4, 6):
        a, acts_a = play_one("intrigue", {"players": players}, 3, "heuristic")
        b, acts_b = play_one("intrigue", {"players": players}, 3, "heuristic")
        assert acts_a == acts_b and digest(a) == digest(b) and a["result"]["rounds"] == players


# --- hidden information -----------------------------------------------------------------------

def states_along_a_game(players, seed, every=2):
    state, events = new_game("intrigue", {"players": players}, seed)
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


def hide_differently(state, viewer, rng):
    """A copy that differs only in what `viewer` may not see: the other hands and the box (dealt
    afresh from the same cards, same sizes), the other seats' Iron Throne cards (swapped with the
    deck) and the order of the Iron Throne deck. The viewer PUBLIC sees no hand at all."""
    other = copy.deepcopy(state)
    g = other["g"]
    hidden = [s for s in range(g["n"]) if s != viewer]
    zones = [g["box"]] + [g["hands"][s] for s in hidden]
    pool = [c for z in zones for c in z]
    rng.shuffle(pool)
    for z in zones:
        z[:], pool = pool[:len(z)], pool[len(z):]
    zones = [g["throne_deck"]] + [g["thrones"][s] for s in hidden]
    pool = [c for z in zones for c in z]
    rng.shuffle(pool)
    for z in zones:
        z[:], pool = pool[:len(z)], pool[len(z):]
    return other


@pytest.mark.parametrize("players", [2, 4, 5])
def test_views_do_not_change_with_what_the_viewer_may_not_see(players):
    rng = random.Random(players)
    checked = changed = 0
    for state, _ in states_along_a_game(players, seed=players * 31):
        if state["over"]:
            continue  # the Iron Throne cards are shown to everyone at the end
        for viewer in [PUBLIC] + list(range(players)):
            other = hide_differently(state, viewer, rng)
            changed += other["g"] != state["g"]
            assert view(other, viewer) == view(state, viewer), \
                "%s's view changed with cards it may not see" % (viewer,)
            checked += 1
    assert checked > 50 and changed > checked // 2


@pytest.mark.parametrize("players", [2, 4])
def test_a_tap_on_any_reader_names_a_card_only_to_whom_it_is_not_hidden(players):
    """Any card on any reader (another seat's hand card on mine, say): the host display and each
    seat's page name it only where its own view does (issue 25)."""
    tried = 0
    for state, events in states_along_a_game(players, seed=players, every=6):
        tried += table_words.assert_taps_tell_no_secret(state, events)
    assert tried > 500


def test_the_differential_test_can_fail():
    state, _ = new_game("intrigue", {"players": 4}, 3)
    other = hide_differently(state, 1, random.Random(1))
    assert view(other, 0) != view(state, 0) and view(other, REFEREE) != view(state, REFEREE)
    assert view(other, 1) == view(state, 1)


def test_the_box_is_seen_by_nobody_and_hands_only_by_their_seat():
    *_, (state, events) = states_along_a_game(2, seed=4, every=10_000)
    assert state["over"]
    boxed = set(state["g"]["box"])
    last_round = max(i for i, e in enumerate(events) if e["e"] == "round")
    for viewer in (PUBLIC, 0, 1):
        v = view(state, viewer)
        assert "hands" not in v and "box_cards" not in v
        for e in filter_events(events[last_round:], viewer):
            if e["e"] in ("hand", "throne_card"):
                assert e["seat"] == viewer
            if e["e"] == "hand":
                assert not boxed & set(e["cards"])
    assert "box_cards" in view(state, REFEREE)


def test_a_rejection_never_names_another_seats_card():
    state, _ = new_game("intrigue", {"players": 4}, 5)
    ask = state["asks"][0]
    seat = ask["seat"]
    fake = rejected_without_change(state, {"seat": seat, "ask": ask["id"], "choice": ["place", "nobody#1", 0, 7]})
    for other in range(4):
        if other == seat:
            continue
        for card in state["g"]["hands"][other]:
            reason = rejected_without_change(state, {"seat": seat, "ask": ask["id"], "choice": ["place", card, 0, 7]})
            # The same words as for a card that does not exist: nothing about where it is.
            assert reason.replace(card, "X") == fake.replace("nobody#1", "X")


# --- bad input: a clear reason, no change --------------------------------------------------------

@pytest.fixture
def midgame():
    state, _ = new_game("intrigue", {"players": 4}, 5)
    rng = random.Random(5)
    for _ in range(12):
        ask = state["asks"][0]
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])})
    return state


def test_bad_commands_are_rejected_with_a_reason_and_change_nothing(midgame):
    g = midgame["g"]
    ask = midgame["asks"][0]
    seat = ask["seat"]
    other = (seat + 1) % 4
    card = g["hands"][seat][0]
    legal = {tuple(c[2:]) for c in ask["choices"] if c[1] == card}
    illegal = next((r, x) for r in range(8) for x in range(15 - r) if (r, x) not in legal)
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["place", card, *illegal]})
    taken = next((r, x) for r in range(8) for x, c in enumerate(g["court"]["cards"][r]) if c)
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["place", card, *taken]})
    not_in_hand = g["hands"][other][0]
    pos = ask["choices"][0][2:]
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["place", not_in_hand, *pos]})
    assert "not a legal choice" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"], "choice": ["place", "no-such-card#1", *pos]})
    assert "not yours" in rejected_without_change(
        midgame, {"seat": other, "ask": ask["id"], "choice": ask["choices"][0]})
    assert "closed" in rejected_without_change(
        midgame, {"seat": seat, "ask": ask["id"] - 1, "choice": ask["choices"][0]})
    assert rejected_without_change(midgame, {"seat": seat, "ask": ask["id"], "choice": "place"})
    assert rejected_without_change(midgame, {})


def test_a_double_tap_is_absorbed_and_a_logged_game_is_unchanged(tmp_path):
    session = Session.new("intrigue", {"players": 3}, 2, log_path=tmp_path / "g.sqlite")
    ask = session.state["asks"][0]
    command = {"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]}
    assert session.submit(command).ok
    before = copy.deepcopy(session.state)
    again = session.submit(command)
    assert not again.ok and ("closed" in again.reason or "not yours" in again.reason)
    assert session.state == before and replay(session.log)[0] == before
    session.close()


@pytest.mark.parametrize("config,words", [
    ({"players": 1}, "2 to 6 players"),
    ({"players": 7}, "2 to 6 players"),
    ({"players": 4, "variants": ["turbo"]}, "unknown variant 'turbo'"),
    ({"players": 4, "base_width": 9}, "base_width"),
    ({"players": 4, "court": "round"}, "court must be one of free, mat"),
    ({"players": 4, "next_start": "oldest"}, "next_start must be one of rotate, winner"),
    ({"players": 4, "tiebreak": "dice"}, "tiebreak must be one of"),
    ({"players": 4, "winner_pays": "yes"}, "winner_pays must be true or false"),
    ({"players": 4, "first": 4}, "seat from 0 to 3"),
    ({"players": 4, "variants": ["mat"], "court": "free"}, "variant 'mat' sets court"),
    ({"players": 4, "base_widht": 7}, "unknown setting 'base_widht'"),
])
def test_bad_configs_are_refused_with_a_reason(config, words):
    with pytest.raises(ValueError, match=words):
        new_game("intrigue", config, 1)


def test_the_config_holds_every_setting_with_its_default():
    state, _ = new_game("intrigue", {"players": 2}, 1)
    c = state["config"]
    assert {k: c[k] for k in I.SETTINGS} == {
        "first": 0, "base_width": 8, "court": "free", "next_start": "rotate", "winner_pays": True,
        "score_floor": False, "tiebreak": "fewest_swords"}
    assert new_game("intrigue", {"players": 3}, 1)[0]["config"]["base_width"] == 8


def test_choices_read_as_words():
    t = Table(3)
    t.rig(["SL"], hands={0: "S", 1: "B", 2: "T"}, offset=7)
    from maester.engine.core import get_game
    game = get_game("intrigue")
    ask = t.ask(0)
    words = [game.describe_choice(t.state, ask, c) for c in ask["choices"]]
    assert words == ["Stark card %s: base, left end" % ask["choices"][0][1],
                     "Stark card %s: base, right end" % ask["choices"][0][1],
                     "Stark card %s: row 2 on Stark and Lannister (place 7)" % ask["choices"][0][1]]


# --- the heuristic bot ---------------------------------------------------------------------------

def test_the_heuristic_bot_decides_from_its_view_alone():
    from maester.engine.bots import make_bot
    rng = random.Random(9)
    for state, _ in states_along_a_game(4, seed=9, every=3):
        if state["over"]:
            break
        ask = state["asks"][0]
        seat = ask["seat"]
        bot = make_bot("intrigue", "heuristic", 1, seat, cardtables.table(state)["info"])
        other = hide_differently(state, seat, rng)
        assert bot.choose(view(state, seat), ask) == bot.choose(view(other, seat), ask)
        assert bot.choose(view(state, seat), ask) in ask["choices"]


def test_the_heuristic_bot_beats_random_bots():
    from maester.engine.bots import make_bot
    from maester.engine import core
    wins = 0
    for seed in range(40):
        state, _ = new_game("intrigue", {"players": 4}, seed)
        info = cardtables.table(state)["info"]
        bots = [make_bot("intrigue", "heuristic" if s == 0 else "random", seed, s, info) for s in range(4)]
        while not state["over"]:
            a = state["asks"][0]
            b = bots[a["seat"]]
            assert core.apply(state, {"seat": a["seat"], "ask": a["id"],
                                      "choice": b.choose(view(state, a["seat"]) if b.uses_view else None, a)}).ok
        wins += 0 in state["result"]["winners"]
    assert wins > 40 * 0.25                               # more than its fair share


# --- card data and commands ---------------------------------------------------------------------

def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_card_data_passes_its_schema_and_checks():
    assert check.validate("intrigue") == []
    table = I.card_table(owner=False)
    assert len(table["characters"]) == 36 and len(table["throne"]) == 7
    assert {h: sum(1 for c in table["characters"] if table["house_of"][c] == h) for h in I.HOUSES} == \
        {h: 9 for h in I.HOUSES}


def test_every_assumed_value_is_listed_with_a_note():
    rep = check.report("intrigue")
    items = [(g["group"], i) for g in rep["assumed"] for i in g["items"]]
    listed = {(i["card"], i["field"]) for _, i in items}
    for n in range(1, 8):
        assert ("iron-throne-%d" % n, "value") in listed and ("iron-throne-%d" % n, "swords") in listed
    for key in [("penalty_tokens", "values"), ("next_round_start", "value"), ("round_winner_penalty", "variant"),
                ("court", "variant"),
                ("tiebreak", "compare"), ("tiebreak", "still_tied"), ("stark", "copies"), ("stark", "colour")]:
        assert key in listed, key
    assert all(i["note"].strip() for _, i in items)
    assert ("score_floor", "value") not in listed      # the rules' example shows a negative score
    # The rules' text: a base of up to 8 whatever the player count; every holder of cards pays.
    assert ("court", "base_width") not in listed and ("round_winner_penalty", "value") not in listed
    # Every assumed value in the data also carries its note.
    data = json.loads((cardsdb.db_root() / "intrigue" / "cards.json").read_text())
    for rec in data["characters"] + data["iron_throne"]:
        if "assumed" in rec["src"].values():
            assert rec.get("note")


def test_the_defaults_of_the_settings_come_from_the_data():
    comp = I.card_table(owner=False)["components"]
    assert I.defaults(comp, 4)["next_start"] == comp["next_round_start"]["value"] == "rotate"
    assert I.defaults(comp, 4)["winner_pays"] is comp["round_winner_penalty"]["value"] is True
    assert I.defaults(comp, 2)["base_width"] == I.defaults(comp, 4)["base_width"] == 8
    # The variants' values, which come from elsewhere than the rules, are in the data too.
    assert comp["court"]["variant"] == {"narrow_two": 7}
    assert comp["round_winner_penalty"]["variant"] == {"winner_exempt": False}


def test_every_variant_says_where_its_reading_comes_from():
    for name in I.VARIANTS:
        words = I.VARIANT_NOTES[name]
        assert "rules" in words, name
    for name in ("narrow_two", "winner_exempt", "winner_starts", "floor", "most_swords", "mat"):
        assert "not the rules" in I.VARIANT_NOTES[name], name


def test_cards_check_intrigue_prints_the_checklist(capsys):
    code, out, err = run(capsys, "cards", "check", "intrigue")
    assert code == 0, err
    assert "Iron Throne card 1" in out and "penalty tokens" in out and "next round start" in out
    code, out, _ = run(capsys, "cards", "check", "intrigue", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["problems"] == []


def test_cards_add_intrigue_says_what_to_do_instead(capsys):
    code, _, err = run(capsys, "cards", "add", "intrigue", "--name", "Arya Stark")
    assert code != 0 and "cannot enroll intrigue cards yet" in err


def test_an_owner_correction_of_an_iron_throne_card_is_used(tmp_path):
    path = cardsdb.owner_file("intrigue")
    path.parent.mkdir(parents=True)
    data = json.loads((cardsdb.db_root() / "intrigue" / "cards.json").read_text())
    card = dict(data["iron_throne"][0], value=6, swords=2, src={"name": "owner", "value": "owner", "swords": "owner"})
    card.pop("note")
    path.write_text(json.dumps({"game": "intrigue", "iron_throne": [card]}))
    assert check.validate("intrigue") == []
    cardsdb.forget_cache()
    assert I.card_table()["throne"]["iron-throne-1#1"] == {"value": 6, "swords": 2}
    rep = check.report("intrigue")
    assert not [i for g in rep["assumed"] for i in g["items"] if i["card"] == "iron-throne-1"]


def test_sim_and_bench_print_the_btwixt_shape(capsys):
    code, out, _ = run(capsys, "sim", "intrigue", "--players", "3", "--games", "5", "--json")
    stats = json.loads(out)
    assert code == 0 and stats["game"] == "intrigue" and stats["rounds_per_game"] == [3] * 5
    code, out, _ = run(capsys, "bench", "engine", "--game", "intrigue", "--games", "5", "--json")
    stats = json.loads(out)
    assert code == 0 and stats["players"] == 4 and stats["games"] == 5 and len(stats["winners"]) == 5
    code, out, _ = run(capsys, "sim", "intrigue", "--games", "3", "--bots", "heuristic", "--variant", "mat")
    assert code == 0 and "intrigue, 4 players (mat), heuristic bots" in out
