"""Card text where a player needs it (issue 28, item 6): `?` or `help` at a terminal prompt and a tap on
a card's name on a page show the card in our own words, from the game's card data; at 80×24 the LCG
shows every character on the table while a seat declares a challenge, not "… and 2 more".
"""

import random
import re
import time
from pathlib import Path

import pytest

from maester import games
from maester.cards import db as cardsdb
from maester.engine import PUBLIC, cardtables, core
from maester.engine.log import GameLog
from maester.engine.session import Session
from maester.games.lcg.text import Names as LcgNames
from maester.games.text import about_card

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"  # the rulebooks, beside the worktrees


def _sections(game):
    return cardsdb.SECTIONS[game] + (("leaders",) if game == "btwixt" else ())


def _rulebook_text():
    if not SEEDS.is_dir():
        return ""
    return " ".join(" ".join(p.read_text(errors="replace").split()) for p in SEEDS.glob("*.txt")).lower()


def test_every_card_of_every_game_is_described_from_its_data_in_our_own_words():
    rulebooks = _rulebook_text()
    for game in games.NAMES:
        records = [r for _, r in cardsdb.records(cardsdb.load(game), _sections(game))]
        assert records, game
        for rec in records:
            about = about_card(game, rec["id"] + "#1")  # asked by a copy's id, as the pages and prompts do
            assert about is not None and about["name"] == rec["name"], (game, rec["id"])
            assert about["lines"] and all(about["lines"]), (game, rec["id"], about)
            for line in about["lines"]:
                assert not re.search(r"\b[a-z]+_[a-z_]+\b|[A-Za-z0-9]#\d", line), (game, rec["id"], line)
            # Whole sentences of a rulebook never reach a player through this text.
            for sentence in re.split(r"(?<=[.!?])\s+", " ".join(about["lines"])):
                if len(sentence) >= 40:
                    assert sentence.lower() not in rulebooks, (game, rec["id"], sentence)
    assert about_card("lcg", "no-such-card#1") is None


def test_an_lcg_card_says_its_cost_str_icons_keywords_and_ability():
    recs = {r["id"]: r for r in cardsdb.load("lcg")["cards"]}
    eddard = next(r for r in recs.values() if r["name"] == "Eddard Stark")
    text = "\n".join(about_card("lcg", eddard["id"] + "#0")["lines"])
    assert "cost %d gold" % eddard["cost"] in text and "STR %d" % eddard["str"] in text
    assert "icons: " + ", ".join(eddard["icons"]) in text
    assert "Ability: " + eddard["ability"] in text
    keyworded = next(r for r in recs.values() if r["type"] == "character" and "stealth" in r["keywords"])
    assert "Keywords: " in "\n".join(about_card("lcg", keyworded["id"])["lines"])
    plot = next(r for r in recs.values() if r["type"] == "plot")
    assert "income %d, initiative %d, claim %d" % (plot["plot"]["income"], plot["plot"]["initiative"],
                                                  plot["plot"]["claim"]) in "\n".join(about_card("lcg", plot["id"])["lines"])


# --- the terminal, 80×24 -------------------------------------------------------------------------------

def _replay(log_path):
    """The running game's state now, replayed from its log."""
    log = GameLog.open(str(log_path))
    try:
        meta = log.header()
        state, _ = core.new_game("lcg", meta["config"], meta["seed"], forced=meta["setup_outcomes"])
        for _, command, outcomes in log.entries():
            assert core.apply(state, command, forced=outcomes).ok
    finally:
        log.close()
    return state


def _characters_in_play(state):
    """{seat: [names of its characters in play]}, as the public view has them."""
    view = core.view(state, PUBLIC)
    nm = LcgNames(view, cardtables.table(state))
    return {s: [nm.card(e["card"]) for e in p["play"] if "str" in e] for s, p in enumerate(view["seats"])}


def test_at_80x24_a_challenge_shows_every_character_and_a_question_mark_shows_a_card(tmp_path):
    from test_terminal_screen import Run
    log = tmp_path / "g.sqlite"
    run = Run(tmp_path, 80, 24, "play", "lcg", "--sim", "--human", "0", "--no-web", "--no-table", "--seed", "3",
              "--delay", "0", "--log", str(log))
    try:
        for _ in range(400):  # through setup, plots and marshalling, passing where we can, to the first attack
            rows = run.until(r"Your choice|press Enter", timeout=60)
            text = "\n".join(rows)
            if "Declare attackers" in text:
                break
            if "Your choice" not in text:
                run.type("\r")
                continue
            attack = re.search(r"(\d+)\. Military challenge against", text)  # the first attack we can make
            done = re.search(r"(\d+)\. (Done|Pass)\b", text)
            run.type("%s\r" % (attack or done).group(1) if attack or done and "Marshal" not in text else "1\r")
        else:
            raise AssertionError("no challenge was declared:\n" + text)
        screen = "\n".join(rows)
        assert "more" not in screen.replace("m more", ""), screen  # no "… and 2 more"
        flat = " ".join(screen.split())
        state = _replay(log)
        chars = _characters_in_play(state)
        assert sum(len(c) for c in chars.values()) >= 2, chars
        for seat, names in chars.items():
            for name in names:
                assert name in flat, (seat, name, screen)
        # `?`: the cards of the options, in our words, under the table; Enter brings the options back.
        attacker = re.search(r"1\. Attack with (.+?) \(STR", screen).group(1)
        run.type("?\r")
        rows = run.until(r"Enter: back to the options")
        nm = LcgNames(state["g"], cardtables.table(state))
        about = about_card("lcg", next(c for c in state["g"]["cards"] if nm.card(c) == attacker))
        shown = " ".join(" ".join(rows).split())
        assert "%s — %s" % (attacker, about["lines"][0]) in shown
        assert " ".join(about["lines"][1].split()) in shown
        run.type("\r")
        run.until(r"1\. Attack with")
        # `? name`: a card this seat can see, not among the options (a possible defender).
        other = next((n for n in chars[1]), None)
        if other is not None:
            run.type("help %s\r" % other.split()[-1])
            rows = run.until(r"Enter: back to the options")
            assert other in " ".join(rows)
            run.type("\r")
        run.until(r"Your choice")
        run.type("q\r")
        run.finish()
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
            run.proc.wait(10)


def test_a_question_mark_at_a_plain_prompt_prints_the_options_cards(tmp_path):
    import os
    import subprocess
    import sys
    env = dict(os.environ, MAESTER_HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "maester.cli", "play", "lcg", "--sim", "--no-table", "--no-web", "--plain",
                        "--human", "0", "--seed", "2", "--delay", "0", "--log", str(tmp_path / "g.sqlite")],
                       input="?\nhelp 1\n? nobody-has-this\nq\n", capture_output=True, text=True, timeout=120, env=env)
    out = r.stdout
    assert r.returncode == 0, r.stderr
    first = re.search(r"^  1\. Place (.+?) face down", out, re.M).group(1)
    about = re.escape("%s — " % first) + r"(?:unique )?(?:character|location) · \w+\n\s+cost \d+ gold"
    assert len(re.findall(about, out)) == 2, out  # `?` and `help 1` both describe it
    assert "No card matches 'nobody-has-this'" in out


# --- the pages, in Chromium ------------------------------------------------------------------------------

@pytest.mark.parametrize("game,players", [("lcg", 2), ("btwixt", 4), ("intrigue", 3), ("oathbreaker", 5)])
def test_a_tap_on_a_card_name_shows_its_text_on_the_seat_page(chromium, game, players):
    from maester.web.app import WebGame, build_app
    from maester.web.server import WebServer
    from page_checks import problems
    session = Session.new(game, {"players": players}, 5)
    rng = random.Random(5)
    for _ in range(40):  # a few moves in: cards in hands and on the table
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    web = WebGame(session)
    try:
        with WebServer(build_app(web)) as server:
            phone = chromium.new_page(viewport={"width": 390, "height": 844})
            try:
                phone.set_default_timeout(60000)
                phone.goto("%s/seat/0/%s" % (server.base, web.tokens[0]))
                phone.wait_for_selector(".card[data-card]", state="attached")
                for tab in ("board", "secret"):  # a card shown on the open tab
                    phone.click('[data-tab="%s"]' % tab)
                    if phone.locator("#tab-%s .card[data-card]" % tab).count():
                        break
                chip = phone.locator("#tab-%s .card[data-card]" % tab).first
                card = chip.get_attribute("data-card")
                chip.click()
                phone.wait_for_selector("#card-about:not([hidden])")
                about = about_card(game, card)
                box = phone.inner_text("#card-about")
                assert about["name"].lower() in box.lower() and all(line in box for line in about["lines"]), (card, box)
                assert not problems(phone, core.view(session.state, 0))
                phone.click("#card-about")
                phone.wait_for_selector("#card-about", state="hidden")
            finally:
                phone.close()
    finally:
        web.close()
