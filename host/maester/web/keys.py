"""The seat tokens of a logged game, kept beside its log so its links last (`<log>.web.json`).

The first time pages are served for a log, a token is drawn for every seat and saved with the web
port in use; `play --web`, `resume` and `serve` for that log read them back, so a phone holding
a seat's link keeps it across a restart. The file is the seats' keys: it is created readable by
this user only, whole or not at all (a temporary file, synced, then linked into place), and
never overwritten. A file that is damaged or belongs to another game is refused with its name.
"""

import json
import os
import secrets

KIND = "maester seat tokens"
VERSION = 1


class TokensError(ValueError):
    """A tokens file that cannot be used. The message names the file and says what to do."""


def tokens_path(log_path):
    return str(log_path) + ".web.json"


def draw(seats):
    """A fresh secret token for each of `seats` seats."""
    return {s: secrets.token_urlsafe(16) for s in range(seats)}


def identity(header):
    """What ties a tokens file to one game: a new game in the same file must not get old links."""
    return {"game": header.get("game"), "seed": header.get("seed"), "created": header.get("created")}


def load(path, header, seats):
    """(tokens, port) saved for this game, or None when there is no file yet. Raises TokensError."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise _refused(path, "cannot be read (%s)" % e) from None
    try:
        data = json.loads(text)
    except ValueError:
        raise _refused(path, "is damaged (not JSON)") from None
    if not isinstance(data, dict) or data.get("kind") != KIND or data.get("version") != VERSION:
        raise _refused(path, "is not a maester seat tokens file")
    if data.get("game") != identity(header):
        raise _refused(path, "belongs to another game")
    tokens, port = data.get("tokens"), data.get("port")
    if (not isinstance(tokens, dict) or sorted(tokens) != sorted(str(s) for s in range(seats))
            or not all(isinstance(t, str) and len(t) >= 16 for t in tokens.values())):
        raise _refused(path, "is damaged (its tokens do not fit this game's %d seats)" % seats)
    if type(port) is not int or not 0 < port < 65536:
        raise _refused(path, "is damaged (no usable port)")
    return {int(s): t for s, t in tokens.items()}, port


def save(path, header, tokens, port):
    """Create the file, readable by this user only. Returns (tokens, port) as saved: another
    `maester` that saved first for the same log wins, and its file is read back untouched."""
    data = {"kind": KIND, "version": VERSION, "game": identity(header), "port": port,
            "tokens": {str(s): t for s, t in sorted(tokens.items())}}
    write_private(path, json.dumps(data, indent=1, sort_keys=True) + "\n")
    return load(path, header, len(tokens))


def write_private(path, text, replace=False):
    """Write `text` to `path` readable by this user only, whole or not at all: a temporary file
    (made 0600 whatever the umask), synced, then put in place by name, never written through a link
    that is there. Without `replace` a file already there stays (another `maester` saved first);
    with it, whatever has the name (a file, a link) is replaced. Raises TokensError."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, ".%s.%s.tmp" % (os.path.basename(path), secrets.token_hex(4)))
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            if replace:
                os.replace(tmp, path)  # a rename: it takes the name, a link's target is not touched
            else:
                _place(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError as e:
        raise TokensError("cannot keep the seat links in %s: %s" % (path, e.strerror or e)) from None
    _sync_folder(folder)


def _place(tmp, path):
    # A hard link puts the whole file in place and fails if one is there already, so a file
    # made meanwhile by another `maester` is never replaced. Where links are not supported
    # (some network and FAT filesystems), a rename: whole, though it could replace a racing one.
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    except OSError:
        os.replace(tmp, path)


def _sync_folder(folder):
    # The new name must survive a crash too, or the next start would draw new links.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _refused(path, why):
    return TokensError("the seat tokens file %s %s; it was left as it is. Move it away to draw new links "
                       "(phones holding the old ones will need the new ones)" % (path, why))
