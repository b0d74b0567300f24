"""Make docs/screenshots/: every game's seat page on a phone (390×844: the page as it opens, and its
hand tab) and its table page on a TV (1920×1080), one screenful each; undo-reconcile.png, a table
page listing the card an agreed undo puts back; `maester replay`'s page (replay.png: a finished game
stepped back to a move, the seats' hidden cards shown); and `clock-table.png`, a B'Twixt table page
with its seats' clocks (`--clock 25m+10s`, table/clocks.py), one of them low on time.

    .venv/bin/python docs/make_screenshots.py [OUT_DIR]

Each game is always the same one (fixed seed, fixed random moves until a chosen seat must decide),
so the pictures change only when the pages do. The tests call `make()` into a temporary folder and
check every page these games give (tests/test_web_screens.py).
"""

import os
import random
import sys
import tempfile
from pathlib import Path

from maester.engine.session import Session
from maester.table import asking, clocks
from maester.web import browser
from maester.web import replay as replays
from maester.web import replay_app
from maester.web.app import WebGame, build_app
from maester.web.server import WebServer

OUT = Path(__file__).resolve().parent / "screenshots"
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
# game: (config, seed, moves at least, the kind of decision to stop at or None). The page shown is
# that of the seat deciding then.
GAMES = {
    "btwixt": ({"players": 4}, 11, 40, None),
    "intrigue": ({"players": 4, "variants": ["winner_starts"]}, 3, 14, None),  # a house rule: said in words
    "oathbreaker": ({"players": 6}, 5, 60, None),
    "lcg": ({"players": 2, "decks": ["stark", "lannister"]}, 7, 120, "defenders"),  # a challenge to answer
}


def game(name):
    """`name`'s game some way in, stopped when a seat (not the table) is to decide. Returns
    (session, that seat)."""
    config, seed, moves, kind = GAMES[name]
    session = Session.new(name, dict(config, owner_cards=False), seed)
    rng = random.Random(seed)
    done = 0
    while (done < moves or not isinstance(session.state["asks"][0]["seat"], int)
           or kind and session.state["asks"][0]["kind"] != kind):
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
        done += 1
    return session, session.state["asks"][0]["seat"]


def shoot(chromium, url, viewport, path, tab=None):
    """What the screen shows (not the whole scrolled page): a phone or a TV shows one screenful."""
    page = chromium.new_page(viewport=viewport)
    try:
        page.goto(url)
        page.wait_for_selector("body[data-updates]")
        if tab:
            page.click('[data-tab="%s"]' % tab)
        page.screenshot(path=str(path))
    finally:
        page.close()


def with_chromium(make_pictures, out, **more):
    """`make_pictures(out, chromium, **more)` with a Chromium started for it, and closed after."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = browser.launch(p)
        try:
            return make_pictures(out, b, **more)
        finally:
            b.close()


def make(out=OUT, chromium=None, games=None):
    """Write `<game>-seat.png`, `<game>-seat-hand.png` and `<game>-table.png` into `out` for each game;
    returns the paths.
    `chromium`: a Playwright browser to use (else one is started)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if chromium is None:
        return with_chromium(make, out, games=games)
    paths = [] if games else [undo_reconcile(out, chromium)]
    for name in games or GAMES:
        session, seat = game(name)
        web = WebGame(session)
        try:
            with WebServer(build_app(web)) as server:
                seat_url = "%s/seat/%d/%s" % (server.base, seat, web.tokens[seat])
                pictures = [(seat_url, PHONE, "seat", None), (seat_url, PHONE, "seat-hand", "secret"),
                            (server.base + "/table", TV, "table", None)]
                for url, size, kind, tab in pictures:
                    path = out / ("%s-%s.png" % (name, kind))
                    shoot(chromium, url, size, path, tab)
                    paths.append(path)
        finally:
            web.close()
    return paths


REPLAY = ("intrigue", 40)  # the game whose replay is pictured, and the move shown


def replay_shot(out, chromium):
    """Write `replay.png` into `out` with `chromium` (a Playwright browser): the game of
    GAMES[REPLAY[0]] played to its end with the same random moves, replayed from its log, at move
    REPLAY[1] with the seats' hidden cards shown. Returns its path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    name, move = REPLAY
    config, seed, _, _ = GAMES[name]
    with tempfile.TemporaryDirectory() as folder:
        log = os.path.join(folder, "game.sqlite")
        session = Session.new(name, dict(config, owner_cards=False), seed, log_path=log)
        rng = random.Random(seed)
        while not session.state["over"]:
            ask = session.state["asks"][0]
            assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
        session.close()
        replay = replays.load(log)
    path = out / "replay.png"
    with WebServer(replay_app.build_app(replay)) as server:
        page = chromium.new_page(viewport=TV)
        try:
            page.goto(server.base + "/replay")
            page.wait_for_selector('body[data-move="0"]')
            page.fill("#slider", str(move))
            page.check("#show-secrets")
            page.wait_for_selector(".seat-secret")
            page.wait_for_selector('body[data-move="%d"]' % move)
            page.screenshot(path=str(path), full_page=True)
        finally:
            page.close()
    return path


def clock_table(out=OUT, chromium=None):
    """`clock-table.png`: the B'Twixt game above on the TV with a 25m+10s clock at each seat, the
    seat deciding low on time (its clock and its LED segment blink). Time is a number here, fixed."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if chromium is None:
        return with_chromium(clock_table, out)
    session, seat = game("btwixt")
    seats = range(GAMES["btwixt"][0]["players"])
    left = {s: (25 - 3 * s) * 60000 + 17000 * s for s in seats}
    left[seat] = 42000
    pacer = asking.Pacer(session, list(seats))  # not started: nothing answers; it carries the clocks
    pacer.clocks = clocks.SessionClocks(session, clocks.Clocks(clocks.parse_clock("25m+10s"), seats, 0.0, left),
                                        lambda: 0.0)
    web = WebGame(session, pacer=pacer)
    try:
        with WebServer(build_app(web)) as server:
            path = out / "clock-table.png"
            shoot(chromium, server.base + "/table", TV, path)
    finally:
        pacer.clocks.close()
        web.close()
    return path


def undo_reconcile(out, chromium):
    """`undo-reconcile.png`: a Westeros Intrigue table page on a TV after an agreed undo, listing the
    card to put back (issue 30, item 1). Seats 0 and 1 play on their pages."""
    from maester.web import undo as web_undo
    session = Session.new("intrigue", {"players": 4, "owner_cards": False}, 3)
    rng = random.Random(3)
    for _ in range(14):
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    web = WebGame(session, answerable=[0, 1])
    try:
        by = session.moves[-1][0]["seat"] if session.moves[-1][0]["seat"] in (0, 1) else 0
        web_undo.choose(web, by, "ask")
        for seat in list(web.undoing.waiting):
            web_undo.choose(web, seat, "yes")
        with WebServer(build_app(web)) as server:
            path = Path(out) / "undo-reconcile.png"
            shoot(chromium, server.base + "/table", TV, path)
            return path
    finally:
        web.close()


if __name__ == "__main__":
    # Card data as shipped, not an owner's corrections from ~/.maester.
    os.environ.setdefault("MAESTER_HOME", tempfile.mkdtemp(prefix="maester-shots-"))
    from playwright.sync_api import sync_playwright
    where = sys.argv[1] if len(sys.argv) > 1 else OUT
    with sync_playwright() as p:
        chromium = browser.launch(p)
        try:
            for path in make(where, chromium) + [replay_shot(where, chromium), clock_table(where, chromium)]:
                print(path)
        finally:
            chromium.close()
