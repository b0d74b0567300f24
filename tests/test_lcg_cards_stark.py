"""The Stark starter deck's cards (issue 13), one test per card, named after its code: each puts the
card where its ability matters and checks what the card says happens, and that its limits hold.

Two Stark decks face each other unless a test says otherwise; seat 0 reveals Calm Over Westeros
(4/3/1, it only taxes events) and seat 1 The Power of Arms (3/1/2, +2 STR to its War crest
characters), so seat 0 wins initiative and goes first.
"""

import pytest

from lcg_harness import Table, table_with
from maester.engine import PUBLIC, cardtables, filter_events
from maester.games.lcg import model as M

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

CALM = "S198"
ARMS = "S200"


def p(code, seat=0):
    return "%s#%d" % (code, seat)


def duel(decks=("stark", "stark"), cards=None, seed=1):
    return Table(2, decks=list(decks), cards=cards, seed=seed)


def begin(t, plots=(CALM, ARMS), first=0):
    t.plots(p(plots[0], 0), p(plots[1], 1))
    t.choose(t.ask()["seat"], "first", first)


def kneeling(t, inst):
    return t.g["cards"][inst]["kneel"]


def marshal_phase(t, seat=0, gold=None):
    t.until_ask("marshal", seat)
    if gold is not None:
        t.gold(seat, gold)


def use(t, seat, kind, src, idx=0):
    t.choose(seat, kind, src, idx)


def assert_unnamed(t, start, hidden, viewers=(PUBLIC, 1)):
    """No event since `start` that `viewers` may read, and none of their views, names a `hidden` card."""
    import json
    for viewer in viewers:
        seen = names_in(t.events[start:], viewer) + json.dumps(t.view(viewer))
        assert not [i for i in hidden if i in seen], viewer


STARK_EVENTS = {"joins_challenge", "to_deck_top", "no_challenge", "claim_changed", "knelt", "reducer", "revealed",
                "shuffled", "returned_to_hand", "gold_given", "saved", "put_into_play", "control", "marshalled",
                "ability", "power", "left_play"}


def worded(t):
    """Every event of the game so far has its own words (not the generic "Kind: field value" line)."""
    from maester.games.lcg.text import describe_event
    for e in t.events:
        if e["e"] not in STARK_EVENTS:
            continue  # (the other Houses' plots check their own)
        line = describe_event(t.g, e, e["vis"][0] if e.get("vis") else PUBLIC, cardtables.table(t.state))
        fields = ", ".join("%s %s" % (k, v) for k, v in e.items() if k not in ("e", "vis"))
        assert line and line != "%s%s" % (e["e"].replace("_", " ").capitalize(), (": " + fields) if fields else ""), e


def names_in(events, viewer):
    out = []
    for e in filter_events(events, viewer):
        out.append(repr(e))
    return "\n".join(out)


# === attachments ===================================================================================

def test_S1_ice_kills_another_participant_and_goes_to_the_discard_pile():
    t = duel()
    t.play(p("S5"))
    t.play(p("S1"), on=p("S5"))
    t.play(p("S18", 1))
    t.play(p("S19", 1))
    begin(t)
    t.declare(0, "military", 1, p("S5"))
    # Only Eddard takes part yet: Ice has no other participant to kill.
    t.until_ask("action", 0)
    assert not [c for c in t.choices(0) if c[:2] == ["action", p("S1")]]
    t.defend(1, p("S18", 1))
    t.until_ask("action", 0)
    use(t, 0, "action", p("S1"))
    assert t.choices(0) == [["target", p("S18", 1)]]        # not the bearer, not a non-participant
    t.choose(0, "target", p("S18", 1))
    t.auto(lambda t: t.where(p("S18", 1)) != "play")
    assert t.where(p("S18", 1)) == "dead" and t.where(p("S1")) == "discard" and t.where(p("S19", 1)) == "play"


def test_S2_nymeria_gives_arya_strength_and_stealth_and_saves_her_from_a_kill():
    t = duel()
    t.play(p("S7"))
    t.play(p("S2"), on=p("S7"))
    assert t.strength(p("S7")) == 3 and M.has_kw(t.state, p("S7"), "stealth")
    t.play(p("S18"))
    t.play(p("S2", 1))  # (no host: only the first Nymeria matters)
    t.to("plots", p("S2", 1))
    begin(t, plots=("S201", ARMS))                         # Valar Morghulis kills every character
    t.until_ask("save", 0)
    assert ["save", p("S2"), 0] in t.choices(0)
    t.choose(0, "save", p("S2"), 0)
    t.auto(lambda t: t.g["phase"] != "plot")
    assert t.where(p("S7")) == "play" and kneeling(t, p("S2")) and t.where(p("S18")) == "dead"


def test_S3_summer_gives_a_military_icon_and_two_strength_and_stealth_on_bran():
    t = duel()
    t.play(p("S13"))
    assert t.strength(p("S13")) == 1 and "military" not in M.icons(t.state, p("S13"))
    t.play(p("S3"), on=p("S13"))
    assert t.strength(p("S13")) == 3 and "military" in M.icons(t.state, p("S13"))
    assert M.has_kw(t.state, p("S13"), "stealth")
    t2 = duel()
    t2.play(p("S9"))
    t2.play(p("S3"), on=p("S9"))
    assert t2.strength(p("S9")) == 4 and not M.has_kw(t2.state, p("S9"), "stealth")


# === characters ====================================================================================

def test_S4_ser_rodrik_defends_without_kneeling_and_with_two_more_strength():
    t = duel()
    t.play(p("S18"))
    t.play(p("S4", 1))
    begin(t)
    assert t.strength(p("S4", 1)) == 2
    t.declare(0, "military", 1, p("S18"))
    t.defend(1, p("S4", 1))
    assert not kneeling(t, p("S4", 1)) and t.strength(p("S4", 1)) == 4
    t.finish_challenge()
    assert t.result()["defence"] == 4 and t.strength(p("S4", 1)) == 2


def test_S5_eddard_claims_one_power_as_he_is_marshalled():
    t = duel()
    t.hand(0, p("S5"))
    begin(t)
    marshal_phase(t, 0, gold=4)
    t.choose(0, "marshal", p("S5"))
    assert t.g["cards"][p("S5")]["power"] == 1


def test_S6_catelyn_leaves_a_participant_out_of_the_totals():
    t = duel()
    t.play(p("S5"))
    t.play(p("S6", 1))
    begin(t)
    t.declare(0, "power", 1, p("S5"))
    t.defend(1, p("S6", 1))
    t.until_ask("response", 1)
    t.choose(1, "respond", p("S6", 1), 0)
    assert sorted(t.choices(1)) == [["target", p("S5")], ["target", p("S6", 1)]]
    t.choose(1, "target", p("S5"))
    t.finish_challenge()
    r = t.result()
    assert (r["attack"], r["defence"], r["winner"]) == (0, 3, 1)


def test_S7_arya_takes_stealth_and_renown_until_the_phase_ends():
    t = duel()
    t.play(p("S7"))
    t.play(p("S26"))                                       # 1 influence
    t.play(p("S5", 1))                                     # renown
    t.play(p("S18", 1))                                    # neither keyword
    begin(t)
    t.until_ask("action", 0)
    use(t, 0, "action", p("S7"))
    assert t.choices(0) == [["target", p("S5", 1)]]
    t.choose(0, "target", p("S5", 1))
    t.choose(0, "kneel_influence", p("S26"))
    assert not M.has_kw(t.state, p("S5", 1), "renown") and M.has_kw(t.state, p("S7"), "renown")
    t.auto(lambda t: t.g["phase"] == "draw")
    assert M.has_kw(t.state, p("S5", 1), "renown") and not M.has_kw(t.state, p("S7"), "renown")


def test_S8_robb_kills_a_character_of_the_loser_after_a_military_win():
    t = duel()
    t.play(p("S8"))
    t.play(p("S18", 1))
    t.play(p("S19", 1))
    t.play(p("S4", 1))
    begin(t)
    t.declare(0, "military", 1, p("S8"))
    t.defend(1)
    t.until_ask("claim_kill", 1)
    t.choose(1, "kill", p("S18", 1))
    t.until_ask("response", 0)
    t.choose(0, "respond", p("S8"), 0)
    assert sorted(t.choices(0)) == [["target", p("S19", 1)], ["target", p("S4", 1)]]
    t.choose(0, "target", p("S4", 1))
    t.finish_challenge()
    assert t.where(p("S4", 1)) == "dead" and t.where(p("S19", 1)) == "play"


def test_S9_sansa_lets_the_player_of_an_attachment_on_her_draw_a_card():
    t = duel()
    t.play(p("S9"))
    t.hand(0, p("S3"))
    begin(t)
    marshal_phase(t, 0, gold=5)
    hand = len(t.g["players"][0]["hand"])
    t.choose(0, "attach", p("S3"), p("S9"))
    t.until_ask("response", 0)
    t.choose(0, "respond", p("S9"), 0)
    assert len(t.g["players"][0]["hand"]) == hand - 1 + 1


def test_S10_greatjon_joins_a_power_challenge_on_his_side_but_not_an_intrigue_one():
    t = duel()
    t.play(p("S18"))
    t.play(p("S10"))
    t.play(p("S6"))
    t.play(p("S5", 1))
    begin(t)
    t.declare(0, "intrigue", 1, p("S6"))
    t.until_ask("action", 0)
    assert not [c for c in t.choices(0) if c[:2] == ["action", p("S10")]]
    t.finish_challenge()
    t.declare(0, "power", 1, p("S18"))
    t.until_ask("action", 0)
    use(t, 0, "action", p("S10"))
    assert p("S10") in t.g["challenge"]["attackers"] and kneeling(t, p("S10"))
    t.defend(1, p("S5", 1))
    t.finish_challenge()
    assert t.result()["attack"] == 2 + 3
    worded(t)


def test_S11_shaggydog_with_a_stark_lord_has_three_more_strength_and_ignores_events():
    t = duel()
    t.play(p("S11"))
    assert t.strength(p("S11")) == 1
    t.play(p("S5"))
    assert t.strength(p("S11")) == 4 and M.has_kw(t.state, p("S11"), "immune_events")
    t.hand(1, p("S155", 1))
    begin(t, plots=("S196", ARMS))
    t.until_ask("marshal", 1)
    use(t, 1, "action", p("S155", 1))
    assert [c[1] for c in t.choices(1)] == [p("S5")]        # Distraction cannot target Shaggydog


def test_S12_hodor_never_attacks_and_stealth_cannot_pass_him():
    t = duel()
    t.play(p("S12"))
    t.play(p("S18"))
    t.play(p("S135", 1))                                   # Benjen: stealth
    t.play(p("S19"))
    begin(t, first=1)
    t.until_ask("challenge", 1)
    t.choose(1, "challenge", "military", 0)
    t.choose(1, "attacker", p("S135", 1))
    t.until_ask("stealth", 1)
    assert ["stealth", p("S135", 1), p("S12")] not in t.choices(1)
    assert ["stealth", p("S135", 1), p("S18")] in t.choices(1)
    t.choose(1, "stealth", p("S135", 1), p("S18"))
    t.defend(0, p("S12"))
    t.finish_challenge()
    t.g["cards"][p("S12")]["kneel"] = False
    t.refresh()
    t.until_ask("challenge", 0)
    t.choose(0, "challenge", "military", 1)
    assert ["attacker", p("S12")] not in t.choices(0) and ["attacker", p("S18")] in t.choices(0)


def test_S13_bran_reveals_another_plot_at_most_three_times_a_round():
    t = duel()
    t.play(p("S13"))
    begin(t)
    t.until_ask("action", 0)
    assert t.g["phase"] == "plot"
    start = len(t.events)
    use(t, 0, "action", p("S13"))
    assert sorted(c[1] for c in t.choices(0)) == sorted(t.g["players"][0]["plots"])
    t.choose(0, "target", p("S196"))
    g = t.g
    assert_unnamed(t, start, g["players"][0]["plots"])    # the plots not chosen stay secret
    assert g["players"][0]["revealed"] == p("S196") and p(CALM) in g["players"][0]["used"]
    for plot in ("S200", "S197"):
        t.until_ask("action", 0)
        g["cards"][p("S13")]["kneel"] = False
        t.refresh()
        use(t, 0, "action", p("S13"))
        t.choose(0, "target", p(plot))
    assert g["players"][0]["revealed"] == p("S197")
    g["cards"][p("S13")]["kneel"] = False
    t.refresh()
    t.until_ask("action", 0)
    assert not [c for c in t.choices(0) if c[:2] == ["action", p("S13")]]


def test_S14_grey_wind_costs_two_less_while_robb_is_in_play():
    t = duel()
    t.hand(0, p("S14"))
    begin(t)
    marshal_phase(t, 0, gold=4)
    assert M.gold_cost(t.state, 0, p("S14")) == 4
    t.play(p("S8", 1))                                      # anyone's Robb Stark will do
    assert M.gold_cost(t.state, 0, p("S14")) == 2
    t.refresh()
    t.choose(0, "marshal", p("S14"))
    assert t.g["players"][0]["gold"] == 2


def test_cards_that_cost_less_themselves_make_no_other_card_cheaper():
    # Grey Wind, Lady and Army of the Faithful are declared self_only (reducer_for): pricing a card
    # then never asks them, so each must give 0 to any card but itself, here with Robb in play.
    t = duel()
    t.hand(0, p("S25"))
    t.play(p("S8"))
    begin(t)
    marshal_phase(t, 0, gold=4)
    before = M.gold_cost(t.state, 0, p("S25"))
    t.play(p("S14"))
    assert M.gold_cost(t.state, 0, p("S25")) == before
    self_only = [c for c in M.REDUCERS if c not in M.REDUCES_OTHERS]
    assert sorted(self_only) == ["B85", "S14", "S15"]
    for c in self_only:
        assert M.REDUCERS[c](t.state, p("S14"), 0, p("S25")) == 0


def test_S15_lady_gives_your_sansa_renown_and_strength_and_costs_less_with_sansa_in_play():
    t = duel()
    t.hand(0, p("S15"))
    t.play(p("S9"))
    t.play(p("S9", 1))
    begin(t)
    marshal_phase(t, 0, gold=2)
    assert M.gold_cost(t.state, 0, p("S15")) == 0
    t.choose(0, "marshal", p("S15"))
    assert t.g["players"][0]["gold"] == 2
    assert t.strength(p("S9")) == 3 and M.has_kw(t.state, p("S9"), "renown")
    assert t.strength(p("S9", 1)) == 2 and not M.has_kw(t.state, p("S9", 1), "renown")


def test_S16_war_host_of_the_north_costs_seven_and_attacks_with_eleven():
    t = duel()
    t.hand(0, p("S16"))
    begin(t)
    marshal_phase(t, 0, gold=7)
    t.choose(0, "marshal", p("S16"))
    assert t.g["players"][0]["gold"] == 0 and t.strength(p("S16")) == 11
    assert M.icons(t.state, p("S16")) == {"military"} and M.has_kw(t.state, p("S16"), "no_attachments")


def test_S17_winterfell_honor_guard_goes_to_an_opponent_and_comes_back_when_it_wins_for_them():
    t = duel()
    t.hand(0, p("S17"))
    t.play(p("S18"))
    begin(t)
    t.until_ask("action", 0)
    assert not [c for c in t.choices(0) if c[:2] == ["action", p("S17")]]   # Challenges only
    t.until_ask("challenge", 0)
    t.auto(lambda t: any(a["kind"] == "action" and a["seat"] == 0 and ["action", p("S17"), 0] in a["choices"]
                         for a in t.state["asks"]) or t.ask()["kind"] == "challenge")
    t.choose(0, "done") if t.ask()["kind"] == "challenge" else None
    t.until_ask("action", 0)
    use(t, 0, "action", p("S17"))
    t.choose(0, "target", 1)
    assert t.g["cards"][p("S17")]["ctrl"] == 1 and p("S17") in t.g["players"][1]["play"]
    t.declare(1, "military", 0, p("S17"))
    t.defend(0)
    t.finish_challenge()
    assert t.result()["winner"] == 1
    assert t.g["cards"][p("S17")]["ctrl"] == 0 and p("S17") in t.g["players"][0]["play"]


def test_S18_knight_of_the_tumblestone_is_a_war_crest_knight():
    t = duel()
    t.play(p("S18"))
    t.play(p("S18", 1))
    begin(t)
    assert t.strength(p("S18")) == 2 and t.strength(p("S18", 1)) == 2 + 2   # The Power of Arms (seat 1)
    assert M.icons(t.state, p("S18")) == {"military", "power"}


def test_S19_direwolf_pup_costs_one():
    t = duel()
    t.hand(0, p("S19"))
    begin(t)
    marshal_phase(t, 0, gold=1)
    t.choose(0, "marshal", p("S19"))
    assert t.g["players"][0]["gold"] == 0 and t.strength(p("S19")) == 2


def test_S20_kennel_master_counts_direwolves_and_with_three_goes_back_to_hand_instead_of_dying():
    t = duel()
    t.play(p("S20"))
    assert t.strength(p("S20")) == 2
    t.play(p("S19"))
    t.play(p("S11"))
    t.play(p("S14"))
    assert t.strength(p("S20")) == 5
    begin(t, plots=("S201", ARMS))                          # Valar Morghulis
    t.until_ask("save", 0)
    while t.ask(0)["kind"] == "save" and t.ask(0)["data"]["card"] != p("S20"):
        t.choose(0, "pass")
    assert ["save", p("S20"), 0] in t.choices(0)
    t.choose(0, "save", p("S20"), 0)
    t.auto(lambda t: t.g["phase"] != "plot")
    assert t.where(p("S20")) == "hand" and t.where(p("S19")) == "dead"


def test_S20_kennel_master_without_three_direwolves_has_no_save():
    t = duel()
    t.play(p("S20"))
    t.play(p("S19"))
    begin(t, plots=("S201", ARMS))
    t.auto(lambda t: t.g["phase"] != "plot")
    assert t.where(p("S20")) == "dead"
    assert not [o for _, o in t.offered if o["kind"] == "save" and ["save", p("S20"), 0] in o["choices"]]


def test_S21_house_tully_recruiter_takes_one_off_the_next_stark_character():
    t = duel()
    t.play(p("S21"))
    t.hand(0, p("S18"), p("S29"))
    begin(t)
    marshal_phase(t, 0, gold=1)
    use(t, 0, "action", p("S21"))
    t.until_ask("marshal", 0)
    assert M.gold_cost(t.state, 0, p("S29")) == 0 and M.gold_cost(t.state, 0, p("S18")) == 1
    t.choose(0, "marshal", p("S18"))
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["gold"] == 0
    assert not [c for c in t.choices(0) if c[:2] == ["action", p("S21")]]    # knelt


def test_S22_trident_reinforcements_come_back_from_a_full_dead_pile_in_dominance():
    t = duel()
    t.to("dead", p("S22"), p("S18"))
    begin(t)
    t.to_phase("dominance")
    t.until_ask("action", 0)
    assert not [c for c in t.choices(0) if c[:2] == ["action", p("S22")]]   # 2 characters only
    t2 = duel()
    t2.to("dead", p("S22"), p("S18"), p("S19"))
    begin(t2)
    t2.to_phase("dominance")
    t2.until_ask("action", 0)
    use(t2, 0, "action", p("S22"))
    assert t2.where(p("S22")) == "hand"


def test_S23_winterfell_reserves_put_a_discarded_card_back_on_its_deck():
    t = duel()
    t.play(p("S18"))
    t.play(p("S23", 1))
    t.to("discard", p("S155"), p("S156"))
    begin(t)
    t.declare(0, "military", 1, p("S18"))
    t.defend(1, p("S23", 1))
    t.until_ask("response", 1)
    gold = t.g["players"][1]["gold"]
    t.choose(1, "respond", p("S23", 1), 0)
    assert t.choices(1) == [["target", 0]]
    t.choose(1, "target", 0)
    assert t.g["players"][0]["deck"][0] == p("S156") and t.g["players"][0]["discard"] == [p("S155")]
    assert t.g["players"][1]["gold"] == gold - 1
    worded(t)


# === locations =====================================================================================

def test_S24_winterfell_kennels_finds_a_direwolf_and_no_other_seat_learns_the_deck():
    t = duel()
    t.play(p("S24"))
    t.gold(0, 1)
    begin(t)
    t.until_ask("action", 0)
    start = len(t.events)
    use(t, 0, "action", p("S24"))
    wolves = sorted(i for i in t.g["players"][0]["deck"] if "Direwolf" in M.info(t.state, i)["traits"])
    assert sorted(c[1] for c in t.choices(0) if c[0] == "take") == wolves and ["none"] in t.choices(0)
    others = [i for i in t.g["players"][0]["deck"] if i not in wolves]
    t.choose(0, "take", wolves[0])
    assert t.where(wolves[0]) == "hand" and kneeling(t, p("S24"))
    for viewer in (PUBLIC, 1):
        seen = names_in(t.events[start:], viewer)
        assert wolves[0] in seen                             # shown, as the card says
        assert not [i for i in others + wolves[1:] if i in seen]
    assert not [a for a in t.state["asks"] if a["seat"] == 1 and a["kind"] == "search"]
    worded(t)


def test_S25_winterfell_castle_gives_your_stark_characters_one_strength():
    t = duel()
    t.play(p("S25"))
    t.play(p("S18"))
    t.play(p("S136"))                                       # Jon Snow: neutral
    t.play(p("S18", 1))
    assert t.strength(p("S18")) == 3 and t.strength(p("S136")) == 3 and t.strength(p("S18", 1)) == 2


def test_S26_S27_northern_fiefdoms_take_one_off_a_stark_card_and_give_influence():
    t = duel()
    t.play(p("S26"))
    t.play(p("S27"))
    t.hand(0, p("S25"))
    begin(t)
    marshal_phase(t, 0, gold=1)
    use(t, 0, "action", p("S26"))
    t.until_ask("marshal", 0)
    use(t, 0, "action", p("S27"))
    t.until_ask("marshal", 0)
    assert M.gold_cost(t.state, 0, p("S25")) == 1
    t.choose(0, "marshal", p("S25"))
    assert t.g["players"][0]["gold"] == 0
    assert M.influence_of(t.state, p("S26")) == 1 and M.influence_of(t.state, p("S27")) == 1


def test_S28_lord_eddards_chambers_may_go_on_the_house_card_with_its_income():
    t = duel()
    t.hand(0, p("S28"))
    begin(t)
    marshal_phase(t, 0, gold=1)
    assert ["marshal", p("S28")] in t.choices(0)
    use(t, 0, "action", p("S28"))
    assert t.where(p("S28")) == "play" and t.g["players"][0]["gold"] == 0
    assert [e for e in t.emitted("marshalled") if e["card"] == p("S28")][0]["on_house"]
    t.auto(lambda t: t.g["round"] == 2 and t.asks_of("marshal"))
    assert [e for e in t.emitted("income") if e["seat"] == 0][-1]["gold"] == 4 + 1


def test_S29_S30_S31_great_keep_each_give_one_gold_of_income():
    t = duel()
    for k in ("S29", "S30", "S31"):
        t.play(p(k))
    begin(t)
    t.until_ask("marshal", 0)
    assert [e for e in t.emitted("income") if e["seat"] == 0][-1]["gold"] == 4 + 3
    assert M.info(t.state, p("S30"))["keywords"] == ["limited"]


def test_S32_godswood_takes_two_off_the_next_stark_character_only():
    t = duel()
    t.play(p("S32"))
    t.hand(0, p("S6"), p("S136"))
    begin(t)
    marshal_phase(t, 0, gold=1)
    use(t, 0, "action", p("S32"))
    t.until_ask("marshal", 0)
    assert M.gold_cost(t.state, 0, p("S136")) == 3 and M.gold_cost(t.state, 0, p("S6")) == 1
    t.choose(0, "marshal", p("S6"))
    assert t.g["players"][0]["gold"] == 0 and t.g["players"][0]["reducers"] == []
    worded(t)


def test_S33_narrow_sea_is_discarded_to_take_two_off_a_stark_or_baratheon_character():
    t = duel()
    t.play(p("S33"))
    t.hand(0, p("S8"), p("S25"))
    begin(t)
    marshal_phase(t, 0, gold=2)
    use(t, 0, "action", p("S33"))
    t.until_ask("marshal", 0)
    assert t.where(p("S33")) == "discard"
    assert M.gold_cost(t.state, 0, p("S25")) == 3 and M.gold_cost(t.state, 0, p("S8")) == 2
    t.choose(0, "marshal", p("S8"))
    assert t.g["players"][0]["gold"] == 0


def test_S138_crossroads_gives_one_income_and_one_influence():
    t = duel()
    t.play(p("S138"))
    t.hand(0, p("S7"))
    begin(t)
    t.until_ask("marshal", 0)
    assert [e for e in t.emitted("income") if e["seat"] == 0][-1]["gold"] == 4 + 1
    assert M.influence_of(t.state, p("S138")) == 1


def test_S139_street_of_steel_takes_one_off_a_character_with_a_military_icon():
    t = duel()
    t.play(p("S139"))
    t.hand(0, p("S6"), p("S18"))
    begin(t)
    marshal_phase(t, 0, gold=1)
    use(t, 0, "action", p("S139"))
    t.until_ask("marshal", 0)
    assert M.gold_cost(t.state, 0, p("S6")) == 3 and M.gold_cost(t.state, 0, p("S18")) == 1
    t.choose(0, "marshal", p("S18"))
    assert t.g["players"][0]["gold"] == 0


# === neutral characters ===========================================================================

def test_S135_benjen_when_killed_shuffles_every_dead_pile_into_its_deck():
    t = duel()
    t.play(p("S135"))
    t.to("dead", p("S18"), p("S19", 1))
    begin(t, plots=("S201", ARMS))
    t.auto(lambda t: t.g["phase"] != "plot")
    g = t.g
    assert g["players"][0]["dead"] == [] and g["players"][1]["dead"] == []
    assert {t.where(p("S135")), t.where(p("S18")), t.where(p("S19", 1))} == {"deck"}


def test_S136_jon_snow_claims_power_after_a_win_he_took_part_in_and_ghost_ignores_events():
    t = duel()
    t.play(p("S136"))
    t.play(p("S137"))
    assert M.has_kw(t.state, p("S137"), "immune_events")
    begin(t)
    t.declare(0, "power", 1, p("S136"))
    t.defend(1)
    t.until_ask("response", 0)
    t.choose(0, "respond", p("S136"), 0)
    assert t.g["cards"][p("S136")]["power"] == 1
    t.finish_challenge()
    # Not after a challenge neither Jon nor Ghost took part in.
    t2 = duel()
    t2.play(p("S136"))
    t2.play(p("S6"))
    begin(t2)
    t2.declare(0, "intrigue", 1, p("S6"))
    t2.defend(1)
    t2.finish_challenge()
    assert not [o for _, o in t2.offered if ["respond", p("S136"), 0] in o["choices"]]


def test_S137_ghost_saves_a_nights_watch_character_and_jon_ignores_events():
    t = duel()
    t.play(p("S136"))
    t.play(p("S137"))
    t.play(p("S18"))
    assert M.has_kw(t.state, p("S136"), "immune_events")
    begin(t, plots=("S201", ARMS))
    t.until_ask("save", 0)
    while t.ask(0)["data"]["card"] != p("S136"):
        assert ["save", p("S137"), 0] not in t.choices(0)    # Ghost and the Knight are no Night's Watch
        t.choose(0, "pass")
    t.choose(0, "save", p("S137"), 0)
    t.auto(lambda t: t.g["phase"] != "plot")
    assert t.where(p("S136")) == "play" and t.where(p("S18")) == "dead" and t.where(p("S137")) == "dead"


# === events ========================================================================================

def test_S155_distraction_kneels_a_character_with_a_military_icon():
    t = duel()
    t.play(p("S18", 1))
    t.play(p("S6", 1))                                      # no military icon
    t.hand(0, p("S155"))
    begin(t, plots=("S196", ARMS))
    marshal_phase(t, 0)
    use(t, 0, "action", p("S155"))
    assert t.choices(0) == [["target", p("S18", 1)]]
    t.choose(0, "target", p("S18", 1))
    assert kneeling(t, p("S18", 1)) and t.where(p("S155")) == "discard"


def stark_with(*codes, extra=None):
    table = table_with(extra=extra)
    deck = dict(table["decks"]["stark"])
    deck["draw"] = deck["draw"] + list(codes)
    table["decks"]["stark"] = deck
    return table


def test_S156_winter_is_coming_raises_a_stark_attackers_claim_once_a_round():
    cards = stark_with("S156b", extra={"S156b": {"of": "S156", "duplicate_of": "S156"}})
    t = duel(cards=cards)
    t.play(p("S5"))
    for c in ("S18", "S19", "S4"):
        t.play(p(c, 1))
    t.hand(0, p("S156"), "S156b#0")
    begin(t, plots=("S196", ARMS))
    t.declare(0, "military", 1, p("S5"))
    t.until_ask("action", 0)
    use(t, 0, "action", p("S156"))
    t.defend(1)
    t.until_ask("claim_kill", 1)
    assert t.g["challenge"]["claim_mod"] == 1
    t.choose(1, "kill", p("S18", 1))
    t.choose(1, "kill", p("S19", 1))
    t.choose(1, "kill", p("S4", 1))                         # claim 2 + 1
    t.finish_challenge()
    t.until_ask("challenge", 0)
    t.auto(lambda t: t.g["phase"] != "challenges")
    assert not [o for _, o in t.offered if ["action", "S156b#0", 0] in o["choices"]]
    worded(t)


def test_S157_kings_in_the_north_kneels_two_stark_characters_after_dominance_for_a_power_each():
    t = duel()
    for c in ("S18", "S19", "S6"):
        t.play(p(c))
    t.hand(0, p("S157"))
    begin(t, plots=("S196", ARMS))
    t.to_phase("dominance")
    t.until_ask("response", 0)
    t.choose(0, "respond", p("S157"), 0)
    assert sorted(c[1] for c in t.choices(0)) == sorted([p("S18"), p("S19"), p("S6")])
    t.choose(0, "kneel", p("S18"))
    t.choose(0, "kneel", p("S6"))
    t.auto(lambda t: t.where(p("S157")) != "playing" and t.where(p("S157")) != "hand")
    g = t.g
    assert g["cards"][p("S18")]["power"] == 1 and g["cards"][p("S6")]["power"] == 1 and g["cards"][p("S19")]["power"] == 0
    assert kneeling(t, p("S18")) and kneeling(t, p("S6"))


def test_S158_lethal_counterattack_kills_every_attacker_in_a_military_challenge():
    t = duel()
    t.play(p("S18", 1))
    t.play(p("S19", 1))
    t.play(p("S5"))
    t.play(p("S6"))
    t.play(p("S136"))                                       # neutral: cannot pay the cost
    t.hand(0, p("S158"))
    begin(t, plots=("S196", ARMS), first=1)
    t.declare(1, "military", 0, p("S18", 1), p("S19", 1))
    t.until_ask("action", 0)
    use(t, 0, "action", p("S158"))
    assert sorted(c[1] for c in t.choices(0)) == [p("S5"), p("S6")]
    t.choose(0, "kneel", p("S5"))
    t.choose(0, "kneel", p("S6"))
    t.auto(lambda t: t.where(p("S18", 1)) != "play")
    assert t.where(p("S18", 1)) == "dead" and t.where(p("S19", 1)) == "dead"


def test_S159_bran_the_builders_legacy_puts_a_cheap_location_into_play():
    t = duel()
    t.hand(0, p("S159"))
    begin(t, plots=("S196", ARMS))
    t.to_phase("dominance")
    t.gold(0, 3)
    t.until_ask("action", 0)
    start = len(t.events)
    use(t, 0, "action", p("S159"))
    offered = [c[1] for c in t.choices(0) if c[0] == "take"]
    assert offered and all(M.info(t.state, i)["type"] == "location" and M.info(t.state, i)["cost"] <= 2
                           for i in offered)
    assert p("S25") not in offered                          # Winterfell Castle costs 3
    t.choose(0, "take", offered[0])
    assert t.where(offered[0]) == "play" and t.g["players"][0]["gold"] == 0
    assert_unnamed(t, start, offered[1:] + t.g["players"][0]["deck"])   # the rest of the deck stays hidden


def test_S160_guilty_kills_a_character_that_is_not_house_stark():
    t = duel(decks=("stark", "lannister"))
    t.play(p("S5"))                                         # a Noble to kneel
    t.play(p("S6"))
    t.play(p("L46", 1))
    t.hand(0, p("S160"))
    begin(t, plots=("S196", "L190"))
    t.to_phase("dominance")
    t.until_ask("action", 0)
    assert ["action", p("S160"), 0] not in t.choices(0)     # no 3 influence
    use(t, 0, "action", p("S160"), 1)
    assert t.choices(0) == [["target", p("L46", 1)]]        # not the Stark characters
    t.choose(0, "target", p("L46", 1))
    t.choose(0, "kneel", p("S5"))
    t.auto(lambda t: t.where(p("L46", 1)) != "play")
    assert t.where(p("L46", 1)) == "dead"


def test_S177_distinct_mastery_stands_a_character_with_a_crest():
    t = duel()
    t.play(p("S5"), kneel=True)                             # Noble
    t.play(p("S19"), kneel=True)                            # no crest
    t.hand(0, p("S177"))
    begin(t, plots=("S196", ARMS))
    t.until_ask("action", 0)
    use(t, 0, "action", p("S177"))
    assert t.choices(0) == [["target", p("S5")]]
    t.choose(0, "target", p("S5"))
    assert not kneeling(t, p("S5")) and kneeling(t, p("S19"))


# === plots =========================================================================================

def test_S195_building_season_each_player_finds_a_location_you_first():
    t = duel()
    begin(t, plots=("S195", ARMS))
    assert t.ask(0)["kind"] == "target" and t.choices(0) == [["target", 1]]
    start = len(t.events)
    t.choose(0, "target", 1)
    mine = [c[1] for c in t.choices(0) if c[0] == "take"]
    assert mine and all(M.info(t.state, i)["type"] == "location" for i in mine)
    t.choose(0, "take", mine[0])
    theirs = [c[1] for c in t.choices(1) if c[0] == "take"]
    assert theirs and all(i.endswith("#1") for i in theirs)
    t.choose(1, "take", theirs[0])
    assert t.where(mine[0]) == "hand" and t.where(theirs[0]) == "hand"
    for viewer, hidden in ((1, mine[1:]), (0, theirs[1:]), (PUBLIC, mine[1:] + theirs[1:])):
        seen = names_in(t.events[start:], viewer)
        assert not [i for i in hidden if i in seen]


def test_S196_mutual_enemies_bars_military_challenges_between_two_players():
    t = Table(3, decks=["stark", "lannister", "stark"])
    for s in range(3):
        t.play(p("S18", s) if s != 1 else p("L46", 1))
    t.plots(p("S196", 0), p("L190", 1), p(ARMS, 2))
    t.choose(0, "first", 0)
    t.choose(0, "target", 2)
    t.auto(lambda t: t.asks_of("challenge"))
    opts = t.choices(0)
    assert ["challenge", "military", 1, ] in opts and ["challenge", "military", 2] not in opts
    assert ["challenge", "power", 2] in opts
    worded(t)


def test_S197_holding_the_trident_gives_two_strength_with_fewer_characters():
    t = duel()
    t.play(p("S18"))
    t.play(p("S18", 1))
    t.play(p("S19", 1))
    begin(t, plots=("S197", ARMS))
    assert t.strength(p("S18")) == 4 and t.strength(p("S19", 1)) == 2
    t.play(p("S19"))
    assert t.strength(p("S18")) == 2


def test_S198_calm_over_westeros_makes_an_event_cost_a_gold_for_an_opponent():
    t = duel()
    t.play(p("S18", 1))
    t.hand(0, p("S155"))
    begin(t)
    marshal_phase(t, 0, gold=0)
    assert not [c for c in t.choices(0) if c[:2] == ["action", p("S155")]]
    t.gold(0, 1)
    t.refresh()
    t.auto(lambda t: any(["action", p("S155"), 0] in a["choices"] for a in t.state["asks"]))
    gold1 = t.g["players"][1]["gold"]
    use(t, 0, "action", p("S155"))
    t.choose(0, "target", p("S18", 1))
    assert t.g["players"][0]["gold"] == 0 and t.g["players"][1]["gold"] == gold1 + 1


def test_S199_snowed_under_returns_a_kneeling_card_of_each_player_to_hand():
    t = duel()
    t.play(p("S18"))
    t.play(p("S19", 1))
    t.play(p("S24", 1))
    begin(t, plots=("S199", ARMS))
    t.auto(lambda t: t.g["phase"] == "dominance")
    t.g["cards"][p("S18")]["kneel"] = True
    t.g["cards"][p("S19", 1)]["kneel"] = True
    t.g["cards"][p("S24", 1)]["kneel"] = True
    t.refresh()
    t.until_ask("target", 0)
    assert t.choices(0) == [["target", p("S18")]]
    t.choose(0, "target", p("S18"))
    assert sorted(t.choices(0)) == [["target", p("S19", 1)], ["target", p("S24", 1)]]
    t.choose(0, "target", p("S24", 1))
    t.auto(lambda t: t.g["phase"] != "standing")
    assert t.where(p("S18")) == "hand" and t.where(p("S24", 1)) == "hand" and t.where(p("S19", 1)) == "play"


def test_S200_the_power_of_arms_gives_your_war_crest_characters_two_strength():
    t = duel()
    t.play(p("S10"))                                        # War
    t.play(p("S6"))                                         # Noble
    t.play(p("S10", 1))
    begin(t, plots=(ARMS, "S196"))
    assert t.strength(p("S10")) == 5 and t.strength(p("S6")) == 3 and t.strength(p("S10", 1)) == 3


def test_S201_valar_morghulis_kills_every_character_in_play():
    t = duel()
    t.play(p("S18"))
    t.play(p("S25"))
    t.play(p("S19", 1))
    begin(t, plots=("S201", ARMS))
    t.auto(lambda t: t.g["phase"] != "plot")
    assert t.where(p("S18")) == "dead" and t.where(p("S19", 1)) == "dead" and t.where(p("S25")) == "play"


def test_S160_guilty_paid_with_three_influence_and_only_for_house_stark():
    t = duel(decks=("stark", "lannister"))
    for loc in ("S26", "S28", "S138"):                     # 1 influence each
        t.play(p(loc))
    t.play(p("L46", 1))
    t.hand(0, p("S160"))
    begin(t, plots=("S196", "L190"))
    t.to_phase("dominance")
    t.until_ask("action", 0)
    assert ["action", p("S160"), 1] not in t.choices(0)     # no Noble character to kneel
    use(t, 0, "action", p("S160"), 0)
    t.choose(0, "target", p("L46", 1))
    for loc in ("S26", "S28", "S138"):
        t.choose(0, "kneel_influence", p(loc))
    t.auto(lambda t: t.where(p("L46", 1)) != "play")
    assert t.where(p("L46", 1)) == "dead"
    # A Lannister player may not play it ("House Stark only").
    from maester.games.lcg import abilities as A
    assert A._event_allowed(t.state, 0, p("S160")) and not A._event_allowed(t.state, 1, p("S160"))


def test_S24_winterfell_kennels_with_a_real_deck_offers_only_direwolves_to_the_owner():
    t = Table(2, decks=["stark", "stark"], observe=["draws"])
    t.play(p("S24"))
    t.gold(0, 1)
    begin(t)
    t.until_ask("action", 0)
    start = len(t.events)
    use(t, 0, "action", p("S24"))
    deck = list(t.g["players"][0]["deck"])
    wolves = [i for i in deck if "Direwolf" in M.info(t.state, i)["traits"]]
    assert sorted(c[1] for c in t.choices(0) if c[0] == "take") == sorted(wolves)
    t.choose(0, "take", wolves[0])
    assert t.where(wolves[0]) == "hand" and t.g["players"][0]["deck"] == sorted(t.g["players"][0]["deck"])
    assert_unnamed(t, start, [i for i in deck if i != wolves[0]])
