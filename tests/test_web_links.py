"""Links that last: one game's seat links are the same under `play --web`, `resume` and `serve`;
bots' seats have no page; `serve` plays the bots' seats; the pages outlive the end of the game.

Real `maester` processes, as a person runs them, reading the links they print.
"""

import json
import os
import pty
import random
import re
import select
import signal
import socket
import stat
import subprocess
import sys
import time

import httpx
import pytest

from maester.engine.session import Session
from maester.web import keys
from maester.web.launch import served_people

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py


def maester(home, *args, **kw):
    env = dict(os.environ, MAESTER_HOME=str(home), PYTHONUNBUFFERED="1")
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen([sys.executable, "-m", "maester.cli", *args], text=True, env=env, **kw)


def read_until(proc, marker, timeout=60):
    """What `proc` printed up to the line holding `marker`."""
    out, deadline = "", time.monotonic() + timeout
    while marker not in out:
        assert time.monotonic() < deadline, "no %r in: %s" % (marker, out)
        line = proc.stdout.readline()
        assert line, "ended early: " + out + proc.stderr.read()
        out += line
    return out


def printed_links(out):
    table = re.search(r"Table page \(public\): (\S+)", out).group(1)
    return table, dict(re.findall(r"Seat (\d+), private page: (\S+)", out))


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return proc.returncode


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def new_log(tmp_path, humans, name="g.sqlite", seed=4, players=2):
    """A fresh 2-player Intrigue log whose header says who were people, as `play` writes it."""
    path = tmp_path / name
    extra = {"humans": humans, "bots": "heuristic", "delay": 0.4, "table": False}
    Session.new("intrigue", {"players": players}, seed, str(path), extra).close()
    return path


def state(url):
    return httpx.get(url + "/state", timeout=5).json()


# --- the same links every time -----------------------------------------------------------------------

def test_resume_and_serve_give_the_same_links_as_play(tmp_path):
    log = tmp_path / "g.sqlite"
    play = maester(tmp_path, "play", "intrigue", "--sim", "--no-table", "--plain", "--web", "--players", "3",
                   "--page", "0", "--page", "2", "--seed", "4", "--delay", "0", "--log", str(log))
    try:
        first = printed_links(read_until(play, "also in"))
    finally:
        stop(play)
    assert sorted(first[1]) == ["0", "2"]  # the people's seats only
    saved = (tmp_path / "g.sqlite.links").read_text()
    tokens = keys.tokens_path(log)
    assert stat.S_IMODE(os.stat(tokens).st_mode) == 0o600  # the seats' keys: this user's only

    resume = maester(tmp_path, "resume", "--log", str(log), "--plain", "--web")
    try:
        assert printed_links(read_until(resume, "also in")) == first
    finally:
        stop(resume)
    serve = maester(tmp_path, "serve", "--log", str(log), "--no-qr")
    try:
        assert printed_links(read_until(serve, "Serving")) == first
        assert httpx.get(first[1]["0"] + "/state").json()["seat"] == 0
    finally:
        assert stop(serve) == 0
    assert (tmp_path / "g.sqlite.links").read_text() == saved

    # The game's port taken by another program: the same links on another port, and it says so.
    port = int(re.search(r":(\d+)/", first[0]).group(1))
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        serve = maester(tmp_path, "serve", "--log", str(log), "--no-qr")
        try:
            out = read_until(serve, "Serving")
        finally:
            stop(serve)
    moved = printed_links(out)
    assert "Port %d, where this game's pages were before, is taken now" % port in out
    assert ":%d/" % port not in moved[0]
    same_but_port = re.compile(r":\d+/")
    assert ([same_but_port.sub(":N/", u) for u in (moved[0], *moved[1].values())]
            == [same_but_port.sub(":N/", u) for u in (first[0], *first[1].values())])


def test_a_damaged_or_foreign_tokens_file_is_refused_by_name_and_left_as_it_is(tmp_path):
    log = new_log(tmp_path, [0])
    path = keys.tokens_path(log)
    other = new_log(tmp_path, [0], name="other.sqlite", seed=5)
    session = Session.resume(str(other))
    foreign = json.dumps({"kind": keys.KIND, "version": keys.VERSION, "port": 8123,  # another game's file
                          "game": keys.identity(session.log.header()), "tokens": keys.draw(2)})
    session.close()
    for text in ('{"kind": "maester seat tok', foreign, "[]"):
        with open(path, "w") as f:
            f.write(text)
        proc = maester(tmp_path, "serve", "--log", str(log), "--no-qr")
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 2 and path in err and "left as it is" in err, err
        assert "private page" not in out
        with open(path) as f:
            assert f.read() == text


def test_tokens_are_kept_once_and_a_racing_second_save_reads_the_first_back(tmp_path):
    log = new_log(tmp_path, [0, 1])
    session = Session.resume(str(log))
    try:
        header = session.log.header()
        assert keys.load(keys.tokens_path(log), header, 2) is None
        tokens, port = keys.save(keys.tokens_path(log), header, keys.draw(2), 8123)
        # A second save (another `maester` racing the first) gets the first one's tokens back.
        assert keys.save(keys.tokens_path(log), header, keys.draw(2), 9000) == (tokens, 8123)
        assert keys.load(keys.tokens_path(log), header, 2) == (tokens, 8123)
        with pytest.raises(keys.TokensError, match="do not fit this game's 3 seats"):
            keys.load(keys.tokens_path(log), header, 3)
    finally:
        session.close()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


# --- bots' seats have no page ---------------------------------------------------------------------------

def test_a_bot_seats_url_is_403_under_play_and_serve_even_with_its_kept_token(tmp_path):
    log = tmp_path / "g.sqlite"
    play = maester(tmp_path, "play", "intrigue", "--sim", "--no-table", "--plain", "--web", "--players", "2",
                   "--page", "0", "--seed", "4", "--delay", "0", "--log", str(log))
    serve = None
    try:
        table, seats = printed_links(read_until(play, "also in"))
        assert list(seats) == ["0"]
        kept = json.loads(open(keys.tokens_path(log)).read())["tokens"]["1"]  # drawn, but never served
        bot = table.replace("/table", "/seat/1/" + kept)
        for suffix in ("", "/state"):
            r = httpx.get(bot + suffix)
            assert (r.status_code, r.text) == (403, "forbidden")
        stop(play)
        serve = maester(tmp_path, "serve", "--log", str(log), "--no-qr")
        out = read_until(serve, "Serving")
        assert "Bots play Seat 1." in out and "Seat 1, private" not in out
        r = httpx.get(bot + "/state")
        assert (r.status_code, r.text) == (403, "forbidden")
        assert httpx.get(seats["0"] + "/state").status_code == 200
    finally:
        stop(play)
        if serve is not None:
            stop(serve)


def test_who_plays_under_serve_comes_from_the_log():
    assert served_people({"humans": [0, 2], "table": False}, 4) == [0, 2]
    assert served_people({"humans": [], "table": True}, 3) == []  # a demo: bots everywhere, the table page
    assert served_people({"humans": [0], "table": "board"}, 4) == [0, 1, 2, 3]  # on a board: all people
    assert served_people({}, 4) == [0, 1, 2, 3]  # an older log that does not say


# --- serve plays the bots' seats, and the result stays up -----------------------------------------------

def test_serve_plays_the_bot_seats_while_a_person_plays_from_a_page_to_the_end(tmp_path):
    log = new_log(tmp_path, [0])
    serve = maester(tmp_path, "serve", "--log", str(log), "--no-qr", "--delay", "0")
    try:
        table, seats = printed_links(read_until(serve, "Serving"))
        mine, rng, chosen = seats["0"], random.Random(1), 0
        deadline = time.monotonic() + 120
        while not state(table)["view"]["over"]:
            assert time.monotonic() < deadline, "the game did not end"
            asks = state(mine)["decisions"]
            if not asks:
                time.sleep(0.05)  # a bot's turn: it answers on its own
                continue
            r = httpx.post(mine + "/choose", json={"ask": asks[0]["ask"],
                                                   "choice": rng.choice(asks[0]["options"])["choice"]})
            assert r.status_code in (200, 409), r.text  # 409: the decision closed meanwhile
            chosen += r.status_code == 200
        read_until(serve, "The game is over", timeout=10)
        time.sleep(0.5)  # still there a while later, with the result
        assert serve.poll() is None
        final = state(table)
        assert final["view"]["over"] and final["view"]["result"]["winners"]
    finally:
        assert stop(serve) == 0
    session = Session.resume(str(log))
    try:
        seats_moved = [command["seat"] for _, command, _ in session.log.entries()]
        assert session.state["over"] and chosen > 5
        assert seats_moved.count(1) > 5 and seats_moved.count(0) == chosen  # the bot played seat 1
    finally:
        session.close()


def test_play_keeps_its_pages_up_after_the_end_until_enter(tmp_path):
    log = tmp_path / "g.sqlite"
    master, slave = pty.openpty()
    proc = maester(tmp_path, "play", "intrigue", "--sim", "--no-table", "--plain", "--web", "--players", "2",
                   "--seed", "4", "--delay", "0", "--log", str(log), stdin=slave, stdout=slave,
                   stderr=slave)  # a prompt goes to stderr when Python reads a terminal without readline
    os.close(slave)
    seen = b""

    def until(marker, timeout=120):
        nonlocal seen
        deadline = time.monotonic() + timeout
        while marker not in seen:
            assert time.monotonic() < deadline and proc.poll() is None, seen.decode(errors="replace")[-2000:]
            if select.select([master], [], [], 0.2)[0]:
                seen += os.read(master, 65536)
    try:
        until(b"press Enter to start")
        os.write(master, b"\n")
        until(b"its pages stay up until you press Enter")
        table = re.search(rb"Table page \(public\): (\S+)", seen).group(1).decode()
        time.sleep(0.5)
        assert proc.poll() is None  # waiting, with the pages up
        final = state(table)
        assert final["view"]["over"] and final["view"]["result"]["winners"]
        os.write(master, b"\n")
        assert proc.wait(15) == 0
        with pytest.raises(httpx.TransportError):
            httpx.get(table + "/state", timeout=2)  # gone once the person let it go
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


# --- LOG.links: the seats' keys, written whole, this user's only, never through a link (issue 25) --

@pytest.mark.parametrize("before", ["a file anyone may read", "a link to another file"])
def test_the_links_file_is_this_users_only_and_never_written_through_a_link(before, tmp_path):
    log = new_log(tmp_path, [0])
    links = tmp_path / "g.sqlite.links"
    victim = tmp_path / "victim.txt"
    victim.write_text("someone else's\n")
    if before == "a file anyone may read":
        links.write_text("old links\n")
        os.chmod(links, 0o644)
    else:
        links.symlink_to(victim)
    serve = maester(tmp_path, "serve", "--log", str(log), "--no-qr")
    try:
        table, seats = printed_links(read_until(serve, "Serving"))
    finally:
        assert stop(serve) == 0
    assert not links.is_symlink() and stat.S_IMODE(links.lstat().st_mode) == 0o600
    assert seats["0"] in links.read_text() and table in links.read_text()
    assert victim.read_text() == "someone else's\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".g.sqlite.links")]  # no temporary left


def test_a_links_file_that_is_a_folder_stops_serve_before_the_pages_are_up(tmp_path):
    log = new_log(tmp_path, [0])
    (tmp_path / "g.sqlite.links").mkdir()
    serve = maester(tmp_path, "serve", "--log", str(log), "--no-qr")
    try:
        out, err = serve.communicate(timeout=60)
    finally:
        stop(serve)
    assert serve.returncode == 2 and "Traceback" not in err, err
    assert err.startswith("maester: ") and len(err.strip().splitlines()) == 1 and "g.sqlite.links" in err, err
    assert "Table page" not in out and (tmp_path / "g.sqlite.links").is_dir()
