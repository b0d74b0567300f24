"""Westeros Intrigue's own seat and table pages (games/intrigue/web.py), as the blocks the pages draw.

Pure Python first: games played at random, then the layout read as a player reads the pages: the
court is a pyramid with every card across the two it rests on, every place the seat may take is a
place to tap, the table shows nothing hidden, the hand is behind the seat's own tab, the result
comes first at the end. Then one Chromium test: on a phone, tap a card of the hand, then a lit
place of the court, and the card is in the court there.
"""

import json
import random

import pytest

from maester.engine import PUBLIC, core
from maester.engine.session import Session
from maester.games.intrigue import court as C
from maester.games.intrigue import web
from maester.web.payload import Words
from layout_blocks import texts
from page_checks import word_problems
from test_intrigue import hide_differently
from test_web import open_page, phone, seat_url, served, wait_until  # noqa: F401 — phone: a fixture

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

CONFIGS = [{"players": 4}, {"players": 2, "variants": ["narrow_two"]}, {"players": 5, "variants": ["mat"]},
           {"players": 6}, {"players": 3, "variants": ["mat", "winner_starts", "floor", "most_swords"]}]


def session_of(config, seed):
    return Session.new("intrigue", dict(config, owner_cards=False), seed)


def states(config, seed, limit=100000):
    """Every state of one random game, with its seat's place ask when there is one."""
    session = session_of(config, seed)
    rng = random.Random(seed)
    for _ in range(limit):
        state = session.state
        ask = state["asks"][0] if state["asks"] else None
        yield state, ask
        if state["over"]:
            return
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok


def play_until(config, seed, until):
    for state, ask in states(config, seed):
        if until(state, ask):
            return state
    raise AssertionError("the state wanted never came")


def blocks_for(state, viewer):
    v = core.view(state, viewer)
    words = Words(state, v, viewer)
    return (web.table_blocks(v, words) if viewer == PUBLIC else web.seat_blocks(v, words, viewer)), v, words


def pyramid_in(blocks):
    found = [b for b in blocks if b["type"] == "pyramid"]
    assert len(found) == 1, [b["type"] for b in blocks]
    return found[0]


def places(pyr):
    """{card id or target: (row from the base, centre across the box, in places)} for every drawn cell."""
    out = {}
    height = len(pyr["rows"])
    for i, row in enumerate(pyr["rows"]):
        r = height - 1 - i
        for k, cell in enumerate(row["cells"]):
            centre = row["indent"] / 2 + k + 0.5
            assert centre <= pyr["columns"], "a place drawn beyond the pyramid's width"
            if cell and cell.get("slot"):
                if cell.get("target"):
                    out[cell["target"]] = (r, centre)
            elif cell:
                out[cell["id"]] = (r, centre)
    return out


# --- the court -------------------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "%d players %s" % (c["players"], c.get("variants", "")))
def test_every_place_a_seat_may_take_is_a_lit_place_of_its_court_for_that_card(config):
    checked = firsts = ends = 0
    for state, ask in states(config, seed=config["players"] * 7):
        if ask is None or ask["kind"] != "place":
            continue
        seat = ask["seat"]
        blocks, v, words = blocks_for(state, seat)
        drawn = places(pyramid_in(blocks["about"]))
        for choice in ask["choices"]:
            mark = web.option_mark(v, ask, choice)
            _, inst, row, pos = choice
            assert mark == {"pick": inst, "pick_name": words.card(inst), "at": "%d,%d" % (row, pos)}
            assert mark["at"] in drawn, "a legal place not drawn: %s (%s)" % (choice, state["g"]["court"]["span"])
            assert drawn[mark["at"]][0] == row
            court = state["g"]["court"]
            firsts += court["span"][0] is None
            ends += row == 0 and court["span"][0] is not None
            checked += 1
    assert checked > 50 and ends  # the ends of the base were among them, and the first card but with
    assert firsts or config["players"] == 5  # five players (a spare card starts the court)


def test_the_court_is_a_pyramid_each_card_across_the_two_it_rests_on():
    state = play_until({"players": 4}, 3, lambda s, a: sum(s["g"]["court"]["count"]) >= 22)
    court = state["g"]["court"]
    for viewer in (PUBLIC, 1):
        blocks, _, _ = blocks_for(state, viewer)
        drawn = places(pyramid_in(blocks if viewer == PUBLIC else blocks["about"]))
        assert set(C.placed_cards(court)) <= set(drawn)  # every card of the court, once
        for r in range(1, court["width"]):
            for x, inst in enumerate(court["cards"][r]):
                if inst is None:
                    continue
                left, right = court["cards"][r - 1][x], court["cards"][r - 1][x + 1]
                assert drawn[inst][0] == r and drawn[left][0] == drawn[right][0] == r - 1
                assert drawn[left][1] == drawn[inst][1] - 0.5 and drawn[right][1] == drawn[inst][1] + 0.5


def test_the_court_is_in_house_colours_with_full_names_on_the_tv_and_short_ones_on_a_phone():
    state = play_until({"players": 4}, 3, lambda s, a: s["g"]["court"]["count"][0] == 8)
    court = state["g"]["court"]
    tv = pyramid_in(blocks_for(state, PUBLIC)[0])
    phone = pyramid_in(blocks_for(state, 2)[0]["about"])
    cards = lambda pyr: {c["id"]: c for row in pyr["rows"] for c in row["cells"] if c and not c.get("slot")}  # noqa: E731
    base = court["cards"][0][court["span"][0][0]]
    house, copy = base.split("#")
    assert cards(tv)[base]["name"] == "%s %s" % (house.capitalize(), copy)
    assert cards(phone)[base]["name"] == house[0].upper() + copy
    assert all(c["house"] == c["id"].split("#")[0] for c in cards(tv).values())
    assert phone["columns"] == tv["columns"] == 8  # a full base: its eight places, no more


def test_the_empty_court_offers_the_first_card_its_place_and_other_asks_stay_buttons():
    session = session_of({"players": 3}, 5)
    ask = session.state["asks"][0]
    blocks, v, _ = blocks_for(session.state, ask["seat"])
    first = {web.option_mark(v, ask, c)["at"] for c in ask["choices"]}
    assert first == {"0,7"} and first <= set(places(pyramid_in(blocks["about"])))


def test_while_the_seats_tap_in_their_dealt_cards_nobody_has_the_turn_and_the_taps_stay_buttons():
    state = session_of({"players": 3, "observe": ["hands"]}, 1).state
    facts = dict(blocks_for(state, PUBLIC)[0][0]["items"])
    assert facts["Round"] == "1 of 3" and "Turn" not in facts
    ask = state["asks"][0]
    v = core.view(state, ask["seat"])
    assert ask["kind"] == "observe_hand" and all(web.option_mark(v, ask, c) is None for c in ask["choices"])


# --- what the pages hold -----------------------------------------------------------------------------

def test_the_table_blocks_and_a_seats_blocks_never_change_with_what_that_viewer_may_not_see():
    rng = random.Random(4)
    checked = changed = 0
    for n, (state, ask) in enumerate(states({"players": 4}, 11)):
        if state["over"] or n % 6:
            continue
        for viewer in (PUBLIC, 0, 1, 2, 3):
            other = hide_differently(state, viewer, rng)
            changed += other["g"]["hands"] != state["g"]["hands"]
            assert json.dumps(blocks_for(other, viewer)[0]) == json.dumps(blocks_for(state, viewer)[0])
            checked += 1
    assert checked > 50 and changed > 40


def test_the_table_shows_the_round_the_turn_and_the_seats_in_words_and_no_hand():
    state = play_until({"players": 4}, 3, lambda s, a: s["g"]["round"] == 3 and s["g"]["court"]["count"][0] >= 6)
    blocks, v, _ = blocks_for(state, PUBLIC)
    facts = dict(blocks[0]["items"])
    g = state["g"]
    assert facts["Round"] == "3 of 4" and facts["Started by"] == "Seat %d" % g["starter"]
    assert facts["Turn"] == "Seat %d" % g["turn"] and state["asks"][0]["seat"] == g["turn"]
    seats = [b for b in blocks if b["type"] == "seats"][0]
    assert seats["columns"][-2:] == ["Round 1", "Round 2"]
    for row in seats["rows"]:
        s = row["seat"]
        assert row["cells"][:3] == [str(len(g["hands"][s])), str(g["penalties"][s]), str(len(g["thrones"][s]))]
    won = g["history"][0]["winner"]
    assert seats["rows"][won]["cells"][3].startswith("won")
    text = json.dumps(blocks)
    assert not any(c in text for h in g["hands"] for c in h)
    assert not any(c in text for t in g["thrones"] for c in t)
    assert word_problems(" ".join(texts(blocks)), v) == []
    assert "House rules" not in text  # the rulebook's rules: nothing to say



def test_rules_that_are_not_the_rulebooks_are_said_intexts():
    state = session_of({"players": 5, "variants": ["mat", "winner_starts", "floor"]}, 2).state
    blocks, v, _ = blocks_for(state, PUBLIC)
    said = [b for b in blocks if b.get("title") == "House rules in play"]
    assert len(said) == 1
    text = said[0]["text"]
    assert "printed mat" in text and "winner of a round starts" in text and "never goes below zero" in text
    assert word_problems(text, v) == []


def test_a_seats_table_tab_shows_the_rounds_played_and_to_come_and_the_seats():
    state = play_until({"players": 4}, 3, lambda s, a: s["g"]["round"] == 3 and a and a["kind"] == "place")
    board = blocks_for(state, 2)[0]["board"]
    track, seats = board[0], board[1]
    assert [c["state"] for c in track["cells"]] == ["done", "done", "now", "todo"]
    assert track["caption"] == "1 round after this one"
    assert [r["seat"] for r in seats["rows"]] == [0, 1, 2, 3] and "you" in seats["rows"][2]["tags"]
    played = [b for b in board if b.get("title") == "Rounds played"][0]
    assert [p["title"] for p in played["items"]] == ["Round 1", "Round 2"]
    assert played["items"][0]["lines"][0] == "won by Seat %d" % state["g"]["history"][0]["winner"]


def test_a_seats_hand_and_iron_throne_cards_are_behind_its_own_tab():
    state = play_until({"players": 4}, 3, lambda s, a: s["g"]["round"] == 3 and a and a["kind"] == "place")
    for seat in range(4):
        blocks, _, _ = blocks_for(state, seat)
        hand, thrones = blocks["secret"]
        g = state["g"]
        assert [c["id"] for c in hand["cards"]] == g["hands"][seat] and blocks["hand_count"] == len(g["hands"][seat])
        assert all(c["house"] == c["id"].split("#")[0] for c in hand["cards"])
        assert [c["id"] for c in thrones["cards"]] == g["thrones"][seat]
        shown = json.dumps(blocks["about"]) + json.dumps(blocks["board"])
        assert not any(c in shown for c in g["hands"][seat] + g["thrones"][seat])


def test_the_result_comes_first_when_the_game_is_over():
    state = play_until({"players": 4}, 3, lambda s, a: s["over"])
    res = state["result"]
    winner = res["winners"][0]
    table, _, _ = blocks_for(state, PUBLIC)
    assert table[0]["text"] == "Seat %d wins the game." % winner
    scores = table[1]
    assert [r["seat"] for r in scores["rows"]] == res["ranking"]
    assert scores["columns"] == ["Penalty points", "Iron Throne worth", "Swords", "Score"]
    assert "winner" in scores["rows"][0]["tags"] and scores["rows"][0]["cells"][3] == str(res["scores"][winner])
    assert not any(b["type"] == "facts" for b in table)  # no round to play any more
    loser = res["ranking"][-1]
    for s, line in ((winner, "You win the game."), (loser, table[0]["text"])):
        seat, _, _ = blocks_for(state, s)
        assert seat["about"][0]["text"] == line and seat["about"][1]["rows"] == [
            dict(r, tags=r["tags"] + (["you"] if r["seat"] == s else [])) for r in scores["rows"]]


# --- the phone: tap a card, then a lit place -----------------------------------------------------------

def test_on_a_phone_a_seat_taps_a_card_then_a_lit_place_and_the_card_is_placed_there(phone):  # noqa: F811 (the fixture from test_web)
    session = session_of({"players": 4}, 3)
    rng = random.Random(3)
    while sum(session.state["g"]["court"]["count"]) < 6:  # on to a court with ends and a row above
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    ask = session.state["asks"][0]
    seat = ask["seat"]
    _, card, row, pos = ask["choices"][-1]
    with served(session) as (w, base):
        open_page(phone, seat_url(w, base, seat))
        assert phone.locator('button[data-ask="%d"]:not([data-pick])' % ask["id"]).count() == 0  # no long list
        assert phone.locator(".pyr-cell.legal").count() == 0  # nothing lit before a card is picked
        phone.locator('button[data-pick="%s"]' % card).click()
        lit = phone.locator(".pyr-cell.legal")
        lit.first.wait_for()
        assert sorted(lit.evaluate_all("els => els.map(e => e.dataset.target)")) == sorted(
            "%d,%d" % (c[2], c[3]) for c in ask["choices"] if c[1] == card)
        spot = phone.locator('.pyr-cell.legal[data-target="%d,%d"]' % (row, pos))
        box = spot.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # on the screen, no sideways scroll
        spot.click()
        wait_until(lambda: session.state["g"]["court"]["cards"][row][pos] == card)
    assert session.state["asks"][0]["id"] != ask["id"]
