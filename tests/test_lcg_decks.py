"""LCG deck lists (games/lcg/decks.py): the text format, the starter decks' files, the deck
construction rules (tournament and casual), `maester decks check`, and games with decks of one's own
(`--decks FILE,FILE`), where a deck may hold more copies of a card than one Core box."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from maester.cards import db as cardsdb
from maester import sim
from maester.engine import core
from maester.games.lcg import GAME
from maester.games.lcg import decks as D
from maester.games.lcg import model as M
from maester.games.lcg import table as LT
from maester.games.lcg.cards import card_table
from maester.games.lcg.text import Names
from lcg_harness import Table
from test_play import _entries, final_state, maester, reference

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

DECKS_DIR = Path(__file__).resolve().parents[1] / "cards_db" / "lcg" / "decks"

# A tournament-legal Stark deck: 62 cards, three of every Stark lord (one Core box has one Eddard).
MY_STARK = """\
# My Stark deck: three of each
House: Stark

Characters:
3x Eddard Stark
3x Catelyn Stark
3 Arya Stark
3x Robb Stark
3x Winterfell Honor Guard
3x Direwolf Pup
3x Knight of the Tumblestone
3x Hodor
3x Greatjon Umber
3x Kennel Master
3x House Tully Recruiter   # three copies from three Core boxes
2x Ser Rodrik Cassel
Summer x2
Nymeria
3x Jon Snow

Locations:
3x Great Keep
2x Northern Fiefdoms
3 crossroads
Street of Steel
3x Winterfell Castle

Attachments:
Ice

Events:
2x Winter is Coming
3x Kings in the North
3x Distraction

Plots:
The Power of Arms x2
Building Season
Mutual Enemies
Calm Over Westeros
Snowed Under
Valar Morghulis
"""


@pytest.fixture
def table():
    return card_table(owner=False)


def write(tmp_path, text, name="deck.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


def problems_of(text, table, casual=False):
    deck, entries, problems = D.parse(text, "t", table)
    return problems + D.rules_problems(deck, table, casual, entries, D._house_line(list(enumerate(text.splitlines(), 1))))


# --- the format -----------------------------------------------------------------------------------

def test_counts_comments_headers_and_the_house_line(table):
    deck, entries, problems = D.parse(MY_STARK, "mine", table)
    assert problems == []
    assert deck["name"] == "mine" and deck["house"] == "stark"
    assert len(deck["draw"]) == 62 and len(deck["plots"]) == 7
    by_name = {e["name"]: (e["line"], e["count"]) for e in entries}
    assert by_name["Eddard Stark"] == (5, 3)
    assert by_name["Arya Stark"] == (7, 3)              # "3 Card Name"
    assert by_name["House Tully Recruiter"] == (15, 3)  # a comment after the name
    assert by_name["Summer"] == (17, 2)                 # "Card Name x2"
    assert by_name["Nymeria"] == (18, 1)                # a name alone is one copy
    assert by_name["Crossroads"] == (24, 3)             # any case
    assert by_name["The Power of Arms"] == (37, 2)
    assert deck["draw"].count("S5") == 3 and deck["plots"].count("S200") == 2
    # The House card's name does as well as "House: X"; plots are known by their type.
    deck, _, problems = D.parse("House Lannister\n\n1x Tyrion Lannister\nhear me roar\n", "t", table)
    assert problems == [] and deck == {"name": "t", "house": "lannister", "draw": ["L38"], "plots": ["L192"]}
    # Curly apostrophes, a "(Core Set)" after a name, and "(S30)" naming one copy.
    deck, _, problems = D.parse("House: Stark\nLord Eddard’s Chambers (Core Set)\n2x Great Keep (S30)\n", "t", table)
    assert problems == [] and deck["draw"][1:] == ["S30", "S30"]
    assert table["cards"][deck["draw"][0]]["name"] == "Lord Eddard's Chambers"


def test_unknown_names_are_refused_with_the_closest_names(table):
    deck, entries, problems = D.parse("House: Stark\n2x Edard Stark\n# fine\nWinterfel Castle\nZzyzx Qwerty\n",
                                      "t", table)
    assert problems[0] == (2, "unknown card 'Edard Stark'; did you mean Eddard Stark, Arya Stark or Robb Stark?")
    assert problems[1][0] == 4 and "did you mean Winterfell Castle" in problems[1][1]
    assert problems[2] == (5, "unknown card 'Zzyzx Qwerty'")
    assert deck["draw"] == [] and entries == []
    assert D.parse("House: Dornish\n", "t", table)[2][0][0] == 1
    assert "unknown section" in D.parse("Sideboard:\n", "t", table)[2][0][1]


def test_a_name_with_several_copies_maps_to_their_codes_in_order(table):
    def draw(text, house="stark"):
        deck, _, problems = D.parse("House: %s\n%s" % (house, text), "t", table)
        assert problems == []
        return deck["draw"]
    assert draw("3x Great Keep") == ["S29", "S30", "S31"]
    assert draw("Great Keep\n2x Great Keep") == ["S29", "S30", "S31"]      # copies go on across lines
    assert draw("2x Robert Baratheon", "baratheon") == ["B71", "B90"]
    assert draw("3x Rhaegal", "targaryen") == ["T109", "T110", "T109"]    # then around again
    assert draw("2x Distinct Mastery") == ["S177", "B179"]
    assert draw("2x Narrow Sea", "baratheon") == ["B99", "S33"]           # the House's own box first
    assert draw("2x Crossroads", "targaryen") == ["T153", "T154"]
    assert draw("5x Crossroads") == ["S138", "L143", "B148", "T153", "T154"]
    assert draw("3x Western Fiefdoms", "lannister") == ["L58", "L59", "L58"]


def test_the_starter_deck_files_are_the_card_data(table):
    for name, deck in table["decks"].items():
        path = DECKS_DIR / ("%s.txt" % name)
        text = path.read_text()
        got, problems = D.check(path, casual=True, table=table)
        assert problems == [], name
        assert got["house"] == deck["house"] and got["name"] == name
        assert sorted(got["draw"]) == sorted(deck["draw"]) and got["plots"] == deck["plots"]
        assert D.write(dict(deck, name=name), table, text.split("\nHouse:")[0].replace("# ", "")) == text
    assert sorted(p.stem for p in DECKS_DIR.glob("*.txt")) == sorted(table["decks"])


# --- the rules ------------------------------------------------------------------------------------

def stark_with(extra="", plots=("Building Season", "Mutual Enemies", "Calm Over Westeros", "Snowed Under",
                                 "The Power of Arms", "Valar Morghulis", "Holding the Trident"), house="Stark"):
    """MY_STARK's first 19 lines (the House and 44 characters), 21 more, `extra`, then `plots`."""
    head = "\n".join(MY_STARK.splitlines()[:19])
    more = ("3x Great Keep\n3x Winterfell Castle\n3x Kings in the North\n3x Distraction\n3x Godswood\n3x Lady\n"
            "3x Grey Wind")
    return "%s\n%s\n%s\nPlots:\n%s\n" % (head.replace("House: Stark", "House: %s" % house), more, extra,
                                        "\n".join(plots))


def test_a_legal_deck_is_legal_in_both_modes(table):
    assert problems_of(MY_STARK, table) == [] and problems_of(MY_STARK, table, casual=True) == []
    assert problems_of(stark_with(), table) == []


PLOTS7 = ("Building Season", "Mutual Enemies", "Calm Over Westeros", "Snowed Under", "The Power of Arms",
          "Valar Morghulis", "Holding the Trident")


def last_line(text, needle):
    return max(no for no, line in enumerate(text.splitlines(), 1) if line == needle)


@pytest.mark.parametrize("text,needle,words,casual_too", [
    (stark_with(plots=PLOTS7[:2]), "Mutual Enemies", "2 plots: a plot deck has exactly 7", True),
    (stark_with(plots=PLOTS7 + ("Wildfire Assault",)), "Wildfire Assault", "8 plots: a plot deck has exactly 7",
     True),
    (stark_with(plots=("2x Building Season",) + PLOTS7[1:6]), "2x Building Season",
     "2 copies of the plot Building Season: a plot deck has no duplicate plots", True),
    (stark_with(plots=("2x The Power of Arms",) + PLOTS7[:4] + PLOTS7[5:6]), None, None, None),
    (stark_with(plots=("3x The Power of Arms",) + PLOTS7[:4]), "3x The Power of Arms",
     "3 copies of the plot The Power of Arms: it allows 2 copies in a plot deck", True),
    (stark_with(plots=("2x Valar Morghulis",) + PLOTS7[:5]), "2x Valar Morghulis",
     "2 copies of the plot Valar Morghulis: Limit 1 per plot deck", True),
    (stark_with(plots=("Hear Me Roar",) + PLOTS7[:6]), "Hear Me Roar",
     "Hear Me Roar is House Lannister only, and this deck's House is Stark", True),
    (stark_with("Eddard Stark"), "Eddard Stark", "4 copies of Eddard Stark: at most 3 copies of a card", True),
    (stark_with("2x Street of Steel"), "2x Street of Steel", "2 copies of Street of Steel: Limit 1 per deck", True),
    (stark_with(house="Lannister"), "3x Winterfell Honor Guard",
     "Winterfell Honor Guard is House Stark only, and this deck's House is Lannister", True),
    (stark_with("Plots:\nIce"), "Ice", "Ice is an attachment, not a plot, but it is listed under Plots", True),
    ("House: Stark\n3x Hodor\nPlots:\n" + "\n".join(PLOTS7), "3x Hodor",
     "3 cards in the House deck: tournament play needs at least 60", False),
])
def test_each_rule_with_its_line(table, text, needle, words, casual_too):
    found = problems_of(text, table)
    if needle is None:  # a plot that allows two copies
        assert found == []
        return
    assert any(no == last_line(text, needle) and words in msg for no, msg in found), found
    casual = problems_of(text, table, casual=True)
    assert any(words in msg for _, msg in casual) == casual_too, casual


def test_a_deck_without_a_house_or_cards(table):
    found = problems_of("Plots:\n" + "\n".join(["Snowed Under"]), table, casual=True)
    texts = [t for _, t in found]
    assert "no House: add a line such as `House: Stark`" in texts
    assert "no cards in the House deck" in texts and "1 plot: a plot deck has exactly 7" in texts


def test_the_core_starter_decks_are_casual_not_tournament(table):
    for name in table["decks"]:
        _, problems = D.check(DECKS_DIR / ("%s.txt" % name), casual=False, table=table)
        assert [t for _, t in problems] == ["45 cards in the House deck: tournament play needs at least 60 "
                                            "(casual play allows fewer: --casual)"]


# --- maester decks check ----------------------------------------------------------------------------

def test_decks_check_prints_each_problem_with_its_line_and_exits_by_the_verdict(tmp_path):
    mine = write(tmp_path, MY_STARK)
    r = maester(tmp_path, "decks", "check", str(mine))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "%s: legal for tournament play: Stark, 62 cards, 7 plots\n" % mine
    starter = str(DECKS_DIR / "baratheon.txt")
    r = maester(tmp_path, "decks", "check", starter)
    assert r.returncode == 1 and "not legal for tournament play (1 problem)" in r.stdout
    assert "needs at least 60" in r.stdout
    r = maester(tmp_path, "decks", "check", starter, "--casual")
    assert r.returncode == 0 and "legal for casual play: Baratheon, 45 cards, 7 plots" in r.stdout
    bad = write(tmp_path, MY_STARK.replace("3x Jon Snow", "4x Jon Snow\nHear Me Roar\nEdard Stark"), "bad.txt")
    r = maester(tmp_path, "decks", "check", str(bad), "--casual")
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        "%s: line 19: 4 copies of Jon Snow: at most 3 copies of a card" % bad,
        "%s: line 20: Hear Me Roar is House Lannister only, and this deck's House is Stark" % bad,
        "%s: line 21: unknown card 'Edard Stark'; did you mean Eddard Stark, Arya Stark or Robb Stark?" % bad,
        "%s: line 44: 8 plots: a plot deck has exactly 7" % bad,
        "%s: not legal for casual play (4 problems): Stark, 63 cards, 8 plots" % bad]
    r = maester(tmp_path, "decks", "check", str(tmp_path / "nowhere.txt"))
    assert r.returncode == 2 and "cannot read the deck" in r.stderr
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    r = maester(tmp_path, "decks", "check", str(binary))
    assert r.returncode == 2 and "cannot read the deck" in r.stderr
    r = maester(tmp_path, "decks", "check", "--help")
    assert r.returncode == 0 and "--casual" in r.stdout


# --- further copies in a game -------------------------------------------------------------------------

def test_further_copies_have_their_own_instances_and_names(table):
    assert M.instance_ids(["S5", "S4", "S5", "S5"], 1) == ["S5#1", "S4#1", "S5#1~2", "S5#1~3"]
    assert M.code("S5#0~2") == "S5" and M.owner_of("S5#1~3") == 1 and M.owner_of("S5#1") == 1
    assert cardsdb.card_id("S5#0~2") == "S5"
    assert Names(None, table).card("S5#0~2") == "Eddard Stark"


def my_deck(table, **changes):
    deck, _, problems = D.parse(MY_STARK, "my_stark", table)
    assert problems == []
    deck.update(changes)
    return deck


def test_a_third_eddard_is_a_duplicate_and_a_tap_picks_one_copy(table):
    deck = my_deck(table)
    t = Table(2, decks=[deck, "lannister"])
    assert t.state["config"]["decks"][0] == deck
    assert {"S5#0", "S5#0~2", "S5#0~3"} <= set(t.g["cards"]) and "S5#0~4" not in t.g["cards"]
    assert t.g["players"][0]["deck_name"] == "my_stark"
    t.plots("S196#0", "L190#1")
    t.choose(t.ask()["seat"], "first", 0)
    t.until_ask("marshal", 0)
    t.play("S5#0")
    t.hand(0, "S5#0~2", "S5#0~3")
    t.gold(0, 0)
    t.until_ask("marshal", 0)
    assert ["duplicate", "S5#0~2"] in t.choices(0) and ["duplicate", "S5#0~3"] in t.choices(0)
    # On the table a sticker names a code: the tap of an Eddard on seat 0's reader is one of the two.
    assert LT.tap_choices(t.state, t.ask(0), "S5#1", 0) == [["duplicate", "S5#0~2"]]
    assert LT.needed(t.state)["S5"] == 3
    t.choose(0, "duplicate", "S5#0~3")
    assert t.g["cards"]["S5#0"]["dups"] == ["S5#0~3"] and t.where("S5#0~3") == "dup"
    assert t.where("S5#0~2") == "hand"


def test_the_config_checks_a_deck_of_ones_own(table):
    deck = my_deck(table)
    game = core.get_game("lcg")
    assert game.check_config({"players": 2, "decks": [deck, "stark"]})["decks"][0] == deck
    small = dict(deck, draw=deck["draw"][:40])
    assert game.check_config({"players": 2, "decks": [small, "stark"]})["decks"][0] == small  # casual
    with pytest.raises(ValueError, match="not legal in tournament play: 40 cards"):
        game.check_config({"players": 2, "decks": [small, "stark"], "deck_rules": "tournament"})
    with pytest.raises(ValueError, match="6 plots"):
        game.check_config({"players": 2, "decks": [dict(deck, plots=deck["plots"][:6]), "stark"]})
    with pytest.raises(ValueError, match="'X1' is not a card"):
        game.check_config({"players": 2, "decks": [dict(deck, draw=["X1"] + deck["draw"]), "stark"]})
    with pytest.raises(ValueError, match="does not belong in the draw"):
        game.check_config({"players": 2, "decks": [dict(deck, draw=["S195"] + deck["draw"]), "stark"]})
    with pytest.raises(ValueError, match="a deck is"):
        game.check_config({"players": 2, "decks": [{"name": "x"}, "stark"]})
    assert GAME is game


# --- --decks FILE on play, sim, bench ---------------------------------------------------------------

def test_decks_names_and_files_mix(tmp_path, table):
    mine = write(tmp_path, MY_STARK, "my_stark.txt")
    decks = sim.parse_decks("lcg", "%s, Lannister,%s" % (mine, DECKS_DIR / "targaryen.txt"))
    assert decks[0] == my_deck(table) and decks[1] == "lannister" and decks[2]["house"] == "targaryen"
    with pytest.raises(FileNotFoundError, match="no deck file"):
        sim.parse_decks("lcg", "stark,%s" % (tmp_path / "none.txt"))
    bad = write(tmp_path, "House: Stark\n3x Hodor\n", "bad.txt")
    with pytest.raises(ValueError, match=r"deck .*bad.txt is not legal for casual play: 0 plots: a plot deck has exactly 7$"):
        sim.parse_decks("lcg", "stark,%s" % bad)
    with pytest.raises(ValueError, match="or give a deck file's path"):
        sim.parse_decks("lcg", "stark,wolves")


def test_sim_and_bench_play_deck_files_to_the_end(tmp_path):
    mine = write(tmp_path, MY_STARK, "my_stark.txt")
    r = maester(tmp_path, "sim", "lcg", "--decks", "%s,%s" % (mine, mine), "--bots", "heuristic", "--games", "3",
                "--json")
    assert r.returncode == 0, r.stderr
    import json
    stats = json.loads(r.stdout)
    assert stats["decks"] == ["my_stark", "my_stark"] and len(stats["winners"]) == 3
    r = maester(tmp_path, "bench", "engine", "--game", "lcg", "--decks", "%s,baratheon" % mine, "--games", "2")
    assert r.returncode == 0, r.stderr
    assert "with decks my_stark, baratheon" in r.stdout
    r = maester(tmp_path, "sim", "lcg", "--decks", "%s,stark" % (tmp_path / "none.txt"))
    assert r.returncode == 2 and "no deck file" in r.stderr
    for args in (("sim", "--help"), ("play", "--help"), ("bench", "--help"), ("demo", "--help")):
        assert "casual" in maester(tmp_path, *args).stdout


def test_a_game_of_deck_files_plays_every_copy_and_ends(table):
    deck = my_deck(table)
    extra = []
    for seed in (1, 2):
        state, _ = sim.play_one("lcg", {"players": 2, "decks": [deck, deck]}, seed, "heuristic")
        assert state["over"] and state["result"]["winners"]
        g = state["g"]
        assert len([i for i in g["cards"] if M.owner_of(i) == 1]) == 69
        extra += [i for i, c in g["cards"].items() if "~" in i and c["zone"] not in ("deck",)]
    assert extra  # further copies came out of the decks


def test_a_deck_file_game_killed_mid_way_resumes_to_the_same_end(tmp_path):
    mine = write(tmp_path, MY_STARK, "my_stark.txt")
    log = tmp_path / "killed.sqlite"
    env = dict(os.environ, MAESTER_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "maester.cli", "play", "lcg", "--sim", "--plain", "--no-table",
                             "--decks", "%s,%s" % (mine, DECKS_DIR / "lannister.txt"), "--delay", "0.01",
                             "--seed", "4", "--log", str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    deadline = time.time() + 60
    while _entries(log) < 80:
        assert proc.poll() is None, "the game ended before it could be killed"
        assert time.time() < deadline, "the log never reached 80 entries"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert not final_state(log)["over"]
    mine.unlink()  # the log carries the deck itself
    r = maester(tmp_path, "resume", "--log", str(log), "--delay", "0", "--plain")
    assert r.returncode == 0, r.stderr
    state, ref = final_state(log), reference(log)
    assert state["over"] and state["config"]["decks"][0]["name"] == "my_stark"
    for key in ("g", "result", "rng", "seq"):
        assert state[key] == ref[key], key


# --- issue 25, item 11: counts and files are bounded ----------------------------------------------------

def _bounded(tmp_path, *args):
    """`maester ARGS` in a process held to 1 GB of memory and 30 s: a run that grows without end fails
    here instead of taking the machine with it."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    env = dict(os.environ, MAESTER_HOME=str(tmp_path / "home"))
    began = time.monotonic()
    try:
        r = subprocess.run([sys.executable, "-m", "maester.cli", *args], capture_output=True, text=True,
                           env=env, timeout=30, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        raise AssertionError("maester %s did not end within 30 s" % " ".join(args)) from None
    return r, time.monotonic() - began


@pytest.mark.parametrize("count", ["99999999999999999999", "1" + "0" * 5000, "100"])
def test_a_huge_count_is_a_problem_of_its_line_not_a_deck_without_end(tmp_path, count):
    deck = write(tmp_path, MY_STARK.replace("3x Jon Snow", "%sx Jon Snow" % count))
    r, took = _bounded(tmp_path, "decks", "check", str(deck))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert "line 19: %s copies of Jon Snow: a line names at most 99 copies" % (count if len(count) < 30 else
                                                                                  "%s... (%d digits)" % (count[:12], len(count))) in r.stdout, r.stdout
    r, took = _bounded(tmp_path, "sim", "lcg", "--decks", "%s,lannister" % deck, "--games", "1")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "at most 99 copies" in r.stderr, r.stderr[-2000:]


@pytest.mark.parametrize("what", ["/dev/zero", "a big file", "a folder", "a named pipe"])
def test_a_deck_file_that_is_endless_huge_or_no_file_is_refused_with_a_reason(tmp_path, what):
    path = {"/dev/zero": Path("/dev/zero"), "a big file": tmp_path / "big.txt", "a folder": tmp_path,
            "a named pipe": tmp_path / "pipe"}[what]
    if what == "a big file":
        path.write_text("House: Stark\n" + "# a comment\n" * 200000)
    if what == "a named pipe":
        os.mkfifo(path)
    for args in (["decks", "check", str(path)], ["sim", "lcg", "--decks", "%s,stark" % path, "--games", "1"]):
        r, took = _bounded(tmp_path, *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
        assert str(path) in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert ("not a file" if what in ("/dev/zero", "a folder", "a named pipe") else "larger than") in r.stderr
