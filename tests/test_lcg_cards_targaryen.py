"""The Targaryen starter deck's cards (issue 13): each card's ability in a situation where it
matters, with its limits and restrictions, played through the engine's asks (lcg_harness.Table).

Both seats play the Targaryen deck, so only this module's plots and cards act. Both reveal
Noose and Swordpoint (T207, 4/3/1), which acts only in the standing phase, unless a test needs
another plot; seat 0 goes first.
"""

import pytest

from lcg_harness import Table, table_with, worded
from maester.engine import PUBLIC, filter_events
from maester.games.lcg import abilities as A
from maester.games.lcg import cards_targaryen as CT
from maester.games.lcg import model as M

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def p(code, seat=0):
    return "%s#%d" % (code, seat)


def table(decks=("targaryen", "targaryen"), cards=None, players=2):
    return Table(players, decks=list(decks), cards=cards)


def begin(t, plots=("T207", "T207")):
    t.plots(*(p(c, s) for s, c in enumerate(plots)))
    t.choose(t.ask()["seat"], "first", 0)


def until_choice(t, seat, *choice):
    """Play on (passing) until `seat` is offered `choice`."""
    t.auto(lambda t: any(a["seat"] == seat and list(choice) in a["choices"] for a in t.state["asks"]))


def offered(t, seat, *choice):
    return any(a["seat"] == seat and list(choice) in a["choices"] for a in t.state["asks"])


def to_challenges(t, gold=None):
    t.auto(lambda t: t.g["phase"] == "challenges" and t.state["asks"])
    for seat, n in enumerate(gold or ()):
        t.gold(seat, n)


MY_EVENTS = ("gold_taken", "gold_removed", "claim_changed", "gold_tax", "returned_to_hand")



def public_text(t):
    return repr(filter_events(t.events, PUBLIC)) + repr(t.view(PUBLIC))


# === attachments ===================================================================================

def test_T100_blood_of_the_dragon_six_str_and_the_dragon_trait_while_in_a_challenge():
    t = table()
    t.play(p("T118"))                                   # Brown Ben Plumm, STR 2, military
    t.play(p("T100"), on=p("T118"))
    t.play(p("T123"))                                   # Qartheen Fanatic: +1 STR while a Dragon is in play
    begin(t)
    to_challenges(t)
    assert t.strength(p("T118")) == 2 and not CT.has_trait(t.state, p("T118"), "Dragon")
    assert t.strength(p("T123")) == 2
    t.declare(0, "military", 1, p("T118"))
    assert t.strength(p("T118")) == 8 and CT.has_trait(t.state, p("T118"), "Dragon")
    assert t.strength(p("T123")) == 3                   # a Dragon character is in play now
    t.finish_challenge()
    assert t.strength(p("T118")) == 2 and t.strength(p("T123")) == 2


def test_T101_poisoned_wine_minus_two_and_moves_for_one_influence():
    t = table()
    t.play(p("T127"))                                   # Eastern Fiefdoms: 1 influence
    t.play(p("T117", 1))                                # Jhogo 3
    t.play(p("T118", 1))                                # Brown Ben 2
    t.play(p("T101"), on=p("T117", 1))
    assert t.strength(p("T117", 1)) == 1
    begin(t)
    t.until_ask("action", 0)
    t.choose(0, "action", p("T101"), 0)
    assert t.choices(0) == [["target", p("T118", 1)]]
    t.choose(0, "target", p("T118", 1))
    t.choose(0, "kneel_influence", p("T127"))
    t.auto(lambda t: t.g["cards"][p("T101")]["on"] == p("T118", 1) and t.state["asks"])
    assert t.strength(p("T117", 1)) == 3 and t.strength(p("T118", 1)) == 0
    assert not offered(t, 0, "action", p("T101"), 0)    # no influence left to pay


def test_T102_aegons_blade_str_stealth_and_renown_by_icon():
    t = table()
    t.play(p("T114"))                                   # Daario: military, intrigue, power
    t.play(p("T102"), on=p("T114"))
    t.play(p("T118"))                                   # Brown Ben: military only
    assert t.strength(p("T114")) == 5
    assert {"stealth", "renown"} <= M.keywords(t.state, p("T114"))
    t = table()
    t.play(p("T118"))
    t.play(p("T102"), on=p("T118"))
    assert t.strength(p("T118")) == 4 and not {"stealth", "renown"} & M.keywords(t.state, p("T118"))


def test_T103_flame_kissed_minus_two_kills_at_zero_unless_another_attachment():
    t = table()
    t.play(p("T130"))                                   # Khal Drogo's Tent: 1 influence
    t.play(p("T127"))                                   # Eastern Fiefdoms: 1 influence
    t.play(p("T118", 1))                                # Brown Ben, STR 2
    t.play(p("T117", 1))                                # Jhogo 3, with Aegon's Blade
    t.play(p("T102", 1), on=p("T117", 1))
    t.hand(0, p("T103"))
    begin(t)
    t.until_ask("action", 0)
    t.choose(0, "ambush", p("T103"))
    assert sorted(t.choices(0)) == sorted([["target", p("T118", 1)], ["target", p("T117", 1)]])
    t.choose(0, "target", p("T118", 1))
    t.choose(0, "kneel_influence", p("T130"))
    t.choose(0, "kneel_influence", p("T127"))
    t.auto(lambda t: t.where(p("T118", 1)) != "play")
    assert t.where(p("T118", 1)) == "dead" and t.where(p("T103")) == "discard"
    # With another attachment on the character it does nothing.
    t = table()
    t.play(p("T117", 1))
    t.play(p("T102", 1), on=p("T117", 1))
    t.play(p("T103"), on=p("T117", 1))
    assert t.strength(p("T117", 1)) == 3 + 2 + 2        # Jhogo with a Weapon, the Blade, no -2


def test_T103_flame_kissed_kills_when_a_later_effect_brings_the_str_to_zero():
    t = table()
    t.play(p("T117", 1))                                # Jhogo 3
    t.play(p("T103"), on=p("T117", 1))                  # 1
    t.hand(0, p("T174"))
    begin(t)
    t.until_ask("action", 0)
    t.choose(0, "action", p("T174"), 0)                 # Forever Burning: -1
    t.choose(0, "target", p("T117", 1))
    t.auto(lambda t: t.where(p("T117", 1)) != "play" or t.g["phase"] != "plot")
    assert t.where(p("T117", 1)) == "dead"


def test_T104_bones_of_a_child_one_less_claim_for_the_attacking_opponent():
    t = table()
    t.play(p("T125"))                                   # Illyrio's Man (power icon: cannot defend military)
    t.play(p("T104"), on=p("T125"))
    t.play(p("T118", 1))
    begin(t)
    to_challenges(t)
    assert not offered(t, 0, "action", p("T104"), 0)    # no opponent is attacking
    t.declare(1, "military", 0, p("T118", 1))
    until_choice(t, 0, "action", p("T104"), 0)
    t.choose(0, "action", p("T104"), 0)
    t.finish_challenge()
    assert t.result()["winner"] == 1
    assert t.where(p("T125")) == "play" and t.where(p("T104")) == "discard"   # claim 1 - 1 = 0: no kill
    assert worded(t, MY_EVENTS) == {"claim_changed"}


# === characters ===================================================================================

def test_T105_captain_groleo_power_when_an_opponent_plays_an_attachment_once_a_phase():
    t = table()
    t.play(p("T105"))
    t.play(p("T118", 1))
    t.hand(1, p("T102", 1), p("T104", 1))
    begin(t)
    t.until_ask("marshal", 0)
    t.choose(0, "done")
    t.until_ask("marshal", 1)
    t.choose(1, "attach", p("T102", 1), p("T118", 1))
    until_choice(t, 0, "respond", p("T105"), 0)
    t.choose(0, "respond", p("T105"), 0)
    assert t.g["players"][0]["power"] == 1
    t.until_ask("marshal", 1)
    t.choose(1, "attach", p("T104", 1), p("T118", 1))
    t.auto(lambda t: t.g["phase"] == "challenges")
    assert t.g["players"][0]["power"] == 1              # once per phase
    assert not [o for o in t.offered if ["respond", p("T105"), 0] in o[1]["choices"] and o[1]["seat"] == 0][1:]


def _daenerys(with_other):
    t = table()
    t.play(p("T106"))
    t.play(p("T121"))                                   # Dany's Handmaiden, intrigue
    begin(t)
    to_challenges(t, gold=(0, 3))
    t.declare(0, "intrigue", 1, p("T106"), *([p("T121")] if with_other else []))
    t.finish_challenge()
    return t


def test_T106_daenerys_takes_the_losers_gold_only_as_the_only_attacker():
    t = _daenerys(False)
    assert t.result()["winner"] == 0
    assert t.g["players"][0]["gold"] == 3 and t.g["players"][1]["gold"] == 0
    assert worded(t, MY_EVENTS) == {"gold_taken"}
    t = _daenerys(True)
    assert t.g["players"][0]["gold"] == 0 and t.g["players"][1]["gold"] == 3


def test_T107_khal_drogo_from_hand_after_a_win_and_back_when_the_phase_ends():
    t = table()
    t.play(p("T118"))
    t.hand(0, p("T107"))
    begin(t)
    to_challenges(t)
    assert not offered(t, 0, "respond", p("T107"), 0)
    t.declare(0, "military", 1, p("T118"))
    until_choice(t, 0, "respond", p("T107"), 0)
    t.choose(0, "respond", p("T107"), 0)
    assert t.where(p("T107")) == "play"
    t.auto(lambda t: t.g["phase"] == "dominance")
    assert t.where(p("T107")) == "hand"


def test_T107_khal_drogo_in_hand_is_not_told_by_the_response_window():
    """Seat 0 is asked to respond after its win whether or not Drogo is in its hand."""
    seen = []
    for card in ("T107", "T121"):
        t = table()
        t.play(p("T118"))
        t.hand(0, p(card))
        begin(t)
        to_challenges(t)
        t.declare(0, "military", 1, p("T118"))
        t.auto(lambda t: any(a["kind"] == "response" and a["seat"] == 0 for a in t.state["asks"])
               or t.g["challenge"] is None)
        ask = t.ask()
        seen.append((ask["seat"], ask["kind"], ask.get("public")))
        assert p(card) not in public_text(t) + repr(t.view(1))
    assert seen[0] == seen[1] == (0, "response", "may respond")


def test_T108_viserys_saved_from_a_kill_goes_back_to_hand():
    t = table()
    t.play(p("T108"))                                   # Viserys: power icon only
    t.play(p("T118", 1))
    begin(t)
    t.declare(1, "military", 0, p("T118", 1))
    t.until_ask("claim_kill", 0)
    t.choose(0, "kill", p("T108"))
    assert ["save", p("T108"), 0] in t.choices(0)
    t.choose(0, "save", p("T108"), 0)
    t.finish_challenge()
    assert t.where(p("T108")) == "hand"


@pytest.mark.parametrize("inplay,indeck", [("T109", "T110"), ("T110", "T109")])
def test_T109_T110_rhaegal_searches_his_duplicate_for_one_gold(inplay, indeck):
    t = table()
    t.play(p(inplay))
    begin(t)
    t.gold(0, 1)
    t.until_ask("action", 0)
    t.choose(0, "action", p(inplay), 0)
    ask = t.ask(0)
    assert ask["kind"] == "search" and ask["choices"] == [["take", p(indeck)], ["none"]]
    t.choose(0, "take", p(indeck))
    assert t.g["cards"][p(inplay)]["dups"] == [p(indeck)] and t.g["players"][0]["gold"] == 0
    # Leak: nobody but seat 0 learns the deck's other cards.
    others = [i for i in t.g["players"][0]["deck"]]
    text = public_text(t) + repr(filter_events(t.events, 1)) + repr(t.view(1))
    assert not [i for i in others if i in text]


def test_T111_drogon_minus_one_kills_at_zero_once_a_phase():
    t = table()
    t.play(p("T111"))
    t.play(p("T125", 1))                                # Illyrio's Man, STR 1
    t.play(p("T118", 1))
    begin(t)
    t.gold(0, 4)
    t.until_ask("action", 0)
    t.choose(0, "action", p("T111"), 0)
    t.choose(0, "target", p("T125", 1))
    t.auto(lambda t: t.where(p("T125", 1)) != "play" or not t.state["asks"])
    assert t.where(p("T125", 1)) == "dead" and t.g["players"][0]["gold"] == 2
    t.auto(lambda t: any(a["seat"] == 0 and a["kind"] == "action" for a in t.state["asks"]) or t.g["phase"] != "plot")
    assert not offered(t, 0, "action", p("T111"), 0)


def test_T112_viserion_kills_a_kneeling_character_in_dominance_once():
    t = table()
    t.play(p("T112"))
    t.play(p("T118", 1), kneel=True)
    t.play(p("T117", 1))
    t.play(p("T121", 1), kneel=True)
    begin(t)
    to_challenges(t, gold=(8, 0))
    t.auto(lambda t: t.g["phase"] == "dominance" and offered(t, 0, "action", p("T112"), 0))
    t.choose(0, "action", p("T112"), 0)
    assert sorted(t.choices(0)) == sorted([["target", p("T118", 1)], ["target", p("T121", 1)]])
    t.choose(0, "target", p("T118", 1))
    t.auto(lambda t: t.where(p("T118", 1)) == "dead")
    assert t.g["players"][0]["gold"] == 4
    t.auto(lambda t: t.g["phase"] != "dominance" or offered(t, 0, "action", p("T112"), 0)
           or any(a["seat"] == 0 and a["kind"] == "action" for a in t.state["asks"]))
    assert not offered(t, 0, "action", p("T112"), 0)


def test_T113_strong_belwas_does_not_save_a_character_without_the_noble_crest():
    t = table()
    t.play(p("T113"))
    t.play(p("T106"))                                   # Daenerys: the Noble crest
    t.play(p("T118", 1))
    begin(t)
    to_challenges(t, gold=(2, 0))
    t.declare(1, "military", 0, p("T118", 1))
    t.defend(0)
    t.until_ask("claim_kill", 0)
    t.choose(0, "kill", p("T113"))                      # Belwas himself has no crest
    assert not offered(t, 0, "save", p("T113"), 0)


def test_T113_strong_belwas_saves_a_noble():
    # In the Core set Noble is a crest (Daenerys has it), never a trait (issue 25).
    assert "noble" in CT.M.info(table().state, p("T106"))["crests"]
    t = table()
    t.play(p("T113"), kneel=True)
    t.play(p("T106"), kneel=True)
    t.play(p("T118", 1))
    begin(t)
    to_challenges(t, gold=(2, 0))
    t.declare(1, "military", 0, p("T118", 1))
    t.until_ask("claim_kill", 0)
    t.choose(0, "kill", p("T106"))
    t.choose(0, "save", p("T113"), 0)
    t.finish_challenge()
    assert t.where(p("T106")) == "play" and t.g["players"][0]["gold"] == 0


@pytest.mark.parametrize("gold", [2, 0])
def test_T114_daario_takes_a_gold_as_dominance_begins_or_is_discarded(gold):
    t = table()
    t.play(p("T114"))
    begin(t)
    to_challenges(t, gold=(0, gold))
    t.auto(lambda t: t.g["phase"] == "dominance" and any(a["kind"] == "target" for a in t.state["asks"]))
    if gold:
        assert t.choices(0) == [["target", 1], ["target", p("T114")]]
        t.choose(0, "target", 1)
        assert t.g["players"][1]["gold"] == 1 and t.where(p("T114")) == "play"
        assert worded(t, MY_EVENTS) == {"gold_removed"}
    else:
        assert t.choices(0) == [["target", p("T114")]]
        t.choose(0, "target", p("T114"))
        assert t.where(p("T114")) == "discard"


def test_T115_quaithe_with_an_attachment_cannot_be_chosen_by_opponents():
    t = table()
    t.play(p("T115"))
    t.play(p("T111", 1))
    drogon = A.ABILITIES["T111"][0]
    assert p("T115") in A.legal_targets(t.state, 1, p("T111", 1), drogon)
    t.play(p("T104"), on=p("T115"))
    assert p("T115") not in A.legal_targets(t.state, 1, p("T111", 1), drogon)
    t.play(p("T111"))
    assert p("T115") in A.legal_targets(t.state, 0, p("T111"), drogon)       # her own side may


def test_T116_xaro_returns_a_character_you_control_when_played():
    t = table()
    t.play(p("T118"))
    t.hand(0, p("T116"))
    begin(t)
    t.until_ask("marshal", 0)
    t.choose(0, "marshal", p("T116"))
    t.auto(lambda t: any(a["kind"] == "target" for a in t.state["asks"]))
    assert sorted(t.choices(0)) == sorted([["target", p("T118")], ["target", p("T116")]])
    t.choose(0, "target", p("T118"))
    assert t.where(p("T118")) == "hand" and t.where(p("T116")) == "play"


def test_T117_jhogo_plus_two_with_a_weapon():
    t = table()
    t.play(p("T117"))
    t.play(p("T104"), on=p("T117"))                     # Bones of a Child: an Item
    assert t.strength(p("T117")) == 3
    t.play(p("T102"), on=p("T117"))                     # Aegon's Blade: a Weapon (+2 itself)
    assert t.strength(p("T117")) == 7


def test_T118_brown_ben_plumm_costs_nothing_and_attacks_with_two():
    t = table()
    t.hand(0, p("T118"))
    begin(t)
    t.until_ask("marshal", 0)
    gold = t.g["players"][0]["gold"]
    t.choose(0, "marshal", p("T118"))
    t.declare(0, "military", 1, p("T118"))
    t.finish_challenge()
    assert t.g["players"][0]["gold"] == gold or t.g["phase"] != "marshalling"
    assert t.result()["attack"] == 2


def test_T119_dothraki_honor_guard_given_to_an_opponent_comes_back_after_it_wins():
    t = table()
    t.hand(0, p("T119"))
    begin(t)
    t.auto(lambda t: t.g["phase"] == "challenges" and offered(t, 0, "action", p("T119"), 0))
    t.choose(0, "action", p("T119"), 0)
    assert t.choices(0) == [["target", 1]]
    t.choose(0, "target", 1)
    assert t.where(p("T119")) == "play" and t.g["cards"][p("T119")]["ctrl"] == 1
    t.declare(1, "military", 0, p("T119"))
    t.finish_challenge()
    assert t.result()["winner"] == 1 and t.g["cards"][p("T119")]["ctrl"] == 0
    assert p("T119") in t.g["players"][0]["play"]


def test_T120_titans_bastard_comes_in_on_your_dead_and_leaves_on_theirs():
    t = table()
    t.play(p("T118"))
    t.play(p("T111"))
    t.play(p("T125", 1))
    t.play(p("T117", 1))
    t.hand(0, p("T120"))
    begin(t)
    t.declare(1, "military", 0, p("T117", 1))
    t.defend(0)
    t.until_ask("claim_kill", 0)
    t.choose(0, "kill", p("T118"))
    until_choice(t, 0, "respond", p("T120"), 0)
    t.choose(0, "respond", p("T120"), 0)
    assert t.where(p("T120")) == "play"
    t.finish_challenge()
    t.gold(0, 2)
    until_choice(t, 0, "action", p("T111"), 0)
    t.choose(0, "action", p("T111"), 0)
    t.choose(0, "target", p("T125", 1))                 # Drogon kills Illyrio's Man (STR 1)
    until_choice(t, 0, "respond", p("T120"), 1)
    t.choose(0, "respond", p("T120"), 1)
    assert t.where(p("T120")) == "hand"


def test_T121_danys_handmaiden_discards_an_attachment_when_daenerys_dies():
    t = table()
    t.play(p("T106"))
    t.play(p("T121"))
    t.play(p("T118", 1))
    t.play(p("T102", 1), on=p("T118", 1))
    begin(t)
    t.declare(1, "military", 0, p("T118", 1))
    t.until_ask("claim_kill", 0)
    t.choose(0, "kill", p("T106"))
    until_choice(t, 0, "respond", p("T121"), 0)
    t.choose(0, "respond", p("T121"), 0)
    assert t.choices(0) == [["target", p("T102", 1)]]
    t.choose(0, "target", p("T102", 1))
    t.finish_challenge()
    assert t.where(p("T102", 1)) == "discard"


def test_T122_warlocks_servitors_deadly_and_immune_to_character_abilities():
    t = table()
    t.play(p("T122"))
    t.play(p("T111", 1))
    assert p("T122") not in A.legal_targets(t.state, 1, p("T111", 1), A.ABILITIES["T111"][0])
    assert p("T122") in A.legal_targets(t.state, 1, p("T174", 1), A.ABILITIES["T174"][0])  # an event may
    t.play(p("T118", 1))
    begin(t)
    t.declare(0, "military", 1, p("T122"))
    t.defend(1, p("T118", 1))
    t.finish_challenge()
    assert t.where(p("T118", 1)) == "dead"              # Deadly: the defender is killed


def test_T123_qartheen_fanatic_plus_one_and_military_with_a_dragon_in_play():
    t = table()
    t.play(p("T123"))
    assert t.strength(p("T123")) == 2 and "military" not in M.icons(t.state, p("T123"))
    t.play(p("T111", 1))                                # any Dragon, anyone's
    assert t.strength(p("T123")) == 3 and "military" in M.icons(t.state, p("T123"))


def test_T124_pentoshi_guildmaster_from_the_discard_pile_after_a_win_by_four():
    t = table()
    t.play(p("T117"))
    t.play(p("T102"), on=p("T117"))                     # Jhogo STR 7
    t.to("discard", p("T124"))
    begin(t)
    to_challenges(t, gold=(3, 0))
    t.declare(0, "military", 1, p("T117"))
    until_choice(t, 0, "respond", p("T124"), 0)
    t.choose(0, "respond", p("T124"), 0)
    assert t.where(p("T124")) == "hand" and worded(t, MY_EVENTS) == {"returned_to_hand"}
    t.choose(0, "target", p("T124"))                    # pay 3 gold to put him into play
    assert t.where(p("T124")) == "play" and t.g["players"][0]["gold"] == 0


def test_T124_pentoshi_guildmaster_not_after_a_small_win():
    t = table()
    t.play(p("T118"))
    t.to("discard", p("T124"))
    begin(t)
    t.declare(0, "military", 1, p("T118"))
    t.finish_challenge()
    assert t.result()["winner"] == 0 and t.where(p("T124")) == "discard"
    assert not any(["respond", p("T124"), 0] in a[1]["choices"] for a in t.offered)


@pytest.mark.parametrize("code,amount,target", [("T125", 1, "T117"), ("T133", 2, "T117"), ("T127", 1, "T102")])
def test_T125_T133_T127_kneel_to_reduce_the_next_targaryen_card(code, amount, target):
    t = table()
    t.play(p(code))
    t.play(p("T118"))
    t.hand(0, p(target))
    begin(t)
    t.until_ask("marshal", 0)
    gold = t.g["players"][0]["gold"]
    t.choose(0, "action", p(code), 0)
    t.until_ask("marshal", 0)
    assert t.g["cards"][p(code)]["kneel"]
    cost = M.info(t.state, p(target))["cost"]
    choice = ["marshal", p(target)] if target != "T102" else ["attach", p(target), p("T118")]
    t.choose(0, *choice)
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["gold"] == gold - (cost - amount)


def test_T127_T128_T129_eastern_fiefdoms_every_copy_reduces_and_gives_influence():
    t = table()
    for c in ("T127", "T128", "T129"):
        t.play(p(c))
        assert M.influence_of(t.state, p(c)) == 1
    begin(t)
    t.until_ask("marshal", 0)
    for c in ("T127", "T128", "T129"):
        assert ["action", p(c), 0] in t.choices(0)


def test_T126_xaros_home_draws_a_card_after_you_play_an_attachment():
    t = table()
    t.play(p("T126"))
    t.play(p("T127"))                                   # the influence
    t.play(p("T118"))
    t.hand(0, p("T104"))
    begin(t)
    t.until_ask("marshal", 0)
    t.choose(0, "attach", p("T104"), p("T118"))
    until_choice(t, 0, "respond", p("T126"), 0)
    t.choose(0, "respond", p("T126"), 0)
    t.choose(0, "kneel_influence", p("T127"))
    t.until_ask("marshal", 0)
    assert len(t.g["players"][0]["hand"]) == 2 + 1 and t.g["players"][0]["drawn_extra"] == 1  # the draw phase's 2


def test_T130_khal_drogos_tent_on_the_house_card_is_an_attachment():
    t = table()
    t.play(p("T105", 1))                                # Captain Groleo: answers an attachment played
    t.hand(0, p("T130"))
    begin(t)
    t.until_ask("marshal", 0)
    assert ["marshal", p("T130")] in t.choices(0)       # as a location, or
    gold = t.g["players"][0]["gold"]
    t.choose(0, "action", p("T130"), 0)                 # as an attachment on the House card
    until_choice(t, 1, "respond", p("T105", 1), 0)
    t.choose(1, "respond", p("T105", 1), 0)
    t.until_ask("marshal", 0)
    assert t.where(p("T130")) == "play" and t.g["players"][0]["gold"] == gold - 1
    assert t.g["players"][1]["power"] == 1 and A.available_influence(t.state, 0) == 1
    assert p("T130") in CT._attachments_in_play(t.state)


def test_T130_khal_drogos_tent_income_and_influence():
    t = table()
    t.play(p("T130"))
    begin(t)
    t.until_ask("marshal", 0)
    assert t.emitted("income")[0]["gold"] == 4 + 1
    assert A.available_influence(t.state, 0) == 1


def test_T131_T132_temple_of_the_graces_income_one_limited():
    t = table()
    t.play(p("T131"))
    t.hand(0, p("T132"), p("T133"))
    begin(t)
    t.until_ask("marshal", 0)
    assert t.emitted("income")[0]["gold"] == 4 + 1
    t.choose(0, "marshal", p("T132"))
    t.until_ask("marshal", 0)
    assert ["marshal", p("T133")] not in t.choices(0)   # one Limited card a round


def test_T134_summer_sea_discards_itself_for_two_less():
    t = table()
    t.play(p("T134"))
    t.hand(0, p("T117"))
    begin(t)
    t.until_ask("marshal", 0)
    gold = t.g["players"][0]["gold"]
    t.choose(0, "action", p("T134"), 0)
    t.until_ask("marshal", 0)
    assert t.where(p("T134")) == "discard"
    t.choose(0, "marshal", p("T117"))
    t.until_ask("marshal", 0)
    assert t.g["players"][0]["gold"] == gold - 1


def test_T180_lady_daeneryss_chambers_returns_an_attachment_no_dearer_than_the_character():
    t = table()
    t.play(p("T180"))
    t.to("discard", p("T104"), p("T150"))               # Bones 1, Bodyguard 0
    t.hand(0, p("T118"))                                # Brown Ben costs 0
    begin(t)
    t.until_ask("marshal", 0)
    t.choose(0, "marshal", p("T118"))
    until_choice(t, 0, "respond", p("T180"), 0)
    t.choose(0, "respond", p("T180"), 0)
    assert t.choices(0) == [["target", p("T150")]]
    t.choose(0, "target", p("T150"))
    assert t.where(p("T150")) == "hand"


# === neutral cards ===================================================================================

def test_T150_bodyguard_is_discarded_instead_of_its_lady():
    t = table()
    t.play(p("T106"))                                   # Daenerys: a Lady
    t.play(p("T150"), on=p("T106"))
    t.play(p("T118", 1))
    assert not M.attach_ok(t.state, 0, p("T150"), p("T118", 1))   # Brown Ben is no Lord or Lady
    begin(t)
    t.declare(1, "military", 0, p("T118", 1))
    t.until_ask("claim_kill", 0)
    t.choose(0, "kill", p("T106"))
    t.choose(0, "save", p("T150"), 0)
    t.finish_challenge()
    assert t.where(p("T106")) == "play" and t.where(p("T150")) == "discard"


def test_T151_maester_aemon_kneels_to_save_a_nights_watch_character():
    t = table()
    t.play(p("T151"))
    t.play(p("T118", 1))
    begin(t)
    t.declare(1, "military", 0, p("T118", 1))
    t.until_ask("claim_kill", 0)
    t.choose(0, "kill", p("T151"))
    t.choose(0, "save", p("T151"), 0)
    t.finish_challenge()
    assert t.where(p("T151")) == "play" and t.g["cards"][p("T151")]["kneel"]


def test_T151_maester_aemon_only_for_the_nights_watch():
    t = table()
    t.play(p("T151"))
    t.play(p("T125"))
    t.play(p("T118", 1))
    begin(t)
    t.declare(1, "military", 0, p("T118", 1))
    t.until_ask("claim_kill", 0)
    t.choose(0, "kill", p("T125"))
    t.finish_challenge()
    assert t.where(p("T125")) == "dead"
    assert not any(["save", p("T151"), 0] in a[1]["choices"] for a in t.offered)


def test_T152_magister_illyrio_taxes_a_challenge_type_for_the_phase():
    t = table()
    t.play(p("T152"))
    t.play(p("T118", 1))
    begin(t)
    to_challenges(t, gold=(0, 2))
    until_choice(t, 0, "action", p("T152"), 0)
    t.choose(0, "action", p("T152"), 0)
    t.choose(0, "target", 1)
    assert t.choices(0) == [["target", "military"], ["target", "intrigue"], ["target", "power"]]
    t.choose(0, "target", "military")
    t.declare(1, "military", 0, p("T118", 1))
    assert t.g["players"][1]["gold"] == 1 and t.g["players"][0]["gold"] == 1
    assert t.g["cards"][p("T152")]["kneel"]
    assert worded(t, MY_EVENTS) == {"gold_tax"}


def test_T153_T154_crossroads_income_and_influence():
    t = table()
    t.play(p("T153"))
    t.play(p("T154"))
    begin(t)
    t.until_ask("marshal", 0)
    assert t.emitted("income")[0]["gold"] == 4 + 2 and A.available_influence(t.state, 0) == 2


def test_T173_dance_with_dragons_finds_a_dragon_and_shows_only_it():
    t = table()
    t.play(p("T127"))
    t.hand(0, p("T173"))
    begin(t)
    t.until_ask("action", 0)
    t.choose(0, "action", p("T173"), 0)
    t.choose(0, "kneel_influence", p("T127"))
    t.auto(lambda t: any(a["kind"] == "search" for a in t.state["asks"]))
    takes = [c[1] for c in t.choices(0) if c[0] == "take"]
    assert sorted(M.code(c) for c in takes) == ["T109", "T110", "T111", "T112"]
    t.choose(0, "take", p("T111"))
    assert t.where(p("T111")) == "hand"
    deck = t.g["players"][0]["deck"]
    text = public_text(t) + repr(filter_events(t.events, 1)) + repr(t.view(1))
    assert p("T111") in text and not [i for i in deck if i in text]


def test_T174_forever_burning_minus_one_then_back_from_the_dead_pile_in_dominance():
    t = table()
    t.play(p("T117", 1))
    t.hand(0, p("T174"))
    begin(t)
    t.until_ask("action", 0)
    assert not offered(t, 0, "action", p("T174"), 1)
    t.choose(0, "action", p("T174"), 0)
    t.choose(0, "target", p("T117", 1))
    t.auto(lambda t: t.where(p("T174")) == "dead")
    assert t.strength(p("T117", 1)) == 2
    to_challenges(t, gold=(2, 0))
    assert not offered(t, 0, "action", p("T174"), 1)    # dominance only
    t.auto(lambda t: t.g["phase"] == "dominance" and offered(t, 0, "action", p("T174"), 1))
    assert not offered(t, 0, "action", p("T174"), 0)
    t.choose(0, "action", p("T174"), 1)
    assert t.where(p("T174")) == "hand" and t.g["players"][0]["gold"] == 0


def test_T175_seductive_promise_takes_a_non_unique_character_after_a_big_power_win():
    t = table()
    t.play(p("T117"))
    t.play(p("T102"), on=p("T117"))                     # STR 7, power icon
    t.play(p("T122", 1), kneel=True)                    # Warlock's Servitors (non-unique)
    t.play(p("T105", 1), kneel=True)                    # Captain Groleo (unique)
    t.hand(0, p("T175"))
    begin(t)
    t.declare(0, "power", 1, p("T117"))
    until_choice(t, 0, "respond", p("T175"), 0)
    t.choose(0, "respond", p("T175"), 0)
    assert t.choices(0) == [["target", p("T122", 1)]]
    t.choose(0, "target", p("T122", 1))
    t.finish_challenge()
    assert t.g["cards"][p("T122", 1)]["ctrl"] == 0


def test_T176_westeros_bleeds_discards_every_character_for_four_influence():
    t = table()
    for c in ("T127", "T128", "T129", "T153"):
        t.play(p(c))
    t.play(p("T118"))
    t.play(p("T117", 1))
    t.hand(0, p("T176"))
    begin(t)
    t.auto(lambda t: t.g["phase"] == "dominance" and offered(t, 0, "action", p("T176"), 0))
    t.choose(0, "action", p("T176"), 0)
    for c in ("T127", "T128", "T129", "T153"):
        t.choose(0, "kneel_influence", p(c))
    t.auto(lambda t: t.where(p("T117", 1)) != "play")
    assert t.where(p("T118")) == "discard" and t.where(p("T117", 1)) == "discard"


# === plots ===================================================================================

def test_T202_condemned_by_the_realm_the_chosen_opponent_kills_someone_elses_character():
    t = table(players=3, decks=("targaryen", "targaryen", "targaryen"))
    t.play(p("T118"))
    t.play(p("T118", 1))
    t.play(p("T118", 2))
    t.plots(p("T202", 0), p("T207", 1), p("T204", 2))
    t.choose(t.ask()["seat"], "first", 0)
    t.auto(lambda t: any(a["kind"] == "target" for a in t.state["asks"]))
    assert t.choices(0) == [["target", 1], ["target", 2]]
    t.choose(0, "target", 1)
    t.auto(lambda t: any(a["kind"] == "target" for a in t.state["asks"]))
    assert t.ask()["seat"] == 1 and sorted(t.choices(1)) == [["target", p("T118", 0)], ["target", p("T118", 2)]]
    t.choose(1, "target", p("T118", 2))
    t.auto(lambda t: t.where(p("T118", 2)) != "play")
    assert t.where(p("T118", 2)) == "dead"


def test_T203_counting_favors_you_and_an_opponent_draw_three():
    t = table()
    hands = [len(pl["hand"]) for pl in t.g["players"]]
    t.plots(p("T203", 0), p("T207", 1))
    t.choose(t.ask()["seat"], "first", 0)
    t.auto(lambda t: any(a["kind"] == "target" for a in t.state["asks"]))
    t.choose(0, "target", 1)
    t.auto(lambda t: t.g["phase"] != "plot")
    assert [len(pl["hand"]) - h for pl, h in zip(t.g["players"], hands)] == [3 + 2, 3 + 2]  # + the draw phase
    drawn = [e for e in t.events if e["e"] == "drew_cards"]
    assert all(e["vis"] == [e["seat"]] for e in drawn)  # each seat sees only its own cards


def test_T204_power_and_wealth_plus_one_per_attachment_on_your_characters():
    t = table()
    t.play(p("T117"))
    t.play(p("T104"), on=p("T117"))
    t.play(p("T118", 1))
    t.play(p("T101", 1), on=p("T118", 1))
    begin(t, plots=("T204", "T207"))
    assert t.strength(p("T117")) == 3 + 1
    assert t.strength(p("T118", 1)) == 0                # not seat 1's: 2 - 2 (Poisoned Wine)


def test_T205_mad_kings_legacy_discards_an_attachment_if_there_is_one():
    t = table()
    t.play(p("T118", 1))
    t.play(p("T102", 1), on=p("T118", 1))
    t.plots(p("T205", 0), p("T207", 1))
    t.choose(t.ask()["seat"], "first", 0)
    t.auto(lambda t: any(a["kind"] == "target" for a in t.state["asks"]))
    assert t.choices(0) == [["target", p("T102", 1)]]
    t.choose(0, "target", p("T102", 1))
    t.auto(lambda t: t.where(p("T102", 1)) != "play")
    assert t.where(p("T102", 1)) == "discard"
    t2 = table()
    t2.plots(p("T205", 0), p("T207", 1))
    t2.choose(t2.ask()["seat"], "first", 0)
    t2.auto(lambda t: t.g["phase"] != "plot")
    assert not [a for a in t2.asked if a[1] == "target"]


def test_T206_rule_by_decree_the_biggest_hand_discards_to_four_choosing_in_secret():
    t = table()
    t.hand(0, *[p(c) for c in ("T117", "T118", "T119")])
    t.hand(1, *[p(c, 1) for c in ("T117", "T118", "T119", "T120", "T121", "T122")])
    assert M.constant(t.state, p("T206"), "uncancelable") == 0
    t.plots(p("T206", 0), p("T207", 1))
    assert M.constant(t.state, p("T206"), "uncancelable") == 1
    t.choose(t.ask()["seat"], "first", 0)
    t.auto(lambda t: any(a["kind"] == "discard" for a in t.state["asks"]))
    assert t.ask()["seat"] == 1 and len(t.choices(1)) == 6
    from maester.games.lcg.text import describe_choice
    assert describe_choice(t.state, t.ask(1), ["discard", p("T121", 1)], 1) == "Discard Dany's Handmaiden"
    assert p("T120", 1) not in repr(t.view(0)) and p("T120", 1) not in repr(t.view(PUBLIC))
    t.choose(1, "discard", p("T121", 1))
    t.choose(1, "discard", p("T122", 1))
    t.auto(lambda t: t.g["phase"] != "plot")
    assert len(t.g["players"][0]["hand"]) == 3 + 2 and t.where(p("T121", 1)) == "discard"
    assert not [e for e in t.events if e["e"] == "discarded_from_hand" and e["seat"] == 0]


def test_T207_noose_and_swordpoint_keeps_str_two_or_less_kneeling():
    t = table()
    t.play(p("T118"), kneel=True)                       # STR 2
    t.play(p("T117"), kneel=True)                       # STR 3
    t.play(p("T127"), kneel=True)                       # a location stands
    begin(t, plots=("T204", "T207"))
    t.auto(lambda t: t.g["phase"] == "taxation")
    assert t.g["cards"][p("T118")]["kneel"] and not t.g["cards"][p("T117")]["kneel"]
    assert not t.g["cards"][p("T127")]["kneel"]


def test_T208_herding_the_masses_non_unique_characters_cannot_defend():
    t = table()
    t.play(p("T117"))
    t.play(p("T118", 1))                                # unique
    t.play(p("T122", 1))                                # Warlock's Servitors: not unique
    begin(t, plots=("T208", "T207"))
    t.declare(0, "military", 1, p("T117"))
    t.auto(lambda t: any(a["kind"] == "defenders" for a in t.state["asks"]))
    assert t.choices(1) == [["defender", p("T118", 1)], ["done"]]
