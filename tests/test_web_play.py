"""`maester play --web`: a person's seat is decided on its own page, and the game is logged the same."""

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from maester.engine.session import Session

MAESTER = Path(sys.executable).parent / "maester"


def _get(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def _post(url, body):
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def test_a_human_seat_plays_from_its_page_and_the_game_is_logged(tmp_path):
    log = tmp_path / "game.sqlite"
    env = dict(os.environ, MAESTER_HOME=str(tmp_path))
    proc = subprocess.Popen([str(MAESTER), "play", "btwixt", "--sim", "--no-table", "--plain", "--web",
                             "--page", "0", "--seed", "3", "--delay", "0", "--log", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            text=True, env=env)
    try:
        seat_url = other_url = None
        deadline = time.time() + 30
        while seat_url is None and time.time() < deadline:
            line = proc.stdout.readline()
            found = re.search(r"private page: (http://\S+/seat/0/\S+)", line)
            if found:
                seat_url = found.group(1)
        assert seat_url, "no link for seat 0 was printed"
        other_url = seat_url.replace("/seat/0/", "/seat/1/")  # seat 0's token on seat 1's page
        with urllib.request.urlopen(seat_url + "/state", timeout=5):
            pass
        try:
            urllib.request.urlopen(other_url + "/state", timeout=5)
            raise AssertionError("seat 0's token opened seat 1's page")
        except urllib.error.HTTPError as e:
            assert e.code == 403
        chosen = 0
        deadline = time.time() + 120
        while proc.poll() is None and time.time() < deadline:
            try:
                state = _get(seat_url + "/state")
            except urllib.error.URLError:
                # The game ended and the pages closed with it between two looks.
                proc.wait(timeout=10)
                break
            mine = state.get("decisions") or []
            if not mine:
                time.sleep(0.05)
                continue
            ask = mine[0]
            try:
                status, out = _post(seat_url + "/choose", {"ask": ask["ask"], "choice": ask["options"][0]["choice"]})
            except urllib.error.URLError:
                proc.wait(timeout=10)
                break
            assert status in (200, 409), out  # 409: the decision closed meanwhile (a stale page)
            chosen += status == 200
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-2000:]
    assert "Winner" in out and chosen > 10
    # The page's choices were logged like any command: the log replays to the finished game.
    session = Session.resume(str(log))
    assert session.state["over"]
    humans = [e for e in session.log.entries() if e[1]["seat"] == 0]
    assert chosen <= len(humans) <= chosen + 1  # the last answer may close the pages before its reply
    session.close()
