"""The LCG through the command line as a person uses it (`play lcg --sim`, `sim`, `bench`, `demo`,
`resume`, `--decks`), its terminal drawing, its seat and table pages, and its heuristic bot.

The games played here are compared with `sim.play_one` for the same config, seed and bots, as in
test_play.py: the terminal loop (and the simulated table under it) must make exactly the same bot
calls, so a logged game, killed or not, ends as an uninterrupted simulation does.
"""

import copy
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

from maester import games, sim
from maester.terminal import screen
from maester.engine.bots import card_info, make_bot
from maester.engine import PUBLIC, REFEREE, cardtables, core
from maester.engine.log import GameLog
from maester.engine.session import Session
from maester.games.lcg import model as M
from maester.games.lcg.cards import deck_names
from maester.games.lcg.text import Names, describe_event
from maester.table import profile as P
from maester.web import payload
from test_play import COMPARED, _entries, final_state, maester, reference
from test_web import open_page, page, seat_url, served, titles  # noqa: F401  (page: a fixture)

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

RESULT = re.compile(r"^Winners?: (.+)$", re.M)


def assert_result_printed(out, state):
    found = RESULT.findall(out)
    assert len(found) == 1, "expected one result line in:\n" + out[-2000:]
    assert sorted(int(s) for s in re.findall(r"Seat (\d)", found[0])) == state["result"]["winners"]
    for seat, power in enumerate(state["result"]["power"]):
        assert re.search(r"^  Seat %d \(\w+\) +%d" % (seat, power), out, re.M), seat


def same_game(log, bots="heuristic"):
    state, ref = final_state(log), reference(log, bots)
    assert state["over"]
    for key in COMPARED:
        assert state[key] == ref[key], key
    return state


# --- play, demo, resume ---------------------------------------------------------------------------

def test_play_sim_plays_a_whole_joust_through_the_simulated_table(tmp_path):
    log = tmp_path / "game.sqlite"
    r = maester(tmp_path, "play", "lcg", "--sim", "--plain", "--seed", "3", "--delay", "0", "--log", str(log))
    assert r.returncode == 0, r.stderr
    state = same_game(log)
    assert state["config"]["players"] == 2 and state["config"]["decks"] == ["stark", "lannister"]
    assert r.stdout.startswith("A Game of Thrones: The Card Game: 2 players, seed 3")
    assert "LED strip: [" in r.stdout and "table: refused" not in r.stdout
    # The public table, drawn whenever a round starts, and every line in words.
    assert "== Round 1 · Plot phase · first player Seat" in r.stdout
    assert re.search(r"^Seat 0 \(Stark\): power \d+ \(House \d+\) · gold \d+ · hand \d+ · deck \d+", r.stdout, re.M)
    assert re.search(r"^  characters: .+ \d+ [MIP]+", r.stdout, re.M)
    assert "{'" not in r.stdout and "Drew cards" not in r.stdout
    assert_result_printed(r.stdout, state)
    assert (tmp_path / "last").read_text().strip() == str(log.resolve())


def test_play_sim_four_players_with_decks_and_a_variant(tmp_path):
    log = tmp_path / "melee.sqlite"
    r = maester(tmp_path, "play", "lcg", "--sim", "--plain", "--no-table", "--seed", "5", "--delay", "0",
                "--bots", "random", "--decks", "targaryen,stark,Targaryen,baratheon", "--variant", "two_on_two",
                "--log", str(log))
    assert r.returncode == 0, r.stderr
    state = same_game(log, "random")
    assert state["config"]["players"] == 4  # one seat per deck
    assert state["config"]["decks"] == ["targaryen", "stark", "targaryen", "baratheon"]
    assert state["g"]["goal"] == 30 and state["result"]["winners"] in ([0, 2], [1, 3])
    assert_result_printed(r.stdout, state)


def test_demo_lcg_plays_a_whole_game(tmp_path):
    r = maester(tmp_path, "demo", "lcg", "--fast", "--plain", "--seed", "2")
    assert r.returncode == 0, r.stderr
    assert GameLog.open((tmp_path / "last").read_text().strip()).header()["extra"]["delay"] == 0  # --fast: no pause
    assert r.stdout.startswith("A Game of Thrones: The Card Game demo: 2 players, seed 2")
    state = same_game((tmp_path / "last").read_text().strip())
    assert_result_printed(r.stdout, state)


def test_a_killed_lcg_game_resumes_to_the_same_end(tmp_path):
    log = tmp_path / "killed.sqlite"
    env = dict(os.environ, MAESTER_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "maester.cli", "play", "lcg", "--sim", "--plain", "--players", "3",
                             "--delay", "0.01", "--seed", "6", "--log", str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    deadline = time.time() + 60
    while _entries(log) < 120:
        assert proc.poll() is None, "the game ended before it could be killed"
        assert time.time() < deadline, "the log never reached 120 entries"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    killed_at = final_state(log)
    assert not killed_at["over"] and killed_at["seq"] >= 120

    r = maester(tmp_path, "resume", "--delay", "0", "--plain")  # the last game, from $MAESTER_HOME/last
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Resumed %s after" % log)
    state = same_game(log)
    assert_result_printed(r.stdout, state)
    r = maester(tmp_path, "resume", "--log", str(log), "--plain")
    assert r.returncode == 0 and "This game is already over." in r.stdout
    assert_result_printed(r.stdout, state)


# --- --decks --------------------------------------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    (("play", "lcg", "--sim", "--decks", "stark,wolves"), "unknown deck 'wolves': the starter decks are stark, "
                                                          "lannister, baratheon, targaryen"),
    (("play", "lcg", "--sim", "--decks", "stark,,lannister"), "unknown deck ''"),
    (("play", "lcg", "--sim", "--players", "3", "--decks", "stark,lannister"),
     "--decks names 2 decks for 3 players: give one per seat, comma-separated, e.g. --decks "
     "stark,lannister,baratheon"),
    (("demo", "lcg", "--decks", "stark"), "--decks names 1 deck: the LCG seats 2 to 6 players"),
    (("sim", "lcg", "--decks", "stark,lannister,baratheon,targaryen,stark,lannister,baratheon"), "names 7 decks"),
    (("bench", "engine", "--game", "lcg", "--players", "2", "--decks", "stark"), "--decks names 1 deck for 2 players"),
    (("play", "btwixt", "--sim", "--decks", "stark,lannister"), "--decks is for the LCG only"),
    (("sim", "lcg", "--players", "3", "--variant", "two_on_two"), "two-on-two is for exactly 4 players"),
    (("sim", "lcg", "--variant", "melee"), "unknown variant 'melee'"),
])
def test_bad_decks_and_variants_are_refused_with_the_reason(tmp_path, args, words):
    r = maester(tmp_path, *args)
    assert r.returncode == 2, r.stdout[-500:]
    assert r.stderr.startswith("maester: ") and words in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "games").exists() or not list((tmp_path / "games").iterdir())  # nothing logged


def test_the_decks_named_in_help_are_the_data_s():
    assert list(games.STARTER_DECKS) == deck_names()
    assert sim.parse_decks("lcg", " Stark , lannister") == ["stark", "lannister"]
    assert sim.players_and_decks("lcg", None, None) == (2, None)
    assert sim.players_and_decks("lcg", None, "stark,stark,stark") == (3, ["stark", "stark", "stark"])


def test_help_names_the_lcg_its_decks_and_variants(tmp_path):
    for args in (("play", "--help"), ("demo", "--help"), ("sim", "--help"), ("bench", "--help")):
        r = maester(tmp_path, *args)
        text = " ".join(r.stdout.split())
        assert r.returncode == 0 and "lcg" in text, args
        assert "stark, lannister, baratheon" in text and "targaryen" in text, args
    play = " ".join(maester(tmp_path, "play", "--help").stdout.split())
    assert "A Game of Thrones: The Card Game: littlefinger, two_on_two" in play and "the LCG 2 to 6 (default 2)" in play
    text = " ".join(maester(tmp_path, "sim", "--help").stdout.split())
    assert "LCG: littlefinger, two_on_two" in text and "LCG 2 to 6 (default 2)" in text


# --- sim and bench --------------------------------------------------------------------------------

def test_sim_and_bench_print_their_figures(tmp_path):
    r = maester(tmp_path, "sim", "lcg", "--games", "3", "--decks", "baratheon,stark", "--bots", "heuristic")
    assert r.returncode == 0, r.stderr
    assert "lcg, 2 players with decks baratheon, stark, heuristic bots: 3 games" in r.stdout
    assert re.search(r"games/s, \d+ actions/s on one core", r.stdout) and "rounds per game: min" in r.stdout
    for players in ("2", "4"):
        r = maester(tmp_path, "bench", "engine", "--game", "lcg", "--players", players, "--games", "3", "--json")
        assert r.returncode == 0, r.stderr
        stats = json.loads(r.stdout)
        assert stats["game"] == "lcg" and stats["players"] == int(players) and stats["games"] == 3
        assert stats["decks"] == deck_names()[:int(players)] and len(stats["winners"]) == 3
        assert stats["actions"] > 0 and stats["games_per_s"] > 0 and stats["actions_per_s"] > 0
    stats = sim.run("lcg", 4, 2, 1, "heuristic", ["two_on_two", "littlefinger"], decks=["stark"] * 4)
    assert all(w in ([0, 2], [1, 3]) for w in stats["winners"]) and stats["variants"] == ["littlefinger", "two_on_two"]


# --- the bot --------------------------------------------------------------------------------------

def _mixed_game(seed, heuristic, players=2, variants=(), decks=None):
    config = {"players": players, "variants": list(variants)}
    if decks:
        config["decks"] = decks
    state, _ = core.new_game("lcg", config, seed)
    bots = [make_bot("lcg", "heuristic" if s in heuristic else "random", seed, s, card_info(state))
            for s in range(players)]
    while not state["over"]:
        ask = state["asks"][0]
        bot = bots[ask["seat"]]
        choice = bot.choose(core.view(state, ask["seat"]) if bot.uses_view else None, ask)
        assert choice in ask["choices"]
        result = core.apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice})
        assert result.ok, result.reason
    return state


def test_the_heuristic_bot_beats_the_random_bot_from_either_seat():
    for seat in (0, 1):
        wins = sum(seat in _mixed_game(100 + i, {seat})["result"]["winners"] for i in range(15))
        assert wins >= 13, (seat, wins)


@pytest.mark.parametrize("players,variants", [(3, ()), (4, ("two_on_two", "littlefinger")), (6, ("littlefinger",))])
def test_heuristic_bots_play_every_table_to_the_end(players, variants):
    for seed in range(3):
        state = _mixed_game(seed, set(range(players)), players, variants)
        assert state["result"]["rounds"] < 30


def test_the_bot_decides_from_its_own_view_only():
    """Two states that differ only in another seat's hand and deck order get the same choice."""
    state, _ = core.new_game("lcg", {"players": 2}, 8)
    bots = [make_bot("lcg", "heuristic", 8, s, card_info(state)) for s in range(2)]
    checked = 0
    while not state["over"] and checked < 60:
        ask = state["asks"][0]
        seat, other = ask["seat"], 1 - ask["seat"]
        twin = copy.deepcopy(state)
        p = twin["g"]["players"][other]
        pool = p["hand"] + p["deck"]
        random.Random(checked).shuffle(pool)
        p["hand"], p["deck"] = pool[:len(p["hand"])], pool[len(p["hand"]):]
        for inst in p["hand"]:
            twin["g"]["cards"][inst]["zone"] = "hand"
        for inst in p["deck"]:
            twin["g"]["cards"][inst]["zone"] = "deck"
        assert core.view(twin, seat) == core.view(state, seat)
        choice = bots[seat].choose(core.view(state, seat), ask)
        assert bots[seat].choose(core.view(twin, seat), ask) == choice
        core.apply(state, {"seat": seat, "ask": ask["id"], "choice": choice})
        checked += 1
    assert checked == 60


# --- the terminal and the pages ------------------------------------------------------------------------

def _game_at(kind, seed=4, players=2, min_choices=3):
    """A session (no log) played by heuristic bots until some seat faces an ask of `kind`."""
    session = Session.new("lcg", {"players": players, "owner_cards": False}, seed)
    bots = [make_bot("lcg", "heuristic", seed, s, card_info(session.state)) for s in range(players)]
    while True:
        ask = session.state["asks"][0]
        if ask["kind"] == kind and len(ask["choices"]) >= min_choices:
            return session, ask
        choice = bots[ask["seat"]].choose(session.view(ask["seat"]), ask)
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok


def _screens(state, viewer):
    from rich.console import Console
    view = core.view(state, viewer)
    con = Console(width=140, record=True, file=open(os.devnull, "w"))
    con.print(screen.render(view, state["config"]))
    return screen.plain_lines(view, state["config"]), con.export_text()


def test_the_terminal_draws_the_table_and_only_the_viewers_own_secrets():
    session, ask = _game_at("defenders", players=4)
    state, seat = session.state, ask["seat"]
    names = Names(state["g"], cardtables.table(state))
    plain, rich = _screens(state, seat)
    text = "\n".join(plain)
    assert plain[0].startswith("== Round ") and "Challenges phase" in plain[0]
    for s in range(4):
        assert re.search(r"^%s: power \d+" % re.escape(names.seat(s)), text, re.M)
    ch = state["g"]["challenge"]
    assert "%s challenge: %s against %s" % (ch["type"].capitalize(), names.seat(ch["attacker"]),
                                            names.seat(ch["target"])) in text
    hand = state["g"]["players"][seat]["hand"]
    assert ("Your hand (%s): " % names.seat(seat)) in text and all(names.card(c) in text for c in hand)
    for word in ("Characters (STR, icons M I P)", "Challenge", "Your hand", "Your plots"):
        assert word in rich
    # What another seat holds changes nothing on this seat's screen, nor on the public one.
    other = (seat + 1) % 4
    twin = copy.deepcopy(state)
    p = twin["g"]["players"][other]
    p["hand"], p["deck"] = p["deck"][:len(p["hand"])], p["hand"] + p["deck"][len(p["hand"]):]
    for inst in p["hand"]:
        twin["g"]["cards"][inst]["zone"] = "hand"
    for inst in p["deck"]:
        twin["g"]["cards"][inst]["zone"] = "deck"
    for viewer in (PUBLIC, seat):
        assert _screens(twin, viewer) == _screens(state, viewer)
    assert _screens(twin, other) != _screens(state, other)


def _generic(e):
    fields = ", ".join("%s %s" % (key, v) for key, v in e.items() if key not in ("e", "vis"))
    return "%s%s" % (e["e"].replace("_", " ").capitalize(), (": " + fields) if fields else "")


def test_every_event_has_words_and_private_ones_are_not_the_publics():
    state, events = core.new_game("lcg", {"players": 4}, 9)
    bots = [make_bot("lcg", "heuristic", 9, s, card_info(state)) for s in range(4)]
    while not state["over"]:
        ask = state["asks"][0]
        choice = bots[ask["seat"]].choose(core.view(state, ask["seat"]), ask)
        events += core.apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice}).events
    cards = cardtables.table(state)
    kinds = set()
    for e in events:
        line = describe_event(state["g"], e, REFEREE, cards)
        assert line and line != _generic(e), e
        assert not re.search(r"\b[A-Z]\d{1,3}\b", line), "a card code where its name belongs: %s" % line
        kinds.add(e["e"])
        if "vis" in e:
            assert describe_event(state["g"], e, PUBLIC, cards) is None
            assert all(describe_event(state["g"], e, s, cards) is None for s in range(4) if s not in e["vis"])
    assert {"drew_cards", "placed_setup", "challenge_result", "game_over"} <= kinds


def test_the_seat_and_table_payloads_name_the_seats_cards_and_decisions():
    session, ask = _game_at("marshal")
    state, seat = session.state, ask["seat"]
    names = Names(state["g"], cardtables.table(state))
    seat_page = payload.seat_payload(state, session.events, seat)
    hand = state["g"]["players"][seat]["hand"]
    assert seat_page["view"]["hand"] == hand and all(seat_page["names"][c] == names.card(c) for c in hand)
    assert {"hand", "plots"} <= set(seat_page["hints"]["secret"])
    [decision] = [d for d in seat_page["decisions"] if d["ask"] == ask["id"]]
    labels = [o["label"] for o in decision["options"]]
    assert len(labels) == len(ask["choices"]) and labels[-1] == "Done"
    for choice, label in zip(ask["choices"], labels):
        if choice[0] == "marshal":
            assert label == "Marshal %s (%d gold)" % (names.card(choice[1]), M.gold_cost(state, seat, choice[1]))
    assert seat_page["log"] and not [x for x in seat_page["log"] if x["text"].startswith("Drew cards")]
    table = payload.table_payload(state, session.events)
    assert "hand" not in table["view"] and not set(table["names"]) & set(hand)
    assert [s["name"] for s in table["strip"]] == [s["name"] for s in sorted(
        P.for_game("lcg", 2)["segments"], key=lambda s: s["start"])]
    assert table["log"] and table["seat_names"] == [names.seat(s) for s in range(2)]


def test_the_lcg_pages_render_in_chromium(page):  # noqa: F811  (the fixture from test_web)
    session, ask = _game_at("marshal")
    seat = ask["seat"]
    hand = set(session.state["g"]["players"][seat]["hand"])
    other = set(session.state["g"]["players"][1 - seat]["hand"])
    with served(session) as (web, base):
        open_page(page, base + "/table")
        assert page.locator("[data-segment]").count() == len(P.for_game("lcg", 2)["segments"])
        assert page.locator("#log li").count() > 0
        assert not titles(page) & (hand | other)
        open_page(page, seat_url(web, base, seat))
        buttons = page.locator('button[data-ask="%d"]' % ask["id"])
        assert buttons.count() == len(ask["choices"])
        assert any(re.match(r"Marshal .+ \(\d+ gold\)", t) for t in buttons.all_inner_texts())
        assert hand <= titles(page, "#tab-secret .card")
        assert not titles(page) & other
        assert page.locator("#tab-board section").count() >= 2  # the round and each seat's panel
    session.close()
