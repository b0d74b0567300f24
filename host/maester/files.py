"""Reading a file a person named (a deck list, a table profile, a board script, a JSON file).

The name may be anything: a folder, a device that never ends (/dev/zero), a named pipe that waits
for a writer, a file far too big. `read_bytes` takes only a regular file, and only up to a bound,
and says in one line why not, so a command never hangs or grows without end on such a name.
"""

import os
import stat


def read_bytes(path, limit, what="file"):
    """The bytes of the regular file at `path`, at most `limit` of them. Raises ValueError naming
    `what` and the path when it is not a file or is larger; OSError when it cannot be opened."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe: no wait for a writer
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("cannot read the %s %s: it is not a file" % (what, path))
        data = b""
        while len(data) <= limit:
            more = os.read(fd, limit + 1 - len(data))
            if not more:
                break
            data += more
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ValueError("cannot read the %s %s: it is larger than %s" % (what, path, _size(limit)))
    return data


def read_text(path, limit, what="file"):
    """read_bytes as UTF-8 text; a ValueError when it is not."""
    try:
        return read_bytes(path, limit, what).decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError("cannot read the %s %s: it is not text (UTF-8) at byte %d" % (what, path, e.start)) from None


def _size(n):
    return "%d MB" % (n >> 20) if n >= 1 << 20 else "%d KB" % (n >> 10)
