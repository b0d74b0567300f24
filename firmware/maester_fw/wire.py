"""Maester wire codec: frames, messages and the reliable link.

One module shared by the firmware (MicroPython 1.2x) and the host (CPython 3.10+).
It does no I/O and reads no clock: the caller passes bytes in, gets bytes out through
a `write` callable, and passes `now_ms` to anything that keeps time.

Layers (see firmware/PROTOCOL.md):

* framing: 0x00 <COBS(header + payload + crc16)> 0x00, `encode_frame` / `Decoder`
* messages: one pair of helpers per message type, `encode_message` / `decode_message`
* link: `Link`, sequence numbers, cumulative acks, go-back-N retransmission
* `BootWatch`: tells a reboot of the peer from a reconnect
"""

import struct

try:
    from micropython import const
except ImportError:  # CPython
    from .cpython import const


VERSION = const(1)  # protocol version, byte 0 of every header
HEADER_LEN = const(5)  # version, type, seq, ack, flags
CRC_LEN = const(2)
MAX_PAYLOAD = const(246)  # 5 + 246 + 2 = 253 raw bytes -> 254 COBS bytes -> 256 on the wire
MAX_RAW = const(253)
MAX_FRAME = const(256)  # leading 0x00 + COBS + trailing 0x00

# header flags
RELIABLE = const(0x01)  # seq is meaningful: the receiver acks it and drops duplicates

# message types: 0x0_ link, 0x1_ session, 0x2_ device -> host, 0x3_ host -> device
ACK = const(0x01)
HEARTBEAT = const(0x02)
HELLO = const(0x10)
HELLO_ACK = const(0x11)
RESYNC = const(0x12)
SNAPSHOT = const(0x20)
TAP = const(0x21)
ERROR = const(0x22)
LOG = const(0x23)
CONFIG_STATUS = const(0x24)
READER_STATUS = const(0x25)
SEGMENT_SET = const(0x30)
SEGMENTS_CLEAR = const(0x31)
CONFIG_WRITE = const(0x32)
REPL = const(0x3E)
BOOTLOADER = const(0x3F)

# capabilities bitmask (HELLO)
CAP_LEDS = const(0x0001)
CAP_BLINK = const(0x0002)
CAP_PULSE = const(0x0004)
CAP_CONFIG = const(0x0008)
CAP_REPL = const(0x0010)
CAP_BOOTLOADER = const(0x0020)

# reader state (SNAPSHOT) and tap kind (TAP)
ABSENT = const(0)
PRESENT = const(1)
FAULT = const(2)
CROWDED = const(3)  # two or more cards answer and the reader has not known its card: which lie there is unknown
REMOVED = const(0)
PLACED = const(1)

# LED patterns (SEGMENT_SET)
OFF = const(0)
SOLID = const(1)
BLINK = const(2)
PULSE = const(3)

# RESYNC reasons
# READER_STATUS health: what a reader is doing, beyond its cards (PROTOCOL.md section 3)
READER_OK = const(0)  # answers and reads
READER_FAULT = const(1)  # does not answer (detail: 1 + the reader suspected of holding MISO, or 0)
READER_RESET = const(2)  # lost its configuration (a supply dip) and was set up again
READER_CROWDED = const(3)  # two or more cards answer at once: lift one
READER_HOLDS_BUS = const(4)  # answers, but while it is not selected the others read 0x00 (MISO held low)
READER_HEALTH_MAX = const(4)

RESYNC_CONNECT = const(0)
RESYNC_REQUEST = const(1)

# CONFIG_STATUS codes
CONFIG_OK = const(0)
CONFIG_BAD_CRC = const(1)
CONFIG_TOO_BIG = const(2)
CONFIG_BAD_OFFSET = const(3)
CONFIG_INVALID = const(4)

# ERROR codes
ERR_UNKNOWN_TYPE = const(1)
ERR_BAD_PAYLOAD = const(2)
ERR_UNSUPPORTED = const(3)
ERR_READER_FAULT = const(4)
ERR_CONFIG = const(5)
ERR_INTERNAL = const(6)

UID_LENGTHS = (4, 7, 10)
NAME_MAX = const(32)  # firmware version and board name, bytes of UTF-8
TEXT_MAX = const(200)  # ERROR and LOG text, bytes of UTF-8
TICKS_MASK = const(0x3FFFFFFF)  # now_ms is compared modulo 2**30, like time.ticks_ms()


class WireError(ValueError):
    """A frame or payload that does not follow the protocol."""


# ---------------------------------------------------------------- CRC-16/CCITT-FALSE


def _crc_table():
    from array import array

    table = array("H", [0] * 256)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        table[i] = c & 0xFFFF
    return table


_CRC_TABLE = _crc_table()


def crc16(data, n=-1, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of data[0:n]; allocation-free."""
    if n < 0:
        n = len(data)
    table = _CRC_TABLE
    for i in range(n):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


# ---------------------------------------------------------------- framing


def cobs_encode_into(src, n, dst, o):
    """COBS-encode src[0:n] into dst starting at index o; return the index after the end."""
    code_at = o
    o += 1
    code = 1
    for i in range(n):
        b = src[i]
        if b:
            dst[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                dst[code_at] = code
                code_at = o
                o += 1
                code = 1
        else:
            dst[code_at] = code
            code_at = o
            o += 1
            code = 1
    dst[code_at] = code
    return o


def encode_frame(mtype, payload=b"", seq=0, ack=0, flags=0, version=VERSION):
    """Return the wire bytes of one frame: 0x00, COBS(header, payload, crc), 0x00."""
    plen = len(payload)
    if plen > MAX_PAYLOAD:
        raise WireError("payload too long")
    n = HEADER_LEN + plen + CRC_LEN
    raw = bytearray(n)
    raw[0] = version & 0xFF
    raw[1] = mtype & 0xFF
    raw[2] = seq & 0xFF
    raw[3] = ack & 0xFF
    raw[4] = flags & 0xFF
    raw[HEADER_LEN : HEADER_LEN + plen] = payload
    c = crc16(raw, n - CRC_LEN)
    raw[n - 2] = c & 0xFF
    raw[n - 1] = c >> 8
    out = bytearray(n + n // 254 + 3)
    end = cobs_encode_into(raw, n, out, 1)  # out[0] stays 0x00: the leading delimiter
    out[end] = 0
    return bytes(out[: end + 1])


class Decoder:
    """Streaming frame decoder with a preallocated receive buffer.

    `feed(data, n)` consumes bytes as they arrive, in chunks of any size. For every frame
    that passes COBS, length and CRC checks it sets `version`, `type`, `seq`, `ack`,
    `flags`, `length` and calls `on_frame(decoder)`; the payload is
    `buf[HEADER_LEN:HEADER_LEN + length]` (or a copy from `payload()`), valid only
    during the call. Bad frames are counted and dropped; decoding resumes at the next
    0x00. Nothing here allocates once the object exists.
    """

    def __init__(self, on_frame, max_payload=MAX_PAYLOAD):
        self.buf = bytearray(HEADER_LEN + max_payload + CRC_LEN)
        self._mv = memoryview(self.buf)
        self._on_frame = on_frame
        self.version = self.type = self.seq = self.ack = self.flags = self.length = 0
        self.frames = 0  # good frames delivered
        self.bad_crc = 0
        self.bad_cobs = 0  # a COBS block ran past the delimiter
        self.oversize = 0
        self.runt = 0  # shorter than header + CRC
        self.reset()

    def reset(self):
        """Forget any partial frame."""
        self._n = 0  # decoded bytes in buf
        self._rem = 0  # data bytes left in the current COBS block
        self._zero = False  # a 0x00 is owed before the next block
        self._state = 0  # 0 idle, 1 in a frame, 2 discarding an oversize frame

    @property
    def dropped(self):
        return self.bad_crc + self.bad_cobs + self.oversize + self.runt

    def payload(self):
        """A copy of the current frame's payload (allocates)."""
        return bytes(self._mv[HEADER_LEN : HEADER_LEN + self.length])

    def feed(self, data, count=-1):
        """Consume data[0:count] (all of data if count < 0)."""
        if count < 0:
            count = len(data)
        buf = self.buf
        cap = len(buf)
        n = self._n
        rem = self._rem
        zero = self._zero
        state = self._state
        for i in range(count):
            b = data[i]
            if b == 0:
                if state:
                    # store a clean state first: on_frame may raise
                    self._n = self._rem = self._state = 0
                    self._zero = False
                    self._finish(n, rem, state)
                n = rem = state = 0
                zero = False
                continue
            if state == 2:
                continue
            state = 1
            if rem == 0:  # a COBS code byte
                if zero:
                    if n == cap:
                        state = 2
                        continue
                    buf[n] = 0
                    n += 1
                rem = b - 1
                zero = b != 0xFF
            else:
                if n == cap:
                    state = 2
                    continue
                buf[n] = b
                n += 1
                rem -= 1
        self._n = n
        self._rem = rem
        self._zero = zero
        self._state = state

    def _finish(self, n, rem, state):
        if state == 2:
            self.oversize += 1
            return
        if rem:
            self.bad_cobs += 1
            return
        if n < HEADER_LEN + CRC_LEN:
            self.runt += 1
            return
        buf = self.buf
        if crc16(buf, n - CRC_LEN) != buf[n - 2] | (buf[n - 1] << 8):
            self.bad_crc += 1
            return
        self.version = buf[0]
        self.type = buf[1]
        self.seq = buf[2]
        self.ack = buf[3]
        self.flags = buf[4]
        self.length = n - HEADER_LEN - CRC_LEN
        self.frames += 1
        self._on_frame(self)


def decode_frame(data):
    """Decode wire bytes holding exactly one frame.

    Returns (version, type, seq, ack, flags, payload); raises WireError naming the reason.
    """
    got = []

    def keep(d):
        got.append((d.version, d.type, d.seq, d.ack, d.flags, d.payload()))

    d = Decoder(keep)
    d.feed(data)
    if d._state:
        d.feed(b"\x00")  # a frame without its trailing delimiter is still judged
    if len(got) == 1 and d.dropped == 0:
        return got[0]
    if got:
        raise WireError("more than one frame")
    for reason in ("oversize", "bad_cobs", "runt", "bad_crc"):
        if getattr(d, reason):
            raise WireError(reason)
    raise WireError("empty")


# ---------------------------------------------------------------- payload helpers


def _int(v, bits, what):
    if not isinstance(v, int) or v < 0 or v >> bits:
        raise WireError(what + " out of range")
    return v


def _str8(s, limit):
    """Length-prefixed UTF-8, cut to `limit` bytes on a character boundary."""
    b = s.encode("utf-8") if isinstance(s, str) else bytes(s)
    if len(b) > limit:
        i = limit
        while i > 0 and (b[i] & 0xC0) == 0x80:
            i -= 1
        b = b[:i]
    return bytes((len(b),)) + b


def _uid(uid):
    uid = bytes(uid)
    if len(uid) not in UID_LENGTHS:
        raise WireError("uid must be 4, 7 or 10 bytes")
    return uid


def _need(p, n):
    if len(p) < n:
        raise WireError("short payload")


def _take(p, off, n):
    _need(p, off + n)
    return bytes(p[off : off + n]), off + n


def _utf8_strict(b):
    """True if b is UTF-8 as RFC 3629 has it: no overlong form, no surrogate, nothing past U+10FFFF."""
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            i += 1
            continue
        if c < 0xC2 or c > 0xF4:
            return False
        k = 1 if c < 0xE0 else 2 if c < 0xF0 else 3  # continuation bytes
        if i + k >= n:
            return False
        c1 = b[i + 1]
        # the second byte's range is narrower after E0 (overlong), ED (surrogates), F0 (overlong), F4 (> U+10FFFF)
        lo = 0xA0 if c == 0xE0 else 0x90 if c == 0xF0 else 0x80
        hi = 0x9F if c == 0xED else 0x8F if c == 0xF4 else 0xBF
        if c1 < lo or c1 > hi:
            return False
        for j in range(i + 2, i + k + 1):
            if b[j] & 0xC0 != 0x80:
                return False
        i += k + 1
    return True


def _lax_utf8():
    try:
        b"\xed\xa0\x80".decode("utf-8")  # a surrogate: CPython refuses it, MicroPython takes it
        return True
    except ValueError:
        return False


# MicroPython's decoder takes overlong forms and surrogates: there the text is checked by hand as well,
# so that the board refuses what the host refuses (PROTOCOL.md section 2).
_LAX_UTF8 = _lax_utf8()


def _take_str(p, off):
    _need(p, off + 1)
    raw, off = _take(p, off + 1, p[off])
    try:
        text = raw.decode("utf-8")
    except ValueError:  # UnicodeError on MicroPython, UnicodeDecodeError on CPython
        raise WireError("bad utf-8")
    if _LAX_UTF8 and not _utf8_strict(raw):
        raise WireError("bad utf-8")
    return text, off


def _enum(v, top, what):
    if v > top:
        raise WireError("unknown " + what)
    return v


# -- ACK, SEGMENTS_CLEAR: no payload


def empty():
    return b""


def _dec_empty(p):
    return {}


# -- HEARTBEAT


def heartbeat(uptime_ms, boot_id):
    return struct.pack("<II", _int(uptime_ms, 32, "uptime_ms"), _int(boot_id, 32, "boot_id"))


def _dec_heartbeat(p):
    _need(p, 8)
    up, boot = struct.unpack_from("<II", p, 0)
    return {"uptime_ms": up, "boot_id": boot}


# -- HELLO


def hello(boot_id, caps, readers, pixels, firmware, board, config_len=0, config_crc=0, proto=VERSION):
    head = struct.pack(
        "<BIHBHHH",
        _int(proto, 8, "proto"),
        _int(boot_id, 32, "boot_id"),
        _int(caps, 16, "caps"),
        _int(readers, 8, "readers"),
        _int(pixels, 16, "pixels"),
        _int(config_len, 16, "config_len"),
        _int(config_crc, 16, "config_crc"),
    )
    return head + _str8(firmware, NAME_MAX) + _str8(board, NAME_MAX)


def _dec_hello(p):
    _need(p, 14)
    proto, boot, caps, readers, pixels, clen, ccrc = struct.unpack_from("<BIHBHHH", p, 0)
    firmware, off = _take_str(p, 14)
    board, off = _take_str(p, off)
    return {
        "proto": proto,
        "boot_id": boot,
        "caps": caps,
        "readers": readers,
        "pixels": pixels,
        "config_len": clen,
        "config_crc": ccrc,
        "firmware": firmware,
        "board": board,
    }


# -- HELLO_ACK


def hello_ack(boot_id, proto=VERSION):
    return struct.pack("<BI", _int(proto, 8, "proto"), _int(boot_id, 32, "boot_id"))


def _dec_hello_ack(p):
    _need(p, 5)
    proto, boot = struct.unpack_from("<BI", p, 0)
    return {"proto": proto, "boot_id": boot}


# -- RESYNC


def resync(reason=RESYNC_CONNECT):
    return bytes((_int(reason, 8, "reason"),))


def _dec_resync(p):
    _need(p, 1)
    return {"reason": p[0]}


# -- SNAPSHOT


def snapshot(readers, counters=()):
    """readers: list of {"reader", "state", "uid"} (uid None unless PRESENT);
    counters: health counters, u16 each, saturating."""
    out = bytearray((_int(len(readers), 8, "reader count"),))
    for r in readers:
        state = _enum(_int(r["state"], 8, "state"), CROWDED, "reader state")
        uid = r.get("uid")
        if state == PRESENT:
            uid = _uid(uid)
        elif uid:
            raise WireError("uid given for a reader without a card")
        else:
            uid = b""
        out.extend(bytes((_int(r["reader"], 8, "reader"), state, len(uid))))
        out.extend(uid)
    out.append(_int(len(counters), 8, "counter count"))
    for c in counters:
        out.extend(struct.pack("<H", min(_int(c, 32, "counter"), 0xFFFF)))
    return bytes(out)


def _dec_snapshot(p):
    _need(p, 1)
    off = 1
    readers = []
    for _ in range(p[0]):
        _need(p, off + 3)
        index, state, ulen = p[off], p[off + 1], p[off + 2]
        _enum(state, CROWDED, "reader state")
        uid, off = _take(p, off + 3, ulen)
        if state == PRESENT:
            _uid(uid)
        elif ulen:
            raise WireError("uid given for a reader without a card")
        readers.append({"reader": index, "state": state, "uid": uid if ulen else None})
    _need(p, off + 1)
    count = p[off]
    off += 1
    _need(p, off + 2 * count)
    counters = [struct.unpack_from("<H", p, off + 2 * i)[0] for i in range(count)]
    return {"readers": readers, "counters": counters}


# -- TAP


def tap(reader, kind, time_ms, uid):
    uid = _uid(uid)
    kind = _enum(_int(kind, 8, "kind"), PLACED, "tap kind")
    return struct.pack("<BBIB", _int(reader, 8, "reader"), kind, _int(time_ms, 32, "time_ms"), len(uid)) + uid


def _dec_tap(p):
    _need(p, 7)
    reader, kind, t, ulen = struct.unpack_from("<BBIB", p, 0)
    _enum(kind, PLACED, "tap kind")
    uid, _ = _take(p, 7, ulen)
    return {"reader": reader, "kind": kind, "time_ms": t, "uid": _uid(uid)}


# -- READER_STATUS


def reader_status(reader, health, detail=0, version=0, inits=0, errors=0):
    health = _enum(_int(health, 8, "health"), READER_HEALTH_MAX, "reader health")
    return struct.pack("<BBBBHH", _int(reader, 8, "reader"), health, _int(detail, 8, "detail"),
                       _int(version, 8, "version"), min(_int(inits, 32, "inits"), 0xFFFF),
                       min(_int(errors, 32, "errors"), 0xFFFF))


def _dec_reader_status(p):
    _need(p, 8)
    reader, health, detail, version, inits, errors = struct.unpack_from("<BBBBHH", p, 0)
    _enum(health, READER_HEALTH_MAX, "reader health")
    return {"reader": reader, "health": health, "detail": detail, "version": version, "inits": inits,
            "errors": errors}


# -- ERROR and LOG


def error(code, text=""):
    return bytes((_int(code, 8, "code"),)) + _str8(text, TEXT_MAX)


def _dec_error(p):
    _need(p, 1)
    return {"code": p[0], "text": _take_str(p, 1)[0]}


def log(level, text):
    return bytes((_int(level, 8, "level"),)) + _str8(text, TEXT_MAX)


def _dec_log(p):
    _need(p, 1)
    return {"level": p[0], "text": _take_str(p, 1)[0]}


# -- SEGMENT_SET


def segment_set(segment, level, rgb, pattern, period_ms=0):
    r, g, b = rgb
    return struct.pack(
        "<BBBBBBH",
        _int(segment, 8, "segment"),
        _int(level, 8, "level"),
        _int(r, 8, "red"),
        _int(g, 8, "green"),
        _int(b, 8, "blue"),
        _enum(_int(pattern, 8, "pattern"), PULSE, "pattern"),
        _int(period_ms, 16, "period_ms"),
    )


def _dec_segment_set(p):
    _need(p, 8)
    seg, level, r, g, b, pattern, period = struct.unpack_from("<BBBBBBH", p, 0)
    _enum(pattern, PULSE, "pattern")
    return {"segment": seg, "level": level, "rgb": [r, g, b], "pattern": pattern, "period_ms": period}


# -- CONFIG_WRITE and CONFIG_STATUS


def config_write(offset, total, crc, data):
    data = bytes(data)
    if _int(offset, 16, "offset") + len(data) > _int(total, 16, "total"):
        raise WireError("chunk ends past the total length")
    return struct.pack("<HHH", offset, total, _int(crc, 16, "crc")) + data


def _dec_config_write(p):
    _need(p, 6)
    offset, total, crc = struct.unpack_from("<HHH", p, 0)
    data = bytes(p[6:])
    if offset + len(data) > total:
        raise WireError("chunk ends past the total length")
    return {"offset": offset, "total": total, "crc": crc, "data": data}


def config_status(status, total, crc):
    return struct.pack("<BHH", _int(status, 8, "status"), _int(total, 16, "total"), _int(crc, 16, "crc"))


def _dec_config_status(p):
    _need(p, 5)
    status, total, crc = struct.unpack_from("<BHH", p, 0)
    return {"status": status, "total": total, "crc": crc}


# -- REPL and BOOTLOADER carry a fixed 4-byte word so that no other payload can trigger them


def _magic(word):
    def enc():
        return word

    def dec(p):
        if bytes(p[:4]) != word:
            raise WireError("bad magic")
        return {}

    return enc, dec


repl, _dec_repl = _magic(b"REPL")
bootloader, _dec_bootloader = _magic(b"BOOT")


# ---------------------------------------------------------------- message registry

# code: (name, encoder taking keyword fields, decoder returning a dict of fields, reliable?)
MESSAGES = {
    ACK: ("ACK", empty, _dec_empty, False),
    HEARTBEAT: ("HEARTBEAT", heartbeat, _dec_heartbeat, False),
    HELLO: ("HELLO", hello, _dec_hello, False),
    HELLO_ACK: ("HELLO_ACK", hello_ack, _dec_hello_ack, False),
    RESYNC: ("RESYNC", resync, _dec_resync, False),
    SNAPSHOT: ("SNAPSHOT", snapshot, _dec_snapshot, True),
    TAP: ("TAP", tap, _dec_tap, True),
    ERROR: ("ERROR", error, _dec_error, True),
    LOG: ("LOG", log, _dec_log, False),
    CONFIG_STATUS: ("CONFIG_STATUS", config_status, _dec_config_status, True),
    READER_STATUS: ("READER_STATUS", reader_status, _dec_reader_status, True),
    SEGMENT_SET: ("SEGMENT_SET", segment_set, _dec_segment_set, True),
    SEGMENTS_CLEAR: ("SEGMENTS_CLEAR", empty, _dec_empty, True),
    CONFIG_WRITE: ("CONFIG_WRITE", config_write, _dec_config_write, True),
    REPL: ("REPL", repl, _dec_repl, True),
    BOOTLOADER: ("BOOTLOADER", bootloader, _dec_bootloader, True),
}
TYPES = {}
for _code in MESSAGES:
    TYPES[MESSAGES[_code][0]] = _code


def is_reliable(mtype):
    """True if messages of this type go through the Link window (send, not send_unreliable)."""
    entry = MESSAGES.get(mtype)
    return bool(entry and entry[3])


def encode_message(msg):
    """{"type": name, field: value...} -> (type code, payload bytes)."""
    code = TYPES.get(msg.get("type"))
    if code is None:
        raise WireError("unknown message type")
    fields = {}
    for k in msg:
        if k != "type":
            fields[k] = msg[k]
    try:
        payload = MESSAGES[code][1](**fields)
    except TypeError:
        raise WireError("wrong fields for " + msg["type"])
    if len(payload) > MAX_PAYLOAD:
        raise WireError("payload too long")
    return code, payload


def decode_message(mtype, payload):
    """(type code, payload) -> {"type": name, field: value...}; raises WireError.

    Bytes after the fields this version knows are ignored (see PROTOCOL.md, versioning).
    """
    entry = MESSAGES.get(mtype)
    if entry is None:
        raise WireError("unknown message type")
    msg = entry[2](payload)
    msg["type"] = entry[0]
    return msg


_BYTES_FIELDS = ("uid", "data")


def message_to_json(obj):
    """Copy of a message with bytes as lower-case hex strings (for logs and vectors)."""
    if isinstance(obj, dict):
        out = {}
        for k in obj:
            out[k] = message_to_json(obj[k])
        return out
    if isinstance(obj, list):
        return [message_to_json(v) for v in obj]
    if isinstance(obj, (bytes, bytearray)):
        from binascii import hexlify

        return hexlify(bytes(obj)).decode()  # MicroPython's hexlify is typed for bytes alone
    return obj


def message_from_json(obj):
    """Inverse of message_to_json: hex strings in "uid" and "data" fields become bytes."""
    if isinstance(obj, dict):
        out = {}
        for k in obj:
            v = obj[k]
            if k in _BYTES_FIELDS and isinstance(v, str):
                from binascii import unhexlify

                out[k] = unhexlify(v)
            else:
                out[k] = message_from_json(v)
        return out
    if isinstance(obj, list):
        return [message_from_json(v) for v in obj]
    return obj


# ---------------------------------------------------------------- link


def elapsed(now_ms, then_ms):
    """Milliseconds from then_ms to now_ms, modulo 2**30 (wraps like time.ticks_ms)."""
    return (now_ms - then_ms) & TICKS_MASK


class Link:
    """Sequence numbers, cumulative acks and go-back-N retransmission, without I/O.

    write(frame_bytes) sends bytes; deliver(mtype, payload) receives each message once,
    in order. Reliable frames wait in a window of at most `window` unacked frames and
    are all sent again when the oldest is `rto_ms` old. A frame is acked only after
    `deliver` returns for it.
    """

    def __init__(self, write, deliver, window=8, rto_ms=250, heartbeat_ms=1000, timeout_ms=3000):
        if not 1 <= window <= 127:
            raise ValueError("window must be 1..127")
        self.write = write
        self.deliver = deliver
        self.window = window
        self.rto_ms = rto_ms
        self.heartbeat_ms = heartbeat_ms
        self.timeout_ms = timeout_ms
        self.decoder = Decoder(self._on_frame)
        self.retransmits = 0
        self.duplicates = 0
        self.out_of_order = 0
        self.bad_acks = 0
        self.bad_version = 0
        self.last_rx_ms = None  # any good frame counts as a sign of life
        self.last_tx_ms = None
        self._now = 0
        self.reset()

    def reset(self):
        """Start a fresh numbering in both directions; unacked frames are discarded."""
        self.tx_seq = 0  # seq of the next reliable frame we send
        self.rx_next = 0  # seq we expect next; sent as the ack field of every frame
        self._unacked = []  # [seq, mtype, payload, last_sent_ms], oldest first
        self._ack_due = False
        self._fast = -1  # seq of the oldest frame last sent again early (see _on_ack)

    @property
    def in_flight(self):
        return len(self._unacked)

    def can_send(self):
        return len(self._unacked) < self.window

    def unacked(self, mtype):
        """The payloads of the `mtype` frames sent and not yet acknowledged, oldest first (allocates)."""
        return [e[2] for e in self._unacked if e[1] == mtype]

    def send(self, mtype, payload, now_ms):
        """Send reliably. Returns False (and sends nothing) when the window is full.

        The payload is kept for retransmission: pass bytes, not a buffer you will reuse.
        """
        if len(self._unacked) >= self.window:
            return False
        seq = self.tx_seq
        self.tx_seq = (seq + 1) & 0xFF
        self._unacked.append([seq, mtype, payload, now_ms])
        self._emit(mtype, payload, seq, RELIABLE, now_ms)
        return True

    def send_unreliable(self, mtype, payload, now_ms):
        """Send once, outside the window (heartbeats, hello, logs). Never blocked."""
        self._emit(mtype, payload, 0, 0, now_ms)

    def _emit(self, mtype, payload, seq, flags, now_ms):
        self._ack_due = False  # every frame carries our ack
        self.last_tx_ms = now_ms
        self.write(encode_frame(mtype, payload, seq, self.rx_next, flags))

    def feed(self, data, now_ms, count=-1):
        """Bytes from the wire. Delivers messages, then sends an ACK if one is owed."""
        self._now = now_ms
        self.decoder.feed(data, count)
        if self._ack_due:
            self._emit(ACK, b"", 0, 0, now_ms)

    def poll(self, now_ms):
        """Call often: retransmits on timeout and flushes an owed ACK."""
        unacked = self._unacked
        if unacked and elapsed(now_ms, unacked[0][3]) >= self.rto_ms:
            for entry in unacked:
                entry[3] = now_ms
                self.retransmits += 1
                self._emit(entry[1], entry[2], entry[0], RELIABLE, now_ms)
        if self._ack_due:
            self._emit(ACK, b"", 0, 0, now_ms)

    def heartbeat_due(self, now_ms):
        """True when nothing was sent for heartbeat_ms: the caller should send a HEARTBEAT."""
        return self.last_tx_ms is None or elapsed(now_ms, self.last_tx_ms) >= self.heartbeat_ms

    def peer_alive(self, now_ms):
        """False when no good frame arrived for timeout_ms (or ever)."""
        return self.last_rx_ms is not None and elapsed(now_ms, self.last_rx_ms) < self.timeout_ms

    def _on_frame(self, d):
        self.last_rx_ms = self._now
        if d.version != VERSION:
            # a peer speaking another version: only its HELLO is passed up, so the
            # application can report the mismatch; its seq/ack mean nothing to us
            self.bad_version += 1
            if d.type == HELLO and not d.flags & RELIABLE:
                self.deliver(d.type, d.payload())
            return
        if d.type not in (HELLO, HELLO_ACK, RESYNC):
            self._on_ack(d.ack, d.type == ACK)  # session frames cross a link reset: their ack means nothing
        if d.flags & RELIABLE:
            ahead = (d.seq - self.rx_next) & 0xFF
            if ahead == 0:
                self.deliver(d.type, d.payload())
                self.rx_next = (self.rx_next + 1) & 0xFF
            elif ahead >= 128:
                self.duplicates += 1  # already delivered: our ack was lost, ack again
            else:
                self.out_of_order += 1  # an earlier frame was lost: wait for go-back-N
            self._ack_due = True
        elif d.type != ACK:
            self.deliver(d.type, d.payload())

    def _on_ack(self, ack, bare=False):
        unacked = self._unacked
        if not unacked:
            if ack != self.tx_seq:
                self.bad_acks += 1
            return
        k = (ack - unacked[0][0]) & 0xFF  # how many of our oldest frames this ack covers
        if k > len(unacked):
            self.bad_acks += 1  # stale or from another session: ignore
        elif k:
            del unacked[:k]
        elif bare and unacked[0][0] != self._fast:
            # A bare ACK answers a reliable frame; one that releases none of ours says the frame
            # the peer got was not the one it waits for: our oldest was lost. Send the window
            # again now rather than after rto_ms (once per oldest frame): a board may lose its
            # power, and the taps waiting in its window with it, before the timer runs out.
            self._fast = unacked[0][0]
            now = self._now
            for entry in unacked:
                entry[3] = now
                self.retransmits += 1
                self._emit(entry[1], entry[2], entry[0], RELIABLE, now)


class BootWatch:
    """Remembers the peer's boot id. observe() says "first", "same" or "reboot"."""

    def __init__(self):
        self.boot_id = None
        self.reboots = 0

    def observe(self, boot_id):
        if self.boot_id is None:
            self.boot_id = boot_id
            return "first"
        if boot_id == self.boot_id:
            return "same"
        self.boot_id = boot_id
        self.reboots += 1
        return "reboot"
