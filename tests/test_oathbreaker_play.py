"""`maester play oathbreaker`, `resume` and `demo oathbreaker` as a person uses them, through the real
command line; and the terminal drawing, which must keep every secret."""

import os
import random
import re

import pytest

from maester.terminal import screen
from maester.engine import PUBLIC, cardtables, core
from maester.games.oathbreaker.text import Names, describe_event
from test_oathbreaker_leaks import hide_differently, may_see, states_along_a_game
from test_play import COMPARED, final_state, maester, reference

RESULT = re.compile(r"^(Winner: .+|Shared victory: .+|Nobody wins\.)$", re.M)


pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py



def assert_result_printed(out, state):
    found = RESULT.findall(out)
    assert len(found) == 1, "expected one result line in:\n" + out[-2000:]
    winners = state["result"]["winners"]
    if not winners:
        assert found[0] == "Nobody wins."
    else:
        assert sorted(int(s) for s in re.findall(r"Seat (\d)", found[0])) == winners


@pytest.mark.parametrize("more,bots", [((), "heuristic"),
                                       (("--players", "8", "--variant", "night_is_dark", "--no-table"), "random")])
def test_bots_play_to_the_end_and_the_log_replays_as_the_simulation(tmp_path, more, bots):
    log = tmp_path / "game.sqlite"
    r = maester(tmp_path, "play", "oathbreaker", "--sim", "--plain", "--seed", "3", "--delay", "0",
                "--bots", bots, "--log", str(log), *more)
    assert r.returncode == 0, r.stderr
    state, ref = final_state(log), reference(log, bots)
    assert state["over"] and state["config"]["players"] == (8 if more else 6)
    for key in COMPARED:
        assert state[key] == ref[key], key
    assert_result_printed(r.stdout, state)
    res = state["result"]
    assert ("The realm falls to %s: Order %d, Chaos %d" % ("Order" if res["realm"] == "order" else "Chaos",
                                                          res["order"], res["chaos"])) in r.stdout
    if not more:
        assert "LED strip: [" in r.stdout and "table: refused" not in r.stdout
    assert (tmp_path / "last").read_text().strip() == str(log.resolve())


def test_a_human_noble_plays_through_stdin_and_sees_only_their_own_secrets(tmp_path):
    log = tmp_path / "h.sqlite"
    r = maester(tmp_path, "play", "oathbreaker", "--sim", "--plain", "--seed", "4", "--human", "2", "--delay", "0",
                "--log", str(log), input="99\nabc\n" + "1\n" * 3000)
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    out = r.stdout
    assert "'99' is not one of the options: type a number from 1 to" in out and "'abc' is not one" in out
    state = final_state(log)
    assert state["over"]
    assert_result_printed(out, state)
    before = out[:out.index("Final Judgment: the monarchs judge")]
    assert "Your loyalty (seat 2): %s" % state["g"]["loyalty"][2] in before
    assert re.findall(r"Your loyalty \(seat (\d)\)", before) and set(re.findall(r"Your loyalty \(seat (\d)\)", before)) == {"2"}
    assert "Your decrees" not in out and "Your partner's decrees" not in out
    own = "Your ambition: %s" % Names(None, cardtables.table(state)).card(state["g"]["ambition"][2])
    assert set(re.findall(r"^Your ambition: .+$", before, re.M)) == {own}
    # What only seat 2 learnt is marked so, and nothing private of another seat is printed.
    private = re.findall(r"^\(only you\) (.+)$", before, re.M)
    assert private and not [line for line in private if re.match(r"Seat \d", line)]


def test_demo_oathbreaker(tmp_path):
    r = maester(tmp_path, "demo", "oathbreaker", "--fast", "--plain", "--no-table", "--seed", "2", "--players", "7")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Oathbreaker demo: 7 players, seed 2")
    path = (tmp_path / "last").read_text().strip()
    state = final_state(path)
    assert state["game"] == "oathbreaker" and state["result"] == reference(path, "heuristic")["result"]
    assert_result_printed(r.stdout, state)
    r = maester(tmp_path, "play", "--help")
    assert "oathbreaker" in r.stdout and "Oathbreaker 5 to 8" in r.stdout


# --- the drawing shows nothing that its viewer may not know --------------------------------------

def _texts(state, events, viewer):
    view = core.view(state, viewer)
    from rich.console import Console
    out = []
    for width in (80, 160):
        con = Console(width=width, record=True, file=open(os.devnull, "w"))
        con.print(screen.render(view, state["config"]))
        out.append(con.export_text())
    log = [describe_event(state["g"], e, viewer, cardtables.table(state)) for e in core.filter_events(events, viewer)]
    return screen.plain_lines(view, state["config"]), out, log


@pytest.mark.parametrize("players", [6, 8])
def test_screens_do_not_change_when_only_secrets_change(players):
    rng = random.Random(players)
    checked = differed = 0
    for state, events in states_along_a_game(players, seed=11, every=9):
        if state["over"]:
            continue
        for secret_of in (2, 0):
            other = hide_differently(state, secret_of, rng)
            for viewer in (PUBLIC, 0, 2, 3):
                if not may_see(state, viewer, secret_of):
                    assert _texts(other, events, viewer) == _texts(state, events, viewer)
                    checked += 1
                elif viewer == secret_of:
                    differed += screen.plain_lines(core.view(other, viewer), state["config"]) != \
                        screen.plain_lines(core.view(state, viewer), state["config"])
    assert checked > 40 and differed > 5  # ...and the owners' own screens do show those secrets


def test_the_drawing_shows_a_seats_own_secrets_and_the_missions_face_down_counts():
    state = None
    for state, _ in states_along_a_game(6, seed=5, every=1):
        g = state["g"]
        if g["missions"] and sum(g["missions"][0]["counts"]) >= 2 and g["hands"][2]:
            break
    g = state["g"]
    nm = Names(g, cardtables.table(state))
    mine = screen.plain_lines(core.view(state, 2), state["config"])
    public = screen.plain_lines(core.view(state, PUBLIC), state["config"])
    assert "Your loyalty (seat 2): %s" % g["loyalty"][2] in mine
    assert "Your ambition: %s" % nm.card(g["ambition"][2]) in mine
    assert "Your hand: %s" % nm.cards(g["hands"][2]) in mine
    assert not [l for l in public if l.startswith("Your ")]
    m = g["missions"][0]
    line = next(l for l in public if l.startswith("Mission 1 "))
    assert "%d face down" % (len(m["cards"]) - len(m["face_up"])) in line
    for s, k in enumerate(m["counts"]):
        if k:
            assert "seat %d: %d" % (s, k) in line
    king = screen.plain_lines(core.view(state, 0), state["config"])
    assert "Your decrees (seat 0): %s" % nm.cards(g["decree_hands"][0]) in king
