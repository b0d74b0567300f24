"""The Lannister starter deck's cards (issue 13): one test per card, named after its code, that puts
the card where its ability matters and checks what the card says, and its limits. Hidden cards a
card peeks at or discards at random are checked to stay hidden from the other seats.
"""

import pytest

from lcg_harness import Table
from maester.engine import PUBLIC, cardtables, filter_events
from maester.games.lcg import abilities as A
from maester.games.lcg import flow
from maester.games.lcg import model as M

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

QUIET = "L189"   # Mutual Blackmail 3/1/2: with a single opponent it does nothing


def p(code, seat):
    return "%s#%d" % (code, seat)


def begin(players=2, plots=None, first=0, decks=None, **kw):
    """A table of Lannister decks (seat 0's plot from `plots`); the initiative winner picks `first`."""
    t = Table(players, decks=decks or ["lannister"] * players, **kw)
    return t, list(plots or [p(QUIET, s) for s in range(players)]), first


def reveal(t, plots, first=0):
    t.plots(*plots)
    ask = t.until_ask("first_player")
    t.choose(ask["seat"], "first", first)


def at(t, phase, seat, kind="action"):
    t.auto(lambda t: t.g["phase"] == phase and any(a["kind"] == kind and a["seat"] == seat for a in t.state["asks"]))
    return t.choices(seat)


def response(t, seat):
    t.auto(lambda t: any(a["kind"] == "response" and a["seat"] == seat
                         and any(c[0] == "respond" for c in a["choices"]) for a in t.state["asks"]))
    return t.choices(seat)


def kneel(t, inst):
    t.g["cards"][inst]["kneel"] = True


def visible_names(t, viewer, since=0):
    return repr(filter_events(t.events[since:], viewer))


# --- attachments -----------------------------------------------------------------------------------

def test_L34_gutter_rats_cunning_gives_stealth_and_two_strength():
    t, plots, _ = begin()
    t.play(p("L46", 0))
    assert t.strength(p("L46", 0)) == 2 and not M.has_kw(t.state, p("L46", 0), "stealth")
    t.play(p("L34", 0), on=p("L46", 0))
    assert t.strength(p("L46", 0)) == 4 and M.has_kw(t.state, p("L46", 0), "stealth")


def test_L35_gilded_plate_saves_its_character_for_a_gold_and_is_discarded():
    t, plots, _ = begin()
    t.play(p("L41", 0))                          # Ser Ilyn Payne
    t.play(p("L46", 1))
    t.play(p("L35", 1), on=p("L46", 1))
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    t.gold(1, 3)
    t.choose(0, "action", p("L41", 0), 0)
    t.choose(0, "target", p("L46", 1))
    t.auto(lambda t: any(a["kind"] == "save" and a["seat"] == 1 for a in t.state["asks"]))
    assert ["save", p("L35", 1), 0] in t.choices(1)
    gold = t.g["players"][1]["gold"]
    t.choose(1, "save", p("L35", 1), 0)
    assert t.g["players"][1]["gold"] == gold - 1 and t.where(p("L35", 1)) == "discard"
    t.auto(lambda t: t.g["phase"] == "challenges")
    assert t.where(p("L46", 1)) == "play"


def test_L36_joffrey_claims_a_power_per_lord_killed_no_more_than_three_times_and_L191_wildfire():
    t, plots, _ = begin(plots=[p("L191", 0), p(QUIET, 1)])
    t.play(p("L36", 0))
    lords = [p(c, 1) for c in ("L37", "L38", "L40", "L141")]
    for c in lords:
        t.play(c)
    t.play(p("L46", 1))                          # an Ally, not a Lord
    reveal(t, plots)
    # Wildfire Assault: seat 0 keeps Joffrey; seat 1 keeps nothing.
    t.auto(lambda t: t.ask()["kind"] == "keep")
    assert t.ask()["seat"] == 0
    t.choose(0, "keep", p("L36", 0))          # nothing else to keep: seat 1 is asked next
    t.choose(1, "done")
    assert not any(a["kind"] == "save" for a in t.state["asks"])   # cannot be saved
    used = 0
    for _ in range(6):
        t.auto(lambda t: any(a["kind"] == "response" and a["seat"] == 0 for a in t.state["asks"])
               or t.g["phase"] != "plot")
        if t.g["phase"] != "plot":
            break
        if ["respond", p("L36", 0), 0] in t.choices(0):
            t.choose(0, "respond", p("L36", 0), 0)
            used += 1
        else:
            t.choose(0, "pass")
    assert all(t.where(c) == "dead" for c in lords) and t.where(p("L46", 1)) == "dead"
    assert used == 3 and t.g["cards"][p("L36", 0)]["power"] == 3


def test_L37_jaime_does_not_kneel_in_a_military_challenge_only():
    t, plots, _ = begin()
    t.play(p("L37", 0))
    reveal(t, plots)
    t.declare(0, "military", 1, p("L37", 0))
    assert not t.g["cards"][p("L37", 0)]["kneel"]
    t.finish_challenge()
    t.declare(0, "intrigue", 1, p("L37", 0))
    assert t.g["cards"][p("L37", 0)]["kneel"]


def test_L38_tyrion_pays_a_gold_to_draw_after_winning_an_intrigue_challenge():
    t, plots, _ = begin()
    t.play(p("L38", 0))
    reveal(t, plots)
    t.declare(0, "intrigue", 1, p("L38", 0))
    t.defend(1)
    assert ["respond", p("L38", 0), 0] in response(t, 0)
    hand, gold = len(t.g["players"][0]["hand"]), t.g["players"][0]["gold"]
    t.choose(0, "respond", p("L38", 0), 0)
    assert len(t.g["players"][0]["hand"]) == hand + 1 and t.g["players"][0]["gold"] == gold - 1


def test_L39_cersei_kneels_a_character_that_stays_kneeling_through_standing():
    t, plots, _ = begin()
    t.play(p("L39", 0))
    t.play(p("L46", 1))
    reveal(t, plots)
    at(t, "dominance", 0)
    t.gold(0, 2)
    t.choose(0, "action", p("L39", 0), 0)
    assert ["target", p("L39", 0)] not in t.choices(0)
    t.choose(0, "target", p("L46", 1))
    assert t.g["cards"][p("L46", 1)]["kneel"] and t.g["cards"][p("L39", 0)]["kneel"]
    assert t.g["players"][0]["gold"] == 0
    t.auto(lambda t: t.g["phase"] == "taxation")
    assert t.g["cards"][p("L46", 1)]["kneel"] and not t.g["cards"][p("L39", 0)]["kneel"]
    t.auto(lambda t: t.g["round"] == 2 and t.g["phase"] == "draw")
    t.auto(lambda t: t.g["phase"] == "standing")
    t.auto(lambda t: t.g["phase"] == "taxation")


def test_L40_tywin_takes_two_gold_each_marshalling_spent_as_if_in_the_pool_and_never_taxed():
    t, plots, _ = begin()
    t.play(p("L40", 0))
    t.hand(0, p("L51", 0), p("L140", 0))         # Lurkers at Harrenhal cost 6; Lordship cost 1
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    g = t.g
    assert g["cards"][p("L40", 0)]["gold"] == 2 and g["players"][0]["gold"] == 3
    assert M.spendable_gold(t.state, 0) == 5 and ["marshal", p("L51", 0)] not in t.choices(0)
    t.gold(0, 4)                                 # 4 in the pool + 2 on Tywin: Lurkers (6) is affordable
    assert ["marshal", p("L51", 0)] in t.choices(0)
    t.choose(0, "marshal", p("L51", 0))
    assert g["players"][0]["gold"] == 0 and g["cards"][p("L40", 0)]["gold"] == 0
    t.to_phase("challenges")
    t.auto(lambda t: t.g["round"] == 2 and t.g["phase"] == "marshalling" and t.state["asks"])
    assert g["cards"][p("L40", 0)]["gold"] == 2
    t.auto(lambda t: t.g["round"] == 2 and t.g["phase"] == "taxation")
    t.auto(lambda t: t.g["round"] == 3)
    assert g["cards"][p("L40", 0)]["gold"] >= 2      # gold on Tywin is not taxed


def test_L41_ser_ilyn_kills_a_character_of_strength_two_or_less_once():
    t, plots, _ = begin()
    t.play(p("L41", 0))
    t.play(p("L46", 1))                          # STR 2
    t.play(p("L37", 1))                          # STR 3
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    t.choose(0, "action", p("L41", 0), 0)
    assert ["target", p("L37", 1)] not in t.choices(0)
    t.choose(0, "target", p("L46", 1))
    t.auto(lambda t: t.where(p("L46", 1)) == "dead")
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert ["action", p("L41", 0), 0] not in t.choices()


def test_L42_the_hound_discards_the_deck_top_or_himself_and_dies_to_the_discard_pile():
    t, plots, _ = begin()
    t.play(p("L42", 0))
    top = t.g["players"][0]["deck"][0]
    reveal(t, plots)
    t.auto(lambda t: t.state["asks"] and t.ask()["kind"] == "hound")
    assert t.g["phase"] == "dominance"
    top = t.g["players"][0]["deck"][0]
    t.choose(0, "deck_top")
    assert t.where(top) == "discard" and t.where(p("L42", 0)) == "play"
    t.auto(lambda t: t.g["round"] == 2 and t.state["asks"] and t.ask()["kind"] == "hound")
    t.choose(0, "discard_hound")
    assert t.where(p("L42", 0)) == "discard"
    # Killed, he goes to the discard pile too.
    t2, plots2, _ = begin(plots=[p("L191", 0), p(QUIET, 1)])
    t2.play(p("L42", 0))
    reveal(t2, plots2)
    t2.auto(lambda t: t.where(p("L42", 0)) != "play")
    assert t2.where(p("L42", 0)) == "discard"


def test_L43_chella_pays_a_locations_cost_to_return_it_to_its_owners_hand():
    t, plots, _ = begin()
    t.play(p("L43", 0))
    t.play(p("L55", 1))                          # Lannisport, cost 2
    t.play(p("L61", 1))                          # The Goldroad, cost 0
    reveal(t, plots)
    t.declare(0, "military", 1, p("L43", 0))
    t.gold(0, 2)
    choices = response(t, 0)
    assert ["respond", p("L43", 0), 0] in choices
    t.choose(0, "respond", p("L43", 0), 0)
    assert sorted(t.choices(0)) == [["target", p("L55", 1)], ["target", p("L61", 1)]]
    t.choose(0, "target", p("L55", 1))
    t.auto(lambda t: t.where(p("L55", 1)) == "hand")
    assert t.g["players"][0]["gold"] == 0


def test_L44_bronn_stands_to_save_the_chosen_character_while_he_kneels():
    t, plots, _ = begin()
    t.play(p("L44", 0), kneel=True)
    t.play(p("L46", 0))
    t.play(p("L41", 1))
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    t.choose(0, "action", p("L44", 0), 0)
    t.choose(0, "target", p("L46", 0))
    t.auto(lambda t: t.ask()["seat"] == 1 and t.ask()["kind"] == "marshal")
    t.choose(1, "action", p("L41", 1), 0)
    t.choose(1, "target", p("L46", 0))
    t.auto(lambda t: any(a["kind"] == "save" and a["seat"] == 0 for a in t.state["asks"]))
    assert ["save", p("L44", 0), 1] in t.choices(0)
    t.choose(0, "save", p("L44", 0), 1)
    assert t.where(p("L46", 0)) == "play" and not t.g["cards"][p("L44", 0)]["kneel"]


def test_L45_pycelle_answers_an_opponents_reveal_but_not_another_pycelle():
    t, plots, _ = begin()
    t.play(p("L45", 0))
    t.play(p("L45", 1))
    reveal(t, plots)
    at(t, "dominance", 0)
    t.hand(0, p("L164", 0))
    t.gold(0, 2)
    top = t.g["players"][1]["deck"][0]
    t.choose(0, "action", p("L164", 0), 0)
    t.choose(0, "target", "The Hound")
    assert ["respond", p("L45", 1), 0] in response(t, 1)
    t.choose(1, "respond", p("L45", 1), 0)
    t.auto(lambda t: t.where(top) == "hand")
    # Seat 0's Pycelle may not answer the other Pycelle's reveal.
    ev = {"e": "cards_revealed", "seat": 1, "cards": [top], "why": "L45"}
    assert A.response_choices(t.state, 0, ev) == []
    # No more than 3 times a phase.
    t.g["limits"]["%s/0" % p("L45", 1)] = 3
    assert A.response_choices(t.state, 1, {"e": "cards_revealed", "seat": 0, "cards": [], "why": "L164"}) == []


def test_L46_raff_peeks_at_an_opponents_top_card_told_to_him_alone():
    t, plots, _ = begin()
    t.play(p("L46", 0))
    reveal(t, plots)
    at(t, "draw", 0)
    t.gold(0, 1)
    top = t.g["players"][1]["deck"][0]
    since = len(t.events)
    t.choose(0, "action", p("L46", 0), 0)
    t.choose(0, "target", 1)
    assert t.choices(0) == [["leave"], ["bottom"]]
    t.choose(0, "bottom")
    assert t.g["players"][1]["deck"][-1] == top and t.g["players"][0]["gold"] == 0
    assert top in visible_names(t, 0, since)
    assert top not in visible_names(t, PUBLIC, since) and top not in visible_names(t, 1, since)
    assert top not in repr(t.view(1)) and top not in repr(t.view(PUBLIC))
    t.auto(lambda t: t.state["asks"] and t.ask()["seat"] == 0 and t.ask()["kind"] == "action")
    assert ["action", p("L46", 0), 0] not in t.choices(0)   # no gold left


def test_L47_jacelyn_killed_makes_each_opponent_discard_at_random_told_to_its_owner():
    t, plots, _ = begin(plots=[p("L191", 0), p(QUIET, 1)])
    t.play(p("L47", 0))
    reveal(t, plots)
    hand = list(t.g["players"][1]["hand"])
    t.auto(lambda t: t.ask()["kind"] == "keep")
    t.choose(0, "done")
    since = len(t.events)
    assert ["respond", p("L47", 0), 0] in response(t, 0)
    t.choose(0, "respond", p("L47", 0), 0)
    gone = [c for c in hand if t.where(c) == "discard"]
    assert len(gone) == 1 and len(t.g["players"][1]["hand"]) == len(hand) - 1
    assert gone[0] in visible_names(t, 1, since) and gone[0] not in visible_names(t, PUBLIC, since)
    assert [e for e in filter_events(t.events, PUBLIC) if e["e"] == "discarded_at_random"][-1]["count"] == 1


def test_L48_enemy_informer_kneels_a_character_when_played_from_hand():
    t, plots, _ = begin()
    t.play(p("L46", 1))
    t.hand(0, p("L48", 0))
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    t.gold(0, 3)
    t.choose(0, "marshal", p("L48", 0))
    assert ["respond", p("L48", 0), 0] in response(t, 0)
    t.choose(0, "respond", p("L48", 0), 0)
    t.choose(0, "target", p("L46", 1))
    assert t.g["cards"][p("L46", 1)]["kneel"]


def test_L49_qyburns_informers_draw_two_after_winning_an_intrigue_challenge_they_took_part_in():
    t, plots, _ = begin()
    t.play(p("L49", 0))
    reveal(t, plots)
    t.declare(0, "intrigue", 1, p("L49", 0))
    t.defend(1)
    hand = len(t.g["players"][0]["hand"])
    t.choose(0, "respond", p("L49", 0), 0) if ["respond", p("L49", 0), 0] in response(t, 0) else None
    assert len(t.g["players"][0]["hand"]) == hand + 2


def test_L50_cersei_s_attendant_killed_kneels_a_character():
    t, plots, _ = begin()
    t.play(p("L50", 0))
    t.play(p("L41", 1))
    t.play(p("L46", 1))
    reveal(t, plots)
    at(t, "marshalling", 1, "marshal")
    t.choose(1, "action", p("L41", 1), 0)
    t.choose(1, "target", p("L50", 0))
    assert ["respond", p("L50", 0), 1] in response(t, 0)       # its own death, from the dead pile
    t.choose(0, "respond", p("L50", 0), 1)
    t.choose(0, "target", p("L46", 1))
    assert t.where(p("L50", 0)) == "dead" and t.g["cards"][p("L46", 1)]["kneel"]


def test_L51_lurkers_at_harrenhal_stealth_and_deadly():
    t, plots, _ = begin()
    t.play(p("L51", 0))
    t.play(p("L46", 1))
    t.play(p("L53", 1))
    reveal(t, plots)
    t.declare(0, "intrigue", 1, p("L51", 0))
    t.auto(lambda t: t.ask()["kind"] == "stealth")
    t.choose(0, "stealth", p("L51", 0), p("L46", 1))
    assert p("L46", 1) in t.g["challenge"]["stealthed"]
    assert M.has_kw(t.state, p("L51", 0), "deadly") and M.has_kw(t.state, p("L51", 0), "no_attachments")


@pytest.mark.parametrize("code,income", [("L52", 2), ("L53", 1)])
def test_L52_L53_lannisport_steward_and_weaponsmith_add_income(code, income):
    t, plots, _ = begin()
    t.play(p(code, 0))
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    assert [e for e in t.events if e["e"] == "income" and e["seat"] == 0][-1]["gold"] == 3 + income


def test_L54_honor_guard_goes_to_an_opponent_and_comes_back_when_it_wins_for_them():
    t, plots, _ = begin()
    t.hand(0, p("L54", 0))
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    assert ["action", p("L54", 0), 0] not in t.choices(0)     # Challenges only
    at(t, "challenges", 0)
    t.choose(0, "action", p("L54", 0), 0)
    assert t.choices(0) == [["target", 1]]
    t.choose(0, "target", 1)
    assert t.g["cards"][p("L54", 0)]["ctrl"] == 1 and p("L54", 0) in t.g["players"][1]["play"]
    t.auto(lambda t: t.g["phase"] == "challenges" and any(a["kind"] == "challenge" and a["seat"] == 1
                                                          for a in t.state["asks"]))
    t.declare(1, "military", 0, p("L54", 0))
    t.finish_challenge()
    assert t.g["cards"][p("L54", 0)]["ctrl"] == 0 and p("L54", 0) in t.g["players"][0]["play"]


def test_L55_lannisport_a_gold_for_a_power_after_an_intrigue_win_once_per_challenge():
    t, plots, _ = begin()
    t.play(p("L55", 0))
    t.play(p("L38", 0))
    reveal(t, plots)
    t.declare(0, "intrigue", 1, p("L38", 0))
    t.defend(1)
    assert ["respond", p("L55", 0), 0] in response(t, 0)
    power = t.g["players"][0]["power"]
    t.choose(0, "respond", p("L55", 0), 0)
    assert t.g["players"][0]["power"] == power + 1
    ev = {"e": "won_challenge", "winner": 0, "type": "intrigue", "participants": []}
    assert ["respond", p("L55", 0), 0] not in A.response_choices(t.state, 0, ev)


def test_L56_lannisport_brothel_kneels_again_a_character_that_stood():
    t, plots, _ = begin()
    t.play(p("L56", 0))
    t.play(p("L46", 1), kneel=True)
    reveal(t, plots)
    t.auto(lambda t: t.g["phase"] == "standing" and any(a["kind"] == "response" and a["seat"] == 0
                                                        for a in t.state["asks"]))
    t.choose(0, "respond", p("L56", 0), 0)
    t.choose(0, "target", p("L46", 1))
    assert t.g["cards"][p("L46", 1)]["kneel"] and t.g["cards"][p("L56", 0)]["kneel"]


def test_L57_golden_tooth_mines_draws_a_card_when_you_reveal_a_plot():
    t, plots, _ = begin()
    t.play(p("L57", 0))
    hand = len(t.g["players"][0]["hand"])
    other = len(t.g["players"][1]["hand"])
    reveal(t, plots)
    t.auto(lambda t: t.g["phase"] == "draw")
    assert len(t.g["players"][0]["hand"]) - hand == len(t.g["players"][1]["hand"]) - other + 1


def test_L58_L59_western_fiefdoms_take_one_off_the_next_lannister_card_and_give_influence():
    for code in ("L58", "L59"):
        t, plots, _ = begin()
        t.play(p(code, 0))
        t.hand(0, p("L55", 0), p("L143", 0))
        assert A.available_influence(t.state, 0) == 1
        reveal(t, plots)
        at(t, "marshalling", 0, "marshal")
        t.choose(0, "action", p(code, 0), 0)
        t.auto(lambda t: t.ask()["kind"] == "marshal")
        assert M.gold_cost(t.state, 0, p("L143", 0)) == 2          # neutral: not reduced
        assert M.gold_cost(t.state, 0, p("L55", 0)) == 1
        assert ["action", p(code, 0), 0] not in t.choices(0)


def test_L60_queen_cerseis_chambers_played_on_the_house_card_is_no_location_for_chella():
    t, plots, _ = begin()
    t.hand(1, p("L60", 1))
    t.play(p("L43", 0))
    t.play(p("L55", 1))
    reveal(t, plots)
    at(t, "marshalling", 1, "marshal")
    assert ["marshal", p("L60", 1)] in t.choices(1)             # as a location, or
    gold = t.g["players"][1]["gold"]
    t.choose(1, "action", p("L60", 1), 0)                       # as an attachment on the House card
    t.auto(lambda t: t.g["phase"] == "challenges" or t.ask()["kind"] == "marshal" and t.ask()["seat"] == 1)
    assert t.where(p("L60", 1)) == "play" and t.g["players"][1]["gold"] == gold - 1
    assert A.available_influence(t.state, 1) == 1
    t.declare(0, "military", 1, p("L43", 0))
    t.gold(0, 5)
    response(t, 0)
    t.choose(0, "respond", p("L43", 0), 0)
    assert t.choices(0) == [["target", p("L55", 1)]]


def test_L60_queen_cerseis_chambers_income_and_influence():
    t, plots, _ = begin()
    t.play(p("L60", 0))
    assert A.available_influence(t.state, 0) == 1
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    assert [e for e in t.events if e["e"] == "income" and e["seat"] == 0][-1]["gold"] == 4


def test_L61_L62_L63_the_goldroad_adds_income_and_is_limited():
    t, plots, _ = begin()
    t.hand(0, p("L61", 0), p("L62", 0), p("L63", 0))
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    t.choose(0, "marshal", p("L61", 0))
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert ["marshal", p("L62", 0)] not in t.choices(0) and ["marshal", p("L63", 0)] not in t.choices(0)
    t.play(p("L62", 0))
    t.play(p("L63", 0))
    assert flow.income(t.state, 0) == 3 + 3


def test_L64_hall_of_heroes_takes_two_off_the_next_lannister_character():
    t, plots, _ = begin()
    t.play(p("L64", 0))
    t.hand(0, p("L40", 0), p("L55", 0))
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    t.choose(0, "action", p("L64", 0), 0)
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert M.gold_cost(t.state, 0, p("L40", 0)) == 3 and M.gold_cost(t.state, 0, p("L55", 0)) == 2


def test_L65_sunset_sea_is_discarded_to_take_two_off_a_lannister_or_greyjoy_character():
    t, plots, _ = begin()
    t.play(p("L65", 0))
    assert A.available_influence(t.state, 0) == 1
    t.hand(0, p("L40", 0), p("L55", 0))
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    t.choose(0, "action", p("L65", 0), 0)
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert t.where(p("L65", 0)) == "discard"
    assert M.gold_cost(t.state, 0, p("L40", 0)) == 3 and M.gold_cost(t.state, 0, p("L55", 0)) == 2
    t.gold(0, 3)
    t.choose(0, "marshal", p("L40", 0))
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert t.g["players"][0]["gold"] == 0 and t.g["players"][0]["reducers"] == []


def test_L140_lordship_a_power_icon_and_four_strength_in_dominance():
    t, plots, _ = begin()
    t.play(p("L53", 0))                          # STR 1, military only
    t.play(p("L140", 0), on=p("L53", 0))
    assert "power" in M.icons(t.state, p("L53", 0)) and t.strength(p("L53", 0)) == 1
    reveal(t, plots)
    t.auto(lambda t: t.g["phase"] == "dominance")
    assert t.strength(p("L53", 0)) == 5
    assert [e for e in t.events if e["e"] == "dominance"][-1]["totals"][0] >= 5


def test_L141_littlefinger_strength_rises_with_gold_and_income_two():
    t, plots, _ = begin()
    t.play(p("L141", 0))
    assert t.strength(p("L141", 0)) == 3
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    assert t.g["players"][0]["gold"] == 5 and t.strength(p("L141", 0)) == 8


def test_L142_varys_trades_plot_decks_with_two_or_more_opponents_only():
    t, plots, _ = begin(players=3)
    t.play(p("L142", 0))
    reveal(t, plots)
    at(t, "plot", 0)
    t.choose(0, "action", p("L142", 0), 0)
    assert sorted(t.choices(0)) == [["target", 1], ["target", 2]]
    t.choose(0, "target", 2)
    assert {(e["target"], e["value"]) for e in t.g["effects"] if e["kind"] == "plots_traded"} == {(0, 2), (2, 0)}
    assert t.g["cards"][p("L142", 0)]["kneel"]
    t.auto(lambda t: t.g["round"] == 2)
    assert not [e for e in t.g["effects"] if e["kind"] == "plots_traded"]
    t2, plots2, _ = begin()
    t2.play(p("L142", 0))
    reveal(t2, plots2)
    assert ["action", p("L142", 0), 0] not in at(t2, "plot", 0) if t2.asks_of("action") else True


def test_L143_crossroads_income_and_influence():
    t, plots, _ = begin()
    t.play(p("L143", 0))
    assert A.available_influence(t.state, 0) == 1
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    assert [e for e in t.events if e["e"] == "income" and e["seat"] == 0][-1]["gold"] == 4


def test_L144_shadowblack_lane_takes_one_off_the_next_character_with_an_intrigue_icon():
    t, plots, _ = begin()
    t.play(p("L144", 0))
    t.hand(0, p("L42", 0), p("L46", 0))         # The Hound: military only; Raff: intrigue
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    t.choose(0, "action", p("L144", 0), 0)
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert M.gold_cost(t.state, 0, p("L42", 0)) == 2 and M.gold_cost(t.state, 0, p("L46", 0)) == 1


def test_L161_i_never_bet_against_my_family_lowers_an_opponents_claim():
    t, plots, _ = begin()
    t.play(p("L46", 0))
    t.play(p("L37", 0))
    t.play(p("L42", 1))
    t.hand(0, p("L161", 0))
    reveal(t, plots, first=1)
    t.declare(1, "military", 0, p("L42", 1))
    t.defend(0)
    at(t, "challenges", 0)
    t.gold(0, 2)
    t.choose(0, "action", p("L161", 0), 0)
    assert sorted(t.choices(0)) == [["target", p("L37", 0)], ["target", p("L46", 0)]]
    t.choose(0, "target", p("L37", 0))
    t.choose(0, "pay", 2)
    t.finish_challenge()
    assert t.result()["winner"] == 1
    assert not any(k == "claim_kill" for _, k in t.asked)
    assert t.where(p("L46", 0)) == "play" and t.g["cards"][p("L37", 0)]["kneel"]
    assert t.where(p("L161", 0)) == "discard"


def test_L162_the_lions_will_kneels_a_character_for_two_gold():
    t, plots, _ = begin()
    t.play(p("L46", 1))
    t.hand(0, p("L162", 0))
    reveal(t, plots)
    at(t, "draw", 0)
    assert ["action", p("L162", 0), 0] not in t.choices(0)       # no gold yet
    at(t, "challenges", 0)
    t.gold(0, 2)
    t.choose(0, "action", p("L162", 0), 0)
    t.choose(0, "target", p("L46", 1))
    assert t.g["cards"][p("L46", 1)]["kneel"] and t.g["players"][0]["gold"] == 0


def test_L163_insidious_ways_plus_two_and_two_cards_on_a_win():
    t, plots, _ = begin()
    t.play(p("L46", 0))
    t.play(p("L37", 1))
    t.hand(0, p("L163", 0))
    reveal(t, plots)
    t.declare(0, "military", 1, p("L46", 0))
    t.defend(1, p("L37", 1))
    at(t, "challenges", 0)
    t.choose(0, "action", p("L163", 0), 0)
    assert t.choices(0) == [["target", p("L46", 0)]]
    t.choose(0, "target", p("L46", 0))
    hand = len(t.g["players"][0]["hand"])
    t.until_ask("claim_kill", 1)
    t.finish_challenge()
    assert t.result()["winner"] == 0 and len(t.g["players"][0]["hand"]) == hand + 2


def test_L164_call_their_bluff_shows_the_hand_and_discards_every_card_of_the_name():
    t, plots, _ = begin()
    t.play(p("L36", 0))
    reveal(t, plots)
    at(t, "dominance", 0)
    t.hand(0, p("L164", 0))
    t.hand(1, p("L58", 1), p("L59", 1), p("L46", 1))
    t.gold(0, 2)
    t.choose(0, "action", p("L164", 0), 0)
    t.choose(0, "target", "Western Fiefdoms")
    assert t.where(p("L58", 1)) == "discard" and t.where(p("L59", 1)) == "discard" and t.where(p("L46", 1)) == "hand"
    shown = [e for e in filter_events(t.events, PUBLIC) if e["e"] == "hand_revealed"]
    assert shown and p("L46", 1) in shown[-1]["cards"]      # the card shows the hand to everyone


def test_L165_im_you_writ_small_gives_deadly_then_stays_as_a_two_strength_boon():
    t, plots, _ = begin()
    t.play(p("L46", 0))
    t.play(p("L53", 0))
    t.hand(0, p("L165", 0))
    reveal(t, plots)
    at(t, "challenges", 0)
    t.choose(0, "action", p("L165", 0), 0)
    t.choose(0, "target", p("L53", 0))
    assert M.has_kw(t.state, p("L53", 0), "deadly")
    t.auto(lambda t: t.ask()["kind"] == "target")
    t.choose(0, "target", p("L46", 0))
    assert t.where(p("L165", 0)) == "play" and t.g["cards"][p("L165", 0)]["on"] == p("L46", 0)
    assert t.strength(p("L46", 0)) == 4
    t.auto(lambda t: t.g["phase"] == "dominance")
    assert not M.has_kw(t.state, p("L53", 0), "deadly") and t.strength(p("L46", 0)) == 4


def test_L166_a_lannister_pays_his_debts_kills_a_winning_participant():
    t, plots, _ = begin()
    t.play(p("L53", 0))
    t.play(p("L37", 0), kneel=True)
    t.play(p("L46", 0))
    t.play(p("L42", 1))
    t.play(p("L43", 1))
    t.hand(0, p("L166", 0))
    reveal(t, plots, first=1)
    t.declare(1, "military", 0, p("L42", 1))
    t.defend(0, p("L53", 0))
    t.auto(lambda t: any(a["kind"] == "claim_kill" for a in t.state["asks"]))
    t.choose(0, "kill", p("L53", 0))
    assert ["respond", p("L166", 0), 0] in response(t, 0)
    t.choose(0, "respond", p("L166", 0), 0)
    assert t.choices(0) == [["target", p("L42", 1)]]              # a participant of the winner only
    t.choose(0, "target", p("L42", 1))
    assert t.choices(0) == [["kneel", p("L46", 0)]]               # a standing Lannister character
    t.choose(0, "kneel", p("L46", 0))
    t.auto(lambda t: t.where(p("L42", 1)) != "play")
    assert t.where(p("L42", 1)) == "discard"                      # The Hound goes to the discard pile


def test_L167_youve_killed_the_wrong_dwarf_kneels_a_non_noble_who_claims_a_power():
    t, plots, _ = begin()
    t.play(p("L46", 1))
    t.play(p("L39", 1))                          # Cersei: Noble
    t.hand(0, p("L167", 0))
    reveal(t, plots)
    at(t, "draw", 0)
    t.choose(0, "action", p("L167", 0), 0)
    assert ["target", p("L39", 1)] not in t.choices(0)
    t.choose(0, "target", p("L46", 1))
    assert t.g["cards"][p("L46", 1)]["kneel"] and t.g["cards"][p("L46", 1)]["power"] == 1


def test_L178_shae_kneels_a_character_whose_controller_has_more_power():
    t, plots, _ = begin()
    t.play(p("L178", 0))
    t.play(p("L46", 1))
    reveal(t, plots)
    at(t, "challenges", 0)
    assert ["action", p("L178", 0), 0] not in t.choices(0)       # equal power: no target
    t.power(1, 2)
    t.choose(0, "action", p("L178", 0), 0)
    t.choose(0, "target", p("L46", 1))
    assert t.g["cards"][p("L46", 1)]["kneel"] and t.g["cards"][p("L178", 0)]["kneel"]


def test_L188_drunken_allegations_you_and_an_opponent_each_kneel_a_character():
    t, plots, _ = begin(plots=[p("L188", 0), p(QUIET, 1)])
    t.play(p("L46", 0))
    t.play(p("L53", 1))
    t.play(p("L37", 1))
    reveal(t, plots)
    t.auto(lambda t: t.ask()["kind"] == "target")
    t.choose(0, "target", 1)
    t.choose(0, "kneel", p("L46", 0))
    assert sorted(t.choices(1)) == [["kneel", p("L37", 1)], ["kneel", p("L53", 1)]]
    t.choose(1, "kneel", p("L53", 1))
    assert t.g["cards"][p("L46", 0)]["kneel"] and t.g["cards"][p("L53", 1)]["kneel"]
    assert not t.g["cards"][p("L37", 1)]["kneel"]


def test_L189_mutual_blackmail_bars_intrigue_challenges_between_two_players():
    t, plots, _ = begin(players=3, plots=[p("L189", 0), p("L192", 1), p("L192", 2)])
    for s in range(3):
        t.play(p("L46", s))
    reveal(t, plots)
    t.auto(lambda t: t.ask()["kind"] == "target")
    t.choose(0, "target", 1)
    options = at(t, "challenges", 0, "challenge")
    assert ["challenge", "intrigue", 1] not in options and ["challenge", "intrigue", 2] in options
    assert ["challenge", "military", 1] in options
    # With one opponent it does nothing.
    t2, plots2, _ = begin()
    t2.play(p("L46", 0))
    reveal(t2, plots2)
    assert ["challenge", "intrigue", 1] in at(t2, "challenges", 0, "challenge")


def test_L190_planning_ahead_no_taxation_this_round():
    t, plots, _ = begin(plots=[p("L190", 0), p(QUIET, 1)])
    reveal(t, plots)
    t.auto(lambda t: t.g["phase"] == "standing")
    t.gold(1, 2)
    before = t.g["players"][0]["gold"]
    t.auto(lambda t: t.g["round"] == 2)
    assert t.g["players"][0]["gold"] == before > 0 and t.g["players"][1]["gold"] == 0


def test_L191_wildfire_assault_kills_all_but_three_each_and_cannot_be_saved():
    t, plots, _ = begin(plots=[p("L191", 0), p(QUIET, 1)])
    mine = [p(c, 0) for c in ("L46", "L53", "L52", "L50")]
    for c in mine:
        t.play(c)
    t.play(p("L36", 1))
    t.dup(p("L141", 1), p("L36", 1)) if False else None
    t.play(p("L35", 1), on=p("L36", 1))          # Gilded Plate: not offered
    reveal(t, plots)
    t.auto(lambda t: t.ask()["kind"] == "keep")
    for c in mine[:3]:
        t.choose(0, "keep", c)
    assert t.ask()["seat"] == 1                  # a fourth is not offered: seat 1 next
    t.choose(1, "done")
    assert not t.asks_of("save")
    t.auto(lambda t: t.g["phase"] != "plot")
    assert [t.where(c) for c in mine] == ["play", "play", "play", "dead"] and t.where(p("L36", 1)) == "dead"


def test_L192_hear_me_roar_characters_without_intrigue_have_minus_one():
    t, plots, _ = begin(plots=[p("L192", 0), p(QUIET, 1)])
    t.play(p("L42", 1))                          # military only: 4
    t.play(p("L46", 1))                          # intrigue: 2
    reveal(t, plots)
    assert t.strength(p("L42", 1)) == 3 and t.strength(p("L46", 1)) == 2


def test_L193_blockade_sets_opponents_plot_income_to_zero():
    t, plots, _ = begin(plots=[p("L193", 0), p(QUIET, 1)])
    t.play(p("L52", 1))
    reveal(t, plots)
    assert flow.income(t.state, 1) == 2 and flow.income(t.state, 0) == 0


def test_L194_the_power_of_blood_noble_characters_cannot_be_killed():
    t, plots, _ = begin(plots=[p("L194", 0), p(QUIET, 1)])
    t.play(p("L41", 0))
    t.play(p("L36", 1))                          # Joffrey: Noble, STR 2
    t.play(p("L46", 1))
    reveal(t, plots)
    at(t, "marshalling", 0, "marshal")
    t.choose(0, "action", p("L41", 0), 0)
    t.choose(0, "target", p("L36", 1))
    t.auto(lambda t: t.g["phase"] == "challenges")
    assert t.where(p("L36", 1)) == "play"


def test_L50_cerseis_attendant_in_play_answers_cerseis_death_but_not_a_strangers():
    t, plots, _ = begin(plots=[p("L191", 0), p(QUIET, 1)])
    t.play(p("L50", 0))
    t.play(p("L39", 0))                          # Cersei
    t.play(p("L46", 0))
    t.play(p("L53", 0))
    t.play(p("L37", 1))
    reveal(t, plots)
    t.auto(lambda t: t.ask()["kind"] == "keep")
    for c in (p("L50", 0), p("L46", 0), p("L53", 0)):
        t.choose(0, "keep", c)
    t.choose(1, "keep", p("L37", 1))
    assert ["respond", p("L50", 0), 0] in response(t, 0)      # Cersei was killed
    t.choose(0, "respond", p("L50", 0), 0)
    t.choose(0, "target", p("L37", 1))
    assert t.where(p("L39", 0)) == "dead" and t.g["cards"][p("L37", 1)]["kneel"]
    ev = {"e": "killed", "card": p("L46", 0), "seat": 0}
    assert A.response_choices(t.state, 0, ev) == []


def test_L42_L46_L161_L164_the_lannister_cards_events_have_their_own_words():
    from maester.games.lcg.text import describe_event
    t, plots, _ = begin()
    g, cards = t.g, cardtables.table(t.state)
    events = [{"e": "milled", "seat": 0, "cards": [p("L46", 0)], "why": "L42"},
              {"e": "peeked", "vis": [0], "seat": 0, "whose": 1, "card": p("L46", 1)},
              {"e": "peek", "seat": 0, "whose": 1}, {"e": "to_bottom", "seat": 0, "whose": 1},
              {"e": "gold_on_card", "seat": 0, "card": p("L40", 0), "amount": 2},
              {"e": "claim_lowered", "seat": 0, "amount": 2}, {"e": "named", "seat": 0, "name": "The Hound"},
              {"e": "hand_revealed", "seat": 1, "cards": [p("L46", 1)], "why": "L164"},
              {"e": "plots_traded", "seat": 0, "other": 2}, {"e": "no_taxation", "seat": 0}]
    for e in events:
        line = describe_event(g, e, e["vis"][0] if e.get("vis") else PUBLIC, cards)
        assert line and not line.startswith(e["e"].replace("_", " ").capitalize() + ":"), e
    assert describe_event(g, events[1], PUBLIC, cards) is None       # the peek is its user's alone
