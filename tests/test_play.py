"""`maester play`, `resume` and `demo` as a person uses them: through the real command line.

The games these tests play are compared with `sim.play_one` for the same config, seed and bots:
the terminal loop must make exactly the same bot calls, so a logged game, killed or not, ends as
an uninterrupted simulation does.
"""

import copy
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from maester.terminal import screen
from maester.engine.bots import make_bot
from maester.engine import PUBLIC, cardtables, core
from maester.engine.core import find_ask
from maester.engine.log import GameLog
from maester.engine.session import Session
from maester.games.btwixt.text import Names, describe_event
from maester.sim import play_one

COMPARED = ("g", "result", "rng", "seq")
WINNER = re.compile(r"^(Winner|Shared victory): (.+)$", re.M)


def maester(home, *args, input=None, timeout=120):
    env = dict(os.environ, MAESTER_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "maester.cli", *args], input=input, capture_output=True,
                          text=True, env=env, timeout=timeout)


def reference(log_path, bots="heuristic"):
    """The uninterrupted game: sim.play_one with the config and seed stored in the log."""
    log = GameLog.open(str(log_path))
    meta = log.header()
    log.close()
    state, _ = play_one(meta["game"], meta["config"], meta["seed"], bots)
    return state


def final_state(log_path):
    s = Session.resume(str(log_path))
    s.close()
    return s.state


def leader(state, seat):
    return cardtables.table(state)["leader_names"][state["g"]["leaders"][seat]]


def assert_winner_printed(out, state):
    found = WINNER.findall(out)
    assert len(found) == 1, "expected one winner line in:\n" + out[-2000:]
    kind, names = found[0]
    winners = state["result"]["winners"]
    assert kind == ("Winner" if len(winners) == 1 else "Shared victory")
    for seat in winners:
        assert leader(state, seat) in names


def test_bot_game_plays_to_the_end_and_its_log_replays_as_the_simulation(tmp_path):
    """With the variants that add simultaneous asks (the draft) and leader cards. The default game
    also ends as the simulation: killed and resumed below, and as the demo."""
    log = tmp_path / "game.sqlite"
    r = maester(tmp_path, "play", "btwixt", "--sim", "--plain", "--seed", "3", "--bots", "heuristic",
                "--delay", "0", "--log", str(log), "--players", "5", "--variant", "draft", "--variant", "advanced")
    assert r.returncode == 0, r.stderr
    state = final_state(log)
    assert state["over"]
    ref = reference(log)
    for key in COMPARED:
        assert state[key] == ref[key], key
    assert_winner_printed(r.stdout, state)
    for row in state["result"]["scores"]:
        assert re.search(r"\(seat %d\)\s+%d\s+%d\s+%d" % (row["seat"], row["small"], row["other"], row["allies"]),
                         r.stdout)
    assert (tmp_path / "last").read_text().strip() == str(log.resolve())
    header = GameLog.open(str(log)).header()
    assert header["extra"] == {"humans": [], "bots": "heuristic", "delay": 0.0, "table": True}


def test_play_with_no_board_plugged_in_says_so_and_offers_sim(tmp_path):
    r = maester(tmp_path, "play", "btwixt", "--plain")
    assert r.returncode == 2
    assert "no board found" in r.stderr and "--port" in r.stderr and "--sim" in r.stderr
    assert not (tmp_path / "games").exists()


def _replay_checking_seat0(log_path):
    """Replay the log; check seat 0 always took option 1; collect what seat 0 could see of hands."""
    log = GameLog.open(str(log_path))
    meta = log.header()
    state, _ = core.new_game("btwixt", meta["config"], meta["seed"], forced=meta["setup_outcomes"])
    info = cardtables.table(meta)["info"]

    def names(insts):
        return Names(state["g"], cardtables.table(meta)).cards(insts)

    own, seen, human_moves = set(), set(), 0

    def record():
        g = state["g"]
        own.add(names(g["hands"][0]))
        for card, target in g["peeks"]:
            if card in g["bids"][0]:
                seen.add(names(g["hands"][target]))

    record()
    for seq, command, outcomes in log.entries():
        if command["seat"] == 0:
            assert command["choice"] == find_ask(state, command["ask"])["choices"][0], seq
            human_moves += 1
        assert core.apply(state, command, forced=outcomes).ok
        record()
    log.close()
    assert info and state["over"]
    return state, own, seen, human_moves


def test_a_human_seat_plays_through_stdin_and_sees_only_its_own_secrets(tmp_path):
    log = tmp_path / "h.sqlite"
    typed = "99\nabc\n" + "1\n" * 3000
    r = maester(tmp_path, "play", "btwixt", "--sim", "--plain", "--seed", "4", "--human", "0", "--delay", "0",
                "--log", str(log), input=typed)
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    out = r.stdout
    assert "'99' is not one of the options: type a number from 1 to" in out
    assert "'abc' is not one of the options" in out
    state, own, seen, human_moves = _replay_checking_seat0(log)
    assert human_moves > 10
    assert_winner_printed(out, state)

    lines = out.splitlines()
    hands = [l for l in lines if l.startswith("Your hand")]
    assert hands and all(l.startswith("Your hand (seat 0 — %s): " % leader(state, 0)) for l in hands)
    for l in hands:  # every hand shown is seat 0's real hand at some moment of the game
        assert l.split("): ", 1)[1] in own, l
    for l in lines:
        if l.startswith("Hand of "):  # another hand: only through an Intercepted in seat 0's bid pile
            assert l.split("): ", 1)[1] in seen, l
    reveal = next(i for i, l in enumerate(lines) if l == "The power tokens are turned face up.")
    for l in lines[:reveal]:
        for m in re.finditer(r"power tokens (\S+)", l):
            assert m.group(1).isdigit() and "face down" in l, l  # a count, never a value
    assert re.search(r"power tokens [0-9+]+ = \d+", "\n".join(lines[reveal:]))


RESULT = re.compile(r"^(Winner: .+|Shared victory: .+|Nobody wins\.)$", re.M)


@pytest.mark.parametrize("game,seat", [("btwixt", 2), ("intrigue", 2), ("oathbreaker", 3)])
def test_quit_keeps_the_game_and_resume_restores_the_human_seat(tmp_path, game, seat):
    r = maester(tmp_path, "play", game, "--sim", "--plain", "--seed", "6", "--human", str(seat), "--delay", "0",
                input="1\nq\n")
    assert r.returncode == 0, r.stderr
    assert "maester resume" in r.stdout
    path = (tmp_path / "last").read_text().strip()
    assert path.startswith(str(tmp_path / "games")) and path.endswith("-%s.sqlite" % game)
    quit_at = final_state(path)
    assert not quit_at["over"] and quit_at["asks"][0]["seat"] == seat

    r = maester(tmp_path, "resume", "--plain", "--delay", "0", input="1\n" * 3000)
    assert r.returncode == 0, r.stderr
    assert "Resumed" in r.stdout
    assert re.search(r"--- .*\bseat %d\b.*decides ---" % seat, r.stdout, re.I)  # still a person's seat
    state = final_state(path)
    assert state["over"] and state["seq"] > quit_at["seq"]
    assert len(RESULT.findall(r.stdout)) == 1

    r = maester(tmp_path, "resume", "--plain")
    assert r.returncode == 0 and "already over" in r.stdout


def test_two_people_hand_the_screen_over(tmp_path):
    r = maester(tmp_path, "play", "btwixt", "--sim", "--plain", "--seed", "7", "--human", "0", "--human", "1",
                "--delay", "0", "--log", str(tmp_path / "two.sqlite"), input="1\n" * 6000)
    assert r.returncode == 0, r.stderr
    state = final_state(tmp_path / "two.sqlite")
    for seat in (0, 1):
        assert "Seat %d — %s: press Enter when only you can see the screen" % (seat, leader(state, seat)) in r.stdout
    assert "Your hand (seat 2" not in r.stdout and "Your hand (seat 3" not in r.stdout


def _entries(path):
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True, timeout=1)
        try:
            return db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def test_a_game_killed_mid_way_resumes_to_the_same_end(tmp_path):
    log = tmp_path / "killed.sqlite"
    env = dict(os.environ, MAESTER_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "maester.cli", "play", "btwixt", "--sim", "--plain", "--bots",
                             "heuristic", "--delay", "0.01", "--seed", "5", "--log", str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    deadline = time.time() + 60
    while _entries(log) < 60:
        assert proc.poll() is None, "the game ended before it could be killed"
        assert time.time() < deadline, "the log never reached 60 entries"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    killed_at = final_state(log)
    assert not killed_at["over"] and killed_at["seq"] >= 60

    r = maester(tmp_path, "resume", "--log", str(log), "--delay", "0", "--plain")
    assert r.returncode == 0, r.stderr
    assert "Resumed" in r.stdout
    state, ref = final_state(log), reference(log)
    assert state["over"]
    for key in COMPARED:
        assert state[key] == ref[key], key
    assert_winner_printed(r.stdout, state)


def _damaged_logs(tmp_path):
    real = tmp_path / "real.sqlite"
    r = maester(tmp_path, "play", "btwixt", "--sim", "--plain", "--seed", "8", "--delay", "0", "--log", str(real))
    assert r.returncode == 0
    data = real.read_bytes()
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(random.Random(1).randbytes(5000))
    yield garbage, "not a database"
    for n in (60, 4096, len(data) // 2):
        cut = tmp_path / ("cut%d.sqlite" % n)
        cut.write_bytes(data[:n])
        yield cut, "game log"
    bad = tmp_path / "bad-entry.sqlite"
    bad.write_bytes(data)
    db = sqlite3.connect(str(bad))
    db.execute("""UPDATE entries SET choice = '["bogus"]' WHERE seq = 10""")
    db.commit()
    db.close()
    yield bad, "entry 10"


def test_resume_refuses_missing_and_damaged_logs_and_leaves_them_alone(tmp_path):
    r = maester(tmp_path, "resume", "--plain")
    assert r.returncode == 2 and "no game to resume" in r.stderr
    missing = tmp_path / "missing.sqlite"
    r = maester(tmp_path, "resume", "--log", str(missing), "--plain")
    assert r.returncode == 2 and "no game log at %s" % missing in r.stderr
    assert not missing.exists()
    for path, words in _damaged_logs(tmp_path):
        before = path.read_bytes()
        r = maester(tmp_path, "resume", "--log", str(path), "--plain", "--delay", "0")
        assert r.returncode == 2, (path, r.stdout[-500:])
        assert r.stderr.startswith("maester: ") and str(path) in r.stderr and words in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
        assert path.read_bytes() == before, path


def test_demo_plays_a_whole_game_quickly(tmp_path):
    r = maester(tmp_path, "demo", "--fast", "--seed", "2")
    assert r.returncode == 0, r.stderr
    path = (tmp_path / "last").read_text().strip()
    # Quick: no pause between moves (a timed bound would fail on a loaded machine, not on a slow demo).
    assert GameLog.open(path).header()["extra"]["delay"] == 0
    state = final_state(path)
    assert state["over"]
    assert state["result"] == reference(path)["result"]
    assert_winner_printed(r.stdout, state)


# --- the drawing shows nothing that its viewer may not know -------------------------------------

def _mid_game(seed=11, steps=90):
    state, _ = core.new_game("btwixt", {"players": 4, "variants": ["advanced"]}, seed)
    info = cardtables.table(state)["info"]
    bots = [make_bot("btwixt", "heuristic", seed, s, info) for s in range(4)]
    events = []
    for _ in range(steps):
        ask = state["asks"][0]
        bot = bots[ask["seat"]]
        choice = bot.choose(core.view(state, ask["seat"]) if bot.uses_view else None, ask)
        events += core.apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice}).events
    return state, events


def _texts(state, events, viewer):
    view = core.view(state, viewer)
    rendered = screen.plain_lines(view, state["config"])
    from rich.console import Console
    con = Console(width=150, record=True, file=open(os.devnull, "w"))
    con.print(screen.render(view, state["config"]))
    log = [describe_event(state["g"], e, viewer, cardtables.table(state))
           for e in core.filter_events(events, viewer)]
    return rendered, con.export_text(), log


def test_screens_do_not_change_when_only_secrets_change():
    state, events = _mid_game()
    g = state["g"]
    assert any(g["councils"][c]["tokens"] for c in range(4)) and any(g["hands"][1:])
    other = copy.deepcopy(state)
    og = other["g"]
    seen = {t for card, t in og["peeks"] if card in og["bids"][0]}
    secret = [s for s in (1, 2, 3) if s not in seen]
    pool = [c for s in secret for c in og["hands"][s]] + og["deck"]
    random.Random(2).shuffle(pool)
    for s in secret:
        og["hands"][s], pool = pool[:len(og["hands"][s])], pool[len(og["hands"][s]):]
    og["deck"] = pool
    values = list(og["token_value"].values())
    random.Random(3).shuffle(values)
    og["token_value"] = dict(zip(og["token_value"], values))
    assert og["hands"] != g["hands"] and og["token_value"] != g["token_value"]
    for viewer in (PUBLIC, 0):
        assert _texts(state, events, viewer) == _texts(other, events, viewer)
    # ...while seat 1's own screen does show its hand.
    assert _texts(state, events, 1)[0] != _texts(other, events, 1)[0] or 1 in seen


def test_event_lines_keep_secrets():
    state, setup_events = core.new_game("btwixt", {"players": 4}, 11)
    g, cards = state["g"], cardtables.table(state)
    hand = next(e for e in setup_events if e["e"] == "hand")
    assert describe_event(g, hand, PUBLIC, cards) is None
    assert describe_event(g, hand, (hand["seat"] + 1) % 4, cards) is None
    mine = describe_event(g, hand, hand["seat"], cards)
    assert mine.startswith("Your hand: ") and Names(g, cards).card(hand["cards"][0]) in mine
    took = {"e": "took_card", "seat": 1, "target": 2, "card": g["hands"][2][0]}
    name = Names(g, cards).card(took["card"])
    assert name in describe_event(g, took, 2, cards)
    blind = describe_event(g, {"e": "took_card", "seat": 1, "target": 2}, 3, cards)
    assert blind == "%s takes a card from %s's hand." % (Names(g, cards).leader(1), Names(g, cards).leader(2))
    gained = describe_event(g, {"e": "token_gained", "seat": 0, "council": 3, "token": "t7", "why": "bid"}, PUBLIC, cards)
    assert gained == "%s gains a face-down power token in council 3 (%s & %s)." % tuple(
        Names(g, cards).leader(s) for s in (0, 3, 0))
    assert describe_event(g, {"e": "brand_new", "x": 1}, PUBLIC, cards) == "brand new: x=1"
