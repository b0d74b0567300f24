"""A bad USB cable between a board's serial port and the host: a pty in the middle that damages frames.

    proxy = FaultProxy(board.port, rate=0.05, seed=1).start()
    BoardLink(proxy.port, ...)          # the host opens the proxy's pty instead of the board's
    proxy.unplug(); proxy.replug()      # the host's port vanishes and comes back under the same name
    proxy.faults                        # Counter: how many of each fault were injected
    proxy.stop()

The proxy opens the board's port the way a host would and offers a second pty, `.port`, to the host.
Bytes are cut into frames at their 0x00 delimiters (firmware/PROTOCOL.md: COBS frames end in a zero),
and each frame, in either direction, is damaged with probability `rate` by one fault drawn from KINDS:

    garbage    random bytes written before the frame (line noise between frames)
    flip       one bit of the frame inverted
    truncate   the frame cut short, its delimiter lost (the next frame's zero closes it)
    duplicate  the frame sent twice
    reorder    the frame held back and sent after the next one
    drop       the frame not sent at all

The draws come from one seeded random.Random, so a run is repeatable as far as the timing of the
two ends allows. Only whole frames are delayed (a frame is sent once its delimiter has arrived).

Two more faults, on demand: `slow(seconds, n)` is a host that is alive but reads the board's port
only `n` bytes every 20 ms for a while (the board's USB FIFO fills; firmware/sim/sim_usb.py), and
`to_board(data)` puts bytes on the board's line, as a host does while the board boots.

`.port` is a symlink to the host's pty, a stable name as udev's /dev/serial/by-id gives a real
board: an unplug removes it, a replug points it at a fresh pty. A bare /dev/pts/N would not do:
once freed, the number goes to whichever program opens a pty next (another simulated board), and
a host reconnecting by name would open that one.
"""

import collections
import errno
import os
import random
import select
import shutil
import tempfile
import threading
import time
import tty

from .simboard import SimBoardError

KINDS = ("garbage", "flip", "truncate", "duplicate", "reorder", "drop")
HOLD_S = 0.05  # a frame held for reordering goes out alone if nothing follows it within this


def _open_raw(path):
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    tty.setraw(fd)
    return fd


class _Direction:
    """One way through the proxy: bytes in, frames cut at zeros, damaged, bytes out."""

    def __init__(self, name, proxy):
        self.name = name
        self.proxy = proxy
        self.buf = bytearray()
        self.held = None  # (frame, since): a frame waiting to be sent after the next one

    def feed(self, data, out):
        self.buf += data
        while True:
            i = self.buf.find(0)
            if i < 0:
                break
            frame = bytes(self.buf[:i + 1])
            del self.buf[:i + 1]
            self._frame(frame, out)

    def _frame(self, frame, out):
        p = self.proxy
        if len(frame) > 1:
            p.frames[self.name] += 1
        kind = p.draw() if len(frame) > 1 else None
        if kind == "drop":
            p.faults[kind] += 1
            return
        if kind == "garbage":
            p.faults[kind] += 1
            out(bytes(p.rng.randrange(256) for _ in range(p.rng.randint(1, 24))))
        elif kind == "flip":
            p.faults[kind] += 1
            b = bytearray(frame)
            i = p.rng.randrange(len(b) - 1)  # not the delimiter: a flipped body byte
            b[i] ^= 1 << p.rng.randrange(8)
            frame = bytes(b)
        elif kind == "truncate":
            p.faults[kind] += 1
            frame = frame[:p.rng.randrange(1, len(frame) - 1)] if len(frame) > 2 else b""
        elif kind == "duplicate":
            p.faults[kind] += 1
            frame = frame + frame
        if self.held is not None:
            held, _ = self.held
            self.held = None
            out(frame)
            out(held)
            p.faults["reorder"] += 1
            return
        if kind == "reorder":
            self.held = (frame, time.monotonic())
            return
        out(frame)

    def flush_held(self, out, now):
        if self.held is not None and now - self.held[1] >= HOLD_S:
            frame, _ = self.held
            self.held = None
            out(frame)  # nothing came after it: sent in order after all (not counted)


class FaultProxy:
    def __init__(self, board_port, rate=0.05, seed=1, kinds=KINDS):
        self.rng = random.Random(seed)
        self.rate = rate
        self.kinds = tuple(kinds)
        self.faults = collections.Counter({k: 0 for k in self.kinds})
        self.frames = collections.Counter()  # good frames seen, by direction ("up": board to host)
        self.board_port = board_port
        self._board = _open_raw(board_port)
        self._dir = tempfile.mkdtemp(prefix="maester-proxy-")
        self.port = os.path.join(self._dir, "ttyMAESTER")
        self._master = self._slave = -1
        self._plug()
        self.plugged = True
        self._up = _Direction("up", self)
        self._down = _Direction("down", self)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None
        self.overflow = 0  # bytes a side did not take (its buffer full: nobody reading)
        self._slow_until = 0.0  # while monotonic() is before this, the board is read slowly
        self._slow_n = 0
        self._board_due = 0.0

    def slow(self, seconds, n=8):
        """For `seconds`, read at most `n` bytes from the board every 20 ms."""
        with self._lock:
            self._slow_until = time.monotonic() + seconds
            self._slow_n = n

    def to_board(self, data):
        with self._lock:
            self._to_board(data)

    def draw(self):
        """The fault for the next frame, or None (most frames)."""
        if self.rate <= 0 or self.rng.random() >= self.rate:
            return None
        return self.rng.choice(self.kinds)

    def start(self):
        self._thread = threading.Thread(target=self._run, name="fault-proxy", daemon=True)
        self._thread.start()
        return self

    def _write(self, fd, data):
        while data:
            try:
                n = os.write(fd, data)
            except BlockingIOError:
                # The reader is not reading (a host killed, a board gone): what does not fit is lost,
                # as bytes sent to an unplugged or stuck USB device are.
                self.overflow += len(data)
                return
            except OSError:
                return
            data = data[n:]

    def _run(self):
        while not self._stop.is_set():
            with self._lock:
                slow = time.monotonic() < self._slow_until
                fds = [self._board] if not slow or time.monotonic() >= self._board_due else []
                fds += [self._master] if self.plugged else []
            try:
                ready = select.select(fds, [], [], 0.02)[0]
            except (OSError, ValueError):
                time.sleep(0.02)
                continue
            now = time.monotonic()
            with self._lock:
                for fd in ready:
                    try:
                        if fd == self._board and slow:
                            data = os.read(fd, self._slow_n)
                            self._board_due = now + 0.02
                        else:
                            data = os.read(fd, 4096)
                    except BlockingIOError:
                        continue
                    except OSError as e:
                        if e.errno in (errno.EIO, errno.EBADF):  # the other end closed for now, or we stop
                            time.sleep(0.01)
                            continue
                        raise
                    if fd == self._board:
                        self._up.feed(data, self._to_host)
                    elif fd == self._master:
                        self._down.feed(data, self._to_board)
                self._up.flush_held(self._to_host, now)
                self._down.flush_held(self._to_board, now)

    def _to_host(self, data):
        if self.plugged:
            self._write(self._master, data)

    def _to_board(self, data):
        self._write(self._board, data)

    def unplug(self):
        """The host's port disappears (its reads fail, as with a pulled USB cable)."""
        with self._lock:
            if not self.plugged:
                raise SimBoardError("already unplugged")
            try:
                os.unlink(self.port)
            except OSError:
                pass
            for fd in (self._master, self._slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.plugged = False
            self._up.buf.clear()
            self._down.buf.clear()
            self._up.held = self._down.held = None

    def _plug(self):
        m, s = os.openpty()
        tty.setraw(s)
        os.set_blocking(m, False)
        self._master, self._slave = m, s
        tmp = self.port + ".new"
        os.symlink(os.ttyname(s), tmp)
        os.replace(tmp, self.port)

    def replug(self):
        """The port comes back under the same name (as a udev rule's stable name would)."""
        with self._lock:
            self._plug()
            self.plugged = True

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        with self._lock:
            for fd in (self._board, self._master, self._slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.plugged = False
        shutil.rmtree(self._dir, ignore_errors=True)
