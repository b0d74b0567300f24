"""`maester replay` (issue 30, item 2): a game stepped through move by move, as the public saw it; each
seat's hidden cards once it is over; an export that holds no secret unless asked, and a running
game's secrets refused."""

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys

import httpx
import pytest

from maester import cli
from maester.engine import bots, core
from maester.engine.session import Session
from maester.web import hints, payload, replay as replays
from maester.web.replay_app import build_app
from maester.web.server import WebServer

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

# A whole game of each, short where the game has a short form; seeds large enough that their digits
# would not turn up in a file by chance.
GAMES = {
    "btwixt": ({"players": 3, "variants": ["short"]}, 918273645),
    "intrigue": ({"players": 4}, 827364519),
    "oathbreaker": ({"players": 6}, 736451928),
    "lcg": ({"players": 2, "decks": ["stark", "lannister"]}, 645192857),  # a whole game of 320 moves
}


def as_json(value):
    return json.loads(json.dumps(value))


def secret_strings(state):
    """{string} under each seat's secret keys (web/hints.py "secret": hands, face-down cards, roles)
    that the public view does not hold: what the public must not read at this point of the game."""
    public = set(strings(core.view(state, core.PUBLIC)))
    keys = hints.for_game(state["game"]).get("secret", [])
    out = set()
    for seat in range(core.get_game(state["game"]).seat_count(state)):
        view = core.view(state, seat)
        for key in keys:
            out.update(s for s in strings(view.get(key)) if s not in public)
    return out


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def play_whole_game(game, log):
    """A whole game of bots, logged at `log`. Returns (what the table page showed after setup and after
    each move, the secret strings at each move)."""
    config, seed = GAMES[game]
    session = Session.new(game, dict(config, owner_cards=False), seed, log_path=str(log))
    players = {}
    shown = [as_json(payload.table_payload(session.state, session.events))]
    hidden = [secret_strings(session.state)]
    while not session.state["over"]:
        ask = session.state["asks"][0]
        bot = players.setdefault(ask["seat"], bots.make_bot(game, "random", seed, len(players)))
        choice = bots.decide(bot, session.state, ask["seat"], ask, core.view)
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok
        shown.append(as_json(payload.table_payload(session.state, session.events)))
        hidden.append(secret_strings(session.state))
    session.close()
    return shown, hidden


def files_in(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.fixture(scope="module")
def whole_games(tmp_path_factory):
    """{game: (log, shown, hidden, its replay)}: one whole game of each, played once for the tests
    below, and its replay read from its log (read-only: the folder is the same before and after)."""
    out = {}
    for game in GAMES:
        folder = tmp_path_factory.mktemp(game)
        log = folder / "game.sqlite"
        shown, hidden = play_whole_game(game, log)
        before = files_in(folder)
        replay = replays.load(log)
        assert files_in(folder) == before  # the log, its -wal and its record only read
        out[game] = (log, shown, hidden, replay)
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_the_public_replay_is_what_the_table_page_showed_move_by_move(game, whole_games, tmp_path):
    log, shown, _, replay = whole_games[game]
    assert replay.over and replay.moves == len(shown) - 1 > 0
    assert as_json(replay.frames) == shown  # frame by frame, the very payloads the table page was sent
    # Each seat's hidden cards, once the game is over: the secret part of its own page at that move.
    assert len(replay.secrets) == len(shown) and all(len(f) == GAMES[game][0]["players"] for f in replay.secrets)
    # The export, opened by someone without the log, replays the same frames.
    out = tmp_path / "game.replay.json"
    replay.export(out)
    again = replays.load(out)
    assert as_json(again.frames) == shown and again.moves == replay.moves and again.over
    assert again.secrets is None and "without --with-secrets" in again.refused


@pytest.mark.parametrize("game", list(GAMES))
def test_an_export_holds_no_secret_unless_with_secrets(game, whole_games, tmp_path):
    log, _, hidden, replay = whole_games[game]
    seed = GAMES[game][1]
    public, full = tmp_path / "public.json", tmp_path / "full.json"
    replay.export(public)  # as `maester replay LOG --export FILE` (its command line: the tests below)
    replay.export(full, with_secrets=True)
    data = public.read_bytes()
    frames = replays.load(public).frames
    assert len(frames) == len(hidden) and any(hidden), "no secret to keep: the checks below would prove nothing"
    for n, (frame, secret) in enumerate(zip(frames, hidden)):  # at each move, nothing hidden then
        text = json.dumps(frame)
        assert not [s for s in secret if json.dumps(s) in text], n
    never_public = set.union(*hidden) - {s for f in frames for s in strings(f)}
    for s in never_public:  # a hand, a face-down card, a role the public never saw: nowhere in the file
        assert json.dumps(s).encode() not in data, s
    assert str(seed).encode() not in data
    assert not {"secrets", "record", "seed", "setup_outcomes"} & set(json.loads(data))
    assert os.stat(public).st_mode & 0o777 == 0o644
    # With --with-secrets the same search finds them (the check can fail), in a file that is this user's only.
    rich = json.loads(full.read_bytes())
    assert str(seed) in json.dumps(rich["record"])
    texts = [json.dumps(f) for f in rich["secrets"]]
    found = {s for n, secret in enumerate(hidden) for s in secret if json.dumps(s) in texts[n]}
    assert found and never_public <= found
    assert os.stat(full).st_mode & 0o777 == 0o600
    assert replays.load(full).secrets is not None
    # An export is never written over a file that is there (a log, say).
    with pytest.raises(replays.ReplayError, match="already exists"):
        replay.export(log)


def play_moves(session, moves):
    for _ in range(moves):
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][0]}).ok


def running_game(tmp_path, moves=6, keep_open=False):
    log = tmp_path / "running.sqlite"
    session = Session.new("btwixt", {"players": 3, "variants": ["short"], "owner_cards": False}, 5, log_path=str(log))
    play_moves(session, moves)
    if keep_open:
        return log, session
    session.close()
    return log


def test_a_running_games_secrets_are_refused(tmp_path, capsys):
    log, session = running_game(tmp_path, keep_open=True)  # still being played: its -wal holds the moves
    try:
        check_running_game_refused(tmp_path, capsys, log)
        play_moves(session, 1)  # the game goes on: the replay wrote nothing in its way
    finally:
        session.close()


def check_running_game_refused(tmp_path, capsys, log):
    out = tmp_path / "x.json"
    code = cli.main(["replay", str(log), "--export", str(out), "--with-secrets"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "still running" in err and not out.exists()
    replay = replays.load(log)
    assert not replay.over and replay.moves == 6 and replay.secrets is None
    with WebServer(build_app(replay)) as server:
        info = httpx.get(server.base + "/replay/info").json()
        assert info["secrets"] is False and "still running" in info["refused"]
        refused = httpx.get(server.base + "/replay/secrets/3")
        assert refused.status_code == 403 and "still running" in refused.json()["reason"]
        assert httpx.get(server.base + "/replay/frame/6").json()["kind"] == "table"
        assert httpx.get(server.base + "/replay/frame/7").status_code == 404
    # Its public replay exports; an export edited to claim secrets for a running game shows none.
    assert cli.main(["replay", str(log), "--export", str(out)]) == 0
    doc = json.loads(out.read_text())
    doc["secrets"] = [[{"seat": 0, "name": "x", "blocks": []}]] * len(doc["frames"])
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    assert replays.load(forged).secrets is None


def damaged_log(tmp_path):
    log = running_game(tmp_path, moves=2)
    data = bytearray(log.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the schema's page torn
    path = tmp_path / "torn.sqlite"
    path.write_bytes(bytes(data))
    return path


def unknown_game_log(tmp_path):
    log = running_game(tmp_path, moves=2)
    db = sqlite3.connect(log)
    db.execute("UPDATE meta SET value = ? WHERE key = 'game'", (json.dumps("chess"),))
    db.commit()
    db.close()
    os.unlink(str(log) + ".acks")  # its record names the header as it was
    return log


BAD = {
    "not a log": (lambda t: t / "notes.txt", b"hello\n", "not a game log or a replay file"),
    "empty": (lambda t: t / "empty.sqlite", b"", "empty"),
    "damaged log": (damaged_log, None, "damaged"),
    "unknown game in a log": (unknown_game_log, None, "unknown game"),
    "damaged export": (lambda t: t / "cut.json", b'{"kind": "maester replay", "frames": [', "damaged"),
    "unknown game in an export": (lambda t: t / "chess.json", json.dumps(
        {"kind": "maester replay", "format": 1, "game": "chess", "title": "Chess", "over": True,
         "frames": [{"kind": "table", "view": {}}]}).encode(), "unknown game"),
    "other JSON": (lambda t: t / "other.json", b'{"a": 1}', "not a game log or a replay file"),
    "missing": (lambda t: t / "nothing.sqlite", None, "no game log or replay file"),
    "a folder": (lambda t: t, None, "not a file"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_one_line_and_exit_2(case, tmp_path, capsys):
    make, content, words = BAD[case]
    work = tmp_path / "work"
    work.mkdir()
    path = make(work)
    if content is not None:
        path.write_bytes(content)
    before = files_in(work)
    code = cli.main(["replay", str(path), "--no-browser"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("maester: ") and len(err.strip().splitlines()) == 1, err
    assert words in err, err
    assert files_in(work) == before


def test_maester_replay_serves_the_page_until_ctrl_c(whole_games, tmp_path):
    log = whole_games["btwixt"][0]  # a finished game: its hidden cards may be shown
    env = dict(os.environ, PYTHONUNBUFFERED="1", MAESTER_HOME=str(tmp_path / "home"))
    proc = subprocess.Popen([sys.executable, "-m", "maester.cli", "replay", str(log), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        url = re.search(r"(http://127\.0\.0\.1:\d+/replay)", line).group(1)
        info = httpx.get(url + "/info").json()
        assert info["over"] and info["secrets"] and info["moves"] == len(whole_games["btwixt"][1]) - 1
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr.read()


def test_the_page_steps_forward_and_back_and_shows_the_seats_hidden_cards(chromium, whole_games):
    replay = whole_games["btwixt"][3]
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10_000)
    try:
        with WebServer(build_app(replay)) as server:
            page.goto(server.base + "/replay")
            page.wait_for_selector('body[data-move="0"]')

            def board():
                return page.inner_text("#board")
            first = board()
            page.click("#forward")
            page.wait_for_selector('body[data-move="1"]')
            page.click("#forward")
            page.wait_for_selector('body[data-move="2"]')
            page.click("#back")
            page.wait_for_selector('body[data-move="1"]')
            page.click("#last")
            page.wait_for_selector('body[data-move="%d"]' % replay.moves)
            assert "over" in page.inner_text("#waiting").lower() and board() != first
            page.fill("#slider", "0")  # the slider, dragged to the start
            page.wait_for_selector('body[data-move="0"]')
            assert board() == first and page.is_disabled("#back")
            assert page.locator(".seat-secret").count() == 0
            page.check("#show-secrets")
            page.wait_for_selector(".seat-secret")
            assert page.locator(".seat-secret").count() == 3
            hand = set(page.eval_on_selector_all(".seat-secret [data-card]", "els => els.map(e => e.dataset.card)"))
            assert hand and not hand & set(page.eval_on_selector_all("#board [data-card]",
                                                                      "els => els.map(e => e.dataset.card)"))
    finally:
        context.close()
    assert not errors, errors


def test_the_replay_endpoints_given_hostile_input_answer_without_a_500(tmp_path):
    # As tests/test_hostile.py sweeps the game's pages: every route of the replay app, hostile move
    # numbers, every method. The running game's replay: no secrets to get at by any path.
    replay = replays.load(running_game(tmp_path))
    numbers = ["0", "6", "7", "-1", "99999999999999999999", "abc", "%ED%A0%80", "%00", "%2e%2e", "x" * 3000,
               "0x1", "1e3", "%D9%A1", " 1"]
    app = build_app(replay)
    with WebServer(app) as server, httpx.Client(base_url=server.base, timeout=5) as client:
        bad = []
        for route in app.routes:
            path = getattr(route, "path", "/static")
            urls = [path.replace("{n}", n) for n in numbers] if "{n}" in path else [path, path + "/%ED%A0%80"]
            for url in urls:
                for method in ("GET", "HEAD", "POST", "PUT", "DELETE"):
                    r = client.request(method, url, content=b"\xff{")
                    if r.status_code >= 500 or url.startswith("/replay/secrets") and r.status_code == 200:
                        bad.append((method, url[:60], r.status_code))
                    assert r.headers.get("x-content-type-options") == "nosniff", url  # the pages' headers on every answer
        assert not bad, bad
