"""The LCG on a real table: what a tap of a card on a seat's reader means for every kind of decision,
the stickers a table needs, the LEDs drawn from the public view alone, and a whole game played
through `maester play lcg --port` against a `maester sim-board` process."""

import copy
import io
import json
import random
import subprocess

import pytest

from maester.nfc import tags as tagfile
from maester.table import opening
from maester.engine import PUBLIC, apply, cardtables, filter_events, new_game, view
from maester.engine.session import Session
from maester.games.lcg import model as M
from maester.games.lcg import table as ltable
from maester.link.serial_link import Tap
from maester.table import lights
from maester.table import profile as P
from maester.table.runner import TableRunner, sim_tags, sim_uid
from maester.table.taps import asks_at, command_for_tap, meanings
from board_driver import maester_cmd
from test_board_play import final_state, play_out, table_game  # noqa: F401 (the fixture)

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def game(players=2, seed=1, **config):
    """A game with real, hand-shuffled decks (draws learned from taps), seat 0 first."""
    state, _ = new_game("lcg", dict({"players": players, "observe": ["draws"], "first": 0}, **config), seed)
    return state


def sticker(inst, copy=1):
    """The sticker `maester enroll lcg` binds to a copy of the card: "S5#1" for "S5#<any seat>"."""
    return "%s#%d" % (M.code(inst), copy)


def ask(seat, kind, choices):
    return {"id": 99, "seat": seat, "kind": kind, "choices": choices, "prompt": ""}


def into_play(state, inst, seat=None, on=None):
    """Put `inst` into play for `seat` (its owner by default), attached to `on` when given."""
    g = state["g"]
    M.take_out(g, inst)
    g["cards"][inst]["ctrl"] = M.owner_of(inst) if seat is None else seat
    M.put(g, inst, "play")
    if on is not None:
        g["cards"][inst]["on"] = on
        g["cards"][on]["att"].append(inst)
    return inst


def into_hand(state, inst):
    M.move(state["g"], inst, "hand")
    return inst


# --- a tap is the copy of that card lying in front of the reader's seat ----------------------------

def test_a_sticker_names_a_card_and_the_reader_says_whose_copy_it_is():
    state = game(players=6)  # Stark at seats 0 and 4, Lannister at 1 and 5
    draw = state["asks"][0]
    assert (draw["seat"], draw["kind"]) == (0, "draw")
    eddard = "S5#0"
    # Copy 1 (the first Core Set), copy 2 (the second) and the sim-board's own sticker all mean it.
    for card in ("S5#1", "S5#2", "S5#0", "S5#4"):
        assert command_for_tap(state, 0, card)[0] == {"seat": 0, "ask": draw["id"], "choice": ["drew", eddard]}
    # Seat 4's reader holds seat 4's Eddard, who is not being drawn; a Lannister card is not seat 0's.
    assert ltable.copies_at(state, "S5#1", 4) == ["S5#4"] and ltable.tap_choices(state, draw, "S5#1", 4) == []
    assert command_for_tap(state, 4, "S5#1") == (None, "nothing is asked here now")
    assert command_for_tap(state, 0, "L38#1") == (None, "that card cannot be used for this decision")
    # Only the code counts: the sticker's copy number is not read as a seat (the default reading
    # would take "S5#4" for seat 4's card).
    assert ltable.tap_choices(state, draw, "S5#4", 0) == [["drew", eddard]]


def test_each_kind_of_decision_maps_a_tap_to_the_choice_naming_that_card():
    state = game(players=2)
    g = state["g"]
    plots = sorted(g["players"][0]["plots"])
    eddard = into_play(state, "S5#0")
    robb = into_play(state, "S7#0")
    nymeria = into_play(state, "S2#0", on=eddard)  # Nymeria's save: kneel her to save Eddard
    winterfell = into_play(state, "S138#0")
    tyrion = into_play(state, "L38#1")
    ice = into_hand(state, "S1#0")
    summer = into_hand(state, "S3#0")
    insidious = into_hand(state, "L163#1")
    cases = [  # (seat, kind, choices, the card tapped, where, what it means)
        (0, "plot", [["plot", p] for p in plots], plots[2], 0, [["plot", plots[2]]]),
        (0, "draw", [["drew", i] for i in g["players"][0]["deck"]], "S9#0", 0, [["drew", "S9#0"]]),
        (0, "setup", [["place", ice], ["place", summer], ["done"]], summer, 0, [["place", summer]]),
        (0, "marshal", [["marshal", summer], ["duplicate", ice], ["done"]], ice, 0, [["duplicate", ice]]),
        (0, "marshal", [["attach", ice, eddard], ["attach", ice, robb], ["done"]], ice, 0,
         [["attach", ice, eddard], ["attach", ice, robb]]),  # two hosts: picked after the tap
        (0, "attackers", [["attacker", eddard], ["attacker", robb], ["done"]], robb, 0, [["attacker", robb]]),
        (1, "defenders", [["defender", tyrion], ["done"]], tyrion, 1, [["defender", tyrion]]),
        (0, "claim_kill", [["kill", eddard], ["kill", robb]], eddard, 0, [["kill", eddard]]),
        (0, "deadly", [["kill", robb]], robb, 0, [["kill", robb]]),
        (1, "stealth", [["stealth", tyrion, eddard], ["stealth", tyrion, robb], ["done"]], tyrion, 1,
         [["stealth", tyrion, eddard], ["stealth", tyrion, robb]]),
        (0, "save", [["save", nymeria, 0], ["dup", "S4#0"], ["pass"]], nymeria, 0, [["save", nymeria, 0]]),
        (1, "response", [["respond", tyrion, 0], ["pass"]], tyrion, 1, [["respond", tyrion, 0]]),
        (1, "action", [["action", insidious, 0], ["pass"]], insidious, 1, [["action", insidious, 0]]),
        (1, "cancel", [["cancel", insidious, 0], ["pass"]], insidious, 1, [["cancel", insidious, 0]]),
        (0, "influence", [["kneel_influence", winterfell], ["title_influence"]], winterfell, 0,
         [["kneel_influence", winterfell]]),
        (0, "infamy", [["house"], ["card", eddard]], eddard, 0, [["card", eddard]]),
        (0, "vigilant", [["stand", robb], ["done"]], robb, 0, [["stand", robb]]),
        (1, "target", [["target", eddard], ["target", tyrion]], eddard, 0, [["target", eddard]]),
        (1, "target", [["target", eddard], ["target", tyrion]], tyrion, 1, [["target", tyrion]]),
    ]
    for seat, kind, choices, card, place, want in cases:
        a = ask(seat, kind, choices)
        for tag in (sticker(card), card):
            assert ltable.tap_choices(state, a, tag, place) == want, (kind, tag, place)
        others = [p for p in range(2) if p != place]
        assert all(ltable.tap_choices(state, a, sticker(card), p) == [] for p in others), (kind, "elsewhere")
    # A Stealth mark tapped on the defender's reader: one tap for the single Stealth attacker.
    a = ask(1, "stealth", [["stealth", tyrion, eddard], ["stealth", tyrion, robb], ["done"]])
    assert ltable.tap_choices(state, a, sticker(eddard), 0) == [["stealth", tyrion, eddard]]
    assert ltable.crossed(g, ["stealth", tyrion, eddard], 0) and not ltable.crossed(g, ["stealth", tyrion, eddard], 1)
    # A challenge: a standing character tapped on its seat's reader means the open challenges its icons
    # allow (issue 28: the same tap then declares it the first attacker); done and pass name no card.
    a = ask(0, "challenge", [["challenge", t, 1] for t in ("military", "intrigue", "power")] + [["done"]])
    for c in (eddard, robb):
        want = [x for x in a["choices"][:3] if x[1] in M.icons(state, c)]
        assert want and ltable.tap_choices(state, a, sticker(c), 0) == want
        assert ltable.tap_choices(state, a, sticker(c), 1) == []  # not on the other seat's reader
    g["cards"][robb]["kneel"] = True
    assert ltable.tap_choices(state, a, sticker(robb), 0) == []  # a knelt character cannot attack


def test_a_card_in_play_is_tapped_on_its_controllers_side_and_an_attachment_on_its_hosts_too():
    state = game(players=2)
    g = state["g"]
    robb = into_play(state, "S7#0")
    taken = into_play(state, "S5#0", seat=1)  # seat 1 took control of seat 0's Eddard
    wine = into_play(state, "L34#1", on=robb)  # seat 1's attachment on seat 0's character
    assert ltable.lies_at(g, taken) == {1} and ltable.lies_at(g, wine) == {0, 1}
    attack = ask(1, "attackers", [["attacker", taken], ["done"]])
    assert ltable.tap_choices(state, attack, "S5#1", 1) == [["attacker", taken]]
    assert ltable.tap_choices(state, attack, "S5#1", 0) == []  # no longer on seat 0's side
    act = ask(1, "action", [["action", wine, 0], ["pass"]])
    assert ltable.tap_choices(state, act, "L34#1", 1) == [["action", wine, 0]]
    assert ltable.tap_choices(state, act, "L34#1", 0) == []  # only a target is tapped across the table


def test_every_card_choice_of_random_games_is_a_tap_on_the_reader_where_the_card_lies():
    covered = set()
    for players, seed in ((2, 8), (3, 4), (4, 10)):
        state = game(players=players, seed=seed, first=None)
        rng = random.Random(seed)
        while not state["over"]:
            a = state["asks"][0]
            g = state["g"]
            for c in a["choices"]:
                if len(c) < 2 or not isinstance(c[1], str) or c[1] not in g["cards"]:
                    continue
                command = {"seat": a["seat"], "ask": a["id"], "choice": c}
                places = sorted(ltable.lies_at(g, c[1]))
                if c[0] not in ltable.CROSS:
                    assert places == [a["seat"]] or a["seat"] in places, (a["kind"], c, places)
                    places = [a["seat"]]
                for place in places:
                    found, _ = command_for_tap(state, place, sticker(c[1]))
                    if found != command:  # several meanings: it waits for the seat's pick
                        held = [m for x in asks_at(state, place) for m in [meanings(state, x, sticker(c[1]), place)]
                                if len(m) > 1]
                        assert held and c in held[0], (a["kind"], c, place)
                covered.add(c[0])
            choice = rng.choice(a["choices"])
            assert apply(state, {"seat": a["seat"], "ask": a["id"], "choice": choice}).ok
    assert covered >= {"plot", "drew", "place", "marshal", "attach", "duplicate", "attacker", "defender", "kill",
                       "stealth", "target", "respond", "action", "card"}, covered


# --- the runner: a plot face down, a pick after the tap -------------------------------------------

def to_ask(session, runner, kind, rng, until=None):
    """Play random choices through the runner until an ask of `kind` (that `until` accepts) is open."""
    while True:
        for a in session.state["asks"]:
            if a["kind"] == kind and (until is None or until(a)):
                return a
        a = session.state["asks"][0]
        assert runner.submit({"seat": a["seat"], "ask": a["id"], "choice": rng.choice(a["choices"])}).ok


def tap(runner, seat, card):
    reader = [r["name"] for r in runner.profile["readers"]].index("seat%d" % seat)
    runner.on_tap(Tap(reader, "placed", bytes.fromhex(sim_uid(card)), 1))


@pytest.fixture
def runner(tmp_path):
    session = Session.new("lcg", {"players": 2, "observe": ["draws"], "first": 0}, 3, log_path=tmp_path / "g.sqlite")
    said = []
    r = TableRunner(session, P.for_game("lcg", 2), sim_tags(session.state), report=said.append)
    yield r, session, said
    session.close()


def test_a_plot_tapped_face_down_tells_the_table_only_that_the_seat_has_chosen(runner):
    r, session, said = runner
    plot = to_ask(session, r, "plot", random.Random(3))
    assert {a["seat"] for a in session.state["asks"] if a["kind"] == "plot"} == {0, 1}
    public_before = view(session.state, PUBLIC)
    events = len(session.events)
    card = plot["choices"][3][1]
    tap(r, 0, card)
    assert session.state["g"]["players"][0]["chosen"] == card and not said
    public = view(session.state, PUBLIC)
    assert public["seats"][0]["has_chosen"] and card not in json.dumps(public)
    assert filter_events(session.events[events:], PUBLIC) == [{"e": "plot_chosen", "seat": 0}]
    # The strip: seat 0 no longer pulses, seat 1 still must choose; nothing else changed.
    segs, before = ltable.segments(public), ltable.segments(public_before)
    assert segs["seat0"][2] == "solid" and segs["seat1"][2] == "pulse"
    assert {k: v for k, v in segs.items() if k != "seat0"} == {k: v for k, v in before.items() if k != "seat0"}


def test_an_attachment_with_several_hosts_waits_for_the_seat_to_pick_one(runner):
    r, session, said = runner

    def several_hosts(a):
        hosts = {}
        for c in a["choices"]:
            if c[0] == "attach":
                hosts.setdefault(c[1], []).append(c)
        return any(len(h) > 1 for h in hosts.values())
    a = to_ask(session, r, "marshal", random.Random(4), several_hosts)
    seat = a["seat"]
    att, choices = next((c[1], [x for x in a["choices"] if x[0] == "attach" and x[1] == c[1]])
                        for c in a["choices"] if c[0] == "attach"
                        and sum(x[1] == c[1] for x in a["choices"] if x[0] == "attach") > 1)
    seq = session.state["seq"]
    tap(r, seat, att)
    assert session.state["seq"] == seq and r.pending[seat]["choices"] == choices
    # The public host display says a choice waits, never the card nor its hosts.
    assert said[-1] == "seat %d: the tapped card fits in %d places; choose one privately" % (seat, len(choices))
    assert ltable.card_words(session.state, att) not in said[-1]
    assert r.choose_pending(seat, len(choices) - 1).ok
    assert session.state["g"]["cards"][att]["on"] == choices[-1][2]


def test_a_target_is_tapped_on_the_side_of_the_table_it_lies_on():
    state = game(players=2)
    eddard = into_play(state, "S5#0")
    tyrion = into_play(state, "L38#1")
    # Seat 0 chooses a target for an ability (Forever Burning's kind: any character).
    target = {"id": state["next_id"], "seat": 0, "kind": "target", "prompt": "",
              "choices": [["target", eddard], ["target", tyrion]]}
    state["asks"] = [target]
    # Seat 1's reader has no ask of its own: a card lying there answers seat 0's target.
    assert asks_at(state, 1) == [target]
    assert command_for_tap(state, 1, "L38#1")[0] == {"seat": 0, "ask": target["id"], "choice": ["target", tyrion]}
    assert command_for_tap(state, 0, "S5#1")[0] == {"seat": 0, "ask": target["id"], "choice": ["target", eddard]}
    assert command_for_tap(state, 1, "L45#1") == (None, "that card cannot be used for this decision")
    # An ask that may pick nothing lying at a reader is not that reader's.
    state["asks"] = [dict(target, choices=[["target", eddard]])]
    assert asks_at(state, 1) == [] and command_for_tap(state, 1, "L38#1") == (None, "nothing is asked here now")


def test_an_intrigue_claims_random_discard_is_told_to_its_seat_and_laid_face_up_for_all():
    # The host draws the cards from the hand it learned from the taps; only their owner is told
    # which (its page); they go face up to the discard pile, which the rules make public.
    state = game(players=2, seed=0, first=None)
    rng = random.Random(0)
    while True:
        a = state["asks"][0]
        hand_before = {s: list(p["hand"]) for s, p in enumerate(state["g"]["players"])}
        result = apply(state, {"seat": a["seat"], "ask": a["id"], "choice": rng.choice(a["choices"])})
        told = [e for e in result.events if e["e"] in ("discarded_at_random", "discarded_cards")]
        if told:
            break
        assert not state["over"]
    public, private = told
    seat, cards = private["seat"], private["cards"]
    assert public == {"e": "discarded_at_random", "seat": seat, "count": len(cards)}
    assert private["vis"] == [seat] and set(cards) <= set(hand_before[seat])
    assert filter_events(result.events, 1 - seat) == filter_events(result.events, PUBLIC)
    assert all(e["e"] != "discarded_cards" for e in filter_events(result.events, PUBLIC))
    mine, theirs, table = view(state, seat), view(state, 1 - seat), view(state, PUBLIC)
    assert mine["seats"][seat]["hand"] == [c for c in hand_before[seat] if c not in cards]
    assert "hand" not in theirs["seats"][seat] and "hand" not in table["seats"][seat]
    assert table["seats"][seat]["discard"][-len(cards):] == cards
    assert table["seats"][seat]["hand_size"] == len(hand_before[seat]) - len(cards)


# --- stickers --------------------------------------------------------------------------------------

def test_enroll_lcg_lists_the_208_cards_and_a_second_core_set_with_sets_2():
    cards = [c.id for c in tagfile.cards_to_tag("lcg")]
    assert len(cards) == 208 == len(set(cards)) and cards[0] == "S1#1"
    two = [c.id for c in tagfile.cards_to_tag("lcg", sets=2)]
    assert len(two) == 416 == len(set(two)) and "S1#2" in two


def test_maester_enroll_lcg_binds_stickers_through_simulated_taps(monkeypatch, capsys):
    from maester import cli
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 3))
    assert cli.main(["enroll", "lcg", "--sim", "--only", "3"]) == 0
    out = capsys.readouterr().out
    assert "enrolling lcg on any reader (profile lcg-2p): 0 of 208 cards already bound" in out
    assert "[3 of 208]" in out and sorted(tagfile.load_tags("lcg").values()) == ["S1#1", "S2#1", "S3#1"]
    assert cli.main(["enroll", "lcg", "--sets", "2", "--missing"]) == 0
    assert "lcg: 3 of 416 cards bound" in capsys.readouterr().out


def test_the_stickers_a_table_needs_one_core_set_up_to_four_players_two_beyond():
    box = {sim_uid(c): c for c in (c.id for c in tagfile.cards_to_tag("lcg"))}
    for players in (2, 4):
        state = game(players=players)
        assert opening.missing_stickers(state, box) == []
        assert opening.missing_stickers(state, sim_tags(state)) == []  # the sim-board's stickers
        assert len(opening.missing_stickers(state, {})) == 52 * players  # 45 deck cards and 7 plots each
    state = game(players=6)  # the Stark and Lannister decks twice
    missing = opening.missing_stickers(state, box)
    assert len(missing) == 2 * 52 and all(c.endswith("#2") and c[0] in "SL" for c in missing)
    text = opening.missing_text(state, missing)
    assert text.startswith("104 cards of this game have no sticker enrolled: ")
    first = cardtables.table(state)["cards"][M.code(missing[0])]["name"]
    assert "maester enroll lcg --sets 2" in text and "%s (copy 2)" % first in text
    assert opening.missing_stickers(state, dict(box, **{sim_uid(c): c for c in missing})) == []


# --- LEDs ------------------------------------------------------------------------------------------

MODES_MAX = {"dot": lambda seg: seg["length"], "count": lambda seg: seg["length"], "fill": lambda seg: 255,
             "dim": lambda seg: 255}


@pytest.mark.parametrize("players,variants", [(2, []), (3, []), (4, []), (4, ["two_on_two"]), (5, []), (6, [])])
def test_every_profile_has_each_segment_the_game_draws(players, variants):
    profile = P.for_game("lcg", players)
    assert profile["game"] == "lcg" and [r["role"] for r in profile["readers"]] == ["seat"] * players
    segs = {s["name"]: s for s in profile["segments"]}
    state = game(players=players, variants=variants)
    rng = random.Random(players)
    for _ in range(300):
        if state["over"]:
            break
        drawn = ltable.segments(view(state, PUBLIC))
        assert set(drawn) == set(segs)
        for name, (level, rgb, pattern, period) in drawn.items():
            assert 0 <= level <= MODES_MAX[segs[name].get("mode", "fill")](segs[name]), (name, level)
            assert len(rgb) == 3 and pattern in ("solid", "blink", "pulse")
        a = state["asks"][0]
        apply(state, {"seat": a["seat"], "ask": a["id"], "choice": rng.choice(a["choices"])})


def test_the_strip_shows_the_phase_the_challenge_the_power_the_first_player_and_who_must_act():
    state = game(players=3, seed=2)
    rng = random.Random(2)
    while not (state["g"]["challenge"] and state["g"]["challenge"]["attackers"]):
        a = state["asks"][0]
        apply(state, {"seat": a["seat"], "ask": a["id"], "choice": rng.choice(a["choices"])})
    v = view(state, PUBLIC)
    ch = v["challenge"]
    segs = ltable.segments(v)
    assert segs["phase"][0] == 4  # the fourth phase: challenges
    assert segs["challenge"][:2] == (ltable.TYPES.index(ch["type"]) + 1, ltable.TYPE_RGB[ch["type"]])
    acting = {a["seat"] for a in v["asks"]}
    for seat in range(3):
        level, rgb, pattern, _ = segs["seat%d" % seat]
        if seat in acting:
            assert (rgb, pattern) == (lights.TO_ACT, "pulse")
        elif seat == ch["attacker"]:
            assert (level, rgb) == (255, ltable.TYPE_RGB[ch["type"]])
        assert segs["first%d" % seat][0] == (255 if seat == v["first"] else 0)
        power = v["seats"][seat]["total_power"]
        assert segs["power%d" % seat][0] == min(power, 14) * 17  # one pixel a power of 15 (fill_level(k, 15))


def test_two_on_two_shows_the_teams_power_toward_30_one_pixel_per_two():
    state = game(players=4, variants=["two_on_two"])
    g = state["g"]
    for power, pixels in ((0, 0), (1, 1), (2, 1), (3, 2), (16, 8), (29, 14), (30, 15)):
        g["players"][0]["power"], g["players"][2]["power"] = power - power // 2, power // 2
        segs = ltable.segments(view(state, PUBLIC))
        assert segs["power0"][0] == segs["power2"][0] == pixels * 17, (power, segs["power0"])
        assert segs["power1"][0] == 0


def lockstep(worlds, pick, until):
    """Play both worlds on until `until(events)`, checking before every step that the public views,
    and so the strips, are the same. `pick(world, ask)` chooses; it may choose differently
    only where the choice is hidden."""
    steps = 0
    while not until(worlds[0][1]):
        views = [view(s, PUBLIC) for s, _ in worlds]
        assert views[0] == views[1], "the public views differ after %d steps" % steps
        assert ltable.segments(views[0]) == ltable.segments(views[1])
        for i, (s, events) in enumerate(worlds):
            a = s["asks"][0]
            result = apply(s, {"seat": a["seat"], "ask": a["id"], "choice": pick(i, s, a)})
            assert result.ok
            events.extend(result.events)
        steps += 1
    return steps


def test_two_states_differing_only_in_hidden_things_light_the_same_strip():
    base = game(players=2, seed=7)
    worlds = [[copy.deepcopy(base), []], [copy.deepcopy(base), []]]
    rng = [random.Random(7), random.Random(7)]

    def pick(i, s, a):
        if a["seat"] == 0:  # seat 0 draws other cards in each world, keeps them, picks other plots
            if a["kind"] in ("draw", "plot"):
                return a["choices"][0 if i == 0 else -1]
            return ["done"] if ["done"] in a["choices"] else ["pass"] if ["pass"] in a["choices"] else a["choices"][0]
        return rng[i].choice(a["choices"])
    steps = lockstep(worlds, pick, lambda events: any(e["e"] == "plots_revealed" for e in events))
    (s1, _), (s2, _) = worlds
    assert steps > 20 and s1["g"]["players"][0]["hand"] != s2["g"]["players"][0]["hand"]
    assert s1["g"]["players"][0]["revealed"] != s2["g"]["players"][0]["revealed"]


def test_what_a_seat_draws_mid_game_changes_nothing_the_table_sees_for_two_rounds():
    state = game(players=2, seed=11)
    rng = random.Random(11)
    while not (state["g"]["round"] >= 2 and state["asks"][0]["kind"] == "draw" and state["asks"][0]["seat"] == 1):
        a = state["asks"][0]
        apply(state, {"seat": a["seat"], "ask": a["id"], "choice": rng.choice(a["choices"])})
    worlds = [[copy.deepcopy(state), []], [copy.deepcopy(state), []]]
    rngs = [random.Random(12), random.Random(12)]
    last = state["g"]["round"] + 2

    def pick(i, s, a):
        if a["seat"] == 1:  # seat 1 draws other cards in each world and keeps them in hand
            if a["kind"] == "draw":
                return a["choices"][0 if i == 0 else -1]
            for quiet in (["done"], ["pass"], ["house"]):
                if quiet in a["choices"]:
                    return quiet
            return a["choices"][0]
        # Seat 0 plays on at random, but makes no intrigue challenge: its claim would discard cards
        # at random from seat 1's hand, face up, which is public (and differs between the worlds).
        return rngs[i].choice([c for c in a["choices"] if c[:2] != ["challenge", "intrigue"]])
    steps = lockstep(worlds, pick, lambda events: any(e["e"] == "round" and e["round"] > last or e["e"] == "game_over"
                                                      for e in events))
    (s1, e1), (s2, e2) = worlds
    assert steps > 40, steps
    assert s1["g"]["players"][1]["hand"] != s2["g"]["players"][1]["hand"]
    assert filter_events(e1, 0) == filter_events(e2, 0)


# --- the sim-board and a whole game through `maester play lcg --port` -------------------------------

def test_sim_board_takes_the_lcg_table_with_a_reader_per_seat(tmp_path):
    script = tmp_path / "taps.txt"
    script.write_text("tap seat2 S5#0\nwait 100\nstrip\nquit\n")
    r = subprocess.run(maester_cmd("sim-board", "--game", "lcg", "--players", "3", "--script", str(script),
                                   "--no-strip"), capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    lines = r.stdout.splitlines()
    assert r.returncode == 0, r.stderr
    assert lines[1] == "board: lcg-3p (pico build), readers: 0 seat0, 1 seat1, 2 seat2"
    assert "ok: tap seat2 S5#0" in lines
    strip = next(line for line in lines if line.startswith("strip: ["))
    assert len(strip) == len("strip: []") + 64


def test_a_whole_two_player_game_through_play_port_against_a_sim_board_ends_as_the_engine_alone(table_game):
    t = table_game("lcg", 2, 29)
    t.start("--sim-stickers")
    play_out(t, random.Random(29))
    assert t.finish() == 0, t.output()
    assert final_state(t) == t.direct
    out = t.output()
    assert t.taps > 100 and t.page_choices > 50
    assert "refused" not in out and "Final power (15 to win)" in out
    # Nothing a seat drew was printed on the shared screen (it names cards only once face up).
    assert "You drew" not in out and "Your discarded" not in out
