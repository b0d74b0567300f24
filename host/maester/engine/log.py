"""The game log: append-only, in SQLite with WAL and full sync, the single source of truth.

A header (`meta`) holds the game, its config, the seed and the chance outcomes of setup. The config
names its card table by hash (engine/cardtables.py); the header keeps that table itself once
(`card_table`), so a replay does not depend on later edits to cards_db, and on reading it the table
is checked against its hash and registered. Each accepted command is one
row with the outcomes it drew. The row is committed, and so synced to disk, before the command is
acknowledged; the state is a fold of the rows, so a crash loses nothing that was acknowledged.

The file is the referee's record: it holds the seed and every hidden outcome. What people see of
it goes through `view` and `filter_events`.

A log is whole or absent, and damage is never silent (design principle 13):
- Creating one is atomic: it is built under a temporary name in the same folder, its header
  checkpointed into the main file and synced, then linked into place (a link never replaces a file).
- SQLite keeps the latest moves in the `-wal` file, and when that file is damaged it silently falls
  back to an earlier point. So beside the log, `<log>.acks` gets one line per acknowledged move, its
  number and a running hash of the moves, written after the move's commit. On resume a log that
  holds fewer moves than were acknowledged, or other moves, is refused, saying how many were lost.
  The checks run on a read-only connection: nothing checkpoints or deletes a damaged `-wal`.
- A file is only written to once it is known to be a game log (read-only, before any PRAGMA).
- Logs, their `-wal`, `-shm` and `.acks` are this user's only (0600): they hold every hand.
"""

import hashlib
import json
import os
import re
import secrets
import sqlite3
import stat
import time

from . import cardtables

SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE entries (
    seq INTEGER PRIMARY KEY,
    seat TEXT NOT NULL,
    ask INTEGER NOT NULL,
    choice TEXT NOT NULL,
    outcomes TEXT NOT NULL,
    at REAL NOT NULL
)""",
)
FORMAT = 1
PRIVATE = 0o600
SQLITE_MAGIC = b"SQLite format 3\x00"
ACKS = ".acks"
ACKS_HEAD = b"maester acks 1 "
ACK_LINE = re.compile(rb"(\d+) ([0-9a-f]{32})\Z")


UNDO = "undo"  # the seat column of a row that takes back the last move still standing (table/undo.py)


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
    "card_table": (lambda v: isinstance(v, dict), "an object"),
}


def _shown(value, limit=60):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- the running hash of acknowledged moves -----------------------------------------------------

def _start_hash(meta_rows):
    """Where the chain of moves starts: the header as stored, but `extra`, which may be rewritten."""
    text = "\x1f".join("%s=%s" % (k, v) for k, v in sorted(meta_rows.items()) if k != "extra")
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _next_hash(previous, seq, seat, ask, choice, outcomes):
    """The chain after one entry, from its stored text (as SQLite gives it back)."""
    text = "%d\x1f%s\x1f%d\x1f%s\x1f%s" % (seq, seat, ask, choice, outcomes)
    return hashlib.blake2b(previous + text.encode(), digest_size=16).digest()


def _ack_line(seq, digest):
    return b"%d %s\n" % (seq, digest.hex().encode())


# --- what a file is, found without writing to it ------------------------------------------------

MISSING, EMPTY, FOREIGN, DAMAGED, OURS = "missing", "empty", "foreign", "damaged", "ours"


def _tables(path, immutable):
    """The table names of a SQLite file, read-only. `immutable` reads the main file alone and
    creates nothing beside it; without it SQLite also reads the -wal (and makes a -shm)."""
    uri = "file:%s?mode=ro%s" % (_uri_path(path), "&immutable=1" if immutable else "")
    db = sqlite3.connect(uri, uri=True)
    try:
        return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        db.close()


def _uri_path(path):
    return os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def identify(path):
    """(kind, detail): is `path` missing, empty, not a SQLite file or not ours, damaged, or a game
    log? Nothing is written to the file and, unless it has a -wal already, nothing made beside it."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return MISSING, ""
    except OSError as e:  # a folder in the path is a file, the name is too long, no permission...
        raise LogError("cannot use %s as a game log: %s" % (path, e.strerror or e)) from None
    if not stat.S_ISREG(info.st_mode):
        return FOREIGN, "not a file"
    if info.st_size == 0:
        return EMPTY, ""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as e:
        return DAMAGED, e.strerror
    if not head.startswith(SQLITE_MAGIC):
        return FOREIGN, "not a database"
    try:
        tables = _tables(path, immutable=True)
        # A log from before headers were checkpointed at creation keeps its tables in the -wal
        # until it is closed (byte 18 is 2 in WAL mode).
        if "meta" not in tables and len(head) > 18 and head[18] == 2 and os.path.exists(path + "-wal"):
            tables = _tables(path, immutable=False)
    except sqlite3.DatabaseError as e:
        return DAMAGED, str(e)
    if {"meta", "entries"} <= tables:
        return OURS, ""
    return FOREIGN, "a database without a game in it"


def _refuse(path, kind, detail, then="it was left as it is"):
    if kind == MISSING:
        raise LogError("no game log at %s" % path)
    if kind == EMPTY:
        raise LogError("%s is an empty file, not a game log; %s" % (path, then))
    if kind == FOREIGN:
        raise LogError("%s is not a game log (%s); %s" % (path, detail, then))
    raise LogError("the game log %s is damaged (%s); %s" % (path, detail, then))


# --- files, made whole -------------------------------------------------------------------------

def _private_file(path):
    """Make `path` (it must not exist) readable and writable by this user only, whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    try:
        os.fchmod(fd, PRIVATE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_all(fd, data):
    """All of `data` to the open file `fd` (os.write may take part of it), then synced to disk."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def _write_synced(path, data):
    fd = _private_file(path)
    try:
        write_all(fd, data)
    finally:
        os.close(fd)


def _sync(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(*paths):
    for path in paths:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def _build(temp, rows):
    """The log under its temporary name: tables and header in one transaction, checkpointed into
    the main file (so a damaged -wal cannot take the header with it), synced, closed."""
    os.close(_private_file(temp))  # SQLite gives its -wal and -shm the mode of this file
    db = sqlite3.connect(temp, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("BEGIN")
        for statement in SCHEMA:
            db.execute(statement)
        db.executemany("INSERT INTO meta VALUES (?, ?)", rows)
        db.execute("COMMIT")
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:
            raise sqlite3.OperationalError("the new log could not be checkpointed")
    finally:
        db.close()
    _sync(temp)


def _place(temp, path, rows, start):
    """Build the log and its record under temporary names, then link each into place: the log
    appears whole or not at all, and an existing file is never replaced (a link fails where a name
    is taken). Killed between the two links, a whole log is left without its record: it resumes
    with a note, and its record is made at its next move."""
    try:
        _build(temp, rows)
        _write_synced(temp + ACKS, ACKS_HEAD + start.hex().encode() + b"\n")
        os.link(temp, path)
    except FileExistsError:
        raise LogError("%s already exists; choose another file" % path) from None
    except (OSError, sqlite3.DatabaseError) as e:
        raise LogError("cannot write the game log %s: %s; nothing was left there"
                       % (path, getattr(e, "strerror", None) or e)) from None
    try:
        os.link(temp + ACKS, path + ACKS)
    except OSError as e:  # taken meanwhile (checked before building), or the disk failed: no log then
        _remove(path)
        raise LogError("cannot make %s%s: %s; nothing was left at %s, choose another file"
                       % (path, ACKS, e.strerror or e, path)) from None
    try:
        _sync(os.path.dirname(os.path.abspath(path)))
    except OSError:
        pass  # the links are made; a folder that cannot be synced (some file systems) changes nothing


# A temporary name of GameLog.create: "<log>.creating-<pid>-<6 hex>", and SQLite's and our files beside it.
CREATING = re.compile(r".+\.creating-(\d+)-[0-9a-f]{6}(-wal|-shm|\.acks)?\Z")


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def remove_stale_creations(folder):
    """Remove what a killed GameLog.create left in `folder`: files with our temporary names, of a
    process that is gone (a live one may be writing them), owned by this user, regular files (never
    a link), and holding nothing but what creation writes (a SQLite file or our record's head)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        match = CREATING.match(name)
        if not match or _alive(int(match.group(1))):
            continue
        path = os.path.join(folder, name)
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
                continue
            if match.group(2) in (None, ACKS):  # empty, or its start (a write may have been cut short)
                want = SQLITE_MAGIC if match.group(2) is None else ACKS_HEAD
                with open(path, "rb") as f:
                    head = f.read(len(want))
                if head != want[:len(head)]:
                    continue
            os.unlink(path)
        except OSError:
            continue


def _connect(path):
    try:
        # The table's link thread appends taps; callers serialise access (TableRunner's lock).
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        return db
    except sqlite3.DatabaseError as e:
        raise LogError("cannot open the game log %s: %s" % (path, e)) from None


def _connect_read_only(path):
    """A connection that cannot write: no checkpoint, no deleted -wal. With no -wal there is only
    the main file to read, and `immutable` then leaves nothing (no -wal, no -shm) beside it."""
    immutable = not os.path.exists(path + "-wal")
    uri = "file:%s?mode=ro%s" % (_uri_path(path), "&immutable=1" if immutable else "")
    try:
        return sqlite3.connect(uri, uri=True, check_same_thread=False)
    except sqlite3.DatabaseError as e:
        raise LogError("the game log %s is damaged (%s); it was left as it is" % (path, e)) from None


def standing(rows):
    """The rows that are moves still standing, in order: an undo row removes the latest of them."""
    kept = []
    for row in rows:
        if row[1]["seat"] == UNDO:
            if kept:
                kept.pop()
        else:
            kept.append(row)
    return kept


class GameLog:
    def __init__(self, path, db):
        self.path = path
        self.db = db
        self.note = ""  # said when the game resumes: what could not be checked
        self.writing = False
        self._acks = None  # the .acks file, open for appending, once writing
        self._tip = None  # (seq, hash) of the last entry
        self._acked = 0  # moves the .acks file records (it may lag the log by one: a kill between)
        self._acks_whole = False  # the .acks file is ours and ends with a whole line

    @classmethod
    def create(cls, path, game, config, seed, setup_outcomes, extra=None):
        path = str(path)
        kind, detail = identify(path)
        if kind == OURS:
            raise LogError("%s already holds a game; choose another file" % path)
        if kind != MISSING:
            _refuse(path, kind, detail, then="it was left as it is: choose another file")
        if os.path.exists(path + "-wal"):  # SQLite would read an earlier log's moves into the new one
            raise LogError("%s-wal is left from an earlier game log; choose another file (it was left as it is)" % path)
        if os.path.lexists(path + ACKS):  # never replaced: it may be an earlier log's record, or not ours at all
            raise LogError("%s%s is there already (an earlier game log's record?); choose another file (it was "
                           "left as it is)" % (path, ACKS))
        remove_stale_creations(os.path.dirname(os.path.abspath(path)))
        meta = {"format": FORMAT, "game": game, "config": config, "seed": seed,
                "setup_outcomes": setup_outcomes, "created": time.time(), "extra": extra or {}}
        if isinstance(config.get("cards"), str):
            meta["card_table"] = cardtables.get(config["cards"])
        rows = [(k, json.dumps(v)) for k, v in meta.items()]
        start = _start_hash(dict(rows))
        temp = "%s.creating-%d-%s" % (path, os.getpid(), secrets.token_hex(3))
        try:
            _place(temp, path, rows, start)
        finally:
            _remove(temp, temp + "-wal", temp + "-shm", temp + ACKS)
        log = cls(path, _connect(path))
        log.writing = True
        log._tip, log._acked, log._acks_whole = (0, start), 0, True
        log._open_acks()
        return log

    @classmethod
    def open(cls, path):
        """The log at `path`, read-only, its header and its moves checked against `.acks`.
        Call `writable()` before appending."""
        path = str(path)
        kind, detail = identify(path)
        if kind != OURS:
            _refuse(path, kind, detail)
        log = cls(path, _connect_read_only(path))
        try:
            log.header()  # fail now, clearly, on a damaged file
            log._check_acks()
        except LogError:
            log.db.close()
            raise
        return log

    def writable(self):
        """Reopen for writing: once the log has been checked and replayed, never before."""
        if self.writing:
            return
        self.db.close()
        self.db = _connect(self.path)
        self.writing = True
        remove_stale_creations(os.path.dirname(os.path.abspath(self.path)))
        self._open_acks()

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
        self._register_cards(meta)
        return meta

    def _register_cards(self, meta):
        """Register the table the header keeps under the key its config names, refusing one that
        does not hash to it. (A log from before tables left the state keeps the table in its config.)"""
        key = meta["config"].get("cards")
        if not isinstance(key, str):
            return
        if "card_table" not in meta:
            raise LogError("the game log %s is incomplete: its header names the card table %s but lacks the "
                           "table; it was left as it is" % (self.path, key))
        try:
            cardtables.register(meta["card_table"], key)
        except cardtables.CardTableError as e:
            raise LogError("the game log %s is damaged: %s; it was not resumed and was left as it is"
                           % (self.path, e)) from None

    # --- the record of acknowledged moves ---------------------------------------------------

    def _check_acks(self):
        """Refuse a log that lost or changed moves that `.acks` says were acknowledged."""
        # The record first, the moves after: a game still being played (someone reading its log)
        # commits a move before its line, so every line read here is a move the query below sees.
        recorded = self._acks_bytes()
        try:
            start = _start_hash(dict(self.db.execute("SELECT key, value FROM meta").fetchall()))
            rows = self.db.execute("SELECT seq, seat, ask, choice, outcomes FROM entries ORDER BY seq").fetchall()
        except sqlite3.DatabaseError as e:
            raise LogError("the game log %s is damaged (%s); it was left as it is" % (self.path, e)) from None
        chain = [start]
        for row in rows:
            try:
                chain.append(_next_hash(chain[-1], *row))
            except TypeError:  # a field of the wrong type: the row is damaged
                raise LogError("entry %s of the game log %s is damaged; it was left as it is"
                               % (row[0], self.path)) from None
        self._tip = (len(rows), chain[-1])
        acks = self._read_acks(recorded, start)
        if acks is None:
            return
        held = len(rows)
        for seq, digest in acks:
            if seq > held:
                lost = acks[-1][0] - held
                raise LogError(
                    "the game log %s lost %d acknowledged move%s: it holds %d of the %d moves that were played "
                    "(its -wal file is damaged or was removed). It was not resumed and was left as it is, -wal "
                    "included; to continue from move %d anyway, keep a copy of both, then move %s away"
                    % (self.path, lost, "" if lost == 1 else "s", held, acks[-1][0], held, self.path + ACKS))
            if chain[seq] != digest:
                raise LogError(
                    "the game log %s does not hold the moves that were acknowledged: entry %d differs from "
                    "what %s recorded. It was not resumed and both were left as they are"
                    % (self.path, seq, self.path + ACKS))
        self._acked = acks[-1][0] if acks else 0

    def _acks_bytes(self):
        try:
            with open(self.path + ACKS, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None
        except OSError as e:  # a folder by that name, no permission...
            raise LogError("%s%s cannot be read as the record of the game's acknowledged moves (%s); it and the "
                           "game log were left as they are" % (self.path, ACKS, e.strerror or e)) from None

    def _read_acks(self, data, start):
        """The (seq, hash) lines of `.acks`, or None (with a note) when there is none to check."""
        name = self.path + ACKS
        if data is None:
            self.note = ("this log has no record of its acknowledged moves (%s: it is from an older maester, "
                         "or the file was removed), so it could not be checked for lost moves" % name)
            return None
        *lines, tail = data.split(b"\n")  # a tail without its newline is a write a kill cut short
        if not lines or lines[0] != ACKS_HEAD + start.hex().encode():
            raise LogError("%s is not the record of the game log %s (it belongs to another game, or is damaged); "
                           "both were left as they are. If it belongs to another game, move it away"
                           % (name, self.path))
        acks, last = [], 0
        for number, line in enumerate(lines[1:], 2):
            match = ACK_LINE.match(line)
            if not match or int(match.group(1)) <= last:
                raise LogError("the record of acknowledged moves %s is damaged at line %d; it and the game log "
                               "%s were left as they are" % (name, number, self.path))
            last = int(match.group(1))
            acks.append((last, bytes.fromhex(match.group(2).decode())))
        self._acks_whole = tail == b""
        return acks

    def _open_acks(self):
        """Open `.acks` to append to, first bringing it up to the log: a move committed by a game
        killed before it wrote its line, or a log that had none (rewritten whole, then renamed)."""
        name = self.path + ACKS
        seq, digest = self._tip
        try:
            if not self._acks_whole:
                _remove(name + ".new")
                _write_synced(name + ".new", ACKS_HEAD + _start_hash(self._meta_rows()).hex().encode() + b"\n"
                              + (_ack_line(seq, digest) if seq else b""))
                os.replace(name + ".new", name)
                self._acks_whole, self._acked = True, seq
            self._acks = os.open(name, os.O_WRONLY | os.O_APPEND)
            if self._acked < seq:
                self._write_ack(seq, digest)
        except OSError:
            self._acks_failed()

    def _meta_rows(self):
        return dict(self.db.execute("SELECT key, value FROM meta").fetchall())

    def _write_ack(self, seq, digest):
        line = _ack_line(seq, digest)
        if os.write(self._acks, line) != len(line):
            raise OSError("short write")
        self._acked = seq

    def _acks_failed(self):
        """The move is in the log, synced; only its line is missing. The file may now end with half
        a line, so it is rewritten whole at the next move (it may lag the log; never lead it)."""
        if self._acks is not None:
            os.close(self._acks)
        self._acks, self._acks_whole = None, False

    def _ack(self, seq, seat, ask, choice, outcomes):
        digest = _next_hash(self._tip[1], seq, seat, ask, choice, outcomes)
        self._tip = (seq, digest)
        if self._acks is None:
            self._open_acks()
            return
        try:
            # Not synced, on purpose (a sync costs milliseconds a move): it follows the synced commit,
            # so after a power cut it can only lag the log, and a lagging record refuses nothing.
            self._write_ack(seq, digest)
        except OSError:
            self._acks_failed()

    # --- moves -------------------------------------------------------------------------------

    def next_seq(self):
        """The number the next row gets: rows count moves and undos alike, so after an undo it runs
        ahead of the state's own move count."""
        return self._tip[0] + 1

    def append_undo(self, by, agreed):
        """Write an undo of the last move still standing: a row of its own, never a deletion."""
        self.append(self.next_seq(), {"seat": UNDO, "ask": 0, "choice": {"by": by, "agreed": agreed}}, [])

    def append(self, seq, command, outcomes, clocks=None):
        """Write one accepted command and sync it. Raises LogError if it did not reach the disk.
        `clocks`: the seats' clocks as they stand at this move (table/clocks.py), kept with it in
        the same transaction."""
        if not self.writing:
            raise LogError("the game log %s was opened to be checked, not written" % self.path)
        seat, ask = json.dumps(command["seat"]), command["ask"]
        choice, drawn = json.dumps(command["choice"]), json.dumps(outcomes)
        now = time.time()
        try:
            if clocks is None:
                self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?)", (seq, seat, ask, choice, drawn, now))
            else:
                self._clocks_table()
                with self.db:  # one commit, one sync: the move and its clocks together or neither
                    self.db.execute("BEGIN")
                    self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?)", (seq, seat, ask, choice, drawn, now))
                    self.db.execute("INSERT INTO clocks (seq, reading, at) VALUES (?, ?, ?)",
                                    (seq, json.dumps(clocks), now))
        except sqlite3.DatabaseError as e:
            raise LogError("could not record the command in %s: %s" % (self.path, e)) from None
        self._ack(seq, seat, ask, choice, drawn)

    # --- the seats' clocks (table/clocks.py): one table, a reading a row, the last one counts --------

    def _clocks_table(self):
        if not getattr(self, "_has_clocks", False):
            self.db.execute("CREATE TABLE IF NOT EXISTS clocks (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, "
                            "reading TEXT NOT NULL, at REAL NOT NULL)")
            self._has_clocks = True

    def record_clocks(self, seq, clocks):
        """Keep a reading of the clocks between moves (they stopped, or a while passed)."""
        if not self.writing:
            return
        try:
            self._clocks_table()
            self.db.execute("INSERT INTO clocks (seq, reading, at) VALUES (?, ?, ?)", (seq, json.dumps(clocks), time.time()))
        except sqlite3.DatabaseError as e:
            raise LogError("could not record the clocks in %s: %s" % (self.path, e)) from None

    def last_clocks(self):
        """The last reading of the clocks the log keeps, or None (no clocks, or none yet)."""
        try:
            row = self.db.execute("SELECT reading FROM clocks ORDER BY id DESC LIMIT 1").fetchone()
            return json.loads(row[0]) if row else None
        except sqlite3.OperationalError:  # no such table: a game without clocks
            return None
        except (sqlite3.DatabaseError, ValueError) as e:
            raise LogError("the clocks kept in %s are damaged (%s); it was left as it is" % (self.path, e)) from None

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

    def moves(self):
        """(seq, command, outcomes) of the moves still standing: the rows, with each undo row taking
        back the last move before it that still stands. The one place the fold skips undone moves."""
        return standing(self.entries())

    def close(self):
        self.db.close()
        if self._acks is not None:
            os.close(self._acks)
            self._acks = None
