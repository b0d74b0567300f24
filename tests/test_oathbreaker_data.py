"""Oathbreaker card data: schema and checks, provenance, the assumed values an owner should check,
the labelled simulation filler, owner corrections, the heuristic bots, and the table's LEDs."""

import json
import random
import shutil
from pathlib import Path

import pytest

from maester.cards import db as cardsdb
from maester import cli
from maester.cards import check
from maester.engine.bots import make_bot
from maester.engine import PUBLIC, apply, cardtables, new_game, view
from maester.games import oathbreaker as O
from maester.games.oathbreaker import table as otable
from maester.table import lights

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = json.loads((ROOT / "cards_db" / "oathbreaker" / "cards.json").read_text())
SECTIONS = ("missions", "decrees", "influence", "ambitions", "characters")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MAESTER_CARDS_DB", raising=False)
    cardsdb.forget_cache()
    yield tmp_path / "home"
    cardsdb.forget_cache()


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_card_data_passes_its_schema_and_checks_and_fills_the_box():
    assert check.validate("oathbreaker") == []
    table = O.card_table(owner=False)
    assert len(table["influence_instances"]) == 75 and len(table["mission_instances"]) == 33
    assert len(table["decree_instances"]) == 36 and len(table["ambition_instances"]) == 7
    assert len(table["character_ids"]) == 12
    comp = table["components"]
    assert all(len(comp["round_track"][k]) == 7 for k in ("5", "6", "7", "8"))


def test_every_card_the_rulebook_names_is_in_the_data_with_its_ability():
    by_name = {r["name"]: r for s in SECTIONS for r in SHIPPED[s]}
    expected = {
        "Battle of the Bay": "discard_one", "Consult the Maesters": "extra_cards", "Invoke R'hllor": "extra_cards",
        "Rumors Across the Narrow Sea": "extra_cards", "Infiltrate Dorne": "must_play_here",
        "Mission to Braavos": "extra_sabotage", "Summit of Queens": "extra_sabotage",
        "Trial By Combat": "extra_sabotage", "Pincer Maneuver": "pincer", "Feed Flea Bottom": None,
        "Hire the Faceless Men": None,
        "The Black Cells": "black_cells", "Confess!": "confess", "Execution": "execution", "A Fair Trial": "vote",
        "Hero of the People": "vote", "Well-Placed Spy": "spy", "Broken Trust": "broken_trust", "Cornered": "cornered",
        "Arya Stark": "arya", "Daenerys Targaryen": "daenerys", "Melisandre": "melisandre",
        "Stannis Baratheon": "stannis", "Ned Stark": "manual",
    }
    for name, ability in expected.items():
        assert by_name[name]["ability"] == ability, name
        assert by_name[name]["src"]["name"] == "rulebook", name
    assert by_name["Prestigious"]["honor"] == 2 and by_name["Prestigious"]["power"] == 2
    assert [by_name["Visionary"][r] for r in ("coin", "honor", "power")] == [1, 1, 1]


def test_every_assumed_value_is_listed_with_a_note():
    rep = check.report("oathbreaker")
    items = [(g["group"], i) for g in rep["assumed"] for i in g["items"]]
    listed = {(i["card"], i["field"]) for _, i in items}
    for key in [("round_track", "5"), ("round_track", "8"), ("order_chaos_track", "length"), ("agent_value", "5"),
                ("feed-flea-bottom", "success"), ("the-black-cells", "value"), ("sabotage", "copies"),
                ("consult-the-maesters", "amount"), ("stannis-baratheon", "cost"), ("ned-stark", "ability")]:
        assert key in listed, key
    assert all(i["note"].strip() for _, i in items)
    assert ("loyalty", "5") not in listed and ("judgment_bonus", "value") not in listed   # printed in the rulebook
    for section in SECTIONS:
        for rec in SHIPPED[section]:
            if "assumed" in rec["src"].values():
                assert rec.get("note"), rec["id"]


def test_simulation_filler_is_labelled_everywhere():
    rep = check.report("oathbreaker")
    rows = {r["kind"]: r for r in rep["simulation"]}
    assert rows["missions"]["summary"] == "22 of 33 mission cards are simulation filler"
    assert rows["decrees"]["filler"] == 28 and rows["ambitions"]["filler"] == 5 and rows["characters"]["filler"] == 1
    for section in SECTIONS:
        for rec in SHIPPED[section]:
            sim = rec["id"].startswith("sim-")
            assert sim == bool(rec.get("simulation")) == ("(simulation)" in rec["name"]), rec["id"]
            if sim:
                assert set(rec["src"].values()) == {"simulation"}
    info = O.card_table(owner=False)["info"]
    assert all(r["sim"] == ("(simulation)" in r["name"]) for r in info.values())


def test_an_enrolled_card_pushes_simulation_filler_out_of_the_game():
    path = cardsdb.owner_file("oathbreaker")
    path.parent.mkdir(parents=True)
    mission = {"id": "the-red-wedding", "name": "The Red Wedding", "copies": 1, "influence": "sword",
               "success": {"order": 2, "coin": 0, "honor": 0, "power": 2},
               "failure": {"chaos": 4, "coin": 0, "honor": 0, "power": 0}, "ability": None,
               "text": "Enrolled from a box.", "src": {"name": "owner", "influence": "owner", "success": "owner",
                                                         "failure": "owner", "ability": "owner"}}
    decree = dict(next(r for r in SHIPPED["decrees"] if r["id"] == "the-black-cells"), value=4,
                  decree="suspicion", src={"name": "rulebook", "decree": "owner", "value": "owner", "ability": "rulebook"})
    decree.pop("note")
    path.write_text(json.dumps({"game": "oathbreaker", "missions": [mission], "decrees": [decree]}))
    assert check.validate("oathbreaker") == []
    cardsdb.forget_cache()
    table = O.card_table()
    assert "the-red-wedding#1" in table["mission_instances"] and len(table["mission_instances"]) == 33
    assert sum(1 for m in table["mission_instances"] if m.startswith("sim-")) == 21
    assert table["info"]["the-black-cells"]["value"] == 4
    fields = {i["field"] for g in check.report("oathbreaker")["assumed"] for i in g["items"]
              if i["card"] == "the-black-cells"}
    assert fields == set()                          # the owner's values are no longer assumptions
    state, _ = new_game("oathbreaker", {"players": 6}, 1)
    assert "the-red-wedding#1" in cardtables.table(state)["mission_instances"]


def test_an_ability_the_engine_lacks_is_reported(tmp_path, monkeypatch):
    root = tmp_path / "db"
    shutil.copytree(ROOT / "cards_db", root)
    monkeypatch.setenv("MAESTER_CARDS_DB", str(root))
    data = json.loads((root / "oathbreaker" / "cards.json").read_text())
    data["decrees"][0]["ability"] = "dragonfire"
    data["missions"][0]["influence"] = "coin"
    (root / "oathbreaker" / "cards.json").write_text(json.dumps(data))
    problems = check.validate("oathbreaker")
    assert any("'dragonfire'" in p and "engine implements" in p for p in problems), problems
    assert any("feed-flea-bottom" in p and "'coin'" in p for p in problems), problems


def test_cards_check_prints_the_checklist_and_add_says_what_to_do(capsys):
    code, out, err = run(capsys, "cards", "check", "oathbreaker")
    assert code == 0, err
    assert "round track" in out and "Feed Flea Bottom" in out and "of 33 mission cards are simulation filler" in out
    code, out, _ = run(capsys, "cards", "check", "oathbreaker", "--json")
    assert code == 0 and json.loads(out)["problems"] == []
    code, _, err = run(capsys, "cards", "add", "oathbreaker", "--name", "Dragonstone")
    assert code != 0 and "cannot enroll oathbreaker cards yet" in err


def test_a_broken_character_board_is_refused():
    data = cardsdb.load("oathbreaker", owner=False)
    broken = json.loads(json.dumps(data))
    next(c for c in broken["characters"] if c["id"] == "arya-stark")["side"] = "diamond"
    with pytest.raises(ValueError, match="Character Board 'stark'"):
        O._build_table(broken)


def test_choices_read_as_words():
    from oathbreaker_harness import Table
    t = Table(6)
    t.start(1)
    game = O.GAME
    words = [game.describe_choice(t.state, t.ask(), c) for c in t.choices(1)]
    assert any(w.startswith("play ") and "to mission 0 (" in w for w in words)


# --- bots -------------------------------------------------------------------------------------------

def test_the_heuristic_bots_decide_from_their_own_view_alone():
    from test_oathbreaker_leaks import hide_differently, may_see
    state, _ = new_game("oathbreaker", {"players": 6, "owner_cards": False}, 9)
    info = cardtables.table(state)["info"]
    rng = random.Random(9)
    bots = [make_bot("oathbreaker", "heuristic", 1, s, info) for s in range(6)]
    checked = 0
    while not state["over"]:
        ask = state["asks"][0]
        seat = ask["seat"]
        choice = bots[seat].choose(view(state, seat), ask)
        assert choice in ask["choices"]
        for secret_of in range(6):
            if may_see(state, seat, secret_of):
                continue
            other = hide_differently(state, secret_of, rng)
            assert bots[seat].choose(view(other, seat), ask) == choice
            checked += 1
        assert apply(state, {"seat": seat, "ask": ask["id"], "choice": choice}).ok
    assert checked > 200


def test_the_king_bot_judges_better_than_chance_and_nobles_play_their_loyalty():
    from maester.sim import play_one
    right = total = 0
    king_wins = 0
    for seed in range(40):
        state, _ = play_one("oathbreaker", {"players": 6, "owner_cards": False}, seed, "heuristic")
        g = state["g"]
        right += sum(g["guesses"][s] == g["loyalty"][s] for s in g["nobles"])
        total += len(g["nobles"])
        king_wins += state["result"]["realm"] == "order"
    assert right / total > 0.55
    assert king_wins > 40 * 0.3


# --- the table ------------------------------------------------------------------------------------

def test_leds_come_from_the_public_view():
    from oathbreaker_harness import Table
    t = Table(6)
    t.start(3)
    v = t.view(PUBLIC)
    segs = otable.segments(v)
    assert segs["seat0"][1] == otable.MONARCH and segs["seat3"][1] == lights.TO_ACT
    assert segs["order"][0] == 0 and segs["round"][0] == 0
    t.g["order"] = 15
    assert otable.segments(t.view(PUBLIC))["order"][0] == 15 * 255 // 30
