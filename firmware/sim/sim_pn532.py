"""A simulated PN532 at the SPI frame level, on the same SimSPI bus as the MFRC522 sim.

The host talks to it as to the chip (UM0701-02, SPI mode):
  CS low, first byte = operation: 0x01 data write (a command frame follows),
  0x02 status read (the next byte is the status, bit 0 = ready), 0x03 data read (the
  pending ACK or response frame follows).  All bytes LSB first on the wire; by default the
  host is an MSB-first SPI master (MicroPython rp2), so the driver reverses every byte and
  this model reverses them back (lsb_host=True models an LSB-capable master, e.g. ESP32).
Frames: 00 00 FF LEN LCS TFI data DCS 00 with LEN + LCS = 0 and TFI + data + DCS = 0 (mod
256); ACK = 00 00 FF 00 FF 00; application error = 00 00 FF 01 FF 7F 81 00.  A host ACK frame
aborts the running command.  The chip's frames start with `preamble` 00 bytes (one in the
manual's examples) before the start code 00 FF; `preamble=0` or more model chips and
modules that send none or several.

Commands: GetFirmwareVersion (0x02), GetGeneralStatus (0x04), SAMConfiguration (0x14),
RFConfiguration (0x32: item 1 field, item 2 timeouts, item 5 retries), InListPassiveTarget
(0x4A, 106 kbit/s type A), InDataExchange (0x40), InRelease (0x52).

Power (issue 24).  The chip starts asleep (power-down, LowVbat mode, UM0701-02 6.3.4.3): the fall
of NSS (CS) wakes it, and until its oscillator has started, `wake_us` later, it takes no byte and
drives no MISO.  2 ms is what Adafruit's Arduino driver allows (hold CS low 2 ms, PR #108); a slower
module is modelled with a larger `wake_us` (Adafruit's CircuitPython driver waits 10 ms).
`power(False)` cuts its supply; `power(True)` brings it back asleep, at its power-on settings
(MxRtyPassiveActivation retrying forever, no SAMConfiguration).

Modelling choices that need a real chip to confirm (see firmware/READERS.md):
  * InListPassiveTarget wakes cards with REQA, so a HALT card is not found.
  * InRelease only forgets the target; for a Type 2 tag nothing is sent on air (the card
    stays ACTIVE).
  * GetGeneralStatus reports in Err the last RF error, also after a failed activation.
  * Timing: ACK ready `ack_us` after the command frame, simple commands `cmd_us` later; an
    activation attempt without an answer costs `attempt_us`; InDataExchange waits
    the RFConfiguration item-2 timeout for an answer.
"""

from sim_cards import Field, activate, crc_a
from sim_mfrc522 import SimClock, SimPin, SimSPI

DW = 0x01
SR = 0x02
DR = 0x03

ACK = b"\x00\x00\xff\x00\xff\x00"


# The chip's side of the LSB-first SPI: written here again, not imported from the driver, so that a
# mistake in the driver's bit order cannot be mirrored by the simulator and slip past the tests.
def _rev8(b):
    r = 0
    for _ in range(8):
        r = (r << 1) | (b & 1)
        b >>= 1
    return r


REV = bytes([_rev8(i) for i in range(256)])


class SimPN532:
    def __init__(self, spi, cs=None, field=None, lsb_host=False, name="",
                 ack_us=200, cmd_us=300, attempt_us=1000, ic=0x32, ver=1, rev=6, preamble=1, wake_us=2000):
        self.wake_us = wake_us
        self.powered = True
        self.awake_at = -1  # asleep: -1; else when the oscillator is (or was) up
        self.holds_miso = False
        self.spi = spi
        self.clock = spi.clock
        self.cs = cs if cs is not None else SimPin(spi.clock)
        self.cs.dev = self
        spi.attach(self)
        self.field = field if field is not None else Field(name)
        self.name = name
        self.lsb_host = lsb_host
        self.ack_us = ack_us
        self.cmd_us = cmd_us
        self.attempt_us = attempt_us
        self.ic, self.ver, self.rev = ic, ver, rev
        self.preamble = preamble
        self.ack = bytes(preamble) + ACK[1:]
        self.inbuf = bytearray(300)
        self.in_n = 0
        self.resp = bytearray(300)
        self.resp_n = 0
        self.resp_at = 0
        self.resp_pending = False
        self.ack_at = 0
        self.ack_pending = False
        self.d = bytearray(64)         # response data (command code + 1, params)
        self.uidbuf = bytearray(10)
        self.rfbuf = bytearray(24)
        self._pos = 0
        self._op = 0
        self._rd = 0
        # chip state
        self.sam = False
        self.rf_enabled = True
        self.retries = 0xFF            # MxRtyPassiveActivation: power-on default retries forever
        self.rf_timeout_us = 51200     # assumed default of the item-2 timeout
        self.target = None
        self.target_uid_len = 0
        self.last_err = 0
        # statistics
        self.commands = 0
        self.bad_frames = 0
        self.aborts = 0
        self.status_reads = 0
        self.inlists = 0
        self.exchanges = 0
        self.last_cmd = -1

    # -- power -------------------------------------------------------------------------
    def power(self, on):
        if on and not self.powered:
            self.powered = True
            self.awake_at = -1
            self.sam = False
            self.rf_enabled = True
            self.retries = 0xFF
            self.rf_timeout_us = 51200
            self.target = None
            self.ack_pending = self.resp_pending = False
        elif not on:
            self.powered = False
            self.field.set_on(False)

    def power_cycle(self):
        self.power(False)
        self.power(True)

    def _awake(self):
        return self.powered and self.awake_at >= 0 and self.clock.now >= self.awake_at

    # -- SPI byte stream -----------------------------------------------------------------
    def cs_low(self):
        if self.powered and self.awake_at < 0:
            self.awake_at = self.clock.now + self.wake_us  # NSS falls: the oscillator starts
        self._pos = 0
        self._op = 0
        self._rd = 0

    def cs_high(self):
        if not self._awake():
            self._op = 0
            return
        if self._op == DW:
            self._command()
        elif self._op == DR:
            if self.ack_pending and self.clock.now >= self.ack_at:
                if self._rd >= len(self.ack):
                    self.ack_pending = False
            elif self.resp_pending and self.clock.now >= self.resp_at:
                if self._rd >= self.resp_n:
                    self.resp_pending = False
        self._op = 0

    def ready(self):
        now = self.clock.now
        if self.ack_pending:
            return now >= self.ack_at
        return self.resp_pending and now >= self.resp_at

    def xfer(self, b):
        if not self._awake():
            return None  # asleep or unpowered: takes nothing, drives nothing
        if not self.lsb_host:
            b = REV[b]
        out = 0
        if self._pos == 0:
            self._op = b
            if b == DW:
                self.in_n = 0
        else:
            op = self._op
            if op == DW:
                if self.in_n < 300:
                    self.inbuf[self.in_n] = b
                    self.in_n += 1
            elif op == SR:
                self.status_reads += 1
                out = 0x01 if self.ready() else 0x00
            elif op == DR:
                i = self._rd
                self._rd += 1
                if self.ack_pending:
                    if self.clock.now >= self.ack_at and i < len(self.ack):
                        out = self.ack[i]
                elif self.resp_pending and self.clock.now >= self.resp_at and i < self.resp_n:
                    out = self.resp[i]
        self._pos += 1
        return out if self.lsb_host else REV[out]

    # -- frames --------------------------------------------------------------------------
    def _command(self):
        buf = self.inbuf
        n = self.in_n
        i = 0
        while i + 1 < n and not (buf[i] == 0x00 and buf[i + 1] == 0xFF):
            i += 1
        if i + 3 >= n:
            self.bad_frames += 1
            return
        ln = buf[i + 2]
        lcs = buf[i + 3]
        if ln == 0x00 and lcs == 0xFF:          # host ACK: abort the running command
            self.aborts += 1
            self.ack_pending = False
            self.resp_pending = False
            return
        if (ln + lcs) & 0xFF or i + 4 + ln >= n:
            self.bad_frames += 1
            return
        s = 0
        for k in range(ln + 1):
            s += buf[i + 4 + k]
        if s & 0xFF or buf[i + 4] != 0xD4 or ln < 2:
            self.bad_frames += 1
            return
        self.commands += 1
        start = i + 5                            # command code
        cmd = buf[start]
        self.last_cmd = cmd
        now = self.clock.now
        self.ack_pending = True
        self.ack_at = now + self.ack_us
        self.resp_pending = False
        busy = self.cmd_us
        data = memoryview(buf)[start:start + ln - 1]
        d = self.d
        if cmd == 0x02:                          # GetFirmwareVersion
            d[0], d[1], d[2], d[3], d[4] = 0x03, self.ic, self.ver, self.rev, 0x07
            self._reply(5)
        elif cmd == 0x04:                        # GetGeneralStatus
            d[0], d[1], d[2] = 0x05, self.last_err, 1 if self.field.on else 0
            if self.target is not None:
                d[3], d[4], d[5], d[6], d[7], d[8] = 1, 1, 0, 0, 0, 0
                self._reply(9)
            else:
                d[3], d[4] = 0, 0
                self._reply(5)
        elif cmd == 0x14:                        # SAMConfiguration
            if len(data) >= 2 and data[1] == 0x01:
                self.sam = True
                d[0] = 0x15
                self._reply(1)
            else:
                self._error_frame()
        elif cmd == 0x32:                        # RFConfiguration
            item = data[1] if len(data) > 1 else -1
            if item == 0x01:
                self.rf_enabled = bool(data[2] & 1)
                self.field.set_on(self.rf_enabled)
                if not self.rf_enabled:
                    self.target = None
            elif item == 0x02:
                code = data[4]
                self.rf_timeout_us = 0 if code == 0 else 100 << (code - 1)
            elif item == 0x05:
                self.retries = data[4]
            d[0] = 0x33
            self._reply(1)
        elif cmd == 0x4A:                        # InListPassiveTarget
            self.inlists += 1
            busy += self._inlist(data)
        elif cmd == 0x40:                        # InDataExchange
            self.exchanges += 1
            busy += self._exchange(data)
        elif cmd == 0x52:                        # InRelease
            self.target = None
            d[0], d[1] = 0x53, 0x00
            self._reply(2)
        else:
            self._error_frame()
        self.resp_at = self.ack_at + busy

    def _start(self):
        """The preamble and the start code 00 FF into resp; returns where LEN goes."""
        r = self.resp
        p = self.preamble
        for i in range(p):
            r[i] = 0x00
        r[p], r[p + 1] = 0x00, 0xFF
        return p + 2

    def _reply(self, n):
        r = self.resp
        k = self._start()
        ln = n + 1
        r[k], r[k + 1], r[k + 2] = ln, (-ln) & 0xFF, 0xD5
        s = 0xD5
        for i in range(n):
            r[k + 3 + i] = self.d[i]
            s += self.d[i]
        r[k + 3 + n] = (-s) & 0xFF
        r[k + 4 + n] = 0x00
        self.resp_n = k + 5 + n
        self.resp_pending = True

    def _error_frame(self):
        r = self.resp
        k = self._start()
        for i, b in enumerate(b"\x01\xff\x7f\x81\x00"):
            r[k + i] = b
        self.resp_n = k + 5
        self.resp_pending = True

    # -- RF ------------------------------------------------------------------------------
    def _inlist(self, data):
        d = self.d
        if not self.sam:
            self._error_frame()
            return 0
        if len(data) < 3 or data[2] != 0x00:
            d[0], d[1] = 0x4B, 0
            self._reply(2)
            return 0
        self.target = None
        if not self.rf_enabled:
            self.last_err = 0x0A
            d[0], d[1] = 0x4B, 0
            self._reply(2)
            return 0
        self.field.set_on(True)
        attempts = self.retries + 1 if self.retries != 0xFF else 1000
        t = 0
        err = 0x01
        for _ in range(attempts):
            err, ulen, sak, atqa, air = activate(self.field, False, self.uidbuf)
            t += air + 150
            if err == 0:
                break
            if err == 0x01:
                t += self.attempt_us
        self.last_err = err
        if err != 0:
            d[0], d[1] = 0x4B, 0
            self._reply(2)
            return t
        self.target = True
        self.target_uid_len = ulen
        d[0], d[1], d[2] = 0x4B, 1, 1
        d[3], d[4], d[5], d[6] = atqa >> 8, atqa & 0xFF, sak, ulen
        for i in range(ulen):
            d[7 + i] = self.uidbuf[i]
        self._reply(7 + ulen)
        return t

    def _exchange(self, data):
        d = self.d
        d[0] = 0x41
        if self.target is None or len(data) < 2 or (data[1] & 0x0F) != 1:
            d[1] = 0x27                          # command not acceptable in this context
            self.last_err = 0x27
            self._reply(2)
            return 0
        n = len(data) - 2
        f = self.rfbuf
        for i in range(n):
            f[i] = data[2 + i]
        c = crc_a(f, 0, n)
        f[n] = c & 0xFF
        f[n + 1] = c >> 8
        fld = self.field
        nb = fld.transmit(f, (n + 2) * 8)
        t = fld.tx_us + 150
        if nb == 0:
            status = 0x01
            t += self.rf_timeout_us
            m = 0
        else:
            t += fld.rx_us
            m = 0
            if fld.parity_err:
                status = 0x03
            elif nb == 4:
                status = 0x14                    # the tag NAKed (4-bit answer)
            elif nb % 8 or nb < 24 or crc_a(fld.rx, 0, nb // 8 - 2) != (
                    fld.rx[nb // 8 - 2] | (fld.rx[nb // 8 - 1] << 8)):
                status = 0x02
            else:
                status = 0x00
                m = nb // 8 - 2
                for i in range(m):
                    d[2 + i] = fld.rx[i]
        self.last_err = status
        d[1] = status
        self._reply(2 + m)
        return t


class PN532Rig:
    """One SPI bus, one SimClock, `n` simulated PN532 readers each with its own CS pin."""

    def __init__(self, n=1, baud=1_000_000, call_us=20, lsb_host=False, wake_us=2000):
        self.clock = SimClock()
        self.spi = SimSPI(self.clock, baud, call_us)
        self.lsb_host = lsb_host
        self.chips = []
        for i in range(n):
            self.chips.append(SimPN532(self.spi, SimPin(self.clock), lsb_host=lsb_host,
                                       name="p%d" % i, wake_us=wake_us))

    def field(self, i=0):
        return self.chips[i].field

    def driver(self, i=0, **kw):
        from maester_fw.pn532 import PN532
        return PN532(self.spi, self.chips[i].cs, lsb_first=self.lsb_host,
                     sleep_us=self.clock.sleep_us, **kw)
