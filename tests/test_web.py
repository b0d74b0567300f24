"""Seat pages and the table page, in a real headless Chromium (Debian's), and their payloads.

Browser tests: a seat decides on its page and the game moves on (the command is in the log); a
seat's page shows its own secrets and peeks, never another seat's; a wrong token gets a bare 403;
the table page follows a tap (log, whose turn, LEDs); a tap that fits several places is placed
from the seat page; every game renders with no script error.
Leak tests (HTTP and websocket payloads, no browser): change only what a viewer may not see, in
the state or in the events, and require that viewer's payloads to stay byte-identical.

Chromium comes from `make browser` (apt-get). Only when that install failed, and said so in
.venv/browser-unavailable, do the browser tests skip, with a warning; a missing browser that
nobody tried to install is a failure that says how to install it.
"""

import contextlib
import copy
import io
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from maester.engine import PUBLIC, REFEREE, apply, cardtables, new_game
from maester.engine.log import GameLog
from maester.engine.session import Session
from maester.link.serial_link import Tap
from maester.table import profile as P
from maester.table.runner import TableRunner, sim_tags, sim_uid
from maester.table.taps import command_for_tap
from maester.web.app import WebGame, build_app
from maester.web.server import WebServer

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = {"btwixt": {"players": 4}, "intrigue": {"players": 4}, "oathbreaker": {"players": 6}}
WAIT_MS = 10_000


pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def start(game, seed, moves=0, log=None, players=None):
    """A session of `game` after `moves` random legal moves."""
    config = dict(CONFIGS[game], owner_cards=False)
    if players:
        config["players"] = players
    session = Session.new(game, config, seed, log_path=log)
    rng = random.Random(seed)
    for _ in range(moves):
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    return session


@contextlib.contextmanager
def served(session, runner=None, answerable=None):
    web = WebGame(session, runner, answerable)
    server = WebServer(build_app(web)).start()
    try:
        yield web, server.base
    finally:
        server.stop()
        web.close()


def seat_url(web, base, seat, token=None):
    return "%s/seat/%d/%s" % (base, seat, web.tokens[seat] if token is None else token)


# --- the browser ---------------------------------------------------------------------------------

def _page(chromium, viewport):
    """A fresh page of that size; the test fails on any script error it raised."""
    context = chromium.new_context(viewport=viewport)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(WAIT_MS)
    yield pg
    context.close()
    assert not errors, "script errors on the page: %s" % errors


@pytest.fixture
def page(chromium):
    yield from _page(chromium, {"width": 1100, "height": 900})


@pytest.fixture
def phone(chromium):
    """A page the size of a phone, as a seat's page is held."""
    yield from _page(chromium, {"width": 390, "height": 844})


def open_page(page, url):
    response = page.goto(url)
    assert response.status == 200, url
    page.wait_for_selector("body[data-updates]")
    return page


def updates(page):
    return int(page.get_attribute("body", "data-updates") or 0)


def titles(page, selector=".card"):
    """The card ids drawn on the page (each card chip carries its id, never shown as text)."""
    return set(page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.card || e.title)"))


def wait_until(predicate, timeout=WAIT_MS / 1000):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# --- a seat decides on its page -------------------------------------------------------------------

def test_a_seat_decides_on_its_page_and_the_game_moves_on(page, tmp_path):
    session = start("btwixt", 5, moves=3, log=tmp_path / "g.sqlite")
    ask = session.state["asks"][0]
    seat, seq = ask["seat"], session.state["seq"]
    with served(session) as (web, base):
        open_page(page, seat_url(web, base, seat))
        buttons = page.locator('button[data-ask="%d"]' % ask["id"])
        assert buttons.count() == len(ask["choices"])
        before = updates(page)
        buttons.nth(len(ask["choices"]) - 1).click()
        wait_until(lambda: session.state["seq"] == seq + 1)
        wait_until(lambda: updates(page) > before)
        # The page redrew for the next decision: the old buttons are gone.
        page.wait_for_selector('button[data-ask="%d"]' % ask["id"], state="detached")
        assert session.state["asks"][0]["id"] > ask["id"]
    # The command is in the log exactly as a tap would have put it there, and replays.
    log = GameLog.open(str(tmp_path / "g.sqlite"))
    entries = list(log.entries())
    log.close()
    assert entries[-1][1] == {"seat": seat, "ask": ask["id"], "choice": ask["choices"][-1]}
    session.close()
    again = Session.resume(str(tmp_path / "g.sqlite"))
    assert again.state == session.state
    again.close()


def test_a_refused_choice_says_why_to_that_seat_only_and_changes_nothing(tmp_path):
    session = start("btwixt", 5, moves=3)
    ask = session.state["asks"][0]
    seat, other = ask["seat"], (ask["seat"] + 1) % 4
    before = copy.deepcopy(session.state)
    with served(session, answerable=[seat]) as (web, base):
        r = httpx.post(seat_url(web, base, seat) + "/choose", json={"ask": ask["id"] + 7, "choice": ["kneel"]})
        assert r.status_code == 409 and "closed" in r.json()["reason"]
        r = httpx.post(seat_url(web, base, seat) + "/choose", json={"ask": ask["id"], "choice": ["nonsense"]})
        assert r.status_code == 409 and "not a legal choice" in r.json()["reason"]
        # A seat no page plays (a bot's) has no token, so no page: the same bare 403 as a wrong token.
        assert other not in web.tokens
        r = httpx.post(seat_url(web, base, other, web.tokens[seat]) + "/choose",
                       json={"ask": ask["id"], "choice": ask["choices"][0]})
        assert (r.status_code, r.text) == (403, "forbidden")
        r = httpx.post(seat_url(web, base, seat) + "/choose", content=b"{not json")
        assert r.status_code == 400
    assert session.state == before


def test_a_choice_of_the_wrong_json_type_or_depth_is_refused_with_a_reason_never_a_500(tmp_path):
    session = start("btwixt", 5, log=tmp_path / "g.sqlite")
    rng = random.Random(5)
    while True:  # on to a decision with a number in a choice (a council, a pile)
        ask = session.state["asks"][0]
        numbered = [c for c in ask["choices"] if any(type(x) is int for x in c)]
        if numbered:
            break
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    seat = ask["seat"]
    before = copy.deepcopy(session.state)
    with served(session, answerable=[seat]) as (web, base):
        url = seat_url(web, base, seat) + "/choose"
        floated = [float(x) if type(x) is int else x for x in numbered[0]]
        for body in ({"ask": ask["id"], "choice": floated},
                     {"ask": ask["id"], "choice": [numbered[0]]},
                     {"ask": ask["id"], "choice": {"c": numbered[0]}},
                     {"ask": ask["id"], "choice": ask["choices"][0] + [1.5]}):
            r = httpx.post(url, json=body)
            assert r.status_code == 409 and "not a legal choice" in r.json()["reason"], (body, r.text)
        # true is not decision 1, 2.0 is not decision 2.
        for bad in (True, float(ask["id"]), str(ask["id"])):
            r = httpx.post(url, json={"ask": bad, "choice": ask["choices"][0]})
            assert r.status_code == 400 and r.json()["reason"], bad
        r = httpx.post(url, json={"ask": ask["id"], "choice": ask["choices"][0], "pending": True})
        assert r.status_code == 400
        # A body nested deeper than any parser's recursion: refused as unreadable, not a 500.
        deep = b"[" * 100_000 + b"]" * 100_000
        for content in (deep, b'{"ask": %d, "choice": ' % ask["id"] + deep + b"}"):
            r = httpx.post(url, content=content)
            assert r.status_code == 400 and r.json()["reason"]
    assert session.state == before


# --- secrets ---------------------------------------------------------------------------------------

def test_a_seat_page_shows_its_own_secrets_and_never_another_seats(page):
    session = start("oathbreaker", 3, moves=12)
    g = session.state["g"]
    me, other = g["nobles"][0], g["nobles"][1]
    with served(session) as (web, base):
        open_page(page, seat_url(web, base, me))
        secret_box = titles(page, "#tab-secret .card")
        assert set(g["hands"][me]) <= secret_box and g["ambition"][me] in secret_box
        page.click('[data-tab="secret"]')
        assert page.inner_text("#tab-secret").lower().count(g["loyalty"][me]) >= 1
        drawn = titles(page)
        assert not drawn & set(g["hands"][other]), "another noble's hand is on the page"
        assert g["ambition"][other] not in drawn
        text = page.inner_text("body")
        ambition_name = cardtables.get(g["table"])["info"][g["ambition"][other].split("#")[0]]["name"]
        assert ambition_name not in text
        # The King's decree hand is his alone.
        king = g["monarchs"][0]
        assert not drawn & set(g["decree_hands"][king])


def peek_game():
    """A B'Twixt game at the moment some seat has seen another's hand (Intercepted)."""
    session = start("btwixt", 1)
    rng = random.Random(1)
    while True:
        for seat in range(4):
            seen = session.view(seat)["seen_hands"]
            if any(session.state["g"]["hands"][int(t)] for t in seen):
                return session, seat, int(next(iter(seen)))
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok


def test_a_peek_granted_by_a_card_shows_on_that_seat_page_only(page):
    session, peeker, target = peek_game()
    hand = set(session.state["g"]["hands"][target])
    with served(session) as (web, base):
        open_page(page, seat_url(web, base, peeker))
        assert hand <= titles(page, '#tab-secret .card')
        for seat in range(4):
            if seat in (peeker, target):
                continue
            open_page(page, seat_url(web, base, seat))
            assert not titles(page) & hand, "seat %d sees the peeked hand" % seat
        open_page(page, base + "/table")
        assert not titles(page) & hand


# --- tokens ------------------------------------------------------------------------------------------

def test_a_missing_or_wrong_token_gets_a_bare_403():
    session = start("btwixt", 2, moves=2)
    with served(session) as (web, base):
        wrong = [base + "/seat/1", base + "/seat/1/", seat_url(web, base, 1, "not-the-token"),
                 seat_url(web, base, 1, web.tokens[2]),  # seat 2's token on seat 1's page
                 seat_url(web, base, 9, web.tokens[1]), base + "/seat/x/" + web.tokens[1]]
        for url in wrong:
            for suffix in ("", "/state"):
                r = httpx.get(url + suffix, follow_redirects=True)
                assert (r.status_code, r.text) == (403, "forbidden"), url + suffix
            r = httpx.post(url + "/choose", json={"ask": 1, "choice": ["kneel"]})
            assert (r.status_code, r.text) == (403, "forbidden"), url
            with pytest.raises(InvalidStatus) as refused:
                connect(url.replace("http://", "ws://") + "/ws", open_timeout=5).close()
            assert refused.value.response.status_code == 403
    tokens = WebGame(session).tokens
    assert tokens != web.tokens and len(set(tokens.values())) == 4  # drawn afresh for every game


def test_the_browser_gets_only_the_word_forbidden_with_another_seats_token(page):
    session = start("btwixt", 2, moves=2)
    with served(session) as (web, base):
        response = page.goto(seat_url(web, base, 1, web.tokens[0]))
        assert response.status == 403 and page.inner_text("body").strip() == "forbidden"
        assert web.tokens[1] not in page.content()


# --- the table page follows the table ------------------------------------------------------------------

def tap(runner, place, card):
    reader = [r["name"] for r in runner.profile["readers"]].index("table" if place == "table" else "seat%d" % place)
    runner.on_tap(Tap(reader, "placed", bytes.fromhex(sim_uid(card)), 1))


def tappable(state):
    """(seat, card) for a tap that answers the first open ask, or None."""
    ask = state["asks"][0]
    cards = {x for c in ask["choices"] for x in c if isinstance(x, str) and "#" in x}
    for card in sorted(cards):
        if command_for_tap(state, ask["seat"], card)[0] is not None:
            return ask["seat"], card
    return None


def test_the_table_page_follows_a_tap(page):
    session = start("btwixt", 7)
    said = []
    runner = TableRunner(session, P.for_game("btwixt", 4), sim_tags(session.state), report=said.append)
    rng = random.Random(7)
    while tappable(session.state) is None:
        ask = session.state["asks"][0]
        assert runner.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    seat, card = tappable(session.state)
    with served(session, runner) as (web, base):
        open_page(page, base + "/table")
        assert page.locator("[data-segment]").count() == len(P.for_game("btwixt", 4)["segments"])
        assert "pulse" in page.get_attribute('[data-segment="seat%d"] .pixels' % seat, "class")
        assert page.locator('#waiting [data-seat="%d"]' % seat).count() == 1
        log_before = page.inner_text("#log")
        before = updates(page)
        tap(runner, seat, card)
        assert not said, said
        wait_until(lambda: updates(page) > before)
        wait_until(lambda: page.inner_text("#log") != log_before)
        # The tapped card is played in public: its name is now in the table's log.
        name = cardtables.table(web.session.state)["info"][card.split("#")[0]]["name"]
        wait_until(lambda: name in page.inner_text("#log"))
        now = session.state["asks"][0]["seat"]
        page.wait_for_selector('#waiting [data-seat="%d"]' % now)
        if now != seat:
            assert "pulse" not in page.get_attribute('[data-segment="seat%d"] .pixels' % seat, "class")
        assert "pulse" in page.get_attribute('[data-segment="seat%d"] .pixels' % now, "class")


def test_a_tap_that_fits_several_places_is_placed_from_the_seat_page(page, tmp_path):
    session = Session.new("intrigue", {"players": 3}, 4, log_path=tmp_path / "g.sqlite")
    said = []
    runner = TableRunner(session, P.for_game("intrigue", 3), sim_tags(session.state), report=said.append)
    first = session.state["asks"][0]
    tap(runner, first["seat"], first["choices"][0][1])
    ask = session.state["asks"][0]
    seat, card = ask["seat"], ask["choices"][0][1]
    with served(session, runner) as (web, base):
        open_page(page, seat_url(web, base, seat))
        tap(runner, seat, card)
        buttons = page.locator("button[data-pending]")
        buttons.first.wait_for()
        assert buttons.count() == 2 and "fits in 2 places" in said[-1]
        assert card not in said[-1]  # the host display never names it
        buttons.nth(1).click()
        wait_until(lambda: session.state["seq"] == 2)
    assert session.state["g"]["court"]["cards"][0][8] == card
    session.close()


# --- every game, drawn from its view alone -------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_every_game_renders_its_pages_with_no_script_error(page, game):
    session = start(game, 4, moves=15)
    ask = session.state["asks"][0]
    with served(session) as (web, base):
        open_page(page, base + "/table")
        players = CONFIGS[game]["players"]
        assert page.locator("[data-segment]").count() == len(P.for_game(game, players)["segments"])
        assert page.locator("#log li").count() > 0
        open_page(page, seat_url(web, base, ask["seat"]))
        # Every choice is offered: as a button, or as a card to pick and then a place to tap.
        picks = page.eval_on_selector_all('[data-ask="%d"]' % ask["id"], "els => els.map(e => e.dataset.pick || '')")
        buttons = sum(1 for p in picks if not p)
        payload = web.seat_json(ask["seat"])
        options = json.loads(payload)["decisions"][0]["options"]
        assert buttons == sum(1 for o in options if "at" not in o) and len(options) == len(ask["choices"])
        assert set(p for p in picks if p) == {o["pick"] for o in options if "at" in o}
        assert page.locator("#tab-secret section").count() > 0
        assert page.locator("#tab-board section").count() >= 3


# --- leaks: payloads over HTTP and websockets ---------------------------------------------------------

def states_along(game, seed, every):
    state, events = new_game(game, dict(CONFIGS[game], owner_cards=False), seed)
    rng = random.Random(seed)
    i = 0
    while not state["over"]:
        if i % every == 0:
            yield copy.deepcopy(state), list(events)
        ask = state["asks"][0]
        events += apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).events
        i += 1


def variations(game, state, rng):
    """(a copy of `state` changed only in what some viewers may not see, those viewers, its owner)."""
    seats = range(state["g"]["n"])
    if game == "btwixt":
        from test_btwixt_leaks import hide_differently, may_see_hand
        for s in seats:
            blind = [v for v in seats if v != s and not may_see_hand(state, v, s)]
            yield hide_differently(state, s, rng), [PUBLIC] + blind, s
    elif game == "intrigue":
        from test_intrigue import hide_differently
        for v in [PUBLIC] + list(seats):
            yield hide_differently(state, v, rng), [v], None
    else:
        from test_oathbreaker_leaks import hide_differently, may_see
        for s in seats:
            yield hide_differently(state, s, rng), [v for v in [PUBLIC] + list(seats) if not may_see(state, v, s)], s


# One client for the many requests of the payload test: httpx.get builds a client, and with it an SSL
# context, on every call (~20 ms; 150 ms on a loaded machine). A new connection per request all the
# same: a kept-alive one waited ~40 ms per request on delayed ACKs.
FRESH = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))


class Pages:
    """Every payload a viewer can fetch: the page, its state over HTTP, its first websocket message."""

    def __init__(self, web, base):
        self.web, self.base = web, base

    def url(self, viewer):
        return self.base + "/table" if viewer == PUBLIC else seat_url(self.web, self.base, viewer)

    def fetch(self, viewer, ws=True):
        url = self.url(viewer)
        out = [FRESH.get(url).text, FRESH.get(url + "/state").text]
        if ws:
            with connect(url.replace("http://", "ws://") + "/ws", open_timeout=5) as sock:
                out.append(sock.recv(timeout=5))
        return out


@pytest.mark.parametrize("game,every", [("btwixt", 23), ("intrigue", 5), ("oathbreaker", 37)])
def test_payloads_do_not_change_with_what_the_viewer_may_not_see(game, every):
    rng = random.Random(every)
    session = start(game, 1)
    checked = changed = 0
    with served(session) as (web, base):
        pages = Pages(web, base)
        for n, (state, events) in enumerate(states_along(game, seed=every, every=every)):
            session.events = events
            ws = n % 2 == 0  # websockets on every other state: the same payload, and slower to open
            for other, blind, owner in variations(game, state, rng):
                for viewer in blind:
                    session.state = state
                    mine = pages.fetch(viewer, ws)
                    session.state = other
                    assert pages.fetch(viewer, ws) == mine, \
                        "%s's payload changed with what it may not see (%s, move %d)" % (viewer, game, state["seq"])
                    checked += 1
                if owner is not None:
                    session.state = state
                    mine = pages.fetch(owner, ws=False)[1]
                    session.state = other
                    changed += pages.fetch(owner, ws=False)[1] != mine
            assert json.loads(pages.fetch(PUBLIC, ws=False)[1])["kind"] == "table"
    assert checked > 40
    assert changed > 0 or game == "intrigue", "the differential test never changed a payload"


def card_ids(value):
    if isinstance(value, str):
        return {value} if "#" in value else set()
    if isinstance(value, (list, dict)):
        return set().union(*(card_ids(v) for v in (value.values() if isinstance(value, dict) else value)))
    return set()


def swap_cards(value, cards):
    if isinstance(value, str):
        return cards[(cards.index(value) + 1) % len(cards)] if value in cards else value
    if isinstance(value, list):
        return [swap_cards(v, cards) for v in value]
    if isinstance(value, dict):
        return {k: swap_cards(v, cards) for k, v in value.items()}
    return value


def disguise(events, viewer, cards, drop=False):
    """The events with every one that `viewer` may not see changed (other cards, an extra field)
    or, with `drop`, left out."""
    out, touched = [], 0
    for e in events:
        vis = e.get("vis")
        if vis is not None and (vis == REFEREE or viewer not in vis):
            touched += 1
            if drop:
                continue
            e = {k: (v if k == "vis" else swap_cards(v, cards)) for k, v in e.items()}
            e["canary"] = "the secret"
        out.append(e)
    return out, touched


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_log_lines_do_not_change_with_events_the_viewer_may_not_see(game):
    session = start(game, 6, moves=60)
    events = session.events
    cards = sorted(card_ids(events))
    with served(session) as (web, base):
        pages = Pages(web, base)
        touched = 0
        for viewer in [PUBLIC] + list(range(CONFIGS[game]["players"])):
            session.events = events
            mine = pages.fetch(viewer)
            for drop in (False, True):
                session.events, n = disguise(events, viewer, cards, drop)
                touched += n
                assert pages.fetch(viewer) == mine, "%s's payload changed with events it may not see" % viewer
        # The differential can fail: without its last private event, the owner's page changes.
        last = max(i for i, e in enumerate(events) if isinstance(e.get("vis"), list) and e["vis"])
        owner = events[last]["vis"][0]
        session.events = events[:last + 1]
        mine = pages.fetch(owner, ws=False)
        session.events = events[:last]
        assert pages.fetch(owner, ws=False) != mine
        assert touched > 0


# --- the command line ----------------------------------------------------------------------------------

def maester(home, *args):
    env = dict(os.environ, MAESTER_HOME=str(home), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "maester.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_maester_serve_serves_a_saved_game(tmp_path):
    log = tmp_path / "g.sqlite"
    start("intrigue", 3, moves=5, log=str(log)).close()
    with socket.socket() as s:  # a port that is free now, to see --web-port obeyed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = maester(tmp_path, "serve", "--log", str(log), "--no-qr", "--web-port", str(port))
    try:
        out = ""
        while "Serving" not in out:
            line = proc.stdout.readline()
            assert line, "serve ended early: " + out + proc.stderr.read()
            out += line
        table = re.search(r"Table page \(public\): (\S+)", out).group(1)
        seats = re.findall(r"private page: (\S+)", out)
        assert len(seats) == 4 and table == "http://127.0.0.1:%d/table" % port
        assert httpx.get(table + "/state").json()["kind"] == "table"
        mine = httpx.get(seats[2] + "/state").json()
        assert mine["seat"] == 2 and "hand" in mine["view"]
        assert httpx.get(seats[2].rsplit("/", 1)[0] + "/wrong/state").status_code == 403
        assert httpx.get(seats[2].replace("/seat/2/", "/seat/1/") + "/state").status_code == 403
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
    assert proc.returncode == 0


def test_maester_play_with_web_prints_the_links_and_plays_to_the_end(tmp_path):
    log = tmp_path / "g.sqlite"
    proc = maester(tmp_path, "play", "btwixt", "--sim", "--plain", "--no-table", "--web", "--delay", "0",
                   "--seed", "3", "--log", str(log))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    # Every seat is a bot: the table page, and no seat link (a bot's seat has no page to open;
    # tests/test_announce.py checks the people's links).
    assert "Table page (public): http://127.0.0.1:" in out and "private page:" not in out
    assert re.search(r"^(Winner|Shared victory): ", out, re.M)
    saved = Path(str(log) + ".links")
    assert saved.stat().st_mode & 0o077 == 0  # the seats' keys: readable by their owner only
    proc = maester(tmp_path, "play", "btwixt", "--sim", "--plain", "--no-table", "--delay", "0", "--seed", "3",
                   "--log", str(tmp_path / "h.sqlite"))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "private page" not in out  # piped output: no pages unless asked


def test_pages_listen_on_loopback_unless_lan_which_warns_and_prints_each_link():
    from maester.web import launch
    session = start("btwixt", 2)
    web = WebGame(session)
    assert WebServer(build_app(web)).host == "127.0.0.1"
    assert (launch._host(False), launch._host(True)) == ("127.0.0.1", "0.0.0.0")
    out = io.StringIO()
    with WebServer(build_app(web), launch._host(True)) as server:
        found = launch.announce(web, server, True, ["A", "B", "C", "D"], out=out)
        assert httpx.get("http://127.0.0.1:%d/table/state" % server.port).status_code == 200
    text = out.getvalue()
    assert text.startswith("WARNING: --lan") and "share each link only with its player" in text
    for seat, token in web.tokens.items():
        assert found["seats"][seat].endswith("/seat/%d/%s" % (seat, token)) and found["seats"][seat] in text
    assert "\u2588" in text or "\u2580" in text  # a QR code drawn with blocks under each link
    web.close()


# --- screenshots --------------------------------------------------------------------------------------------

def test_the_screenshot_script_draws_both_pages(chromium, tmp_path):
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import make_screenshots
    finally:
        sys.path.pop(0)
    for path in make_screenshots.make(tmp_path, chromium):
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
