"""The wire codec (firmware/maester_fw/wire.py) on CPython and on the real MicroPython unix port.

What a user of the table relies on, and what these tests pin down:
* both sides agree on every byte (golden vectors, checked under both interpreters);
* line noise, a cut cable or a half-written frame never crashes a side, is never taken for
  a message, and never costs the next good frame;
* a tap is delivered exactly once even when frames or acks are lost;
* a device reboot is noticed;
* the firmware's receive path does not allocate (it would fragment a 190 KB heap).
"""
import importlib.util
import json
import random
import sys

import pytest

from maester.paths import FIRMWARE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

VECTORS = FIRMWARE / "vectors" / "wire.json"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

from maester_fw import wire as w  # noqa: E402


def _load_maker():
    spec = importlib.util.spec_from_file_location("make_wire_vectors", FIRMWARE / "vectors" / "make_wire_vectors.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MAKER = _load_maker()
DOC = json.loads(VECTORS.read_text(encoding="utf-8"))
FRAMES = [bytes.fromhex(v["frame_hex"]) for v in DOC["vectors"]]
FUZZ = settings(derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Collector:
    """A Decoder whose good frames land in a list as (version, type, seq, ack, flags, payload)."""

    def __init__(self):
        self.got = []
        self.dec = w.Decoder(lambda d: self.got.append((d.version, d.type, d.seq, d.ack, d.flags, d.payload())))

    def feed(self, data):
        self.dec.feed(data)
        return self


def by_name(name):
    return next(v for v in DOC["vectors"] if v["name"] == name)


# ---------------------------------------------------------------- golden vectors, CPython


def test_vectors_file_is_what_the_generator_writes():
    assert VECTORS.read_text(encoding="utf-8") == MAKER.build(), "run firmware/vectors/make_wire_vectors.py"


def test_protocol_md_examples_are_generated_from_the_codec():
    spec = (FIRMWARE / "PROTOCOL.md").read_text(encoding="utf-8")
    assert MAKER.markdown() in spec, "paste `make_wire_vectors.py --markdown` into PROTOCOL.md"


def test_crc_is_ccitt_false():
    # the catalogue check value of CRC-16/CCITT-FALSE (a.k.a. CRC-16/IBM-3740)
    assert w.crc16(b"123456789") == 0x29B1
    assert w.crc16(b"123456789", 4) == w.crc16(b"1234")


@pytest.mark.parametrize("vec", DOC["vectors"], ids=lambda v: v["name"])
def test_vector_decodes_to_its_message(vec):
    frame = bytes.fromhex(vec["frame_hex"])
    version, mtype, seq, ack, flags, payload = w.decode_frame(frame)
    h = vec["header"]
    assert (version, seq, ack, flags) == (h["version"], h["seq"], h["ack"], h["flags"])
    assert w.decode_message(mtype, payload) == w.message_from_json(vec["message"])
    assert bool(flags & w.RELIABLE) == w.is_reliable(mtype)  # the R/U column of PROTOCOL.md


@pytest.mark.parametrize("vec", DOC["vectors"], ids=lambda v: v["name"])
def test_message_encodes_to_its_vector_frame(vec):
    h = vec["header"]
    mtype, payload = w.encode_message(w.message_from_json(vec["message"]))
    frame = w.encode_frame(mtype, payload, h["seq"], h["ack"], h["flags"])
    assert frame.hex() == vec["frame_hex"]
    assert len(frame) <= w.MAX_FRAME
    assert frame[0] == 0 and frame[-1] == 0 and 0 not in frame[1:-1]


@pytest.mark.parametrize("rej", DOC["rejects"], ids=lambda r: r["name"])
def test_reject_vector_is_dropped_counted_and_the_next_frame_survives(rej):
    c = Collector().feed(bytes.fromhex(rej["frame_hex"]))
    assert c.got == []
    assert getattr(c.dec, rej["reason"]) == 1 and c.dec.dropped == 1
    c.feed(FRAMES[0])
    assert len(c.got) == 1 and c.dec.frames == 1


@pytest.mark.parametrize("bad", DOC["bad_payloads"], ids=lambda b: b["name"])
def test_bad_payload_is_refused(bad):
    with pytest.raises(w.WireError):
        w.decode_message(bad["type"], bytes.fromhex(bad["payload_hex"]))


def test_frame_size_is_bounded_at_both_ends():
    biggest = bytes.fromhex(by_name("config_write_max")["frame_hex"])
    assert len(biggest) == w.MAX_FRAME == 256
    with pytest.raises(w.WireError):
        w.encode_frame(w.CONFIG_WRITE, bytes(w.MAX_PAYLOAD + 1))
    # a never-ending stream without delimiters costs one counted drop, not memory
    c = Collector().feed(bytes([0x42]) * 5000 + b"\x00").feed(FRAMES[3])
    assert c.dec.oversize == 1 and len(c.got) == 1


def test_encoders_refuse_what_the_wire_cannot_carry():
    with pytest.raises(w.WireError):
        w.tap(0, w.PLACED, 0, b"\x01\x02\x03\x04\x05")  # 5-byte UID
    with pytest.raises(w.WireError):
        w.segment_set(0, 256, (0, 0, 0), w.SOLID)
    with pytest.raises(w.WireError):
        w.encode_message({"type": "TAP", "reader": 0})
    with pytest.raises(w.WireError):
        w.encode_message({"type": "NOPE"})
    # counters saturate instead of wrapping; long text is cut on a character boundary
    assert w.decode_message(w.SNAPSHOT, w.snapshot([], [70000]))["counters"] == [65535]
    text = w.decode_message(w.LOG, w.log(20, "é" * 150))["text"]
    assert text == "é" * (w.TEXT_MAX // 2)


@FUZZ
@given(cuts=st.lists(st.integers(1, 40), max_size=60))
def test_any_chunking_of_the_stream_gives_the_same_frames(cuts):
    stream = b"".join(FRAMES)
    c = Collector()
    pos = 0
    for cut in cuts:
        c.feed(stream[pos : pos + cut])
        pos += cut
    c.feed(stream[pos:])
    assert [g[5] for g in c.got] == [w.decode_frame(f)[5] for f in FRAMES]
    assert c.dec.dropped == 0


def test_feed_with_a_count_reads_only_that_much_of_a_reused_buffer():
    rx = bytearray(64)  # how the firmware reads: readinto() a fixed buffer, then feed(rx, n)
    frame = FRAMES[0]
    rx[: len(frame)] = frame
    rx[len(frame) :] = b"\x07" * (64 - len(frame))  # stale bytes from an earlier read
    c = Collector()
    c.dec.feed(rx, len(frame))
    assert len(c.got) == 1 and c.dec._state == 0


# ---------------------------------------------------------------- fuzz, CPython


@FUZZ
@given(garbage=st.binary(max_size=700), which=st.integers(0, len(FRAMES) - 1))
def test_random_bytes_never_crash_and_a_good_frame_after_them_decodes(garbage, which):
    c = Collector().feed(garbage)
    before = len(c.got)
    c.feed(FRAMES[which])
    assert c.got[before:] == [w.decode_frame(FRAMES[which])]


@FUZZ
@given(which=st.integers(0, len(FRAMES) - 1), data=st.data())
def test_a_single_bit_flip_is_never_delivered(which, data):
    frame = bytearray(FRAMES[which])
    pos = data.draw(st.integers(0, len(frame) - 1))
    frame[pos] ^= 1 << data.draw(st.integers(0, 7))
    c = Collector().feed(bytes(frame))
    assert c.got == []
    if 0 < pos < len(frame) - 1 and frame[pos] != 0:
        assert c.dec.dropped == 1  # exactly this frame, counted once
    c.feed(FRAMES[0])
    assert c.got == [w.decode_frame(FRAMES[0])]


@FUZZ
@given(which=st.integers(0, len(FRAMES) - 1), data=st.data())
def test_a_truncated_frame_is_dropped_without_taking_the_next_one(which, data):
    frame = FRAMES[which]
    cut = data.draw(st.integers(1, len(frame) - 2))  # at least one body byte missing
    nxt = FRAMES[data.draw(st.integers(0, len(FRAMES) - 1))]
    c = Collector().feed(frame[:cut]).feed(nxt)  # e.g. a 500 ms USB write timeout mid-frame
    assert c.got == [w.decode_frame(nxt)]
    assert c.dec.dropped == (1 if cut > 1 else 0)


@FUZZ
@given(mtype=st.sampled_from(sorted(w.MESSAGES) + [0x00, 0x7F, 0xFF]), payload=st.binary(max_size=w.MAX_PAYLOAD))
def test_message_decoders_refuse_garbage_cleanly(mtype, payload):
    try:
        msg = w.decode_message(mtype, payload)
    except w.WireError:
        return
    # whatever is accepted is canonical: it re-encodes to something that decodes the same
    code, again = w.encode_message(msg)
    assert code == mtype and w.decode_message(code, again) == msg


# ---------------------------------------------------------------- Link, CPython


class Pair:
    """Two links (device, host) and the frames each has written but not yet delivered."""

    def __init__(self, **kw):
        self.now = 0
        self.to_host, self.to_dev = [], []
        self.dev_got, self.host_got = [], []
        self.dev = w.Link(self.to_host.append, lambda t, p: self.dev_got.append((t, p)), **kw)
        self.host = w.Link(self.to_dev.append, lambda t, p: self.host_got.append((t, p)), **kw)

    def take(self, queue):
        frames = list(queue)
        queue.clear()
        return frames

    def deliver(self, frames, link):
        for f in frames:
            link.feed(f, self.now)

    def step(self, ms=10, drop=lambda f: False):
        """Advance time, poll both ends, move every frame that is not dropped."""
        self.now += ms
        self.dev.poll(self.now)
        self.host.poll(self.now)
        for _ in range(4):  # let acks of acks settle
            self.deliver([f for f in self.take(self.to_host) if not drop(f)], self.host)
            self.deliver([f for f in self.take(self.to_dev) if not drop(f)], self.dev)


def tap_payload(i):
    return w.tap(i % 6, w.PLACED, i, b"\x04\x00\x00" + i.to_bytes(4, "little"))


def test_lost_frame_is_retransmitted_after_the_timeout_not_before():
    p = Pair(rto_ms=250)
    assert p.dev.send(w.TAP, tap_payload(1), p.now)
    p.take(p.to_host)  # the frame is lost on the wire
    p.step(240)
    assert p.host_got == [] and p.dev.retransmits == 0
    p.step(20)
    assert p.dev.retransmits == 1
    assert p.host_got == [(w.TAP, tap_payload(1))]
    assert p.dev.in_flight == 0  # the host's ack came back


def test_a_retransmitted_tap_is_delivered_once_when_only_the_ack_was_lost():
    p = Pair(rto_ms=250)
    p.dev.send(w.TAP, tap_payload(7), p.now)
    p.deliver(p.take(p.to_host), p.host)
    assert p.host_got == [(w.TAP, tap_payload(7))]
    p.take(p.to_dev)  # the host's ACK is lost
    p.step(300)  # device retransmits, host sees a duplicate, acks it again
    assert p.dev.retransmits == 1 and p.host.duplicates == 1
    assert p.host_got == [(w.TAP, tap_payload(7))]
    assert p.dev.in_flight == 0


def test_full_window_refuses_reliable_sends_but_not_heartbeats():
    p = Pair(window=3)
    for i in range(3):
        assert p.dev.send(w.TAP, tap_payload(i), p.now)
    assert not p.dev.can_send()
    written = len(p.to_host)
    assert p.dev.send(w.TAP, tap_payload(3), p.now) is False
    assert len(p.to_host) == written  # a refused send writes nothing
    p.dev.send_unreliable(w.HEARTBEAT, w.heartbeat(10, 1), p.now)
    assert len(p.to_host) == written + 1
    p.step()
    assert [t for t, _ in p.host_got] == [w.TAP, w.TAP, w.TAP, w.HEARTBEAT]
    assert p.dev.can_send() and p.dev.send(w.TAP, tap_payload(3), p.now)


def test_unreliable_frames_are_never_retransmitted():
    p = Pair(rto_ms=100)
    p.dev.send_unreliable(w.LOG, w.log(20, "hi"), p.now)
    p.take(p.to_host)
    for _ in range(10):
        p.step(100)
    assert p.host_got == [] and p.dev.retransmits == 0


def test_gap_is_repaired_in_order_by_go_back_n():
    p = Pair(rto_ms=250)
    for i in range(4):
        p.dev.send(w.TAP, tap_payload(i), p.now)
    frames = p.take(p.to_host)
    p.deliver([frames[0], frames[2], frames[3]], p.host)  # frame 1 lost
    assert p.host_got == [(w.TAP, tap_payload(0))] and p.host.out_of_order == 2
    p.step(300)
    assert p.host_got == [(w.TAP, tap_payload(i)) for i in range(4)]
    assert p.dev.in_flight == 0


def test_ack_is_sent_only_after_delivery_succeeds():
    p = Pair(rto_ms=100)
    calls = []

    def flaky(t, payload):
        calls.append(payload)
        if len(calls) == 1:
            raise OSError("disk full")  # e.g. the host could not log the tap

    p.host.deliver = flaky
    p.dev.send(w.TAP, tap_payload(1), p.now)
    with pytest.raises(OSError):
        p.deliver(p.take(p.to_host), p.host)
    assert p.to_dev == [] and p.dev.in_flight == 1  # not acked
    p.step(150)
    assert calls == [tap_payload(1)] * 2 and p.dev.in_flight == 0


def test_stale_ack_from_an_old_session_does_not_release_frames():
    p = Pair()
    for i in range(3):
        p.dev.send(w.TAP, tap_payload(i), p.now)
    p.take(p.to_host)
    old = w.encode_frame(w.ACK, b"", seq=0, ack=200)
    p.dev.feed(old, p.now)
    assert p.dev.in_flight == 3 and p.dev.bad_acks == 1
    # a session frame from a peer that has just reset carries ack=0, which would look like a
    # valid ack of frames 0..2 here: it must not release them either
    p.dev.feed(w.encode_frame(w.RESYNC, w.resync(), ack=3), p.now)
    assert p.dev.in_flight == 3


def test_other_protocol_version_is_ignored_except_its_hello():
    p = Pair()
    v2 = dict(version=2)
    p.host.feed(w.encode_frame(w.TAP, tap_payload(0), seq=0, flags=w.RELIABLE, **v2), 0)
    hello = w.hello(5, 0, 1, 0, "9.0", "future", proto=2)
    p.host.feed(w.encode_frame(w.HELLO, hello, **v2), 0)
    assert p.host_got == [(w.HELLO, hello)] and p.host.bad_version == 2
    assert p.to_dev == []  # nothing was acked


@FUZZ
@given(seed=st.integers(0, 2**32 - 1), loss=st.sampled_from([0.0, 0.05, 0.2, 0.4]))
def test_lossy_wire_delivers_every_message_exactly_once_in_order(seed, loss):
    rng = random.Random(seed)
    p = Pair(window=4, rto_ms=50)
    n = 300  # more than 256: sequence numbers wrap

    def impair(frame):
        r = rng.random()
        return r < loss

    sent_dev = sent_host = 0
    for _ in range(20000):
        while sent_dev < n and p.dev.send(w.TAP, tap_payload(sent_dev), p.now):
            sent_dev += 1
        while sent_host < n and p.host.send(w.SEGMENT_SET, w.segment_set(sent_host % 256, 1, (1, 2, 3), w.SOLID), p.now):
            sent_host += 1
        # corrupt some frames instead of dropping them: the CRC must catch them
        for queue in (p.to_host, p.to_dev):
            for i, f in enumerate(queue):
                if rng.random() < loss / 2:
                    b = bytearray(f)
                    b[rng.randrange(1, len(b) - 1)] ^= 1 << rng.randrange(8)
                    queue[i] = bytes(b)
        p.step(10, drop=impair)
        if len(p.host_got) == n and len(p.dev_got) == n and not p.dev.in_flight and not p.host.in_flight:
            break
    assert p.host_got == [(w.TAP, tap_payload(i)) for i in range(n)]
    assert [m[1] for m in p.dev_got] == [w.segment_set(i % 256, 1, (1, 2, 3), w.SOLID) for i in range(n)]


def test_boot_watch_tells_a_reboot_from_a_reconnect():
    bw = w.BootWatch()
    assert bw.observe(0x1234) == "first"
    assert bw.observe(0x1234) == "same"  # host reconnected, device kept running
    assert bw.observe(0x9999) == "reboot"
    assert bw.observe(0x9999) == "same" and bw.reboots == 1


def test_device_reboot_is_detected_and_the_host_resyncs_its_numbering():
    p = Pair()
    watch = w.BootWatch()
    for i in range(5):  # a running session: the host now expects device seq 5
        p.dev.send(w.TAP, tap_payload(i), p.now)
        p.step()
    assert watch.observe(0xAAAA0001) == "first"
    # the device reboots: fresh link, new boot id, HELLO then its first reliable frame (seq 0)
    p.dev = w.Link(p.to_host.append, lambda t, m: p.dev_got.append((t, m)))
    p.dev.send_unreliable(w.HELLO, w.hello(0xBBBB0002, 0, 6, 144, "0.1.0", "pico"), p.now)
    p.dev.send(w.SNAPSHOT, w.snapshot([]), p.now)
    frames = p.take(p.to_host)
    stale = Pair()  # a host that does not reset on HELLO takes seq 0 for a duplicate
    stale.host.rx_next = p.host.rx_next
    stale.deliver(frames, stale.host)
    assert [t for t, _ in stale.host_got] == [w.HELLO] and stale.host.duplicates == 1
    # the right host: HELLO with a new boot id -> reboot -> reset the link before going on
    p.host.feed(frames[0], p.now)
    t, payload = p.host_got[-1]
    assert watch.observe(w.decode_message(t, payload)["boot_id"]) == "reboot"
    p.host.reset()
    p.host.feed(frames[1], p.now)
    assert p.host_got[-1] == (w.SNAPSHOT, w.snapshot([]))


def test_heartbeat_due_and_peer_timeout():
    p = Pair(heartbeat_ms=1000, timeout_ms=3000)
    assert p.dev.heartbeat_due(0) and not p.host.peer_alive(0)
    p.dev.send_unreliable(w.HEARTBEAT, w.heartbeat(0, 1), 0)
    assert not p.dev.heartbeat_due(999) and p.dev.heartbeat_due(1000)
    p.deliver(p.take(p.to_host), p.host)
    assert p.host.peer_alive(2999) and not p.host.peer_alive(3000)
    # now_ms may wrap like time.ticks_ms() (modulo 2**30)
    p.dev.send_unreliable(w.HEARTBEAT, w.heartbeat(0, 1), w.TICKS_MASK - 100)
    assert not p.dev.heartbeat_due(500) and p.dev.heartbeat_due(900)


# ---------------------------------------------------------------- MicroPython

MP_VECTORS = r"""
import json, binascii
from maester_fw import wire as w
doc = json.load(open(%r))
ok = 0
fails = []
for v in doc["vectors"]:
    frame = binascii.unhexlify(v["frame_hex"])
    msg = w.message_from_json(v["message"])
    h = v["header"]
    try:
        ver, t, seq, ack, flags, payload = w.decode_frame(frame)
        got = w.decode_message(t, payload)
        code, p2 = w.encode_message(msg)
        again = w.encode_frame(code, p2, h["seq"], h["ack"], h["flags"])
        if (ver, seq, ack, flags) != (h["version"], h["seq"], h["ack"], h["flags"]):
            fails.append(v["name"] + ":header")
        elif got != msg:
            fails.append(v["name"] + ":decode " + repr(got))
        elif again != frame:
            fails.append(v["name"] + ":encode " + binascii.hexlify(again).decode())
        else:
            ok += 1
    except Exception as e:
        fails.append(v["name"] + ":" + repr(e))
rej = 0
for r in doc["rejects"]:
    got = []
    d = w.Decoder(lambda dec: got.append(dec.type))
    d.feed(binascii.unhexlify(r["frame_hex"]))
    d.feed(binascii.unhexlify(doc["vectors"][0]["frame_hex"]))
    if got == [w.ACK] and getattr(d, r["reason"]) == 1 and d.dropped == 1:
        rej += 1
    else:
        fails.append(r["name"])
bad = 0
for b in doc["bad_payloads"]:
    try:
        w.decode_message(b["type"], binascii.unhexlify(b["payload_hex"]))
        fails.append(b["name"] + ":accepted")
    except w.WireError:
        bad += 1
print("VECTORS", ok, rej, bad)
for f in fails:
    print("FAIL", f)
"""


def _summary(stdout, tag):
    line = next(ln for ln in stdout.splitlines() if ln.startswith(tag + " "))
    return [int(x) if x.lstrip("-").isdigit() else x for x in line.split()[1:]]


def test_golden_vectors_under_micropython(run_micropython):
    out = run_micropython(MP_VECTORS % str(VECTORS)).stdout
    assert "FAIL" not in out, out
    assert _summary(out, "VECTORS") == [len(DOC["vectors"]), len(DOC["rejects"]), len(DOC["bad_payloads"])]


MP_FUZZ = r"""
import json, binascii
from maester_fw import wire as w
doc = json.load(open(%r))
frames = [binascii.unhexlify(v["frame_hex"]) for v in doc["vectors"]]
seed = 0x2545F491
def rnd(n):
    global seed
    x = seed
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    seed = x
    return x %% n

got = []
dec = w.Decoder(lambda d: got.append(d.payload()))
good = [binascii.unhexlify(v["frame_hex"]) for v in doc["vectors"] if v["name"] == "snapshot"][0]
good_payload = w.decode_frame(good)[5]
cases = errors = corrupt_delivered = recovered = 0
expected_drops = counted_drops = 0

def after(kind):
    # every case ends with a good frame, which must come out alone and intact
    global recovered, corrupt_delivered
    dec.feed(good)
    if got == [good_payload]:
        recovered += 1
    else:
        corrupt_delivered += 1
        print("LEAK", kind, len(got))

for i in range(3000):
    kind = i %% 4
    got.clear()
    cases += 1
    before = dec.dropped
    try:
        if kind == 0:                # random garbage, some zeros, up to 600 bytes
            n = rnd(600)
            junk = bytearray(n)
            for j in range(n):
                junk[j] = rnd(256) if rnd(8) else 0
            dec.feed(junk)
            got.clear()              # random bytes may form a valid frame (2**-16 odds)
        elif kind == 1:              # one bit flipped inside the frame body
            f = bytearray(frames[rnd(len(frames))])
            pos = 1 + rnd(len(f) - 2)
            f[pos] ^= 1 << rnd(8)
            dec.feed(f)
            if f[pos] != 0:          # (a new 0x00 splits it in two, each part dropped)
                expected_drops += 1
                counted_drops += dec.dropped - before
        elif kind == 2:              # truncated: the frame stops mid-way, no delimiter
            f = frames[rnd(len(frames))]
            dec.feed(f, 2 + rnd(len(f) - 3))
            expected_drops += 1
        else:                        # up to six bytes overwritten with non-zero values
            orig = frames[rnd(len(frames))]
            f = bytearray(orig)
            for k in range(1 + rnd(6)):
                f[1 + rnd(len(f) - 2)] = 1 + rnd(255)
            if f != orig:
                dec.feed(f)
                expected_drops += 1
                counted_drops += dec.dropped - before
        if got:
            corrupt_delivered += 1
            print("LEAK", kind)
            got.clear()
        before = dec.dropped
        after(kind)
        if kind == 2:                # the cut frame is judged when the next 0x00 arrives
            counted_drops += dec.dropped - before
    except Exception as e:
        errors += 1
        print("EXC", kind, repr(e))

perrors = paccepted = 0
types = list(w.MESSAGES) + [0, 0x7F]
for i in range(2000):
    n = rnd(40)
    p = bytearray(n)
    for j in range(n):
        p[j] = rnd(256)
    try:
        m = w.decode_message(types[rnd(len(types))], p)
        paccepted += 1
    except w.WireError:
        pass
    except Exception as e:
        perrors += 1
        print("PEXC", repr(e))
print("FUZZ", cases, errors, corrupt_delivered, recovered, expected_drops, counted_drops)
print("PAYLOADS", perrors, paccepted)
"""


def test_fuzz_both_parsers_under_micropython(run_micropython):
    out = run_micropython(MP_FUZZ % str(VECTORS)).stdout
    cases, errors, leaked, recovered, expected_drops, counted = _summary(out, "FUZZ")
    assert cases == 3000 and errors == 0, out
    assert leaked == 0, out  # no corrupt frame came out as a message
    assert recovered == cases, out  # the good frame after every bad one got through
    assert counted == expected_drops > 1000, out  # every corrupt frame was counted, once
    perrors, accepted = _summary(out, "PAYLOADS")
    assert perrors == 0, out


MP_LINK = r"""
from maester_fw import wire as w
seed = 0x9E3779B9
def rnd(n):
    global seed
    x = seed
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    seed = x
    return x %% n
to_host = []
to_dev = []
UID = b"\x04\x01\x02\x03"
# check order on the fly: storing 600 payloads would only measure heap fragmentation
got = [0, 0, 0, 0]  # host delivered, host out of order, device delivered, device out of order
def host_deliver(t, p):
    if p != w.tap(0, 1, got[0], UID):
        got[1] += 1
    got[0] += 1
def dev_deliver(t, p):
    if p != w.segment_set(got[2] %% 256, 1, (1, 2, 3), 1):
        got[3] += 1
    got[2] += 1
dev = w.Link(to_host.append, dev_deliver, window=4, rto_ms=50)
host = w.Link(to_dev.append, host_deliver, window=4, rto_ms=50)
N = 600
now = 0
sd = sh = 0
for step in range(40000):
    while sd < N and dev.send(w.TAP, w.tap(0, 1, sd, UID), now):
        sd += 1
    while sh < N and host.send(w.SEGMENT_SET, w.segment_set(sh %% 256, 1, (1, 2, 3), 1), now):
        sh += 1
    now += 10
    dev.poll(now)
    host.poll(now)
    for k in range(3):
        frames = to_host[:]
        del to_host[:]
        for f in frames:
            if rnd(100) >= %d:
                host.feed(f, now)
        frames = to_dev[:]
        del to_dev[:]
        for f in frames:
            if rnd(100) >= %d:
                dev.feed(f, now)
    if got[0] == N and got[2] == N and not dev.in_flight and not host.in_flight:
        break
print("LINK", got[0], got[2], got[1], got[3], dev.retransmits + host.retransmits,
      dev.duplicates + host.duplicates, dev.out_of_order + host.out_of_order)
"""


def test_link_exactly_once_under_micropython(run_micropython):
    out = run_micropython(MP_LINK % (20, 20)).stdout
    delivered, delivered_dev, wrong, wrong_dev, retransmits, dups, gaps = _summary(out, "LINK")
    assert (delivered, delivered_dev, wrong, wrong_dev) == (600, 600, 0, 0), out
    assert retransmits > 0 and dups > 0 and gaps > 0, out  # the loss really exercised the recovery paths


MP_HEAP = r"""
import sys
sys.path.insert(0, %r)
import gc, micropython
from maester_fw import wire as w
print("MODULE", w.__file__)

def frames():
    return [
        w.encode_frame(w.TAP, w.tap(2, w.PLACED, 73125, b"\x04\xa2\x24\xe2\xc6\x5d\x80"), 1, 0, w.RELIABLE),
        w.encode_frame(w.SEGMENT_SET, w.segment_set(3, 128, (0, 0, 255), w.BLINK, 500), 2, 1, w.RELIABLE),
        w.encode_frame(w.HEARTBEAT, w.heartbeat(61234, 0x1234), 0, 2, 0),
        w.encode_frame(w.ACK, b"", 0, 5, 0),
        w.encode_frame(w.CONFIG_WRITE, w.config_write(0, 240, 0, bytes(240)), 3, 1, w.RELIABLE),
    ] * 2

def decode_loop():
    stream = bytearray(b"".join(frames()))   # what readinto() would leave in a buffer
    n = [0]
    def on_frame(d):
        n[0] += 1
    dec = w.Decoder(on_frame)
    dec.feed(stream)                          # warm up
    gc.collect()
    gc.disable()
    before = gc.mem_free()
    for i in range(100):                      # 1000 frames
        dec.feed(stream, len(stream))
    used = before - gc.mem_free()
    gc.enable()
    micropython.heap_lock()                   # any allocation now raises MemoryError
    try:
        for i in range(100):
            dec.feed(stream)
        locked = 1
    except MemoryError:
        locked = 0
    micropython.heap_unlock()
    print("DECODE", n[0] - 10, used, locked, dec.dropped)

def link_loop():
    to_host = []
    to_dev = []
    got = [0]
    def deliver(t, p):
        got[0] += 1
    dev = w.Link(to_host.append, deliver)
    host = w.Link(to_dev.append, deliver)
    uid = b"\x04\xa2\x24\xe2\xc6\x5d\x80"
    def run(k, now):
        for i in range(k):
            dev.send(w.TAP, w.tap(1, 1, now + i, uid), now)
            for f in to_host:
                host.feed(f, now)
            del to_host[:]
            for f in to_dev:
                dev.feed(f, now)
            del to_dev[:]
    run(50, 0)
    gc.collect()
    before = gc.mem_free()
    run(1000, 100)
    gc.collect()
    print("LINK", got[0], before - gc.mem_free(), dev.in_flight)

decode_loop()
link_loop()
"""


def test_steady_state_decoding_does_not_allocate_on_a_64k_heap(run_micropython, mpy_dir):
    # A 64 KB heap cannot compile wire.py from source: load the bytecode a board ships.
    out = run_micropython(MP_HEAP % str(mpy_dir), heap="64k").stdout
    assert "wire.mpy" in _summary(out, "MODULE")[0], out
    frames, used, locked, dropped = _summary(out, "DECODE")
    assert frames == 2000 and dropped == 0, out
    assert used <= 64, out  # nothing allocated per frame (1000 frames with the GC off)
    assert locked == 1, out  # and with the heap locked, decoding still works
    delivered, growth, in_flight = _summary(out, "LINK")
    assert delivered == 1050 and in_flight == 0, out
    assert growth <= 256, out  # the link allocates per message but keeps nothing


# Found by `maester bench fuzz` (odd_text cases): MicroPython's bytes.decode takes overlong forms and
# UTF-16 surrogates that CPython refuses, so the board accepted text PROTOCOL.md says decoders refuse.
BAD_UTF8 = ["c080", "c1bf", "e080af", "eda080", "edbfbf", "f0808080", "f4908080", "f888808080", "e282", "80", "fe"]
GOOD_UTF8 = ["", "41", "c3a9", "e282ac", "f09d849e", "efbfbf", "f48fbfbf", "ee8080"]
MP_UTF8 = r"""
from maester_fw import wire as w
import binascii
for h in %r + %r:
    b = binascii.unhexlify(h)
    try:
        m = w.decode_message(w.LOG, bytes((20, len(b))) + b)
        print("TEXT", h, "ok", m["text"].encode("utf-8") == b)
    except w.WireError as e:
        print("TEXT", h, "refused", str(e))
"""


def _utf8_verdicts(stdout):
    return {h: rest for h, *rest in (ln.split(" ", 1)[1].split(" ", 1) for ln in stdout.splitlines()
                                     if ln.startswith("TEXT "))}


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_both_sides_refuse_the_same_invalid_utf8(interpreter, run_micropython):
    from conftest import run_cpython
    code = MP_UTF8 % (BAD_UTF8, GOOD_UTF8)
    out = (run_micropython(code) if interpreter == "micropython" else run_cpython(code)).stdout
    verdicts = _utf8_verdicts(out)
    assert {h: verdicts[h] for h in BAD_UTF8} == {h: ["refused bad utf-8"] for h in BAD_UTF8}, out
    assert {h: verdicts[h] for h in GOOD_UTF8} == {h: ["ok True"] for h in GOOD_UTF8}, out


def test_a_gap_is_repaired_at_once_when_a_later_frame_shows_it():
    # The host acks the frame after the gap with the seq it still waits for: the device sends the
    # window again at once (a board could lose its power, and those taps, within rto_ms).
    p = Pair(rto_ms=250)
    for i in range(3):
        p.dev.send(w.TAP, tap_payload(i), p.now)
    frames = p.take(p.to_host)
    p.deliver([frames[0], frames[2]], p.host)  # frame 1 lost, frame 2 arrives after the gap
    p.step(1)  # 1 ms later, far from rto_ms
    assert p.host_got == [(w.TAP, tap_payload(i)) for i in range(3)]
    assert p.dev.in_flight == 0 and p.dev.retransmits == 2  # once: frames 1 and 2


def test_an_early_retransmission_happens_once_per_lost_frame():
    p = Pair(rto_ms=250)
    for i in range(4):
        p.dev.send(w.TAP, tap_payload(i), p.now)
    frames = p.take(p.to_host)
    for f in frames[1:]:  # frame 0 lost; three frames after it, three bare ACKs
        p.host.feed(f, p.now)
    for f in p.take(p.to_dev):
        p.dev.feed(f, p.now)
    assert p.dev.retransmits == 4  # the window once, not three times
