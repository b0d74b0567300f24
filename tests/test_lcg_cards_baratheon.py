"""The Baratheon starter deck's cards (issue 13): one test per card, named after its code(s), that
puts the card where its ability matters and checks what the card says, and that its limits hold.

Seat 0 plays the Baratheon deck; the opponent (seat 1) another copy of it unless told. Both reveal
Rains of Autumn (4 income, claim 1: cards' income counts for nothing) unless the test is about a plot.
"""

import pytest

from lcg_harness import Table, table_with, worded
from maester.engine import PUBLIC, filter_events
from maester.games.lcg import abilities as A
from maester.games.lcg import effects as E
from maester.games.lcg import model as M
from maester.games.lcg.cards import card_table

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

RAINS = "B184"


def p(code, seat=0):
    return "%s#%d" % (code, seat)


def table(decks=("baratheon", "baratheon"), players=2, **kw):
    return Table(players, decks=list(decks), **kw)


def begin(t, plots=None, first=0):
    """Reveal the plots (Rains of Autumn by default) and make `first` the first player."""
    plots = plots or [p(RAINS, s) for s in range(t.g["n"])]
    t.plots(*plots)
    t.auto(lambda t: bool(t.asks_of("first_player")))
    t.choose(t.asks_of("first_player")[0]["seat"], "first", first)


def to_challenges(t, seat=0, **kw):
    begin(t, **kw)
    t.until_ask("challenge", seat)


def action_until(t, seat, choice):
    """Play on (passing) until `seat` is offered `choice` in a window."""
    t.auto(lambda t: any(a["seat"] == seat and choice in a["choices"] for a in t.state["asks"]))


def offered(t, seat, choice):
    return any(a["seat"] == seat and choice in a["choices"] for a in t.state["asks"])


def claim_kill(t, attacker_seat, victim_seat, attacker, victim):
    """`attacker_seat` wins an undefended military challenge with `attacker`; the victim chooses `victim`."""
    t.declare(attacker_seat, "military", victim_seat, attacker)
    t.defend(victim_seat)
    t.until_ask("claim_kill", victim_seat)
    t.choose(victim_seat, "kill", victim)


def hidden_from_others(t, seat, names):
    """No event another seat (or the public) may read names one of these cards."""
    for viewer in [PUBLIC] + [s for s in range(t.g["n"]) if s != seat]:
        text = repr(filter_events(t.events, viewer))
        for inst in names:
            assert inst not in text, (viewer, inst)
        view = repr(t.view(viewer))
        for inst in names:
            if t.g["cards"][inst]["zone"] in ("deck", "hand"):
                assert inst not in view, (viewer, inst)


MY_EVENTS = ("gold_paid", "plot_replaced", "not_attached", "returned_to_hand")



# --- attachments ----------------------------------------------------------------------------------

def test_B66_shadows_blessing_plus_two_with_a_power_icon_minus_two_without():
    t = table()
    t.play(p("B87"))                                    # Bastard of Robert: power icon, STR 1
    t.play(p("B80"))                                    # Devan Seaworth: military/intrigue, STR 2
    t.play(p("B66"), on=p("B87"))
    assert t.strength(p("B87")) == 3
    t.to("discard", p("B66"))
    t.play(p("B66"), on=p("B80"))
    assert t.strength(p("B80")) == 0 and t.strength(p("B87")) == 1


def test_B67_motley_the_hosts_controller_hands_over_a_gold_to_declare_it_or_use_its_ability():
    t = table()
    t.play(p("B73", 1), kneel=True)                     # Renly (stands himself for 1 influence)
    t.play(p("B89", 1))
    t.play(p("B148", 1))
    t.play(p("B67", 0), seat=0, on=p("B73", 1))
    t.play(p("B67", 1), seat=0, on=p("B89", 1))         # a second Motley (a copy for the test)
    t.play(p("B87", 0))
    to_challenges(t, seat=1, first=1)
    g = t.g
    t.gold(1, 1)
    t.gold(0, 0)
    assert ["action", p("B73", 1), 0] in A.action_choices(t.state, 1, "challenges")
    t.declare(1, "power", 0, p("B89", 1))               # hands 1 gold to seat 0
    assert g["players"][1]["gold"] == 0 and g["players"][0]["gold"] == 1
    assert ["action", p("B73", 1), 0] not in A.action_choices(t.state, 1, "challenges")  # no gold left
    t.finish_challenge()
    from maester.games.lcg import challenge
    g["cards"][p("B89", 1)]["kneel"] = False
    assert p("B89", 1) not in challenge.can_attack_with(t.state, 1, "military")   # no gold to hand over
    t.gold(1, 1)
    assert p("B89", 1) in challenge.can_attack_with(t.state, 1, "military")


def test_B68_lightbringer_kneels_to_save_the_character_it_is_on_once():
    t = table()
    t.play(p("B80", 0))
    t.play(p("B68", 0), on=p("B80", 0))
    t.play(p("B89", 1))                                 # Host of Storm's End, STR 6
    to_challenges(t, seat=1, first=1)
    claim_kill(t, 1, 0, p("B89", 1), p("B80", 0))
    t.until_ask("save", 0)
    assert ["save", p("B68", 0), 0] in t.choices(0)
    t.choose(0, "save", p("B68", 0), 0)
    assert t.where(p("B80", 0)) == "play" and t.g["cards"][p("B68", 0)]["kneel"]
    # Knelt, it cannot save again.
    assert not A.save_choices(t.state, 0, p("B80", 0), "kill")


def test_B69_stinking_drunk_minus_four_only_while_in_a_challenge():
    t = table()
    t.play(p("B89", 0))
    t.play(p("B69", 1), seat=0, on=p("B89", 0))         # the opponent's Stinking Drunk on our Host
    t.play(p("B87", 1))
    to_challenges(t)
    assert t.strength(p("B89", 0)) == 6
    t.declare(0, "military", 1, p("B89", 0))
    assert t.strength(p("B89", 0)) == 2
    t.finish_challenge()
    assert t.strength(p("B89", 0)) == 6


def test_B70_selyse_gives_a_unique_character_an_intrigue_icon_for_the_phase():
    t = table()
    t.play(p("B70"))
    t.play(p("B92"))                                    # Stormlands Fiefdoms: 1 influence
    t.play(p("B89"))                                    # not unique: no target
    t.play(p("B72"))                                    # Stannis: unique, military/power
    to_challenges(t)
    t.choose(0, "done")
    action_until(t, 0, ["action", p("B70"), 0])
    t.choose(0, "action", p("B70"), 0)
    targets = [c[1] for c in t.choices(0)]
    assert p("B72") in targets and p("B89") not in targets
    t.choose(0, "target", p("B72"))
    t.choose(0, "kneel_influence", p("B92"))
    assert "intrigue" in M.icons(t.state, p("B72"))
    t.to_phase("dominance")
    assert "intrigue" not in M.icons(t.state, p("B72"))


@pytest.mark.parametrize("robert", ["B71", "B90"])
def test_B71_B90_robert_claims_one_more_power_through_renown(robert):
    t = table()
    t.play(p(robert))
    to_challenges(t)
    t.declare(0, "power", 1, p(robert))
    t.defend(1)
    t.finish_challenge()
    assert t.g["cards"][p(robert)]["power"] == 2      # Renown 1, and 1 more


def test_B72_stannis_attacking_bars_defenders_of_a_player_without_a_lord():
    t = table()
    t.play(p("B72", 0))
    t.play(p("B89", 1))                                 # no Lord
    to_challenges(t)
    t.declare(0, "military", 1, p("B72", 0))
    t.defend(1)                                         # not even asked
    assert not [a for a in t.offered if a[1]["kind"] == "defenders"]
    t.finish_challenge()
    # With a Lord (Renly) on the defending side, defenders may be declared.
    t2 = table()
    t2.play(p("B72", 0))
    t2.play(p("B89", 1))
    t2.play(p("B73", 1))
    to_challenges(t2)
    t2.declare(0, "military", 1, p("B72", 0))
    t2.defend(1, p("B89", 1))
    assert p("B89", 1) in t2.g["challenge"]["defenders"]


def test_B73_renly_kneels_influence_to_stand_himself_only_when_knelt():
    t = table()
    t.play(p("B73"), kneel=True)
    t.play(p("B148"))                                   # Crossroads: 1 influence
    begin(t)
    action_until(t, 0, ["action", p("B73"), 0])
    t.choose(0, "action", p("B73"), 0)
    t.choose(0, "kneel_influence", p("B148"))
    assert not t.g["cards"][p("B73")]["kneel"]
    assert ["action", p("B73"), 0] not in A.action_choices(t.state, 0, t.g["phase"])


def test_B74_melisandre_asshai_plus_one_and_opponents_character_power_left_out():
    t = table()
    t.play(p("B74", 0))
    t.play(p("B84", 0))                                 # Old Red Priest: Asshai, STR 1
    t.play(p("B89", 1), power=3)
    t.power(1, 2)
    assert t.strength(p("B84", 0)) == 2 and t.strength(p("B74", 0)) == 4
    assert t.total_power(1) == 2
    t.g["cards"][p("B74", 0)]["kneel"] = True
    assert t.total_power(1) == 5 and t.strength(p("B84", 0)) == 1


@pytest.mark.parametrize("gold", [3, 0])
def test_B75_davos_saves_himself_then_pays_a_gold_or_goes_to_hand(gold):
    t = table()
    t.play(p("B75", 0))
    t.play(p("B89", 1))
    to_challenges(t, seat=1, first=1)
    t.gold(0, gold)
    claim_kill(t, 1, 0, p("B89", 1), p("B75", 0))
    t.until_ask("save", 0)
    t.choose(0, "save", p("B75", 0), 0)
    if gold:
        t.choose(0, "pay_gold")
        assert t.where(p("B75", 0)) == "play" and t.g["players"][0]["gold"] == gold - 1
        assert worded(t, MY_EVENTS) == {"gold_paid"}
    else:
        assert t.where(p("B75", 0)) == "hand"


def test_B76_brienne_renown_and_immune_to_opponents_character_abilities():
    t = table()
    t.play(p("B76", 0))
    t.play(p("B70", 0))
    t.play(p("B70", 1))
    own = A.legal_targets(t.state, 0, p("B70", 0), A.ABILITIES["B70"][0])
    theirs = A.legal_targets(t.state, 1, p("B70", 1), A.ABILITIES["B70"][0])
    assert p("B76", 0) in own and p("B76", 0) not in theirs
    to_challenges(t)
    t.declare(0, "military", 1, p("B76", 0))
    t.defend(1)
    t.finish_challenge()
    assert t.g["cards"][p("B76", 0)]["power"] == 1


def test_B77_maester_cressen_discards_a_condition_attachment():
    t = table()
    t.play(p("B77", 0))
    t.play(p("B72", 0))
    t.play(p("B69", 1), seat=0, on=p("B72", 0))         # Stinking Drunk: a Condition
    t.play(p("B68", 0), on=p("B72", 0))                 # Lightbringer: an Item, not a Condition
    begin(t)
    t.until_ask("marshal", 0)
    t.choose(0, "action", p("B77"), 0)
    assert t.choices(0) == [["target", p("B69", 1)]]
    t.choose(0, "target", p("B69", 1))
    t.auto(lambda t: t.where(p("B69", 1)) != "play")
    assert t.where(p("B69", 1)) == "discard" and t.g["cards"][p("B77")]["kneel"]


@pytest.mark.parametrize("extra, stands", [(p("B89", 0), True), (None, False)])
def test_B78_ser_axell_stands_after_a_power_challenge_won_by_four(extra, stands):
    t = table()
    t.play(p("B78", 0))
    if extra:
        t.play(extra)
    t.play(p("B87", 1))                                 # STR 1 defender
    to_challenges(t)
    t.declare(0, "power", 1, *[c for c in (p("B78", 0), extra) if c])
    t.defend(1, p("B87", 1))
    t.auto(lambda t: bool(t.asks_of("response")) or t.g["challenge"] is None)
    if stands:
        t.until_ask("response", 0)
        t.choose(0, "respond", p("B78", 0), 0)
        assert not t.g["cards"][p("B78", 0)]["kneel"]
    else:                                               # won by 3-1 = 2: not offered
        t.finish_challenge()
        assert t.g["cards"][p("B78", 0)]["kneel"]
        assert not [a for a in t.offered if a[1]["kind"] == "response" and a[1]["seat"] == 0
                    and ["respond", p("B78", 0), 0] in a[1]["choices"]]


def test_B79_edric_storm_discards_himself_for_one_more_power_challenge():
    t = table()
    t.play(p("B79", 0))
    t.play(p("B89", 0))
    to_challenges(t)
    t.declare(0, "power", 1, p("B79", 0), p("B89", 0))
    t.defend(1)
    t.until_ask("response", 0)
    t.choose(0, "respond", p("B79", 0), 0)
    t.auto(lambda t: t.where(p("B79", 0)) != "play")
    assert t.where(p("B79", 0)) == "discard"
    assert t.g["players"][0]["limited_response"]
    t.finish_challenge()
    t.g["cards"][p("B89", 0)]["kneel"] = False
    t.until_ask("challenge", 0)
    assert ["challenge", "power", 1] in t.choices(0)


def test_B80_devan_has_stealth_while_a_character_of_yours_has_power():
    t = table()
    t.play(p("B80"))
    t.play(p("B87"))
    assert not M.has_kw(t.state, p("B80"), "stealth")
    t.g["cards"][p("B87")]["power"] = 1
    t.g["bank"]["power"] -= 1
    assert M.has_kw(t.state, p("B80"), "stealth")


def test_B81_knight_of_the_rainwood_cannot_be_discarded_and_takes_only_weapons():
    t = table()
    t.play(p("B81"))
    assert M.has_kw(t.state, p("B81"), "cannot_be_discarded")
    assert M.attach_ok(t.state, 0, p("B68"), p("B81"))       # Lightbringer: a Weapon
    assert not M.attach_ok(t.state, 0, p("B66"), p("B81"))   # Shadow's Blessing: a Condition


def test_B82_northern_cavalry_cannot_be_killed_in_a_phase_its_strength_changed():
    t = table()
    t.play(p("B82", 0))
    t.play(p("B89", 1))
    to_challenges(t, seat=1, first=1)
    assert not M.has_kw(t.state, p("B82", 0), "cannot_be_killed")
    E.lasting(t.g, "str", p("B82", 0), -1, "phase", None)
    assert M.has_kw(t.state, p("B82", 0), "cannot_be_killed")
    claim_kill(t, 1, 0, p("B89", 1), p("B82", 0))
    t.finish_challenge()
    assert t.where(p("B82", 0)) == "play"


def test_B82_northern_cavalry_stays_protected_for_the_phase_once_its_strength_changed():
    # Issue 25: under Holding the Trident its STR goes to 5 and back to 3 in the challenges phase; a
    # military claim later in that phase may not kill it.
    base = card_table(owner=False)["decks"]["baratheon"]
    cards = table_with(decks={"trident": dict(base, plots=["S197"] + base["plots"][1:])})
    t = table(decks=("trident", "baratheon"), cards=cards)
    t.play(p("B82", 0))
    t.play(p("B89", 1))                                 # Host of Storm's End, STR 6
    t.play(p("B87", 1))                                 # Bastard of Robert, STR 1
    begin(t, plots=[p("S197", 0), p(RAINS, 1)])
    t.until_ask("challenge", 0)
    assert t.strength(p("B82", 0)) == 5                 # fewer characters than seat 1: +2
    claim_kill(t, 0, 1, p("B82", 0), p("B87", 1))
    t.finish_challenge()
    assert t.strength(p("B82", 0)) == 3 and t.g["phase"] == "challenges"
    claim_kill(t, 1, 0, p("B89", 1), p("B82", 0))
    t.finish_challenge()
    assert t.where(p("B82", 0)) == "play"


def test_B83_highgarden_honor_guard_goes_to_an_opponent_and_comes_back_when_it_helps_them_win():
    t = table()
    t.hand(0, p("B83", 0))
    t.play(p("B87", 0))
    begin(t, first=1)
    action_until(t, 0, ["action", p("B83", 0), 0])
    assert t.g["phase"] == "challenges"
    t.choose(0, "action", p("B83", 0), 0)
    t.choose(0, "target", 1)
    g = t.g
    assert t.where(p("B83", 0)) == "play" and g["cards"][p("B83", 0)]["ctrl"] == 1
    # The opponent attacks with it next round and wins: it comes back to its owner.
    t.auto(lambda t: t.g["round"] == 2 and bool(t.asks_of("plot")))
    begin(t, plots=[p("B182", 0), p("B182", 1)], first=1)
    t.declare(1, "military", 0, p("B83", 0))
    t.defend(0)
    t.finish_challenge()
    assert g["cards"][p("B83", 0)]["ctrl"] == 0 and p("B83", 0) in g["players"][0]["play"]


def test_B84_old_red_priest_killed_kneels_one_of_your_standing_locations():
    t = table()
    t.play(p("B84", 0))
    t.play(p("B148", 0))
    t.play(p("B89", 1))
    to_challenges(t, seat=1, first=1)
    claim_kill(t, 1, 0, p("B89", 1), p("B84", 0))
    t.auto(lambda t: t.where(p("B84", 0)) == "dead" and bool(t.asks_of("target")) or t.g["challenge"] is None)
    if t.asks_of("target"):
        t.choose(0, "target", p("B148", 0))
    assert t.where(p("B84", 0)) == "dead" and t.g["cards"][p("B148", 0)]["kneel"]


def test_B85_army_of_the_faithful_costs_one_less_per_asshai_character():
    t = table()
    t.play(p("B84"))
    t.play(p("B74"))
    t.hand(0, p("B85"))
    assert M.gold_cost(t.state, 0, p("B85")) == 4
    begin(t)
    t.until_ask("marshal", 0)
    t.gold(0, 4)
    t.choose(0, "marshal", p("B85"))
    assert t.where(p("B85")) == "play" and t.g["players"][0]["gold"] == 0


def test_B86_renlys_courtier_blanks_a_non_unique_character_for_the_phase():
    t = table()
    t.play(p("B86", 0))
    t.play(p("B81", 1))                                 # Knight of the Rainwood (non-unique)
    t.play(p("B73", 1))                                 # Renly: unique, no target
    begin(t)
    action_until(t, 0, ["action", p("B86", 0), 0])
    t.choose(0, "action", p("B86", 0), 0)
    targets = [c[1] for c in t.choices(0)]
    assert p("B81", 1) in targets and p("B73", 1) not in targets
    t.choose(0, "target", p("B81", 1))
    assert not M.has_kw(t.state, p("B81", 1), "cannot_be_discarded") and t.g["cards"][p("B86", 0)]["kneel"]
    t.to_phase("draw")
    assert M.has_kw(t.state, p("B81", 1), "cannot_be_discarded")


def test_B87_bastard_of_robert_stealth_keeps_a_defender_out():
    t = table()
    t.play(p("B87", 0))
    t.play(p("B88", 1))                                 # House Tyrell Guard: power icon
    to_challenges(t)
    t.declare(0, "power", 1, p("B87", 0))
    t.until_ask("stealth", 0)
    t.choose(0, "stealth", p("B87", 0), p("B88", 1))
    t.defend(1)
    t.finish_challenge()
    assert t.result()["winner"] == 0 and t.result()["unopposed"]


def test_B88_house_tyrell_guard_enters_play_from_hand_when_a_baratheon_character_dies():
    t = table()
    t.play(p("B84", 0))
    t.hand(0, p("B88", 0))
    t.play(p("B89", 1))
    to_challenges(t, seat=1, first=1)
    claim_kill(t, 1, 0, p("B89", 1), p("B84", 0))
    t.auto(lambda t: offered(t, 0, ["respond", p("B88", 0), 0]) or t.g["challenge"] is None)
    t.choose(0, "respond", p("B88", 0), 0)
    assert t.where(p("B88", 0)) == "play"


def test_B89_host_of_storms_end_six_strength_wins_and_takes_no_attachment():
    t = table()
    t.play(p("B89", 0))
    t.play(p("B72", 1))
    assert not M.attach_ok(t.state, 0, p("B66", 0), p("B89", 0))
    to_challenges(t)
    t.declare(0, "military", 1, p("B89", 0))
    t.defend(1, p("B72", 1))
    t.until_ask("claim_kill", 1)
    assert t.result()["attack"] == 6 and t.result()["winner"] == 0


def test_B91_dragonstone_port_names_a_plot_before_the_reveal_and_scores_an_opponent_revealing_it():
    t = table()
    t.play(p("B91", 0))
    power = t.g["players"][0]["power"]
    t.plots(p(RAINS, 0), p("B186", 1))                  # the opponent chose Tourney for the Hand
    t.until_ask("action", 0)
    assert t.g["players"][1]["revealed"] is None        # not yet revealed
    t.choose(0, "action", p("B91", 0), 0)
    assert ["target", "Tourney for the Hand"] in t.choices(0)
    t.choose(0, "target", "Tourney for the Hand")
    assert ["action", p("B91", 0), 0] not in A.action_choices(t.state, 0, "plot")   # once a phase
    t.auto(lambda t: bool(t.asks_of("first_player")))
    t.choose(t.asks_of("first_player")[0]["seat"], "first", 0)
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["power"] == power + 1
    # Named wrong, nothing; and without a Port in play no window opens between choice and reveal.
    t2 = table()
    t2.plots(p(RAINS, 0), p("B186", 1))
    assert t2.asks_of("first_player")


@pytest.mark.parametrize("fief", ["B92", "B93"])
def test_B92_B93_stormlands_fiefdoms_next_baratheon_card_costs_one_less(fief):
    t = table()
    t.play(p(fief))
    t.hand(0, p("B72"), p("B148"))
    begin(t)
    t.until_ask("marshal", 0)
    t.gold(0, 3)
    assert ["marshal", p("B72")] not in t.choices(0)     # 4 gold
    t.choose(0, "action", p(fief), 0)
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert ["marshal", p("B72")] in t.choices(0)
    assert M.gold_cost(t.state, 0, p("B148")) == 2        # Crossroads: neutral, not reduced
    assert ["action", p(fief), 0] not in t.choices(0)    # knelt: once
    assert M.influence_of(t.state, p(fief)) == 1


def test_B94_king_roberts_chambers_may_go_on_the_house_card():
    t = table()
    t.hand(0, p("B94"))
    begin(t, plots=[p("B182", 0), p("B182", 1)])
    t.until_ask("marshal", 0)
    assert ["marshal", p("B94")] in t.ask(0)["choices"]           # as a location, or
    gold = t.g["players"][0]["gold"]
    t.choose(0, "action", p("B94"), 0)                              # onto the House card
    t.until_ask("marshal", 0)
    assert t.where(p("B94")) == "play" and t.g["players"][0]["gold"] == gold - 1
    assert E.on_house(t.state, p("B94")) and A.available_influence(t.state, 0) == 1
    assert ["action", p("B94"), 0] not in t.ask(0)["choices"]       # it is in play now


def test_B94_king_roberts_chambers_gives_income_and_influence():
    t = table()
    t.play(p("B94"))
    begin(t, plots=[p("B182", 0), p("B182", 1)])        # Mutual Cause: 3 income, no effect in a duel
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["gold"] == 4
    assert A.available_influence(t.state, 0) == 1


@pytest.mark.parametrize("garden", ["B95", "B96", "B97"])
def test_B95_B96_B97_aegons_garden_gives_one_income_and_is_limited(garden):
    t = table()
    t.play(p(garden))
    begin(t, plots=[p("B182", 0), p("B182", 1)])
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["gold"] == 4
    assert "limited" in M.keywords(t.state, p(garden))


def test_B98_great_hall_next_baratheon_character_costs_two_less():
    t = table()
    t.play(p("B98"))
    t.hand(0, p("B72"), p("B146"))
    begin(t)
    t.until_ask("marshal", 0)
    t.choose(0, "action", p("B98"), 0)
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert M.gold_cost(t.state, 0, p("B72")) == 2 and M.gold_cost(t.state, 0, p("B146")) == 4


def test_B99_narrow_sea_discards_itself_for_two_off_the_next_character():
    t = table()
    t.play(p("B99"))
    t.hand(0, p("B72"))
    begin(t)
    t.until_ask("marshal", 0)
    t.choose(0, "action", p("B99"), 0)
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert t.where(p("B99")) == "discard" and M.gold_cost(t.state, 0, p("B72")) == 2


def test_B145_milk_of_the_poppy_blanks_the_character_it_is_on():
    t = table()
    t.play(p("B81", 1))
    t.hand(0, p("B145", 0))
    t.play(p("B80", 1))
    begin(t)
    t.until_ask("marshal", 0)
    t.choose(0, "attach", p("B145", 0), p("B80", 1))
    t.g["cards"][p("B81", 1)]["power"] = 1
    t.g["bank"]["power"] -= 1
    assert M.blank(t.state, p("B80", 1)) and not M.has_kw(t.state, p("B80", 1), "stealth")
    assert "Ally" in M.info(t.state, p("B80", 1))["traits"]
    t.auto(lambda t: t.g["round"] == 2)
    assert M.blank(t.state, p("B80", 1))              # for as long as it stays on
    from maester.engine.core import Ctx
    from maester.games.lcg import timing as T
    T.leave_play(Ctx(t.state, t.events), p("B145", 0), "discard")
    assert not M.blank(t.state, p("B80", 1)) and M.has_kw(t.state, p("B80", 1), "stealth")


def test_B146_ser_barristan_shuffles_every_discard_pile_into_its_deck():
    t = table()
    t.to("discard", p("B87", 0), p("B87", 1))
    t.hand(0, p("B146"))
    begin(t)
    t.until_ask("marshal", 0)
    t.gold(0, 4)
    t.choose(0, "marshal", p("B146"))
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert t.where(p("B87", 0)) == "deck" and t.where(p("B87", 1)) == "deck"
    assert not t.g["players"][0]["discard"] and not t.g["players"][1]["discard"]


def test_B147_knight_of_flowers_claims_a_power_at_dominance_if_standing():
    t = table()
    t.play(p("B147", 0))
    t.play(p("B147", 1), kneel=True)
    begin(t)
    t.to_phase("dominance")
    t.auto(lambda t: t.g["phase"] == "standing")
    assert t.g["cards"][p("B147", 0)]["power"] == 1 and t.g["cards"][p("B147", 1)]["power"] == 0


def test_B148_crossroads_gives_income_and_influence():
    t = table()
    t.play(p("B148"))
    begin(t, plots=[p("B182", 0), p("B182", 1)])
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["gold"] == 4 and A.available_influence(t.state, 0) == 1


def test_B149_street_of_sisters_next_power_icon_character_costs_one_less():
    t = table()
    t.play(p("B149"))
    t.hand(0, p("B72"), p("B80"))
    begin(t)
    t.until_ask("marshal", 0)
    t.choose(0, "action", p("B149"), 0)
    t.auto(lambda t: t.ask()["kind"] == "marshal")
    assert M.gold_cost(t.state, 0, p("B72")) == 3      # power icon
    assert M.gold_cost(t.state, 0, p("B80")) == 2      # Devan: no power icon


def test_B168_muster_kneels_a_knight_to_search_for_a_knight_told_only_to_its_seat():
    t = table()
    t.play(p("B75"))                                    # Ser Davos: a Knight
    t.hand(0, p("B168"))
    begin(t)
    t.until_ask("marshal", 0)
    t.to("deck", p("B147"), p("B81"), p("B72"))
    t.refresh()
    t.choose(0, "action", p("B168"), 0)
    t.auto(lambda t: t.ask()["kind"] == "search")
    offer = [c[1] for c in t.choices(0) if c[0] == "take"]
    assert p("B147") in offer and p("B81") in offer and p("B72") not in offer   # Stannis: a Lord
    assert all("Knight" in M.info(t.state, c)["traits"] for c in offer)
    assert t.g["cards"][p("B75")]["kneel"]
    t.choose(0, "take", p("B81"))
    assert t.where(p("B81")) == "hand"
    hidden_from_others(t, 0, [p("B147"), p("B72")])


def test_B169_prosperity_and_plenty_attaches_an_attachment_from_the_discard_pile():
    t = table()
    t.play(p("B72"))
    t.play(p("B89"))
    t.to("discard", p("B68"), p("B66"))
    t.hand(0, p("B169"))
    begin(t)
    action_until(t, 0, ["action", p("B169"), 0])
    gold = t.g["players"][0]["gold"]
    t.choose(0, "action", p("B169"), 0)
    t.choose(0, "target", p("B68"))
    t.choose(0, "target", p("B89"))                     # Host: No attachments, so it stays discarded
    assert t.where(p("B68")) == "discard" and t.g["players"][0]["gold"] == gold - 1
    assert worded(t, MY_EVENTS) == {"not_attached"}
    t.to("hand", p("B169"))
    t.refresh()
    action_until(t, 0, ["action", p("B169"), 0])
    t.choose(0, "action", p("B169"), 0)
    t.choose(0, "target", p("B68"))
    t.choose(0, "target", p("B72"))
    assert t.g["cards"][p("B68")]["on"] == p("B72") and t.where(p("B68")) == "play"


def test_B170_lords_of_the_narrow_sea_makes_an_opponent_reveal_a_new_plot():
    t = table()
    t.play(p("B72", 0))                                 # Stannis: a Noble crest
    t.hand(0, p("B170", 0))
    begin(t, plots=[p("B181", 0), p("B182", 1)])        # Summoning Season 4 against Mutual Cause 3
    t.auto(lambda t: offered(t, 0, ["action", p("B170", 0), 1]))
    assert ["action", p("B170", 0), 0] not in t.choices(0)   # no 3 influence
    power = t.g["players"][0]["power"]
    t.choose(0, "action", p("B170", 0), 1)
    t.choose(0, "target", 1)
    t.choose(0, "kneel", p("B72", 0))
    t.until_ask("plot", 1)
    t.choose(1, "plot", p("B186", 1))                   # Tourney for the Hand: 3 income
    assert t.g["players"][1]["revealed"] == p("B186", 1) and t.where(p("B182", 1)) == "used"
    assert t.g["players"][0]["power"] == power + 1 and t.g["cards"][p("B72", 0)]["kneel"]
    assert worded(t, MY_EVENTS) == {"plot_replaced"}
    # The plots the opponent could have chosen stay hidden from seat 0 and the public.
    left = list(t.g["players"][1]["plots"])
    for viewer in (PUBLIC, 0):
        text = repr(filter_events(t.events, viewer)) + repr(t.view(viewer))
        assert left and not [c for c in left if c in text]


def test_B171_retreat_returns_a_killed_unique_character_to_hand():
    t = table()
    t.play(p("B72", 0))
    t.hand(0, p("B171", 0))
    t.play(p("B89", 1))
    to_challenges(t, seat=1, first=1)
    claim_kill(t, 1, 0, p("B89", 1), p("B72", 0))
    t.auto(lambda t: offered(t, 0, ["respond", p("B171", 0), 0]) or t.g["challenge"] is None)
    t.choose(0, "respond", p("B171", 0), 0)
    assert t.where(p("B72", 0)) == "hand" and t.where(p("B171", 0)) == "discard"
    assert worded(t, MY_EVENTS) == {"returned_to_hand"}


def test_B172_support_of_the_kingdom_takes_an_opponents_gold_or_influence_location():
    t = table()
    t.play(p("B89", 0))
    t.hand(0, p("B172", 0))
    t.play(p("B148", 1))                                # Crossroads: income and influence
    t.play(p("B98", 1))                                 # Great Hall: neither
    to_challenges(t)
    t.declare(0, "power", 1, p("B89", 0))
    t.defend(1)
    t.auto(lambda t: offered(t, 0, ["respond", p("B172", 0), 0]))
    t.choose(0, "respond", p("B172", 0), 0)
    assert [c[1] for c in t.choices(0)] == [p("B148", 1)]
    t.choose(0, "target", p("B148", 1))
    assert t.g["cards"][p("B148", 1)]["ctrl"] == 0 and p("B148", 1) in t.g["players"][0]["play"]


def test_B179_distinct_mastery_stands_a_character_with_a_crest():
    t = table()
    t.play(p("B72"), kneel=True)                        # Noble
    t.play(p("B89"), kneel=True)                        # War crest
    t.play(p("B87"), kneel=True)                        # no crest
    t.hand(0, p("B179"))
    begin(t)
    action_until(t, 0, ["action", p("B179"), 0])
    t.choose(0, "action", p("B179"), 0)
    assert sorted(c[1] for c in t.choices(0)) == sorted([p("B72"), p("B89")])
    t.choose(0, "target", p("B89"))
    assert not t.g["cards"][p("B89")]["kneel"]


# --- plots ------------------------------------------------------------------------------------------

def test_B181_summoning_season_each_searches_for_a_character_told_only_to_their_seat():
    t = table()
    t.deck_top(p("B72", 0), p("B92", 0))
    t.deck_top(p("B73", 1))
    t.plots(p("B181", 0), p(RAINS, 1))
    t.auto(lambda t: bool(t.asks_of("first_player")))
    t.choose(t.asks_of("first_player")[0]["seat"], "first", 0)
    t.auto(lambda t: bool(t.asks_of("search")) or bool(t.asks_of("target")))
    if t.asks_of("target"):
        t.choose(0, "target", 1)
    t.until_ask("search", 0)
    offer = [c[1] for c in t.choices(0) if c[0] == "take"]
    assert p("B72", 0) in offer and p("B92", 0) not in offer
    t.choose(0, "take", p("B72", 0))
    t.until_ask("search", 1)
    t.choose(1, "take", p("B73", 1))
    assert t.where(p("B72", 0)) == "hand" and t.where(p("B73", 1)) == "hand"
    hidden_from_others(t, 0, [c for c in offer if c != p("B72", 0) and t.where(c) == "deck"][:5])


def test_B182_mutual_cause_bars_power_challenges_between_two_players():
    t = table(decks=("baratheon", "baratheon", "baratheon"), players=3)
    for s in range(3):
        t.play(p("B87", s))
    t.plots(p("B182", 0), p(RAINS, 1), p(RAINS, 2))
    t.auto(lambda t: bool(t.asks_of("first_player")))
    t.choose(t.asks_of("first_player")[0]["seat"], "first", 0)
    t.until_ask("target", 0)
    t.choose(0, "target", 1)
    t.auto(lambda t: any(a["kind"] == "challenge" and a["seat"] == 0 for a in t.state["asks"]))
    power = [c for c in t.choices(0) if c[:2] == ["challenge", "power"]]
    from maester.games.lcg import challenge
    assert ["challenge", "power", 1] not in power
    assert ["challenge", "power", 1] not in challenge.challenge_options(t.state, 0)
    assert all(["challenge", "power", 0] not in challenge.challenge_options(t.state, 1) for _ in [0])


def test_B183_uneasy_truce_a_military_challenge_costs_two_gold_to_the_defender():
    t = table()
    t.play(p("B89", 0))
    t.play(p("B87", 0))
    t.plots(p("B183", 0), p(RAINS, 1))
    t.auto(lambda t: bool(t.asks_of("first_player")))
    t.choose(t.asks_of("first_player")[0]["seat"], "first", 0)
    t.until_ask("challenge", 0)
    t.gold(0, 1)
    assert ["challenge", "military", 1] not in t.choices(0)
    t.gold(0, 3)
    gold1 = t.g["players"][1]["gold"]
    t.declare(0, "military", 1, p("B89", 0))
    assert t.g["players"][0]["gold"] == 1 and t.g["players"][1]["gold"] == gold1 + 2


def test_B184_rains_of_autumn_card_income_counts_for_nothing():
    t = table()
    t.play(p("B95", 0))
    t.play(p("B148", 1))
    t.plots(p(RAINS, 0), p("B182", 1))
    t.auto(lambda t: bool(t.asks_of("first_player")))
    t.choose(t.asks_of("first_player")[0]["seat"], "first", 0)
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["gold"] == 4
    t.choose(0, "done")
    t.until_ask("marshal", 1)
    assert t.g["players"][1]["gold"] == 3


def test_B185_good_for_the_gander_copies_an_opponents_when_revealed_effect():
    t = table()
    t.play(p("B95", 0))
    t.play(p("B96", 0))
    t.play(p("B97", 0))
    t.play(p("B92", 0))
    t.play(p("B148", 1))
    t.plots(p("B185", 0), p("B187", 1))                 # Fleeing to the Wall
    t.auto(lambda t: bool(t.asks_of("first_player")))
    t.choose(t.asks_of("first_player")[0]["seat"], "first", 0)
    t.auto(lambda t: bool(t.asks_of("keep")) or bool(t.asks_of("target")))
    if t.asks_of("target"):
        t.choose(0, "target", p("B187", 1))
    t.until_ask("keep", 0)
    for loc in (p("B95", 0), p("B96", 0), p("B97", 0)):
        t.choose(0, "keep", loc)
    t.auto(lambda t: t.where(p("B92", 0)) != "play")
    # Fleeing resolved twice (its own and Gander's copy): the fourth location is gone, no others.
    assert t.where(p("B92", 0)) == "discard" and t.where(p("B148", 1)) == "play"
    assert len([e for e in t.events if e["e"] == "ability" and e["card"] == p("B187", 1)]) == 2


def test_B186_tourney_for_the_hand_knights_plus_one_and_immune_to_opponents_characters():
    t = table()
    t.play(p("B75", 0))                                 # Davos: Knight
    t.play(p("B72", 0))                                 # Stannis: not a Knight
    t.play(p("B75", 1))                                 # the opponent's Knight
    t.play(p("B86", 1))
    t.plots(p("B186", 0), p(RAINS, 1))
    t.auto(lambda t: bool(t.asks_of("first_player")))
    assert t.strength(p("B75", 0)) == 4 and t.strength(p("B72", 0)) == 3 and t.strength(p("B75", 1)) == 3
    assert M.has_kw(t.state, p("B75", 0), "immune_opponent_character")
    assert p("B75", 0) not in A.legal_targets(t.state, 1, p("B70", 1), A.Ability(
        "action", None, target=lambda s, src, seat, ev: M.characters(s)))


def test_B187_fleeing_to_the_wall_keeps_three_locations_discards_the_rest_unsaved_uncancelled():
    t = table()
    for c in ("B95", "B96", "B97", "B92", "B148"):
        t.play(p(c, 0))
    t.play(p("B98", 1))
    t.plots(p("B187", 0), p(RAINS, 1))
    t.auto(lambda t: bool(t.asks_of("first_player")))
    t.choose(t.asks_of("first_player")[0]["seat"], "first", 0)
    t.until_ask("keep", 0)
    t.choose(0, "keep", p("B148", 0))
    t.choose(0, "done")
    t.auto(lambda t: t.where(p("B95", 0)) != "play")
    assert [t.where(p(c, 0)) for c in ("B95", "B96", "B97", "B92", "B148")] == ["discard"] * 4 + ["play"]
    assert t.where(p("B98", 1)) == "play"
    assert not [a for a in t.offered if a[1]["kind"] in ("cancel", "save")]
