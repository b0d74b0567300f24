"""The host link (host/maester/link/serial_link.py) over a real pty, against a fake board.

The host side is the real thing: pyserial opening the pty's slave path, the real reader thread.
The board is `FakeBoard`, a thread on the pty's master fd that speaks the protocol with the
shared codec (`maester_fw.wire.Link`), and can lose chosen frames, go silent, reboot, or be
unplugged (its pty closed) and plugged in again (a new pty).

What a player relies on, and what these tests pin down:
* every tap reaches the game exactly once, even when an ack is lost, a frame is damaged, the
  cable is pulled or the board reboots; and the board forgets a tap only after the game has it;
* the LEDs show what the game asked for, also after a reboot or a reconnect;
* a dead or silent board is noticed, and the link comes back on its own.
"""

import contextlib
import os
import random
import select
import threading
import time
import tty
from types import SimpleNamespace

import pytest

from maester.link import PLACED, REMOVED, BoardLink, find_boards
from maester_fw import wire

CAPS = wire.CAP_LEDS | wire.CAP_BLINK | wire.CAP_PULSE
UID_A = bytes.fromhex("04a224e2c65d80")
UID_B = bytes.fromhex("deadbeef")
UID_C = bytes.fromhex("04112233445566778899")
UID_D = bytes.fromhex("0badcafe")


def wait_until(pred, timeout=3.0, what="condition"):
    """Poll pred() until true; fail the test with `what` after timeout seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.002)
    raise AssertionError("timed out waiting for " + what)


# ---------------------------------------------------------------- the fake board


class FakeBoard:
    """A board on the master side of a pty: HELLO until acked, SNAPSHOT, TAPs, LED segments."""

    def __init__(self, readers=4, proto=wire.VERSION, caps=CAPS, rto_ms=30, hello_s=0.05, heartbeat_s=0.05,
                 timeout_s=0.6):
        self.lock = threading.RLock()
        self.readers = readers
        self.presence = {i: None for i in range(readers)}
        self.crowded = set()  # readers where two cards answer and the board has not known its card
        self.proto, self.caps = proto, caps
        self.boot_id = random.getrandbits(32) | 1
        self.booted_at = time.monotonic()
        self.leds = {}  # segment -> SEGMENT_SET message, what the strip shows
        self.received = []  # messages from the host the firmware acted on, in order
        self.hello_acks = []
        self.resyncs = 0
        self.host_heartbeats = 0
        self.drop_rx = None  # predicate on decode_frame() tuples: frames "lost" on the way in
        self.drop_tx = None  # same, on the way out
        self.dropped_rx = []
        self.silent = False
        self.hello_ms, self.rto_ms, self.hb_ms, self.to_ms = int(hello_s * 1000), rto_ms, int(heartbeat_s * 1000), int(timeout_s * 1000)
        self.link = self._new_link()
        self.state = "hello"
        self._next_hello = 0
        self._last_tap_ms = -1
        self.master = self.slave = self.path = None
        self._thread = None
        self._running = False

    def _new_link(self):
        return wire.Link(self._write, self._deliver, rto_ms=self.rto_ms, heartbeat_ms=self.hb_ms, timeout_ms=self.to_ms)

    @staticmethod
    def now():
        return int(time.monotonic() * 1000)

    # -- the cable

    def plug(self):
        m, s = os.openpty()
        tty.setraw(s)
        with self.lock:
            self.master, self.slave, self.path = m, s, os.ttyname(s)
            self.state, self._next_hello, self._rxbuf = "hello", 0, b""
        self._running = True
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self.path

    def unplug(self):
        """Pull the cable: the pty goes away, the host's reads and writes fail."""
        self._running = False
        if self._thread:
            self._thread.join(2)
        with self.lock:
            for fd in (self.master, self.slave):
                if fd is not None:
                    os.close(fd)
            self.master = self.slave = self.path = None
            self.state = "hello"

    def reboot(self):
        """machine.reset(): new boot id, LEDs dark, unacked events gone, cards still on the table."""
        with self.lock:
            self.boot_id = random.getrandbits(32) | 1
            self.booted_at = time.monotonic()
            self.leds.clear()
            self.link = self._new_link()
            self.state, self._next_hello = "hello", 0

    # -- the firmware

    def _loop(self):
        while self._running:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.005)
                data = os.read(self.master, 4096) if ready else b""
            except OSError:
                break
            if data:
                self._rx(data)
            with self.lock:
                self._tick(self.now())

    def _rx(self, data):
        # cut at the delimiters so that chosen frames can be "lost"; everything else goes to the codec
        self._rxbuf += data
        parts = self._rxbuf.split(b"\x00")
        self._rxbuf = parts.pop()
        for chunk in parts:
            if not chunk:
                continue
            frame = b"\x00" + chunk + b"\x00"
            with self.lock:
                if self.drop_rx is not None:
                    try:
                        f = wire.decode_frame(frame)
                    except wire.WireError:
                        f = None
                    if f is not None and self.drop_rx(f):
                        self.dropped_rx.append(f)
                        continue
                self.link.feed(frame, self.now())

    def _tick(self, now):
        if self.state == "hello":
            if now >= self._next_hello and not self.silent:
                self.link.reset()  # rule 1: numbering restarts with every HELLO
                self.link.send_unreliable(wire.HELLO, wire.hello(
                    self.boot_id, self.caps, self.readers, 30, "0.9.0-fake", "fake-4r", proto=self.proto), now)
                self._next_hello = now + self.hello_ms
        else:
            self.link.poll(now)
            if not self.link.peer_alive(now):
                self.state, self._next_hello = "hello", 0
        if self.link.heartbeat_due(now) and not self.silent:
            self.link.send_unreliable(wire.HEARTBEAT, wire.heartbeat(self.uptime(), self.boot_id), now)

    def uptime(self):
        return int((time.monotonic() - self.booted_at) * 1000)

    def _write(self, frame):
        if self.drop_tx is not None and self.drop_tx(wire.decode_frame(frame)):
            return
        if self.silent or self.master is None:
            return
        try:
            os.write(self.master, frame)
        except OSError:
            pass

    def _deliver(self, mtype, payload):
        msg = wire.decode_message(mtype, payload)
        kind = msg["type"]
        if kind == "HELLO_ACK":
            self.hello_acks.append(msg["boot_id"])
            if msg["boot_id"] == self.boot_id and self.state == "hello":
                self.state = "session"
                self.link.send(wire.SNAPSHOT, self.snapshot_payload(), self.now())
        elif kind == "RESYNC":
            self.resyncs += 1
            self.state, self._next_hello = "hello", 0
        elif kind == "HEARTBEAT":
            self.host_heartbeats += 1
        elif kind == "SEGMENT_SET":
            self.received.append(msg)
            self.leds[msg["segment"]] = msg
        elif kind == "SEGMENTS_CLEAR":
            self.received.append(msg)
            self.leds.clear()
        else:
            self.received.append(msg)

    def snapshot_payload(self):
        readers = []
        for i in range(self.readers):
            uid = self.presence[i]
            if i in self.crowded:
                readers.append({"reader": i, "state": wire.CROWDED, "uid": None})
            else:
                readers.append({"reader": i, "state": wire.PRESENT if uid else wire.ABSENT, "uid": uid})
        return wire.snapshot(readers, [0, 0, 1, 0, 0])

    # -- what the test does to the table

    def _tap(self, reader, kind, uid):
        t = max(self.uptime(), self._last_tap_ms + 1)
        self._last_tap_ms = t
        payload = wire.tap(reader, kind, t, uid)
        if self.state == "session":
            assert self.link.send(wire.TAP, payload, self.now()), "fake board window full"
        return payload

    def place(self, reader, uid):
        with self.lock:
            self.presence[reader] = uid
            return self._tap(reader, wire.PLACED, uid)

    def remove(self, reader):
        with self.lock:
            uid, self.presence[reader] = self.presence[reader], None
            return self._tap(reader, wire.REMOVED, uid)

    def send_reliable(self, mtype, payload):
        with self.lock:
            assert self.link.send(mtype, payload, self.now())

    def send_unreliable(self, mtype, payload):
        with self.lock:
            self.link.send_unreliable(mtype, payload, self.now())

    def write_raw(self, data):
        with self.lock:
            os.write(self.master, data)

    @property
    def in_flight(self):
        with self.lock:
            return self.link.in_flight


# ---------------------------------------------------------------- the host under test


class Recorder:
    def __init__(self):
        self.taps, self.snapshots, self.events = [], [], []
        self.tap_hook = None

    def on_tap(self, tap):
        if self.tap_hook:
            self.tap_hook(tap)
        self.taps.append(tap)

    def on_snapshot(self, snap):
        self.snapshots.append(snap)

    def on_status(self, ev):
        self.events.append(ev)

    def kinds(self, kind):
        return [e for e in self.events if e.kind == kind]

    def tap_list(self):
        return [(t.reader, t.kind, t.uid, t.from_snapshot) for t in self.taps]


FAST = dict(heartbeat=0.05, peer_timeout=0.5, rto=0.03, resync_interval=0.1, read_timeout=0.01,
            write_timeout=0.2, backoff=(0.02, 0.16))


@pytest.fixture
def board():
    b = FakeBoard()
    b.plug()
    yield b
    b.unplug()


@pytest.fixture
def host():
    made = []

    def make(port, **kw):
        rec = Recorder()
        opts = dict(FAST)
        opts.update(kw)
        link = BoardLink(port, rec.on_tap, rec.on_snapshot, rec.on_status, **opts)
        made.append(link)
        link.start()
        return link, rec

    yield make
    for link in made:
        link.close()


def connected(board, host, **kw):
    link, rec = host(lambda: board.path, **kw)
    assert link.wait_connected(3), "no handshake: %s" % (rec.events,)
    return link, rec


# ---------------------------------------------------------------- finding the board


def test_find_boards_by_usb_id_with_the_explicit_port_first():
    ports = [
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001, serial_number="FT1", description="FTDI"),
        SimpleNamespace(device="/dev/ttyACM1", vid=0x303A, pid=0x4001, serial_number="S3", description="ESP32-S3"),
        SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=0x0005, serial_number="E66", description="Board in FS mode"),
        SimpleNamespace(device="/dev/ttyACM2", vid=0x2E8A, pid=0x000A, serial_number="X", description="Pico SDK CDC"),
        SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None, serial_number=None, description="n/a"),
    ]
    found = find_boards(comports=lambda: ports)
    assert [b.device for b in found] == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert found[0].serial_number == "E66"
    found = find_boards("/dev/pts/7", comports=lambda: ports)
    assert found[0].device == "/dev/pts/7" and found[0].explicit
    assert [b.device for b in found[1:]] == ["/dev/ttyACM0", "/dev/ttyACM1"]


# ---------------------------------------------------------------- session


def test_handshake_gives_snapshot_and_board_identity(board, host):
    board.presence[2] = UID_A
    link, rec = connected(board, host)
    st = link.status
    assert st.connected and st.state == "session"
    assert st.boot_id == board.boot_id and st.firmware == "0.9.0-fake" and st.board == "fake-4r"
    assert st.caps == CAPS and st.reader_count == 4
    assert board.resyncs >= 1, "the host asks for a HELLO when it opens the port"
    assert board.hello_acks and set(board.hello_acks) == {board.boot_id}
    [snap] = rec.snapshots
    assert snap.reason == "first" and snap.boot_id == board.boot_id
    assert [(r.reader, r.state, r.uid) for r in snap.readers] == [
        (0, "absent", None), (1, "absent", None), (2, "present", UID_A), (3, "absent", None)]
    assert snap.counters["reader_errors"] == 1
    assert [r.state for r in st.readers] == ["absent", "absent", "present", "absent"]
    # a card already on a reader when the host first connects is announced, marked as inferred
    assert rec.tap_list() == [(2, PLACED, UID_A, True)]
    assert rec.kinds("connected")
    wait_until(lambda: board.host_heartbeats > 0, what="host heartbeats")


def test_known_presence_is_not_announced_again(board, host):
    board.presence[1] = UID_B
    link, rec = connected(board, host, known_presence={1: UID_B})
    assert rec.taps == []


def test_incompatible_protocol_is_reported_and_not_acked(host):
    b = FakeBoard(proto=wire.VERSION + 1)
    b.plug()
    try:
        link, rec = host(lambda: b.path)
        wait_until(lambda: rec.kinds("incompatible"), what="incompatible report")
        msg = rec.kinds("incompatible")[0].message
        assert "protocol %d" % (wire.VERSION + 1) in msg and "update the host" in msg
        assert not link.wait_connected(0.3)
        assert b.hello_acks == [] and rec.snapshots == []
        assert len(rec.kinds("incompatible")) == 1, "said once per boot, not at every HELLO"
    finally:
        b.unplug()


# ---------------------------------------------------------------- taps


def test_a_tap_is_delivered_once(board, host):
    link, rec = connected(board, host)
    board.place(0, UID_A)
    board.remove(0)
    board.place(3, UID_C)
    wait_until(lambda: len(rec.taps) == 3 and board.in_flight == 0, what="three acked taps")
    assert rec.tap_list() == [(0, PLACED, UID_A, False), (0, REMOVED, UID_A, False), (3, PLACED, UID_C, False)]
    assert all(t.boot_id == board.boot_id and t.time_ms is not None for t in rec.taps)
    assert rec.taps[0].time_ms < rec.taps[1].time_ms
    time.sleep(0.1)  # several retransmission timeouts: nothing more may arrive
    assert len(rec.taps) == 3


def test_the_board_keeps_a_tap_until_on_tap_has_returned(board, host):
    link, rec = connected(board, host)
    seen = {}

    def slow_sync(tap):  # the game writing and syncing its log
        time.sleep(0.2)  # > 6 board retransmission timeouts
        seen["in_flight_during_on_tap"] = board.in_flight
        seen["retransmits_during_on_tap"] = board.link.retransmits

    rec.tap_hook = slow_sync
    board.place(1, UID_B)
    wait_until(lambda: rec.taps and board.in_flight == 0, what="tap acked")
    assert seen["in_flight_during_on_tap"] == 1, "the board was told the tap was stored before on_tap returned"
    assert seen["retransmits_during_on_tap"] >= 1
    time.sleep(0.1)
    assert len(rec.taps) == 1, "the retransmissions queued during on_tap were delivered again"
    assert link.status.duplicates >= 1


def test_a_tap_whose_ack_was_lost_is_not_delivered_twice(board, host):
    link, rec = connected(board, host)
    with board.lock:
        base = board.link.retransmits
        seq = board.link.tx_seq
        # every host frame acking the tap is lost until the board has sent the tap again
        board.drop_rx = lambda f: ((f[3] - seq) & 0xFF) >= 1 and ((f[3] - seq) & 0xFF) < 128 \
            and board.link.retransmits == base
    board.place(2, UID_D)
    wait_until(lambda: board.dropped_rx, what="a lost ack")
    wait_until(lambda: board.in_flight == 0, what="the retransmitted tap to be acked")
    assert board.link.retransmits > base
    assert rec.tap_list() == [(2, PLACED, UID_D, False)]
    assert link.status.duplicates >= 1


def test_a_tap_is_offered_again_when_on_tap_fails(board, host):
    link, rec = connected(board, host)
    calls = []

    def flaky(tap):
        calls.append(tap)
        if len(calls) == 1:
            raise OSError("disk full")

    rec.tap_hook = flaky
    board.place(0, UID_C)
    wait_until(lambda: rec.taps and board.in_flight == 0, what="the tap to succeed on a retry")
    assert len(calls) == 2 and calls[0] == calls[1], "the same tap, at least once when storing fails"
    assert len(rec.taps) == 1
    assert rec.kinds("callback_error")
    assert link.status.connected


# ---------------------------------------------------------------- LEDs


def led_state(board):
    with board.lock:
        return {s: (m["level"], tuple(m["rgb"]), m["pattern"], m["period_ms"]) for s, m in board.leds.items()}


def test_segments_are_sent_acked_and_coalesced(board, host):
    link, rec = connected(board, host)
    for seg in range(20):  # more than the 8-frame window
        link.set_segment(seg, level=seg * 10, rgb=(seg, 0, 255 - seg), pattern=wire.SOLID)
    link.set_segment(5, level=1, rgb=(1, 2, 3), pattern=wire.PULSE, period_ms=1500)
    assert link.wait_leds_synced(3)
    want = link.segments
    assert led_state(board) == want
    assert want[5] == (1, (1, 2, 3), wire.PULSE, 1500)
    sets = [m for m in board.received if m["type"] == "SEGMENT_SET"]
    assert len(sets) <= 21 and [m["segment"] for m in sets if m["segment"] == 5][-1] == 5
    link.clear_segments()
    assert link.wait_leds_synced(3)
    assert board.received[-1]["type"] == "SEGMENTS_CLEAR" and led_state(board) == {}
    with pytest.raises(ValueError):
        link.set_segment(1, pattern=9)


def test_a_lost_segment_frame_is_sent_again(board, host):
    link, rec = connected(board, host)
    lost = []
    board.drop_rx = lambda f: f[1] == wire.SEGMENT_SET and not lost and not lost.append(f)
    for seg in range(4):
        link.set_segment(seg, level=200, rgb=(0, 255, 0))
    assert link.wait_leds_synced(3)
    assert len(lost) == 1
    assert led_state(board) == link.segments
    applied = [m["segment"] for m in board.received if m["type"] == "SEGMENT_SET"]
    assert applied == [0, 1, 2, 3], "applied once each and in order despite the loss"
    assert link.status.retransmits >= 1


def test_patterns_the_board_cannot_show_are_sent_as_solid(host):
    b = FakeBoard(caps=wire.CAP_LEDS)
    b.plug()
    try:
        link, rec = connected(b, host)
        link.set_segment(0, pattern=wire.BLINK, period_ms=500)
        assert link.wait_leds_synced(3)
        assert b.leds[0]["pattern"] == wire.SOLID
        assert any("pattern" in e.message for e in rec.kinds("warning"))
    finally:
        b.unplug()


# ---------------------------------------------------------------- reboot, unplug, silence


def test_board_reboot_rehandshakes_and_restores_the_leds(board, host):
    link, rec = connected(board, host)
    link.set_segment(0, level=255, rgb=(255, 0, 0))
    link.set_segment(3, level=40, rgb=(0, 0, 255), pattern=wire.BLINK, period_ms=400)
    assert link.wait_leds_synced(3)
    old_boot = board.boot_id
    with board.lock:
        board.reboot()
        board.presence[1] = UID_B  # placed while the board was restarting: no TAP will come
    wait_until(lambda: link.status.boot_id == board.boot_id and link.status.connected, what="re-handshake")
    assert link.wait_leds_synced(3)
    assert rec.kinds("reboot") and link.status.reboots == 1
    assert rec.snapshots[-1].reason == "reboot" and rec.snapshots[-1].boot_id != old_boot
    assert led_state(board) == link.segments and len(link.segments) == 2
    after = board.received
    assert after[-3]["type"] == "SEGMENTS_CLEAR", "restore starts from a known state"
    assert rec.tap_list() == [(1, PLACED, UID_B, True)]
    board.place(0, UID_A)  # and the new session works
    wait_until(lambda: len(rec.taps) == 2, what="tap after reboot")
    assert rec.taps[-1].boot_id == board.boot_id and not rec.taps[-1].from_snapshot


def test_a_reader_crowded_at_boot_keeps_the_card_the_host_had_and_a_later_snapshot_settles_it(board, host):
    # A card played on reader 0, then a second card on top of it as the board restarts: the boot's
    # snapshot cannot tell which lie there (CROWDED). The card the host had is not taken as lifted,
    # and the snapshot the board sends once one card answers alone again changes nothing.
    link, rec = connected(board, host)
    board.place(0, UID_A)
    wait_until(lambda: len(rec.taps) == 1, what="the tap")
    with board.lock:
        board.reboot()
        board.crowded.add(0)
    wait_until(lambda: link.status.boot_id == board.boot_id and link.status.connected, what="re-handshake")
    assert [r.state for r in rec.snapshots[-1].readers][0] == "crowded"
    assert rec.tap_list() == [(0, PLACED, UID_A, False)], "the card under the second one was not lifted"
    with board.lock:
        board.crowded.clear()  # the stray lifted: the board's snapshot says what lies there
    board.send_reliable(wire.SNAPSHOT, board.snapshot_payload())
    wait_until(lambda: len(rec.snapshots) == 3, what="the settling snapshot")
    assert rec.tap_list() == [(0, PLACED, UID_A, False)], "the card that never moved is not a new tap"
    with board.lock:
        board.presence[0] = None  # and had it gone with the stray, the snapshot tells that
    board.send_reliable(wire.SNAPSHOT, board.snapshot_payload())
    wait_until(lambda: len(rec.taps) == 2, what="the removal")
    assert rec.tap_list()[-1] == (0, REMOVED, UID_A, True)


def test_unplug_replug_reconnects_with_backoff_and_no_tap_lost_or_doubled(board, host):
    finder_calls = []

    def finder():
        finder_calls.append(time.monotonic())
        return board.path

    link, rec = host(finder)
    assert link.wait_connected(3)
    link.set_segment(7, level=128, rgb=(10, 20, 30))
    assert link.wait_leds_synced(3)
    board.place(0, UID_A)
    wait_until(lambda: len(rec.taps) == 1 and board.in_flight == 0, what="first tap")
    # the next tap reaches the game but its ack is lost, then the cable is pulled
    board.drop_rx = lambda f: True
    board.place(1, UID_B)
    wait_until(lambda: len(rec.taps) == 2, what="second tap")
    assert board.in_flight == 1
    board.unplug()
    wait_until(lambda: not link.status.connected and rec.kinds("disconnected"), what="unplug noticed")
    calls_at_unplug = len(finder_calls)
    # while unplugged the table changes: card A lifted, card C put down
    with board.lock:
        board.presence[0] = None
        board.presence[2] = UID_C
        board.drop_rx = None
    wait_until(lambda: len(finder_calls) >= calls_at_unplug + 4, what="reconnect attempts")
    delays = [e.data["delay"] for e in rec.kinds("reconnecting")]
    assert delays[:4] == [0.02, 0.04, 0.08, 0.16] and max(delays) == 0.16, delays
    board.plug()  # a new pty: the port finder now returns its path
    assert link.wait_connected(3)
    assert link.wait_leds_synced(3)
    assert led_state(board) == {7: (128, (10, 20, 30), wire.SOLID, 0)}
    assert rec.tap_list() == [
        (0, PLACED, UID_A, False),
        (1, PLACED, UID_B, False),  # once: the board dropped its unacked copy at the new HELLO
        (0, REMOVED, UID_A, True),  # inferred from the snapshot
        (2, PLACED, UID_C, True),
    ]
    assert rec.snapshots[-1].reason == "same"
    assert link.status.opens == 2
    board.place(3, UID_D)
    wait_until(lambda: len(rec.taps) == 5 and board.in_flight == 0, what="tap after reconnect")


def test_a_tap_resent_after_a_reconnect_is_not_applied_twice(board, host):
    # a board that (wrongly) keeps an already delivered tap across the handshake
    link, rec = connected(board, host)
    board.drop_rx = lambda f: True
    payload = board.place(0, UID_A)
    wait_until(lambda: len(rec.taps) == 1, what="tap")
    with board.lock:
        board.drop_rx = None
        board.state, board._next_hello = "hello", 0  # handshake again, same boot
    wait_until(lambda: link.status.handshakes == 2 and board.state == "session", what="second handshake")
    board.send_reliable(wire.TAP, payload)  # new seq, same event
    wait_until(lambda: board.in_flight == 0, what="replayed tap acked")
    assert rec.tap_list() == [(0, PLACED, UID_A, False)]
    assert link.status.duplicates >= 1


def test_frames_numbered_before_the_hosts_hello_are_not_trusted(board, host):
    # A board still in an old session (the host process restarted, say) sends a TAP numbered
    # in that session. The host cannot tell a new event from a resend: it ignores it, and the
    # snapshot of the handshake that follows carries the card instead.
    with board.lock:
        board.state = "session"
        board.link.last_rx_ms = board.now()
        board.drop_rx = lambda f: True  # the board does not hear the new host yet
    link, rec = host(lambda: board.path)
    wait_until(lambda: board.dropped_rx, what="the host to open the port")
    board.place(0, UID_A)  # seq 0 of the board's old session
    wait_until(lambda: link.status.ignored_before_hello >= 1, what="the TAP to be ignored")
    board.drop_rx = None
    assert link.wait_connected(3)
    assert rec.tap_list() == [(0, PLACED, UID_A, True)]


def test_garbage_between_frames_is_ignored(board, host):
    link, rec = connected(board, host)
    rng = random.Random(7)
    good = wire.encode_frame(wire.LOG, wire.log(20, "x"))
    bad_crc = bytearray(good)
    bad_crc[5] ^= 0x10
    junk = [
        bytes(rng.randrange(256) for _ in range(300)),
        b"\x03\x03\x04MicroPython v1.24 on 2024; Raspberry Pi Pico\r\n>>> ",
        good[: len(good) // 2],  # a cut frame
        bytes(bad_crc),
        b"\x55" * 600,  # longer than any frame, no delimiter
        b"\x00" * 10,
    ]
    for i, j in enumerate(junk):
        board.write_raw(j)
        board.place(i % 4, UID_A) if i % 2 == 0 else board.remove((i - 1) % 4)
    wait_until(lambda: len(rec.taps) == len(junk) and board.in_flight == 0, what="all taps")
    assert [t.kind for t in rec.taps] == [PLACED, REMOVED] * 3
    assert link.status.frames_dropped >= 3 and link.status.connected
    assert len(rec.snapshots) == 1, "noise never forced a new handshake"


def test_peer_silence_marks_the_link_down_and_it_recovers(board, host):
    link, rec = connected(board, host)
    opens = link.status.opens
    board.silent = True
    t0 = time.monotonic()
    wait_until(lambda: not link.status.connected, timeout=3, what="link down")
    assert time.monotonic() - t0 >= 0.4, "down only after the peer timeout (0.5 s)"
    wait_until(lambda: rec.kinds("link_down"), what="link_down reported")
    assert link.status.state == "down"
    board.silent = False
    assert link.wait_connected(3)
    assert link.status.opens == opens, "recovered without reopening the port"
    assert len(rec.snapshots) == 2 and board.resyncs >= 2


def test_request_snapshot_and_board_messages_reach_the_caller(board, host):
    link, rec = connected(board, host)
    board.send_reliable(wire.ERROR, wire.error(wire.ERR_READER_FAULT, "reader 2 not answering"))
    board.send_unreliable(wire.LOG, wire.log(30, "loop overrun 12 ms"))
    wait_until(lambda: rec.kinds("board_error") and rec.kinds("board_log"), what="error and log")
    err = rec.kinds("board_error")[0]
    assert err.message == "reader 2 not answering" and err.data["code"] == wire.ERR_READER_FAULT
    assert rec.kinds("board_log")[0].data["level"] == 30
    assert link.status.last_error == "reader 2 not answering"
    link.request_snapshot()
    wait_until(lambda: len(rec.snapshots) == 2, what="a fresh snapshot")
    assert rec.snapshots[-1].reason == "same"


@contextlib.contextmanager
def held_by_another_process(path):
    """Another program holding `path` as pyserial's exclusive open does (flock), for the block;
    yields its Popen."""
    import subprocess
    import sys
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, os, sys, time\n"
                               "fd = os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY)\n"
                               "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
                               "print('locked', flush=True)\n"
                               "time.sleep(60)\n", path], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        yield holder
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait()
        holder.stdout.close()


def test_a_port_another_program_holds_is_named_with_its_holder_and_taken_once_it_lets_go(host):
    # `maester resume` once failed for 10 s with "Could not exclusively lock port": some other
    # process had opened the same pty (issue 16, bench chaos). Say who, keep trying, and take the
    # port as soon as it is free.
    b = FakeBoard()
    b.plug()
    try:
        with held_by_another_process(b.path) as holder:
            link, rec = host(b.path)
            wait_until(lambda: rec.kinds("port_error"), what="the port error")
            said = rec.kinds("port_error")[0].message
            assert "pid %d" % holder.pid in said and "has it open" in said, said
            assert not link.status.connected
            holder.kill()
            holder.wait()
            assert link.wait_connected(5)
            assert link.status.last_error is None  # the lock no longer explains anything
    finally:
        b.unplug()


def test_connect_names_the_program_that_holds_the_port(tmp_path):
    from maester.table import profile as P
    from maester.table.board import BoardError, connect
    b = FakeBoard()
    b.plug()
    try:
        with held_by_another_process(b.path) as holder:
            with pytest.raises(BoardError) as e:
                connect(b.path, P.for_game("btwixt", 3), report=lambda text: None, timeout=1)
            assert "in use by another program, pid %d" % holder.pid in str(e.value), str(e.value)
    finally:
        b.unplug()


def test_a_host_killed_with_sigkill_leaves_the_port_free_at_once():
    # The lock pyserial takes (exclusive=True: flock) goes with the process: `maester resume` right
    # after a SIGKILL gets the port.
    import signal
    import subprocess
    import sys

    import serial
    b = FakeBoard()
    b.plug()
    try:
        for _ in range(5):
            held = subprocess.Popen([sys.executable, "-c", "import serial, sys, time\n"
                                     "s = serial.Serial(sys.argv[1], exclusive=True)\n"
                                     "print('open', flush=True)\n"
                                     "time.sleep(60)\n", b.path], stdout=subprocess.PIPE, text=True)
            assert held.stdout.readline().strip() == "open"
            held.send_signal(signal.SIGKILL)
            held.wait()
            serial.Serial(b.path, exclusive=True).close()  # raises if the lock outlived its process
    finally:
        b.unplug()


# -- reader health (READER_STATUS), through to what the people at the table read -------------------

def test_two_cards_on_a_reader_and_a_reset_reach_the_table_as_plain_words():
    from maester.link.simboard import start_simulated_board
    from maester.table.board import _LostNotice

    board = start_simulated_board()
    said = []
    notice = _LostNotice(said.append, ["seat0", "seat1", "seat2", "centre"])
    notice.armed = True
    events = []

    def on_status(e):
        events.append(e)
        notice(e)

    link = BoardLink(board.port, on_tap=lambda t: None, on_status=on_status, refind=False).start()
    try:
        assert link.wait_connected(10)
        taps = []
        link.on_tap = taps.append
        board.tap(0, "11223344")
        board.tap(0, "04a1b2c3d4e5f6")
        deadline = time.monotonic() + 5
        while "two cards on reader seat0: lift one" not in said and time.monotonic() < deadline:
            time.sleep(0.02)
        board.lift(0, "11223344")
        board.command({"cmd": "reset_reader", "reader": 1})
        deadline = time.monotonic() + 5
        while len(said) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        health = {h.reader: h for h in link.status.health}
    finally:
        link.close()
        board.stop()
    # The lift on reader 0 and the reset of reader 1 are independent: the board may report either first.
    assert [s for s in said if "seat0" in s][:2] == ["two cards on reader seat0: lift one",
                                                      "reader seat0: one card again"]
    assert "reader seat1 lost power or was re-seated; it was set up again and reads its card again" in said
    assert health[0].health == "ok" and health[1].inits == 2 and health[0].version == 0x92
    assert all(e.data["was"] for e in events if e.kind == "reader")  # the "ok" of each handshake is not news


def test_a_resumed_game_s_card_on_a_reader_crowded_at_connect_is_not_played_again(board):
    # A resumed host's link starts with no presence; the game's (table/board.py, attach) is the only
    # word on a reader the snapshot calls crowded, and the snapshot that settles it is compared with it.
    from maester.table.board import Board
    board.presence[0] = UID_A
    board.crowded.add(0)
    b = Board(None, board.path, {"readers": []})
    b.link = BoardLink(lambda: board.path, b._tap, b._snapshot, None, **FAST).start()
    try:
        assert b.link.wait_connected(3)
        rec = Recorder()
        assert b.attach(rec.on_tap, known={0: UID_A}) == {0: UID_A}
        with board.lock:
            board.crowded.clear()
        board.send_reliable(wire.SNAPSHOT, board.snapshot_payload())
        wait_until(lambda: b.link.status.readers[0].state == "present", what="the settling snapshot")
        assert rec.taps == [], "the card the game had is not a new tap"
    finally:
        b.link.close()
