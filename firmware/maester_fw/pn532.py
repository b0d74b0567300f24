"""PN532 (NXP) reader driver over SPI, for MicroPython; also runs on CPython.

SPI mode 0, LSB first, at most 5 MHz.  MicroPython's rp2 SPI only sends MSB first, so by
default every byte is bit-reversed in software through a 256-byte table (lsb_first=True
skips that on a port whose SPI can do LSB first, e.g. ESP32 with firstbit=SPI.LSB).
Several readers share one bus, each with its own chip select.

Transport (UM0701-02): CS low, an operation byte 0x01 (data write) + a command frame;
then poll 0x02 (status read) until bit 0 says ready, 0x03 (data read) the ACK frame
00 00 FF 00 FF 00, poll again, 0x03 the response frame
00 00 FF LEN LCS D5 cmd+1 data DCS 00 (LEN + LCS = 0, D5 + cmd+1 + data + DCS = 0 mod 256).
A frame read from the chip may start with any number of 00 bytes before the start code
00 FF (the manual shows one; some chips and modules send none or several).
The ready wait polls every `poll_us` (default 100 us, not the 10 ms of some drivers, which
puts a 10-20 ms floor under every command) with a per-command budget; when it runs out the
driver sends an ACK frame, which makes the PN532 abort the command, and returns ERR_HW.

Status codes are those of maester_fw.mfrc522 (OK 0, NO_CARD 1 = clean timeout, ERR_COLLISION
2, ERR_CRC 3, ERR_PARITY 4, ERR_PROTOCOL 5, ERR_OVERFLOW 6, ERR_NAK 7, ERR_HW 8); the PN532's
own error byte is mapped onto them (status_from_pn532).

Reader primitives for maester_fw.presence, and how the PN532 provides them:
  request(False)  "REQA": InListPassiveTarget(MaxTg 1, 106 kbit/s type A).  The PN532 does
                  the wake-up, anticollision and SELECT itself; the UID is kept.
  request(True)   "WUPA": if a Type 2 tag (SAK 0x00) is parked (see halt), probe it with an
                  NTAG READ of page 0 through InDataExchange; if it still answers it is the
                  same card.  Otherwise release it and run InListPassiveTarget.  A parked
                  card without NTAG READ (MIFARE Classic, SAK 0x08: READ needs Crypto1
                  authentication) is activated again instead, and the caller compares the
                  UID.  If that finds nothing, GetGeneralStatus tells a clean timeout from an
                  RF error, so an error is not counted as a miss.
  select()        the UID from the last activation (no RF traffic).
  read(page, buf) InDataExchange with NTAG READ (0x30): 16 bytes.
  halt()          park the card: the PN532 has no WUPA of its own (its activation is
                  assumed to use REQA, which a HALT card ignores), so the card is left
                  ACTIVE under the PN532's target and probed by request(True).
  antenna(on)     RFConfiguration item 1.
init() does SAMConfiguration (normal mode: leaves the power-on low-battery mode), checks the
firmware version (IC 0x32), and bounds RFConfiguration item 5 MxRtyPassiveActivation (the
power-on value 0xFF retries forever, so an empty reader would block) and item 2 (the
InDataExchange timeout, code n = 100 us * 2**(n-1); default 0x05 = 1.6 ms).
No allocation in steady state: buffers are made in __init__, and the memoryview for each
frame length is made the first time that length occurs (a handful of lengths in all).
"""

try:
    from micropython import const
except ImportError:  # CPython
    from .cpython import const

from .clock import sleep_us as _sleep_us
from .status import (  # noqa: F401  (re-exported: callers use driver.OK, driver.NO_CARD...)
    ERR_COLLISION, ERR_CRC, ERR_HW, ERR_NAK, ERR_OVERFLOW, ERR_PARITY, ERR_PROTOCOL, NO_CARD, OK)

_DW = const(0x01)
_SR = const(0x02)
_DR = const(0x03)

_GET_FIRMWARE_VERSION = const(0x02)
_GET_GENERAL_STATUS = const(0x04)
_SAM_CONFIGURATION = const(0x14)
_RF_CONFIGURATION = const(0x32)
_IN_DATA_EXCHANGE = const(0x40)
_IN_LIST_PASSIVE_TARGET = const(0x4A)
_IN_RELEASE = const(0x52)

_OUT = const(32)
_IN = const(64)
_PREAMBLE_MAX = const(16)  # 00 bytes accepted before the start code 00 FF
_WAKE_US = const(10000)  # CS held low after the dummy byte: the reference driver's wait


def _rev8(b):
    r = 0
    for _ in range(8):
        r = (r << 1) | (b & 1)
        b >>= 1
    return r


_REV = bytes([_rev8(i) for i in range(256)])


def status_from_pn532(e):
    """Map a PN532 error byte (InDataExchange status, GetGeneralStatus Err) to our codes."""
    e &= 0x3F
    if e == 0x00:
        return OK
    if e == 0x01 or e == 0x2B:          # timeout / card disappeared
        return NO_CARD
    if e == 0x02 or e == 0x23:          # CRC / UID check byte
        return ERR_CRC
    if e == 0x03:
        return ERR_PARITY
    if e == 0x04 or e == 0x06:          # anticollision bit count / bit collision
        return ERR_COLLISION
    if e == 0x05 or e == 0x0B:          # framing / RF protocol
        return ERR_PROTOCOL
    if e == 0x07 or e == 0x09 or e == 0x0E:
        return ERR_OVERFLOW
    if e == 0x14:                       # the card refused (NAK / MIFARE auth)
        return ERR_NAK
    return ERR_HW


class PN532:
    # No WUPA of its own: its activation is taken to send REQA only, which a card in HALT ignores
    # (module notes), so after a removal the presence machine still cycles the field.
    wakes_halted = False

    def __init__(self, spi, cs, lsb_first=False, sleep_us=None, poll_us=100,
                 retries=0, rf_timeout=0x05, timeout_us=50_000):
        self._spi = spi
        self._cs = cs.value if hasattr(cs, "value") else cs
        self._cs(1)
        self._lsb = lsb_first
        self._sleep_us = sleep_us if sleep_us is not None else _sleep_us
        self.poll_us = poll_us
        self.retries = retries
        self.rf_timeout = rf_timeout
        self.timeout_us = timeout_us
        self._out = bytearray(_OUT)
        self._in = bytearray(_IN)
        mo = memoryview(self._out)
        mi = memoryview(self._in)
        self._mo = mo
        self._outv = [None] * (_OUT + 1)  # type: list[memoryview | None]
        self._lenv = mi[3:5]               # LEN, LCS
        self._mi = mi
        # views made on first use of each length
        self._bodyv = [None] * (_IN - 4)  # type: list[memoryview | None]
        self._op = bytearray(1)
        self._one = bytearray(1)
        self._sr = bytearray(2)
        self._st = bytearray(2)
        self._cmd = bytearray(8)         # command code + parameters
        self._probe = bytearray(16)
        self.data_len = 0                # response data bytes after the command code
        self.atqa = bytearray(2)
        self.uid = bytearray(10)
        self.uid_len = 0
        self.sak = 0
        # The PN532 runs anticollision itself and lists one card (MaxTg 1): a second card on the
        # antenna is not seen while the first lies there (READERS.md, "Two cards")
        self.multiple = False
        self._listed = False
        self.serve = None  # called while waiting for the chip (the app reads its port, issue 29)
        self.ic = 0
        self.version = 0
        self.revision = 0
        self.support = 0
        self.last_error = 0
        # health counters
        self.commands = 0
        self.aborts = 0

    # -- transport -----------------------------------------------------------------------
    def _bits(self, v):
        return v if self._lsb else _REV[v]

    def _send(self, n):
        """Write the command frame for _cmd[0:n]."""
        o = self._out
        ln = n + 1
        o[0] = _DW
        o[1] = 0x00
        o[2] = 0x00
        o[3] = 0xFF
        o[4] = ln
        o[5] = (-ln) & 0xFF
        o[6] = 0xD4
        s = 0xD4
        c = self._cmd
        for i in range(n):
            o[7 + i] = c[i]
            s += c[i]
        o[7 + n] = (-s) & 0xFF
        o[8 + n] = 0x00
        total = 9 + n
        if not self._lsb:
            for i in range(total):
                o[i] = _REV[o[i]]
        self._cs(0)
        self._spi.write(self._out_view(total))
        self._cs(1)

    def _out_view(self, n):
        v = self._outv[n]
        if v is None:
            v = self._outv[n] = self._mo[:n]
        return v

    def _body(self, n):
        v = self._bodyv[n]
        if v is None:
            v = self._bodyv[n] = self._mi[5:5 + n]
        return v

    def _send_ack(self):
        """An ACK frame from the host aborts the command the PN532 is running."""
        c = self._out
        c[0] = _DW
        c[1] = 0x00
        c[2] = 0x00
        c[3] = 0xFF
        c[4] = 0x00
        c[5] = 0xFF
        c[6] = 0x00
        if not self._lsb:
            for i in range(7):
                c[i] = _REV[c[i]]
        self._cs(0)
        self._spi.write(self._out_view(7))
        self._cs(1)
        self.aborts += 1

    def _wait_ready(self, budget_us):
        sr = self._sr
        sr[0] = self._bits(_SR)
        sr[1] = 0
        loops = budget_us // self.poll_us + 1
        serve = self.serve
        for _ in range(loops):
            self._cs(0)
            self._spi.write_readinto(sr, self._st)
            self._cs(1)
            if self._bits(self._st[1]) & 0x01:
                return True
            if serve is not None:
                # the PN532 works alone until it says ready: the app reads its port, once a wait
                # (issue 29)
                serve()
                serve = None
            self._sleep_us(self.poll_us)
        return False

    def _read_frame(self):
        """Read one frame.  Returns -1 for an ACK, the LEN of a data frame, or -2 - status.

        LEN and LCS land in _in[3:5] and the rest of the frame from _in[5], whatever the
        number of 00 bytes that came before the start code.
        """
        self._op[0] = self._bits(_DR)
        self._cs(0)
        self._spi.write(self._op)
        one = self._one
        zeros = 0
        while True:                                      # 00 ... 00 FF, a byte at a time
            self._spi.readinto(one, 0)
            v = self._bits(one[0])
            if v == 0xFF and zeros:
                break
            if v != 0x00 or zeros == _PREAMBLE_MAX:
                self._cs(1)
                return -2 - ERR_HW
            zeros += 1
        self._spi.readinto(self._lenv, 0)
        b = self._in
        if not self._lsb:
            b[3] = _REV[b[3]]
            b[4] = _REV[b[4]]
        ln = b[3]
        if ln == 0x00 and b[4] == 0xFF:                  # ACK: read the postamble
            self._spi.readinto(self._body(1), 0)
            self._cs(1)
            return -1
        if (ln + b[4]) & 0xFF or ln < 2:
            self._cs(1)
            return -2 - ERR_HW
        if ln + 2 > _IN - 5:
            # too long for the buffer: drain it, report an overflow
            left = ln + 2
            while left > 0:
                k = left if left < _IN - 5 else _IN - 5
                self._spi.readinto(self._body(k), 0)
                left -= k
            self._cs(1)
            return -2 - ERR_OVERFLOW
        self._spi.readinto(self._body(ln + 2), 0)
        self._cs(1)
        if not self._lsb:
            for i in range(5, 7 + ln):
                b[i] = _REV[b[i]]
        s = 0
        for i in range(5, 6 + ln):                       # TFI .. DCS
            s += b[i]
        if s & 0xFF:
            return -2 - ERR_HW
        return ln

    def _call(self, n, budget_us=0):
        """Send _cmd[0:n], take the ACK, wait for and check the response.

        On OK the response data (after the command code) is in _in[7 : 7 + data_len].
        """
        self.commands += 1
        self.data_len = 0
        self._send(n)
        if not self._wait_ready(5000):
            return ERR_HW
        if self._read_frame() != -1:
            return ERR_HW
        if not self._wait_ready(budget_us if budget_us else self.timeout_us):
            self._send_ack()
            return ERR_HW
        ln = self._read_frame()
        if ln < 0:
            return -ln - 2 if ln < -1 else ERR_HW
        b = self._in
        if b[5] != 0xD5 or b[6] != ((self._cmd[0] + 1) & 0xFF):
            return ERR_HW                                # includes the error frame (7F)
        self.data_len = ln - 2
        return OK

    # -- set-up --------------------------------------------------------------------------
    def init(self):
        """Wake the chip, SAMConfiguration, firmware check, bounded retries.  OK or ERR_HW.

        Wake-up as Adafruit's CircuitPython driver does it (adafruit_pn532/spi.py, _wakeup): CS
        low, a dummy byte, 10 ms with CS still low, then SAMConfiguration, which leaves the
        power-on LowVbat mode (UM0701-02 6.3.4.3).  The fall of CS starts the oscillator; a
        module that needs longer than the 2 ms the Arduino driver allows would lose the first
        frames.  A chip that was reset (a supply dip) has forgotten its target: so does this."""
        self._listed = False
        self._cs(0)                                      # CS low wakes it from power-down
        self._op[0] = 0x00
        self._spi.write(self._op)                        # the dummy byte
        self._sleep_us(_WAKE_US)
        self._cs(1)
        c = self._cmd
        c[0] = _SAM_CONFIGURATION
        c[1] = 0x01                                      # normal mode, no SAM
        c[2] = 0x14                                      # virtual-card timeout (unused)
        c[3] = 0x01                                      # use the IRQ pin
        st = self._call(4)
        if st != OK:
            st = self._call(4)                           # the first frame may only wake it
            if st != OK:
                return st
        st = self.firmware_version()
        if st != OK:
            return st
        if self.ic != 0x32:
            return ERR_HW
        c[0] = _RF_CONFIGURATION
        c[1] = 0x05                                      # MaxRetries
        c[2] = 0xFF                                      # MxRtyATR (unused for type A)
        c[3] = 0x01                                      # MxRtyPSL
        c[4] = self.retries                              # MxRtyPassiveActivation
        st = self._call(5)
        if st != OK:
            return st
        c[0] = _RF_CONFIGURATION
        c[1] = 0x02                                      # various timings
        c[2] = 0x00
        c[3] = 0x0B                                      # ATR_RES timeout (102.4 ms)
        c[4] = self.rf_timeout                           # InDataExchange timeout
        return self._call(5)

    def configured(self):
        """Whether the chip still holds init()'s settings.  The PN532's cannot be read back, so
        the caller relies on a streak of ERR_HW (a chip reset to LowVbat mode answers none)."""
        return True

    def firmware_version(self):
        c = self._cmd
        c[0] = _GET_FIRMWARE_VERSION
        st = self._call(1)
        if st != OK:
            return st
        if self.data_len < 4:
            return ERR_PROTOCOL
        b = self._in
        self.ic = b[7]
        self.version = b[8]
        self.revision = b[9]
        self.support = b[10]
        return OK

    def antenna(self, on):
        if not on and self._listed:
            self.release()
        c = self._cmd
        c[0] = _RF_CONFIGURATION
        c[1] = 0x01
        c[2] = 0x01 if on else 0x00
        return self._call(3)

    field = antenna

    # -- cards ---------------------------------------------------------------------------
    def _inlist(self):
        self._listed = False
        c = self._cmd
        c[0] = _IN_LIST_PASSIVE_TARGET
        c[1] = 0x01                                      # at most one target
        c[2] = 0x00                                      # 106 kbit/s type A
        st = self._call(3)
        if st != OK:
            return st
        b = self._in
        if self.data_len < 1 or b[7] == 0:
            return NO_CARD
        ulen = b[12]
        if self.data_len < 6 + ulen or not (ulen == 4 or ulen == 7 or ulen == 10):
            return ERR_PROTOCOL
        self.atqa[0] = b[10]                             # SENS_RES comes MSB first
        self.atqa[1] = b[9]
        self.sak = b[11]
        for i in range(ulen):
            self.uid[i] = b[13 + i]
        self.uid_len = ulen
        self._listed = True
        return OK

    def last_rf_error(self):
        """GetGeneralStatus: the PN532's last RF error, mapped to a status code."""
        c = self._cmd
        c[0] = _GET_GENERAL_STATUS
        st = self._call(1)
        if st != OK:
            return st
        self.last_error = self._in[7]
        return status_from_pn532(self.last_error)

    def request(self, wupa=False):
        if wupa and self._listed:
            if self.sak != 0x00:
                return self._reselect()
            st = self.read(0, self._probe)
            if st == OK:
                return OK
            if st != NO_CARD:
                return st
        if self._listed:
            self.release()
        st = self._inlist()
        if st == NO_CARD and wupa:
            st = self.last_rf_error()
        return st

    def _reselect(self):
        """Confirm a parked card that has no NTAG READ (a MIFARE Classic refuses READ
        before authentication, so the probe would fail on every poll until the presence
        machine called the card removed).  Activate it again; the caller compares the
        UID.  The card is still ACTIVE under our old target, and the activation's REQA
        only sends an ACTIVE card back to IDLE (ISO/IEC 14443-3), so when the first
        activation finds nothing, a second one is what finds a card still lying there."""
        self.release()
        st = self._inlist()
        if st == NO_CARD:
            st = self._inlist()
        if st == NO_CARD:
            st = self.last_rf_error()
        return st

    def select(self):
        return OK if self._listed else NO_CARD

    def check(self, uid, n):
        """After request(): OK if the listed target is uid[:n] (the PN532 activated it and read its
        UID itself, or request() just read from it), ERR_COLLISION if it is another card."""
        if not self._listed:
            return NO_CARD
        if self.uid_len != n:
            return ERR_COLLISION
        u = self.uid
        for i in range(n):
            if u[i] != uid[i]:
                return ERR_COLLISION
        return OK

    def read(self, page, out):
        """NTAG21x READ (0x30) through InDataExchange: 16 bytes into out[0:16]."""
        if not self._listed:
            return NO_CARD
        c = self._cmd
        c[0] = _IN_DATA_EXCHANGE
        c[1] = 0x01                                      # target 1
        c[2] = 0x30
        c[3] = page
        st = self._call(4)
        if st != OK:
            return st
        b = self._in
        st = status_from_pn532(b[7])
        if st != OK:
            return st
        if self.data_len != 17:
            return ERR_PROTOCOL
        for i in range(16):
            out[i] = b[8 + i]
        return OK

    def halt(self):
        """Park the card (left ACTIVE under the PN532's target; see the module notes)."""
        return OK

    def release(self):
        """InRelease: the PN532 forgets the target."""
        self._listed = False
        c = self._cmd
        c[0] = _IN_RELEASE
        c[1] = 0x00                                      # all targets
        return self._call(2)
