"""Make docs/screenshots/seat.png and table.png: a B'Twixt game mid-round, in headless Chromium.

    .venv/bin/python docs/make_screenshots.py [OUT_DIR]

The game is always the same one (fixed seed and fixed moves), so the pictures change only when the
pages do. The test suite calls `make()` into a temporary folder to check that this still works.
"""

import os
import random
import sys
import tempfile
from pathlib import Path

from maester.engine.session import Session
from maester.web import browser
from maester.web.app import WebGame, build_app
from maester.web.server import WebServer

OUT = Path(__file__).resolve().parent / "screenshots"
SEED, MOVES, SEAT = 11, 40, 1


def game():
    """A 4-player B'Twixt game some way into its first rounds, with seat 1 to decide."""
    session = Session.new("btwixt", {"players": 4, "owner_cards": False}, SEED)
    rng = random.Random(SEED)
    moves = 0
    while moves < MOVES or session.state["asks"][0]["seat"] != SEAT:
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
        moves += 1
    return session


def make(out=OUT, chromium=None):
    """Write the two pictures into `out`; `chromium`: a Playwright browser to use (else one is started)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if chromium is None:
        from playwright.sync_api import sync_playwright
        with sync_playwright() as p:
            b = browser.launch(p)
            try:
                return make(out, b)
            finally:
                b.close()
    session = game()
    web = WebGame(session)
    with WebServer(build_app(web)) as server:
        page = chromium.new_page(viewport={"width": 1100, "height": 900})
        shots = {"seat.png": "%s/seat/%d/%s" % (server.base, SEAT, web.tokens[SEAT]),
                 "table.png": server.base + "/table"}
        for name, url in shots.items():
            page.goto(url)
            page.wait_for_selector("body[data-updates]")
            page.screenshot(path=str(out / name), full_page=True)
        page.close()
    web.close()
    return [out / name for name in ("seat.png", "table.png")]


if __name__ == "__main__":
    # Card data as shipped, not an owner's corrections from ~/.maester.
    os.environ.setdefault("MAESTER_HOME", tempfile.mkdtemp(prefix="maester-shots-"))
    for path in make(sys.argv[1] if len(sys.argv) > 1 else OUT):
        print(path)
