"""The firmware main loop, written against a small hardware interface (`hal`).

The same code runs on a board (main.py builds the HAL from machine.SPI, Pin, the strip
and USB CDC) and under the MicroPython unix port (sim/hal_sim.py: simulated readers, a
virtual strip, a pty or an in-memory serial line).  See firmware/FIRMWARE.md.

One pass of the loop (`App.step`):

    read the serial bytes that are waiting -> Link -> Decoder -> _deliver(message)
    carry out what a message asked for once the Link has written its ACK
    session: HELLO every second until HELLO_ACK; host silent 3 s -> handshake again
    queued TAPs -> Link (reliable); Link.poll (retransmit); HEARTBEAT when quiet
    LED animation tick (a change the host sent is shown before the poll below)
    poll ONE reader (round robin, each reader at most once per poll.interval_ms; the one whose
    card was just lifted between every two others, HOT_MS, which only check their cards cheaply
    meanwhile); while its chip works alone the driver calls _serve, which reads the port and
    shows a light change; a card placed is written to the port as a TAP from inside the poll,
    as soon as its UID is known, before its HLTA (_on_presence)
    write what the TX buffer holds without blocking; feed the watchdog
    hal.idle(ms): wait for serial input until the next reader is due

A pass with nothing to send or receive allocates nothing (the test locks the heap):
receive and transmit buffers are made here once, the drivers and the presence machines
use fixed buffers, and every clock value is a small int.  Frames are built (and so
allocate) only when something happens: a tap, a message, a heartbeat a second.
"""

from maester_fw import wire
from maester_fw import config as configmod
from maester_fw.presence import (Presence, PLACED as P_PLACED, REMOVED as P_REMOVED,
                                 CROWDED as P_CROWDED, UNCROWDED as P_UNCROWDED)
from maester_fw.leds import Segments

# The host refuses a board whose version is not the one it ships (table/board.py), so a change the
# host must understand bumps it. 0.2 (issue 24): READER_STATUS frames, the SNAPSHOT state CROWDED,
# and a new SNAPSHOT when a reader the last one called FAULT or CROWDED knows its card again.
FIRMWARE = "maester-fw 0.2"
CAPS = (wire.CAP_LEDS | wire.CAP_BLINK | wire.CAP_PULSE | wire.CAP_CONFIG
        | wire.CAP_REPL | wire.CAP_BOOTLOADER)
HELLO_EVERY_MS = 1000
# A reader whose init() failed is tried again after FAULT_RETRY_MS, then after twice as
# long each time up to FAULT_RETRY_MAX_MS: an absent reader costs a try a minute, not one
# every 2 s, and one plugged in late still comes up within a minute.
FAULT_RETRY_MS = 2000
FAULT_RETRY_MAX_MS = 60000
# A reader whose chip stops responding (ERR_HW) is set up again at once when it no longer
# holds its configuration (a supply dip brings an MFRC522 back at its power-on values), and after
# HW_STREAK such polls in a row whatever it says.
HW_STREAK = 3
# A reader whose card was just lifted is where the next card is most likely laid (a player swaps
# one card for another): for HOT_MS after the removal it is polled between every two other
# polls and while the round waits for its interval, until it finds a card. The tap is then seen
# after one other reader's poll, not after a whole round of them (issue 29).
HOT_MS = 3000
LOOP_BUDGET_MS = 25  # a pass longer than this counts as an overrun (SNAPSHOT counter 4)
RX_CHUNK = 64  # serial bytes taken per read; at most RX_READS reads per pass
RX_READS = 8
TX_SIZE = 2048  # bytes waiting for the serial port; a frame that does not fit is dropped
TAP_QUEUE = 16  # taps waiting for room in the link window; overflow -> send a SNAPSHOT

# session states
HANDSHAKE = 0  # sending HELLO every second, waiting for a HELLO_ACK with our boot id
READY = 1  # the host answered: SNAPSHOT sent, events flow

# why run() returned
EXIT_REPL = "repl"
EXIT_BOOTLOADER = "bootloader"
EXIT_RECONFIGURE = "reconfigure"

_KIND = {P_PLACED: wire.PLACED, P_REMOVED: wire.REMOVED}


class NoStrip:
    """Stands in for a strip this port could not build (safe mode): frames go nowhere."""

    def write(self, buf):
        pass


class Reader:
    """One configured reader: its driver, its presence machine, and whether it answers.

    driver is None when the board could not build its bus or chip select (safe mode): the
    reader then stays FAULT and is never tried.

    Its health for the host (wire.READER_*): FAULT while init() fails (`detail`: 1 + the reader
    suspected of holding MISO low, 255 if MISO is held low by none that answers, else 0),
    HOLDS_BUS for that suspect, CROWDED while two cards answer, RESET after it was set up again
    until its next good poll, else OK.  The presence machine outlives a new init(), so a card
    that lay there through a reset is not announced again.
    """

    def __init__(self, index, rcfg, driver, poll):
        self.index = index
        self.name = rcfg["name"]
        self.type = rcfg["type"]
        self.driver = driver
        self.presence = None
        self.poll_cfg = poll
        self.fault = True
        self.inits = 0
        self.last_init = 0
        self.retry_ms = FAULT_RETRY_MS  # wait after this failure before the next try
        self.detail = 0
        self.suspect = False  # the bus check found MISO held low while this one answers
        self.recovered = False  # set up again after a fault or a reset: RESET until a good poll
        self.told = -1  # health and detail last queued for the host (health * 256 + detail)
        # The host has not been told what lies on this reader: a SNAPSHOT said CROWDED (two cards
        # answered before the reader knew its card) or FAULT (it was down), or none was sent yet
        # this boot; the host keeps what it believed. When it reads one card or none again, that
        # card may be one the host has (it never moved) or one laid while the board was off (the
        # host never saw it), and the board cannot tell which: a SNAPSHOT says what lies there and
        # the host compares, never a TAP (a card played twice) nor silence (a card lost).
        self.hidden = False

    def start(self, on_event, now):
        if self.driver is None:
            return False
        self.inits += 1
        self.last_init = now
        try:
            ok = self.driver.init() == 0
        except Exception:  # a dead bus must not stop the other readers
            ok = False
        if not ok:
            # the back-off grows while it stays down, and starts again when a working one fails
            self.retry_ms = min(2 * self.retry_ms, FAULT_RETRY_MAX_MS) if self.fault and self.inits > 1 else FAULT_RETRY_MS
        self.fault = not ok
        if ok:
            self.retry_ms = FAULT_RETRY_MS
            if self.presence is None:
                p = self.poll_cfg
                self.presence = Presence(self.driver, on_event, self.index, p["miss_limit"],
                                         p["confirm"], p["reselect_every"], p["bad_limit"])
            else:
                self.presence.resume()
                self.recovered = True
        return ok

    def health(self):
        if self.fault:
            return wire.READER_FAULT
        if self.suspect:
            return wire.READER_HOLDS_BUS
        p = self.presence
        if p is not None and p.crowded:
            return wire.READER_CROWDED
        if self.recovered:
            return wire.READER_RESET
        return wire.READER_OK

    def chip_version(self):
        """VersionReg of an MFRC522, the IC byte of a PN532 (0: not read)."""
        d = self.driver
        if d is None:
            return 0
        return d.ic if self.type == "pn532" else d.version


class App:
    def __init__(self, hal, cfg=None, raw_cfg=None, boot_id=None, config_path=None):
        self.hal = hal
        self.cfg = cfg = cfg or configmod.default(hal.platform)
        self.config_path = config_path or configmod.PATH
        self.boot_id = boot_id if boot_id is not None else hal.boot_id()
        self.exit = None
        self.state = HANDSHAKE
        # stored config as the host sees it in HELLO (0, 0: none stored, defaults in use)
        self.config_len = len(raw_cfg) if raw_cfg else 0
        self.config_crc = wire.crc16(raw_cfg) if raw_cfg else 0
        now = hal.ticks_ms()
        self._now = now  # the time of this pass, for _write
        self._t0 = now
        self._up = 0
        self._wraps = 0
        # The uptime this reader's poll stamps its taps with: read at its first event, kept for the
        # second (-1: no event yet in this poll; _poll_one, _tap_time)
        self._poll_at = -1

        self.problems = []  # (code, text) for the host, sent after every handshake
        self._pending_errors = []

        hal.begin(cfg)
        self.readers = []
        spi = None
        if cfg["readers"]:
            spi = self._build("spi", "SPI(%d)" % cfg["spi"]["id"], hal.spi, cfg["spi"])
        self._spi = spi
        self._miso = bytearray(4)
        for i, r in enumerate(cfg["readers"]):
            cs = None
            if spi is not None:
                cs = self._build("readers[%d].cs" % i, "pin %d" % r["cs"], hal.pin, r["cs"])
            driver = self._driver(r, spi, cs) if cs is not None else None
            self.readers.append(Reader(i, r, driver, cfg["poll"]))
        for r in self.readers:
            r.start(self._on_presence, now)
        self._bus_check()
        self._status_due = []  # readers whose health the host is to be told (READER_STATUS)
        self._interval = cfg["poll"]["interval_ms"]
        self._next_reader = 0
        self._round_start = now
        self._hot = -1  # the reader whose card was just lifted (HOT_MS), or -1
        self._hot_at = now
        self._rounds = 0  # completed rounds of polls since boot (counted up to 255)
        self._confirm = cfg["poll"]["confirm"]

        lc = cfg["leds"]
        strip = self._build("leds.pin", "pin %d" % lc["pin"], hal.strip, lc["pin"], lc["pixels"], lc["order"])
        self.strip = strip if strip is not None else NoStrip()
        self.leds = Segments(cfg["segments"], lc["pixels"], self.strip, lc["budget_ma"],
                             max_hz=lc["max_hz"], order=lc["order"])

        self.link = wire.Link(self._write, self._deliver)
        self._rx = bytearray(RX_CHUNK)
        # The drivers call this while a chip works alone (a frame on air, a card's reply, a PN532
        # busy): a light the host sent is read and shown then, not after the reader's poll, which
        # costs a board up to ~6 ms (issue 29). Bound once: a bound method made per call allocates.
        serve = self._serve
        for r in self.readers:
            if r.driver is not None:
                r.driver.serve = serve
        self._tx = bytearray(TX_SIZE)
        self._txv = memoryview(self._tx)
        self._tx_off = 0  # the queue is _tx[_tx_off:_tx_n]; a partial write moves the offset
        self._tx_n = 0
        self._hello_out = False  # True while the HELLO is being queued (see _write)
        self.tx_dropped = 0  # frames that did not fit the TX buffer (the Link resends reliable ones)
        self._hello = wire.hello(self.boot_id, CAPS, len(self.readers), lc["pixels"], FIRMWARE,
                                 cfg["board"], self.config_len, self.config_crc)
        self._taps = []
        self._snapshot_due = False
        self._told = False  # a SNAPSHOT went out this boot: the host knows what its readers held
        self._restart = False
        self.overruns = 0
        self.strip_us = 0  # how long the last strip write held the loop (SNAPSHOT counter 5)
        self.internal_errors = 0
        self._cfg_buf = None
        self._cfg_got = 0
        self._cfg_crc = 0
        self._stalled = False
        self._start_handshake(now)

    # -- set-up ------------------------------------------------------------------------------

    def _build(self, field, what, make, *args):
        """make(*args) for one part of the board the config names, or None if this port
        cannot build it (machine.SPI and machine.Pin raise ValueError, e.g. the esp32 port
        has no SPI(0)).  Raised out of here it would leave main() with the watchdog
        running: a reset every few seconds and never a HELLO, so the host could not send
        a better config.  The board runs without that part instead (safe mode) and the
        ERROR names the field."""
        try:
            return make(*args)
        except Exception as e:
            self.report(wire.ERR_CONFIG, "%s: %s cannot be built on this port: %s" % (field, what, e))
            return None

    def _driver(self, r, spi, cs):
        hal = self.hal
        if r["type"] == "mfrc522":
            from maester_fw.mfrc522 import MFRC522

            return MFRC522(spi, cs, sleep_us=hal.sleep_us, ticks_us=hal.ticks_us)
        from maester_fw.pn532 import PN532

        return PN532(spi, cs, sleep_us=hal.sleep_us)

    def report(self, code, text):
        """An ERROR for the host, e.g. a bad stored config.  Sent after every handshake, so
        a host that connects later learns it too."""
        self.problems.append((code, text))

    # -- the loop ----------------------------------------------------------------------------

    def run(self):
        """Loop until REPL, BOOTLOADER or a new config; returns why (EXIT_*)."""
        while self.exit is None:
            try:
                self.step()
            except Exception as e:  # a bug must not take the table down: report it, go on
                self.internal_errors += 1
                if self.internal_errors < 20:
                    self._send_error(wire.ERR_INTERNAL, "internal: %r" % (e,))
        self.drain(300)
        return self.exit

    def step(self):
        hal = self.hal
        link = self.link
        now = hal.ticks_ms()
        self._now = now
        self._clock(now)
        self._stalled = False  # the serial port took less than asked this pass (_on_presence)

        rx = self._rx
        for _ in range(RX_READS):
            n = hal.serial.readinto(rx)
            if not n:
                break
            link.feed(rx, now, n)
        if self._restart:
            self._restart = False
            self._start_handshake(now)
        if self.exit is not None:
            self._flush()
            return

        if self.state == HANDSHAKE:
            if wire.elapsed(now, self._hello_at) >= HELLO_EVERY_MS:
                self._start_handshake(now)
        else:
            if not link.peer_alive(now):
                self._start_handshake(now)  # the host went away: stop events, say HELLO
            else:
                self._send_taps(now)  # the taps the host is owed come before the snapshot
                if self._snapshot_due and not self._taps and self._rounds > self._confirm and link.can_send():
                    # Not before every reader has switched its field on (its first poll) and then
                    # been asked `confirm` times: a card that lay there all along must be in the
                    # snapshot, not announced afterwards as a tap (_on_presence drops those).
                    self._snapshot_due = False
                    self._told = True
                    link.send(wire.SNAPSHOT, self._snapshot(), now)
                while self._pending_errors and link.can_send():
                    code, text = self._pending_errors.pop(0)
                    link.send(wire.ERROR, wire.error(code, text), now)
                while self._status_due and not self._snapshot_due and link.can_send():
                    self._send_status(self.readers[self._status_due.pop(0)], now)
                link.poll(now)
                if link.heartbeat_due(now):
                    link.send_unreliable(wire.HEARTBEAT, wire.heartbeat(self.uptime(), self.boot_id), now)

        # The strip before the reader: a change the host sent is shown before this pass's poll,
        # which costs a board up to ~6 ms (a full SELECT, READERS.md), not after it (tap to light).
        self._show(now)
        wait = self._poll_reader(now)
        if self._taps and self.state == READY:
            self._send_taps(now)  # a tap this poll found goes out now, not after the idle below
        if not self._stalled:
            self._flush()
        hal.feed()
        took = wire.elapsed(hal.ticks_ms(), now)
        if took > LOOP_BUDGET_MS:
            self.overruns += 1
        if self.leds.animating and wait > 10:
            wait = 10  # keep blinks smooth; the rate limit in Segments does the rest
        hal.idle(wait)

    def _show(self, now):
        hal = self.hal
        t0 = hal.ticks_us()
        if self.leds.tick(now):
            self.strip_us = wire.elapsed(hal.ticks_us(), t0)

    def _serve(self):
        """Inside a reader's poll, while its chip works alone: take what the host sent and show a
        light change at once. Only reading and the strip: what a message asks of the session is
        done by the pass (step), as for a message read there. Allocates nothing when no byte came."""
        if self.state != READY:
            return  # a handshake is the pass's business; and only a session sends lights
        hal = self.hal
        rx = self._rx
        n = hal.serial.readinto(rx)
        if not n:
            if self.leds.changed:
                # a change read earlier that the strip's least gap between frames held back: shown
                # as soon as the gap is over, not after the rest of the poll and the pass (up to
                # ~6 ms of a SELECT; the render stage's p99 in `bench hil`, issue 29)
                self._show(hal.ticks_ms())
            return
        now = hal.ticks_ms()
        self._now = now
        link = self.link
        for _ in range(RX_READS):
            link.feed(rx, now, n)
            n = hal.serial.readinto(rx)
            if not n:
                break
        self._show(now)

    def _send_taps(self, now):
        while self._taps and self.link.can_send():
            self.link.send(wire.TAP, self._taps.pop(0), now)

    def _poll_reader(self, now):
        """Poll the next reader of this round (or the hot one: HOT_MS); returns how long the loop
        may idle (ms)."""
        readers = self.readers
        hot = self._hot
        if hot >= 0 and wire.elapsed(now, self._hot_at) >= HOT_MS:
            self._hot = hot = -1
        i = self._next_reader
        if i >= len(readers):
            left = self._interval - wire.elapsed(now, self._round_start)
            if left > 0:
                if hot >= 0:
                    self._poll_one(readers[hot], now)
                    return 0
                return left
            self._round_start = now
            self._next_reader = i = 0
            if self._rounds < 255:
                self._rounds += 1
            if not readers:
                return self._interval
        self._next_reader = i + 1
        self._poll_one(readers[i], now)
        hot = self._hot  # this poll may have made its reader the hot one
        if hot >= 0 and hot != i:
            # In the same pass, not the next: a card laid during the poll above is found without
            # the loop's own work of a pass (serial, link, LED tick, flush, idle) in between. The
            # other readers still get one poll a pass, so a lift elsewhere is seen as soon as
            # before (issue 29; READERS.md).
            self._poll_one(readers[hot], now)
        return 0

    def _poll_one(self, r, now):
        self._poll_at = -1  # a new poll: its taps get their own time (_tap_time)
        if r.fault:
            if wire.elapsed(now, r.last_init) >= r.retry_ms:
                if not r.start(self._on_presence, now):
                    self._bus_check()
        else:
            p = r.presence
            # While a reader waits for the card a player lays after a lift, this one's poll is what
            # the new card waits behind: its full SELECT (~6.6 ms on a board) waits, the first-level
            # check (~2 ms) still runs (READERS.md, issue 29).
            p.hold_reselect = self._hot >= 0 and r.index != self._hot
            if p.poll() == P_REMOVED and not p.crowded:
                self._hot = r.index
                self._hot_at = now
            elif r.index == self._hot and (p.present() or p.crowded):
                self._hot = -1  # it found its card
            if p.crowded and not self._told and not p.present():
                r.hidden = True  # at boot: the card under the other may be one the host has
            elif r.hidden and p.sure:
                r.hidden = False  # one card or none again, and known: the host is told which
                self._snapshot_due = self.state == READY  # else the next handshake's snapshot tells
            if p.hw_run:
                # the chip did not respond: a supply dip may have reset it; set it up again,
                # this reader alone (issue 24)
                if p.hw_run >= HW_STREAK or not r.driver.configured():
                    if not r.start(self._on_presence, now):
                        self._bus_check()
            elif r.recovered:
                r.recovered = False  # a good poll since it was set up again
        self._tell_health(r)

    # -- reader health -----------------------------------------------------------------------

    def _tell_health(self, r):
        """Queue a READER_STATUS when this reader's health changed (no allocation otherwise)."""
        code = r.health() * 256 + (r.detail if r.fault else 0)
        if code == r.told:
            return
        r.told = code
        if self.state == READY and r.index not in self._status_due:
            self._status_due.append(r.index)  # after a handshake every reader is told anyway

    def _send_status(self, r, now):
        p = r.presence
        self.link.send(wire.READER_STATUS,
                       wire.reader_status(r.index, r.health(), r.detail if r.fault else 0, r.chip_version(),
                                          r.inits, p.errors if p is not None else 0), now)

    def _bus_check(self):
        """Which reader holds MISO low, by elimination (miguelbalboa/rfid#290).

        A module whose MISO does not go high-impedance when deselected pulls the line low, and
        every other reader reads 0x00 from its version register.  With every chip select high,
        MISO then reads 0x00 (main.py pulls it up, so an empty bus reads 0xFF; on an ESP32-S3
        without a pull it reads noise).  If exactly one reader still answers, it is the one
        selected when the others are not: the suspect.  Runs after inits that failed.
        """
        spi = self._spi
        if spi is None:
            return
        held = False
        for r in self.readers:
            if r.fault:
                spi.readinto(self._miso, 0xFF)
                m = self._miso
                held = m[0] == 0 and m[1] == 0 and m[2] == 0 and m[3] == 0
                break
        culprit = None
        answering = 0
        if held:
            for r in self.readers:
                if not r.fault:
                    answering += 1
                    culprit = r
        if answering != 1:
            culprit = None  # none, or several: no one to blame by elimination
        for r in self.readers:
            r.suspect = r is culprit
            r.detail = 0
            if held and r.fault:
                r.detail = culprit.index + 1 if culprit is not None else 255

    def _clock(self, now):
        up = wire.elapsed(now, self._t0)
        if up < self._up:
            self._wraps += 1
        self._up = up

    def _tap_time(self):
        """TAP.time_ms: the uptime when this poll found its first event, shared by a second one.

        The host reads a REMOVED and a PLACED with the same time as one card turned into another in
        a single poll, two cards on the reader (table/runner.py). So the stamp is the poll's, not
        the pass's start: a pass can poll another reader (a full SELECT, ~6.6 ms on a board) and
        then the hot one, whose card was laid meanwhile, and stamped with the pass's start that
        card shared the time of the removal a pass that started in the same millisecond had told
        (the table chain test's "two cards" flake, issue 29). Read once a poll: a swap's two
        events straddling a millisecond must still read as one poll."""
        if self._poll_at < 0:
            self._clock(self.hal.ticks_ms())
            self._poll_at = self.uptime()
        return self._poll_at

    def uptime(self):
        """Milliseconds since boot, modulo 2**32 (TAP.time_ms and HEARTBEAT.uptime_ms)."""
        return ((self._wraps << 30) + self._up) & 0xFFFFFFFF

    # -- session -----------------------------------------------------------------------------

    def _start_handshake(self, now):
        # PROTOCOL.md 5.2: reset the link before every HELLO, so a HELLO always means
        # "numbering starts at 0"; nothing reliable goes out until the HELLO_ACK
        self.state = HANDSHAKE
        # The taps the host has not acked are still owed: sent again first thing in the next
        # session, before its SNAPSHOT (a host that already has one drops it by its identity).
        # A card lifted and laid again leaves the table looking unchanged: only the taps tell.
        owed = self.link.unacked(wire.TAP) + self._taps
        self._taps = owed if len(owed) <= TAP_QUEUE else []  # too many: the snapshot alone
        self._snapshot_due = False
        self.link.reset()
        self._hello_at = now
        if not self.link.peer_alive(now):
            self._tx_off = self._tx_n = 0  # what the silent host did not take: see _write
        self._hello_out = True
        self.link.send_unreliable(wire.HELLO, self._hello, now)
        self._hello_out = False

    def _snapshot(self):
        rows = []
        errors = 0
        resets = 0
        for r in self.readers:
            resets += r.inits - 1 if r.inits else 0
            p = r.presence
            if r.fault or p is None:
                r.hidden = True  # as crowded: what it finds when it reads again, a SNAPSHOT says
                rows.append({"reader": r.index, "state": wire.FAULT, "uid": None})
                continue
            errors += p.errors
            if p.crowded and not p.present():
                r.hidden = True
                rows.append({"reader": r.index, "state": wire.CROWDED, "uid": None})
            elif p.present():
                rows.append({"reader": r.index, "state": wire.PRESENT, "uid": bytes(p.uid[:p.uid_len])})
            else:
                rows.append({"reader": r.index, "state": wire.ABSENT, "uid": None})
        counters = (self.link.decoder.dropped, self.link.retransmits, errors, resets, self.overruns, self.strip_us)
        return wire.snapshot(rows, counters)

    def _on_presence(self, p, kind):
        # called from Presence.poll: PLACED, or REMOVED while p.uid still holds the old card
        if kind == P_CROWDED or kind == P_UNCROWDED:
            return  # a health change, told by _tell_health after the poll
        if self._rounds <= self._confirm:
            return  # still finding what lay there at boot: the first SNAPSHOT carries it
        if self.readers[p.index].hidden:
            return  # the host does not know what lies there (crowded): a SNAPSHOT will say
        # Queued also while no host listens (HANDSHAKE): sent first in the next session, so a
        # card lifted and laid again meanwhile is not lost (see _start_handshake).
        if len(self._taps) >= TAP_QUEUE:
            self._taps = []  # too many: the next snapshot carries the table as it is now
            self._snapshot_due = self.state == READY
            return
        self._taps.append(wire.tap(p.index, _KIND[kind], self._tap_time(), bytes(p.uid[:p.uid_len])))
        if self.state == READY and not self._stalled:
            # Out now, from inside the reader's poll: before the card's HLTA and the rest of the
            # pass (the presence machine tells a new card as soon as its UID is known, issue 29).
            # A port that took less than asked (a host that does not read) is not written again
            # in this pass: at most one blocked write a pass (see _write).
            self._send_taps(self._now)
            self._stalled = not self._flush()

    # -- messages from the host --------------------------------------------------------------

    def _deliver(self, mtype, payload):
        """Called by the Link once per message.  Must not raise (PROTOCOL.md section 4)."""
        reliable = self.link.decoder.flags & wire.RELIABLE
        try:
            msg = wire.decode_message(mtype, payload)
        except wire.WireError as e:
            if mtype not in wire.MESSAGES:
                if reliable:  # an unknown unreliable type is ignored (versioning rule)
                    self._send_error(wire.ERR_UNKNOWN_TYPE, "unknown message type 0x%02x" % mtype)
            else:
                self._send_error(wire.ERR_BAD_PAYLOAD, "%s: %s" % (wire.MESSAGES[mtype][0], e))
            return
        if mtype == wire.HELLO_ACK:
            if self.state == HANDSHAKE and msg["boot_id"] == self.boot_id and msg["proto"] == wire.VERSION:
                self.state = READY
                self._restart = False  # a RESYNC read in the same pass came first: this answers it
                self._snapshot_due = True  # always the first reliable frame of a session
                self._pending_errors = self.problems[:]
                self._status_due = list(range(len(self.readers)))  # each reader's health, after the snapshot
        elif mtype == wire.RESYNC:
            self._restart = True
        elif mtype == wire.HEARTBEAT:
            pass  # any good frame already counts as a sign of life
        elif mtype == wire.SEGMENT_SET:
            try:
                self.leds.set(msg["segment"], msg["level"], msg["rgb"][0], msg["rgb"][1],
                              msg["rgb"][2], msg["pattern"], msg["period_ms"])
            except ValueError as e:
                self._send_error(wire.ERR_BAD_PAYLOAD, str(e))
        elif mtype == wire.SEGMENTS_CLEAR:
            self.leds.clear()
        elif mtype == wire.CONFIG_WRITE:
            self._config_chunk(msg)
        elif mtype == wire.REPL:
            self.exit = EXIT_REPL  # acted on after the Link has written the ACK
        elif mtype == wire.BOOTLOADER:
            self.exit = EXIT_BOOTLOADER
        elif reliable:
            self._send_error(wire.ERR_UNSUPPORTED, msg["type"] + " goes from the device to the host")

    def _send_error(self, code, text):
        if self.state == READY and self.link.can_send():
            self.link.send(wire.ERROR, wire.error(code, text), self.hal.ticks_ms())
        else:  # before the handshake only unreliable frames may go out
            self.link.send_unreliable(wire.LOG, wire.log(40, text), self.hal.ticks_ms())

    def _config_status(self, status, total, crc):
        if self.link.can_send():
            self.link.send(wire.CONFIG_STATUS, wire.config_status(status, total, crc), self.hal.ticks_ms())

    def _config_chunk(self, m):
        off, total, crc, data = m["offset"], m["total"], m["crc"], m["data"]
        if total > configmod.MAX_BYTES:
            self._cfg_buf = None
            return self._config_status(wire.CONFIG_TOO_BIG, total, crc)
        if off == 0:
            self._cfg_buf = bytearray(total)
            self._cfg_got = 0
            self._cfg_crc = crc
        buf = self._cfg_buf
        if buf is None or off != self._cfg_got or total != len(buf) or crc != self._cfg_crc:
            self._cfg_buf = None
            return self._config_status(wire.CONFIG_BAD_OFFSET, total, crc)
        buf[off:off + len(data)] = data
        self._cfg_got = off + len(data)
        if self._cfg_got < total:
            return
        self._cfg_buf = None
        if wire.crc16(buf) != crc:
            return self._config_status(wire.CONFIG_BAD_CRC, total, crc)
        try:
            configmod.parse(buf)
        except configmod.ConfigError as e:
            self._config_status(wire.CONFIG_INVALID, total, crc)
            return self._send_error(wire.ERR_CONFIG, str(e))
        try:
            configmod.save(self.config_path, bytes(buf))
        except OSError as e:
            self._config_status(wire.CONFIG_INVALID, total, crc)
            return self._send_error(wire.ERR_CONFIG, "cannot store the config: %r" % (e,))
        self._config_status(wire.CONFIG_OK, total, crc)
        self.exit = EXIT_RECONFIGURE  # main() rebuilds the app, which then says HELLO

    # -- serial out --------------------------------------------------------------------------

    def _write(self, frame):
        """The Link's write: queue a frame.  The serial port is written by _flush, one
        write per pass, and only when the port says it has room.

        That is not enough on the esp32 port: its stdout always says "writable", and a
        write to a host that holds the port open without reading waits for the USB TX
        timeout (500 ms with TinyUSB CDC).  So while the host is silent (no good frame
        for 3 s, or none yet) the board queues nothing but its HELLO, once a second, and
        drops the rest: at most one blocked write per pass and a HELLO's worth per second.
        """
        if not self._hello_out and not self.link.peer_alive(self._now):
            self.tx_dropped += 1
            return
        n = len(frame)
        end = self._tx_n
        off = self._tx_off
        if end + n > TX_SIZE and off:
            # no room at the back: move what is still queued to the front, once, rather
            # than after every partial write (memmove: the two ranges may overlap)
            self._txv[:end - off] = self._txv[off:end]
            self._tx_off = 0
            self._tx_n = end = end - off
        if end + n > TX_SIZE:
            self.tx_dropped += 1  # reliable frames come again on retransmit
            return
        self._tx[end:end + n] = frame
        self._tx_n = end + n

    def _flush(self):
        """One write of what is queued; True when the port took all of it."""
        off = self._tx_off
        n = self._tx_n - off
        if not n:
            return True
        # after a partial write the rest starts at the offset: a view, made only then
        w = self.hal.serial.write(self._txv[off:] if off else self._tx, n)
        if not w:
            if not self.link.peer_alive(self._now):
                # a silent host took nothing: drop it, or every pass would wait again;
                # the next HELLO comes in a second
                self._tx_off = self._tx_n = 0
            return False
        if w >= n:
            self._tx_off = self._tx_n = 0
            return True
        self._tx_off = off + w
        return False

    def drain(self, ms):
        """Write out what is queued (the ACK of a REPL command, a CONFIG_STATUS), for up to ms."""
        t0 = self.hal.ticks_ms()
        while self._tx_n and wire.elapsed(self.hal.ticks_ms(), t0) < ms:
            self._flush()
            self.hal.idle(1)


def main(hal, config_path=None):
    """Boot: load the config, run the app, rebuild it after a CONFIG_WRITE.

    Returns EXIT_REPL (main.py then leaves the REPL to the user) or never returns.
    """
    path = config_path or configmod.PATH
    boot_id = hal.boot_id()
    hal.kbd_intr(-1)  # 0x03 inside a frame is data, not Ctrl-C
    try:
        while True:
            problem = None
            try:
                cfg, raw = configmod.load(path, hal.platform)
            except configmod.ConfigError as e:
                cfg, raw = configmod.default(hal.platform), None
                problem = "stored config refused, using defaults: " + str(e)
            app = App(hal, cfg, raw, boot_id, path)
            if problem:
                app.report(wire.ERR_CONFIG, problem)
            why = app.run()
            if why != EXIT_RECONFIGURE:
                break  # else: same boot id, not a reboot; the new HELLO shows the new config
    finally:
        hal.kbd_intr(3)  # also if something escapes: Ctrl-C must work at the REPL
    if why == EXIT_BOOTLOADER:
        hal.bootloader()
    return why
