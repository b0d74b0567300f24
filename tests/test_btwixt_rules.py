"""B'Twixt rules as scenarios: every example in the rulebook, then each card and rule in turn."""

import pytest

from btwixt_harness import Table
from maester.engine import cardtables
from maester.games.btwixt import flow
from maester.games.btwixt import zones as Z


def vanilla(t, value, used=()):
    """A simulation card with no ability and the given influence value, not yet used."""
    for cid, rec in sorted(cardtables.get(t.g["table"])["info"].items()):
        if cid.startswith("sim-standard") and rec["value"] == value and cid + "#1" not in used:
            return cid + "#1"
    raise AssertionError("no vanilla card of value %d left" % value)


def vanillas(t, *values):
    out = []
    for v in values:
        out.append(vanilla(t, v, out))
    return out


LEADERS4 = ["cersei", "tyrion", "olenna", "jon"]


# --- the rulebook's examples --------------------------------------------------------------------

def test_cersei_wins_the_bid_15_to_12():
    t = Table(4, leaders=LEADERS4)
    c1, c2, t1, t2, t3 = vanillas(t, 8, 7, 3, 5, 4)
    t.hand(0, c1, c2)
    t.hand(1, t1, t2, t3)
    t.hand(2)
    t.hand(3)
    t.current("oberyn-martell#1")
    t.play(0, c1); t.play(1, t1); t.kneel(2); t.kneel(3)
    t.play(0, c2); t.play(1, t2); t.kneel(0); t.play(1, t3); t.kneel(1)
    won = t.emitted("bid_won")[-1]
    assert won["seat"] == 0 and won["totals"][:2] == [15, 12]
    # Cersei claims the ally into a council of her choice.
    assert t.ask()["kind"] == "place_ally" and t.ask()["seat"] == 0


def test_scoring_jon_beats_daenerys_on_his_other_council():
    # Olenna, Tyrion, Daenerys and Jon sit clockwise; councils 16, 20, 17 and 22 as in the example.
    t = Table(4, leaders=["olenna", "tyrion", "daenerys", "jon"])
    sims = sorted((cid for cid in cardtables.get(t.g["table"])["info"] if cid.startswith("sim-ally")),
                  key=lambda c: cardtables.get(t.g["table"])["info"][c]["power"])
    power = {c: cardtables.get(t.g["table"])["info"][c]["power"] for c in sims}
    pool = list(sims)

    def fill(council, target):
        """Allies summing exactly to `target` (greedy, then one token of the rest)."""
        total, chosen = 0, []
        for cid in sorted(pool, key=lambda c: -power[c]):
            if total + power[cid] <= target - 1:
                chosen.append(cid); total += power[cid]
        for cid in chosen:
            pool.remove(cid)
        rest = target - total
        t.council(council, *[c + "#1" for c in chosen], tokens=[rest] if rest else [])
        assert Z.council_power(t.g, council) == target

    for council, target in enumerate([16, 20, 17, 22]):
        fill(council, target)
    flow.score(_ctx(t))
    result = t.state["result"]
    small = {r["seat"]: r["small"] for r in result["scores"]}
    assert small == {0: 16, 1: 16, 2: 17, 3: 17}
    assert result["winners"] == [3]


def _ctx(t):
    from maester.engine.core import Ctx
    return Ctx(t.state, t.events)


def test_a_tie_at_zero_goes_to_the_first_player():
    t = Table(4, first=2)
    t.current("shae#1")
    t.kneel_all()
    assert t.emitted("bid_won")[-1]["seat"] == 2


def test_ties_go_to_the_leader_closest_clockwise_from_the_first_player():
    t = Table(4, first=2)
    a, b = vanillas(t, 5, 5)
    t.hand(0, a); t.hand(3, b); t.hand(1); t.hand(2)
    t.current("shae#1")
    t.kneel(2); t.play(3, b); t.play(0, a); t.kneel(1); t.kneel(3); t.kneel(0)
    # Seat 3 comes before seat 0 going clockwise from the first player (seat 2).
    assert t.emitted("bid_won")[-1]["seat"] == 3


def test_pulling_the_strings_binds_the_ally_and_the_token_to_the_shared_council():
    t = Table(4)
    big, = vanillas(t, 9)
    t.hand(0); t.hand(1, "pulling-the-strings#1"); t.hand(2); t.hand(3, big)
    t.current("shae#1")
    t.kneel(0); t.play(1, "pulling-the-strings#1"); t.kneel(2); t.play(3, big)
    t.kneel(1); t.kneel(3)
    # Seat 0 won at 0? No: seat 3 bid 9 and wins; seat 1 is not its neighbour. Start over below.
    assert t.emitted("bid_won")[-1]["seat"] == 3


# Sansa Stark with no ally yet in either council: her rule leaves the choice open, nothing
# conflicts, so Pulling the Strings narrows it as for any ally.
@pytest.mark.parametrize("ally", ["shae#1", "sansa-stark#1"])
def test_pulling_the_strings_of_a_neighbour_forces_the_council(ally):
    t = Table(4)
    big, = vanillas(t, 9)
    t.hand(0, big); t.hand(1, "pulling-the-strings#1"); t.hand(2); t.hand(3)
    t.current(ally)
    t.play(0, big); t.play(1, "pulling-the-strings#1"); t.kneel(2); t.kneel(3); t.kneel(0); t.kneel(1)
    # Seat 1 sits on seat 0's left: council 0 is theirs. No choice is offered for the ally or token.
    claimed = t.emitted("ally_claimed")[-1]
    token = t.emitted("token_gained")[-1]
    assert claimed["ally"] == ally and claimed["council"] == 0 and token["council"] == 0
    assert all(a["kind"] != "place_ally" for a in t.state["asks"])


def test_pulling_the_strings_copies_are_counted_per_neighbour():
    t = Table(4)
    big, = vanillas(t, 9)
    # Seat 1 (left, council 0) plays one copy; seat 3 (right, council 3) plays two.
    t.hand(0, big); t.hand(1, "pulling-the-strings#1"); t.hand(2)
    t.hand(3, "pulling-the-strings#2", "pulling-the-strings#3")
    t.current("shae#1")
    t.play(0, big); t.play(1, "pulling-the-strings#1"); t.kneel(2); t.play(3, "pulling-the-strings#2")
    t.kneel(0); t.kneel(1); t.play(3, "pulling-the-strings#3"); t.kneel(3)
    assert t.emitted("ally_claimed")[-1]["council"] == 3


def test_equal_pulling_the_strings_on_both_sides_leaves_the_choice_to_the_winner():
    t = Table(4)
    big, = vanillas(t, 9)
    t.hand(0, big); t.hand(1, "pulling-the-strings#1"); t.hand(2); t.hand(3, "pulling-the-strings#2")
    t.current("shae#1")
    t.play(0, big); t.play(1, "pulling-the-strings#1"); t.kneel(2); t.play(3, "pulling-the-strings#2")
    t.kneel(0); t.kneel(1); t.kneel(3)
    assert t.ask()["kind"] == "place_ally"
    assert sorted(c[1] for c in t.choices(0)) == [0, 3]


def test_sansa_stark_overrides_pulling_the_strings():
    t = Table(4)
    big, = vanillas(t, 9)
    t.council(3, "oberyn-martell#1")  # seat 0's right council holds its strongest ally
    t.hand(0, big); t.hand(1, "pulling-the-strings#1"); t.hand(2); t.hand(3)
    t.current("sansa-stark#1")
    t.play(0, big); t.play(1, "pulling-the-strings#1"); t.kneel(2); t.kneel(3); t.kneel(0); t.kneel(1)
    assert t.emitted("ally_claimed")[-1]["council"] == 3
    # The power token still obeys Pulling the Strings.
    assert t.emitted("token_gained")[-1]["council"] == 0


def test_sansa_stark_between_tied_strongest_allies_follows_pulling_the_strings():
    t = Table(4)
    big, = vanillas(t, 9)
    t.council(0, "varys#1")
    t.council(3, "ser-ilyn-payne#1")
    assert cardtables.get(t.g["table"])["info"]["varys"]["power"] == cardtables.get(t.g["table"])["info"]["ser-ilyn-payne"]["power"]
    t.hand(0, big); t.hand(1); t.hand(2); t.hand(3, "pulling-the-strings#1")
    t.current("sansa-stark#1")
    t.play(0, big); t.kneel(1); t.kneel(2); t.play(3, "pulling-the-strings#1"); t.kneel(0); t.kneel(3)
    assert t.emitted("ally_claimed")[-1]["council"] == 3


def test_betrayal_moves_contingency_plan_and_you_follows_the_card():
    # Euron plays Contingency Plan; Cersei's Betrayal moves it in front of her; Cersei loses the bid.
    t = Table(4, leaders=["euron", "cersei", "olenna", "jon"])
    big, = vanillas(t, 10)  # beats Cersei's 8 + 1
    t.hand(0, "contingency-plan#1"); t.hand(1, "betrayal#1"); t.hand(2, big); t.hand(3)
    t.current("shae#1")
    t.play(0, "contingency-plan#1")
    t.play(1, "betrayal#1")
    t.choose(1, "take", "contingency-plan#1")
    assert "contingency-plan#1" in t.g["bids"][1]
    t.play(2, big); t.kneel(3); t.kneel(0); t.kneel(1); t.kneel(2)
    assert t.emitted("bid_won")[-1]["seat"] == 2
    t.choose(2, "council", 2); t.choose(2, "council", 2)
    assert "contingency-plan#1" in t.g["hands"][1]  # Cersei, not Euron
    assert "contingency-plan#1" not in t.g["hands"][0]


def test_contingency_plan_is_discarded_by_the_winner():
    t = Table(4)
    t.hand(0, "contingency-plan#1"); t.hand(1); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.play(0, "contingency-plan#1"); t.kneel_all()
    t.choose(0, "council", 0); t.choose(0, "council", 0)
    assert "contingency-plan#1" in t.g["discard"]


def test_bribery_goes_to_the_hand_of_the_leader_it_was_moved_to():
    # Doran plays Bribery into Tyrion's bid pile; after the bid it goes into Tyrion's hand.
    t = Table(4, leaders=["doran", "tyrion", "olenna", "jon"], variants=["advanced"])
    big, = vanillas(t, 9)
    t.hand(0, "bribery#1"); t.hand(1); t.hand(2, big); t.hand(3)
    t.current("shae#1")
    t.play(0, "bribery#1")
    t.choose(0, "leader", 1)
    assert t.g["bids"][1] == ["bribery#1"]
    t.kneel(1); t.play(2, big); t.kneel(3); t.kneel(0); t.kneel(2)
    t.choose(2, "council", 2); t.choose(2, "council", 2)
    assert "bribery#1" in t.g["hands"][1]


def test_matchmaker_ally_ignores_pulling_the_strings():
    t = Table(4, leaders=["olenna", "tyrion", "cersei", "jon"], variants=["advanced"])
    big, = vanillas(t, 9)
    t.hand(0, "matchmaker#1", big); t.hand(1, "pulling-the-strings#1"); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.ally_deck_top("varys#1")
    t.play(0, "matchmaker#1"); t.play(1, "pulling-the-strings#1"); t.kneel(2); t.kneel(3)
    t.play(0, big); t.kneel(1); t.kneel(0)
    first = t.emitted("ally_claimed")[0]
    assert first["ally"] == "shae#1" and first["council"] == 0  # forced by Pulling the Strings
    # Shae asks to move an ally from the other council: there is none. Then the token (forced),
    # then Matchmaker's ally: a free choice of both councils.
    ask = t.ask(0)
    assert ask["kind"] == "place_ally" and sorted(c[1] for c in ask["choices"]) == [0, 3]
    t.choose(0, "council", 3)
    assert t.emitted("ally_claimed")[-1]["ally"] == "varys#1"


def test_little_birds_token_goes_with_the_ally_to_its_claimer():
    t = Table(4)
    t.hand(0); t.hand(1, "little-birds#1"); t.hand(2); t.hand(3)
    t.current("shae#1")
    supply = len(t.g["supply"])
    t.kneel(0); t.play(1, "little-birds#1")
    tok = t.g["current_tokens"][0]
    assert len(t.g["supply"]) == supply - 1
    t.kneel_all()
    t.choose(1, "council", 1)
    assert t.g["councils"][1]["allies"] == ["shae#1"] and tok in t.g["councils"][1]["tokens"]


def test_shadow_assassin_kill_returns_little_birds_tokens_to_the_supply():
    t = Table(4, leaders=["tyrion", "melisandre", "cersei", "jon"], variants=["advanced"])
    t.hand(0, "little-birds#1"); t.hand(1, "shadow-assassin#1"); t.hand(2); t.hand(3)
    t.current("shae#1")
    supply = len(t.g["supply"])
    t.play(0, "little-birds#1")
    tok = t.g["current_tokens"][0]
    t.play(1, "shadow-assassin#1")
    assert t.g["current"] is None and "shae#1" in t.g["dead"]
    assert tok in t.g["supply"] and len(t.g["supply"]) == supply
    assert not any(tok in c["tokens"] for c in t.g["councils"])


# --- the time track, seasons and the end ---------------------------------------------------------

@pytest.mark.parametrize("players,space,season", [(3, 3, "summer"), (4, 2, "summer"), (5, 1, "autumn"),
                                                  (6, 0, "autumn")])
def test_time_track_starts_by_player_count(players, space, season):
    v = Table(players).view("public")
    assert (v["round_space"], v["season"]) == (space, season)


@pytest.mark.parametrize("players,season", [(3, "autumn"), (4, "autumn"), (5, "winter"), (6, "winter")])
def test_short_game_starts_later(players, season):
    assert Table(players, variants=["short"]).view("public")["season"] == season


def _finish_round(t):
    """Kneel everyone and answer placements with the first option, until the next round starts."""
    rounds = t.g["rounds_played"]
    while not t.state["over"] and t.g["rounds_played"] == rounds:
        ask = t.ask()
        t.choose(ask["seat"], *(["kneel"] if ["kneel"] in ask["choices"] else ask["choices"][0]))


def test_a_season_has_one_more_round_than_players_then_hands_are_redealt():
    t = Table(4)
    for _ in range(4):
        _finish_round(t)
    assert t.view("public")["season"] == "summer"
    t.hand(0, *t.g["hands"][0][:3])  # seat 0 keeps three cards; they will be discarded
    _finish_round(t)
    v = t.view("public")
    assert v["season"] == "autumn" and v["round_space"] == 2
    assert v["hand_sizes"] == [10, 10, 10, 10]
    assert v["discard"] == []  # the discard pile went back into the deck


def test_the_game_ends_after_the_last_round_of_winter():
    t = Table(5)  # autumn and winter, 6 rounds each
    while not t.state["over"]:
        _finish_round(t)
    assert t.g["rounds_played"] == 12 and t.view("public")["season"] == "winter"
    assert t.state["result"]["winners"]


def test_first_player_passes_clockwise_each_round():
    t = Table(4, first=1)
    _finish_round(t)
    assert t.g["first"] == 2


def test_scoring_tie_breaks_down_to_allies_then_shared_victory():
    t = Table(3)
    # Council powers 10/10/10: every small council 10, every other council 10.
    t.council(0, tokens=[3, 3, 2, 2]); t.council(1, tokens=[3, 3, 2, 2]); t.council(2, tokens=[3, 3, 2, 2])
    flow.score(_ctx(t))
    assert t.state["result"]["winners"] == [0, 1, 2]


def test_scoring_prefers_more_allies_after_equal_councils():
    t = Table(3)
    t.council(0, "jester-of-dragonstone#1", tokens=[3, 3, 3])  # 1 + 9 = 10 with one ally
    t.council(1, tokens=[3, 3, 2, 2])
    t.council(2, tokens=[3, 3, 2, 2])
    flow.score(_ctx(t))
    # Seats 0 (councils 0, 2) and 1 (councils 1, 0) each have one ally; seat 2 has none.
    assert t.state["result"]["winners"] == [0, 1]


# --- allies --------------------------------------------------------------------------------------

def test_ser_jaime_forbids_a_second_copy_in_the_bid_piles():
    t = Table(4)
    t.hand(0, "betrayal#1"); t.hand(1, "betrayal#2", "corruption#1"); t.hand(2); t.hand(3)
    t.current("ser-jaime-lannister#1")
    t.play(0, "betrayal#1")
    assert ["play", "betrayal#2"] not in t.choices(1)
    assert ["play", "corruption#1"] in t.choices(1)


def test_arianne_sends_the_first_kneeling_bid_back_to_hand():
    t = Table(4)
    a, b = vanillas(t, 5, 6)
    t.hand(0, a); t.hand(1, b); t.hand(2); t.hand(3)
    t.current("arianne-martell#1")
    t.play(0, a); t.kneel(1); t.kneel(2); t.kneel(3); t.kneel(0)
    # Seat 1 knelt first but with an empty pile; seat 0 is the first with cards.
    assert a in t.g["hands"][0] and t.g["bids"][0] == []


def test_oberyn_makes_the_winner_and_the_runner_up_discard_two():
    t = Table(4)
    a, b, c, d, e, f = vanillas(t, 9, 8, 1, 2, 3, 4)
    t.hand(0, a, c, d); t.hand(1, b, e, f); t.hand(2); t.hand(3)
    t.current("oberyn-martell#1")
    t.play(0, a); t.play(1, b); t.kneel(2); t.kneel(3); t.kneel(0); t.kneel(1)
    t.choose(0, "council", 0)
    assert t.ask()["kind"] == "discard" and t.ask()["seat"] == 0
    t.choose(0, "discard", c); t.choose(0, "discard", d)
    assert t.ask()["seat"] == 1
    t.choose(1, "discard", e); t.choose(1, "discard", f)
    assert t.g["hands"][0] == [] and t.g["hands"][1] == []


def test_varys_takes_a_card_and_only_the_two_leaders_learn_which():
    t = Table(4)
    t.hand(0); t.hand(1); t.hand(2, "royal-decree#1", "corruption#1"); t.hand(3)
    t.current("varys#1")
    t.kneel_all()
    t.choose(0, "council", 0)
    t.choose(0, "leader", 2)
    assert sorted(c[1] for c in t.choices(0)) == ["corruption#1", "royal-decree#1"]
    assert "choices" not in t.view(1)["asks"][0]  # others see only that seat 0 is choosing
    t.choose(0, "take", "royal-decree#1")
    assert "royal-decree#1" in t.g["hands"][0]
    from maester.engine import filter_events
    seen_by = {v: [e for e in filter_events(t.events, v) if e["e"] == "took_card"] for v in (0, 2, 1, "public")}
    assert seen_by[0][0]["card"] == "royal-decree#1" and seen_by[2][0]["card"] == "royal-decree#1"
    assert "card" not in seen_by[1][0]
    assert len(seen_by["public"]) == 1 and "card" not in seen_by["public"][0]


def test_a_leader_card_taken_by_varys_cannot_be_played_by_its_new_holder():
    # Outside the Kingsmoot draft a leader plays only their own leader-specific cards.
    t = Table(4, variants=["advanced"], leaders=["cersei", "euron", "olenna", "jon"])
    t.hand(0); t.hand(1, "the-silence#1"); t.hand(2); t.hand(3)
    t.current("varys#1")
    t.kneel_all()
    t.choose(0, "council", 0)
    t.choose(0, "leader", 1)
    t.choose(0, "take", "the-silence#1")
    assert "the-silence#1" in t.g["hands"][0]
    while t.ask()["kind"] != "turn" or t.ask()["seat"] != 0:
        t.choose(t.ask()["seat"], *t.ask()["choices"][0])
    assert "the-silence#1" in t.g["hands"][0] and ["play", "the-silence#1"] not in t.choices(0)


def test_in_the_kingsmoot_draft_any_leader_plays_any_leader_card():
    t = Table(4, variants=["kingsmoot"], leaders=["cersei", "euron", "olenna", "jon"])
    while t.ask()["kind"] != "turn":
        t.choose(t.ask()["seat"], *t.ask()["choices"][0])
    t.hand(0, "the-silence#1", "matchmaker#1")
    assert ["play", "the-silence#1"] in t.choices(0) and ["play", "matchmaker#1"] in t.choices(0)


def test_ser_loras_joins_renly_and_brings_the_next_ally_into_his_council():
    t = Table(4)
    t.council(3, "renly-baratheon#1")
    t.current("ser-loras-tyrell#1")
    t.ally_deck_top("shae#1")
    t.kneel_all()
    claims = t.emitted("ally_claimed")
    assert claims[0]["ally"] == "ser-loras-tyrell#1" and claims[0]["council"] == 3
    assert claims[1]["ally"] == "shae#1" and claims[1]["council"] == 3


def test_shae_pulls_an_ally_from_the_other_council():
    t = Table(4)
    t.council(3, "jester-of-dragonstone#1")
    t.current("shae#1")
    t.kneel_all()
    t.choose(0, "council", 0)
    t.choose(0, "move", "jester-of-dragonstone#1")
    assert t.g["councils"][0]["allies"] == ["shae#1", "jester-of-dragonstone#1"]


def test_robb_stark_every_other_leader_is_asked_and_the_claimer_may_cancel():
    t = Table(4)
    t.hand(0, "betrayal#1"); t.hand(1); t.hand(2, "betrayal#2"); t.hand(3)
    t.current("robb-stark#1")
    t.kneel_all()
    t.choose(0, "council", 0)
    assert t.ask()["seat"] == 1 and t.choices(1) == [["decline"]]  # asked though holding no Betrayal
    t.choose(1, "decline")
    t.choose(2, "betray")
    assert t.choices(0) == [["betray"], ["accept"]]
    t.choose(0, "betray")
    assert "robb-stark#1" in t.g["councils"][0]["allies"]
    assert "betrayal#1" in t.g["discard"] and "betrayal#2" in t.g["discard"]


def test_robb_stark_is_killed_when_not_saved():
    t = Table(4)
    t.hand(0); t.hand(1, "betrayal#1"); t.hand(2); t.hand(3)
    t.current("robb-stark#1")
    t.kneel_all()
    t.choose(0, "council", 0)
    t.choose(1, "betray")
    t.choose(0, "accept")
    assert "robb-stark#1" in t.g["dead"]


def test_ser_ilyn_payne_kills_one_of_three_and_restacks_two():
    t = Table(4)
    t.current("ser-ilyn-payne#1")
    t.ally_deck_top("shae#1", "varys#1", "sansa-stark#1")
    t.kneel_all()
    t.choose(0, "council", 0)
    t.choose(0, "kill", "varys#1")
    t.choose(0, "top", "sansa-stark#1")
    assert "varys#1" in t.g["dead"]
    assert t.g["ally_deck"][-2:] == ["shae#1", "sansa-stark#1"]  # sansa on top


def test_jester_of_dragonstone_reorders_the_top_five():
    t = Table(4)
    top = ["shae#1", "varys#1", "sansa-stark#1", "robb-stark#1", "oberyn-martell#1"]
    t.current("jester-of-dragonstone#1")
    t.ally_deck_top(*top)
    t.kneel_all()
    t.choose(0, "council", 0)
    for a in reversed(top):
        if t.state["asks"] and t.ask()["kind"] == "order_allies":
            t.choose(0, "top", a)
    assert t.g["ally_deck"][-5:] == top  # the first chosen is on top: the list is reversed


def test_revealed_allies_row_and_next_ally():
    t = Table(4, variants=["revealed"])
    row = list(t.g["row"])
    assert len(row) == 4 and t.g["current"] is not None  # 5 laid out, the leftmost is current
    t.current("ser-loras-tyrell#1")
    top_of_deck = t.g["ally_deck"][-1]
    t.kneel_all()
    t.choose(0, "council", 0)
    # Loras: the deck top joins the row's right end, the row's first ally is claimed.
    assert t.emitted("ally_claimed")[-1]["ally"] == row[0]
    assert t.g["row"][-1] == top_of_deck


# --- influence cards -------------------------------------------------------------------------------

@pytest.mark.parametrize("card,kind,take", [
    ("betrayal#1", "betrayal", "take"),
    ("the-game-of-thrones#1", "manual", "take_bid"),   # resolved by hand
    ("the-pack-survives#1", "manual", "take_bid"),     # Eddard's leader card, resolved by hand
])
def test_royal_decree_in_a_bid_pile_is_out_of_reach_of_other_influence_cards(card, kind, take):
    t = Table(4, variants=["advanced"], leaders=["cersei", "eddard", "olenna", "jon"])
    t.hand(0, "royal-decree#1"); t.hand(1, card); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.play(0, "royal-decree#1"); t.play(1, card)
    assert kind == "betrayal" or t.ask()["kind"] == kind
    assert [take, "royal-decree#1"] not in (t.choices(1) if t.ask()["kind"] == kind else [])


def test_betrayal_cannot_take_white_or_blue_cards():
    t = Table(4, leaders=["euron", "cersei", "olenna", "jon"], variants=["advanced"])
    a, = vanillas(t, 5)
    t.hand(0, "the-silence#1"); t.hand(1, "bribery#1"); t.hand(2, a, "betrayal#1"); t.hand(3)
    t.current("shae#1")
    t.play(0, "the-silence#1"); t.play(1, "bribery#1"); t.choose(1, "leader", 3); t.play(2, a)
    t.kneel(3); t.skip = None
    t.kneel(0); t.kneel(1); t.play(2, "betrayal#1")
    assert t.ask()["kind"] != "betrayal"  # nothing red, green or purple in another bid pile


def test_intercepted_shows_a_hand_while_the_card_is_in_your_bid_pile():
    t = Table(4)
    t.hand(0, "intercepted#1"); t.hand(1); t.hand(2, "corruption#1"); t.hand(3)
    t.current("shae#1")
    t.play(0, "intercepted#1")
    t.choose(0, "leader", 2)
    assert t.view(0)["seen_hands"] == {"2": ["corruption#1"]}
    assert t.view(1)["seen_hands"] == {} and "hand" not in t.view("public")
    t.kneel_all()
    t.choose(0, "council", 0); t.choose(0, "council", 0)
    assert t.view(0)["seen_hands"] == {}  # the round ended


def test_corruption_moves_a_token_between_a_leaders_councils():
    t = Table(4)
    t.council(1, tokens=[2])
    tok = t.g["councils"][1]["tokens"][0]
    t.hand(0, "corruption#1"); t.hand(1); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.play(0, "corruption#1")
    # Council 1 is shared by seats 1 and 2: its token may go to council 0 (seat 1) or 2 (seat 2).
    assert sorted(c[2] for c in t.choices(0)) == [0, 2]
    t.choose(0, "move", tok, 2)
    assert t.g["councils"][2]["tokens"] == [tok]


def test_the_silence_lets_euron_skip_then_play_two_and_kneel():
    t = Table(4, leaders=["euron", "cersei", "olenna", "jon"], variants=["advanced"])
    a, b = vanillas(t, 5, 6)
    t.hand(0, "the-silence#1", a, b); t.hand(1); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.play(0, "the-silence#1"); t.kneel(1); t.kneel(2)
    t.kneel(3)
    # Everyone else knelt: skipping would stall the round, so it is not offered.
    assert ["skip"] not in t.choices(0)
    t.play(0, a)
    assert t.ask()["seat"] == 0 and ["kneel"] in t.choices(0)  # a second card, or stop
    t.play(0, b)
    assert t.g["knelt"][0]


def test_the_silence_skip_is_offered_while_others_stand():
    t = Table(4, leaders=["euron", "cersei", "olenna", "jon"], variants=["advanced"])
    a, = vanillas(t, 5)
    t.hand(0, "the-silence#1", a); t.hand(1, *vanillas(t, 1)); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.play(0, "the-silence#1"); t.play(1, t.g["hands"][1][0]); t.kneel(2); t.kneel(3)
    assert ["skip"] in t.choices(0)
    t.choose(0, "skip")
    assert not t.g["knelt"][0]


def test_blood_magic_kills_and_replaces_the_current_ally_free_of_pulling_the_strings():
    t = Table(4, leaders=["melisandre", "tyrion", "cersei", "jon"], variants=["advanced"])
    big, = vanillas(t, 9)
    t.hand(0, "blood-magic#1", big); t.hand(1, "pulling-the-strings#1"); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.ally_deck_top("varys#1")
    t.play(0, "blood-magic#1")
    assert t.g["current"] == "varys#1" and "shae#1" in t.g["dead"]
    t.play(1, "pulling-the-strings#1"); t.kneel(2); t.kneel(3); t.play(0, big); t.kneel(1); t.kneel(0)
    assert t.ask()["kind"] == "place_ally" and len(t.choices(0)) == 2


def test_a_card_resolved_by_hand_records_what_the_players_did():
    t = Table(4)
    t.hand(0, "the-game-of-thrones#1"); t.hand(1); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.play(0, "the-game-of-thrones#1")
    assert t.ask()["kind"] == "manual"
    t.choose(0, "gain_token", 0)
    t.choose(0, "done")
    assert len(t.g["councils"][0]["tokens"]) == 1
    assert [e["op"] for e in t.emitted("manual")] == ["gain_token"]
    assert t.emitted("resolved_by_hand")


def test_a_card_resolved_by_hand_cannot_move_a_royal_decree():
    # Royal Decree in a bid pile cannot be moved or discarded by other influence card abilities:
    # not taken from another leader's pile, nor returned from one's own to hand.
    t = Table(4)
    a, b = vanillas(t, 2, 3)
    t.hand(0, "royal-decree#1", a, "the-game-of-thrones#1"); t.hand(1, b); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.play(0, "royal-decree#1"); t.play(1, b); t.kneel(2); t.kneel(3)
    t.play(0, a); t.kneel(1)
    t.play(0, "the-game-of-thrones#1")
    offered = t.choices(0)
    assert ["bid_to_hand", a] in offered and ["take_bid", b] in offered
    assert ["bid_to_hand", "royal-decree#1"] not in offered
    t.choose(0, "done")


def test_an_ally_resolved_by_hand_may_still_move_a_royal_decree():
    # The protection is against influence card abilities; Renly Baratheon is an ally.
    t = Table(4)
    t.hand(0); t.hand(1, "royal-decree#1"); t.hand(2); t.hand(3)
    t.current("renly-baratheon#1")
    t.kneel(0); t.play(1, "royal-decree#1"); t.kneel(2); t.kneel(3); t.kneel(1)
    if t.ask()["kind"] == "place_ally":
        t.choose(1, *t.choices(1)[0])
    while t.ask()["kind"] != "manual":
        t.choose(t.ask()["seat"], *t.choices(t.ask()["seat"])[0])
    assert ["bid_to_hand", "royal-decree#1"] in t.choices(1)


# --- advanced game and variants ----------------------------------------------------------------------

def test_advanced_hands_are_nine_plus_one_own_leader_card():
    t = Table(4, variants=["advanced"], leaders=LEADERS4)
    for seat, leader in enumerate(LEADERS4):
        hand = t.g["hands"][seat]
        own = [c for c in hand if cardtables.get(t.g["table"])["info"][c.split("#")[0]]["kind"] == "leader"]
        assert len(hand) == 10 and len(own) == 1
        assert cardtables.get(t.g["table"])["info"][own[0].split("#")[0]]["leader"] == leader


def test_leader_cards_are_removed_instead_of_discarded():
    t = Table(4, variants=["advanced"], leaders=["euron", "cersei", "olenna", "jon"])
    t.hand(0, "the-silence#1"); t.hand(1); t.hand(2); t.hand(3)
    t.current("shae#1")
    t.play(0, "the-silence#1"); t.kneel_all()
    while t.g["rounds_played"] == 0:
        t.choose(t.ask()["seat"], *t.ask()["choices"][0])
    assert "the-silence#1" in t.g["removed"] and "the-silence#1" not in t.g["discard"]


def test_advanced_adds_three_events_at_the_end_of_summer_with_four_players():
    t = Table(4, variants=["advanced"])
    aside = len(t.g["events_aside"])
    for _ in range(5):
        _finish_round(t)
    assert t.view("public")["season"] == "autumn"
    assert len(t.g["events_aside"]) == aside - 3


def test_draft_passes_left_then_right():
    t = Table(3, variants=["draft"])
    assert t.ask()["kind"] == "draft" and len(t.state["asks"]) == 3
    pack1 = [c[1] for c in t.choices(1)]
    for seat in range(3):
        t.choose(seat, *t.choices(seat)[0])
    # Seat 1's pack (less the kept card) moved to its left neighbour, seat 2.
    assert sorted(c[1] for c in t.choices(2)) == sorted(pack1[1:])
    while t.ask()["kind"] == "draft":
        for seat in range(3):
            t.choose(seat, *t.choices(seat)[0])
    assert [len(h) for h in t.g["hands"]] == [10, 10, 10]


def test_kingsmoot_puts_every_card_in_the_deck():
    t = Table(3, variants=["kingsmoot"])
    total = len(t.g["deck"]) + sum(len(p["choices"]) for p in t.state["asks"])
    assert total == 62 + 11 + 36 and t.g["events_aside"] == []


# --- chance observed from the table ----------------------------------------------------------------

def test_on_a_real_table_hands_and_allies_are_learned_from_taps():
    t = Table(3, observe=["allies", "hands"])
    asks = t.state["asks"]
    assert sorted(a["seat"] for a in asks) == [0, 1, 2] and {a["kind"] for a in asks} == {"observe_hand"}
    deck = sorted(t.g["deck"])
    dealt = {0: deck[0:10], 1: deck[10:20], 2: deck[20:30]}
    t.choose(0, "card", dealt[0][0])
    # Seat 1's list still offers the card seat 0 tapped: the list tells nothing about other hands.
    assert ["card", dealt[0][0]] in t.choices(1)
    t.choose(1, "card", dealt[0][0])  # a card already recorded in a hand is refused, privately
    refused = t.emitted("tap_refused")[-1]
    assert refused["vis"] == [1] and t.g["hands"][1] == []
    for seat in range(3):
        for inst in dealt[seat]:
            if inst not in t.g["hands"][seat]:
                t.choose(seat, "card", inst)
    assert [sorted(h) for h in t.g["hands"]] == [dealt[0], dealt[1], dealt[2]]
    ask = t.ask()
    assert ask["seat"] == "table" and ask["kind"] == "observe_ally"
    t.choose("table", "ally", "shae#1")
    assert t.g["current"] == "shae#1" and "shae#1" not in t.g["ally_deck"]
    assert t.ask()["kind"] == "turn"


def test_tapped_allies_feed_ser_ilyn_payne_on_a_real_table():
    t = Table(3, observe=["allies"])
    t.choose("table", "ally", "ser-ilyn-payne#1")
    t.kneel_all()
    t.choose(0, "council", 0)
    for ally in ("shae#1", "varys#1", "sansa-stark#1"):
        assert t.ask()["kind"] == "observe_ally"
        t.choose("table", "ally", ally)
    assert sorted(c[1] for c in t.choices(0)) == ["sansa-stark#1", "shae#1", "varys#1"]
