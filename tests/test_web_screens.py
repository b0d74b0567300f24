"""Every game's pages at the sizes people use them, in headless Chromium: a seat page on a phone
(390×844) and the table page on a TV (1920×1080). No page scrolls sideways or puts an element outside
its box; the TV page has no text under 24 px; no page shows an engine field name or a card id.

Each game is checked mid-game (the state docs/make_screenshots.py pictures) and at its end, when
the pages show the result. The screenshot script itself is run too.
"""

import random
import sys
from pathlib import Path

import pytest

from maester.engine import PUBLIC, core
from maester.web.app import WebGame, build_app
from maester.web.server import WebServer
from page_checks import problems

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))
import make_screenshots as shots  # noqa: E402

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def finished(name):
    """`name`'s screenshot game played on at random to its end."""
    session, _ = shots.game(name)
    rng = random.Random(1)
    while not session.state["over"]:
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    return session, 0


def check(chromium, session, seat):
    web = WebGame(session)
    found = {}
    try:
        with WebServer(build_app(web)) as server:
            for viewer, url, size in ((seat, "%s/seat/%d/%s" % (server.base, seat, web.tokens[seat]), shots.PHONE),
                                      (PUBLIC, server.base + "/table", shots.TV)):
                page = chromium.new_page(viewport=size)
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                try:
                    page.goto(url)
                    page.wait_for_selector("body[data-updates]")
                    view = core.view(session.state, viewer)
                    found[url.rsplit("/", 1)[-1] if viewer == PUBLIC else "seat %d" % seat] = (
                        problems(page, view, tv=viewer == PUBLIC) + ["script error: %s" % e for e in errors])
                finally:
                    page.close()
    finally:
        web.close()
    bad = {k: v for k, v in found.items() if v}
    assert not bad, "\n".join("%s:\n  %s" % (k, "\n  ".join(v)) for k, v in bad.items())


@pytest.mark.parametrize("name", sorted(shots.GAMES))
def test_mid_game_pages_fit_a_phone_and_a_tv_in_the_games_words(chromium, name):
    check(chromium, *shots.game(name))


@pytest.mark.parametrize("name", sorted(shots.GAMES))
def test_the_pages_at_the_end_of_a_game_fit_too(chromium, name):
    check(chromium, *finished(name))


def test_the_screenshot_script_pictures_every_game(chromium, tmp_path):
    paths = shots.make(tmp_path, chromium)
    assert sorted(p.name for p in paths) == sorted(["%s-%s.png" % (g, kind) for g in shots.GAMES
                                                    for kind in ("seat", "seat-hand", "table")] + ["undo-reconcile.png"])
    for path in paths:
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_a_game_without_a_layout_still_gets_its_pages_from_the_generic_renderer(chromium, monkeypatch):
    """A new game needs no page code to be played in the browser: without a layout the view is drawn
    by shape (hints only choose words and order)."""
    from maester.web import payload
    monkeypatch.setattr(payload, "_web_module", lambda game: None)
    session, seat = shots.game("btwixt")
    ask = session.state["asks"][0]
    web = WebGame(session)
    try:
        with WebServer(build_app(web)) as server:
            page = chromium.new_page(viewport=shots.PHONE)
            try:
                page.goto("%s/seat/%d/%s" % (server.base, seat, web.tokens[seat]))
                page.wait_for_selector("body[data-updates]")
                assert page.locator('button[data-ask="%d"]' % ask["id"]).count() == len(ask["choices"])
                hand = set(core.view(session.state, seat)["hand"])
                drawn = set(page.eval_on_selector_all("#tab-secret .card", "els => els.map(e => e.title)"))
                assert hand and hand <= drawn
                assert page.locator("#tab-board section.item").count() > 5  # the view's parts, drawn by shape
            finally:
                page.close()
    finally:
        web.close()
