"""Oathbreaker on a real table: the decks learned from taps, what a tap means at a mission's reader,
at a noble's reader and at the throne, the LEDs, the face-down plays kept secret on the host display,
the LEDs and the log, and whole games played by taps on the simulated board."""

import copy
import random

import pytest

from oathbreaker_harness import Table, decrees_everywhere, influence_everywhere
from test_oathbreaker_invariants import check_invariants
from test_oathbreaker_leaks import hide_differently, may_see
from maester.engine.bots import make_bot
from maester.engine import PUBLIC, apply, cardtables, core, filter_events, new_game, view
from maester.engine.session import Session
from maester.games.oathbreaker import table as otable
from maester.games.oathbreaker import zones as Z
from maester.link.serial_link import Tap
from maester.table import profile as P
from maester.table.runner import TableRunner, sim_tags, sim_uid
from maester.table.simtable import SimTable
from maester.table.taps import command_for_tap
from maester.table import lights


pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def fresh(state, ask):
    """For an observing ask, the choices a person following the rules would tap; else None."""
    g = state["g"]
    kind, ch = ask["kind"], ask["choices"]
    if kind in ("observe_draw", "observe_extra"):
        return [c for c in ch if c[1] in g["deck"]]
    if kind == "observe_unseen":
        return [c for c in ch if c[1] in g["missions"][ask["data"]["mission"]]["cards"]]
    if kind == "observe_decree":
        return [c for c in ch if Z.decree_on_top(g, c[1])]
    if kind == "observe_mission":
        return ch
    return None


def tap_deal(t):
    """Answer every observing ask with a card that is really there, the first one listed."""
    while t.state["asks"] and fresh(t.state, t.ask()) is not None:
        ask = t.ask()
        t.choose(ask["seat"], *fresh(t.state, ask)[0])


# --- profiles ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_every_profile_has_the_seat_readers_and_a_reader_for_every_mission_place(players):
    prof = P.for_game("oathbreaker", players)
    places = P.places(prof)
    seats = [p for p in places if isinstance(p, int)]
    served = sorted(k for p in places for k in (otable.zone_missions(p) or []))
    assert served == [0, 1, 2, 3]  # three missions at most, and Pincer Maneuver's fourth
    assert len(prof["readers"]) <= 10  # the pin maps' chip-select slots
    if players == 8:
        assert seats == list(range(2, 8)) and "throne" in places
        throne = next(r for r in prof["readers"] if r.get("zone") == "throne")
        assert throne["seats"] == [0, 1]
    else:
        assert seats == list(range(players))
    names = {s["name"] for s in prof["segments"]}
    assert {"order", "chaos", "round"} | {"seat%d" % s for s in range(players)} <= names


def test_a_zone_reader_is_checked():
    prof = copy.deepcopy(P.for_game("oathbreaker", 5))
    prof["readers"][-1]["zone"] = "mission0"
    with pytest.raises(ValueError, match="share the zone"):
        P.check(prof)
    prof["readers"][-1] = {"name": "x", "role": "corner"}
    with pytest.raises(ValueError, match="unknown role"):
        P.check(prof)
    prof["readers"][-1] = {"name": "x", "role": "zone"}
    with pytest.raises(ValueError, match="zone"):
        P.check(prof)


# --- the deal, tapped -----------------------------------------------------------------------------

def test_on_a_real_table_the_deal_is_learned_from_taps_and_every_list_is_the_same():
    t = Table(6, observe=["hands"])
    rng_before = t.state["rng"]
    asks = t.state["asks"]
    nobles = t.g["nobles"]
    assert sorted(a["seat"] for a in asks) == [0] + nobles
    draw = [a for a in asks if a["kind"] == "observe_draw"]
    assert len(draw) == 5 and all(a["choices"] == draw[0]["choices"] for a in draw)
    assert [c[1] for c in draw[0]["choices"]] == sorted(cardtables.table(t.state)["influence_instances"])
    king = t.ask(0)
    assert king["kind"] == "observe_decree" and len(king["choices"]) == 36
    cards = sorted(t.g["deck"])
    t.choose(1, "card", cards[0])
    assert ["card", cards[0]] in t.choices(2)  # the list says nothing about what seat 1 tapped
    t.choose(2, "card", cards[0])  # already in seat 1's hand: refused, and only seat 2 is told
    refused = t.emitted("tap_refused")[-1]
    assert refused["vis"] == [2] and t.g["hands"][2] == [] and t.g["hands"][1] == [cards[0]]
    tap_deal(t)
    assert all(len(t.g["hands"][s]) == 3 for s in nobles) and len(t.g["decree_hands"][0]) == 5
    assert t.state["rng"] == rng_before  # the host shuffled nothing
    drew = [e for e in t.events if e["e"] == "drew"]
    assert sorted(e["seat"] for e in drew) == nobles and all(e["vis"] == [e["seat"]] for e in drew)
    assert t.ask()["kind"] in ("character", "first_hand")
    check_invariants(t.state)


def test_at_eight_players_the_king_and_queen_tap_their_decrees_one_after_the_other():
    t = Table(8, observe=["hands"])
    monarch_asks = [a for a in t.state["asks"] if a["seat"] in (0, 1)]
    assert [a["seat"] for a in monarch_asks] == [0]  # the Queen waits: they share the throne reader
    for _ in range(5):
        t.choose(0, *fresh(t.state, t.ask(0))[0])
    assert [a["seat"] for a in t.state["asks"] if a["seat"] in (0, 1)] == [1]
    tapped = t.emitted("tapped_into_hand")[-1]
    assert tapped["vis"] == [0, 1]  # the Queen sees the King's hand anyway


def test_missions_are_turned_up_by_the_king_and_pincer_maneuver_brings_one_more():
    t = Table(7, observe=["missions"])
    t.start(1)
    ask = t.ask()
    assert ask["kind"] == "observe_mission" and ask["seat"] == 0 and ask["data"] == {"mission": 0}
    assert [c[1] for c in ask["choices"]] == sorted(t.g["mission_deck"])
    t.choose(0, "mission", "pincer-maneuver#1")
    t.choose(0, "mission", "feed-flea-bottom#1")
    t.choose(0, "mission", "consult-the-maesters#1")
    assert t.ask()["data"] == {"mission": 3}  # a fourth, for Pincer Maneuver
    t.choose(0, "mission", "battle-of-the-bay#1")
    assert [m["card"] for m in t.g["missions"]] == ["pincer-maneuver#1", "feed-flea-bottom#1",
                                                   "consult-the-maesters#1", "battle-of-the-bay#1"]
    assert t.g["missions"][2]["extra"] > 0  # the host dealt the face-down cards: hands are not observed
    assert t.ask()["kind"] == "play"


def test_face_down_cards_to_a_mission_and_battle_of_the_bay_are_tapped_face_down_by_the_king():
    t = Table(6, observe=["hands", "missions"], variants=["night_is_dark"])
    tap_deal(t)
    t.start(1)
    t.choose(0, "mission", "battle-of-the-bay#1")
    t.choose(0, "mission", "consult-the-maesters#1")
    ask = t.ask()
    assert ask["kind"] == "observe_extra" and ask["seat"] == 0 and ask["data"] == {"mission": 0}
    t.choose(0, *fresh(t.state, ask)[0])  # The Night Is Dark: one card to each mission
    ask = t.ask()
    assert ask["kind"] == "observe_extra" and ask["data"] == {"mission": 1}
    amount = cardtables.get(t.g["table"])["info"]["consult-the-maesters"]["amount"] + 1
    first = fresh(t.state, ask)[0][1]
    t.choose(0, "card", first)
    t.choose(0, "card", first)  # tapped twice: refused, without naming the card even to the King
    refused = t.emitted("tap_refused")[-1]
    assert refused["vis"] == [0] and "card" not in refused
    tap_deal(t)
    assert t.g["missions"][1]["extra"] == amount and first in t.g["missions"][1]["cards"]
    assert t.emitted("face_down")[-1] == {"e": "face_down", "mission": 1, "count": amount}
    # Everyone plays; then Battle of the Bay's unseen discard is tapped on its reader.
    for _ in range(200):
        kind = t.ask()["kind"]
        if kind == "observe_unseen":
            break
        if kind == "resolve":
            t.choose(0, "resolve", 0)
        elif fresh(t.state, t.ask()) is not None:
            tap_deal(t)
        else:
            t.auto(lambda t: t.ask()["kind"] in ("resolve", "observe_unseen") or fresh(t.state, t.ask()) is not None)
    ask = t.ask()
    pile = t.g["missions"][0]["cards"]
    assert ask["data"] == {"mission": 0} and pile
    outside = next(c for c in t.g["deck"])
    t.choose(0, "card", outside)  # not in the pile: refused
    assert t.ask()["kind"] == "observe_unseen"
    gone = sorted(pile)[-1]
    t.choose(0, "card", gone)
    battle = next(h for h in t.g["history"] if h["card"] == "battle-of-the-bay#1")
    assert gone in t.g["discard"] and gone not in battle["revealed"] and battle["unseen_discard"]
    assert sorted(battle["revealed"] + [gone]) == sorted(pile + [gone]) or len(battle["revealed"]) == len(pile)


def observed_playout(players, seed, observe, variants=()):
    """Random choices, taps that follow the rules (a slip now and then): every invariant holds."""
    state, _ = new_game("oathbreaker", {"players": players, "observe": observe, "variants": list(variants),
                                        "owner_cards": False}, seed)
    rng = random.Random(seed)
    kinds = set()
    while not state["over"]:
        ask = state["asks"][0]
        ok = fresh(state, ask)
        if ok is not None:
            kinds.add(ask["kind"])
            assert all(a["choices"] == ask["choices"] for a in state["asks"] if a["kind"] == ask["kind"])
        choice = rng.choice(ok) if ok and rng.random() > 0.05 else rng.choice(ask["choices"])
        assert apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok
        check_invariants(state)
    return state, kinds


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_random_playouts_with_every_deck_tapped_keep_every_invariant(players):
    kinds = set()
    for seed in range(3):
        state, seen = observed_playout(players, seed, ["hands", "missions"],
                                       ["night_is_dark"] if seed % 2 else [])
        kinds |= seen
        assert state["result"]["rounds"] == len(state["g"]["track"])
        assert sorted(influence_everywhere(state["g"])) == sorted(cardtables.table(state)["influence_instances"])
        assert sorted(decrees_everywhere(state["g"])) == sorted(cardtables.table(state)["decree_instances"])
    assert {"observe_draw", "observe_decree", "observe_mission", "observe_extra"} <= kinds


def test_observing_is_checked_in_the_config():
    with pytest.raises(ValueError, match="cannot observe 'allies'"):
        new_game("oathbreaker", {"players": 5, "observe": ["allies"]}, 1)
    assert new_game("oathbreaker", {"players": 5}, 1)[0]["config"]["observe"] == []


def test_observed_views_do_not_change_with_what_the_viewer_may_not_see():
    state, _ = new_game("oathbreaker", {"players": 6, "observe": ["hands", "missions"], "owner_cards": False}, 4)
    rng = random.Random(4)
    checked = 0
    while not state["over"]:
        ask = state["asks"][0]
        if rng.random() < 0.3:
            for secret_of in range(6):
                other = hide_differently(state, secret_of, rng)
                for viewer in [PUBLIC] + list(range(6)):
                    if not may_see(state, viewer, secret_of):
                        assert view(other, viewer) == view(state, viewer)
                        checked += 1
        ok = fresh(state, ask)
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ok or ask["choices"])})
    assert checked > 500


# --- taps at each reader --------------------------------------------------------------------------------

class Link:
    """A board that records what the host told its LEDs."""

    def __init__(self):
        self.calls = []

    def set_segment(self, seg, level, rgb, pattern, period):
        self.calls.append((seg, level, tuple(rgb), pattern, period))


def runner_for(t, players=None):
    session = Session(t.state, events=t.events)
    said = []
    r = TableRunner(session, P.for_game("oathbreaker", players or t.g["n"]), sim_tags(t.state), report=said.append)
    link = Link()
    r.attach(link)
    return r, said, link


def tap(runner, place, card):
    reader = [r["name"] for r in runner.profile["readers"]].index(P.places(runner.profile)[place])
    runner.on_tap(Tap(reader, "placed", bytes.fromhex(sim_uid(card)), 1))


def at_first_turn(players=6, **config):
    t = Table(players, **config)
    t.mission_deck_top("feed-flea-bottom#1", "hire-the-faceless-men#1", "summit-of-queens#1")
    t.hand(1, "sabotage#1", "crown#1", "raven#1")
    t.start(1)
    return t


def test_an_influence_card_tapped_on_a_missions_reader_is_played_there_face_down():
    t = at_first_turn()
    r, said, _ = runner_for(t)
    tap(r, "mission1", "sabotage#1")
    m = t.g["missions"][1]
    assert m["cards"] == ["sabotage#1"] and m["counts"][1] == 1 and not said
    played = t.events[-1] if t.events[-1]["e"] == "played" else t.emitted("played")[-1]
    assert played == {"e": "played", "seat": 1, "mission": 1}
    # On the noble's own reader the card fits both missions: it waits for the pick, and the host
    # display says how many places, never which card.
    tap(r, 1, "crown#1")
    assert r.pending[1]["choices"] == [["play", "crown#1", 0], ["play", "crown#1", 1]]
    assert said == ["seat 1: the tapped card fits in 2 places; choose one privately"]
    assert r.choose_pending(1, 0).ok and t.g["missions"][0]["cards"] == ["crown#1"]
    # A card from another noble's hand tapped on a mission: refused, and the card is not named.
    other = t.g["hands"][2][0]
    tap(r, "mission0", other)
    assert said[-1] == "refused: a card on mission0: that card cannot be used for this decision"
    assert other not in t.g["missions"][0]["cards"]


def test_a_decree_tapped_on_a_nobles_reader_is_played_on_that_noble_and_a_proclamation_on_the_kings():
    t = Table(6)
    t.start(1)
    t.to_decree_round()
    t.decree_hand(0, "hero-of-the-people#1", "confess#1", "sim-decree-01#1", "sim-decree-02#1", "sim-decree-04#1")
    r, said, _ = runner_for(t)
    targets = sorted({c[2] for c in t.ask(0)["choices"] if len(c) > 2})
    tap(r, targets[0], "sim-decree-01#1")  # a Favor on the noble's reader
    assert t.g["decrees"][targets[0]] == [{"card": "sim-decree-01#1", "by": 0, "sideways": False}]
    assert t.emitted("decree")[-1]["target"] == targets[0] and not said
    t.to_decree_round()  # the next Decree Round: two decrees
    # The spread rule keeps that noble out now: refused, and the host display does not name the decree.
    tap(r, targets[0], "sim-decree-02#1")
    assert said == ["refused: a card on seat%d: that card cannot be used for this decision" % targets[0]]
    # On the King's own reader a decree with a target waits for the noble, picked privately.
    tap(r, 0, "sim-decree-02#1")
    held = r.pending[0]["choices"]
    assert len(held) > 1 and all(c[:2] == ["decree", "sim-decree-02#1"] for c in held)
    assert r.choose_pending(0, 0).ok and t.g["decrees"][held[0][2]][-1]["card"] == "sim-decree-02#1"
    # A decree put to the vote is played from the King's own reader at once.
    tap(r, 0, "hero-of-the-people#1")
    assert t.emitted("vote_called")[-1]["card"] == "hero-of-the-people#1" and t.ask()["kind"] == "vote"
    assert not [line for line in said if "ero of" in line or "imulation" in line]


def test_at_eight_players_the_throne_reader_serves_both_monarchs_and_a_shared_reader_two_missions():
    t = Table(8)
    t.mission_deck_top("pincer-maneuver#1", "feed-flea-bottom#1", "hire-the-faceless-men#1", "summit-of-queens#1")
    hand = t.g["hand_of_king"] if t.g["hand_of_king"] is not None else 2
    t.start(2)
    assert len(t.g["missions"]) == 4
    r, said, _ = runner_for(t)
    seat = t.ask()["seat"]
    card = t.g["hands"][seat][0]
    tap(r, "mission2+3", card)  # the shared reader: mission 3 or 4
    assert r.pending[seat]["choices"] == [["play", card, 2], ["play", card, 3]]  # the noble picks
    assert said[-1] == "mission2+3: the tapped card fits in 2 places; choose one privately"
    assert r.choose_pending(seat, 1).ok and t.g["missions"][3]["counts"][seat] == 1
    t.to_decree_round()
    monarch = t.ask()["seat"]
    assert monarch in (0, 1)
    decree = next(c for c in t.ask()["choices"] if len(c) > 2)
    tap(r, decree[2], decree[1])
    assert t.g["decrees"][decree[2]][-1]["card"] == decree[1] and t.g["decrees"][decree[2]][-1]["by"] == monarch
    del hand


def test_a_house_sigil_or_a_mission_card_picks_the_mission():
    t = at_first_turn()
    r, said, _ = runner_for(t)
    t.choose(1, "play", "sabotage#1", 0)
    t.choose(1, "play", "crown#1", 1)
    t.choose(1, "done")
    assert t.ask()["kind"] == "sigil"
    board = cardtables.get(t.g["table"])["info"][t.g["characters"][1]]["board"]
    tap(r, "mission0", "sigil:" + [b for b in ("stark", "tyrell") if b != board][0])  # someone else's sigil
    assert said[-1].startswith("refused: the ") and t.ask()["kind"] == "sigil"
    tap(r, "mission1", "sigil:" + board)
    assert t.g["missions"][1]["sigils"] == [1]
    t.auto(lambda t: t.ask()["kind"] == "resolve")
    tap(r, 0, t.g["missions"][1]["card"])  # the King taps the mission card to resolve it first
    assert [h["mission"] for h in t.g["history"]] == [1, 0]


def test_the_simulated_table_knows_a_tap_for_every_card_choice():
    t = at_first_turn()
    state = t.state
    ask = t.ask()
    for choice in ask["choices"]:
        if choice[0] == "play":
            assert command_for_tap(state, "mission%d" % choice[2], choice[1])[0] == \
                {"seat": 1, "ask": ask["id"], "choice": choice}


# --- LEDs ----------------------------------------------------------------------------------------------

def test_leds_show_the_tracks_the_hand_the_monarchs_and_who_must_act():
    t = Table(8)
    t.start(3)
    segs = otable.segments(t.view(PUBLIC))
    assert segs["seat0"][1] == segs["seat1"][1] == otable.MONARCH
    assert t.ask()["seat"] == 3 and segs["seat3"][1:3] == (lights.TO_ACT, "pulse")
    assert segs["seat4"][1] == lights.IDLE
    assert segs["round"][0] == 0 and segs["order"][0] == 0 == segs["chaos"][0]
    t.auto(lambda t: t.ask()["seat"] == 4)
    segs = otable.segments(t.view(PUBLIC))
    assert segs["seat3"][1:3] == (otable.HAND, "solid") and segs["seat4"][2] == "pulse"
    t.auto(lambda t: t.g["space"] >= 1)
    segs = otable.segments(t.view(PUBLIC))
    assert segs["round"][0] == 1 and (segs["order"][0] or segs["chaos"][0])


@pytest.mark.parametrize("observe", [[], ["hands", "missions"]])
def test_leds_never_change_with_hidden_information(observe):
    state, _ = new_game("oathbreaker", {"players": 7, "observe": observe, "owner_cards": False}, 6)
    rng = random.Random(6)
    checked = 0
    shown = set()
    while not state["over"]:
        segs = otable.segments(view(state, PUBLIC))
        shown.add(repr(sorted(segs.items())))
        if rng.random() < 0.2:
            for secret_of in range(7):
                other = hide_differently(state, secret_of, rng)
                assert otable.segments(view(other, PUBLIC)) == segs
                checked += 1
        ask = state["asks"][0]
        ok = fresh(state, ask)
        apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ok or ask["choices"])})
    assert checked > 100 and len(shown) > 20  # ...while the public game moves them a lot


# --- face-down plays by tap are traceable to no seat -----------------------------------------------------

def twins(x, y):
    """Two tables at the first turn, seats 1 and 2 holding x and y, or the other way round."""
    out = []
    for a, b in ((x, y), (y, x)):
        t = Table(6, seed=3)
        t.mission_deck_top("feed-flea-bottom#1", "hire-the-faceless-men#1")
        t.hand(1, a, "raven#9", "raven#8")
        t.hand(2, b, "raven#10", "raven#7")
        t.start(1)
        out.append(t)
    return out


def public_record(t, r, said, link):
    return (view(t.state, PUBLIC), filter_events(t.events, PUBLIC), list(said), list(link.calls))


def test_a_mission_play_by_tap_shows_on_no_public_channel_which_card_a_seat_played():
    x, y = "sabotage#1", "double-crown#1"
    ta, tb = twins(x, y)
    ra, rb = runner_for(ta), runner_for(tb)
    swap = {x: y, y: x}
    for seat in (1, 2):
        for t, (r, said, link), mine in ((ta, ra, (x, y)[seat - 1]), (tb, rb, (y, x)[seat - 1])):
            other = 3 - seat
            tap(r, "mission1", t.g["hands"][other][0])  # a slip: another noble's card, not their turn
            tap(r, "mission0", mine)  # the secret card, face down
            tap(r, seat, "raven#9" if seat == 1 else "raven#10")  # on the own reader it waits for its mission...
            r.choose_pending(seat, 1)  # ...picked privately
            t.choose(seat, "done")
            if t.state["asks"] and t.ask()["kind"] == "sigil":
                t.choose(seat, "sigil", 0)
            tap_deal(t)
        assert public_record(ta, *ra) == public_record(tb, *rb)
    assert any("refused: a card on mission1" in line for line in ra[1])
    # Nothing that names the secret cards reached the host display at all.
    assert not [line for line in ra[1] + rb[1] if "abotage" in line or "rown" in line]
    # Play on alike to the end of the round: the public record stays the same, the states meet.
    rng = random.Random(5)
    while ta.g["space"] < 1:
        ask = ta.ask()
        choice = rng.choice(ask["choices"])
        twin = [swap.get(c, c) if ask["seat"] in (1, 2) and isinstance(c, str) else c for c in choice]
        ra[0].submit({"seat": ask["seat"], "ask": ask["id"], "choice": choice})
        rb[0].submit({"seat": ask["seat"], "ask": ask["id"], "choice": twin})
        assert public_record(ta, *ra) == public_record(tb, *rb)
    assert ta.state == tb.state


# --- whole games by taps on the simulated board ------------------------------------------------------

@pytest.mark.parametrize("players,observe", [(5, []), (8, ["hands", "missions"])])
def test_a_game_played_by_taps_on_the_simulated_table_ends_as_the_same_commands(tmp_path, players, observe):
    config = {"players": players, "observe": observe, "owner_cards": False}
    session = Session.new("oathbreaker", config, 8, log_path=tmp_path / "t.sqlite")
    direct, _ = new_game("oathbreaker", config, 8)
    said = []
    sim = SimTable(session, report=said.append)
    info = cardtables.table(session.state)["info"]
    bots = [make_bot("oathbreaker", "heuristic", 8, s, info) for s in range(players)]
    rng = random.Random(8)
    moves = by_host = picked = 0
    try:
        while not session.state["over"]:
            state = session.state
            ask = state["asks"][0]
            ok = fresh(state, ask)
            if ask["kind"] == "observe_mission" and ["mission", "pincer-maneuver#1"] in ok:
                choice = ["mission", "pincer-maneuver#1"]  # four missions: the shared reader is used
            elif ok is not None:
                choice = rng.choice(ok)
            else:
                choice = bots[ask["seat"]].choose(core.view(state, ask["seat"]), ask)
            command = {"seat": ask["seat"], "ask": ask["id"], "choice": choice}
            if sim.tap_for(command) is None:
                pick = sim.pick_for(command)
                by_host += pick is None
                picked += pick is not None
            assert sim.submit(command).ok
            assert apply(direct, command).ok
            moves += 1
        for seat in session.state["result"]["winners"]:
            assert sim.link.segments[sim.runner.seg_ids["seat%d" % seat]][1] == lights.WINNER
    finally:
        sim.close()
        session.close()
    assert session.state == direct
    assert sim.taps == moves - by_host and not said  # every other move a tap; nothing refused
    assert sim.taps > 2 * by_host  # mostly taps
    assert bool(picked) == (players == 8)  # four missions at eight: the shared reader asks for the pick
