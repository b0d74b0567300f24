"""A game log is whole or absent, and damage is never silent (design principle 13, issue 16).

- a damaged or missing -wal never makes `resume` start from an earlier move: the log is refused,
  saying how many acknowledged moves were lost, and left as it is, -wal included;
- creating a log is atomic: a kill or a full disk leaves nothing half-made at its path;
- a file that is not a game log is never written to, by `resume` or by `play --log`;
- a log, its -wal, -shm and .acks are this user's only (0600), whatever the umask.
"""

import errno
import os
import random
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from maester import cli
from maester.engine import log as game_log
from maester.engine.log import LogError
from maester.engine.session import Session

MOVES = 120


def _play(session, moves, seed=3):
    rng = random.Random(seed)
    for _ in range(moves):
        ask = session.state["asks"][0]
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok


def _killed_game(tmp_path, moves=MOVES):
    """The files a game leaves when it is killed after `moves` moves: copied while it is open, so
    the moves are still in the -wal (as after a `kill -9`)."""
    live = tmp_path / "live" / "g.sqlite"
    live.parent.mkdir()
    session = Session.new("btwixt", {"players": 4}, 3, log_path=live)
    _play(session, moves)
    state = session.state
    killed = tmp_path / "killed.sqlite"
    for suffix in ("", "-wal", ".acks"):
        if os.path.exists(str(live) + suffix):
            shutil.copyfile(str(live) + suffix, str(killed) + suffix)
    session.close()
    assert os.path.getsize(str(killed) + "-wal") > 0, "the moves should be in the -wal"
    return killed, state


def _files(path):
    """Every file beside the log that belongs to it, with its bytes."""
    folder = Path(path).parent
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name.startswith(Path(path).name)}


def _flip(path, at):
    data = bytearray(path.read_bytes())
    data[at] ^= 0x40
    path.write_bytes(bytes(data))


def _wal(path):
    return Path(str(path) + "-wal")


def test_a_killed_game_with_its_wal_whole_resumes_where_it_stopped(tmp_path):
    killed, state = _killed_game(tmp_path)
    resumed = Session.resume(killed)
    assert resumed.state == state and resumed.log.note == ""
    resumed.close()


DAMAGE = {
    "a byte flipped in the middle": lambda wal: _flip(wal, wal.stat().st_size // 2),
    "a byte flipped in a late move": lambda wal: _flip(wal, wal.stat().st_size - 3000),
    "a byte flipped in its header": lambda wal: _flip(wal, 20),
    "truncated to half": lambda wal: os.truncate(wal, wal.stat().st_size // 2),
    "truncated to nothing": lambda wal: os.truncate(wal, 0),
    "removed": lambda wal: wal.unlink(),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_wal_is_refused_saying_how_many_moves_were_lost_and_kept(damage, tmp_path, capsys, monkeypatch):
    killed, _ = _killed_game(tmp_path)
    DAMAGE[damage](_wal(killed))
    before = _files(killed)
    ro = sqlite3.connect("file:%s?mode=ro" % killed, uri=True)  # what SQLite itself still finds
    held = ro.execute("SELECT count(*) FROM entries").fetchone()[0]
    ro.close()
    assert held < MOVES
    for name in set(_files(killed)) - set(before):  # the read-only look above may have made a -shm
        (killed.parent / name).unlink()
    with pytest.raises(LogError) as e:
        Session.resume(killed)
    lost = MOVES - held
    words = "lost %d acknowledged move%s: it holds %d of the %d moves" % (lost, "" if lost == 1 else "s", held, MOVES)
    assert str(killed) in str(e.value) and words in str(e.value), e.value
    assert {k: v for k, v in _files(killed).items() if not k.endswith("-shm")} == before  # -wal kept as it was

    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    assert cli.main(["resume", "--log", str(killed), "--plain", "--no-web", "--delay", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("maester: ") and words in err and "Traceback" not in err
    assert {k: v for k, v in _files(killed).items() if not k.endswith("-shm")} == before


def test_a_move_committed_but_not_yet_acknowledged_is_kept_and_the_record_catches_up(tmp_path):
    """A kill between the commit and the line in .acks: the move is in the log, so the game goes
    on from it, and the record is brought up to date so later damage is still caught."""
    killed, state = _killed_game(tmp_path)
    acks = Path(str(killed) + ".acks")
    lines = acks.read_bytes().splitlines(keepends=True)
    acks.write_bytes(b"".join(lines[:-1]) + lines[-1][:5])  # the last line cut short by the kill
    resumed = Session.resume(killed)
    assert resumed.state == state
    _play(resumed, 5, seed=9)
    moves = resumed.state["seq"]
    resumed.close()
    again = Session.resume(killed)
    assert again.state["seq"] == moves
    again.close()


def test_a_move_changed_after_it_was_acknowledged_is_refused(tmp_path):
    killed, _ = _killed_game(tmp_path, moves=30)
    resumed = Session.resume(killed)  # to fold the -wal into the file, as a clean close does
    resumed.close()
    db = sqlite3.connect(str(killed))
    db.execute("UPDATE entries SET at = at + 1, choice = choice || ' ' WHERE seq = 12")
    db.commit()
    db.close()
    with pytest.raises(LogError) as e:
        Session.resume(killed)
    assert "entry 12 differs" in str(e.value), e.value


def test_a_damaged_record_of_acknowledged_moves_is_refused_not_ignored(tmp_path):
    killed, _ = _killed_game(tmp_path, moves=30)
    acks = Path(str(killed) + ".acks")
    lines = acks.read_bytes().splitlines(keepends=True)
    lines[10] = lines[10].replace(b" ", b"x", 1)
    acks.write_bytes(b"".join(lines))
    with pytest.raises(LogError) as e:
        Session.resume(killed)
    assert "is damaged at line 11" in str(e.value)


def test_a_log_without_a_record_resumes_with_a_note_and_is_guarded_from_then_on(tmp_path, capsys, monkeypatch):
    """Logs from before .acks existed still resume; the player is told they could not be checked."""
    killed, state = _killed_game(tmp_path, moves=40)
    Path(str(killed) + ".acks").unlink()
    resumed = Session.resume(killed)
    assert resumed.state == state and "could not be checked for lost moves" in resumed.log.note
    resumed.close()
    # the record is written when the log is reopened for writing: from then on it is checked
    again = Session.resume(killed)
    assert again.state == state and again.log.note == ""
    again.close()
    # and `maester resume` tells the player
    Path(str(killed) + ".acks").unlink()
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    assert cli.main(["resume", "--log", str(killed), "--plain", "--no-web", "--delay", "0"]) == 0
    assert "could not be checked for lost moves" in capsys.readouterr().out


# --- creating a log is atomic ----------------------------------------------------------------

def _whole_or_absent(folder, names):
    """Every log at one of `names` resumes, with no move; nothing else is left but clearly named
    leftovers of a creation that was cut short."""
    whole = 0
    for name in names:
        path = folder / name
        if path.exists():
            session = Session.resume(path)  # raises on a half-made log
            assert session.state["seq"] == 0
            session.close()
            whole += 1
    for p in folder.iterdir():
        base = p.name.split(".sqlite")[0] + ".sqlite"
        assert base in names and (p.name == base or p.name[len(base):] in (".acks", "-wal", "-shm")
                                  or ".creating-" in p.name), p.name
    return whole


CREATOR = """
import sys
from maester.engine.session import Session
folder, first = sys.argv[1], int(sys.argv[2])
for i in range(first, first + 10000):
    Session.new("btwixt", {"players": 4}, i, log_path="%s/g%d.sqlite" % (folder, i)).close()
"""


def test_a_log_killed_while_it_is_being_created_is_whole_or_absent(tmp_path):
    rng = random.Random(5)
    first = 0
    for _ in range(6):
        proc = subprocess.Popen([sys.executable, "-c", CREATOR, str(tmp_path), str(first)])
        deadline = time.monotonic() + 30
        while not (tmp_path / ("g%d.sqlite" % (first + 2))).exists():
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        first = max(int(p.name[1:].split(".")[0]) for p in tmp_path.iterdir()) + 2
    names = {"g%d.sqlite" % i for i in range(first)}
    assert _whole_or_absent(tmp_path, names) >= 6 * 3


KILLED_AT = """
import os, signal, sys
from maester.engine import log
from maester.engine.session import Session
step = sys.argv[2]
def kill(*a, **k):
    os.kill(os.getpid(), signal.SIGKILL)
if step == "header written":
    log._write_synced = lambda *a: kill()
elif step == "before the link":
    log.os.link = kill
elif step == "after the link":  # the log linked into place, its record not yet
    link = log.os.link
    log.os.link = lambda a, b: kill() if b.endswith(".acks") else link(a, b)
Session.new("btwixt", {"players": 4}, 1, log_path=sys.argv[1])
"""


@pytest.mark.parametrize("step", ["header written", "before the link", "after the link"])
def test_a_kill_at_each_step_of_creation_leaves_a_whole_log_or_none(step, tmp_path):
    path = tmp_path / "g.sqlite"
    r = subprocess.run([sys.executable, "-c", KILLED_AT, str(path), step])
    assert r.returncode == -signal.SIGKILL
    assert _whole_or_absent(tmp_path, {"g.sqlite"}) == (step == "after the link")
    if not path.exists():  # and the path can be used again, the killed creation's files gone
        Session.new("btwixt", {"players": 4}, 1, log_path=path).close()
        assert Session.resume(path).state["seq"] == 0
        assert not [p for p in tmp_path.iterdir() if ".creating-" in p.name]
    else:  # a whole log, left without its record: it resumes, and its record is made then
        assert Session.resume(path).state["seq"] == 0 and os.path.exists(str(path) + ".acks")


def _full_disk(monkeypatch, target):
    def refuse(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(game_log.os, target, refuse)


@pytest.mark.parametrize("target", ["write", "fsync", "link"])
def test_a_full_disk_while_creating_leaves_nothing_at_the_path(target, tmp_path, monkeypatch):
    path = tmp_path / "g.sqlite"
    with monkeypatch.context() as m:
        _full_disk(m, target)
        with pytest.raises(LogError) as e:
            Session.new("btwixt", {"players": 4}, 1, log_path=path)
    assert "cannot write the game log %s: No space left on device" % path in str(e.value)
    assert list(tmp_path.iterdir()) == []
    Session.new("btwixt", {"players": 4}, 1, log_path=path).close()  # the path is free to use


def test_a_database_full_while_writing_the_header_leaves_nothing_at_the_path(tmp_path, monkeypatch):
    real = sqlite3.connect

    class Full:
        def __init__(self, db):
            self.db = db

        def execute(self, sql, *args):
            return self.db.execute(sql, *args)

        def executemany(self, sql, *args):
            raise sqlite3.OperationalError("database or disk is full")

        def __getattr__(self, name):
            return getattr(self.db, name)

    path = tmp_path / "g.sqlite"
    with monkeypatch.context() as m:
        m.setattr(game_log.sqlite3, "connect", lambda *a, **k: Full(real(*a, **k)))
        with pytest.raises(LogError) as e:
            Session.new("btwixt", {"players": 4}, 1, log_path=path)
    assert "database or disk is full" in str(e.value)
    assert list(tmp_path.iterdir()) == []


def test_a_new_log_is_not_made_beside_the_wal_of_an_earlier_one(tmp_path):
    """SQLite would read a -wal left by a log removed by hand into a new log of the same name."""
    killed, _ = _killed_game(tmp_path, moves=10)
    killed.unlink()
    before = _files(killed)
    with pytest.raises(LogError) as e:
        Session.new("btwixt", {"players": 4}, 1, log_path=killed)
    assert "killed.sqlite-wal is left from an earlier game log" in str(e.value)
    assert _files(killed) == before


# --- files that are not game logs are left untouched -----------------------------------------

def _foreign(tmp_path, kind):
    path = tmp_path / ("other-%s.db" % kind)
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "text":
        path.write_text("shopping: bread, milk\n")
    else:
        db = sqlite3.connect(str(path))
        if kind == "wal":
            db.execute("PRAGMA journal_mode=WAL")
        # a table named like ours, to be sure identity is more than a name
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('format', '1')")
        db.commit()
        db.close()
    return path


FOREIGN = ["empty", "text", "sqlite", "wal"]


@pytest.mark.parametrize("kind", FOREIGN)
@pytest.mark.parametrize("command", ["resume", "play"])
def test_a_file_that_is_not_a_game_log_is_refused_and_left_untouched(command, kind, tmp_path, capsys, monkeypatch):
    path = _foreign(tmp_path, kind)
    before = _files(path)
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    argv = (["resume", "--log", str(path)] if command == "resume"
            else ["play", "btwixt", "--sim", "--bots", "random", "--delay", "0", "--log", str(path)])
    assert cli.main(argv + ["--plain", "--no-web"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("maester: %s is" % path) and "not a game log" in err, err
    assert _files(path) == before  # same bytes, and no -wal, -shm or .acks beside it
    if command == "play":
        assert "choose another file" in err


# --- this user's only ------------------------------------------------------------------------

@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_a_log_and_the_files_beside_it_are_this_users_only(umask, tmp_path):
    old = os.umask(umask)
    try:
        session = Session.new("btwixt", {"players": 4}, 1, log_path=tmp_path / "g.sqlite")
        _play(session, 3)
        beside = sorted(tmp_path.iterdir())
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in beside}
        session.close()
    finally:
        os.umask(old)
    assert set(modes.values()) == {0o600}, modes
    assert set(modes) == {"g.sqlite", "g.sqlite-wal", "g.sqlite-shm", "g.sqlite.acks"}


# --- issue 25: the files beside a new log ------------------------------------------------------------

def test_a_new_log_never_replaces_a_file_already_named_like_its_record(tmp_path):
    path = tmp_path / "g.sqlite"
    acks = tmp_path / "g.sqlite.acks"
    acks.write_text("my own notes\n")
    with pytest.raises(LogError) as e:
        Session.new("btwixt", {"players": 4}, 1, log_path=path)
    assert str(acks) in str(e.value) and "choose another file" in str(e.value)
    assert acks.read_text() == "my own notes\n" and sorted(p.name for p in tmp_path.iterdir()) == ["g.sqlite.acks"]


def _dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_files_left_by_a_killed_creation_are_removed_at_the_next_start_and_only_those(tmp_path):
    dead = _dead_pid()
    stale = ["g.sqlite.creating-%d-a1b2c3%s" % (dead, s) for s in ("", "-wal", "-shm", ".acks")]
    (tmp_path / stale[0]).write_bytes(game_log.SQLITE_MAGIC + b"\0" * 84)
    (tmp_path / stale[1]).write_bytes(b"wal")
    (tmp_path / stale[2]).write_bytes(b"")
    (tmp_path / stale[3]).write_bytes(game_log.ACKS_HEAD + b"00\n")
    kept = {
        "h.sqlite.creating-%d-d4e5f6" % os.getpid(): game_log.SQLITE_MAGIC,  # a live process is writing it
        "notes.creating-%d-0a0b0c" % dead: b"a file of the same shape that is not a log",  # not ours
        "x.sqlite.creating-%d-zzzzzz" % dead: b"",  # not our name
        "y.sqlite.creating-%d-0a0b0c.bak" % dead: b"",
    }
    for name, data in kept.items():
        (tmp_path / name).write_bytes(data)
    os.symlink(tmp_path / ("notes.creating-%d-0a0b0c" % dead), tmp_path / ("z.sqlite.creating-%d-0f0f0f" % dead))
    Session.new("btwixt", {"players": 4}, 1, log_path=tmp_path / "new.sqlite").close()
    names = {p.name for p in tmp_path.iterdir()}
    assert not names & set(stale), names
    assert set(kept) <= names and "z.sqlite.creating-%d-0f0f0f" % dead in names
    assert (tmp_path / ("notes.creating-%d-0a0b0c" % dead)).read_bytes() == kept["notes.creating-%d-0a0b0c" % dead]
