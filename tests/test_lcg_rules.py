"""LCG (1st edition Core Set) rules as scenarios: the rulebook's own examples, then every phase, the
titles, every keyword and the variants. Each test arranges a position with real card instances
(lcg_harness.Table) and plays it through the engine's asks, as players would.

Plots are chosen for what their printed numbers do; a plot's own text is avoided where it could
touch the scenario (the "Mutual" plots only act with two or more opponents, Planning Ahead only at
taxation). Card facts come from cards_db/lcg/cards.json.
"""

import itertools
import json

import pytest

from lcg_harness import Table, table_with
from maester.engine import PUBLIC, core, filter_events
from maester.games.lcg import abilities as A
from maester.games.lcg import effects as E
from maester.games.lcg import model as M
from maester.games.lcg import ordering
from maester.games.lcg.sampling import copy_state, determinise
from maester.sim import play_one

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

# Plots: (income, initiative, claim)
MUTUAL_ENEMIES = "S196"     # Stark 2/2/2 (acts only with 2+ opponents)
BUILDING_SEASON = "S195"    # Stark 4/1/1
CALM_OVER_WESTEROS = "S198"  # Stark 4/3/1 (acts only on events played)
POWER_OF_ARMS = "S200"      # Stark 3/1/2 (+2 STR to its player's War crest characters)
MUTUAL_BLACKMAIL = "L189"   # Lannister 3/1/2 (acts only with 2+ opponents)
PLANNING_AHEAD = "L190"     # Lannister 3/0/1 (no taxation this round)
MUTUAL_CAUSE = "B182"       # Baratheon 3/3/2 (acts only with 2+ opponents)
UNEASY_TRUCE = "B183"       # Baratheon 4/0/1
COUNTING_FAVORS = "T203"    # Targaryen 3/3/1


def p(code, seat):
    return "%s#%d" % (code, seat)


def power_events(t, why=None):
    return [e for e in t.events if e["e"] == "power" and (why is None or e["why"] == why)]


# === the rulebook's examples ==========================================================================

def test_marshalling_example_income_eight_two_cards_and_one_gold_kept_until_taxation():
    """Darrell (Stark) reveals a 4-income plot and controls 4 locations worth +4: 8 gold. He plays
    Eddard Stark (4) and Jon Snow (neutral, 3, no penalty), has no 1-cost card and ends his turn;
    the last gold stays in his pool until the taxation phase."""
    t = Table(2, decks=["stark", "lannister"])
    for loc in ("S28", "S29", "S30", "S138"):       # Lord Eddard's Chambers, Great Keep x2, Crossroads
        t.play(p(loc, 0))
    t.hand(0, p("S5", 0), p("S136", 0), p("S6", 0), p("S8", 0), p("S156", 0))  # + Catelyn 3, Robb 4, a Challenges event
    t.plots(p(CALM_OVER_WESTEROS, 0), p(PLANNING_AHEAD, 1))   # (Building Season would search the deck)
    t.choose(0, "first", 0)
    t.until_ask("marshal", 0)
    assert [e for e in t.events if e["e"] == "income"][-1] == {"e": "income", "seat": 0, "gold": 8}
    assert t.g["players"][0]["gold"] == 8
    bank = t.g["bank"]["gold"]
    t.choose(0, "marshal", p("S5", 0))
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert t.g["players"][0]["gold"] == 4 and t.g["bank"]["gold"] == bank + 4
    t.choose(0, "marshal", p("S136", 0))
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert t.g["players"][0]["gold"] == 1 and t.g["bank"]["gold"] == bank + 7
    # Nothing in hand costs 1 or less: only "done" is left.
    assert t.choices(0) == [["done"]]
    t.choose(0, "done")
    assert {t.where(p("S5", 0)), t.where(p("S136", 0))} == {"play"}
    # Eddard entered play (not at setup): he claims 1 power as he does.
    assert t.g["cards"][p("S5", 0)]["power"] == 1
    t.until_ask("challenge", 0)
    assert t.g["players"][0]["gold"] == 1
    # Dominance counts it (Eddard 3 + Jon Snow 3 standing, + 1 gold); taxation then takes it back.
    t.auto(lambda t: t.g["round"] == 2)
    assert [e for e in t.events if e["e"] == "dominance"][-1]["totals"][0] == 7
    assert t.g["players"][0]["gold"] == 0


def challenge_example(cards=None, sansa_dup=None):
    """Darrell (Lannister, seat 0, claim 1) against Brian (Stark, seat 1), up to the defenders."""
    t = Table(2, decks=["lannister", "stark"], cards=cards)
    t.play(p("L46", 0))                                   # Raff the Sweetling, STR 2
    t.play(p("S14", 1))                                   # Grey Wind, STR 4
    t.play(p("S9", 1))                                    # Sansa Stark
    if sansa_dup:
        t.dup(sansa_dup, p("S9", 1))
    t.hand(0, p("L163", 0))                               # Insidious Ways
    t.hand(1, p("S18", 1))
    t.plots(p(PLANNING_AHEAD, 0), p(MUTUAL_ENEMIES, 1))   # claim 1 for Darrell
    t.choose(1, "first", 0)                               # Brian won initiative (2 against 0)
    t.declare(0, "military", 1, p("L46", 0))
    t.defend(1, p("S14", 1))
    return t


def play_insidious_ways(t, seat, target):
    t.until_ask("action", seat)
    t.choose(seat, "action", p("L163", seat), 0)
    t.choose(seat, "target", target)


def test_challenge_example_insidious_ways_ties_and_the_attacker_wins_the_military_claim():
    t = challenge_example()
    assert t.g["challenge"]["defenders"] == [p("S14", 1)]
    hand = len(t.g["players"][0]["hand"])
    play_insidious_ways(t, 0, p("L46", 0))
    assert t.strength(p("L46", 0)) == 4
    t.until_ask("claim_kill", 1)
    result = t.result()
    assert (result["attack"], result["defence"], result["winner"], result["unopposed"]) == (4, 4, 0, False)
    # No unopposed bonus: Brian defended with STR above zero.
    assert not power_events(t, "unopposed") and t.g["players"][0]["power"] == 0
    # Brian chooses any of his characters, not only a participant.
    assert sorted(t.choices(1)) == [["kill", p("S14", 1)], ["kill", p("S9", 1)]]
    t.choose(1, "kill", p("S9", 1))
    t.finish_challenge()
    assert t.where(p("S9", 1)) == "dead" and t.where(p("S14", 1)) == "play"
    # Insidious Ways: Darrell won, so he draws 2; the event went to his discard pile.
    assert len(t.g["players"][0]["hand"]) == hand - 1 + 2
    assert t.where(p("L163", 0)) == "discard"


SECOND_SANSA = {"extra": {"S9b": {"of": "S9", "duplicate_of": "S9"}}}


def stark_with(*codes, of=None):
    table = table_with(**(of or {}))
    deck = dict(table["decks"]["stark"])
    deck["draw"] = deck["draw"] + list(codes)
    table["decks"]["stark"] = deck
    return table


def test_challenge_example_a_duplicate_saves_sansa_and_a_dead_unique_cannot_be_played_again():
    cards = stark_with("S9b", of=SECOND_SANSA)
    t = challenge_example(cards, sansa_dup="S9b#1")
    play_insidious_ways(t, 0, p("L46", 0))
    t.until_ask("claim_kill", 1)
    t.choose(1, "kill", p("S9", 1))
    assert t.ask(1)["kind"] == "save" and ["dup", "S9b#1"] in t.choices(1)
    t.choose(1, "dup", "S9b#1")
    t.finish_challenge()
    assert t.where(p("S9", 1)) == "play" and t.where("S9b#1") == "discard"
    # Without the duplicate Sansa dies; another copy can then never be played.
    t2 = challenge_example(cards)
    play_insidious_ways(t2, 0, p("L46", 0))
    t2.until_ask("claim_kill", 1)
    t2.choose(1, "kill", p("S9", 1))
    t2.finish_challenge()
    assert t2.where(p("S9", 1)) == "dead"
    t2.hand(1, "S9b#1", p("S18", 1))
    t2.to_phase("marshalling")
    t2.gold(1, 10)
    t2.until_ask("marshal", 1)
    assert ["marshal", p("S18", 1)] in t2.choices(1)
    assert not [c for c in t2.choices(1) if "S9b#1" in c]
    assert M.unique_blocked(t2.state, 1, "S9b#1") == "Sansa Stark is in your dead pile"


def test_lasting_effects_example_plus_two_and_minus_two_leave_the_printed_strength():
    """Tyrion (STR 3) under Insidious Ways (+2) and Poisoned Wine (-2) is STR 3."""
    t = Table(2, decks=["lannister", "targaryen"])
    t.play(p("L38", 0))
    t.play(p("T101", 1), seat=1, on=p("L38", 0))        # the wine is played by its owner on Tyrion
    assert t.strength(p("L38", 0)) == 1
    t.hand(0, p("L163", 0))
    t.hand(1, p("T105", 1))
    t.plots(p(PLANNING_AHEAD, 0), p("T207", 1))
    t.choose(1, "first", 0)
    t.declare(0, "intrigue", 1, p("L38", 0))
    play_insidious_ways(t, 0, p("L38", 0))
    assert t.strength(p("L38", 0)) == 3
    # Lasting until the end of the phase: the challenges phase over, only the wine is left.
    t.auto(lambda t: t.g["phase"] != "challenges" and t.state["asks"] or t.g["round"] == 2)
    assert t.strength(p("L38", 0)) == 1


def test_strength_is_the_net_of_every_modifier_from_scratch_and_never_below_zero():
    """Raff (STR 2) with Poisoned Wine (-2) is 0; Forever Burning (-1) leaves him at 0, not -1;
    Insidious Ways (+2) then makes him 1 (2 - 2 - 1 + 2), not 2."""
    t = Table(2, decks=["lannister", "targaryen"])
    t.play(p("L46", 0))
    t.play(p("T101", 1), seat=1, on=p("L46", 0))
    t.hand(0, p("L163", 0))
    t.hand(1, p("T174", 1))                                 # Forever Burning (Deathbound)
    t.plots(p(PLANNING_AHEAD, 0), p("T207", 1))
    t.choose(1, "first", 0)
    t.declare(0, "military", 1, p("L46", 0))
    assert t.strength(p("L46", 0)) == 0
    t.until_ask("action", 1)
    t.choose(1, "action", p("T174", 1), 0)
    t.choose(1, "target", p("L46", 0))
    t.auto(lambda t: t.ask()["kind"] == "action")
    assert t.strength(p("L46", 0)) == 0
    # Forever Burning was played and resolved: Deathbound puts it in the dead pile.
    assert t.where(p("T174", 1)) == "dead"
    play_insidious_ways(t, 0, p("L46", 0))
    assert t.strength(p("L46", 0)) == 1
    t.finish_challenge()
    r = t.result()
    assert r["attack"] == 1 and r["winner"] == 0 and r["unopposed"]


# --- titles: support and opposition ------------------------------------------------------------

def four_houses():
    return Table(4, decks=["lannister", "stark", "baratheon", "targaryen"])


def start_melee(t, titles, plots=None, first=0):
    """Choose plots (Baratheon's Rains of Autumn wins initiative), the first player and titles."""
    plots = plots or [p(PLANNING_AHEAD, 0), p("S198", 1), p("B184", 2), p("T207", 3)]
    t.plots(*plots)
    t.choose(2, "first", first)
    for seat in M.order_from(t.g, first):
        t.choose(seat, "title", titles[seat])


SUPPORT_TITLES = ["hand_of_the_king", "master_of_laws", "master_of_coin", "master_of_whispers"]


def support_example(jamie_defenders):
    """Greg (seat 0) attacks Sara (Master of Laws, seat 1) in a military challenge and uses stealth
    on her only eligible defender; she declares none; Jamie (Master of Coin, seat 2) may defend."""
    t = four_houses()
    t.play(p("L43", 0))                                 # Chella, STR 3, stealth
    t.play(p("S18", 1))                                 # Knight of the Tumblestone, STR 2
    t.play(p("B76", 2))                                 # Brienne of Tarth, STR 3, renown
    t.play(p("B75", 2))                                 # Ser Davos Seaworth, STR 3
    t.play(p("B84", 2))                                 # Old Red Priest, STR 1
    start_melee(t, SUPPORT_TITLES)
    # Jamie's title supports Sara's: he may not challenge her.
    t.until_ask("challenge", 0)
    assert ["challenge", "military", 3] not in t.choices(0)      # Greg supports the Master of Whispers
    t.declare(0, "military", 1, p("L43", 0))
    t.until_ask("stealth", 0)
    t.choose(0, "stealth", p("L43", 0), p("S18", 1))
    t.defend(2, *jamie_defenders)
    return t


def test_support_example_the_supporter_defends_wins_and_is_the_winner():
    t = support_example([p("B76", 2), p("B75", 2)])
    assert t.g["challenge"]["supporter"] == 2 and t.g["challenge"]["target"] == 1
    t.finish_challenge()
    r = t.result()
    assert (r["attack"], r["defence"], r["winner"]) == (3, 6, 2)
    # Jamie is the winner for keywords: Brienne's renown.
    assert t.g["cards"][p("B76", 2)]["power"] == 1
    assert t.where(p("S18", 1)) == "play" and not t.asks_of("claim_kill")


def test_support_example_the_supporter_loses_and_the_target_still_satisfies_the_claim():
    t = support_example([])
    # No supporter either: the challenge is unopposed against Sara.
    t.auto(lambda t: t.ask()["kind"] == "claim_kill")
    assert t.ask()["seat"] == 1 and t.result()["unopposed"]
    t = support_example([p("B84", 2)])
    E.lasting(t.g, "keyword", p("B84", 2), "vengeful", "round", None)
    t.until_ask("claim_kill")
    r = t.result()
    assert (r["attack"], r["defence"], r["winner"], r["unopposed"]) == (3, 1, 0, False)
    assert t.ask()["seat"] == 1 and t.choices(1) == [["kill", p("S18", 1)]]
    t.choose(1, "kill", p("S18", 1))
    # Jamie is the loser: his Vengeful card may stand.
    t.until_ask("vengeful", 2)
    assert t.choices(2) == [["stand", p("B84", 2)], ["done"]]
    t.choose(2, "stand", p("B84", 2))
    t.finish_challenge()
    assert t.where(p("S18", 1)) == "dead" and not t.g["cards"][p("B84", 2)]["kneel"]


def test_support_applies_only_when_the_target_declares_no_defenders():
    t = four_houses()
    t.play(p("L43", 0))
    t.play(p("S18", 1))
    t.play(p("B76", 2))
    start_melee(t, SUPPORT_TITLES)
    t.declare(0, "military", 1, p("L43", 0))
    t.until_ask("stealth", 0)
    t.choose(0, "done")
    t.defend(1, p("S18", 1))
    t.finish_challenge()
    assert not [a for a in t.events if a["e"] == "defenders" and a["seat"] == 2]
    assert t.result()["winner"] == 0


def test_opposition_gives_one_power_once_a_round():
    """The Master of Whispers opposes the Master of Laws and the Crown Regent: winning against one
    of them claims 1 power for the House, once a round only."""
    t = four_houses()
    t.play(p("L38", 0))                                 # Tyrion: intrigue, power
    t.play(p("L40", 0))                                 # Tywin: military, intrigue, power
    start_melee(t, ["master_of_whispers", "master_of_laws", "crown_regent", "hand_of_the_king"])
    t.declare(0, "intrigue", 1, p("L38", 0))
    t.until_ask("redirect", 2)
    t.choose(2, "pass")                                 # the Crown Regent lets it through
    t.finish_challenge()
    assert t.result()["winner"] == 0
    assert len(power_events(t, "opposed title")) == 1 and len(power_events(t, "unopposed")) == 1
    t.declare(0, "power", 2, p("L40", 0))
    t.until_ask("redirect", 2)
    t.choose(2, "pass")
    t.finish_challenge()
    assert t.result()["winner"] == 0
    assert len(power_events(t, "opposed title")) == 1 and len(power_events(t, "unopposed")) == 2
    assert t.g["players"][0]["power"] == 3


# --- cancels: costs stay paid ---------------------------------------------------------------------

def _cancel_it(ctx, src, seat, target, ev):
    pass  # the framework marks the ability it answered as cancelled


def test_cancel_example_the_cancelled_ability_stays_paid_and_does_nothing(monkeypatch):
    """No Core card cancels: a test card (Distraction given a cancel response) answers Poisoned
    Wine's move, paid by kneeling 1 influence. The influence stays knelt; the wine does not move."""
    monkeypatch.setitem(A.ABILITIES, "S155", [A.Ability("cancel", _cancel_it)])
    t = Table(2, decks=["targaryen", "stark"])
    t.play(p("T127", 0))                                # Eastern Fiefdoms: 1 influence
    t.play(p("T105", 0))                                # Captain Groleo
    t.play(p("S18", 1))
    t.play(p("T101", 0), on=p("S18", 1))                # Poisoned Wine on Brian's knight
    t.hand(0, p("T106", 0))
    t.hand(1, p("S155", 1))
    t.plots(p("T207", 0), p(MUTUAL_ENEMIES, 1))
    t.choose(0, "first", 0)
    t.until_ask("action", 0)
    t.choose(0, "action", p("T101", 0), 0)
    t.choose(0, "target", p("T105", 0))
    t.choose(0, "kneel_influence", p("T127", 0))
    assert t.ask()["kind"] == "cancel" and t.ask()["seat"] == 1
    t.choose(1, "cancel", p("S155", 1), 0)
    t.auto(lambda t: t.ask()["kind"] != "cancel")
    assert t.g["cards"][p("T127", 0)]["kneel"]                       # the cost stays paid
    assert t.g["cards"][p("T101", 0)]["on"] == p("S18", 1)          # the effect did not happen
    assert [e for e in t.events if e["e"] == "canceled"] == [{"e": "canceled", "card": p("T101", 0), "seat": 0}]
    assert t.where(p("S155", 1)) == "discard"


def test_hand_kinds_kept_per_deck_list_are_what_the_seats_cards_give_and_follow_a_changed_ability(monkeypatch):
    """Setup asks hand_kinds once per deck list and card table (abilities.HAND_KINDS), not of every
    card of every game: each seat's must be what a scan of its cards finds, and a game started after
    an ability changed (a test card's) must see the change."""
    def first_seat_kinds():
        state, _ = core.new_game("lcg", {"players": 2, "decks": ["stark", "lannister"]}, 1)
        for seat in range(2):
            assert state["g"]["players"][seat]["hand_kinds"] == list(A._hand_kinds(state, seat))
        return state["g"]["players"][0]["hand_kinds"]

    assert "cancel" not in first_seat_kinds()  # no Core card cancels
    kept, again = first_seat_kinds(), first_seat_kinds()
    assert kept == again and kept is not again  # the kept answer, in a list of each game's own
    monkeypatch.setitem(A.ABILITIES, "S155", [A.Ability("cancel", _cancel_it)])
    assert "cancel" in first_seat_kinds()


def test_poisoned_wine_moves_only_onto_a_character_it_may_be_attached_to():
    t = Table(2, decks=["targaryen", "stark"])
    t.play(p("T127", 0))
    t.play(p("T105", 0))
    t.play(p("S18", 1))
    t.play(p("S14", 1))                                 # Grey Wind: No attachments
    t.play(p("T101", 0), on=p("S18", 1))
    t.hand(0, p("T106", 0))
    t.plots(p("T207", 0), p(MUTUAL_ENEMIES, 1))
    t.choose(0, "first", 0)
    t.until_ask("action", 0)
    t.choose(0, "action", p("T101", 0), 0)
    assert t.choices(0) == [["target", p("T105", 0)]]


def test_a_cancelled_deathbound_event_goes_to_the_discard_pile(monkeypatch):
    monkeypatch.setitem(A.ABILITIES, "S155", [A.Ability("cancel", _cancel_it)])
    t = Table(2, decks=["targaryen", "stark"])
    t.play(p("S18", 1))
    t.hand(0, p("T174", 0))
    t.hand(1, p("S155", 1))
    t.plots(p("T207", 0), p(MUTUAL_ENEMIES, 1))
    t.choose(0, "first", 0)
    t.until_ask("action", 0)
    t.choose(0, "action", p("T174", 0), 0)
    t.choose(0, "target", p("S18", 1))
    t.choose(1, "cancel", p("S155", 1), 0)
    t.auto(lambda t: t.ask()["kind"] != "cancel")
    assert t.where(p("T174", 0)) == "discard" and t.strength(p("S18", 1)) == 2


# === phase 1: plot =================================================================================

def test_plots_are_chosen_in_secret_and_revealed_only_when_everyone_has_chosen():
    t = Table(3, decks=["stark", "lannister", "baratheon"])
    assert {a["seat"] for a in t.asks_of("plot")} == {0, 1, 2}
    t.choose(1, "plot", p(PLANNING_AHEAD, 1))
    g = t.g
    assert g["players"][1]["revealed"] is None and g["players"][1]["chosen"] == p(PLANNING_AHEAD, 1)
    for viewer in (PUBLIC, 0, 2):
        seat1 = t.view(viewer)["seats"][1]
        assert seat1["has_chosen"] and "chosen" not in seat1 and p(PLANNING_AHEAD, 1) not in str(t.view(viewer))
    assert t.view(1)["seats"][1]["chosen"] == p(PLANNING_AHEAD, 1)
    assert filter_events(t.events, PUBLIC)[-1] == {"e": "plot_chosen", "seat": 1}
    # Seat 1 may not choose again; the others still choose.
    assert not [a for a in t.state["asks"] if a["seat"] == 1]
    t.choose(0, "plot", p(BUILDING_SEASON, 0))
    assert g["players"][0]["revealed"] is None
    t.choose(2, "plot", p(MUTUAL_CAUSE, 2))
    assert [g["players"][s]["revealed"] for s in range(3)] == [p(BUILDING_SEASON, 0), p(PLANNING_AHEAD, 1),
                                                                 p(MUTUAL_CAUSE, 2)]
    assert [e for e in t.events if e["e"] == "plots_revealed"][-1]["plots"] == [
        p(BUILDING_SEASON, 0), p(PLANNING_AHEAD, 1), p(MUTUAL_CAUSE, 2)]


def test_the_highest_initiative_wins_and_chooses_any_first_player():
    t = Table(3, decks=["stark", "lannister", "baratheon"])
    t.plots(p(POWER_OF_ARMS, 0), p(PLANNING_AHEAD, 1), p(MUTUAL_CAUSE, 2))   # initiative 1, 0, 3
    assert t.ask()["seat"] == 2 and t.ask()["kind"] == "first_player"
    assert t.choices(2) == [["first", 0], ["first", 1], ["first", 2]]
    t.choose(2, "first", 1)
    assert t.g["first"] == 1 and t.g["initiative"] == 2
    t.choose(2, "target", 0)  # Mutual Cause acts with two opponents: seats 2 and 0 make no power challenge on each other
    # The first player chooses a title first, then clockwise; the phases then go from them too.
    assert t.ask()["kind"] == "title" and t.ask()["seat"] == 1
    t.play(p("S18", 0))
    t.play(p("L46", 1))
    t.play(p("B72", 2))
    t.auto(lambda t: t.g["round"] == 2)
    assert [e["seat"] for e in t.emitted("income")] == [1, 2, 0]
    assert [a[0] for a in t.asked if a[1] == "challenge"] == [1, 2, 0]


def test_an_initiative_tie_goes_to_the_tied_player_with_the_least_power():
    t = Table(3, decks=["stark", "stark", "lannister"])
    t.power(0, 2)
    t.play(p("S5", 1), power=1)                         # power on a character counts too
    t.plots(p(MUTUAL_ENEMIES, 0), p(MUTUAL_ENEMIES, 1), p(MUTUAL_BLACKMAIL, 2))  # 2, 2, 1
    assert t.ask()["seat"] == 1 and t.ask()["kind"] == "first_player"
    t2 = Table(3, decks=["stark", "stark", "lannister"])
    t2.power(2, 0)
    t2.power(0, 1)
    t2.plots(p(MUTUAL_ENEMIES, 0), p(MUTUAL_ENEMIES, 1), p(MUTUAL_BLACKMAIL, 2))
    assert t2.ask()["seat"] == 1


def test_an_initiative_tie_with_equal_power_is_settled_at_random_among_the_tied():
    winners = set()
    for seed in range(12):
        t = Table(3, decks=["stark", "stark", "lannister"], seed=seed)
        t.plots(p(MUTUAL_ENEMIES, 0), p(MUTUAL_ENEMIES, 1), p(MUTUAL_BLACKMAIL, 2))
        winners.add(t.ask()["seat"])
    assert winners == {0, 1}


def test_the_plot_deck_comes_back_after_the_seventh_plot():
    t = Table(2, decks=["stark", "lannister"])
    plots = ["S195", "S196", "S197", "S198", "S199", "S200", "S201"]
    for rnd, code in enumerate(plots, 1):
        t.until_ask("plot", 0)
        assert t.g["round"] == rnd
        assert sorted(c[1] for c in t.choices(0)) == sorted(p(c, 0) for c in plots[rnd - 1:])
        t.choose(0, "plot", p(code, 0))
        t.choose(1, *t.choices(1)[0])
    t.auto(lambda t: t.asks_of("first_player"))
    me = t.g["players"][0]
    assert me["revealed"] == p("S201", 0) and len(me["used"]) == 6 and me["plots"] == []
    t.choose(t.ask()["seat"], "first", 0)     # the revealed plot takes effect; then the deck comes back
    assert sorted(me["plots"]) == sorted(p(c, 0) for c in plots[:6]) and me["used"] == []
    t.until_ask("plot", 0)
    assert sorted(c[1] for c in t.choices(0)) == sorted(p(c, 0) for c in plots[:6])
    t.choose(0, "plot", p("S196", 0))
    t.choose(1, *t.choices(1)[0])
    assert me["revealed"] == p("S196", 0) and me["used"] == [p("S201", 0)]


# === phase 2: draw ===================================================================================

def test_each_player_draws_two_and_an_empty_deck_draws_nothing():
    t = Table(3, decks=["stark", "lannister", "baratheon"])
    g = t.g
    for inst in g["players"][1]["deck"][1:]:
        t.to("discard", inst)
    for inst in list(g["players"][2]["deck"]):
        t.to("discard", inst)
    hands = [len(pl["hand"]) for pl in g["players"]]
    t.plots(p(POWER_OF_ARMS, 0), p(PLANNING_AHEAD, 1), p(MUTUAL_CAUSE, 2))
    t.choose(2, "first", 0)
    t.choose(2, "target", 0)  # Mutual Cause acts with two opponents
    for seat in range(3):
        t.choose(seat, "title", ["crown_regent", "lord_commander", "hand_of_the_king"][seat])
    t.auto(lambda t: t.g["phase"] == "marshalling")
    assert [len(pl["hand"]) - h for pl, h in zip(g["players"], hands)] == [2, 1, 0]
    assert {e["seat"]: e["count"] for e in t.events if e["e"] == "drew" and g["round"] == 1
            and t.events.index(e) > t.events.index(t.emitted("round")[0])} == {0: 2, 1: 1}


# === titles ==========================================================================================

def three_houses():
    return Table(3, decks=["lannister", "stark", "baratheon"])


def start3(t, titles, first=0):
    start_melee(t, titles, plots=[p(PLANNING_AHEAD, 0), p("S198", 1), p("B184", 2)], first=first)


ALL_TITLES = ["crown_regent", "hand_of_the_king", "lord_commander", "master_of_coin", "master_of_laws",
              "master_of_whispers"]


def test_titles_are_chosen_from_the_first_player_clockwise_and_all_return_each_round():
    t = four_houses()
    t.plots(p(PLANNING_AHEAD, 0), p("S198", 1), p("B184", 2), p("T207", 3))
    t.choose(2, "first", 2)
    taken = []
    for seat in (2, 3, 0, 1):
        ask = t.ask()
        assert ask["seat"] == seat and ask["kind"] == "title"
        assert sorted(c[1] for c in ask["choices"]) == sorted(set(ALL_TITLES) - set(taken))
        t.choose(seat, *ask["choices"][-1])
        taken.append(ask["choices"][-1][1])
    assert [t.g["players"][s]["title"] for s in (2, 3, 0, 1)] == taken
    t.until_ask("title")
    assert t.g["round"] == 2 and sorted(c[1] for c in t.ask()["choices"]) == ALL_TITLES


def test_titles_are_given_back_at_the_end_of_the_round():
    """Nobody holds a title between the end of a round and the next choice: the rulebook's taxation
    section sends every title back to the pool when the round ends (three players excepted)."""
    t = four_houses()
    start_melee(t, SUPPORT_TITLES)
    t.until_ask("plot")
    assert t.g["round"] == 2 and all(pl["title"] is None for pl in t.g["players"])
    assert all(s["title"] is None for s in t.view(PUBLIC)["seats"])
    t = three_houses()
    start3(t, ["crown_regent", "hand_of_the_king", "lord_commander"])
    t.until_ask("plot")
    assert [pl["title"] for pl in t.g["players"]] == ["crown_regent", "hand_of_the_king", "lord_commander"]


@pytest.mark.parametrize("players,variants", [(2, []), (4, ["two_on_two"])])
def test_no_titles_in_a_two_player_or_two_on_two_game(players, variants):
    t = Table(players, variants=variants)
    t.auto(lambda t: t.g["round"] == 3)
    assert not [e for e in t.events if e["e"] == "title"] and not t.g["melee"]
    assert all(pl["title"] is None for pl in t.g["players"])


def test_with_three_players_titles_return_only_after_a_round_that_empties_the_pool():
    t = three_houses()
    start3(t, ["crown_regent", "hand_of_the_king", "lord_commander"])
    assert t.g["title_pool"] == ["master_of_coin", "master_of_laws", "master_of_whispers"]
    t.until_ask("title")
    assert t.g["round"] == 2
    assert sorted(c[1] for c in t.ask()["choices"]) == ["master_of_coin", "master_of_laws", "master_of_whispers"]
    for seat in M.turn_order(t.g):
        t.choose(seat, *t.choices(seat)[0])
    assert t.g["title_pool"] == []
    t.until_ask("title")
    assert t.g["round"] == 3 and sorted(c[1] for c in t.ask()["choices"]) == ALL_TITLES


def test_master_of_laws_draws_a_third_card_outside_the_draw_cap():
    t = three_houses()
    hands = [len(pl["hand"]) for pl in t.g["players"]]
    start3(t, ["master_of_laws", "hand_of_the_king", "lord_commander"])
    t.to_phase("marshalling")
    assert [len(pl["hand"]) - h for pl, h in zip(t.g["players"], hands)] == [3, 2, 2]
    assert [pl["drawn_extra"] for pl in t.g["players"]] == [0, 0, 0]


def test_the_draw_cap_allows_three_cards_drawn_by_effects_in_a_round():
    t = Table(2, decks=["lannister", "stark"])
    t.play(p("L38", 0))                                 # Tyrion: pay 1 gold to draw 1 after a win
    t.hand(0, p("L163", 0))
    t.plots(p(PLANNING_AHEAD, 0), p(MUTUAL_ENEMIES, 1))
    t.choose(1, "first", 0)
    t.declare(0, "intrigue", 1, p("L38", 0))
    play_insidious_ways(t, 0, p("L38", 0))
    hand = len(t.g["players"][0]["hand"])
    t.until_ask("response", 0)
    t.choose(0, "respond", p("L38", 0), 0)
    t.finish_challenge()
    assert len(t.g["players"][0]["hand"]) == hand + 3 and t.g["players"][0]["drawn_extra"] == 3
    # Already 2 extra cards this round: Insidious Ways' 2 cards are cut to 1.
    t = Table(2, decks=["lannister", "stark"])
    t.play(p("L46", 0))
    t.hand(0, p("L163", 0))
    t.plots(p(PLANNING_AHEAD, 0), p(MUTUAL_ENEMIES, 1))
    t.choose(1, "first", 0)
    t.g["players"][0]["drawn_extra"] = 2
    t.declare(0, "military", 1, p("L46", 0))
    play_insidious_ways(t, 0, p("L46", 0))
    hand = len(t.g["players"][0]["hand"])
    t.finish_challenge()
    assert t.result()["winner"] == 0 and len(t.g["players"][0]["hand"]) == hand + 1


def test_the_draw_cap_counts_only_the_cards_really_drawn():
    """Insidious Ways draws 2 from a deck of 1: that is 1 card against the cap, so 2 more may be
    drawn this round (Tyrion's response, once the deck holds a card before his window)."""
    t = Table(2, decks=["lannister", "stark"])
    t.play(p("L38", 0))
    t.hand(0, p("L163", 0))
    t.plots(p(PLANNING_AHEAD, 0), p(MUTUAL_ENEMIES, 1))
    t.choose(1, "first", 0)
    t.declare(0, "intrigue", 1, p("L38", 0))
    t.gold(0, 3)
    for inst in t.g["players"][0]["deck"][1:]:
        t.to("discard", inst)
    t.g["players"][0]["drawn_extra"] = 1
    play_insidious_ways(t, 0, p("L38", 0))
    t.auto(lambda t: t.g["players"][0]["deck"] == [] or t.state["over"])
    assert t.g["players"][0]["drawn_extra"] == 2  # the 1 card really drawn, not the 2 asked for
    assert not any(a["kind"] == "response" and a["seat"] == 0 and ["respond", p("L38", 0), 0] in a["choices"]
                   for a in t.state["asks"])  # Tyrion: nothing to draw (a response event in the deck list still asks)


def test_master_of_coin_adds_two_to_income():
    t = three_houses()
    start3(t, ["master_of_coin", "hand_of_the_king", "lord_commander"])
    t.to_phase("challenges")
    incomes = {e["seat"]: e["gold"] for e in t.emitted("income")}
    assert incomes == {0: 3 + 2, 1: 4, 2: 4}


def test_the_hand_of_the_king_produces_two_influence_once_a_round():
    t = Table(3, decks=["targaryen", "stark", "baratheon"])
    t.play(p("T105", 0))
    t.play(p("S18", 1))
    t.play(p("T101", 0), on=p("S18", 1))                # Poisoned Wine: kneel 1 influence to move it
    t.hand(0, p("T106", 0))
    start_melee(t, ["hand_of_the_king", "lord_commander", "crown_regent"],
                plots=[p("T207", 0), p("S198", 1), p("B184", 2)])
    t.until_ask("action", 0)
    t.choose(0, "action", p("T101", 0), 0)
    t.choose(0, "target", p("T105", 0))
    assert t.ask()["kind"] == "influence" and t.choices(0) == [["title_influence"]]
    t.choose(0, "title_influence")
    t.auto(lambda t: t.g["cards"][p("T101", 0)]["on"] == p("T105", 0))
    assert t.g["title_used"]["hand_of_the_king"]
    # Spent for the round: the wine cannot move again (no other influence).
    t.auto(lambda t: t.g["round"] == 2)
    assert not [e for e in t.emitted("ability") if e["card"] == p("T101", 0)][1:]


def test_the_crown_regent_makes_the_attacker_choose_another_target_once_a_round():
    t = three_houses()
    t.play(p("L40", 0))                                 # Tywin: every icon
    t.play(p("L38", 0))
    start3(t, ["master_of_laws", "crown_regent", "lord_commander"])
    t.declare(0, "power", 1, p("L40", 0))
    assert t.ask()["kind"] == "redirect" and t.ask()["seat"] == 1
    t.choose(1, "redirect")
    assert t.ask()["seat"] == 0 and t.choices(0) == [["target", 2]]
    t.choose(0, "target", 2)
    assert t.g["challenge"]["defender"] == 2 and t.g["challenge"]["attackers"] == [p("L40", 0)]
    t.finish_challenge()
    assert t.result()["defender"] == 2
    # Used this round: the next challenge goes through.
    t.declare(0, "intrigue", 1, p("L38", 0))
    assert t.ask()["kind"] != "redirect"
    assert t.g["challenge"]["defender"] == 1


def test_the_lord_commander_takes_an_undefended_military_challenge_and_wins_a_power():
    t = three_houses()
    t.play(p("L43", 0))                                 # Chella STR 3
    t.play(p("S18", 1))
    t.play(p("B76", 2))                                 # Brienne STR 3 (+3 from the title)
    t.power(0, 3)
    start3(t, ["master_of_laws", "crown_regent", "lord_commander"])
    t.declare(0, "military", 1, p("L43", 0))
    t.choose(1, "pass")                                 # the Crown Regent lets it through
    t.defend(1)                                         # Sara declares no defenders
    assert t.ask()["kind"] == "redirect" and t.ask()["seat"] == 2
    t.choose(2, "redirect")
    t.defend(2, p("B76", 2))
    t.finish_challenge()
    r = t.result()
    assert (r["defender"], r["attack"], r["defence"], r["winner"]) == (2, 3, 6, 2)
    assert t.g["players"][0]["power"] == 2 and t.g["players"][2]["power"] == 1
    assert t.where(p("S18", 1)) == "play"


def test_the_lord_commander_who_loses_satisfies_the_claim():
    t = three_houses()
    t.play(p("L43", 0))
    t.play(p("S18", 1))
    t.play(p("B84", 2))
    start3(t, ["master_of_laws", "crown_regent", "lord_commander"])
    t.declare(0, "military", 1, p("L43", 0))
    t.choose(1, "pass")
    t.defend(1)
    t.choose(2, "redirect")
    t.defend(2)
    t.until_ask("claim_kill")
    assert t.ask()["seat"] == 2 and t.result()["unopposed"]


def test_the_lord_commander_is_not_offered_a_defended_or_non_military_challenge():
    t = three_houses()
    t.play(p("L38", 0))
    t.play(p("L43", 0))
    t.play(p("S6", 1))                                  # Catelyn: intrigue, power
    t.play(p("S18", 1))
    start3(t, ["master_of_laws", "crown_regent", "lord_commander"])
    t.declare(0, "intrigue", 1, p("L38", 0))
    t.choose(1, "pass")
    t.defend(1)
    t.finish_challenge()
    t.declare(0, "military", 1, p("L43", 0))
    t.defend(1, p("S18", 1))
    t.finish_challenge()
    assert (2, "redirect") not in t.asked and not [e for e in t.events if e["e"] == "redirected"]


# === setup ===========================================================================================

def setup_table(cards=None):
    t = Table(2, decks=["stark", "lannister"], setup=True, cards=cards)
    assert t.ask()["kind"] == "setup" and t.ask()["seat"] == 0
    return t


def placeable(t, seat=0):
    return sorted(c[1] for c in t.choices(seat) if c[0] == "place")


def test_setup_places_up_to_five_gold_of_characters_and_locations_with_one_limited():
    t = setup_table()
    t.hand(0, p("S5", 0), p("S136", 0), p("S29", 0), p("S30", 0), p("S2", 0), p("S155", 0), p("S7", 0))
    # No event, no attachment without the Setup keyword.
    assert placeable(t) == sorted(p(c, 0) for c in ("S5", "S136", "S29", "S30", "S7"))
    t.choose(0, "place", p("S5", 0))                    # 4 of 5 gold
    assert placeable(t) == [p("S29", 0), p("S30", 0)]
    t.choose(0, "place", p("S29", 0))                   # a Limited card: the other is refused
    assert placeable(t) == []
    t.choose(0, "done")
    assert t.ask()["seat"] == 1 and t.g["players"][0]["setup"] == [p("S5", 0), p("S29", 0)]
    t.choose(1, "done")
    g = t.g
    assert t.where(p("S5", 0)) == "play" and t.where(p("S29", 0)) == "play"
    # Revealed, not played nor put into play: Eddard claims no power as he enters.
    assert g["cards"][p("S5", 0)]["power"] == 0 and not t.emitted("marshalled")
    assert len(g["players"][0]["hand"]) == 7 and len(g["players"][1]["hand"]) == 7
    assert t.emitted("setup_revealed")[0]["cards"] == [p("S5", 0), p("S29", 0)]


def test_setup_counts_the_gold_penalty_refuses_a_second_copy_of_a_unique_and_takes_setup_attachments():
    cards = table_with(extra={"S9b": {"of": "S9", "duplicate_of": "S9"},
                              "S2s": {"of": "S2", "keywords": ["setup"]}})
    deck = dict(cards["decks"]["stark"])
    deck["draw"] = deck["draw"] + ["S9b", "S2s", "B72"]
    cards["decks"]["stark"] = deck
    t = setup_table(cards)
    t.hand(0, "S9#0", "S9b#0", "S2s#0", "B72#0", p("S7", 0))
    # Stannis costs 4, +2 for another House: over 5. A Setup attachment waits for a legal host.
    assert placeable(t) == ["S7#0", "S9#0", "S9b#0"]
    t.choose(0, "place", "S9#0")
    assert placeable(t) == ["S2s#0", "S7#0"]            # no second Sansa; Nymeria may go on Sansa
    t.choose(0, "place", "S2s#0")
    assert placeable(t) == []                            # 2 + 2 gold: Arya (2) would make 6
    t.choose(0, "done")
    t.choose(1, "done")
    assert t.g["cards"]["S2s#0"]["on"] == "S9#0" and t.g["cards"]["S9#0"]["att"] == ["S2s#0"]


# === phase 3: marshalling ========================================================================

def marshal_table(cards=None, decks=("stark", "lannister"), plots=(MUTUAL_ENEMIES, PLANNING_AHEAD)):
    t = Table(2, decks=list(decks), cards=cards)
    return t, plots


def to_marshal(t, plots, gold=None, hand=None):
    """Plots, seat 0 first, the draw phase; then seat 0's hand and gold are set as given."""
    t.plots(*(p(c, s) for s, c in enumerate(plots)))
    t.choose(t.ask()["seat"], "first", 0)
    t.until_ask("marshal", 0)
    if hand is not None:
        t.hand(0, *hand)
    if gold is not None:
        t.gold(0, gold)


def marshallable(t, seat=0):
    return sorted(c[1] for c in t.choices(seat) if c[0] in ("marshal", "attach", "duplicate"))


def test_another_houses_card_costs_two_more_gold_and_a_neutral_card_no_more():
    t, plots = marshal_table(stark_with("B72", "T118"))
    to_marshal(t, plots, gold=5, hand=["B72#0", "T118#0", p("S136", 0), p("S33", 0)])
    s = t.state
    assert [M.gold_cost(s, 0, c) for c in ("B72#0", "T118#0", "S136#0", "S33#0")] == [6, 2, 3, 0]
    # Stannis (4 + 2) is out of reach; Jon Snow (neutral) and Narrow Sea (Stark and Baratheon) pay none.
    assert marshallable(t) == ["S136#0", "S33#0", "T118#0"]
    t.choose(0, "marshal", "S136#0")
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["gold"] == 2 and marshallable(t) == ["S33#0", "T118#0"]
    t.choose(0, "marshal", "T118#0")
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["gold"] == 0


def test_one_limited_card_a_round():
    t, plots = marshal_table()
    to_marshal(t, plots, gold=5, hand=[p("S29", 0), p("S30", 0), p("S26", 0), p("S18", 0)])
    assert marshallable(t) == sorted(p(c, 0) for c in ("S18", "S26", "S29", "S30"))
    t.choose(0, "marshal", p("S29", 0))
    t.until_ask("marshal", 0)
    assert marshallable(t) == [p("S18", 0)]
    t.choose(0, "done")
    t.until_ask("marshal", 0)
    assert t.g["round"] == 2 and p("S30", 0) in marshallable(t) and p("S26", 0) in marshallable(t)


def test_a_duplicate_is_played_free_under_its_unique_card_and_saves_it():
    t, plots = marshal_table(decks=("targaryen", "stark"), plots=("T207", MUTUAL_ENEMIES))
    t.play(p("T109", 0))                                # Rhaegal
    t.play(p("S14", 1))                                 # Grey Wind, STR 4
    to_marshal(t, plots, gold=0, hand=[p("T110", 0)])          # the other Rhaegal
    assert t.choices(0) == [["duplicate", p("T110", 0)], ["done"]]
    t.choose(0, "duplicate", p("T110", 0))
    assert t.g["cards"][p("T109", 0)]["dups"] == [p("T110", 0)] and t.where(p("T110", 0)) == "dup"
    assert t.g["players"][0]["gold"] == 0
    # Brian's military claim against Rhaegal's controller: the duplicate saves him.
    t.declare(1, "military", 0, p("S14", 1))
    t.defend(0)
    t.until_ask("claim_kill", 0)
    t.choose(0, "kill", p("T109", 0))
    t.choose(0, "dup", p("T110", 0))
    t.finish_challenge()
    assert t.where(p("T109", 0)) == "play" and t.where(p("T110", 0)) == "discard"


def test_a_unique_card_cannot_come_into_play_twice_nor_from_the_dead_pile():
    t, plots = marshal_table(decks=("baratheon", "stark"), plots=(UNEASY_TRUCE, MUTUAL_ENEMIES))
    t.play(p("B71", 0))                                 # Robert Baratheon
    to_marshal(t, plots, gold=10, hand=[p("B90", 0), p("B70", 0)])   # the other Robert, Selyse
    assert ["marshal", p("B90", 0)] not in t.choices(0) and ["duplicate", p("B90", 0)] in t.choices(0)
    t2, _ = marshal_table(decks=("baratheon", "stark"))
    t2.to("dead", p("B71", 0))
    to_marshal(t2, plots, gold=10, hand=[p("B90", 0), p("B70", 0)])
    assert marshallable(t2) == [p("B70", 0)]


# === phase 4: challenges =========================================================================

def duel(attacker_deck="lannister", defender_deck="stark", plots=(PLANNING_AHEAD, MUTUAL_ENEMIES), seed=1):
    """Two players at their first challenges phase (after rigging), seat 0 first."""
    return Table(2, decks=[attacker_deck, defender_deck], seed=seed), plots


def to_challenges(t, plots):
    t.plots(*(p(c, s) for s, c in enumerate(plots)))
    t.choose(t.ask()["seat"], "first", 0)
    t.until_ask("challenge", 0)


def challenge_types(t, seat=0):
    return sorted({c[1] for c in t.choices(seat) if c[0] == "challenge"})


def test_one_challenge_of_each_type_a_round_each_with_at_least_one_attacker():
    t, plots = duel()
    for code in ("L40", "L38", "L46"):                  # Tywin (all three), Tyrion, Raff
        t.play(p(code, 0))
    to_challenges(t, plots)
    assert challenge_types(t) == ["intrigue", "military", "power"]
    t.choose(0, "challenge", "military", 1)
    assert ["done"] not in t.choices(0)                 # at least one attacker
    t.choose(0, "attacker", p("L46", 0))
    t.choose(0, "done")
    t.finish_challenge()
    t.until_ask("challenge", 0)
    assert challenge_types(t) == ["intrigue", "power"]
    t.declare(0, "power", 1, p("L40", 0))
    t.finish_challenge()
    t.until_ask("challenge", 0)
    # Tywin knelt: only Tyrion may still make the intrigue challenge; a knelt character may not attack.
    assert challenge_types(t) == ["intrigue"]
    t.choose(0, "challenge", "intrigue", 1)
    assert t.choices(0) == [["attacker", p("L38", 0)]] or t.choices(0)[0] == ["attacker", p("L38", 0)]
    t.choose(0, "attacker", p("L38", 0))
    t.finish_challenge()
    t.auto(lambda t: t.g["phase"] != "challenges")
    assert (0, "challenge") not in t.asked[-3:]
    assert [e["type"] for e in t.emitted("challenge") if e["seat"] == 0] == ["military", "power", "intrigue"]


def test_stealth_keeps_a_character_without_stealth_from_defending():
    t, plots = duel()
    t.play(p("L43", 0))                                 # Chella: stealth
    t.play(p("S18", 1))
    t.play(p("S19", 1))                                 # Direwolf Pup
    t.play(p("S135", 1))                                # Benjen Stark: stealth, cannot be chosen
    to_challenges(t, plots)
    t.declare(0, "military", 1, p("L43", 0))
    t.until_ask("stealth", 0)
    assert t.choices(0) == [["stealth", p("L43", 0), p("S18", 1)], ["stealth", p("L43", 0), p("S19", 1)], ["done"]]
    t.choose(0, "stealth", p("L43", 0), p("S18", 1))
    t.until_ask("defenders", 1)
    assert sorted(c[1] for c in t.choices(1) if c[0] == "defender") == [p("S135", 1), p("S19", 1)]


@pytest.mark.parametrize("attack,defence,defending,winner,unopposed", [
    (3, 3, True, 0, False),     # a tie goes to the attacker
    (2, 3, True, 1, False),
    (0, 0, True, None, False),  # nobody wins with no STR on either side
    (0, None, False, None, False),
    (0, 1, True, 1, False),
    (1, None, False, 0, True),  # no defenders: unopposed
    (2, 0, True, 0, True),      # defenders of STR 0: unopposed too
])
def test_the_winner_of_a_challenge(attack, defence, defending, winner, unopposed):
    t, plots = duel(plots=(PLANNING_AHEAD, MUTUAL_ENEMIES))
    t.play(p("L46", 0))                                 # Raff, STR 2
    t.play(p("S18", 1))                                 # Knight of the Tumblestone, STR 2
    t.hand(0)
    t.hand(1)
    E.lasting(t.g, "str", p("L46", 0), attack - 2, "round", None)
    if defence is not None:
        E.lasting(t.g, "str", p("S18", 1), defence - 2, "round", None)
    to_challenges(t, plots)
    t.declare(0, "military", 1, p("L46", 0))
    t.defend(1, *([p("S18", 1)] if defending else []))
    t.finish_challenge()
    r = t.result()
    assert (r["attack"], r["defence"], r["winner"], r["unopposed"]) == (attack, defence or 0, winner, unopposed)
    assert t.g["players"][0]["power"] == (1 if unopposed else 0)
    assert bool(power_events(t, "unopposed")) == unopposed


def test_a_military_claim_of_two_kills_two_different_characters_at_once():
    t, plots = duel("stark", "lannister", plots=(MUTUAL_ENEMIES, PLANNING_AHEAD))   # claim 2
    t.play(p("S14", 0))
    for code in ("L46", "L53", "L50"):
        t.play(p(code, 1))
    t.play(p("L35", 1), on=p("L46", 1))                 # Gilded Plate could save Raff (pay 1 gold)
    to_challenges(t, plots)
    t.declare(0, "military", 1, p("S14", 0))
    t.defend(1)
    t.until_ask("claim_kill", 1)
    assert len(t.choices(1)) == 3
    t.choose(1, "kill", p("L46", 1))
    # The same character may not be chosen twice; nobody dies before both are chosen.
    assert sorted(t.choices(1)) == [["kill", p("L50", 1)], ["kill", p("L53", 1)]]
    assert t.where(p("L46", 1)) == "play"
    t.choose(1, "kill", p("L53", 1))
    t.finish_challenge()
    assert {t.where(p(c, 1)) for c in ("L46", "L53")} <= {"dead", "play"}
    assert t.where(p("L53", 1)) == "dead" and t.where(p("L50", 1)) == "play"


def test_an_intrigue_claim_discards_at_random_from_the_hand():
    seen = set()
    for seed in range(8):
        t, plots = duel(seed=seed)
        t.play(p("L38", 0))
        hand = [p(c, 1) for c in ("S18", "S19", "S20", "S21", "S155")]
        to_challenges(t, plots)
        t.hand(1, *hand)
        t.declare(0, "intrigue", 1, p("L38", 0))
        t.defend(1)
        t.finish_challenge()
        gone = [c for c in hand if t.where(c) == "discard"]
        assert len(gone) == 1 and len(t.g["players"][1]["hand"]) == 4
        seen.update(gone)
        # The table learns how many, not which (until it looks at the discard pile).
        public = [e for e in filter_events(t.events, PUBLIC) if e["e"] == "discarded_at_random"]
        assert public == [{"e": "discarded_at_random", "seat": 1, "count": 1}]
    assert len(seen) >= 3


def test_a_power_claim_moves_power_from_the_losers_house():
    t, plots = duel()
    t.play(p("L40", 0))
    t.play(p("S18", 1))
    t.power(1, 3)
    to_challenges(t, plots)
    t.declare(0, "power", 1, p("L40", 0))
    t.defend(1, p("S18", 1))
    t.finish_challenge()
    assert t.result()["winner"] == 0 and not t.result()["unopposed"]
    assert (t.g["players"][0]["power"], t.g["players"][1]["power"]) == (1, 2)
    # Nothing to take: nothing moves.
    t2, plots = duel()
    t2.play(p("L40", 0))
    to_challenges(t2, plots)
    t2.declare(0, "power", 1, p("L40", 0))
    t2.finish_challenge()
    assert (t2.g["players"][0]["power"], t2.g["players"][1]["power"]) == (1, 0)   # the unopposed power only


def test_deadly_the_attacker_with_more_deadly_characters_makes_the_defender_kill_a_defender():
    t, plots = duel("stark", "lannister", plots=(MUTUAL_ENEMIES, PLANNING_AHEAD))
    t.play(p("S14", 0))                                 # Grey Wind: deadly, STR 4
    t.play(p("L46", 1))
    t.play(p("L40", 1))
    t.play(p("L53", 1))                                 # does not defend
    to_challenges(t, plots)
    t.declare(0, "military", 1, p("S14", 0))
    t.defend(1, p("L46", 1), p("L40", 1))
    t.until_ask("deadly", 1)
    assert t.result()["winner"] == 1                    # even when the attacker loses
    assert sorted(t.choices(1)) == [["kill", p("L40", 1)], ["kill", p("L46", 1)]]
    t.choose(1, "kill", p("L46", 1))
    t.finish_challenge()
    assert t.where(p("L46", 1)) == "dead"
    # As many deadly defenders (Ser Jaime): no kill.
    t, plots = duel("stark", "lannister", plots=(MUTUAL_ENEMIES, PLANNING_AHEAD))
    t.play(p("S14", 0))
    t.play(p("L37", 1))                                 # STR 3, +2: wins
    E.lasting(t.g, "str", p("L37", 1), 2, "round", None)
    to_challenges(t, plots)
    t.declare(0, "military", 1, p("S14", 0))
    t.defend(1, p("L37", 1))
    t.finish_challenge()
    assert (1, "deadly") not in t.asked and t.where(p("L37", 1)) == "play"


def test_renown_characters_of_the_winner_claim_a_power_each_as_attacker_or_defender():
    t, plots = duel("baratheon", "lannister", plots=(UNEASY_TRUCE, PLANNING_AHEAD))
    t.play(p("B72", 0))                                 # Stannis: renown, military/power
    t.play(p("B74", 0))                                 # Melisandre: renown, intrigue/power
    t.play(p("L38", 1))
    t.play(p("L53", 1))
    to_challenges(t, plots)
    t.declare(0, "power", 1, p("B72", 0))
    t.defend(1, p("L38", 1))
    t.finish_challenge()
    assert t.result()["winner"] == 0 and t.g["cards"][p("B72", 0)]["power"] == 1
    # Defending and winning counts too; a renown character that did not take part claims nothing.
    t.auto(lambda t: any(a["kind"] == "challenge" and a["seat"] == 1 for a in t.state["asks"]))
    E.lasting(t.g, "str", p("L53", 1), 5, "round", None)
    t.refresh()
    t.declare(1, "military", 0, p("L53", 1))
    t.defend(0)
    t.finish_challenge()
    assert t.g["cards"][p("B74", 0)]["power"] == 0
    t2, plots = duel("lannister", "baratheon", plots=(PLANNING_AHEAD, UNEASY_TRUCE))
    t2.play(p("L40", 0))
    t2.play(p("B74", 1))
    to_challenges(t2, plots)
    t2.declare(0, "intrigue", 1, p("L40", 0))
    t2.defend(1, p("B74", 1))
    E.lasting(t2.g, "str", p("B74", 1), 5, "round", None)
    t2.finish_challenge()
    assert t2.result()["winner"] == 1 and t2.g["cards"][p("B74", 1)]["power"] == 1


def test_stalwart_a_killed_stalwart_card_goes_on_top_of_its_owners_deck_and_its_power_returns():
    t, plots = duel("lannister", "stark", plots=(MUTUAL_BLACKMAIL, MUTUAL_ENEMIES))
    t.play(p("L40", 0))
    t.play(p("S5", 1), power=2)                         # Eddard: stalwart
    to_challenges(t, plots)
    pool = t.g["bank"]["power"]
    t.declare(0, "military", 1, p("L40", 0))
    t.defend(1)
    t.until_ask("claim_kill", 1)
    t.choose(1, "kill", p("S5", 1))
    t.finish_challenge()
    assert t.g["players"][1]["deck"][0] == p("S5", 1) and p("S5", 1) not in t.g["players"][1]["dead"]
    assert t.g["cards"][p("S5", 1)]["power"] == 0 and t.g["bank"]["power"] == pool + 2 - 1   # (-1: unopposed)


def test_deathbound_and_stalwart_cards_discarded_from_play_go_to_the_dead_pile_and_the_deck():
    """A card discarded from play (here attachments, discarded as their host dies) goes to the dead
    pile with Deathbound and on top of its owner's deck with Stalwart (given by a lasting effect)."""
    t, plots = duel("lannister", "stark", plots=(MUTUAL_BLACKMAIL, MUTUAL_ENEMIES))
    t.play(p("L40", 0))
    t.play(p("S7", 1))                                  # Arya
    t.play(p("S2", 1), on=p("S7", 1))                   # Nymeria on her
    t.play(p("S3", 1), on=p("S7", 1))                   # Summer on her
    t.play(p("S1", 1), on=p("S7", 1))                   # Ice on her
    E.lasting(t.g, "keyword", p("S2", 1), "deathbound", "round", None)
    E.lasting(t.g, "keyword", p("S3", 1), "stalwart", "round", None)
    to_challenges(t, plots)
    t.declare(0, "military", 1, p("L40", 0))
    t.defend(1)
    t.until_ask("claim_kill", 1)
    t.choose(1, "kill", p("S7", 1))
    t.auto(lambda t: t.where(p("S7", 1)) != "play", prefer=(["pass"], ["done"]))
    assert t.where(p("S7", 1)) == "dead"
    assert t.where(p("S2", 1)) == "dead" and t.g["players"][1]["deck"][0] == p("S3", 1)
    assert t.where(p("S1", 1)) == "discard"


def test_infamy_power_for_the_house_may_go_on_an_infamy_card():
    t, plots = duel("lannister", "stark", plots=(PLANNING_AHEAD, MUTUAL_ENEMIES))
    t.play(p("L37", 0))                                 # Ser Jaime: infamy
    t.play(p("L38", 0))                                 # Tyrion: power icon
    t.play(p("S18", 1))
    t.power(1, 2)
    to_challenges(t, plots)
    t.declare(0, "power", 1, p("L38", 0))
    t.defend(1, p("S18", 1))
    t.until_ask("infamy", 0)
    assert t.choices(0) == [["house"], ["card", p("L37", 0)]]
    t.choose(0, "card", p("L37", 0))
    t.finish_challenge()
    assert t.g["cards"][p("L37", 0)]["power"] == 1 and t.g["players"][1]["power"] == 1
    assert t.g["players"][0]["power"] == 0 and t.total_power(0) == 1


def test_vigilant_cards_may_stand_after_their_controller_wins_as_the_attacker():
    t, plots = duel()
    t.play(p("L40", 0))
    t.play(p("L46", 0))
    E.lasting(t.g, "keyword", p("L40", 0), "vigilant", "round", None)
    E.lasting(t.g, "keyword", p("L46", 0), "vigilant", "round", None)
    t.play(p("S14", 1))
    t.play(p("S6", 1))                                  # Catelyn: intrigue
    to_challenges(t, plots)
    t.declare(0, "military", 1, p("L40", 0), p("L46", 0))
    t.defend(1, p("S14", 1))
    t.until_ask("vigilant", 0)
    assert t.choices(0) == [["stand", p("L40", 0)], ["stand", p("L46", 0)], ["done"]]
    t.choose(0, "stand", p("L40", 0))
    t.choose(0, "done")
    t.finish_challenge()
    assert not t.g["cards"][p("L40", 0)]["kneel"] and t.g["cards"][p("L46", 0)]["kneel"]
    # Losing as the attacker: nothing to stand.
    before = len(t.asked)
    t.declare(0, "intrigue", 1, p("L40", 0))
    t.defend(1, p("S6", 1))
    E.lasting(t.g, "str", p("S6", 1), 2, "round", None)
    t.finish_challenge()
    assert t.result()["winner"] == 1 and (0, "vigilant") not in t.asked[before:]


def test_vengeful_cards_may_stand_after_their_controller_loses_as_the_defender():
    t, plots = duel()
    t.play(p("L40", 0))
    t.play(p("S18", 1))
    E.lasting(t.g, "keyword", p("S18", 1), "vengeful", "round", None)
    to_challenges(t, plots)
    t.declare(0, "power", 1, p("L40", 0))
    t.defend(1, p("S18", 1))
    t.until_ask("vengeful", 1)
    t.choose(1, "stand", p("S18", 1))
    t.finish_challenge()
    assert not t.g["cards"][p("S18", 1)]["kneel"]


def test_intimidate_weaker_defenders_do_not_count():
    t, plots = duel()
    t.play(p("L43", 0))                                 # Chella, STR 3
    E.lasting(t.g, "keyword", p("L43", 0), "intimidate", "round", None)
    t.play(p("S18", 1))                                 # STR 2: does not count
    t.play(p("S14", 1))                                 # Grey Wind, STR 4: counts
    t.play(p("S19", 1))                                 # Direwolf Pup, STR 2
    to_challenges(t, plots)
    t.declare(0, "military", 1, p("L43", 0))
    t.defend(1, p("S18", 1), p("S14", 1))
    t.finish_challenge()
    assert (t.result()["defence"], t.result()["winner"]) == (4, 1)
    t, plots = duel()
    t.play(p("L43", 0))
    E.lasting(t.g, "keyword", p("L43", 0), "intimidate", "round", None)
    t.play(p("S18", 1))
    t.play(p("S19", 1))
    to_challenges(t, plots)
    t.declare(0, "military", 1, p("L43", 0))
    t.defend(1, p("S18", 1), p("S19", 1))
    t.finish_challenge()
    assert (t.result()["defence"], t.result()["winner"]) == (0, 0)


def _kneel(ctx, src, seat, target, ev):
    ctx.g["cards"][target]["kneel"] = True


def test_immune_to_character_abilities_cannot_be_chosen_by_one_but_can_by_an_event(monkeypatch):
    """Ser Jacelyn Bywater is immune to character abilities. No Core character ability in the
    engine targets another character yet: Brown Ben Plumm is given one for the test."""
    monkeypatch.setitem(A.ABILITIES, "T118", [A.Ability("action", _kneel, target=lambda s, src, seat, ev: M.characters(s))])
    t, plots = duel("lannister", "targaryen", plots=(PLANNING_AHEAD, "T207"))
    t.play(p("L47", 0))                                 # Ser Jacelyn Bywater
    t.play(p("L46", 0))
    t.play(p("T118", 1))
    t.hand(1, p("T174", 1))                             # Forever Burning, an event
    t.plots(p(PLANNING_AHEAD, 0), p("T207", 1))
    t.choose(1, "first", 0)
    t.until_ask("action", 1)
    assert ["action", p("T118", 1), 0] in t.choices(1)
    t.choose(1, "action", p("T118", 1), 0)
    assert sorted(c[1] for c in t.choices(1)) == [p("L46", 0), p("T118", 1)]
    t.choose(1, "target", p("L46", 0))
    t.until_ask("action", 1)
    t.choose(1, "action", p("T174", 1), 0)
    assert ["target", p("L47", 0)] in t.choices(1)


def test_immune_to_opponents_character_abilities_still_answers_its_own_side(monkeypatch):
    monkeypatch.setitem(A.ABILITIES, "B87", [A.Ability("action", _kneel, target=lambda s, src, seat, ev: M.characters(s))])
    monkeypatch.setitem(A.ABILITIES, "L53", [A.Ability("action", _kneel, target=lambda s, src, seat, ev: M.characters(s))])
    t = Table(2, decks=["baratheon", "lannister"])
    t.play(p("B76", 0))                                 # Brienne: immune to opponents' character abilities
    t.play(p("B87", 0))
    t.play(p("L53", 1))
    state = t.state
    own = A.legal_targets(state, 0, p("B87", 0), A.ABILITIES["B87"][0])
    theirs = A.legal_targets(state, 1, p("L53", 1), A.ABILITIES["L53"][0])
    assert p("B76", 0) in own and p("B76", 0) not in theirs


def test_ambush_puts_a_card_into_play_from_hand_in_any_phase_paid_with_influence():
    """Flame-Kissed (cost 2, Ambush) is the Core's Ambush card: an attachment, so it goes on a card
    it may be attached to. Its cost is paid by kneeling influence, not gold."""
    t, plots = duel("targaryen", "stark", plots=("T207", MUTUAL_ENEMIES))
    t.play(p("T130", 0))                                # Khal Drogo's Tent: 1 influence
    t.play(p("T127", 0))                                # Eastern Fiefdoms: 1 influence
    t.play(p("S22", 1))
    t.play(p("S14", 1))                                 # Grey Wind: No attachments
    t.hand(0, p("T103", 0))
    t.plots(p("T207", 0), p(MUTUAL_ENEMIES, 1))
    t.choose(0, "first", 0)
    t.until_ask("action", 0)                            # the plot phase's window: any phase will do
    assert t.g["phase"] == "plot" and ["ambush", p("T103", 0)] in t.choices(0)
    t.choose(0, "ambush", p("T103", 0))
    assert t.choices(0) == [["target", p("S22", 1)]]
    t.choose(0, "target", p("S22", 1))
    t.choose(0, "kneel_influence", p("T130", 0))
    t.choose(0, "kneel_influence", p("T127", 0))
    g = t.g
    assert t.where(p("T103", 0)) == "play" and g["cards"][p("T103", 0)]["on"] == p("S22", 1)
    assert g["cards"][p("S22", 1)]["att"] == [p("T103", 0)] and g["players"][0]["gold"] == 0
    assert g["cards"][p("T130", 0)]["kneel"] and g["cards"][p("T127", 0)]["kneel"]


def test_ambush_needs_enough_influence():
    t, plots = duel("targaryen", "stark", plots=("T207", MUTUAL_ENEMIES))
    t.play(p("T130", 0))
    t.play(p("S18", 1))
    t.hand(0, p("T103", 0))
    t.plots(p("T207", 0), p(MUTUAL_ENEMIES, 1))
    t.choose(0, "first", 0)
    t.auto(lambda t: t.g["phase"] == "challenges")
    assert not [a for a in t.asked if a == (0, "target")]
    assert t.where(p("T103", 0)) == "hand"


# === phases 5 to 7: dominance, standing, taxation ================================================

def to_dominance(t, plots, gold):
    """Plots, seat 0 first, nobody marshals nor challenges; gold pools set as the challenges begin."""
    t.plots(*(p(c, s) for s, c in enumerate(plots)))
    t.choose(t.ask()["seat"], "first", 0)
    t.auto(lambda t: t.g["phase"] == "challenges")
    for seat, n in enumerate(gold):
        t.gold(seat, n)
    t.auto(lambda t: t.emitted("dominance"))
    return t.emitted("dominance")[-1]


@pytest.mark.parametrize("gold,totals,winner", [([1, 0], [5, 4], 0), ([1, 1], [5, 5], None), ([0, 3], [4, 7], 1)])
def test_dominance_counts_standing_strength_and_gold_and_a_tie_wins_nothing(gold, totals, winner):
    t, plots = duel("lannister", "stark")
    t.play(p("L40", 0))                                 # Tywin STR 4, standing
    t.play(p("L46", 0), kneel=True)                     # Raff STR 2, kneeling: does not count
    t.play(p("S14", 1))                                 # Grey Wind STR 4
    e = to_dominance(t, plots, gold)
    assert (e["totals"], e["winner"]) == (totals, winner)
    assert [pl["power"] for pl in t.g["players"]] == [int(winner == s) for s in (0, 1)]
    assert [x["why"] for x in power_events(t)] == (["dominance"] if winner is not None else [])


def test_standing_stands_every_kneeling_card_and_taxation_returns_the_gold():
    t, plots = duel("stark", "lannister", plots=(MUTUAL_ENEMIES, MUTUAL_BLACKMAIL))
    t.play(p("S7", 0), kneel=True)                      # Arya
    t.play(p("S2", 0), kneel=True, on=p("S7", 0))       # Nymeria, knelt
    t.play(p("S28", 0), kneel=True)                     # a location
    t.play(p("L46", 1), kneel=True)
    bank = t.g["bank"]["gold"]
    t.plots(p(MUTUAL_ENEMIES, 0), p(MUTUAL_BLACKMAIL, 1))  # (Planning Ahead would keep seat 1's gold)
    t.choose(0, "first", 0)
    t.auto(lambda t: t.g["round"] == 2)
    assert not any(t.g["cards"][i]["kneel"] for i in (p("S7", 0), p("S2", 0), p("S28", 0), p("L46", 1)))
    incomes = sum(e["gold"] for e in t.emitted("income"))
    assert incomes == 3 + 3                             # Mutual Enemies 2 + Lord Eddard's Chambers 1; 3
    assert t.g["players"][0]["gold"] == 0 and t.g["bank"]["gold"] == bank


# === victory ==========================================================================================

def test_fifteen_power_on_the_house_and_characters_wins_at_once():
    t, plots = duel()
    t.play(p("L40", 0), power=2)
    t.play(p("L38", 0))
    t.power(0, 12)
    to_challenges(t, plots)
    assert t.total_power(0) == 14
    t.declare(0, "power", 1, p("L40", 0))
    t.defend(1)
    # The unopposed power is the 15th: the game is over before the claim or any other challenge.
    assert t.state["over"] and t.state["result"]["winners"] == [0]
    assert t.state["asks"] == [] and t.state["result"]["power"][0] == 15
    assert t.emitted("game_over")


def test_a_total_that_reaches_fifteen_when_a_constant_stops_wins_at_once():
    # Issue 25: power on seat 1's character is left out while seat 0's Melisandre stands; she kneels
    # to attack, so seat 1's total is 15 then and there, and the game is over, however it got there.
    t, plots = duel("baratheon", "stark", plots=(UNEASY_TRUCE, MUTUAL_ENEMIES))
    t.play(p("B74", 0))                                 # Melisandre, standing
    t.play(p("S5", 1), power=2)
    t.power(1, 13)
    assert t.total_power(1) == 13
    to_challenges(t, plots)
    t.declare(0, "power", 1, p("B74", 0))
    assert t.g["cards"][p("B74", 0)]["kneel"]
    assert t.state["over"] and t.state["result"]["winners"] == [1], t.g["phase"]
    assert t.state["result"]["power"][1] == 15 and t.state["asks"] == []


def test_players_reaching_fifteen_at_once_are_settled_by_the_first_player():
    # Seat 2's Melisandre kneels to attack: the power on seats 0 and 1's characters counts again for
    # both at the same instant.
    t = Table(3, decks=["lannister", "stark", "baratheon"])
    t.play(p("L40", 0), power=2)
    t.play(p("S5", 1), power=2)
    t.play(p("B74", 2))
    t.power(0, 13)
    t.power(1, 13)
    assert t.total_power(0) == t.total_power(1) == 13
    t.plots(p(PLANNING_AHEAD, 0), p(MUTUAL_ENEMIES, 1), p(UNEASY_TRUCE, 2))
    t.choose(t.ask()["seat"], "first", 0)
    t.declare(2, "power", 0, p("B74", 2))
    ask = t.ask()
    assert (ask["seat"], ask["kind"], ask["choices"]) == (0, "winner", [["winner", 0], ["winner", 1]])
    t.choose(0, "winner", 1)
    assert t.state["over"] and t.state["result"]["winners"] == [1]


def test_two_on_two_partners_cannot_be_challenged_and_the_team_wins_at_thirty():
    t = Table(4, decks=["lannister", "stark", "baratheon", "targaryen"], variants=["two_on_two"])
    assert t.g["teams"] == [[0, 2], [1, 3]] and t.g["goal"] == 30
    t.play(p("L40", 0))
    t.power(0, 20)
    t.power(2, 9)
    t.power(1, 16)                                      # 15 alone is not a win with a team
    t.plots(p(PLANNING_AHEAD, 0), p(MUTUAL_ENEMIES, 1), p(UNEASY_TRUCE, 2), p("T207", 3))
    t.choose(3, "first", 0)
    t.until_ask("challenge", 0)
    assert {c[2] for c in t.choices(0) if c[0] == "challenge"} == {1, 3}
    assert not t.state["over"]
    t.declare(0, "power", 1, p("L40", 0))
    t.defend(1)
    assert t.state["over"] and t.state["result"]["winners"] == [0, 2]


def test_littlefinger_gold_may_be_given_in_any_window_outside_marshalling():
    t = Table(3, decks=["lannister", "stark", "baratheon"], variants=["littlefinger"])
    t.gold(0, 2)
    start3(t, ["master_of_laws", "crown_regent", "lord_commander"])
    t.until_ask("action", 0)
    assert t.g["phase"] == "plot" and [["give", 1], ["give", 2]] == [c for c in t.choices(0) if c[0] == "give"]
    t.choose(0, "give", 2)
    assert [pl["gold"] for pl in t.g["players"]] == [1, 0, 1]
    t.auto(lambda t: t.g["round"] == 2)
    gives = [(phase, a["kind"]) for phase, a in t.offered if any(c[0] == "give" for c in a["choices"])]
    assert gives and {phase for phase, _ in gives} >= {"plot", "challenges"}
    assert "marshalling" not in {phase for phase, _ in gives}
    assert {kind for _, kind in gives} == {"action"}
    # Without the variant nobody may give gold.
    t2 = three_houses()
    t2.gold(0, 2)
    start3(t2, ["master_of_laws", "crown_regent", "lord_commander"])
    t2.auto(lambda t: t.g["round"] == 2)
    assert not [a for _, a in t2.offered if any(c[0] == "give" for c in a["choices"])]


# === passive effects that start together ================================================================

def rule_by_decree_and_counting_favors(first):
    """Seat 0 reveals Counting Favors (each of two players draws 3), seat 1 Rule by Decree (the biggest
    hand above 4 discards down to 4), both holding 3 cards: the order decides whether anyone discards."""
    t = Table(2, decks=["targaryen", "targaryen"])
    t.hand(0, *[p(c, 0) for c in ("T117", "T118", "T119")])
    t.hand(1, *[p(c, 1) for c in ("T117", "T118", "T119")])
    t.plots(p(COUNTING_FAVORS, 0), p("T206", 1))
    t.choose(t.ask()["seat"], "first", first)
    return t


@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("decree_first,hands", [(True, [6, 6]), (False, [4, 4])])
def test_the_first_player_orders_passive_effects_that_start_together(first, decree_first, hands):
    # Issue 25: they resolved in turn order without asking, though the order changes the outcome.
    t = rule_by_decree_and_counting_favors(first)
    ask = t.ask()
    assert (ask["seat"], ask["kind"]) == (first, "order")
    assert sorted(ask["choices"]) == [["next", p(COUNTING_FAVORS, 0), 0], ["next", p("T206", 1), 0]]
    assert "public" in ask and p("T117", 0) not in repr(t.view(1))
    t.choose(first, "next", *((p("T206", 1), 0) if decree_first else (p(COUNTING_FAVORS, 0), 0)))
    t.auto(lambda t: t.g["phase"] != "plot")
    assert [len(t.g["players"][s]["hand"]) for s in (0, 1)] == [h + 2 for h in hands]  # + the draw phase


def test_passive_effects_whose_order_changes_nothing_are_not_ordered():
    # Both reveal Planning Ahead (no taxation for its player this round): either order, the same.
    t = Table(2, decks=["lannister", "lannister"])
    t.plots(p(PLANNING_AHEAD, 0), p(PLANNING_AHEAD, 1))
    t.choose(t.ask()["seat"], "first", 0)
    t.auto(lambda t: t.g["phase"] != "plot")
    assert ("order" not in {k for _, k in t.asked}) and t.g["skip_taxation"] == {"0": True, "1": True}


@pytest.mark.parametrize("code", sorted(ordering.INERT))
def test_an_effect_declared_inert_asks_nothing_and_sets_only_what_it_declares(code):
    # ordering.order_matters leaves these effects out of the orders it plays: that holds only if
    # resolving one alone asks no question and changes nothing of g but its declared keys (and the
    # count of the ability's uses every ability keeps).
    deck = {"L": "lannister", "S": "stark", "B": "baratheon", "T": "targaryen"}[code[0]]
    t = Table(2, decks=[deck, deck])
    t.plots(p(code, 0), p(code, 1))
    state = t.state
    when, writes = ordering.INERT[code]
    assert when(state, 0)
    trial = copy_state(state)
    trial.update(stack=[A.ability_step(trial["g"], 0, p(code, 0), 0, {"e": "revealed"})], asks=[])
    before = copy_state(trial)["g"]
    core._run(core.GAMES["lcg"], core.Ctx(trial, []))
    assert trial["asks"] == [] and trial["stack"] == []
    changed = {k for k in set(before) | set(trial["g"]) if before.get(k) != trial["g"].get(k)}
    assert changed <= set(writes) | {"limits"}
    if writes:  # the declaration names what the effect really sets
        assert changed & set(writes)


def _endings_depth_first(state, order):
    """ordering._endings as it first was: every answer played depth first, the count of answers
    checked against ORDER_ANSWERS at each question met."""
    state.update(stack=json.loads(json.dumps(order[::-1])), asks=[], _outcomes=[])
    core._run(core.GAMES["lcg"], core.Ctx(state, None))
    todo, ends, tried = [(state, -1)], [], 0
    while todo:
        trial, i = todo.pop()
        if i >= 0:
            if i < len(trial["asks"][0]["choices"]) - 1:
                trial = copy_state(trial)
            core.answer(trial, trial["asks"][0], trial["asks"][0]["choices"][i], True)
        if not trial["asks"] or trial["over"]:
            end = (trial["g"], trial["rng"], trial["result"])
            if end not in ends:
                ends.append(end)
            continue
        tried += len(trial["asks"][0]["choices"])
        if tried > ordering.ORDER_ANSWERS:
            return None
        todo.extend((trial, j) for j in range(len(trial["asks"][0]["choices"]) - 1, -1, -1))
    return ends


def test_the_order_of_play_of_the_answers_never_changes_whether_the_order_matters(monkeypatch):
    # ordering._endings plays the questions a level at a time, and a second order only until it
    # differs from the first: every order of effects met in random games must end in the same tables,
    # or pass ORDER_ANSWERS, exactly as played depth first to the end.
    met = []

    def both(state, order, seen=None, first_answers=True):
        expected = _endings_depth_first(copy_state(state), order)
        found = endings(state, order, seen, first_answers)
        # After a first order (`seen`), an ending it never reached settles that the order matters.
        differs = expected is None or (seen is not None and any(e not in seen for e in expected))
        assert (found is None) == differs and (found is None or ordering._same(found, expected))
        met.append((found is None, seen is not None))
        return found

    endings = ordering._endings
    monkeypatch.setattr(ordering, "_endings", both)
    # Every order's whole tree played (none settled on its first answers first: ordering._first_answers).
    monkeypatch.setattr(ordering, "FIRST_ANSWERS_AT", 10 ** 9)
    for seed in (*range(8), 16):  # seed 16: a second order that ends as the first did
        play_one("lcg", {"players": 2, "variants": []}, seed, "random")
    # trees past ORDER_ANSWERS, trees played to their ends, second orders ending alike and not
    assert {(True, False), (False, False), (True, True), (False, True)} <= set(met)


def test_the_first_answers_settle_whether_the_order_matters_as_the_whole_trees_do(monkeypatch):
    # _endings plays a tree whose first question has FIRST_ANSWERS_AT answers or more its first answers
    # down first, on the sample itself (ordering._first_answers), and the whole tree only when that
    # path leaves it open: at every ordering met in random and heuristic games, order_matters must
    # answer as it does with every tree played whole.
    settled = []

    def first(state, tried, seen):
        found = first_answers(state, tried, seen)
        settled.append(found is None)
        return found

    def both(state, steps):
        monkeypatch.setattr(ordering, "FIRST_ANSWERS_AT", at)
        found = order_matters(state, steps)
        monkeypatch.setattr(ordering, "FIRST_ANSWERS_AT", 10 ** 9)  # every tree played whole
        assert order_matters(state, steps) == found
        return found

    first_answers, order_matters, at = ordering._first_answers, ordering.order_matters, ordering.FIRST_ANSWERS_AT
    monkeypatch.setattr(ordering, "_first_answers", first)
    monkeypatch.setattr(ordering, "order_matters", both)
    for seed in range(12):
        play_one("lcg", {"players": 2, "variants": []}, seed, "random")
    for seed in range(5):  # heuristic seed 4: a first-answers path that leaves it open
        play_one("lcg", {"players": 2, "variants": []}, seed, "heuristic")
    assert True in settled and False in settled  # paths that settled it, and paths that left it open


def test_an_ordering_sample_is_drawn_without_the_stack_and_the_questions(monkeypatch):
    # order_matters draws its samples from the state without its stack and questions (copying them
    # would be work for nothing: _endings replaces both). That holds only while the sample drawn is
    # otherwise the one drawn from the whole state, and every order plays the same from either.
    met = []

    def check(state, steps):
        seed = state["next_id"]
        full = determinise(state, None, seed)
        bare = determinise(dict(state, stack=[], asks=[]), None, seed)
        assert full["stack"] == state["stack"] and full["asks"] == state["asks"]
        assert dict(full, stack=None, asks=None) == dict(bare, stack=None, asks=None)
        for order in itertools.permutations(steps):
            assert ordering._endings(copy_state(full), order) == ordering._endings(copy_state(bare), order)
        met.append(bool(state["stack"]))
        return order_matters(state, steps)

    order_matters = ordering.order_matters
    monkeypatch.setattr(ordering, "order_matters", check)
    for seed in range(3):
        play_one("lcg", {"players": 2, "variants": []}, seed, "random")
    assert met and all(met)  # the game's stack always held more than the effects


def test_the_heuristic_bot_orders_the_others_effects_first():
    from maester.games.lcg.bot import HeuristicBot
    t = rule_by_decree_and_counting_favors(0)
    ask = t.ask()
    bot = HeuristicBot(seed=1, seat=0)
    assert bot.choose(t.view(0), ask) == ["next", p("T206", 1), 0]


def test_a_character_with_power_taken_over_at_fifteen_wins_at_once():
    # Seductive Promise takes a character with 2 power on it: that power counts for its new controller
    # then and there, and the game is over with the response, though no power was gained or moved
    # between Houses (victory is then checked for the card that changed sides: model.POWER_ARRIVED).
    t, plots = duel("targaryen", "stark", plots=(COUNTING_FAVORS, MUTUAL_ENEMIES))
    t.play(p("T119", 0))                                # Dothraki Honor Guard, STR 4, power icon
    t.play(p("T109", 0))                                # Rhaegal, STR 4, power icon
    t.play(p("S18", 1), power=2)                        # Knight of the Tumblestone, not unique
    t.hand(0, p("T175", 0))                             # Seductive Promise
    to_challenges(t, plots)
    t.declare(0, "power", 1, p("T119", 0), p("T109", 0))
    t.defend(1)
    t.auto(lambda t: any(["respond", p("T175", 0), 0] in a["choices"] for a in t.asks_of("response")))
    t.power(0, 13 - (t.total_power(0) - t.g["players"][0]["power"]))
    assert t.total_power(0) == 13 and not t.state["over"]
    t.choose(0, "respond", p("T175", 0), 0)
    t.choose(0, "target", p("S18", 1))
    assert t.g["cards"][p("S18", 1)]["ctrl"] == 0
    # read all through the challenge, the characters in play follow it to its new side
    assert p("S18", 1) in M.characters(t.state, 0) and p("S18", 1) not in M.characters(t.state, 1)
    assert t.state["over"] and t.state["result"]["winners"] == [0]
    assert t.state["result"]["power"][0] == 15 and t.state["asks"] == []


def test_a_card_given_a_discard_pile_ability_in_a_game_under_way_is_offered_at_once(monkeypatch):
    # A window passes the discard pile over in a game none of whose cards is used from there (worked
    # out once a game: abilities.holders); a card given such an ability later (a test's own)
    # is offered at once, as any change to the table of abilities is.
    t = Table(2, decks=["lannister", "stark"])
    tywin = p("L40", 0)
    M.move(t.g, tywin, "discard")
    phase = t.g["phase"]
    assert ["action", tywin, 0] not in A.action_choices(t.state, 0, phase)
    monkeypatch.setitem(A.ABILITIES, "L40", [A.Ability("action", lambda *a: None, from_discard=True)])
    assert ["action", tywin, 0] in A.action_choices(t.state, 0, phase)
