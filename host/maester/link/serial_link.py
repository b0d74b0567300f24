"""The host end of the table link: one USB CDC serial port, one board, one background thread.

`BoardLink` opens the board's serial port with pyserial, runs the Maester wire protocol on it
(`maester_fw.wire`, the same codec the firmware runs: framing, sequence numbers, acks and
retransmission all come from there) and turns what the board says into three callbacks:

* ``on_tap(tap)``: a card was placed on or lifted from a reader (`Tap`);
* ``on_snapshot(snapshot)``: the full reader table after every handshake (`Snapshot`);
* ``on_status(event)``: connected / link down / reboot / port errors, and the board's own
  ``ERROR`` and ``LOG`` messages (`StatusEvent`).

The caller drives the LEDs with `set_segment` and `clear_segments` from any thread. The link
keeps the last state of every segment, sends changes reliably, and sends the whole state again
after every handshake, so a board that rebooted or was unplugged comes back showing the game.

Threading: a single I/O thread owns the port. It reads (short timeout), feeds the codec, runs
retransmission and heartbeats, watches liveness and reconnects. The callbacks run on that
thread, one at a time, in wire order. Other threads never touch the port: `set_segment` only
records the wanted state and wakes the I/O thread. A reader thread was chosen over a
caller-driven ``poll()`` because acks, retransmissions and heartbeats must keep flowing while
the game code is busy or waiting for a player; a caller that forgets to poll would make the
board think the host is gone.

A tap is never lost and never applied twice across a drop
---------------------------------------------------------

1. *Ack after the callback.* The codec acks a reliable frame only after its delivery function
   has returned, and the delivery function calls ``on_tap``. So when the board sees the ack,
   ``on_tap`` has already logged and synced the tap (design principle 5). Until then the board
   keeps the TAP in its window and sends it again. If ``on_tap`` raises, the frame is not acked
   and the same tap is offered again: at least once in the failure case, exactly once otherwise.
2. *Duplicates are dropped.* A retransmitted TAP whose ack was lost carries a sequence number
   the link has already passed, and the codec drops it without calling ``on_tap`` (it only acks
   again). As a second guard the link remembers the identity of recent taps,
   ``(boot id, reader, kind, device time, uid)``, and drops a TAP it has already delivered,
   whatever its sequence number, in case a board re-sends an old event after a reconnect.
   Reliable frames that arrive after the port was (re)opened but before a HELLO is accepted
   carry a numbering the host cannot check and are ignored.
3. *Owed taps, then the snapshot.* Both sides restart their numbering at each HELLO. The board
   keeps the taps the host has not acked and the ones it saw while no host listened, and sends
   them first in the new session (the identity guard above drops those the host already has),
   then a SNAPSHOT. The link keeps the presence of every reader as the caller has seen it
   (updated only after ``on_tap`` returns) and, for every reader whose card differs from the
   snapshot (taps the board could not keep: more than 16, or lost with its power), calls
   ``on_tap`` with a synthesized ``removed`` and/or ``placed`` event marked
   ``from_snapshot=True``. A card placed *and* lifted while the board was off, or whose tap
   was still unacked when its power went, leaves no trace in a snapshot: those taps are lost.
   A reader the snapshot calls ``fault`` or ``crowded`` cannot tell which card lies there: the
   link keeps what the caller believed (``believe`` gives it a resumed game's word), and the board
   sends a new snapshot once such a reader knows its card again (PROTOCOL.md section 3).

See LINK.md next to this file for timeouts, the reconnect policy and what still needs a real
board to confirm.
"""

from __future__ import annotations

import collections
import logging
import os
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Optional, Sequence, Union

import serial
import serial.tools.list_ports

from maester_fw import wire

log = logging.getLogger(__name__)

# ---------------------------------------------------------------- finding boards

#: (vid, pid or None for any pid, label). MicroPython's rp2 port defaults to 2E8A:0005
#: (ports/rp2/mpconfigport.h). Espressif's VID is 303A; the PID depends on the board and on
#: whether TinyUSB or the USB-Serial/JTAG peripheral is used, so any 303A PID is a candidate.
KNOWN_USB_IDS: tuple = (
    (0x2E8A, 0x0005, "Raspberry Pi RP2 (MicroPython)"),
    (0x303A, None, "Espressif native USB (ESP32-S3)"),
)


@dataclass(frozen=True)
class BoardPort:
    """A serial port that may hold a Maester board."""

    device: str
    vid: Optional[int] = None
    pid: Optional[int] = None
    serial_number: Optional[str] = None
    description: str = ""
    explicit: bool = False  # named by the user (--port), not found by USB id


def find_boards(port: Optional[str] = None, ids: Iterable = KNOWN_USB_IDS, comports=None) -> list:
    """Candidate board ports, best first.

    An explicit ``port`` path (``--port``; a pty works the same) comes first whatever it is.
    Then every port whose USB VID/PID matches ``ids``, sorted by device name. ``comports``
    replaces ``serial.tools.list_ports.comports`` (for tests).
    """
    found = []
    if port:
        found.append(BoardPort(device=port, description="given with --port", explicit=True))
    ids = tuple(ids)
    listing = (comports or serial.tools.list_ports.comports)()
    for info in sorted(listing, key=lambda p: p.device):
        vid, pid = getattr(info, "vid", None), getattr(info, "pid", None)
        if vid is None or info.device == port:
            continue
        for want_vid, want_pid, label in ids:
            if vid == want_vid and (want_pid is None or pid == want_pid):
                found.append(BoardPort(
                    device=info.device, vid=vid, pid=pid,
                    serial_number=getattr(info, "serial_number", None),
                    description=getattr(info, "description", "") or label,
                ))
                break
    return found


# ---------------------------------------------------------------- what the callbacks get

PLACED = "placed"
REMOVED = "removed"
_KIND_NAMES = {wire.PLACED: PLACED, wire.REMOVED: REMOVED}
_READER_STATES = {wire.ABSENT: "absent", wire.PRESENT: "present", wire.FAULT: "fault", wire.CROWDED: "crowded"}
#: snapshot states that cannot tell which card lies on the reader: the host keeps what it believed
UNKNOWN_STATES = ("fault", "crowded")
_HEALTH_NAMES = {wire.READER_OK: "ok", wire.READER_FAULT: "fault", wire.READER_RESET: "reset",
                 wire.READER_CROWDED: "crowded", wire.READER_HOLDS_BUS: "holds_bus"}
#: SNAPSHOT health counters, PROTOCOL.md section 7 (the list only grows at the end)
COUNTER_NAMES = ("rx_dropped", "retransmits", "reader_errors", "reader_resets", "loop_overruns", "strip_write_us")


@dataclass(frozen=True)
class Tap:
    """A card placed on or lifted from a reader.

    ``from_snapshot`` events were not reported by the board as taps: the link inferred them by
    comparing a snapshot with the presence the caller had already seen (``time_ms`` is None).
    """

    reader: int
    kind: str  # PLACED or REMOVED
    uid: bytes
    boot_id: int
    time_ms: Optional[int] = None  # the board's uptime when it saw the change
    from_snapshot: bool = False

    @property
    def uid_hex(self) -> str:
        return self.uid.hex()


@dataclass(frozen=True)
class ReaderState:
    reader: int
    state: str  # "absent", "present", "fault" (the reader does not answer) or "crowded" (two cards answer)
    uid: Optional[bytes] = None


@dataclass(frozen=True)
class ReaderHealth:
    """What a reader is doing beyond its cards, from the board's READER_STATUS (PROTOCOL.md 3)."""

    reader: int
    health: str  # "ok", "fault", "reset", "crowded" or "holds_bus"
    detail: int = 0  # fault: 1 + the reader suspected of holding MISO low, 255 unknown, else 0
    version: int = 0  # MFRC522 VersionReg, PN532 IC byte (0: not read)
    inits: int = 0
    errors: int = 0


# Known chip versions (VersionReg of an MFRC522; the PN532's IC byte), for reports
CHIPS = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522 clone", 0x12: "counterfeit MFRC522",
         0xB2: "FM17522E clone", 0x32: "PN532"}


def health_text(h: ReaderHealth, name=None, names=()) -> str:
    """One line for people: what the reader is doing and what to do about it. `names`: every
    reader's name, to name a suspect."""
    who = "reader %s" % (name if name else h.reader)
    if h.health == "fault":
        if 0 < h.detail < 255:
            k = h.detail - 1
            other = "reader %s" % (names[k] if k < len(names) else k)
            return ("%s does not answer: its MISO reads 0x00, and %s seems to hold that line low (a module that does "
                    "not release MISO): unplug %s; if %s comes back, fit a 74HC125 buffer on its MISO or replace it"
                    % (who, other, other, who))
        if h.detail == 255:
            return ("%s does not answer: MISO is held low by a module that does not answer either, or shorted to GND: "
                    "unplug the readers one at a time" % who)
        return "%s does not answer: check its 3.3 V, GND, the SPI wires and its chip-select wire" % who
    if h.health == "holds_bus":
        return ("%s holds the SPI bus: its MISO stays low when it is not selected, so the other readers read 0x00; fit "
                "a 74HC125 buffer on its MISO or use another module" % who)
    if h.health == "crowded":
        return "two cards on %s: lift one" % who
    if h.health == "reset":
        return "%s lost power or was re-seated; it was set up again and reads its card again" % who
    return "%s reads" % who


@dataclass(frozen=True)
class Snapshot:
    """The board's full reader table, sent after every handshake.

    ``reason`` is what the boot id said: "first" (first board this process sees), "same"
    (a reconnect or resync, the board kept running) or "reboot" (its LEDs were reset).
    """

    boot_id: int
    readers: tuple
    counters: dict
    reason: str


@dataclass(frozen=True)
class StatusEvent:
    """Something the user may want to see. ``kind`` is one of:

    connected, link_down, disconnected, port_error, reconnecting, reboot, incompatible,
    board_error, board_log, config_status, warning, callback_error, reader (a reader's health
    changed: data has reader, health, detail and was, the health before).
    """

    kind: str
    message: str
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class LinkStatus:
    connected: bool = False  # handshake done, snapshot received, board heard from recently
    state: str = "closed"
    port: Optional[str] = None
    boot_id: Optional[int] = None
    firmware: Optional[str] = None
    board: Optional[str] = None
    proto: Optional[int] = None
    caps: int = 0
    reader_count: int = 0
    pixels: int = 0
    config_len: int = 0
    config_crc: int = 0
    readers: tuple = ()  # ReaderState per reader from the last snapshot
    health: tuple = ()  # ReaderHealth per reader, as the board last said (READER_STATUS)
    counters: dict = field(default_factory=dict)  # board health counters, last snapshot
    leds_pending: int = 0  # LED changes not yet acked by the board
    opens: int = 0  # successful port opens
    handshakes: int = 0
    reboots: int = 0
    retransmits: int = 0  # frames the host sent again
    duplicates: int = 0  # frames or taps the host received again and dropped
    frames_dropped: int = 0  # damaged frames the host's decoder threw away
    write_timeouts: int = 0
    ignored_before_hello: int = 0
    last_error: Optional[str] = None


# ---------------------------------------------------------------- the link

_CLOSED, _AWAIT_HELLO, _AWAIT_SNAPSHOT, _SESSION, _DOWN = "closed", "await_hello", "await_snapshot", "session", "down"

PortSpec = Union[None, str, Callable[[], Optional[str]]]


class _PortLost(Exception):
    """The port failed (unplugged, closed under us): close it and reconnect."""


class _CallbackFailed(Exception):
    """on_tap or on_snapshot raised; the frame stays unacked and will be offered again."""


class BoardLink:
    """A reliable, self-healing link to one Maester board. See the module docstring.

    ``port`` is a path ("/dev/ttyACM0", "COM5", a pty), a callable returning a path or None
    (a port finder, asked again before every reconnect), or None to use the first of
    `find_boards()`. With a path, a vanished device is looked for again by USB id and serial
    number (``refind``). Times are in seconds; the defaults are PROTOCOL.md's.
    """

    def __init__(
        self,
        port: PortSpec,
        on_tap: Callable[[Tap], None],
        on_snapshot: Optional[Callable[[Snapshot], None]] = None,
        on_status: Optional[Callable[[StatusEvent], None]] = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        heartbeat: float = 1.0,
        peer_timeout: float = 3.0,
        rto: float = 0.25,
        window: int = 8,
        resync_interval: float = 1.0,
        read_timeout: float = 0.05,
        write_timeout: float = 0.25,
        backoff: Sequence[float] = (0.2, 5.0),
        refind: bool = True,
        known_presence: Optional[dict] = None,
        dtr: bool = True,
        baudrate: int = 115200,
        trace: Optional[dict] = None,
    ):
        self._port_spec = port
        self.on_tap = on_tap
        self.on_snapshot = on_snapshot
        self.on_status = on_status
        self._clock = clock
        self._hb_ms = int(heartbeat * 1000)
        self._timeout_ms = int(peer_timeout * 1000)
        self._rto_ms = int(rto * 1000)
        self._window = window
        self._resync_ms = int(resync_interval * 1000)
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._backoff_min, self._backoff_max = backoff
        self._refind = refind
        self._dtr = dtr
        self._baudrate = baudrate
        # `maester bench hil`: {"rx": [], "tx": []} gets (monotonic µs, bytes) of every read and write
        self._trace = trace

        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._port_lock = threading.Lock()  # guards self._ser against close vs cancel_read
        self._ser: Optional[serial.Serial] = None
        self._link: Optional[wire.Link] = None
        self._bootwatch = wire.BootWatch()
        self._session_id = int.from_bytes(os.urandom(4), "little") or 1
        self._t0 = clock()

        # session state (written by the I/O thread)
        self._state = _CLOSED
        self._numbering_ok = False  # a HELLO was accepted on this port: seq numbers mean something
        self._next_resync = 0
        self._hello_ack_at = 0
        self._pending_reason: Optional[str] = None  # BootWatch verdict waiting for its SNAPSHOT
        self._last_port_error: Optional[str] = None
        self._wake_pending = False
        self._warned_boot_incompatible = None
        self._serial_number: Optional[str] = None  # USB serial of the board, to find it again
        self._status = LinkStatus()
        self._stats = collections.Counter()
        self._presence: dict = dict(known_presence or {})  # reader -> uid as the caller saw it
        self._recent_taps: collections.deque = collections.deque(maxlen=1024)
        self._recent_set: set = set()
        self._warned = set()

        # LED state wanted by the caller (guarded by self._lock)
        self._segments: dict = {}  # segment -> (level, (r, g, b), pattern, period_ms)
        self._dirty: dict = {}  # ordered set of segments to send
        self._clear_pending = False

    # ------------------------------------------------------------ public API

    def start(self) -> "BoardLink":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="maester-board-link", daemon=True)
            self._thread.start()
        return self

    def close(self, timeout: float = 2.0) -> None:
        """Stop the I/O thread and close the port. Safe to call from a callback."""
        self._stop.set()
        self._wake()
        t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    @property
    def status(self) -> LinkStatus:
        with self._lock:
            return self._make_status()

    def wait_connected(self, timeout: float) -> bool:
        """Block until the handshake is done and the snapshot delivered (True) or timeout."""
        return self._wait_for(lambda: self._make_status().connected, timeout)

    def wait_leds_synced(self, timeout: float) -> bool:
        """Block until every LED change has been acked by a connected board."""
        return self._wait_for(lambda: (s := self._make_status()).connected and s.leds_pending == 0, timeout)

    def set_segment(self, segment: int, level: int = 255, rgb=(255, 255, 255), pattern: int = wire.SOLID,
                    period_ms: int = 0) -> None:
        """Ask the board to show one LED segment; kept and restored after reconnects."""
        try:
            wire.segment_set(segment, level, tuple(rgb), pattern, period_ms)  # validate now
        except wire.WireError as e:
            raise ValueError(str(e)) from None
        with self._lock:
            self._segments[segment] = (level, tuple(rgb), pattern, period_ms)
            self._dirty.pop(segment, None)
            self._dirty[segment] = True
        self._wake()

    def send_leds_now(self) -> None:
        """Write the LED changes waiting now, when called from a callback on the link's own thread
        (on_tap: a tap's light before the move's log sync, table/runner.py), not once the callback
        has returned. Their frames carry the ack of what came before the tap: the tap itself is
        acked after the callback returns, as ever. On another thread, nothing: the link's thread
        sends them at its next turn (set_segment woke it)."""
        if threading.current_thread() is not self._thread:
            return
        link = self._link
        if link is not None and self._state == _SESSION:
            self._pump_leds(link, self._now_ms())

    def clear_segments(self) -> None:
        """Every segment off (one SEGMENTS_CLEAR on the wire)."""
        with self._lock:
            self._segments.clear()
            self._dirty.clear()
            self._clear_pending = True
        self._wake()

    @property
    def segments(self) -> dict:
        """The LED state the link keeps for the board: segment -> (level, rgb, pattern, period_ms)."""
        with self._lock:
            return dict(self._segments)

    def believe(self, presence: dict) -> None:
        """The cards the caller holds as lying on the readers ({reader: uid or None}: a resumed game's,
        table/board.py), which a later snapshot is compared with: a reader whose snapshot said
        "cannot tell" (fault, crowded) has only the caller's word."""
        self._presence.update(presence)

    def request_snapshot(self) -> None:
        """Ask the board to start the handshake over; a fresh SNAPSHOT follows."""
        with self._lock:
            self._stats["resync_requested"] += 1
        self._wake()

    # ------------------------------------------------------------ status helpers

    def _make_status(self) -> LinkStatus:
        link = self._link
        now = self._now_ms()
        alive = bool(link and link.peer_alive(now))
        st = self._status
        pending = len(self._dirty) + (1 if self._clear_pending else 0) + (link.in_flight if link else 0)
        return replace(
            st,
            connected=self._state == _SESSION and alive,
            state=self._state,
            leds_pending=pending,
            reboots=self._bootwatch.reboots,
            retransmits=self._stats["retransmits"] + (link.retransmits if link else 0),
            duplicates=self._stats["duplicates"] + (link.duplicates if link else 0) + self._stats["tap_dups"],
            frames_dropped=self._stats["frames_dropped"] + (link.decoder.dropped if link else 0),
            write_timeouts=self._stats["write_timeouts"],
            ignored_before_hello=self._stats["ignored_before_hello"],
            opens=self._stats["opens"],
            handshakes=self._stats["handshakes"],
            counters=dict(st.counters),
        )

    def _wait_for(self, predicate, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.05))
            return True

    def _set_status(self, **kw):
        with self._lock:
            self._status = replace(self._status, **kw)
            self._changed.notify_all()

    def _emit_status(self, kind: str, message: str, **data):
        if kind in ("port_error", "board_error", "incompatible", "callback_error", "link_down", "disconnected"):
            self._set_status(last_error=message)
        # INFO, not WARNING: the caller shows these through on_status; stray stderr lines would
        # break a terminal UI when logging is not configured
        log.info("%s: %s", kind, message)
        if self.on_status is None:
            return
        try:
            self.on_status(StatusEvent(kind, message, data))
        except Exception:  # a broken status display must not break the link
            log.exception("on_status raised")

    def _warn_once(self, key, message):
        if key not in self._warned:
            self._warned.add(key)
            self._emit_status("warning", message)

    def _now_ms(self) -> int:
        return int((self._clock() - self._t0) * 1000)

    def _wake(self):
        # one pending wake-up is enough (pyserial's abort pipe must not fill up)
        if self._wake_pending:
            return
        with self._port_lock:
            ser = self._ser
            if ser is not None:
                self._wake_pending = True
                try:
                    ser.cancel_read()
                except Exception:
                    pass

    # ------------------------------------------------------------ the I/O thread

    def _run(self):
        delay = self._backoff_min
        while not self._stop.is_set():
            path = self._resolve_port()
            ser = None
            if path is None:
                self._port_error("no board found")
            else:
                try:
                    ser = self._open(path)
                    self._last_port_error = None
                    self._set_status(last_error=None)  # an old open failure no longer explains anything
                except (serial.SerialException, OSError, ValueError) as e:
                    holder = port_holder(path) if "lock" in str(e) else None
                    self._port_error("cannot open %s: %s%s" % (
                        path, e, "; %s has it open (the link keeps trying)" % holder if holder else ""), port=path)
            if ser is not None:
                handshakes_before = self._stats["handshakes"]
                try:
                    self._serve(ser, path)
                except _PortLost as e:
                    self._emit_status("disconnected", "lost %s: %s" % (path, e.__cause__ or e), port=path)
                finally:
                    self._close_port()
                if self._stats["handshakes"] > handshakes_before:
                    delay = self._backoff_min  # it worked for a while: start the backoff over
            if self._stop.is_set():
                break
            self._emit_status("reconnecting", "retrying in %.2f s" % delay, delay=delay)
            self._stop.wait(delay)
            delay = min(delay * 2, self._backoff_max)
        with self._lock:
            self._state = _CLOSED
            self._changed.notify_all()

    def _port_error(self, message, **data):
        if message != self._last_port_error:  # say it once, not at every retry
            self._last_port_error = message
            self._emit_status("port_error", message, **data)

    def _resolve_port(self) -> Optional[str]:
        spec = self._port_spec
        if callable(spec):
            try:
                return spec()
            except Exception as e:
                self._port_error("port finder failed: %s" % e)
                return None
        if spec is None:
            boards = find_boards()
            if self._serial_number:
                boards = [b for b in boards if b.serial_number == self._serial_number] or boards
            return boards[0].device if boards else None
        if os.path.exists(spec) or not self._refind or os.name == "nt":
            return spec
        # the path vanished (the board re-enumerated under another name?): look for it by USB id,
        # and only accept the same board when we know its serial number
        for b in find_boards():
            if self._serial_number is None or b.serial_number == self._serial_number:
                return b.device
        return spec

    def _open(self, path: str) -> serial.Serial:
        ser = serial.Serial()
        ser.port = path
        ser.baudrate = self._baudrate  # ignored by USB CDC, matters for a UART bridge
        ser.timeout = self._read_timeout
        ser.write_timeout = self._write_timeout
        # Native USB CDC stacks (MicroPython rp2) take DTR as "host connected". RTS stays low so
        # that boards whose reset/boot pins follow RTS/DTR (ESP32 behind a bridge) are not reset.
        ser.rts = False
        ser.dtr = self._dtr
        try:
            ser.exclusive = True  # flock on POSIX; Windows ports are always exclusive
        except (ValueError, NotImplementedError):
            pass
        ser.open()
        for info in _safe_comports():
            if info.device == path and getattr(info, "serial_number", None):
                self._serial_number = info.serial_number
        with self._port_lock:
            self._ser = ser
        return ser

    def _close_port(self):
        link = self._link
        if link is not None:  # keep the counters of the finished port
            self._stats["retransmits"] += link.retransmits
            self._stats["duplicates"] += link.duplicates
            self._stats["frames_dropped"] += link.decoder.dropped
        with self._port_lock:
            ser, self._ser = self._ser, None
            with self._lock:
                self._link = None
                self._state = _CLOSED
                self._numbering_ok = False
                self._changed.notify_all()
        if ser is not None:
            try:
                ser.close()
            except Exception:
                pass

    def _serve(self, ser: serial.Serial, path: str):
        now = self._now_ms()
        link = wire.Link(self._write, self._deliver, window=self._window, rto_ms=self._rto_ms,
                         heartbeat_ms=self._hb_ms, timeout_ms=self._timeout_ms)
        with self._lock:
            self._link = link
            self._state = _AWAIT_HELLO
            self._numbering_ok = False
            self._stats["opens"] += 1
            self._status = replace(self._status, port=path)
            self._changed.notify_all()
        # Two zeros close any half frame the board may hold, then ask for a HELLO.
        self._raw_write(b"\x00\x00")
        self._send_resync(wire.RESYNC_CONNECT, now)
        resync_seen = self._stats["resync_requested"]
        while not self._stop.is_set():
            self._wake_pending = False
            try:
                n = ser.in_waiting
                data = ser.read(n if n > 0 else 1)
                if data and n == 0 and ser.in_waiting:
                    data += ser.read(ser.in_waiting)
            except serial.SerialTimeoutException:
                data = b""
            except (serial.SerialException, OSError) as e:
                raise _PortLost(str(e)) from e
            if data and self._trace is not None:
                self._trace["rx"].append((time.monotonic_ns() // 1000, bytes(data)))
            if data:
                try:
                    link.feed(data, self._now_ms())
                except _CallbackFailed as e:
                    self._emit_status("callback_error", "%s; the board will send it again" % e.__cause__)
            now = self._now_ms()
            if self._stats["resync_requested"] != resync_seen:
                resync_seen = self._stats["resync_requested"]
                self._send_resync(wire.RESYNC_REQUEST, now)
            self._tick(link, now)
            with self._lock:
                self._changed.notify_all()

    def _tick(self, link: wire.Link, now: int):
        state = self._state
        if state in (_AWAIT_SNAPSHOT, _SESSION):
            link.poll(now)  # retransmissions and owed acks
            if not link.peer_alive(now):
                with self._lock:
                    self._state = _DOWN
                    self._next_resync = now
                self._emit_status("link_down", "no word from the board for %.1f s" % (self._timeout_ms / 1000))
                state = _DOWN
        if state == _SESSION:
            self._pump_leds(link, now)
        elif state == _AWAIT_SNAPSHOT and now - self._hello_ack_at >= 2 * self._resync_ms:
            self._hello_ack_at = now
            self._send_resync(wire.RESYNC_REQUEST, now)
        if state in (_AWAIT_HELLO, _DOWN) and now >= self._next_resync:
            self._send_resync(wire.RESYNC_CONNECT if state == _AWAIT_HELLO else wire.RESYNC_REQUEST, now)
        if link.heartbeat_due(now):
            up = (now & 0xFFFFFFFF)
            link.send_unreliable(wire.HEARTBEAT, wire.heartbeat(up, self._session_id), now)

    def _send_resync(self, reason: int, now: int):
        self._next_resync = now + self._resync_ms
        link = self._link
        if link is not None:
            link.send_unreliable(wire.RESYNC, wire.resync(reason), now)

    def _raw_write(self, data: bytes):
        ser = self._ser
        if ser is None:
            return
        # `bench hil`'s stamp is taken before the write: the board may read the bytes before write()
        # returns (this thread descheduled meanwhile), and a stamp later than the board's read
        # would pair the frame with a later one of the same seq and payload (a wire stage of minutes).
        t = time.monotonic_ns() // 1000 if self._trace is not None else 0
        try:
            ser.write(data)
            if self._trace is not None:
                self._trace["tx"].append((t, bytes(data)))
        except serial.SerialTimeoutException:
            # The board is not reading (its receive buffer is full). The cut frame is closed by
            # the next frame's leading zero; reliable frames will be sent again.
            self._stats["write_timeouts"] += 1
        except (serial.SerialException, OSError) as e:
            raise _PortLost(str(e)) from e

    _write = _raw_write  # the codec's write callable

    # ------------------------------------------------------------ LEDs

    def _pump_leds(self, link: wire.Link, now: int):
        caps = self._status.caps
        while link.can_send():
            with self._lock:
                if self._clear_pending:
                    self._clear_pending = False
                    item = None
                elif self._dirty:
                    seg = next(iter(self._dirty))
                    del self._dirty[seg]
                    item = (seg, self._segments.get(seg))
                    if item[1] is None:
                        continue
                else:
                    return
            if not caps & wire.CAP_LEDS:
                self._warn_once("no_leds", "the board has no LED segments; LED changes are not sent")
                continue
            if item is None:
                link.send(wire.SEGMENTS_CLEAR, b"", now)
                continue
            seg, (level, rgb, pattern, period) = item
            if pattern == wire.BLINK and not caps & wire.CAP_BLINK or pattern == wire.PULSE and not caps & wire.CAP_PULSE:
                self._warn_once(("pattern", pattern), "the board cannot show pattern %d; shown solid" % pattern)
                pattern = wire.SOLID
            link.send(wire.SEGMENT_SET, wire.segment_set(seg, level, rgb, pattern, period), now)

    def _restore_leds(self):
        """After a handshake the board's window is empty: send the whole LED state again."""
        with self._lock:
            self._clear_pending = True
            self._dirty = {seg: True for seg in sorted(self._segments)}

    # ------------------------------------------------------------ delivery (inside link.feed)

    def _deliver(self, mtype: int, payload: bytes):
        try:
            msg = wire.decode_message(mtype, payload)
        except wire.WireError as e:
            # acked anyway (PROTOCOL.md section 4): otherwise the board would resend it forever
            self._warn_once(("bad", mtype), "ignored a message the host cannot read (type 0x%02x: %s)" % (mtype, e))
            return
        kind = msg["type"]
        now = self._now_ms()
        if kind == "HELLO":
            self._on_hello(msg, now)
        elif kind == "HEARTBEAT":
            boot = self._bootwatch.boot_id
            if boot is not None and msg["boot_id"] != boot and now >= self._next_resync:
                # a reboot whose HELLO we missed: ask for a new handshake
                self._send_resync(wire.RESYNC_REQUEST, now)
        elif kind == "LOG":
            self._emit_status("board_log", msg["text"], level=msg["level"])
        elif not wire.is_reliable(mtype):
            return  # RESYNC, HELLO_ACK, ACK from a confused peer: nothing to do
        elif not self._numbering_ok:
            # sequence numbers from before our HELLO_ACK: cannot be told from duplicates
            self._stats["ignored_before_hello"] += 1
        elif kind == "TAP":
            self._on_tap(msg)
        elif kind == "SNAPSHOT":
            self._on_snapshot(msg)
        elif kind == "READER_STATUS":
            self._on_reader_status(msg)
        elif kind == "ERROR":
            self._emit_status("board_error", msg["text"], code=msg["code"])
        elif kind == "CONFIG_STATUS":
            self._emit_status("config_status", "config status %d" % msg["status"], **msg)

    def _on_hello(self, msg: dict, now: int):
        boot = msg["boot_id"]
        if msg["proto"] != wire.VERSION:
            if self._warned_boot_incompatible != boot:
                self._warned_boot_incompatible = boot
                newer = "host" if msg["proto"] > wire.VERSION else "firmware"
                self._emit_status("incompatible", "the firmware speaks protocol %d and this host speaks %d: update the %s"
                                  % (msg["proto"], wire.VERSION, newer), proto=msg["proto"])
            return  # no HELLO_ACK: we would not understand each other
        outcome = self._bootwatch.observe(boot)
        link = self._link
        link.reset()  # the board reset its numbering before this HELLO
        with self._lock:
            self._numbering_ok = True
            self._state = _AWAIT_SNAPSHOT
            self._hello_ack_at = now
            if outcome != "same" or self._pending_reason is None:
                self._pending_reason = outcome  # a repeated HELLO keeps the first verdict
            self._status = replace(
                self._status, boot_id=boot, firmware=msg["firmware"], board=msg["board"], proto=msg["proto"],
                caps=msg["caps"], reader_count=msg["readers"], pixels=msg["pixels"],
                config_len=msg["config_len"], config_crc=msg["config_crc"],
            )
        self._restore_leds()
        link.send_unreliable(wire.HELLO_ACK, wire.hello_ack(boot), now)
        if outcome == "reboot":
            self._emit_status("reboot", "the board restarted (boot id %08x); its LEDs are being restored" % boot,
                              boot_id=boot)

    def _call(self, fn, arg):
        if fn is None:
            return
        try:
            fn(arg)
        except Exception as e:
            log.exception("%s raised", getattr(fn, "__name__", fn))
            raise _CallbackFailed(repr(e)) from e

    def _on_tap(self, msg: dict):
        boot = self._bootwatch.boot_id
        uid = bytes(msg["uid"])
        key = (boot, msg["reader"], msg["kind"], msg["time_ms"], uid)
        if key in self._recent_set:
            self._stats["tap_dups"] += 1
            return
        tap = Tap(reader=msg["reader"], kind=_KIND_NAMES[msg["kind"]], uid=uid, boot_id=boot, time_ms=msg["time_ms"])
        self._call(self.on_tap, tap)  # raises -> no ack -> the board sends it again
        if len(self._recent_taps) == self._recent_taps.maxlen:
            self._recent_set.discard(self._recent_taps[0])
        self._recent_taps.append(key)
        self._recent_set.add(key)
        self._presence[tap.reader] = uid if tap.kind == PLACED else None

    def _on_reader_status(self, msg: dict):
        h = ReaderHealth(msg["reader"], _HEALTH_NAMES[msg["health"]], msg["detail"], msg["version"], msg["inits"],
                         msg["errors"])
        with self._lock:
            health = {x.reader: x for x in self._status.health}
            old = health.get(h.reader)
            health[h.reader] = h
            self._status = replace(self._status, health=tuple(health[k] for k in sorted(health)))
        if old is None and h.health == "ok":
            return  # what every reader says after a handshake: news only when something is wrong
        if old is not None and (old.health, old.detail) == (h.health, h.detail):
            return
        self._emit_status("reader", health_text(h), reader=h.reader, health=h.health, detail=h.detail,
                          was=old.health if old else None)

    def _on_snapshot(self, msg: dict):
        boot = self._bootwatch.boot_id
        readers = tuple(ReaderState(r["reader"], _READER_STATES[r["state"]], r["uid"]) for r in msg["readers"])
        # Reconcile: what changed on the table while we were not listening.
        for r in readers:
            if r.state in UNKNOWN_STATES:
                continue  # the reader cannot tell: keep what we believed (the board says when it can)
            old = self._presence.get(r.reader)
            new = bytes(r.uid) if r.state == "present" else None
            if old == new:
                continue
            if old is not None:
                self._call(self.on_tap, Tap(r.reader, REMOVED, old, boot, None, True))
                self._presence[r.reader] = None
            if new is not None:
                self._call(self.on_tap, Tap(r.reader, PLACED, new, boot, None, True))
                self._presence[r.reader] = new
        counters = {}
        for i, v in enumerate(msg["counters"]):
            counters[COUNTER_NAMES[i] if i < len(COUNTER_NAMES) else "counter_%d" % i] = v
        snap = Snapshot(boot_id=boot, readers=readers, counters=counters, reason=self._pending_reason or "same")
        self._call(self.on_snapshot, snap)
        with self._lock:
            self._status = replace(self._status, readers=readers, counters=counters)
            self._state = _SESSION
            self._stats["handshakes"] += 1
            self._pending_reason = None
            self._changed.notify_all()
        faults = [r.reader for r in readers if r.state == "fault"]
        self._emit_status("connected", "board %s, firmware %s, boot id %08x%s" % (
            self._status.board, self._status.firmware, boot,
            ", readers not answering: %s" % faults if faults else ""), boot_id=boot, reason=snap.reason)


def port_holder(path):
    """Who holds the exclusive lock on the port `path` (flock, as this link takes it): "pid N (its
    command line)", or None when that cannot be told (not Linux, or nobody holds it).

    A port the link cannot lock is one another program has open: another `maester` (a second
    game, a host that was not stopped), `mpremote`, a serial monitor. Naming it is the fix."""
    try:
        st = os.stat(path)
        with open("/proc/locks") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    want = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    for line in lines:
        fields = line.split()
        if "->" in fields:  # a lock waiting for this one
            continue
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == want:
            pid = fields[4]
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            except OSError:
                cmd = ""
            return "pid %s (%s)" % (pid, cmd[:120]) if cmd else "pid %s" % pid
    return None


def _safe_comports():
    try:
        return serial.tools.list_ports.comports()
    except Exception:
        return []
