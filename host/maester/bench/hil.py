"""`maester bench hil`: tap to light, measured through the path a player's tap takes.

A `maester sim-board` process (the unmodified firmware under MicroPython, simulated readers and
strip, a pty) is opened by its port name through table/board.py, the same code as a real board;
the table runner reads each tap against the game, the engine applies it and the log syncs it, and
the LEDs go back down the wire to the strip. Bots choose the moves of B'Twixt games (observed
chance: every hand card and ally is tapped), and each move a tap can say is made by laying the card
on its simulated reader, one at a time. Every reader keeps a card lying on it.

The board is paced (sim-board --paced, sim_mfrc522.SimClock): no reader transaction ends before
the time the simulators model for a board (SPI at 4 MHz, ~20 us per machine.SPI call, air time at
106 kbit/s, the chip's timer). The unix port runs a poll ~5x faster than that, so unpaced
(--unpaced) the poll detection stage undercounts a board's.

Both processes stamp what they see on CLOCK_MONOTONIC (the unix port's ticks_us reads it too):
the sim-board stamps each card laid, each serial read and write and each strip frame; the host
link stamps its reads and writes. Decoding the two byte streams afterwards gives, for each tap:

    placed ─ poll detection ─► TAP written by the firmware ─ wire up ─► read by the host
    ─ engine ─► SEGMENT_SET written by the host ─ wire down ─► read by the firmware
    ─ render ─► strip frame written

Taps whose move changes no LED have no light to time; they count in `taps`, not in the figures.
A light change that renders into the frame the strip already shows writes no frame (a seat going
idle near its pulse's low point: both are (1, 1, 1) after the gamma); the board stamps that render
apart ("shown"), and the light is timed by it, not by the next frame that differs.

The game log's append of each tap's move (the SQLite commit with synchronous=FULL: its fsync is
what keeps a move from being lost on a fault) is stamped too and shown apart (`log_sync`). It was
most of the host's stage ("engine and log") and its tail on a shared disk; the light now goes out
once the rules applied the move, before that append (table/runner.py), and the tap is acked after
it: "engine" is the rules and the lights, and `log_sync` follows the light.
"""

import json
import random
import sys
import tempfile
import time
from pathlib import Path

from maester_fw import wire

from ..engine.session import Session
from ..table import profile as P
from ..table.board import BoardTable, connect
from ..table.runner import sim_tags, sim_uid
from ..table.simtable import SimBoardClient, tap_for

STAGES = ("poll_detection", "wire_up", "engine", "wire_down", "render")
APPLY_TIMEOUT = 10.0
SPARE_UID = "04eeeeeeeeee%02x"  # stickers no game knows, lying on the readers before the first tap


def _frames(records):
    """[(t_us, type, seq, payload bytes)] of every good frame in a stamped byte stream."""
    out = []
    now = [0]

    def got(d):
        out.append((now[0], d.type, d.seq, bytes(d.payload())))
    dec = wire.Decoder(got)
    for t, data in records:
        now[0] = t
        dec.feed(data if isinstance(data, (bytes, bytearray)) else bytes.fromhex(data))
    return out


def read_board_trace(path):
    """The sim-board's stamps (firmware/sim/trace_sim.py), grouped by kind."""
    out = {"rx": [], "tx": [], "place": [], "strip": [], "shown": []}
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            out[rec[0]].append(rec[1:])
    return out


def _first(frames, after, match):
    for f in frames:
        if f[0] >= after and match(f):
            return f
    return None


def _percentile(values, q):
    if not values:
        return None
    v = sorted(values)
    return round(v[min(len(v) - 1, int(round(q / 100 * (len(v) - 1))))] / 1000, 2)


def _p50_p99(values):
    return {"p50_ms": _percentile(values, 50), "p99_ms": _percentile(values, 99)}


def analyse(board_trace, host_trace, placed_keys, cuts=(), log_spans=()):
    """Per tap, the time of each stage (µs), then its move's log append, then the whole;
    from the two stamped streams. See the module doc.

    `cuts`: when (µs) a move was made off the table (a seat page's choice); a light change after
    one belongs to that move, not to the tap before it. `log_spans`: (start, end) of each log append."""
    fw_tx = _frames(board_trace["tx"])
    fw_rx = _frames(board_trace["rx"])
    host_rx = _frames(host_trace["rx"])
    host_tx = _frames(host_trace["tx"])
    strips = sorted(s[0] for s in board_trace["strip"] + board_trace["shown"])  # the light on the strip
    rows = []
    places = board_trace["place"]
    for k, (t_place, reader, uid) in enumerate(places):
        if (reader, uid) not in placed_keys:
            continue  # a spare sticker laid before the game
        until = places[k + 1][0] if k + 1 < len(places) else float("inf")  # the next card laid...
        until = min([until] + [c for c in cuts if c > t_place])  # ...or the next move made off the table
        want = bytes.fromhex(uid)

        def is_tap(f):
            if f[1] != wire.TAP:
                return False
            m = wire.decode_message(wire.TAP, f[3])
            return m["reader"] == reader and m["kind"] == wire.PLACED and bytes(m["uid"]) == want
        sent = _first(fw_tx, t_place, is_tap)
        if sent is None:
            continue
        heard = _first(host_rx, sent[0], lambda f: f[1:] == sent[1:])
        if heard is None:
            continue
        seg = _first(host_tx, heard[0], lambda f: f[1] == wire.SEGMENT_SET)
        if seg is None or seg[0] > until:
            continue  # this move changed no light
        got = _first(fw_rx, seg[0], lambda f: f[1:] == seg[1:])
        if got is None:
            continue
        lit = next((t for t in strips if t >= got[0]), None)
        if lit is None:
            continue
        stamps = (t_place, sent[0], heard[0], seg[0], got[0], lit)
        log = next((b - a for a, b in log_spans if a >= heard[0]), 0)  # its move's, after the light
        rows.append([b - a for a, b in zip(stamps, stamps[1:])] + [log, lit - t_place])
    return rows


def run(taps=1000, profile_name="btwixt-3p", seed=1, progress=None, workdir=None, paced=True):
    """Lay `taps` cards, one move each, and return the figures (a dict)."""
    profile = P.load(profile_name)
    game, players = profile["game"], profile["players"]
    observe = list(__import__("maester.games.%s" % game, fromlist=["OBSERVABLE"]).OBSERVABLE)
    config = {"players": players, "variants": [], "observe": observe}
    places = P.places(profile)
    readers = [r["name"] for r in profile["readers"]]
    workdir = Path(workdir or tempfile.mkdtemp(prefix="maester-hil-"))
    host_trace = {"rx": [], "tx": []}
    rng = random.Random(seed)
    trace_path = workdir / "board-trace.jsonl"
    board = SimBoardClient(profile_name, trace=trace_path, paced=paced)
    counts = {"taps": 0, "lost": 0, "duplicated": 0, "refused": 0, "games": 0}
    cuts = []  # when moves were made off the table
    log_spans = []  # (start, end) µs of each game log append (analyse)
    placed_keys = set()
    try:
        for r in range(len(readers)):  # a card lying on every reader from the start
            board.tap(r, SPARE_UID % r)
        b = connect(board.port, profile, report=lambda text: None, trace=host_trace)
        polls0 = board.polls()
        t0 = time.monotonic()
        resting = {r: SPARE_UID % r for r in range(len(readers))}
        while counts["taps"] < taps:
            session = Session.new(game, config, seed + counts["games"], str(workdir / ("game%d.sqlite" % counts["games"])))
            _time_log(session.log, log_spans)
            refused = []
            table = BoardTable(b, session, sim_tags(session.state), report=refused.append)
            try:
                _play(session, table, board, places, readers, resting, rng, counts, placed_keys, taps, progress,
                      cuts)
            finally:
                counts["refused"] += len(refused)
                session.close()
            counts["games"] += 1
        seconds = time.monotonic() - t0
        b.link.wait_leds_synced(2.0)
        time.sleep(0.1)  # the last frame
        polls = sum(board.polls()) - sum(polls0)
        board.command("trace", timeout=60)  # flushed to its file
        board_trace = read_board_trace(trace_path)
        b.close()
    finally:
        board.stop()
    rows = analyse(board_trace, host_trace, placed_keys, cuts, log_spans)
    wire_bytes = sum(len(d) for _, d in host_trace["rx"]) + sum(len(d) for _, d in host_trace["tx"])
    out = {"taps": counts["taps"], "lost": counts["lost"], "duplicated": counts["duplicated"],
           "refused": counts["refused"], "timed": len(rows), "games": counts["games"],
           "p50_ms": _percentile([r[-1] for r in rows], 50), "p99_ms": _percentile([r[-1] for r in rows], 99),
           "max_ms": _percentile([r[-1] for r in rows], 100),
           "bytes_per_tap": round(wire_bytes / max(1, counts["taps"]), 1),
           "polls_per_s": round(polls / seconds, 1), "readers": len(readers), "profile": profile_name,
           "paced": paced,
           "stages": {name: _p50_p99([r[i] for r in rows]) for i, name in enumerate(STAGES)},
           "log_sync": _p50_p99([r[-2] for r in rows]),
           # the slowest taps, stage by stage (ms): what the tail is made of
           "slowest": [dict(zip(STAGES + ("log_sync", "total"), (round(v / 1000, 2) for v in r)))
                       for r in sorted(rows, key=lambda r: -r[-1])[:5]]}
    return out


def _time_log(log, spans):
    """Stamp each append to the game log (its commit and sync) into `spans`, on the traces' clock."""
    append = log.append

    def timed(*args, **kw):
        t0 = time.monotonic_ns() // 1000
        try:
            return append(*args, **kw)
        finally:
            spans.append((t0, time.monotonic_ns() // 1000))
    log.append = timed


def _play(session, table, board, places, readers, resting, rng, counts, placed_keys, taps, progress, cuts):
    runner = table.runner
    while not session.state["over"] and counts["taps"] < taps:
        state = session.state
        ask = state["asks"][0]
        command = {"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}
        found = tap_for(state, places, command)
        if found is None:
            cuts.append(time.monotonic_ns() // 1000)
            if not runner.submit(command).ok:
                raise RuntimeError("the engine refused a bot's move: %s" % command)
            continue
        place, card = found
        reader = readers.index(places[place])
        if resting.get(reader) is not None:
            board.lift(reader)  # answered once the board has seen it gone
        seq = state["seq"]
        board.tap(reader, card)
        resting[reader] = card
        placed_keys.add((reader, sim_uid(card)))
        counts["taps"] += 1
        if not runner.wait_for(lambda s: s["seq"] > seq, APPLY_TIMEOUT):
            counts["lost"] += 1
            runner.submit(command)  # keep the game going; the tap is counted lost
        elif session.state["seq"] > seq + 1:
            counts["duplicated"] += session.state["seq"] - seq - 1
        table.link.wait_leds_synced(2.0)
        time.sleep(0.03)  # the board renders within 20 ms of the change (50 Hz)
        if progress and counts["taps"] % 50 == 0:
            progress(counts["taps"], taps)


def cmd_hil(args):
    def progress(done, total):
        print("\r%d/%d taps" % (done, total), end="", file=sys.stderr, flush=True)
    out = run(args.taps, args.profile, args.seed, progress=None if args.json else progress,
              paced=not args.unpaced)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print()
    print("%d taps on %s (%d readers, %s): %d lost, %d duplicated, %d refused; %d timed (a light changed)"
          % (out["taps"], out["profile"], out["readers"], "paced: readers at a board's modelled time" if out["paced"]
             else "unpaced: readers as fast as the unix port", out["lost"], out["duplicated"], out["refused"],
             out["timed"]))
    print("placed → strip written: p50 %s ms, p99 %s ms, max %s ms" % (out["p50_ms"], out["p99_ms"], out["max_ms"]))
    for name in STAGES:
        st = out["stages"][name]
        print("  %-15s p50 %6s ms  p99 %6s ms" % (name.replace("_", " "), st["p50_ms"], st["p99_ms"]))
        if name == "engine":
            ls = out["log_sync"]
            print("    %-13s p50 %6s ms  p99 %6s ms  (the log's commit and fsync, after the light)" % ("then the log", ls["p50_ms"], ls["p99_ms"]))
    print("%.1f wire bytes per tap, %.1f reader polls per second" % (out["bytes_per_tap"], out["polls_per_s"]))
    return 0
