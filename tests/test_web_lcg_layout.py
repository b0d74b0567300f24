"""The LCG's own seat and table pages (games/lcg/web.py), as the blocks the pages draw.

Pure Python: games played at random to a challenge in progress, a plot choice and the end, then
the layout functions read as a person would read the pages: what the table shows never changes
with a hidden card, a seat's hand is behind its own tab, the winner comes first at the end.
"""

import copy
import json
import random

import pytest

from maester.cards import db as cardsdb
from maester.engine import PUBLIC, cardtables, core
from maester.engine.session import Session
from maester.web.payload import Words
from layout_blocks import card_names, seat, table, texts
from page_checks import word_problems

CONFIG = {"players": 2, "decks": ["stark", "lannister"], "owner_cards": False}


def play(seed, until, config=CONFIG, limit=5000):
    """A game played at random until `until(state, ask)` holds for a seat's ask (or its end)."""
    session = Session.new("lcg", dict(config), seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if session.state["over"]:
            return session.state
        ask = session.state["asks"][0]
        if isinstance(ask["seat"], int) and until(session.state, ask):
            return session.state
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    raise AssertionError("the state wanted never came")


def defending(state, ask):
    ch = state["g"]["challenge"]
    return ask["kind"] == "defenders" and ch is not None and len(ch["attackers"]) >= 2


def plot_chosen_by_one(state, ask):
    """The plot phase, seat 0 has chosen its plot (face down) and seat 1 is choosing."""
    return ask["kind"] == "plot" and state["g"]["round"] >= 2 and state["g"]["players"][0]["chosen"] is not None


@pytest.fixture(scope="module")
def states(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:  # the shipped card data (conftest.shipped_data, for a module)
        mp.setenv("MAESTER_HOME", str(tmp_path_factory.mktemp("home")))
        mp.delenv("MAESTER_CARDS_DB", raising=False)
        cardsdb.forget_cache()
        out = {"challenge": play(7, defending), "plot": play(7, plot_chosen_by_one),
               "over": play(7, lambda s, a: False, limit=100000),
               "four": play(5, defending, dict(CONFIG, players=4, decks=["stark", "lannister", "baratheon",
                                                                         "targaryen"]))}
        cardsdb.forget_cache()
    return out






def name_of(state, inst):
    return cardtables.table(state)["cards"][inst.split("#")[0]]["name"]


def hide_differently(state, s):
    """The same table with seat `s`'s hidden cards swapped: a card of its hand with one of its
    deck, and its chosen plot (if any) with another of its plots."""
    other = copy.deepcopy(state)
    g = other["g"]
    p = g["players"][s]
    i = next(i for i, c in enumerate(p["deck"]) if name_of(other, c) != name_of(other, p["hand"][0]))
    p["hand"][0], p["deck"][i] = p["deck"][i], p["hand"][0]
    g["cards"][p["hand"][0]]["zone"], g["cards"][p["deck"][i]]["zone"] = "hand", "deck"
    if p["chosen"] is not None and p["plots"]:
        p["chosen"], p["plots"][0] = p["plots"][0], p["chosen"]
    return other


@pytest.mark.parametrize("moment", ["challenge", "plot"])
def test_the_table_and_the_other_seat_show_nothing_of_a_seats_hidden_cards(states, moment):
    state = states[moment]
    other = hide_differently(state, 0)
    assert seat(other, 0)["secret"] != seat(state, 0)["secret"]  # seat 0 itself sees the change
    assert json.dumps(table(other)) == json.dumps(table(state))
    assert json.dumps(seat(other, 1)) == json.dumps(seat(state, 1))


def test_a_seats_hand_plot_deck_and_chosen_plot_are_behind_its_own_tab(states):
    state = states["plot"]
    p = state["g"]["players"][0]
    mine = seat(state, 0)
    secret_names = card_names(mine["secret"])
    for inst in p["hand"] + p["plots"] + [p["chosen"]]:
        assert name_of(state, inst) in secret_names
    assert mine["hand_count"] == len(p["hand"])
    # The chosen plot is face down: not on the table, not in the other seat's page, until revealed.
    chosen = name_of(state, p["chosen"])
    shown = card_names(table(state)) + card_names(seat(state, 1))
    if chosen not in [name_of(state, c) for c in p["used"] + [p["revealed"]] if c]:
        assert chosen not in shown
    assert any("next plot chosen, face down" in t for t in texts(table(state)))


def test_the_plot_choice_shows_the_plots_each_seat_has_revealed(states):
    state = states["plot"]
    about = seat(state, 1)["about"]
    plots = next(b for b in about if b.get("title") == "Plots revealed so far")
    for row in plots["rows"]:
        p = state["g"]["players"][row["seat"]]
        assert [c["name"] for c in row["cells"][0]] == [name_of(state, c) for c in p["used"] + [p["revealed"]]]
        assert row["cells"][1] == str(len(p["plots"]))


def test_the_challenge_shows_both_sides_with_their_str_on_the_table_and_by_the_defenders_buttons(states):
    state = states["challenge"]
    ch = state["g"]["challenge"]
    for blocks in (table(state), seat(state, ch["defender"])["about"]):
        block = next(b for b in blocks if b.get("title", "").endswith("challenge: %s against %s" % (
            web_seat(state, ch["attacker"]), web_seat(state, ch["defender"]))))
        attack = block["items"][0]
        assert [c["name"] for c in attack["cards"]] == [name_of(state, c) for c in ch["attackers"]]
        assert all(c["note"].startswith("STR ") for c in attack["cards"])
        total = sum(int(c["note"].split()[1]) for c in attack["cards"])
        assert attack["title"].endswith("STR %d" % total)
        assert block["items"][1]["lines"] == ["no characters yet"]  # defenders not declared yet


def web_seat(state, s):
    view = core.view(state, PUBLIC)
    return Words(state, view, PUBLIC).seat(s)


def test_the_round_track_lights_the_current_phase_only(states):
    state = states["challenge"]
    track = next(b for b in table(state) if b["type"] == "track")
    assert track["title"] == "Round %d" % state["g"]["round"]
    assert [c["label"] for c in track["cells"] if c["state"] == "now"] == ["Challenges"]
    assert [c["state"] for c in track["cells"][:3]] == ["done"] * 3


def test_each_seat_shows_its_power_toward_the_goal_and_its_cards_in_play_knelt_ones_marked(states):
    state = states["four"]
    g = state["g"]
    panels = next(b for b in table(state) if b["type"] == "panels" and not b.get("title"))
    assert len(panels["items"]) == 4
    for s, item in enumerate(panels["items"]):
        p = g["players"][s]
        assert item["title"] == "%s: %d of 15 power" % (web_seat(state, s), state_power(state, s))
        chips = [c for _, cards in item["groups"] for c in cards]
        assert sorted(c["name"] for c in chips) == sorted(name_of(state, c) for c in p["play"]
                                                          if g["cards"][c]["on"] is None)
        for c in chips:
            assert ("knelt" in c.get("tags", ())) == g["cards"][c["id"]]["kneel"]
    titles = [t for t in texts(table(state)) if t.startswith("Title: ")]
    assert titles  # melee: each seat's title


def state_power(state, s):
    return core.view(state, PUBLIC)["seats"][s]["total_power"]


def test_at_the_end_both_pages_show_the_winner_and_the_power_first(states):
    state = states["over"]
    res = state["result"]
    for blocks in (table(state), seat(state, 0)["about"], seat(state, 1)["about"]):
        first = blocks[0]
        assert first["type"] == "seats" and "wins after %d rounds" % res["rounds"] in first["title"]
        assert first["rows"][0]["seat"] in res["winners"] and first["rows"][0]["tags"] == ["winner"]
        assert sorted((r["seat"], int(r["cells"][0])) for r in first["rows"]) == list(enumerate(res["power"]))


@pytest.mark.parametrize("moment", ["challenge", "plot", "over", "four"])
def test_no_engine_field_name_reaches_the_pages(states, moment):
    state = states[moment]
    words = texts(table(state)) + texts(seat(state, 0)) + texts(seat(state, 1))
    problems = word_problems("\n".join(words), core.view(state, 0))
    assert not problems
    assert not [w for w in words if "#" in w]  # no card id
