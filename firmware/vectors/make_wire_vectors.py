#!/usr/bin/env python3
"""Generate the wire golden vectors (firmware/vectors/wire.json) from the codec itself.

    python firmware/vectors/make_wire_vectors.py            # rewrite wire.json
    python firmware/vectors/make_wire_vectors.py --check    # exit 1 if wire.json is stale
    python firmware/vectors/make_wire_vectors.py --markdown # print the PROTOCOL.md examples

tests/firmware/test_wire.py checks that wire.json and the examples section of
PROTOCOL.md are exactly what this script produces, and that both CPython and MicroPython
decode every frame to its message and encode every message to its frame.
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from maester_fw import wire as w  # noqa: E402

OUT = HERE / "wire.json"
BOOT = 0x9E3779B9  # a boot id above 2**31: MicroPython must handle it as a long int
HOST_SESSION = 0x0000C0DE

ALL_CAPS = w.CAP_LEDS | w.CAP_BLINK | w.CAP_PULSE | w.CAP_CONFIG | w.CAP_REPL | w.CAP_BOOTLOADER
UID7 = bytes.fromhex("04a224e2c65d80")  # NTAG21x: 7-byte UID, NXP manufacturer byte 0x04
UID4 = bytes.fromhex("de ad be ef")
UID10 = bytes.fromhex("04112233445566778899")
CONFIG = (
    b'{"board": "pico-6r", "readers": [{"bus": "spi0", "cs": 5}, {"bus": "spi0", "cs": 6}],'
    b' "strips": [{"pin": 16, "pixels": 144}], "segments": {"round": [0, 7]}}'
)


def rel(seq, ack):
    return {"seq": seq, "ack": ack, "flags": w.RELIABLE}


def unrel(ack=0):
    return {"seq": 0, "ack": ack, "flags": 0}


def vectors():
    """(name, header fields, message) in a fixed order; messages are in decoded form."""
    return [
        ("ack", unrel(ack=5), {"type": "ACK"}),
        ("heartbeat_device", unrel(ack=2), {"type": "HEARTBEAT", "uptime_ms": 61234, "boot_id": BOOT}),
        ("heartbeat_host", unrel(ack=9), {"type": "HEARTBEAT", "uptime_ms": 5000, "boot_id": HOST_SESSION}),
        (
            "hello",
            unrel(),
            {
                "type": "HELLO",
                "proto": 1,
                "boot_id": BOOT,
                "caps": ALL_CAPS,
                "readers": 6,
                "pixels": 144,
                "config_len": len(CONFIG),
                "config_crc": w.crc16(CONFIG),
                "firmware": "0.1.0",
                "board": "pico-6r",
            },
        ),
        ("hello_ack", unrel(), {"type": "HELLO_ACK", "proto": 1, "boot_id": BOOT}),
        ("resync_connect", unrel(), {"type": "RESYNC", "reason": w.RESYNC_CONNECT}),
        (
            "snapshot",
            rel(0, 0),
            {
                "type": "SNAPSHOT",
                "readers": [
                    {"reader": 0, "state": w.PRESENT, "uid": UID7},
                    {"reader": 1, "state": w.ABSENT, "uid": None},
                    {"reader": 2, "state": w.PRESENT, "uid": UID4},
                    {"reader": 3, "state": w.FAULT, "uid": None},
                    {"reader": 4, "state": w.PRESENT, "uid": UID10},
                    {"reader": 5, "state": w.ABSENT, "uid": None},
                ],
                "counters": [0, 3, 1, 0, 12],
            },
        ),
        ("snapshot_empty", rel(0, 0), {"type": "SNAPSHOT", "readers": [], "counters": []}),
        ("tap_placed", rel(1, 0), {"type": "TAP", "reader": 2, "kind": w.PLACED, "time_ms": 73125, "uid": UID7}),
        ("tap_removed", rel(2, 1), {"type": "TAP", "reader": 2, "kind": w.REMOVED, "time_ms": 75990, "uid": UID4}),
        (
            "tap_seq_255",
            rel(255, 17),
            {"type": "TAP", "reader": 0, "kind": w.PLACED, "time_ms": 4294967295, "uid": UID10},
        ),
        (
            "tap_zero_bytes",
            rel(0, 0),
            {"type": "TAP", "reader": 0, "kind": w.REMOVED, "time_ms": 0, "uid": bytes(4)},
        ),
        (
            "segment_solid",
            rel(0, 3),
            {"type": "SEGMENT_SET", "segment": 0, "level": 255, "rgb": [255, 160, 0], "pattern": w.SOLID, "period_ms": 0},
        ),
        (
            "segment_blink",
            rel(1, 3),
            {"type": "SEGMENT_SET", "segment": 3, "level": 128, "rgb": [0, 0, 255], "pattern": w.BLINK, "period_ms": 500},
        ),
        (
            "segment_pulse",
            rel(2, 3),
            {"type": "SEGMENT_SET", "segment": 7, "level": 64, "rgb": [200, 0, 40], "pattern": w.PULSE, "period_ms": 2000},
        ),
        (
            "segment_off",
            rel(3, 3),
            {"type": "SEGMENT_SET", "segment": 7, "level": 0, "rgb": [0, 0, 0], "pattern": w.OFF, "period_ms": 0},
        ),
        ("segments_clear", rel(4, 3), {"type": "SEGMENTS_CLEAR"}),
        (
            "config_write_first",
            rel(5, 3),
            {"type": "CONFIG_WRITE", "offset": 0, "total": len(CONFIG), "crc": w.crc16(CONFIG), "data": CONFIG[:64]},
        ),
        (
            "config_write_max",
            rel(6, 3),
            {
                "type": "CONFIG_WRITE",
                "offset": 256,
                "total": 1024,
                "crc": 0x1D0F,
                "data": bytes((i * 7 + 1) & 0xFF or 0x55 for i in range(w.MAX_PAYLOAD - 6)),
            },
        ),
        ("config_status_ok", rel(3, 7), {"type": "CONFIG_STATUS", "status": w.CONFIG_OK, "total": len(CONFIG), "crc": w.crc16(CONFIG)}),
        ("repl", rel(8, 4), {"type": "REPL"}),
        ("bootloader", rel(9, 4), {"type": "BOOTLOADER"}),
        ("error", rel(4, 10), {"type": "ERROR", "code": w.ERR_UNSUPPORTED, "text": "pattern 3 needs CAP_PULSE"}),
        (
            "reader_status_fault",
            rel(5, 10),
            {"type": "READER_STATUS", "reader": 2, "health": w.READER_FAULT, "detail": 1, "version": 0x00,
             "inits": 3, "errors": 0},
        ),
        ("log_utf8", unrel(10), {"type": "LOG", "level": 20, "text": "lecteur 3 : carte retirée"}),
    ]


def _raw_frame(raw):
    """Wire bytes for arbitrary raw bytes (CRC not added): for building bad frames."""
    out = bytearray(len(raw) + len(raw) // 254 + 3)
    end = w.cobs_encode_into(raw, len(raw), out, 1)
    return bytes(out[: end + 1])


def _with_crc(raw):
    c = w.crc16(raw)
    return bytes(raw) + bytes((c & 0xFF, c >> 8))


def rejects():
    """Frames both decoders must drop, with the counter that must count them."""
    good = w.encode_frame(w.TAP, w.tap(2, w.PLACED, 73125, UID7), seq=1, flags=w.RELIABLE)
    raw = bytearray(w.decode_frame(good)[5])
    header = bytes((w.VERSION, w.TAP, 1, 0, w.RELIABLE))
    bad_crc = bytearray(_with_crc(header + bytes(raw)))
    bad_crc[-1] ^= 0x01
    flipped = bytearray(good)
    flipped[9] ^= 0x10  # one bit inside the payload
    over = _with_crc(bytes((w.VERSION, w.CONFIG_WRITE, 0, 0, 0)) + bytes(range(1, 248)))  # 247-byte payload
    return [
        ("bad_crc", _raw_frame(bad_crc), "bad_crc"),
        ("bit_flip", bytes(flipped), "bad_crc"),
        ("truncated", good[:-4] + b"\x00", "bad_cobs"),
        ("oversize", _raw_frame(over), "oversize"),
        # 253 data bytes fill the buffer exactly; the overflow is the zero implied before the next block
        ("oversize_at_implied_zero", _raw_frame(bytes(range(1, 254)) + b"\x00\x07"), "oversize"),
        ("runt", _raw_frame(_with_crc(bytes((w.VERSION, w.ACK, 0, 0)))), "runt"),
        ("cobs_block_past_end", bytes.fromhex("00 09 01 01 00 00"), "bad_cobs"),
    ]


def bad_payloads():
    """Good frames whose payload decode_message must refuse (WireError)."""
    return [
        ("tap_uid_5_bytes", w.TAP, bytes.fromhex("0201a51d010005") + bytes(5)),
        ("tap_kind_9", w.TAP, bytes.fromhex("0209a51d010004deadbeef")),
        ("tap_short", w.TAP, bytes.fromhex("0201a51d")),
        ("segment_pattern_9", w.SEGMENT_SET, bytes.fromhex("00ffffa000090000")),
        ("snapshot_present_without_uid", w.SNAPSHOT, bytes.fromhex("0100010000")),
        ("snapshot_absent_with_uid", w.SNAPSHOT, bytes.fromhex("01000004deadbeef00")),
        ("snapshot_counters_cut", w.SNAPSHOT, bytes.fromhex("000301000200")),
        ("hello_name_cut", w.HELLO, w.hello(BOOT, 1, 6, 144, "0.1.0", "pico-6r")[:-3]),
        ("log_bad_utf8", w.LOG, bytes.fromhex("1402c328")),
        ("config_write_past_total", w.CONFIG_WRITE, bytes.fromhex("0a000c000000") + b"abc"),
        ("repl_wrong_magic", w.REPL, b"REPX"),
        ("reader_status_health_9", w.READER_STATUS, bytes.fromhex("0209000000000000")),
        ("unknown_type", 0x7F, b""),
    ]


def build_doc():
    out = []
    for name, header, msg in vectors():
        mtype, payload = w.encode_message(msg)
        frame = w.encode_frame(mtype, payload, header["seq"], header["ack"], header["flags"])
        assert w.decode_message(mtype, w.decode_frame(frame)[5]) == msg, name  # canonical form
        out.append(
            {
                "name": name,
                "header": {"version": w.VERSION, "seq": header["seq"], "ack": header["ack"], "flags": header["flags"]},
                "message": w.message_to_json(msg),
                "frame_hex": frame.hex(),
            }
        )
    rej = []
    for name, frame, reason in rejects():
        try:
            w.decode_frame(frame)
        except w.WireError as e:
            assert str(e) == reason, (name, str(e))
        else:
            raise AssertionError(name + " decoded")
        rej.append({"name": name, "frame_hex": frame.hex(), "reason": reason})
    bad = []
    for name, mtype, payload in bad_payloads():
        try:
            w.decode_message(mtype, payload)
        except w.WireError:
            pass
        else:
            raise AssertionError(name + " decoded")
        bad.append({"name": name, "type": mtype, "payload_hex": payload.hex()})
    return {
        "about": "Golden vectors for firmware/maester_fw/wire.py; generated by make_wire_vectors.py, do not edit.",
        "protocol_version": w.VERSION,
        "max_payload": w.MAX_PAYLOAD,
        "max_frame": w.MAX_FRAME,
        "vectors": out,
        "rejects": rej,
        "bad_payloads": bad,
    }


def build():
    """The exact text of wire.json."""
    return json.dumps(build_doc(), indent=1, ensure_ascii=False) + "\n"


def _dump(data):
    lines = []
    for i in range(0, len(data), 16):
        chunk = data[i : i + 16]
        lines.append("%04x  %s" % (i, " ".join("%02x" % b for b in chunk)))
    return "\n".join(lines)


MARKDOWN_EXAMPLES = ("hello", "hello_ack", "snapshot", "tap_placed", "ack", "segment_pulse", "heartbeat_device", "tap_zero_bytes")


def markdown():
    """The byte-level examples section of PROTOCOL.md."""
    by_name = {v["name"]: v for v in build_doc()["vectors"]}
    parts = []
    for name in MARKDOWN_EXAMPLES:
        v = by_name[name]
        frame = bytes.fromhex(v["frame_hex"])
        version, mtype, seq, ack, flags, payload = w.decode_frame(frame)
        body = bytes((version, mtype, seq, ack, flags)) + payload
        c = w.crc16(body)
        parts.append(
            "#### `%s`\n\n```\nmessage  %s\nheader   version=%d type=0x%02x seq=%d ack=%d flags=0x%02x\n"
            "payload  %s\ncrc      %02x %02x\nwire (%d bytes)\n%s\n```\n"
            % (
                name,
                json.dumps(v["message"], ensure_ascii=False),
                version,
                mtype,
                seq,
                ack,
                flags,
                payload.hex(" ") if payload else "(empty)",
                c & 0xFF,
                c >> 8,
                len(frame),
                _dump(frame),
            )
        )
    return "\n".join(parts)


def main(argv):
    text = build()
    if "--markdown" in argv:
        sys.stdout.write(markdown())
        return 0
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print("%s is stale: run %s" % (OUT, Path(__file__).name))
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print("wrote %s (%d vectors)" % (OUT, len(build_doc()["vectors"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
