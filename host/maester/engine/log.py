"""The game log: append-only, in SQLite with WAL and full sync, the single source of truth.

A header (`meta`) holds the game, its config (card table included, so a replay does not depend on
later edits to cards_db), the seed and the chance outcomes of setup. Each accepted command is one
row with the outcomes it drew. The row is committed, and so synced to disk, before the command is
acknowledged; the state is a fold of the rows, so a crash loses nothing that was acknowledged.

The file is the referee's record: it holds the seed and every hidden outcome. What people see of
it goes through `view` and `filter_events`.
"""

import json
import sqlite3
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY,
    seat TEXT NOT NULL,
    ask INTEGER NOT NULL,
    choice TEXT NOT NULL,
    outcomes TEXT NOT NULL,
    at REAL NOT NULL
);
"""
FORMAT = 1


class LogError(ValueError):
    """A log file that cannot be read or written. The message says what to do."""


def _outcomes(value):
    """Chance outcomes as logged: a list of whole numbers from 0 (Chance.below draws them)."""
    return isinstance(value, list) and all(type(v) is int and v >= 0 for v in value)


# The header's fields and the shape each must have, checked before anything uses them.
HEADER = {
    "format": (lambda v: type(v) is int, "a whole number"),
    "game": (lambda v: isinstance(v, str) and v != "", "a game's name"),
    "config": (lambda v: isinstance(v, dict), "an object"),
    "seed": (lambda v: type(v) is int, "a whole number"),
    "setup_outcomes": (_outcomes, "a list of whole numbers from 0"),
    "extra": (lambda v: isinstance(v, dict), "an object"),
}


def _shown(value, limit=60):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _connect(path):
    try:
        # The table's link thread appends taps; callers serialise access (TableRunner's lock).
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        return db
    except sqlite3.DatabaseError as e:
        raise LogError("cannot open the game log %s: %s" % (path, e)) from None


class GameLog:
    def __init__(self, path, db):
        self.path = path
        self.db = db

    @classmethod
    def create(cls, path, game, config, seed, setup_outcomes, extra=None):
        db = _connect(path)
        try:
            if db.execute("SELECT name FROM sqlite_master WHERE name='meta'").fetchone():
                raise LogError("%s already holds a game; choose another file" % path)
            db.executescript(SCHEMA)
            meta = {"format": FORMAT, "game": game, "config": config, "seed": seed,
                    "setup_outcomes": setup_outcomes, "created": time.time(), "extra": extra or {}}
            db.execute("BEGIN")
            db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()])
            db.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            db.close()
            raise LogError("cannot write the game log %s: %s" % (path, e)) from None
        return cls(path, db)

    @classmethod
    def open(cls, path):
        import os
        if not os.path.exists(path):
            raise LogError("no game log at %s" % path)
        db = _connect(path)
        log = cls(path, db)
        try:
            log.header()  # fail now, clearly, on a damaged file
        except LogError:
            db.close()
            raise
        return log

    def header(self):
        try:
            rows = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
            meta = {k: json.loads(v) for k, v in rows.items()}
        except (sqlite3.DatabaseError, ValueError) as e:
            raise LogError("the game log %s is damaged (%s); it was left as it is" % (self.path, e)) from None
        for key in ("format", "game", "config", "seed", "setup_outcomes"):
            if key not in meta:
                raise LogError("the game log %s is incomplete: its header lacks %r" % (self.path, key))
        for key, (fits, shape) in HEADER.items():
            if key in meta and not fits(meta[key]):
                raise LogError("the game log %s is damaged: its header's %s must be %s, not %s; it was left "
                               "as it is" % (self.path, key, shape, _shown(meta[key])))
        if meta["format"] != FORMAT:
            raise LogError("the game log %s has format %r; this maester reads %r"
                           % (self.path, meta["format"], FORMAT))
        return meta

    def append(self, seq, command, outcomes):
        """Write one accepted command and sync it. Raises LogError if it did not reach the disk."""
        seat = command["seat"]
        try:
            self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?)",
                            (seq, json.dumps(seat), command["ask"], json.dumps(command["choice"]),
                             json.dumps(outcomes), time.time()))
        except sqlite3.DatabaseError as e:
            raise LogError("could not record the command in %s: %s" % (self.path, e)) from None

    def set_extra(self, extra):
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('extra', ?)", (json.dumps(extra),))

    def entries(self):
        """(seq, command, outcomes) in order; a damaged row raises LogError naming it."""
        try:
            rows = self.db.execute("SELECT seq, seat, ask, choice, outcomes FROM entries ORDER BY seq").fetchall()
        except sqlite3.DatabaseError as e:
            raise LogError("the game log %s is damaged (%s); it was left as it is" % (self.path, e)) from None
        expected = 1
        for seq, seat, ask, choice, outcomes in rows:
            if seq != expected:
                raise LogError("the game log %s is missing entry %d" % (self.path, expected))
            try:
                command = {"seat": json.loads(seat), "ask": ask, "choice": json.loads(choice)}
                drawn = json.loads(outcomes)
            except ValueError:
                raise LogError("entry %d of the game log %s is damaged" % (seq, self.path)) from None
            if not _outcomes(drawn):
                raise LogError("entry %d of the game log %s is damaged: its chance outcomes must be a list of "
                               "whole numbers from 0, not %s; it was left as it is" % (seq, self.path, _shown(drawn)))
            yield seq, command, drawn
            expected += 1

    def close(self):
        self.db.close()
