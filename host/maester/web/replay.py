"""A game replayed move by move: its frames, read from a game log or from an exported replay file.

A frame is what the table page showed after a move (frame 0: after setup): the public payload
(payload.table_payload), built from the public view alone. Beside it, once the game is over, each
seat's secret blocks (its hand, face-down cards, role: the "secret" part of its seat page) may be
shown too. A game still running keeps them: a replay of it is the public's, whatever is asked.

An export (`maester replay LOG --export FILE`) is a JSON file of those frames, which anyone can open
with `maester replay FILE` without the log. It holds the public frames only: no hand, no face-down
card, no role, no seed, no chance outcome and no command (a command may name a card from a hand, or
a secret bid). With `--with-secrets` (a finished game only) it also holds each seat's secret blocks
at every move and the log's record (config, seed, chance outcomes and commands). Each frame after
the first is written as the parts of the page that changed since the one before (the hints, the
seats' names and most cards' text stay the same for many moves): a third of the size for the LCG.

The log is only ever read (GameLog.open is read-only); nothing here writes beside it.
"""

import json
import os
import secrets as tokens

from .. import files, games
from ..engine import core, log as game_log
from ..engine.session import replay as fold
from . import payload

FORMAT = 1
KIND = "maester replay"  # the export's "kind": what tells a replay file from any other JSON
EXPORT_LIMIT = 512 << 20  # bytes of an export read at most: a long LCG game with secrets is a few MB
# Why the seats' hidden cards are not shown; said on the page too, so no file name is in them.
RUNNING = "this game is still running: its hidden cards stay hidden until it is over"
PUBLIC_ONLY = "this replay file holds the public replay only (it was exported without --with-secrets)"


class ReplayError(ValueError):
    """A file that cannot be replayed, or secrets that may not be shown. One line, for the terminal."""


class Replay:
    """The frames of one game. `secrets` is None when they may not be shown (a running game, or an
    export without them); `refused` then says why, in one line."""

    def __init__(self, source, game, title, over, frames, secrets=None, refused=None, record=None):
        self.source = source
        self.game = game
        self.title = title
        self.over = over
        self.frames = frames  # [public payload], one per move and one for the setup
        self.secrets = secrets  # [[{"seat", "name", "blocks"}]] per frame, or None
        self.refused = refused
        self.record = record  # the log's own record (with secrets only)

    @property
    def moves(self):
        return len(self.frames) - 1

    def info(self):
        """What the page is told first: the game, how many moves, and whether secrets can be shown."""
        return {"game": self.game, "title": self.title, "moves": self.moves, "over": self.over,
                "secrets": self.secrets is not None, "refused": self.refused}

    def export(self, path, with_secrets=False):
        """Write the replay to `path` (which must not exist yet): the public frames, and with
        `with_secrets` the seats' secrets and the log's record. Raises ReplayError."""
        if with_secrets and self.secrets is None:
            raise ReplayError("cannot export the hidden cards of %s: %s" % (self.source, self.refused))
        data = {"kind": KIND, "format": FORMAT, "game": self.game, "title": self.title, "over": self.over,
                "frames": _changes(self.frames)}
        if with_secrets:
            data.update(secrets=self.secrets, record=self.record)
        _write_new(path, json.dumps(data, sort_keys=True, separators=(",", ":")).encode(),
                   0o600 if with_secrets else 0o644)


# --- from a game log ------------------------------------------------------------------------------

def _seat_secrets(state, players):
    """Each seat's secret blocks: the "secret" part of its page's layout (its hand, face-down cards,
    role), from its own view, named for the seat."""
    out = []
    for seat in range(players):
        view = core.view(state, seat)
        words = payload.Words(state, view, seat)
        out.append({"seat": seat, "name": words.seat(seat),
                    "blocks": (payload.layout(state, view, words, seat) or {}).get("secret", [])})
    return out


def from_log(path):
    """The replay of the game log at `path`, read-only. Secrets only for a finished game."""
    log = game_log.GameLog.open(path)  # LogError (a ValueError): one line, exit 2
    try:
        meta = log.header()
        frames = []
        state, _ = fold(log, each=lambda s, e: frames.append(payload.table_payload(s, e)))
        over = state["over"]
        secret_frames = record = None
        if over:
            # A second fold for the seats' secrets: a seat page per seat per move, wanted only once
            # the first fold has said the game is over (a running game's are never read).
            players = core.get_game(state["game"]).seat_count(state)
            secret_frames = []
            fold(log, each=lambda s, e: secret_frames.append(_seat_secrets(s, players)))
            record = {"config": meta["config"], "seed": meta["seed"], "setup_outcomes": meta["setup_outcomes"],
                      "moves": [[c["seat"], c["ask"], c["choice"], o] for _, c, o in log.entries()]}
    finally:
        log.close()
    return Replay(path, meta["game"], frames[0]["title"], over, frames, secret_frames,
                  None if over else RUNNING, record)


# --- from an export -------------------------------------------------------------------------------

def _changes(frames):
    """Each frame as the keys whose value differs from the frame before (the first whole)."""
    out, before = [], {}
    for frame in frames:
        out.append({k: v for k, v in frame.items() if k not in before or before[k] != v})
        before = frame
    return out


def _whole(changes):
    """The frames `_changes` wrote, whole again."""
    out, before = [], {}
    for change in changes:
        if not isinstance(change, dict):
            return None
        before = dict(before, **change)
        out.append(before)
    return out


def _damaged(path, why):
    return ReplayError("the replay file %s is damaged (%s); it was left as it is" % (path, why))


def from_export(path, data):
    """The replay an export holds (`data`: its bytes). Raises ReplayError naming what is wrong."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise _damaged(path, "not whole JSON: %s" % str(e).split(":")[0]) from None
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise ReplayError("%s is not a game log or a replay file (a JSON file of another kind)" % path)
    if doc.get("format") != FORMAT:
        raise ReplayError("the replay file %s has format %r; this maester reads %r" % (path, doc.get("format"), FORMAT))
    game = doc.get("game")
    if game not in games.NAMES:
        raise ReplayError("the replay file %s is of an unknown game %s (known: %s)"
                          % (path, _shown(game), ", ".join(games.NAMES)))
    frames = _whole(doc["frames"]) if isinstance(doc.get("frames"), list) else None
    if not frames or not all(
            isinstance(f, dict) and f.get("kind") == "table" and isinstance(f.get("view"), dict) for f in frames):
        raise _damaged(path, "its frames are not a list of table pages")
    over = doc.get("over")
    if type(over) is not bool or not isinstance(doc.get("title"), str):
        raise _damaged(path, "its header lacks the game's title or whether it is over")
    secret_frames = doc.get("secrets")
    refused = None
    if secret_frames is None:
        refused = PUBLIC_ONLY if over else RUNNING
    elif not over:  # written by hand, or by something else: a running game's secrets are never shown
        secret_frames, refused = None, RUNNING
    elif not isinstance(secret_frames, list) or len(secret_frames) != len(frames) or not all(
            isinstance(f, list) and all(isinstance(s, dict) and isinstance(s.get("blocks"), list) for s in f)
            for f in secret_frames):
        raise _damaged(path, "its secrets do not match its frames")
    return Replay(path, game, doc["title"], over, frames, secret_frames, refused,
                  doc.get("record") if secret_frames is not None else None)


def _shown(value):
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def load(path):
    """The replay in the file at `path`: a game log or an export. Raises ValueError (one line)."""
    path = str(path)
    kind, _ = game_log.identify(path)  # read-only, and never waits (a named pipe is "not a file")
    if kind == game_log.MISSING:
        raise ReplayError("no game log or replay file at %s" % path)
    if kind in (game_log.OURS, game_log.DAMAGED):
        return from_log(path)  # a damaged log: GameLog.open says what is wrong, in one line
    data = files.read_bytes(path, EXPORT_LIMIT, "replay file")
    if data.lstrip()[:1] != b"{":
        raise ReplayError("%s is not a game log or a replay file%s" % (path, "" if data else " (it is empty)"))
    return from_export(path, data)


def _write_new(path, data, mode):
    """`data` at `path`, whole or not at all, never over a file there (a log, say): built under a
    temporary name, synced, then linked into place (a link fails where the name is taken)."""
    path = str(path)
    folder = os.path.dirname(os.path.abspath(path))
    temp = os.path.join(folder, ".%s.%s.tmp" % (os.path.basename(path), tokens.token_hex(4)))
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            os.fchmod(fd, mode)  # whatever the umask: a file with secrets is this user's only
            game_log.write_all(fd, data)
        finally:
            os.close(fd)
        os.link(temp, path)
    except FileExistsError:
        raise ReplayError("%s already exists; choose another file (it was left as it is)" % path) from None
    except OSError as e:
        raise ReplayError("cannot write the replay file %s: %s" % (path, e.strerror or e)) from None
    finally:
        try:
            os.unlink(temp)
        except OSError:
            pass
