"""A bot seat played with real cards (issue 30, item 5): `--bot-hands SEAT`.

Each game is played whole on the simulated table (the firmware under MicroPython, over a pty and the
serial link): the other seats are bots whose moves are taps, as in `play --sim`; the bot-hands seat's
taps are made by this test as its handler would, reading its hands page (the served page's payload,
behind its own token) and laying the card it names on the reader it names. Along the way: the table
page and the public view never hold that seat's hidden cards, its LED segment pulses blue when it
must act, and a tap that answers its decision otherwise than its bot chose is refused.
"""

import json
import os
import subprocess
import sys

import httpx
import pytest

from maester.engine import PUBLIC, core
from maester.engine.bots import card_info, decide, make_bot
from maester.engine.log import GameLog
from maester.engine.session import Session
from maester.table import bothands, lights, profile
from maester.table.runner import TableRunner, sim_tags
from maester.table.simtable import SimTable, tap_for
from maester.web.app import WebGame, build_app
from maester.web.server import WebServer

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

GAMES = [  # (game, config, seed, the bot-hands seat): small tables, so each game is short
    ("btwixt", {"players": 3, "variants": ["short"]}, 5, 1),
    ("intrigue", {"players": 2}, 4, 1),
    ("lcg", {"players": 2}, 3, 1),
    ("oathbreaker", {"players": 5}, 2, 3),  # an Oathbreaker table one person short
]


def secrets_of(state, seat):
    """The card ids seat `seat` sees and the public does not: its hand and other hidden cards."""
    public = json.dumps(core.view(state, PUBLIC))
    return {c for c in _strings(core.view(state, seat)) if "#" in c and json.dumps(c) not in public}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def wrong_tap(state, sim, plan):
    """A tap that answers the bot-hands seat's decision legally, but not as its bot chose; or None."""
    ask = core.find_ask(state, plan["ask"])
    for choice in ask["choices"]:
        if choice == plan["command"]["choice"]:
            continue
        found = tap_for(state, sim.places, {"seat": ask["seat"], "ask": ask["id"], "choice": choice})
        if found is not None and found != plan["tap"]:
            return found
    return None


@pytest.mark.parametrize("game,config,seed,seat", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_whose_bot_seat_is_tapped_from_its_hands_page(tmp_path, game, config, seed, seat):
    session = Session.new(game, config, seed, log_path=tmp_path / "g.sqlite")
    said = []
    sim = SimTable(session, report=said.append)
    hands = bothands.BotHands(session, sim.runner, [seat])
    sim.runner.hands = hands
    driver = bothands.HandsDriver(hands).start()  # the moves no card makes; the taps are ours
    web = WebGame(session, sim.runner, answerable=[], hands=hands)
    server = WebServer(build_app(web)).start()
    info = card_info(session.state)
    bots = {s: make_bot(game, "heuristic", seed, s, info) for s in range(config["players"]) if s != seat}
    hands_url = "%s/hands/%d/%s/state" % (server.base, seat, web.hand_tokens[seat])
    taps = refused = 0
    try:
        with httpx.Client(timeout=10) as client:
            # The page's link is its own: the seat's page has none, and another seat's token opens nothing.
            assert client.get("%s/seat/%d/%s/state" % (server.base, seat, web.hand_tokens[seat])).status_code == 403
            assert client.get(hands_url.replace("/hands/%d/" % seat, "/hands/%d/" % (1 - seat))).status_code == 403
            while not session.state["over"]:
                while True:  # the table page of the very state the secrets are read from: the driver
                    with session.lock:  # may apply the bot's no-card move (setup's "done") meanwhile
                        state = session.state
                        seq = state["seq"]
                        ask = state["asks"][0] if state["asks"] else None
                        hidden = secrets_of(state, seat)
                        public = json.dumps(core.view(state, PUBLIC))
                    table = client.get(server.base + "/table/state").text
                    with session.lock:
                        if session.state["seq"] == seq:
                            break
                if state["over"]:
                    break
                assert not [c for c in hidden if json.dumps(c) in table or json.dumps(c) in public]
                if ask["seat"] != seat:
                    choice = decide(bots[ask["seat"]], state, ask["seat"], ask, core.view)
                    assert sim.submit({"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok
                    continue
                page = client.get(hands_url).json()
                assert page["kind"] == "hands" and page["decisions"] == []  # the bot decides, not the page
                plan = next((p for p in page["plans"] if p["ask"] == ask["id"]), None)
                if plan is None or plan["tap"] is None:  # no card to tap: the table applies the bot's move
                    driver.wait_closed(ask["id"])
                    continue
                card = plan["tap"]["card"]
                assert json.loads(table)["bot_hands"], "the table page says the bot waits for its handler"
                if card in hidden:  # its hand: named on its hands page, "a card" on the table page
                    assert plan["tap"]["name"] and card not in table and bothands.HIDDEN_CARD in table
                sim.runner.refresh_leds()
                assert sim.runner.shown[sim.runner.seg_ids["seat%d" % seat]] == (255, lights.BOT_HANDS, 3, 1200)
                if not refused:
                    other = wrong_tap(state, sim, hands.plans[ask["id"]])
                    if other is not None:
                        before, n = session.state["seq"], len(said)
                        sim.lay(sim.places[other[0]], other[1], wait=False)
                        assert sim.runner.wait_for(lambda s: len(said) > n, 10), "the wrong tap was never judged"
                        assert session.state["seq"] == before
                        assert said[n] == "refused: " + bothands.WRONG_TAP % seat  # names no card
                        refused += 1
                sim.lay(plan["tap"]["reader"], card)  # waits until the tap's move is applied
                taps += 1
        assert session.state["over"] and driver.failed is None
        assert taps > 3, "the handler tapped %d cards" % taps
        assert refused == 1, "no decision of the bot had a legal tap other than its own"
    finally:
        driver.stop()
        server.stop()
        web.close()
        sim.close()
        session.close()


def maester(tmp_path, *args, timeout=300):
    return subprocess.run([sys.executable, "-m", "maester.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, MAESTER_HOME=str(tmp_path)))


def test_demo_with_a_bot_hands_seat_plays_to_the_end_and_resume_keeps_the_seat(tmp_path):
    """On the simulated table the bot's simulated hands tap for it; the log keeps the seat's role."""
    log = tmp_path / "g.sqlite"
    out = maester(tmp_path, "demo", "btwixt", "--fast", "--plain", "--bot-hands", "2", "--seed", "3",
                  "--log", str(log))
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Seat 2's bot: its handler taps" in out.stdout
    header = GameLog.open(str(log)).header()
    assert header["extra"]["bot_hands"] == [2]
    # A game stopped before its end: `resume` gives the seat to the bot and its hands again.
    stopped = tmp_path / "stopped.sqlite"
    Session.new("intrigue", {"players": 2}, 4, str(stopped),
                {"humans": [], "bots": "heuristic", "delay": 0, "table": True, "bot_hands": [1]}).close()
    out = maester(tmp_path, "resume", "--plain", "--log", str(stopped))
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Seat 1's bot: its handler taps" in out.stdout and "Seat 0's bot" not in out.stdout
    assert "Winner" in out.stdout  # played to its end
    assert GameLog.open(str(stopped)).header()["extra"]["bot_hands"] == [1]


@pytest.mark.parametrize("args,says", [
    (["--bot-hands", "7"], "--bot-hands 7: the seats of a 3-player game are 0 to 2"),
    (["--bot-hands", "1", "--human", "1"], "--bot-hands 1: that seat is already a person's"),
    (["--bot-hands", "1", "--no-table"], "--bot-hands: the bot's cards are tapped on a table; drop --no-table"),
])
def test_a_bot_hands_seat_that_cannot_be_is_refused_in_one_line(tmp_path, args, says):
    out = maester(tmp_path, "play", "btwixt", "--sim", "--plain", "--players", "3", *args, timeout=60)
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_the_hands_page_in_the_browser_names_the_card_to_tap_and_the_table_page_does_not(chromium):
    """Intrigue's first decision: every seat lays a card from its hand. The hands page (a phone) says
    which, in the game's words; the table page (a TV) says only that the bot waits for a hidden card."""
    from page_checks import problems
    session = Session.new("intrigue", {"players": 2}, 4)
    seat = session.state["asks"][0]["seat"]
    runner = TableRunner(session, profile.for_game("intrigue", 2), sim_tags(session.state), report=lambda line: None)
    hands = bothands.BotHands(session, runner, [seat])
    plan = hands.open_plans()[0]
    card = runner.card_words(plan["tap"][1])
    web = WebGame(session, runner, answerable=[], hands=hands)
    try:
        with WebServer(build_app(web)) as server:
            for url, viewer, size, wanted in (
                    ("%s/hands/%d/%s" % (server.base, seat, web.hand_tokens[seat]), seat, (390, 844), ".plan"),
                    (server.base + "/table", PUBLIC, (1920, 1080), ".bot-hands")):
                page = chromium.new_page(viewport={"width": size[0], "height": size[1]})
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                try:
                    page.goto(url)
                    page.wait_for_selector(wanted)
                    text = page.inner_text(wanted)
                    if viewer == PUBLIC:
                        assert bothands.HIDDEN_CARD in text and card not in text, text
                    else:
                        assert ("Tap %s on reader %s." % (card, plan["reader"])) in text, text
                        assert page.locator("button.option").count() == 0  # the bot decides
                    bad = problems(page, core.view(session.state, viewer), tv=viewer == PUBLIC)
                    assert not bad + errors, bad + errors
                finally:
                    page.close()
    finally:
        web.close()
        session.close()
