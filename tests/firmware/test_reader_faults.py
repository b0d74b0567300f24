"""Readers that fail the way real ones do (issue 24, items 2 to 4), under the real MicroPython unix port.

* the simulator against the MFRC522 datasheet: the power-on register values (section 9.3), ErrIRq,
  ErrorReg.CollErr and CollReg.CollPos raised at the colliding bit while the frame still arrives,
  the FIFO an early Idle leaves; a bus where a deselected module holds MISO low or MISO floats;
* the firmware against it, in memory (App on HalSim, a host Link in the same script, as
  test_app.py): a reader whose chip resets mid-game, two cards on one reader, a module that holds
  the bus, a floating MISO with no reader.
"""
import json

import pytest

from maester_fw import wire
from test_app import HEADER


def _records(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


RAW = r'''
import json
from sim_mfrc522 import Rig, SimSPI, SimClock, SimPin, SimMFRC522
from sim_cards import Card

def out(**kw):
    print(json.dumps(kw))

def rreg(rig, i, reg):
    d = rig.chips[i]
    buf = bytearray(2)
    rig.chips[i].cs.value(0)
    rig.spi.write_readinto(bytes([((reg << 1) & 0x7E) | 0x80, 0]), buf)
    rig.chips[i].cs.value(1)
    return buf[1]

def wreg(rig, i, reg, v):
    rig.chips[i].cs.value(0)
    rig.spi.write(bytes([(reg << 1) & 0x7E, v]))
    rig.chips[i].cs.value(1)
'''

# MFRC522 datasheet, section 9.3: every register's reset value (the tables of 9.3.1 to 9.3.4).
DATASHEET_RESET = {
    0x01: 0x20, 0x02: 0x80, 0x03: 0x00, 0x04: 0x14, 0x05: 0x00, 0x06: 0x00, 0x07: 0x21, 0x08: 0x00,
    0x0A: 0x00, 0x0B: 0x08, 0x0C: 0x10, 0x0D: 0x00, 0x0E: 0xA0,
    0x11: 0x3F, 0x12: 0x00, 0x13: 0x00, 0x14: 0x80, 0x15: 0x00, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84,
    0x19: 0x4D, 0x1C: 0x62, 0x1D: 0x00, 0x1F: 0xEB,
    0x21: 0xFF, 0x22: 0xFF, 0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20, 0x2A: 0x00,
    0x2B: 0x00, 0x2C: 0x00, 0x2D: 0x00,
    0x31: 0x00, 0x32: 0x00, 0x33: 0x80, 0x34: 0x00, 0x36: 0x40,
}


def test_a_chip_that_loses_power_comes_back_with_the_datasheet_reset_values(run_micropython):
    (r,) = _records(run_micropython(RAW + r'''
rig = Rig(1)
d = rig.driver(0)
assert d.init() == 0
configured = [rreg(rig, 0, a) for a in (0x2A, 0x2B, 0x15, 0x14)]
rig.chips[0].power(False)
off = rreg(rig, 0, 0x37)                  # unpowered: nothing drives MISO (the bus idles at 0xFF)
rig.chips[0].power(True)
regs = {a: rreg(rig, 0, a) for a in range(1, 0x37) if a not in (0x09, 0x2E, 0x2F, 0x35)}
out(configured=configured, off=off, regs=regs, version=rreg(rig, 0, 0x37))
''').stdout)
    assert r["configured"] == [0x80, 169, 0x40, 0x83]  # TAuto, the 25 us prescaler, 100 % ASK, antenna on
    assert r["off"] == 0xFF and r["version"] == 0x92
    regs = {int(k): v for k, v in r["regs"].items()}
    assert {a: regs[a] for a in DATASHEET_RESET} == DATASHEET_RESET


def test_a_collision_raises_errirq_and_collpos_at_the_colliding_bit_before_the_frame_ends(run_micropython):
    (r,) = _records(run_micropython(RAW + r'''
rig = Rig(1)
d = rig.driver(0)
d.init()
f = rig.field(0)
f.place(Card(bytes([0x11, 0x22, 0x33, 0x44])))            # ATQA 0x0004
f.place(Card(bytes([0x04, 1, 2, 3, 4, 5, 6])))            # ATQA 0x0044: bit 6 differs
res = {}
for stop in ("errirq", "rxirq"):
    d.antenna(False); d.antenna(True)                    # both cards IDLE again
    rig.clock.now += 5000                                # once powered up (sim_cards.POWER_UP_US)
    wreg(rig, 0, 0x01, 0x00); wreg(rig, 0, 0x04, 0x7F); wreg(rig, 0, 0x0A, 0x80)
    wreg(rig, 0, 0x09, 0x26)                             # REQA
    wreg(rig, 0, 0x0D, 0x07); wreg(rig, 0, 0x01, 0x0C); wreg(rig, 0, 0x0D, 0x87)
    seen = []
    t0 = rig.clock.now
    while True:
        irq = rreg(rig, 0, 0x04)
        if irq & 0x02 and not seen:
            seen.append(["err", rig.clock.now - t0, rreg(rig, 0, 0x0E), rreg(rig, 0, 0x06), irq & 0x20])
        if stop == "errirq" and irq & 0x02 or irq & 0x20:
            break
    seen.append(["end", rig.clock.now - t0, irq & 0x20])
    wreg(rig, 0, 0x01, 0x00)                             # Idle
    n = rreg(rig, 0, 0x0A)
    res[stop] = {"seen": seen, "fifo": [rreg(rig, 0, 0x09) for _ in range(n)]}
out(**res)
''').stdout)
    err, end = r["errirq"]["seen"]
    assert err[2] == 0x07 and err[3] & 0x08 and not err[4]  # CollPos bit 7 (1-based), CollErr, no RxIRq yet
    # Idle written a few register reads after the collision: the first byte had just completed, the
    # second never arrives (the reference drivers wait for RxIRq for this reason)
    assert r["errirq"]["fifo"] == [0x04]
    err, end = r["rxirq"]["seen"]
    assert end[2] and end[1] > err[1] + 50  # RxIRq comes when the rest of the ATQA has arrived
    # ValuesAfterColl = 0 (the driver's init): the colliding bit and the ones after it read 0
    assert r["rxirq"]["fifo"] == [0x04, 0x00]


def test_a_module_that_holds_miso_silences_the_others_and_a_floating_miso_reads_noise(run_micropython):
    (r,) = _records(run_micropython(RAW + r'''
rig = Rig(3)
rig.chips[0].holds_miso = True
versions = [rreg(rig, i, 0x37) for i in range(3)]
rig2 = Rig(1, idle=None)
rig2.chips[0].power(False)                         # no chip answers: MISO floats
noise = [rreg(rig2, 0, 0x37) for _ in range(8)]
out(versions=versions, noise=noise)
''').stdout)
    assert r["versions"] == [0x92, 0x00, 0x00]  # miguelbalboa/rfid#290: only the culprit answers
    assert len(set(r["noise"])) > 4


# -- the firmware, in memory ----------------------------------------------------------------------

MFRC = [{"type": "mfrc522", "cs": cs, "name": "seat%d" % i} for i, cs in enumerate((17, 20, 21))]


def _cfg(readers):
    return {"board": "t", "readers": readers, "leds": {"pin": 22, "pixels": 8}, "segments": {"all": [0, 8]},
            "poll": {"interval_ms": 20}}


TAPS = r'''
def taps(r):
    return [[m["reader"], m["kind"], m["uid"].hex()] for m in r.of("TAP")]
def health(r):
    return [[m["reader"], m["health"], m["detail"]] for m in r.of("READER_STATUS")]
def requests(r, i):
    return r.hal.table.chips[i].requests
def rebuild(r):
    """The board boots again on the table as it is now (a module wired wrong from the start)."""
    r.app = app.App(r.hal, config.validate(CFG), None, None, "cfg.json")
'''


@pytest.fixture
def firmware(run_micropython):
    def run(cfg, body, hal="HalSim"):
        head = HEADER % json.dumps(cfg)
        if hal != "HalSim":
            head += "from hal_esp32 import Esp32HalSim\n"
        return _records(run_micropython(head + TAPS + body.replace("HAL", hal), heap="4m", timeout=300).stdout)
    return run


def test_a_reader_whose_chip_resets_is_set_up_again_alone_and_reads_its_card_again(firmware):
    """Issue 24, item 2: before the fix the card was reported REMOVED and never read again."""
    (r,) = firmware(_cfg(MFRC[:2]), r'''
r = Rig(hal=HAL)
r.hal.table.place(0, UID)
r.handshake()
r.step(100)
before = taps(r)
r.hal.table.reset_reader(0)                 # a supply dip: chip 0 back at its power-on values
other = requests(r, 1)
r.step(500)
out(before=before, after=taps(r)[len(before):], health=health(r),
    reader0_reads=r.app.readers[0].presence.reads, present=r.app.readers[0].presence.present(),
    other_polls=requests(r, 1) - other, inits=r.app.readers[0].inits, inits1=r.app.readers[1].inits)
''')
    assert r["before"] == [[0, 1, "04a1b2c3d4e5f6"]] or r["before"] == []  # on the reader at boot: the snapshot's
    assert r["after"] == [], "the card never moved: no tap"
    assert r["present"] and r["reader0_reads"] > 5, "the card is read again"
    assert r["inits"] == 2 and r["inits1"] == 1, "that reader alone set up again"
    assert r["other_polls"] >= 45, "the other reader kept its rate (1 s at 20 ms a round: 50)"
    assert [0, wire.READER_RESET, 0] in r["health"] and r["health"][-1][:2] == [0, wire.READER_OK]


def test_two_cards_on_one_reader_are_a_reported_state_not_an_error_loop(firmware):
    """Issue 24, item 3: before the fix a 4-byte card and an NTAG together gave errors, never PLACED."""
    (r,) = firmware(_cfg(MFRC[:2]), r'''
r = Rig(hal=HAL)
r.handshake()
r.step(50)
r.hal.table.place(0, "11223344")            # a 4-byte UID card, ATQA 0x0004
r.step(100)
placed = taps(r)
r.hal.table.place(0, UID)                   # an NTAG slid onto it, ATQA 0x0044: REQA collides
r.step(200)
crowded = health(r)
errors = r.app.readers[0].presence.errors
both = taps(r)[len(placed):]
r.hal.table.remove(0, "11223344")           # the first one lifted: the NTAG alone
r.step(200)
out(placed=placed, both=both, crowded=crowded, errors=errors, after=taps(r)[len(placed):],
    health=health(r))
''')
    assert r["placed"] == [[0, 1, "11223344"]]
    assert r["both"] == [], "no tap while two cards lie there"
    assert r["errors"] < 5, "not an error loop"
    assert [0, wire.READER_CROWDED, 0] in r["crowded"]
    assert r["after"] == [[0, 0, "11223344"], [0, 1, "04a1b2c3d4e5f6"]]
    assert r["health"][-1][:2] == [0, wire.READER_OK]


def test_two_ntags_on_one_reader_collide_in_anticollision_and_are_reported(firmware):
    # same ATQA (0x0044): REQA does not collide, the UIDs do, mid-byte
    (r,) = firmware(_cfg(MFRC[:1]), r'''
r = Rig(hal=HAL)
r.handshake()
r.hal.table.place(0, "04a1b2c3d4e5f6")
r.hal.table.place(0, "04a1b3c3d4e5f6")
r.step(200)
r.hal.table.remove(0, "04a1b3c3d4e5f6")
r.step(200)
out(taps=taps(r), health=health(r), errors=r.app.readers[0].presence.errors)
''')
    assert r["taps"] == [[0, 1, "04a1b2c3d4e5f6"]] and r["errors"] < 5
    assert [0, wire.READER_CROWDED, 0] in r["health"] and r["health"][-1][:2] == [0, wire.READER_OK]


def test_a_module_that_holds_miso_is_named_and_the_others_are_its_victims(firmware):
    """Issue 24, item 4: before the fix every reader but the culprit showed FAULT, with no culprit."""
    (r,) = firmware(_cfg(MFRC), r'''
r = Rig(hal=HAL)
r.hal.table.wire(1, holds_miso=True)
rebuild(r)
r.handshake()
r.step(50)
snap = r.of("SNAPSHOT")[-1]
out(states=[x["state"] for x in snap["readers"]], health=health(r))
''')
    assert r["states"] == [wire.FAULT, wire.ABSENT, wire.FAULT]
    assert [1, wire.READER_HOLDS_BUS, 0] in r["health"]
    assert [0, wire.READER_FAULT, 2] in r["health"] and [2, wire.READER_FAULT, 2] in r["health"]  # detail: reader 1, + 1


def test_on_esp32_a_floating_miso_with_no_reader_is_not_taken_for_a_reader(firmware):
    cfg = dict(_cfg(MFRC[:1] + [{"type": "mfrc522", "cs": 21, "name": "ghost"}]),
               spi={"id": 1, "sck": 12, "mosi": 11, "miso": 13})  # hardware/pins/esp32s3.json
    (r,) = firmware(cfg, r'''
r = Rig(hal=HAL)
r.hal.table.wire(1, powered=False)         # nothing on CS 21: MISO floats on the S3 (no pull)
rebuild(r)
r.handshake()
r.step(20)
snap = r.of("SNAPSHOT")[-1]
out(states=[x["state"] for x in snap["readers"]], health=health(r))
''', hal="Esp32HalSim")
    assert r["states"] == [wire.ABSENT, wire.FAULT]


# -- PN532 wake-up (issue 24, item 7) ---------------------------------------------------------------

def test_a_pn532_that_wakes_slowly_comes_up_at_the_first_init(run_micropython):
    """Issue 24, item 7: before the fix a module needing 8 ms to wake failed init() and came up only
    at the next retry, 2 s later (FAULT in the first snapshot)."""
    (r,) = _records(run_micropython(r'''
import json
from sim_pn532 import PN532Rig
from sim_cards import Card
res = {}
for wake in (2000, 8000):
    rig = PN532Rig(1, wake_us=wake)
    d = rig.driver(0)
    t0 = rig.clock.now
    st = d.init()
    res[wake] = [st, (rig.clock.now - t0) // 1000, d.ic]
print(json.dumps(res))
''').stdout)
    for wake, (st, ms, ic) in r.items():
        assert st == 0 and ic == 0x32, (wake, st)
        assert ms < 30  # the wake-up costs a dummy byte and 10 ms, once


def test_a_pn532_that_loses_power_is_woken_and_set_up_again(firmware):
    (r,) = firmware(_cfg([{"type": "pn532", "cs": 17, "name": "centre"}]), r'''
r = Rig(hal=HAL)
r.hal.table.place(0, UID)
r.handshake()
r.step(100)
r.hal.table.reset_reader(0)
r.step(600)
out(taps=taps(r), health=health(r), present=r.app.readers[0].presence.present(), inits=r.app.readers[0].inits)
''')
    assert r["taps"] == [] and r["present"] and r["inits"] == 2
    assert [0, wire.READER_RESET, 0] in r["health"] and r["health"][-1][:2] == [0, wire.READER_OK]


def test_a_card_changed_while_its_reader_was_down_is_removed_then_placed_not_swapped_in_one_poll(firmware):
    # The host reads a REMOVED and a PLACED from the same poll as two cards on the reader
    # (table/runner.py); after the reader is back, the firmware cannot know when the card changed.
    (r,) = firmware(_cfg(MFRC[:2]), r'''
r = Rig(hal=HAL)
r.hal.table.place(0, "11223344")
r.handshake()
r.step(50)
r.hal.table.wire(0, powered=False)          # the reader's connector works loose
r.step(200)
r.hal.table.remove(0)
r.hal.table.place(0, UID)                   # meanwhile the card is swapped
r.hal.table.wire(0, powered=True)
r.step(1500)                                # the retry 2 s after the fault finds it again
out(taps=[[m["reader"], m["kind"], m["uid"].hex(), m["time_ms"]] for m in r.of("TAP")], health=health(r))
''')
    (gone, came) = r["taps"]
    assert gone[:3] == [0, 0, "11223344"] and came[:3] == [0, 1, "04a1b2c3d4e5f6"]
    assert came[3] > gone[3], "placed at a later poll than the removal"
    assert [0, wire.READER_FAULT, 0] in r["health"] and r["health"][-1][:2] == [0, wire.READER_OK]


def test_a_card_hidden_by_a_second_one_at_boot_is_not_announced_as_a_tap_when_it_is_alone_again(firmware):
    """A card lay on a reader before the board restarted (a power dip, a replug) and a second card
    lay on top of it as the board booted. The reader cannot tell which cards are there, so the boot's
    snapshot must not say "nothing": the host would take the card as lifted, and when the second card
    goes, the first one, which never moved, as a new tap: a move played twice (bench chaos, Intrigue
    seed 4). The snapshot says the reader is crowded (the host keeps what it believed), and when one
    card answers alone again a new snapshot tells which, never a TAP."""
    (r,) = firmware(_cfg(MFRC[:2]), r'''
r = Rig(hal=HAL)
r.hal.table.place(0, UID)                   # the card the game took before the restart
r.hal.table.place(0, "04f00dfacec0de")      # a stray card on top of it while the board boots
r.handshake()
r.step(100)
first = [js(s) for s in r.of("SNAPSHOT")]
r.hal.table.remove(0, "04f00dfacec0de")     # the stray taken away: the first card alone
r.step(200)
out(first=first, snaps=[js(s) for s in r.of("SNAPSHOT")], taps=taps(r), health=health(r))
''')
    crowded = {"reader": 0, "state": wire.CROWDED, "uid": None}
    assert r["first"][0]["readers"][0] == crowded, "a crowded reader is not reported empty"
    assert r["taps"] == [], "the card never moved: no tap"
    assert r["snaps"][-1]["readers"][0] == {"reader": 0, "state": wire.PRESENT, "uid": "04a1b2c3d4e5f6"}
    assert [h[1] for h in r["health"] if h[0] == 0][-1] in (wire.READER_OK, wire.READER_RESET)
    assert [0, wire.READER_CROWDED, 0] in r["health"] and r["health"][-1][:2] == [0, wire.READER_OK]


def test_a_card_hidden_at_boot_and_alone_again_before_the_handshake_is_the_snapshot_s_not_a_tap(firmware):
    """The same, with the second card gone while the board still waits for its host (a slow boot, a
    loaded host): the card is found after the boot's first polls, which would make it a tap queued
    for the host; it was there all along, so the first snapshot carries it."""
    (r,) = firmware(_cfg(MFRC[:2]), r'''
r = Rig(hal=HAL)
r.hal.table.place(0, UID)
r.hal.table.place(0, "04f00dfacec0de")
r.step(60, host=False)                      # the boot's first rounds: two cards answer
crowded = r.app.readers[0].presence.crowded
r.hal.table.remove(0, "04f00dfacec0de")
r.step(60, host=False)                      # the card alone, found after the boot's rounds
r.handshake()
r.step(100)
out(crowded=crowded, snaps=[js(s) for s in r.of("SNAPSHOT")], taps=taps(r))
''')
    assert r["crowded"]
    assert r["taps"] == [], "the card that lay there at boot is not a tap"
    assert r["snaps"][0]["readers"][0] == {"reader": 0, "state": wire.PRESENT, "uid": "04a1b2c3d4e5f6"}


def test_a_card_on_a_reader_that_was_down_at_the_handshake_reaches_the_host_when_it_reads_again(firmware):
    """A card laid while the board was off, and at the handshake a module held the bus (or the
    reader was down): the snapshot says FAULT for its reader, and the host keeps what it believed
    (nothing there). When the reader reads again, the card it finds is new to the host even though
    the board has seen it since boot, so it must be told: a new snapshot says what lies there (the
    host compares it with what it believed; a TAP would play a card the host already had twice).
    Before the fix the board counted the card as known and said nothing: the move was lost (bench
    chaos on the fast simulator, Oathbreaker seed 3006, a bus hog just after a replug)."""
    (r,) = firmware(_cfg(MFRC), r'''
r = Rig(hal=HAL)
r.hal.table.place(0, UID)
r.hal.table.wire(1, holds_miso=True)        # module 1 holds MISO as the board boots
rebuild(r)
r.handshake()
r.step(50)
first = [js(s) for s in r.of("SNAPSHOT")]
r.hal.table.wire(1, holds_miso=False)       # the bus is free again; reader 0 is set up again
r.step(1500)                                # past the 2 s retry of a reader that failed
out(first=first, snaps=[js(s) for s in r.of("SNAPSHOT")], taps=taps(r), health=health(r))
''')
    assert r["first"][0]["readers"][0]["state"] == wire.FAULT
    assert r["taps"] == [], "the card lay there before the handshake: the snapshot tells it, not a tap"
    assert r["snaps"][-1]["readers"][0] == {"reader": 0, "state": wire.PRESENT, "uid": "04a1b2c3d4e5f6"}
    assert [h[1] for h in r["health"] if h[0] == 0][-1] in (wire.READER_OK, wire.READER_RESET)


def test_a_card_read_at_boot_on_a_reader_down_at_the_handshake_is_told_when_it_reads_again(firmware):
    """The same when the reader had read the card before it went down (the bus held just after the
    boot's first rounds): the board knows the card, but the host was told FAULT, not the card."""
    (r,) = firmware(_cfg(MFRC), r'''
r = Rig(hal=HAL)
r.hal.table.place(0, UID)
r.step(60, host=False)                      # the boot's first rounds read the card
r.hal.table.wire(1, holds_miso=True)
r.step(100, host=False)                     # the held bus: the other readers go down
r.handshake()
r.step(50)
first = [js(s) for s in r.of("SNAPSHOT")]
r.hal.table.wire(1, holds_miso=False)
r.step(1500)
out(first=first, snaps=[js(s) for s in r.of("SNAPSHOT")], taps=taps(r))
''')
    assert r["first"][0]["readers"][0]["state"] == wire.FAULT
    assert r["taps"] == []
    assert r["snaps"][-1]["readers"][0] == {"reader": 0, "state": wire.PRESENT, "uid": "04a1b2c3d4e5f6"}


def test_a_poll_counts_as_seen_only_when_its_answer_could_be_read(firmware):
    """The simulator's poll count (`polls`, which simboard.settled waits on after a lift: "the
    firmware has had the time to see the card gone") counts a REQA/WUPA only when the chip's field
    is on and no other module holds MISO. Before, it counted the polls made while the bus was held,
    so bench chaos lifted a card, took it as seen gone, and laid it again while the firmware saw
    nothing: a tap no reader could see, counted lost (B'Twixt seed 3004)."""
    (r,) = firmware(_cfg(MFRC), r'''
r = Rig(hal=HAL)
r.handshake()
r.step(100)
a = requests(r, 0)
r.hal.table.wire(1, holds_miso=True)
r.step(100)
b = requests(r, 0)
r.hal.table.wire(1, holds_miso=False)
r.step(1500)
c = requests(r, 0)
r.hal.table.reset_reader(2)                 # chip 2 at its power-on values: its field is off
d = requests(r, 2)
r.step(10)
out(while_free=a, while_held=b - a, after=c - b, reset=requests(r, 2) - d)
''')
    assert r["while_free"] > 0 and r["after"] > 0
    assert r["while_held"] == 0, "polls whose answer the firmware cannot read are not counted"
    assert r["reset"] == 0
