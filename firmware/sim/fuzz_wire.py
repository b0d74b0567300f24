"""Fuzzer for the wire codec's receive path, run under CPython and the MicroPython unix port.

Not shipped to a board (firmware/sim is host-side). `maester bench fuzz` drives it: in-process
for the host side, and under `micropython` against the .mpy build of wire.py for the board side.

Each case is a byte string fed to a `wire.Link` the way that side feeds it (the host passes the
bytes pyserial returned; the firmware copies into a preallocated buffer and passes a count), in
random chunk sizes, and closed by a 0x00. Cases are random bytes, valid frames of every message
type built with wire's own encoders, and mutants of those (see KINDS). Each delivered message
goes through `wire.decode_message`, as both sides' `_deliver` do.

The oracle is written apart from wire.py so it can disagree with it: a plain COBS decoder, a
CRC table of its own built bit by bit, a strict UTF-8 check, and a re-encoding of every accepted message with wire's
encoders (which check every field). A case fails when:
* crash: anything other than WireError escaped a decoder;
* corrupt_accepted: a frame the oracle rejects was decoded, or an accepted message does not
  survive the re-encoding check (a mutant that is still valid, e.g. a CRC collision, passes);
* valid_rejected: an unmutated frame was not decoded or its message was refused;
* miscounted: the decoder's reject counters moved differently from the oracle's verdicts.

Plain Python for both interpreters: a seeded xorshift RNG, no f-strings, no random module.
"""

import sys

try:
    from time import ticks_ms, ticks_diff

    def _clock():
        return ticks_ms()

    def _seconds(t0):
        return ticks_diff(ticks_ms(), t0) / 1000
except ImportError:  # CPython
    from time import perf_counter

    def _clock():
        return perf_counter()

    def _seconds(t0):
        return perf_counter() - t0


FRAMING = ("oversize", "bad_cobs", "runt", "bad_crc")
LINK_DROPS = ("bad_version", "duplicates", "out_of_order")
# case kinds; "valid" is the only one not mutated
KINDS = ("random", "valid", "bitflip", "insert", "delete", "truncate", "bad_crc", "bad_version",
         "overlong", "empty", "bad_cobs", "garbage_payload", "extra_zeros", "splice", "odd_text",
         "bad_field")
TEXT_FIELDS = ("firmware", "board", "text")
TEXT_LIMITS = {"firmware": 32, "board": 32, "text": 200}
# UTF-8 that strict decoders refuse (overlong, surrogate, above U+10FFFF, cut, stray), and some they take
ODD_UTF8 = (b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf0\x80\x80\x80",
            b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xe2\x82", b"\x80", b"\xfe", b"\xe2\x82\xac",
            b"\xf0\x9d\x84\x9e", b"\xc3\xa9")
EXAMPLES = 5  # failures kept whole per class, for the report


class Rng:
    """xorshift32: the same stream on every interpreter for the same seed."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        return self.next() % n

    def bytes(self, n, nonzero=False):
        out = bytearray(n + 3)
        for i in range(0, n, 4):  # four bytes per draw
            x = self.next()
            out[i] = x & 0xFF
            out[i + 1] = (x >> 8) & 0xFF
            out[i + 2] = (x >> 16) & 0xFF
            out[i + 3] = x >> 24
        if nonzero:
            for i in range(n):
                if not out[i]:
                    out[i] = 1
        return bytes(out[:n])

    def text(self, n):
        chars = "abcXYZ 09-_\u00e9\u20ac\u4e2d\U0001d11e"
        return "".join(chars[self.below(len(chars))] for _ in range(n))


# ---------------------------------------------------------------- the oracle


def _ref_table():
    out = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        out.append(crc & 0xFFFF)
    return out


_REF_TABLE = _ref_table()


def ref_crc(data):
    """CRC-16/CCITT-FALSE, from a table of the fuzzer's own."""
    crc = 0xFFFF
    table = _REF_TABLE
    for b in data:
        crc = ((crc & 0xFF) << 8) ^ table[(crc >> 8) ^ b]
    return crc


def ref_frames(stream, max_raw=253):
    """The verdict on every non-empty run between zeros: ("ok", raw bytes) or (reason, None)."""
    out = []
    for run in bytes(stream).split(b"\x00"):
        if not run:
            continue
        raw = bytearray()
        i = 0
        short = False
        while i < len(run):
            code = run[i]
            block = run[i + 1 : i + code]
            raw += block
            if len(block) < code - 1:
                short = True
            i += code
            if i < len(run) and code != 0xFF:
                raw.append(0)
        if len(raw) > max_raw:
            out.append(("oversize", None))
        elif short:
            out.append(("bad_cobs", None))
        elif len(raw) < 7:
            out.append(("runt", None))
        elif ref_crc(raw[:-2]) != raw[-2] | (raw[-1] << 8):
            out.append(("bad_crc", None))
        else:
            out.append(("ok", bytes(raw)))
    return out


def utf8_ok(b):
    """Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF."""
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            need, lo, hi = 1, 0x80, 0xBF
        elif 0xE0 <= c <= 0xEF:
            need = 2
            lo = 0xA0 if c == 0xE0 else 0x80
            hi = 0x9F if c == 0xED else 0xBF
        elif 0xF0 <= c <= 0xF4:
            need = 3
            lo = 0x90 if c == 0xF0 else 0x80
            hi = 0x8F if c == 0xF4 else 0xBF
        else:
            return False
        if i + need >= n:
            return False  # cut short
        if not lo <= b[i + 1] <= hi:
            return False
        for k in range(2, need + 1):
            if not 0x80 <= b[i + k] <= 0xBF:
                return False
        i += need + 1
    return True


def message_ok(wire, mtype, payload, msg):
    """None if `msg` (decoded from payload) is a message wire's encoders would also write, else why not."""
    for k in TEXT_FIELDS:
        if k in msg and not utf8_ok(msg[k].encode("utf-8")):
            return "invalid UTF-8 in " + k + " accepted"
    try:
        code, again = wire.encode_message(msg)
    except Exception as e:  # the encoders check every field's range
        return "does not re-encode: " + repr(e)
    if code != mtype:
        return "re-encodes as another type"
    cut = False
    for k in TEXT_FIELDS:
        if k in msg and len(msg[k].encode("utf-8")) > TEXT_LIMITS[k]:
            cut = True  # the encoder shortens long text; the decoder need not refuse it
    if not cut and bytes(payload[: len(again)]) != again:
        return "re-encodes to other bytes"
    return None


# ---------------------------------------------------------------- case generators


def valid_message(wire, rng):
    """(type, payload) of a random valid message, built with wire's encoders."""
    codes = sorted(wire.MESSAGES)
    t = codes[rng.below(len(codes))]
    r = rng.next
    if t == wire.HEARTBEAT:
        p = wire.heartbeat(r(), r())
    elif t == wire.HELLO:
        p = wire.hello(r(), r() & 0xFFFF, rng.below(17), r() & 0xFFFF, rng.text(rng.below(40)),
                       rng.text(rng.below(40)), r() & 0xFFFF, r() & 0xFFFF)
    elif t == wire.HELLO_ACK:
        p = wire.hello_ack(r())
    elif t == wire.RESYNC:
        p = wire.resync(rng.below(2))
    elif t == wire.SNAPSHOT:
        readers = []
        for i in range(rng.below(17)):
            state = rng.below(3)
            uid = rng.bytes(wire.UID_LENGTHS[rng.below(3)]) if state == wire.PRESENT else None
            readers.append({"reader": i, "state": state, "uid": uid})
        p = wire.snapshot(readers, [r() & 0xFFFF for _ in range(rng.below(9))])
    elif t == wire.TAP:
        p = wire.tap(rng.below(16), rng.below(2), r(), rng.bytes(wire.UID_LENGTHS[rng.below(3)]))
    elif t == wire.ERROR:
        p = wire.error(rng.below(7), rng.text(rng.below(60)))
    elif t == wire.LOG:
        p = wire.log((1 + rng.below(4)) * 10, rng.text(rng.below(60)))
    elif t == wire.READER_STATUS:
        p = wire.reader_status(rng.below(16), rng.below(wire.READER_HEALTH_MAX + 1), r() & 0xFF, r() & 0xFF,
                               r() & 0xFFFF, r() & 0xFFFF)
    elif t == wire.CONFIG_STATUS:
        p = wire.config_status(rng.below(5), r() & 0xFFFF, r() & 0xFFFF)
    elif t == wire.SEGMENT_SET:
        p = wire.segment_set(rng.below(32), r() & 0xFF, (r() & 0xFF, r() & 0xFF, r() & 0xFF), rng.below(4),
                             r() & 0xFFFF)
    elif t == wire.CONFIG_WRITE:
        data = rng.bytes(rng.below(241))
        off = rng.below(2000)
        p = wire.config_write(off, off + len(data) + rng.below(100), r() & 0xFFFF, data)
    elif t == wire.REPL:
        p = wire.repl()
    elif t == wire.BOOTLOADER:
        p = wire.bootloader()
    else:  # ACK, SEGMENTS_CLEAR
        p = wire.empty()
    return t, p


def valid_frame(wire, rng, link):
    """Wire bytes of a valid frame; a reliable one carries the seq the link expects next."""
    t, p = valid_message(wire, rng)
    if wire.is_reliable(t):
        return wire.encode_frame(t, p, link.rx_next, rng.below(256), wire.RELIABLE)
    return wire.encode_frame(t, p, 0, rng.below(256), 0)


def _cobs(wire, raw):
    out = bytearray(len(raw) + len(raw) // 254 + 3)
    end = wire.cobs_encode_into(raw, len(raw), out, 1)
    return bytes(out[:end + 1])  # out[0] and out[end] are the delimiters


def make_case(wire, rng, link, kind):
    """The bytes of one case of `kind`."""
    if kind == "random":
        return rng.bytes(rng.below(300))
    if kind == "overlong":
        return b"\x00" + rng.bytes(254 + rng.below(400), nonzero=True) + b"\x00"
    if kind == "empty":
        return b"\x00" * (1 + rng.below(4))
    if kind == "bad_version":
        t, p = valid_message(wire, rng)
        v = wire.VERSION
        while v == wire.VERSION:
            v = rng.below(256)
        return wire.encode_frame(t, p, link.rx_next, rng.below(256), rng.below(2), version=v)
    if kind == "garbage_payload":
        t = rng.below(256) if rng.below(4) == 0 else sorted(wire.MESSAGES)[rng.below(len(wire.MESSAGES))]
        return wire.encode_frame(t, rng.bytes(rng.below(wire.MAX_PAYLOAD + 1)), link.rx_next, rng.below(256),
                                 rng.below(256))
    if kind == "odd_text":  # a text field with edge cases of UTF-8, in a frame with a good CRC
        text = b""
        for _ in range(1 + rng.below(3)):
            text += rng.bytes(rng.below(3), nonzero=True) + ODD_UTF8[rng.below(len(ODD_UTF8))]
        t = (wire.LOG, wire.ERROR)[rng.below(2)]
        p = bytes((rng.below(50), len(text))) + text
        if t == wire.ERROR:
            return wire.encode_frame(t, p, link.rx_next, rng.below(256), wire.RELIABLE)
        return wire.encode_frame(t, p, 0, rng.below(256), 0)
    if kind == "bad_field":  # a valid message with a byte or two changed or cut, and a good CRC
        t, p = valid_message(wire, rng)
        p = bytearray(p)
        for _ in range(1 + rng.below(2)):
            if p and rng.below(4):
                p[rng.below(len(p))] = (0, 1, 2, 3, 4, 5, 7, 10, 0x7F, 0x80, 0xFF, rng.below(256))[rng.below(12)]
            else:
                p = p[: rng.below(len(p) + 1)] if p and rng.below(2) else p + rng.bytes(1 + rng.below(4))
        flags = wire.RELIABLE if wire.is_reliable(t) else 0
        return wire.encode_frame(t, bytes(p[: wire.MAX_PAYLOAD]), link.rx_next if flags else 0, rng.below(256), flags)
    frame = valid_frame(wire, rng, link)
    if kind == "valid":
        return frame
    f = bytearray(frame)
    if kind == "bitflip":
        for _ in range(1 + rng.below(4)):
            i = rng.below(len(f))
            f[i] ^= 1 << rng.below(8)
    elif kind == "insert":
        for _ in range(1 + rng.below(3)):
            i = 1 + rng.below(len(f) - 1)
            f = f[:i] + bytes((rng.below(256),)) + f[i:]  # MicroPython: no slice insertion
    elif kind == "delete":
        for _ in range(1 + rng.below(3)):
            if len(f) > 2:
                i = 1 + rng.below(len(f) - 2)
                f = f[:i] + f[i + 1:]
    elif kind == "truncate":
        f = f[: 1 + rng.below(len(f) - 1)]
    elif kind == "bad_crc":
        got = wire.decode_frame(frame)  # rebuild the raw frame, then close it with a wrong CRC
        raw = bytearray(bytes(got[:5]) + got[5])
        c = ref_crc(raw) ^ (1 + rng.below(0xFFFF))  # any CRC but the right one
        raw += bytes((c & 0xFF, c >> 8))
        f = bytearray(_cobs(wire, raw))
    elif kind == "bad_cobs":
        i = 1 + rng.below(len(f) - 2)  # a code or data byte now points past the delimiter
        f[i] = min(255, len(f) - i + rng.below(20))
    elif kind == "extra_zeros":
        for _ in range(1 + rng.below(3)):
            i = rng.below(len(f) + 1)
            f = f[:i] + b"\x00" * (1 + rng.below(2)) + f[i:]
    elif kind == "splice":
        g = valid_frame(wire, rng, link)
        f = f[: 1 + rng.below(len(f) - 1)] + g[1 + rng.below(len(g) - 1):]
    return bytes(f)


# ---------------------------------------------------------------- the driver


class Tally:
    def __init__(self):
        self.cases = 0
        self.by_kind = {}
        self.frames = 0  # non-empty runs between zeros, as the decoder saw them
        self.decoded = 0  # frames past COBS, length and CRC
        self.framing = {}
        self.link = {}
        self.acks = 0  # unreliable ACKs: consumed by the link, nothing to deliver
        self.delivered = 0
        self.accepted = 0
        self.message = {}  # WireError text -> count
        self.crashes = 0
        self.corrupt_accepted = 0
        self.valid_rejected = 0
        self.miscounted = 0
        self.mutants_valid = 0  # mutated yet still a valid message (CRC collision, garbage that parses)
        self.examples = []

    def failure(self, what, kind, case, detail):
        if sum(1 for e in self.examples if e["what"] == what) < EXAMPLES:
            hexed = "".join("%02x" % b for b in case[:400])
            self.examples.append({"what": what, "kind": kind, "detail": detail, "case_hex": hexed})

    def as_dict(self):
        d = {}
        for k in ("cases", "by_kind", "frames", "decoded", "framing", "link", "acks", "delivered", "accepted",
                  "message", "crashes", "corrupt_accepted", "valid_rejected", "miscounted", "mutants_valid",
                  "examples"):
            d[k] = getattr(self, k)
        d["rejected"] = sum(self.framing.values()) + sum(self.link.values()) + sum(self.message.values())
        return d


def _bump(d, k, n=1):
    d[k] = d.get(k, 0) + n


class Side:
    """One side's receive path: a Link fed as that side feeds it, `decode_message` behind it."""

    def __init__(self, wire, side, tally):
        self.wire = wire
        self.side = side
        self.t = tally
        self.link = wire.Link(self._write, self._deliver)
        self.rx = bytearray(64)  # the firmware reads into a fixed buffer (app.py RX_CHUNK)
        self.got = []  # this case's decoded frames: [raw, outcome, detail]
        # watch every frame the decoder passes to the link, in front of the link's own handler
        self._link_on_frame = self.link.decoder._on_frame
        self.link.decoder._on_frame = self._on_frame

    def _write(self, frame):
        pass  # the link's ACKs go nowhere

    def _deliver(self, mtype, payload):
        """What serial_link.BoardLink._deliver and app.App._deliver do first."""
        entry = self.got[-1]
        try:
            msg = self.wire.decode_message(mtype, payload)
        except self.wire.WireError as e:
            entry[1] = "message"
            entry[2] = str(e)
            return
        entry[1] = "accepted"
        entry[2] = message_ok(self.wire, mtype, payload, msg)

    def _on_frame(self, d):
        raw = bytes(d.buf[: d.length + 7])
        entry = [raw, None, None]
        self.got.append(entry)
        link = self.link
        before = (link.bad_version, link.duplicates, link.out_of_order)
        try:
            self._link_on_frame(d)
        except Exception as e:
            entry[1] = "crash"
            entry[2] = repr(e)
            return
        if entry[1] is None:
            after = (link.bad_version, link.duplicates, link.out_of_order)
            entry[1] = "acks"
            for i in range(3):
                if after[i] != before[i]:
                    entry[1] = LINK_DROPS[i]

    def feed_case(self, case, rng, now):
        """Feed case + 0x00 in random chunks; return a crash description or None."""
        data = case + b"\x00"
        link = self.link
        i = 0
        while i < len(data):
            n = 1 + rng.below(64 if rng.below(4) else 8)
            chunk = data[i : i + n]
            try:
                if self.side == "board":
                    rx = self.rx
                    k = len(chunk)
                    rx[:k] = chunk
                    link.feed(rx, now, k)
                else:
                    link.feed(chunk, now)
            except Exception as e:
                link.decoder.reset()
                return repr(e)
            i += n
        return None


def run(wire, frames, seed=1, side="host", progress=None, every=10000):
    """Feed `frames` cases; returns the tally as a dict. progress(done, tally) every `every` cases."""
    rng = Rng(seed)
    t = Tally()
    s = Side(wire, side, t)
    dec = s.link.decoder
    t0 = _clock()
    for case_no in range(frames):
        kind = KINDS[rng.below(len(KINDS))]
        case = make_case(wire, rng, s.link, kind)
        before = [getattr(dec, r) for r in FRAMING]
        s.got = []
        crash = s.feed_case(case, rng, case_no)
        t.cases += 1
        _bump(t.by_kind, kind)
        want = ref_frames(case)
        counts = {}
        for verdict, _ in want:
            _bump(counts, verdict)
        t.frames += len(want)
        for i in range(4):
            moved = getattr(dec, FRAMING[i]) - before[i]
            if moved:
                _bump(t.framing, FRAMING[i], moved)
        for raw, outcome, detail in s.got:
            t.decoded += 1
            if outcome == "crash":
                t.crashes += 1
                t.failure("crash", kind, case, detail)
            elif outcome == "accepted":
                t.delivered += 1
                t.accepted += 1
                if detail is not None:
                    t.corrupt_accepted += 1
                    t.failure("corrupt_accepted", kind, case, detail)
                elif kind != "valid":
                    t.mutants_valid += 1
            elif outcome == "message":
                t.delivered += 1
                _bump(t.message, detail)
                if kind == "valid":
                    t.valid_rejected += 1
                    t.failure("valid_rejected", kind, case, detail)
            elif outcome == "acks":
                t.acks += 1
            else:
                _bump(t.link, outcome)
                if kind == "valid":
                    t.valid_rejected += 1
                    t.failure("valid_rejected", kind, case, "dropped by the link: " + outcome)
        if crash is not None:
            t.crashes += 1
            t.failure("crash", kind, case, crash)
            continue  # the rest of the case was never fed: nothing to compare
        oks = [raw for verdict, raw in want if verdict == "ok"]
        seen = [e[0] for e in s.got]
        bad = None
        for raw in seen:
            if raw not in oks:
                bad = "decoded a frame the oracle rejects"
        if bad is not None:
            t.corrupt_accepted += 1
            t.failure("corrupt_accepted", kind, case, bad)
        elif seen != oks or any(getattr(dec, FRAMING[i]) - before[i] != counts.get(FRAMING[i], 0)
                                for i in range(4)):
            t.miscounted += 1
            t.failure("miscounted", kind, case, "decoder %r, oracle %r" % (
                [getattr(dec, FRAMING[i]) - before[i] for i in range(4)], [counts.get(r, 0) for r in FRAMING]))
        if kind == "valid" and not seen:
            t.valid_rejected += 1
            t.failure("valid_rejected", kind, case, "not decoded")
        if progress is not None and (case_no + 1) % every == 0:
            progress(case_no + 1, t)
    out = t.as_dict()
    out["side"] = side
    out["seed"] = seed
    out["seconds"] = _seconds(t0)
    out["interpreter"] = sys.implementation.name
    return out


def main(argv):
    """micropython fuzz_wire.py FRAMES SEED SIDE: progress lines, then one `result <json>` line."""
    import json

    from maester_fw import wire

    frames, seed, side = int(argv[0]), int(argv[1]), argv[2]

    def progress(done, t):
        print("progress %d %d %d" % (done, t.crashes, t.corrupt_accepted + t.valid_rejected + t.miscounted))

    print("result " + json.dumps(run(wire, frames, seed, side, progress)))


if __name__ == "__main__":
    main(sys.argv[1:])
