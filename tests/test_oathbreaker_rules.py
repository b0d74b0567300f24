"""Oathbreaker rules as scenarios: setup, Mission Rounds, Decree Rounds, Final Judgment, the 8-player
King and Queen, every named card and Character Ability, the optional rules, and the rulebook's
examples and clarifications. Values the rulebook does not print come from cards_db (assumed)."""

import pytest

from oathbreaker_harness import Table, default_characters
from maester.engine import PUBLIC, cardtables, filter_events


pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


FLEA = "feed-flea-bottom#1"          # Crown: success Order 2, a Coin and an Honor; failure Chaos 2
FACELESS = "hire-the-faceless-men#1"  # Sword
FAIL_COIN = "sim-mission-07#1"        # Raven (simulation): failure Chaos 3 and a Coin
FAVOR4, FAVOR2, SUSP3, SUSP1 = "sim-decree-03#1", "sim-decree-01#1", "sim-decree-02#1", "sim-decree-04#1"


def table(players=6, missions=(FLEA, FACELESS), hands=None, hand=1, **config):
    """A game whose first Mission Round deals `missions`, with rigged hands, after the Hand is chosen."""
    t = Table(players, **config)
    t.mission_deck_top(*missions)
    for seat, cards in (hands or {}).items():
        t.hand(seat, *cards)
    t.start(hand)
    return t


def resolve_all(t, order=None):
    for i in order or []:
        t.choose(t.g["king"], "resolve", i)
    t.auto(lambda t: t.g["phase"] != "mission" or not t.g["missions"] or
           all(m["result"] is not None for m in t.g["missions"]))


def nobody_plays(t, seats):
    for s in seats:
        assert t.ask()["seat"] == s
        t.hand(s)
        assert t.ask()["seat"] != s


# --- setup ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("players,nobles,conspirators,loyalists,agent", [
    (5, 4, 3, 2, True), (6, 5, 3, 2, False), (7, 6, 4, 3, True), (8, 6, 4, 3, True)])
def test_setup_by_player_count(players, nobles, conspirators, loyalists, agent):
    t = Table(players)
    g = t.g
    assert len(g["nobles"]) == nobles and g["king"] == 0
    assert g["monarchs"] == ([0, 1] if players == 8 else [0])
    dealt = [g["loyalty"][s] for s in g["nobles"]] + ([g["agent"]] if g["agent"] else [])
    assert dealt.count("conspirator") == conspirators and dealt.count("loyalist") == loyalists
    assert (g["agent"] is not None) == agent and t.view(PUBLIC)["agent_in_game"] == agent
    ambitions = [g["ambition"][s] for s in g["nobles"]]
    assert len(set(ambitions)) == nobles and len(g["ambitions_unused"]) == 7 - nobles
    assert all(len(g["hands"][s]) == 3 for s in g["nobles"])
    assert all(len(g["decree_hands"][m]) == 5 for m in g["monarchs"])
    assert all(not g["hands"][m] and g["cubes"][m] is None for m in g["monarchs"])
    assert (g["order"], g["chaos"], g["space"]) == (0, 0, 0)
    assert g["track"][0]["round"] == "mission" and len(g["track"]) == 7
    # The King chooses the first Hand of the King among the nobles.
    ask = t.ask()
    assert ask["seat"] == 0 and ask["kind"] == "first_hand"
    assert ask["choices"] == [["hand", s] for s in g["nobles"]]
    t.start(g["nobles"][2])
    assert g["hand_of_king"] == g["nobles"][2] and t.ask()["seat"] == g["nobles"][2]


def test_each_noble_chooses_a_board_and_a_side_from_the_kings_left():
    t = Table(5, king=2, characters=None)
    order = []
    while t.ask()["kind"] == "character":
        ask = t.ask()
        order.append(ask["seat"])
        taken = {cardtables.get(t.g["table"])["info"][c]["board"] for c in t.g["characters"] if c}
        assert all(cardtables.get(t.g["table"])["info"][c[1]]["board"] not in taken for c in ask["choices"])
        # both sides of every free board are on offer
        assert len(ask["choices"]) == 2 * (6 - len(taken))
        t.choose(ask["seat"], *ask["choices"][-1])
    assert order == [3, 4, 0, 1]
    boards = [cardtables.get(t.g["table"])["info"][t.g["characters"][s]]["board"] for s in order]
    assert len(set(boards)) == 4 and t.g["characters"][2] is None


def test_with_eight_players_the_queen_sits_beside_the_king_and_each_takes_three_nobles():
    t = Table(8, king=3, queen=4)
    g = t.g
    # The Queen is on the King's left: she takes the three to her left, he the three to his right.
    assert [s for s in range(8) if g["judge"][s] == 4] == [5, 6, 7]
    assert [s for s in range(8) if g["judge"][s] == 3] == [0, 1, 2]
    assert t.view(3)["partner_hand"] == g["decree_hands"][4]
    assert t.view(4)["partner_hand"] == g["decree_hands"][3]
    assert "partner_hand" not in t.view(5) and "decree_hand" not in t.view(5)
    drawn = [e for e in t.events if e["e"] == "drew_decrees"]
    assert drawn and all(e["vis"] == [3, 4] for e in drawn)


@pytest.mark.parametrize("config,words", [
    ({"players": 4}, "5 to 8 players"), ({"players": 9}, "5 to 8 players"),
    ({"players": 6, "queen": 1}, "only in an 8-player game"),
    ({"players": 8, "queen": 4}, "sit next to each other"),
    ({"players": 6, "king": 6}, "the King must be a seat from 0 to 5"),
    ({"players": 6, "hand": 0}, "must be a noble"),
    ({"players": 6, "variants": ["dragons"]}, "unknown variant 'dragons'"),
    ({"players": 6, "characters": ["ned-stark"] * 6}, "monarch"),
    ({"players": 6, "characters": [None, "ned-stark", "arya-stark", None, None, None]}, "share a Character Board"),
    ({"players": 6, "characters": [None, "hodor", None, None, None, None]}, "unknown character 'hodor'"),
    ({"players": 6, "characters": [None]}, "one entry per seat"),
    ({"players": 6, "kings": 1}, "unknown setting 'kings'"),
])
def test_bad_configs_are_refused_with_a_reason(config, words):
    from maester.engine import new_game
    with pytest.raises(ValueError, match=words):
        new_game("oathbreaker", dict(config, owner_cards=False), 1)


# --- Mission Rounds ---------------------------------------------------------------------------------

def test_the_rulebook_mission_example_two_matching_one_sabotage_one_neutral_succeeds():
    t = table(hands={1: ["double-crown#1", "sword#1"], 2: ["sabotage#1", "raven#1", "raven#8"],
                     3: ["raven#2", "raven#3"], 4: ["raven#4", "raven#5"], 5: ["raven#6", "raven#7"]})
    t.play(1, ("double-crown#1", 0), ("sword#1", 0))
    t.play(2, ("sabotage#1", 0), ("raven#1", 1), ("raven#8", 1))
    for s in (3, 4, 5):
        t.play(s, ("raven#%d" % (2 * s - 4), 1), ("raven#%d" % (2 * s - 3), 1))
    assert t.g["missions"][0]["sigils"] == [1]
    assert t.ask()["kind"] == "resolve" and t.ask()["seat"] == 0   # the King picks the order
    t.choose(0, "resolve", 0)
    r = t.g["history"][0]
    assert (r["match"], r["sabotage"], r["success"]) == (2, 1, True)
    assert sorted(r["revealed"]) == r["revealed"] == sorted(["double-crown#1", "sword#1", "sabotage#1"])
    assert t.g["order"] == 2 and t.g["cubes"][1] == [1, 1, 0]     # Feed Flea Bottom: Order 2, Coin, Honor
    assert t.g["cubes"][2] == [0, 0, 0]                             # seat 2's sigil is on the other mission


def test_a_tie_fails_and_an_empty_mission_fails():
    t = table(hands={1: ["crown#1", "sabotage#1"]})
    t.play(1, ("crown#1", 0), ("sabotage#1", 0))
    nobody_plays(t, [2, 3, 4, 5])
    t.choose(0, "resolve", 1)
    t.auto(lambda t: len(t.g["history"]) == 2)
    tie, empty = t.g["history"][1], t.g["history"][0]
    assert (tie["match"], tie["sabotage"], tie["success"]) == (1, 1, False)
    assert empty["revealed"] == [] and not empty["success"]
    assert t.g["chaos"] == 4 and t.g["order"] == 0 and t.g["cubes"][1] == [0, 0, 0]


def test_sabotage_that_adds_chaos_and_a_mission_that_pays_on_failure():
    t = table(missions=(FAIL_COIN, FACELESS),
              hands={1: ["sabotage-chaos#1", "sword#1"], 2: ["raven#1", "crown#1"]})
    t.play(1, ("sabotage-chaos#1", 0), ("sword#1", 0))
    t.play(2, ("raven#1", 0), ("crown#1", 0))
    nobody_plays(t, [3, 4, 5])
    t.choose(0, "resolve", 0)
    r = t.g["history"][0]
    assert not r["success"] and (r["match"], r["sabotage"]) == (1, 1)
    assert r["chaos"] == 3 + 1                                 # the mission's Chaos plus the card's
    assert t.g["chaos"] == 4 + 2                               # and the empty second mission fails
    assert t.g["cubes"][1] == [1, 0, 0] and t.g["cubes"][2] == [1, 0, 0]   # failure still pays a Coin


def test_conditional_and_any_influence_cards():
    t = table(hands={1: ["crown-or-sabotage#1", "any-influence#1"], 2: ["crown-or-sabotage#2", "any-influence#2"]})
    t.play(1, ("crown-or-sabotage#1", 0), ("any-influence#1", 0))   # Crown mission: both help
    t.play(2, ("crown-or-sabotage#2", 1), ("any-influence#2", 1))   # Sword mission: one helps, one hurts
    nobody_plays(t, [3, 4, 5])
    t.choose(0, "resolve", 0)
    t.auto(lambda t: len(t.g["history"]) == 2)
    crown, sword = t.g["history"]
    assert (crown["match"], crown["sabotage"], crown["success"]) == (2, 0, True)
    assert (sword["match"], sword["sabotage"], sword["success"]) == (1, 1, False)


def test_at_least_two_cards_all_when_fewer_none_and_no_sigil_when_empty():
    t = table(hands={1: ["crown#1", "crown#2", "crown#3"], 2: ["raven#1"], 3: []})
    assert ["done"] not in t.choices(1)
    t.choose(1, "play", "crown#1", 0)
    assert ["done"] not in t.choices(1)
    t.choose(1, "play", "crown#2", 1)
    assert ["done"] in t.choices(1)
    t.choose(1, "play", "crown#3", 0)   # more than two is allowed; an empty hand ends the turn
    assert t.g["missions"][0]["sigils"] == [1]
    # One card: play it; then the turn ends by itself.
    assert ["done"] not in t.choices(2)
    t.choose(2, "play", "raven#1", 1)
    assert t.g["missions"][1]["sigils"] == [2]
    # No card: no play, no sigil, a new hand of three.
    assert t.ask()["seat"] == 4
    assert all(3 not in m["sigils"] for m in t.g["missions"])
    assert len(t.g["hands"][3]) == 3 and any(e["e"] == "no_sigil" and e["seat"] == 3 for e in t.events)


def test_the_sigil_goes_where_most_cards_are_with_a_choice_on_a_tie_then_refill_to_three():
    t = table(hands={1: ["crown#1", "sword#1", "raven#1", "raven#2"]})
    t.choose(1, "play", "crown#1", 0)
    t.choose(1, "play", "sword#1", 1)
    t.choose(1, "done")
    assert t.ask()["kind"] == "sigil" and t.choices(1) == [["sigil", 0], ["sigil", 1]]
    t.choose(1, "sigil", 1)
    assert t.g["missions"][1]["sigils"] == [1]
    assert sorted(t.g["hands"][1])[:2] == ["raven#1", "raven#2"] and len(t.g["hands"][1]) == 3


def test_a_hand_of_three_or_more_is_kept_without_drawing():
    t = table(hands={1: ["crown#%d" % i for i in range(1, 7)]})
    before = len(t.events)
    t.play(1, ("crown#1", 0), ("crown#2", 0))
    assert len(t.g["hands"][1]) == 4
    assert not [e for e in t.events[before:] if e["e"] in ("draws", "drew")]


def test_an_empty_deck_is_refilled_from_the_shuffled_discard_pile():
    t = table(hands={1: ["crown#1", "crown#2"]})
    g = t.g
    g["discard"] += g["deck"]
    g["deck"] = []
    t.play(1, ("crown#1", 0), ("crown#2", 0))
    assert len(g["hands"][1]) == 3 and g["reshuffles"] == 1 and not g["discard"]
    assert t.emitted("deck_reshuffled")


def test_the_hand_passes_clockwise_skipping_the_king_and_the_round_track_advances():
    t = table(hand=5)
    t.auto(lambda t: t.g["space"] == 1)
    assert t.g["hand_of_king"] == 1 and t.g["phase"] == "decree"
    assert t.view(PUBLIC)["round"] == {"round": "decree", "scrolls": 1}
    t.auto(lambda t: t.g["space"] == 2)
    assert t.g["hand_of_king"] == 1   # the Hand only passes at the end of a Mission Round
    assert t.g["phase"] == "mission" and t.ask()["seat"] == 1


def test_with_eight_players_the_hand_skips_both_monarchs():
    t = Table(8, king=0, queen=1)
    t.start(7)
    t.auto(lambda t: t.g["space"] == 1)
    assert t.g["hand_of_king"] == 2


def test_the_king_chooses_the_order_of_resolution():
    t = table(7, missions=(FLEA, FACELESS, "sim-mission-01#1"))
    t.auto(lambda t: t.state["asks"] and t.ask()["kind"] == "resolve")
    assert t.choices(0) == [["resolve", 0], ["resolve", 1], ["resolve", 2]]
    t.choose(0, "resolve", 2)
    t.choose(0, "resolve", 0)
    assert [h["mission"] for h in t.g["history"]] == [2, 0, 1]


# --- Decree Rounds -----------------------------------------------------------------------------

def test_a_decree_round_plays_one_decree_per_scroll_with_the_spread_rule_and_refills_to_five():
    t = table()
    t.auto(lambda t: t.g["phase"] == "decree")
    t.decree_hand(0, FAVOR4, SUSP3, FAVOR2, SUSP1, "confess#1")
    g = t.g
    for s in (1, 2, 3, 4):
        g["decrees"][s].append({"card": "sim-decree-0%d#1" % (s + 4), "by": 0, "sideways": False})
    t.refresh()
    targeted = [c for c in t.choices(0) if len(c) == 3]
    assert {c[2] for c in targeted} == {5}          # everyone else already holds one
    assert ["decree", "confess#1"] in t.choices(0)  # a Proclamation has no target
    t.choose(0, "decree", FAVOR4, 5)
    assert g["decrees"][5][-1] == {"card": FAVOR4, "by": 0, "sideways": False}
    assert len(g["decree_hands"][0]) == 5 and g["space"] == 2   # one scroll, then refill and advance


def test_a_proclamation_goes_to_the_bottom_of_the_decree_deck():
    t = table()
    t.auto(lambda t: t.g["phase"] == "decree")
    t.decree_hand(0, "confess#1", FAVOR4, SUSP3, FAVOR2, SUSP1)
    t.choose(0, "decree", "confess#1")
    t.auto(lambda t: t.g["space"] == 2)
    assert t.g["decree_deck"][0] == "confess#1" and not t.g["resolving"]


def test_with_eight_players_each_monarch_plays_one_decree_on_their_own_side_only():
    t = Table(8, king=0, queen=1)
    t.start(2)
    t.auto(lambda t: t.g["phase"] == "decree" and t.ask()["kind"] == "decree")
    g = t.g
    # The King (seat 0) has the Queen on his left: he takes 5, 6, 7; she takes 2, 3, 4.
    assert {c[2] for c in t.choices(0) if len(c) == 3} == {5, 6, 7}
    king_card = next(c for c in t.choices(0) if len(c) == 3)
    t.choose(0, *king_card)
    assert t.ask()["seat"] == 1
    assert {c[2] for c in t.choices(1) if len(c) == 3} == {2, 3, 4}
    # The spread rule looks at one side only: a side is not held back by the other.
    for s in (2, 3, 4):
        g["decrees"][s].append({"card": SUSP1, "by": 1, "sideways": False})
    t.refresh()
    assert {c[2] for c in t.choices(1) if len(c) == 3} == {2, 3, 4}


def test_the_king_and_queen_trade_one_card_once_a_game():
    t = Table(8, king=0, queen=1)
    t.start(2)
    t.auto(lambda t: t.g["phase"] == "decree" and t.ask()["kind"] == "trade_offer")
    give, back = t.g["decree_hands"][0][0], t.g["decree_hands"][1][0]
    t.choose(0, "offer", give)
    t.choose(1, "accept", back)
    assert back in t.g["decree_hands"][0] and give in t.g["decree_hands"][1] and t.g["trade_used"]
    traded = t.emitted("traded")[0]
    assert traded["vis"] == [0, 1]
    t.to_mission_round()
    t.auto(lambda t: t.g["phase"] == "decree" and t.ask()["kind"] == "decree")
    assert not t.emitted("trade_declined") and t.ask()["kind"] == "decree"   # no second offer


# --- Final Judgment ------------------------------------------------------------------------------

def to_judgment(t):
    t.auto(lambda t: t.g["phase"] == "judgment" and t.ask()["kind"] == "guess")


def rig_end(t, order, chaos, loyal, decrees=None, cubes=None, ambitions=None):
    g = t.g
    g["order"], g["chaos"] = order, chaos
    for s in g["nobles"]:
        t.loyalty(s, loyal[s])
        g["decrees"][s] = [{"card": c, "by": 0, "sideways": False} for c in (decrees or {}).get(s, [])]
        g["cubes"][s] = list((cubes or {}).get(s, [0, 0, 0]))
    for s, amb in (ambitions or {}).items():
        other = next(x for x in g["nobles"] if g["ambition"][x] == amb) if amb in g["ambition"] else None
        if other is not None:
            g["ambition"][other] = g["ambition"][s]
        elif amb in g["ambitions_unused"]:
            g["ambitions_unused"][g["ambitions_unused"].index(amb)] = g["ambition"][s]
        g["ambition"][s] = amb


def judge(t, guesses):
    while t.state["asks"]:
        ask = t.ask()
        t.choose(ask["seat"], guesses[ask["data"]["target"]])


def test_final_judgment_scores_decrees_by_true_loyalty_the_bonus_and_the_agent():
    t = Table(5)
    t.start(1)
    to_judgment(t)
    loyal = {1: "loyalist", 2: "conspirator", 3: "conspirator", 4: "conspirator"}
    # The rulebook's picture: a Favor on a loyalist is right (+4 Order), a Suspicion on a loyalist
    # is wrong (+2 Chaos, here The Black Cells); on a conspirator it is the reverse.
    rig_end(t, 10, 10, loyal, decrees={1: [FAVOR4, "the-black-cells#1"], 2: [SUSP3, FAVOR2]})
    t.g["agent"] = "loyalist"
    judge(t, loyal)                      # every guess right
    r = t.state["result"]
    # Order 10 + 4 (Favor) + 3 (Suspicion on a conspirator) + 3 (perfect judgment) + 3 (a loyal Agent)
    # Chaos 10 + 2 (Suspicion on a loyalist) + 2 (Favor on a conspirator)
    assert (r["order"], r["chaos"]) == (23, 14) and r["judgment_correct"]
    assert r["realm"] == "order" and 0 in r["winners"]
    reveals = [e["seat"] for e in t.emitted("revealed_identity")]
    assert reveals == [1, 2, 3, 4]       # from the Hand of the King, clockwise


def test_a_wrong_guess_gives_chaos_three_and_a_conspirator_agent_adds_chaos():
    t = Table(5)
    t.start(1)
    to_judgment(t)
    loyal = {1: "loyalist", 2: "conspirator", 3: "conspirator", 4: "loyalist"}
    rig_end(t, 10, 4, loyal)
    t.g["agent"] = "conspirator"
    judge(t, {**loyal, 4: "conspirator"})
    r = t.state["result"]
    agent = t.g["agent_value"]
    assert (r["order"], r["chaos"]) == (10, 4 + 3 + agent) and not r["judgment_correct"]


def test_order_wins_for_the_king_and_the_loyalists_who_met_their_ambitions():
    t = Table(6)
    t.start(1)
    to_judgment(t)
    loyal = {1: "loyalist", 2: "loyalist", 3: "conspirator", 4: "conspirator", 5: "conspirator"}
    rig_end(t, 20, 0, loyal, cubes={1: [0, 2, 2], 2: [0, 2, 1], 3: [5, 5, 5]},
            ambitions={1: "prestigious#1", 2: "visionary#1", 3: "sim-ambition-01#1"})
    judge(t, loyal)
    r = t.state["result"]
    assert r["realm"] == "order"
    assert r["winners"] == [0, 1]        # seat 2 lacks a Coin; conspirators lose whatever they hold
    assert r["ambition_met"][1] and not r["ambition_met"][2] and r["ambition_met"][3]


def test_a_tie_goes_to_chaos_and_several_conspirators_can_win():
    t = Table(6)
    t.start(1)
    to_judgment(t)
    loyal = {1: "loyalist", 2: "loyalist", 3: "conspirator", 4: "conspirator", 5: "conspirator"}
    rig_end(t, 0, 0, loyal, cubes={s: [3, 3, 3] for s in (1, 2, 3, 4, 5)})
    t.g["order"] = 0
    t.g["chaos"] = 3                         # the perfect judgment below brings Order to 3 as well
    judge(t, loyal)
    r = t.state["result"]
    assert (r["order"], r["chaos"]) == (3, 3) and r["realm"] == "chaos"
    assert r["winners"] == [3, 4, 5]


def test_with_eight_players_each_monarch_judges_their_side_and_all_six_must_be_right():
    t = Table(8, king=0, queen=1)
    t.start(2)
    to_judgment(t)
    judges = []
    loyal = {s: t.g["loyalty"][s] for s in t.g["nobles"]}
    while t.state["asks"]:
        ask = t.ask()
        judges.append((ask["seat"], ask["data"]["target"]))
        wrong = ask["data"]["target"] == 6
        guess = loyal[ask["data"]["target"]]
        if wrong:
            guess = "loyalist" if guess == "conspirator" else "conspirator"
        t.choose(ask["seat"], guess)
    assert sorted(judges) == [(0, 5), (0, 6), (0, 7), (1, 2), (1, 3), (1, 4)]
    assert not t.state["result"]["judgment_correct"]   # one wrong guess of six costs the bonus


# --- Character Abilities -------------------------------------------------------------------------

BOARD = {"ned-stark": "stark", "arya-stark": "stark", "stannis-baratheon": "baratheon", "melisandre": "baratheon",
         "daenerys-targaryen": "targaryen", "tyrion-lannister": "lannister", "olenna-tyrell": "tyrell",
         "yara-greyjoy": "greyjoy"}


def chars(players=6, **by_seat):
    """Default characters, with these seats given these; the others keep to the boards left free."""
    wanted = {int(k[1:]): v for k, v in by_seat.items()}
    used = {BOARD[v] for v in wanted.values()}
    spare = iter(c for c in default_characters(players) if c and BOARD[c] not in used)
    return [None if s == 0 else wanted.get(s) or next(spare) for s in range(players)]


def test_arya_helping_takes_a_cube_and_her_card_counts_as_a_play():
    t = table(characters=chars(s1="arya-stark"), hands={1: ["crown#1", "sword#1", "raven#1"]})
    t.cubes(1, coin=1)
    assert ["ability", 1, 0, 0] in t.choices(1)
    t.choose(1, "ability", 1, 0, 0)
    t.choose(1, "face_up", "crown#1", 0)
    t.choose(1, "cube", "power")
    assert t.g["cubes"][1] == [0, 0, 1] and t.g["missions"][0]["face_up"] == ["crown#1"]
    assert t.g["missions"][0]["counts"][1] == 1 and ["done"] not in t.choices(1)
    assert not [c for c in t.choices(1) if c[0] == "ability"]   # once a round
    played = [e for e in filter_events(t.events, PUBLIC) if e["e"] == "played" and e.get("face_up")]
    assert played[0]["card"] == "crown#1"        # face up: everyone sees it


def test_arya_hurting_draws_two_and_neutral_discards_two_possibly_everything():
    t = table(characters=chars(s1="arya-stark"), hands={1: ["sabotage#1", "sword#1"]})
    t.cubes(1, honor=1)
    t.choose(1, "ability", 0, 1, 0)
    t.choose(1, "face_up", "sabotage#1", 0)
    assert len(t.g["hands"][1]) == 3                 # sword + two drawn
    # The clarification: cards drawn by an ability may all be played this round.
    for inst in list(t.g["hands"][1]):
        t.choose(1, "play", inst, 1)
    assert t.g["missions"][1]["counts"][1] == 3 and t.ask()["seat"] == 2
    t = table(characters=chars(s1="arya-stark"), hands={1: ["sword#1", "raven#1", "raven#2"]})
    t.cubes(1, power=1)
    t.choose(1, "ability", 0, 0, 1)
    t.choose(1, "face_up", "sword#1", 0)             # a Sword at a Crown mission: neutral
    assert "raven#1" in t.g["discard"] and "raven#2" in t.g["discard"]
    # Nothing left to play: the one face-up card was her play, her sigil goes there, then refill.
    assert t.g["missions"][0]["sigils"] == [1] and len(t.g["hands"][1]) == 3


def test_stannis_discards_his_hand_and_draws_six_then_keeps_what_he_does_not_play():
    t = table(characters=chars(s1="stannis-baratheon"), hands={1: ["crown#1", "crown#2", "crown#3"]})
    t.cubes(1, coin=1, honor=1)
    t.choose(1, "ability", 1, 1, 0)
    g = t.g
    assert all(c in g["discard"] for c in ("crown#1", "crown#2", "crown#3")) and len(g["hands"][1]) == 6
    hand = list(g["hands"][1])
    t.play(1, (hand[0], 0), (hand[1], 0))
    assert len(g["hands"][1]) == 4                   # more than three: no refill


def test_stannis_in_the_black_cells_draws_six_but_plays_only_one():
    t = table(characters=chars(s1="stannis-baratheon"))
    t.auto(lambda t: t.g["phase"] == "decree")
    t.decree_hand(0, "the-black-cells#1", FAVOR4, SUSP3, FAVOR2, SUSP1)
    t.choose(0, "decree", "the-black-cells#1", 1)
    t.to_mission_round()
    assert t.g["cells"] == [1]
    t.to_turn(1)
    t.cubes(1, power=2)
    t.choose(1, "ability", 0, 0, 2)
    assert len(t.g["hands"][1]) == 6 and ["done"] not in t.choices(1)
    card = t.g["hands"][1][0]
    t.choose(1, "play", card, 0)
    assert len(t.g["hands"][1]) == 5 and t.ask()["seat"] != 1   # one card, and the turn is over


def test_melisandre_looks_at_a_mission_takes_a_card_and_discards_any_card():
    t = table(characters=chars(s2="melisandre"), hands={1: ["crown#1", "sabotage#1"], 2: ["raven#1", "raven#2"]})
    t.cubes(2, coin=2)
    t.play(1, ("crown#1", 0), ("sabotage#1", 0))
    t.play(2, ("raven#1", 1), ("raven#2", 1))
    nobody_plays(t, [3, 4, 5])
    assert t.ask()["seat"] == 2
    t.choose(2, "ability", 2, 0, 0)
    t.choose(2, "look", 0)
    assert t.choices(2) == [["take", "crown#1"], ["take", "sabotage#1"]]   # sorted, not in play order
    assert t.view(2)["notes"][-1]["cards"] == ["crown#1", "sabotage#1"]
    t.choose(2, "take", "sabotage#1")
    keep = [c for c in t.g["hands"][2] if c != "sabotage#1"][0]
    t.choose(2, "discard", keep)                     # any card, not just the one taken
    assert "sabotage#1" in t.g["hands"][2] and keep in t.g["discard"]
    assert t.g["missions"][0]["cards"] == ["crown#1"] and t.view(PUBLIC)["missions"][0]["taken"] == 1
    for viewer in (PUBLIC, 0, 1, 3):
        assert "sabotage#1" not in str([e for e in filter_events(t.events, viewer) if "mission" in e["e"]])


def test_daenerys_plays_a_sideways_decree_that_does_not_bind_the_king():
    # The rulebook's example: all nobles but one hold a decree; Daenerys plays one on that noble;
    # the King must still play his next Favor or Suspicion on that noble.
    t = table(characters=chars(s2="daenerys-targaryen"))
    t.auto(lambda t: t.g["phase"] == "decree")
    g = t.g
    for s, card in ((1, SUSP1), (2, SUSP3), (3, FAVOR2), (4, "sim-decree-05#1")):
        t._take(card)
        g["decrees"][s].append({"card": card, "by": 0, "sideways": False})
    t.decree_hand(0, "confess#1", "execution#1", "cornered#1", "broken-trust#1", "sim-decree-06#1")
    t.cubes(2, coin=3)
    t.choose(0, "decree", "confess#1")
    t.auto(lambda t: t.ask()["kind"] == "ability")
    assert t.ask()["seat"] == 2
    t.decree_deck_top(FAVOR4)
    t.choose(2, "ability", 3, 0, 0)
    assert {c[2] for c in t.choices(2)} == {1, 3, 4, 5}     # any other noble, not herself
    t.choose(2, "decree", FAVOR4, 5)
    assert g["decrees"][5] == [{"card": FAVOR4, "by": 2, "sideways": True}]
    assert g["cubes"][2] == [0, 0, 0]
    t.to_mission_round()
    t.auto(lambda t: t.g["phase"] == "decree" and t.ask()["kind"] == "decree")
    assert {c[2] for c in t.choices(0) if len(c) == 3} == {5}


def test_daenerys_puts_proclamations_at_the_bottom_and_broken_trust_lets_her_play_again():
    t = table(characters=chars(s2="daenerys-targaryen"))
    t.auto(lambda t: t.g["phase"] == "decree")
    t.cubes(2, honor=3)
    t.choose(0, *t.choices(0)[0])
    t.auto(lambda t: t.ask()["kind"] == "ability")
    assert t.ask()["seat"] == 2
    t.decree_deck_top("confess#1", "broken-trust#1", "cornered#1")
    t.choose(2, "ability", 0, 3, 0)
    assert t.g["decree_deck"][0] == "confess#1"
    t.choose(2, "decree", "broken-trust#1", 3)
    assert t.ask()["seat"] == 2 and t.choices(2)[0][1] == "cornered#1"   # free, again
    t.choose(2, "decree", "cornered#1", 4)
    assert t.g["cubes"][2] == [0, 0, 0]
    # Cornered played by Daenerys: she names the mission at the start of the next Mission Round.
    assert t.ask()["kind"] == "cornered" and t.ask()["seat"] == 2 and t.ask()["data"]["target"] == 4
    assert [d["sideways"] for d in t.g["decrees"][3] + t.g["decrees"][4]][-2:] == [True, True]


def test_daenerys_votes_breaks_ties_and_may_not_take_a_vote_decree_herself():
    t = table(characters=chars(s2="daenerys-targaryen"))
    t.auto(lambda t: t.g["phase"] == "decree")
    t.cubes(2, power=3)
    t.choose(0, *t.choices(0)[0])
    t.auto(lambda t: t.ask()["kind"] == "ability")
    t.decree_deck_top("a-fair-trial#1")
    t.choose(2, "ability", 0, 0, 3)
    t.choose(2, "decree", "a-fair-trial#1")
    votes = {1: 3, 2: 4, 3: 5, 4: 3, 5: 4}       # 3 and 4 tie on two votes each
    order = []
    while t.ask()["kind"] == "vote":
        s = t.ask()["seat"]
        order.append(s)
        # Nobody votes for themselves, nor for Daenerys, who may not take it: no vote that cannot count.
        assert ["vote_for", s] not in t.choices(s) and ["vote_for", 2] not in t.choices(s)
        t.choose(s, "vote_for", votes[s])
    assert order == [2, 3, 4, 5, 1]               # from the Hand of the King, who is now seat 2
    assert t.ask()["seat"] == 2 and t.choices(2) == [["give", 3], ["give", 4]]
    t.choose(2, "give", 4)
    assert t.g["decrees"][4][-1] == {"card": "a-fair-trial#1", "by": 2, "sideways": True}


def test_a_manual_ability_records_what_the_players_did():
    t = table(hands={1: ["crown#1", "crown#2"]})    # seat 1 is Ned Stark, whose text is not public
    t.cubes(1, coin=2)
    t.choose(1, "ability", 2, 0, 0)
    assert t.ask()["kind"] == "manual"
    t.choose(1, "gain", "honor")
    t.choose(1, "order", 1)
    t.choose(1, "draw")
    t.choose(1, "done")
    assert t.g["cubes"][1] == [0, 1, 0] and t.g["order"] == 1 and len(t.g["hands"][1]) == 3
    assert [e["op"] for e in t.emitted("manual")] == ["gain", "order", "draw"]
    assert t.emitted("resolved_by_hand") and t.ask()["kind"] == "play"


def test_abilities_at_the_same_moment_go_from_the_hand_of_the_king_and_once_a_round():
    import copy
    from maester.games.oathbreaker import card_table
    cards = copy.deepcopy(card_table(owner=False))
    cards["info"]["olenna-tyrell"]["timing"] = "missions_played"   # as if her text said so
    t = Table(6, cards=cards, characters=chars(s2="melisandre", s5="olenna-tyrell"))
    t.start(4)
    t.cubes(2, coin=2)
    t.cubes(5, coin=2)
    t.auto(lambda t: t.ask()["kind"] == "ability")
    assert t.ask()["seat"] == 5            # seat 5 is closer to the Hand (seat 4) than seat 2
    t.choose(5, "ability", 2, 0, 0)
    t.choose(5, "done")
    assert t.ask()["seat"] == 2
    t.choose(2, "pass")
    assert t.ask()["kind"] in ("resolve", "play", "sigil") and t.g["used"][5] and not t.g["used"][2]


# --- decrees -----------------------------------------------------------------------------------

def decree_round(t, cards):
    t.auto(lambda t: t.g["phase"] == "decree")
    t.decree_hand(0, *cards)


def test_execution_flips_the_board_and_keeps_the_cubes():
    t = table()
    decree_round(t, ["execution#1", FAVOR4, SUSP3, FAVOR2, SUSP1])
    t.g["cubes"][1] = [2, 1, 0]
    t.choose(0, "decree", "execution#1", 1)
    assert t.g["characters"][1] == "arya-stark" and t.g["cubes"][1] == [2, 1, 0]
    assert t.emitted("executed")[0] == {"e": "executed", "seat": 1, "was": "ned-stark", "now": "arya-stark"}
    t.to_mission_round()
    t.to_turn(1)
    assert any(c[0] == "ability" for c in t.choices(1))   # Arya's ability now, paid from the kept cubes


def test_the_black_cells_means_exactly_one_card_next_mission_round():
    t = table()
    decree_round(t, ["the-black-cells#1", FAVOR4, SUSP3, FAVOR2, SUSP1])
    t.choose(0, "decree", "the-black-cells#1", 3)
    t.to_mission_round()
    assert t.g["cells"] == [3]
    t.to_turn(3)
    assert ["done"] not in t.choices(3)
    t.choose(3, *t.choices(3)[0])
    assert t.ask()["seat"] != 3 and sum(m["counts"][3] for m in t.g["missions"]) == 1
    t.auto(lambda t: t.g["space"] == 4)
    assert t.g["cells"] == [] and t.g["pending_cells"] == []   # it lasted one Mission Round


def test_confess_every_noble_discards_and_the_king_looks_at_one():
    t = table()
    decree_round(t, ["confess#1", FAVOR4, SUSP3, FAVOR2, SUSP1])
    t.choose(0, "decree", "confess#1")
    asked = sorted(a["seat"] for a in t.state["asks"])
    assert asked == [1, 2, 3, 4, 5]                    # all at once
    picks = {}
    for s in asked:
        picks[s] = t.g["hands"][s][0]
        t.choose(s, "discard", picks[s])
        if s == 3:
            assert t.view(PUBLIC)["confessed"] == [1, 2, 3] and t.view(3)["my_confession"] == picks[3]
    assert t.choices(0) == [["look", s] for s in asked]
    t.choose(0, "look", 4)
    seen = [e for e in t.events if e["e"] == "saw_discard"]
    assert seen[0]["card"] == picks[4] and seen[0]["vis"] == [0]
    assert t.view(0)["notes"][-1] == {"what": "confess", "space": 1, "seat": 4, "card": picks[4]}
    assert all(c in t.g["discard"] for c in picks.values()) and not t.g["confessed"]
    for viewer in (PUBLIC, 1, 2, 3, 5):   # only the King learns the card; seat 4 knew it already
        assert not [e for e in filter_events(t.events, viewer) if e["e"] == "saw_discard"]
        assert [e["target"] for e in filter_events(t.events, viewer) if e["e"] == "looked_at_discard"] == [4]
    assert t.g["decree_deck"][0] == "confess#1"


def test_a_fair_trial_goes_to_the_most_votes_in_order_from_the_hand_the_king_breaks_ties():
    t = table(hand=3)
    decree_round(t, ["a-fair-trial#1", FAVOR4, SUSP3, FAVOR2, SUSP1])
    g = t.g
    g["decrees"][5].append({"card": SUSP1, "by": 0, "sideways": False})
    t.choose(0, "decree", "a-fair-trial#1")
    order = []
    votes = {4: 5, 5: 1, 1: 2, 2: 5, 3: 5}
    while t.ask()["kind"] == "vote":
        s = t.ask()["seat"]
        order.append(s)
        t.choose(s, "vote_for", votes[s])
    assert order == [4, 5, 1, 2, 3]                  # from the Hand of the King (seat 4 since the Hand passed)
    # Seat 5 gets a second decree before everyone has one: the vote overrides the spread rule.
    assert [d["card"] for d in g["decrees"][5]] == [SUSP1, "a-fair-trial#1"]
    assert [e["target"] for e in t.emitted("voted")] == [5, 1, 2, 5, 5]


def test_broken_trust_then_hero_of_the_people_tie_broken_by_the_king_then_binding_the_spread():
    t = table()
    decree_round(t, ["hero-of-the-people#1", "broken-trust#1", SUSP3, FAVOR2, SUSP1])
    t.choose(0, "decree", "broken-trust#1", 1)       # Broken Trust: another decree at once
    assert t.ask()["kind"] == "decree" and t.ask()["seat"] == 0
    t.choose(0, "decree", "hero-of-the-people#1")
    votes = {2: 4, 3: 5, 4: 5, 5: 4, 1: 3}           # 4 and 5 tie on two votes
    while t.ask()["kind"] == "vote":
        s = t.ask()["seat"]
        t.choose(s, "vote_for", votes[s])
    assert t.ask()["seat"] == 0 and t.choices(0) == [["give", 4], ["give", 5]]
    t.choose(0, "give", 4)
    assert [d["card"] for d in t.g["decrees"][4]] == ["hero-of-the-people#1"]
    # One scroll, plus the extra decree of Broken Trust: the round is over.
    t.to_mission_round()
    t.auto(lambda t: t.g["phase"] == "decree" and t.ask()["kind"] == "decree")
    assert {c[2] for c in t.choices(0) if len(c) == 3} == {2, 3, 5}


def test_with_eight_players_every_noble_votes_for_any_other_noble():
    t = Table(8, king=0, queen=1)
    t.start(2)
    t.auto(lambda t: t.g["phase"] == "decree" and t.ask()["kind"] == "decree")
    t.decree_hand(0, "a-fair-trial#1", FAVOR4, SUSP3, FAVOR2, SUSP1)
    t.choose(0, "decree", "a-fair-trial#1")
    voters = []
    while t.ask()["kind"] == "vote":
        s = t.ask()["seat"]
        voters.append(s)
        assert {c[1] for c in t.choices(s)} == {2, 3, 4, 5, 6, 7} - {s}
        t.choose(s, "vote_for", 3 if s != 3 else 4)
    assert voters == [3, 4, 5, 6, 7, 2]               # from the Hand of the King
    assert t.g["decrees"][3][-1]["card"] == "a-fair-trial#1"   # on the Queen's side, played by the King


def test_well_placed_spy_shows_the_hand_to_the_king_only_and_the_noble_still_plays_face_down():
    t = table()
    decree_round(t, ["well-placed-spy#1", FAVOR4, SUSP3, FAVOR2, SUSP1])
    hand = sorted(t.g["hands"][2])
    t.choose(0, "decree", "well-placed-spy#1", 2)
    seen = [e for e in t.events if e["e"] == "saw_hand"][0]
    assert seen["cards"] == hand and seen["vis"] == [0]
    assert t.view(0)["notes"][-1]["cards"] == hand and not t.view(1)["notes"]
    t.to_mission_round()
    t.auto(lambda t: t.ask()["seat"] == 2)
    t.choose(2, *next(c for c in t.choices(2) if c[0] == "play"))
    assert not [e for e in filter_events(t.events, 0) if e["e"] == "played_card" and e["seat"] == 2]


def test_cornered_bars_a_mission_and_overrides_infiltrate_dorne():
    t = table()
    decree_round(t, ["cornered#1", FAVOR4, SUSP3, FAVOR2, SUSP1])
    t.mission_deck_top("infiltrate-dorne#1", "sim-mission-01#1", "sim-mission-02#1")
    t.choose(0, "decree", "cornered#1", 1)
    t.auto(lambda t: t.state["asks"] and t.ask()["kind"] == "cornered")
    assert t.ask()["seat"] == 0 and t.choices(0) == [["bar", 0], ["bar", 1], ["bar", 2]]
    assert t.ask()["data"]["target"] == 1
    t.choose(0, "bar", 0)                              # Infiltrate Dorne, barred for seat 1
    t.to_turn(1)
    assert {c[2] for c in t.choices(1) if c[0] == "play"} == {1, 2}
    t.choose(1, *next(c for c in t.choices(1) if c[0] == "play"))
    t.choose(1, *next(c for c in t.choices(1) if c[0] == "play"))
    assert ["done"] in t.choices(1)                   # no card owed to Dorne


# --- missions ----------------------------------------------------------------------------------

def test_infiltrate_dorne_needs_a_card_from_each_noble():
    t = table(missions=("infiltrate-dorne#1", FLEA), hands={1: ["crown#1", "crown#2", "crown#3"]})
    t.choose(1, "play", "crown#1", 1)
    t.choose(1, "play", "crown#2", 1)
    assert ["done"] not in t.choices(1)
    t.choose(1, "play", "crown#3", 0)             # the last card; now the turn may end
    assert t.ask()["seat"] == 2


def test_infiltrate_dorne_takes_the_one_card_of_a_noble_in_the_black_cells():
    t = table()
    decree_round(t, ["the-black-cells#1", FAVOR4, SUSP3, FAVOR2, SUSP1])
    t.mission_deck_top("sim-mission-01#1", "infiltrate-dorne#1", "sim-mission-02#1")
    t.choose(0, "decree", "the-black-cells#1", 3)
    t.to_mission_round()
    t.to_turn(3)
    assert {c[2] for c in t.choices(3)} == {1}


def test_battle_of_the_bay_discards_one_card_unseen_before_the_reveal():
    t = table(missions=("battle-of-the-bay#1", FLEA), hands={1: ["sword#1", "sword#2"], 2: ["sabotage#1", "crown#1"]})
    t.play(1, ("sword#1", 0), ("sword#2", 0))
    t.play(2, ("sabotage#1", 0), ("crown#1", 0))
    nobody_plays(t, [3, 4, 5])
    t.choose(0, "resolve", 0)
    r = t.g["history"][0]
    assert len(r["revealed"]) == 3 and r["unseen_discard"]
    gone = ({"sword#1", "sword#2", "sabotage#1", "crown#1"} - set(r["revealed"])).pop()
    assert gone in t.g["discard"]
    for viewer in (PUBLIC, 0, 3):
        assert gone not in str([e for e in filter_events(t.events, viewer) if e["e"] in ("revealed", "discarded_unseen")])


@pytest.mark.parametrize("mission", ["consult-the-maesters#1", "invoke-rhllor#1", "rumors-across-the-narrow-sea#1"])
def test_missions_that_take_cards_from_the_deck_face_down(mission):
    t = Table(6)
    t.mission_deck_top(mission, FLEA)
    t.deck_top("double-raven#1")
    t.start(1)
    m = t.g["missions"][0]
    assert m["cards"] == ["double-raven#1"] and m["extra"] == 1
    assert t.view(PUBLIC)["missions"][0]["extra"] == 1 and "double-raven#1" not in str(t.view(PUBLIC))
    # The dealt card counts once a noble has played there: one crown (no match) beside it.
    t.hand(1, "crown#1", "crown#2")
    t.play(1, ("crown#1", 0), ("crown#2", 0))
    nobody_plays(t, [2, 3, 4, 5])
    t.choose(0, "resolve", 0)
    r = t.g["history"][0]
    assert r["revealed"] == ["crown#1", "crown#2", "double-raven#1"] and (r["match"], r["success"]) == (2, True)


@pytest.mark.parametrize("variants,mission", [([], "consult-the-maesters#1"), (["night_is_dark"], FLEA)])
def test_a_card_dealt_face_down_to_a_mission_is_a_card_at_the_mission(variants, mission):
    # Cards dealt face down to a mission (its own text, or The Night Is Dark) are shuffled with the
    # nobles' cards and revealed with them: they count toward the match, and they are cards at the
    # mission. A lone dealt Double Raven (or Crown), 2 against 0 sabotage, carries it (issue 25).
    t = Table(6, variants=variants)
    t.mission_deck_top(mission, FACELESS)
    t.deck_top("double-crown#1" if mission == FLEA else "double-raven#1")
    t.start(1)
    assert t.g["missions"][0]["extra"] >= 1
    nobody_plays(t, [1, 2, 3, 4, 5])
    t.choose(0, "resolve", 0)
    r = t.g["history"][0]
    assert r["mission"] == 0 and r["match"] >= 2 and r["sabotage"] == 0
    assert r["success"] and r["chaos"] == 0 and r["order"] == 2


def test_a_mission_with_no_card_at_all_fails():
    t = Table(6)
    t.mission_deck_top(FLEA, FACELESS)
    t.start(1)
    assert t.g["missions"][0]["extra"] == 0
    nobody_plays(t, [1, 2, 3, 4, 5])
    t.choose(0, "resolve", 0)
    r = t.g["history"][0]
    assert r["revealed"] == [] and (r["match"], r["sabotage"], r["success"], r["chaos"]) == (0, 0, False, 2)


@pytest.mark.parametrize("mission", ["mission-to-braavos#1", "summit-of-queens#1", "trial-by-combat#1"])
def test_missions_that_count_one_more_sabotage(mission):
    t = Table(6)
    mtype = cardtables.get(t.g["table"])["info"][mission.split("#")[0]]["influence"]
    other = next(x for x in ("crown", "raven", "sword") if x != mtype)
    t.mission_deck_top(mission, FLEA)
    t.hand(1, "%s#1" % mtype, "%s#1" % other)
    t.hand(2, "double-%s#1" % mtype, "%s#2" % other)
    t.start(1)
    t.play(1, ("%s#1" % mtype, 0), ("%s#1" % other, 0))
    t.play(2, ("double-%s#1" % mtype, 1), ("%s#2" % other, 1))
    nobody_plays(t, [3, 4, 5])
    t.choose(0, "resolve", 0)
    r = t.g["history"][0]
    assert (r["match"], r["sabotage"], r["success"]) == (1, 1, False)   # one match against the added one
    # Two matching icons beat it.
    t = Table(6)
    t.mission_deck_top(mission, FLEA)
    t.hand(1, "double-%s#1" % mtype, "%s#1" % other)
    t.start(1)
    t.play(1, ("double-%s#1" % mtype, 0), ("%s#1" % other, 0))
    nobody_plays(t, [2, 3, 4, 5])
    t.choose(0, "resolve", 0)
    r = t.g["history"][0]
    assert (r["match"], r["sabotage"], r["success"]) == (2, 1, True)


def test_pincer_maneuver_deals_one_more_mission():
    t = Table(6)
    t.mission_deck_top("pincer-maneuver#1", FLEA, FACELESS)
    t.start(1)
    assert [m["card"] for m in t.g["missions"]] == ["pincer-maneuver#1", FLEA, FACELESS]
    assert t.g["track"][0]["banners"] == 2


def test_pincer_maneuver_in_a_three_mission_round_makes_four():
    t = Table(7)
    t.mission_deck_top(FLEA, FACELESS, "pincer-maneuver#1", "sim-mission-01#1")
    t.start(1)
    assert len(t.g["missions"]) == 4


# --- optional rules ------------------------------------------------------------------------------

def test_the_night_is_dark_deals_a_face_down_card_to_each_mission():
    t = Table(6, variants=["night_is_dark"])
    t.mission_deck_top("consult-the-maesters#1", FLEA)
    t.start(1)
    assert [m["extra"] for m in t.g["missions"]] == [2, 1]   # the mission's own card, plus the night's
    events = [e for e in t.events if e["e"] == "face_down"]
    assert [(e["mission"], e["count"]) for e in events] == [(0, 2), (1, 1)]


@pytest.mark.parametrize("variant", ["aloof_king", "cagey_court", "order_in_court"])
def test_talk_rules_are_recorded_for_the_table_and_change_no_move(variant):
    plain, ruled = Table(6, seed=4), Table(6, seed=4, variants=[variant])
    assert ruled.view(PUBLIC)["variants"] == [variant] and plain.view(PUBLIC)["variants"] == []
    plain.start(1)
    ruled.start(1)
    plain.auto(lambda t: t.g["space"] == 3)
    ruled.auto(lambda t: t.g["space"] == 3)
    assert plain.g["history"] == ruled.g["history"]
