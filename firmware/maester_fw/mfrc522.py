"""MFRC522 (NXP) reader driver over SPI, for MicroPython; also runs on CPython.

Several readers can share one SPI bus: each driver gets the bus object and its own
chip-select pin (a machine.Pin, or anything with value() or callable with 0/1).

    spi = machine.SPI(0, baudrate=4_000_000, polarity=0, phase=0)
    r = MFRC522(spi, machine.Pin(17, machine.Pin.OUT, value=1))
    if r.init() != OK: ...             # r.version: 0x91/0x92 genuine, 0x88 FM17522 clone
    if r.request(wupa=False) == OK and r.select() == OK:
        uid = r.uid[:r.uid_len]          # (slicing allocates; the poll path does not)
        r.read(4, buf16)                 # NTAG21x READ: pages 4..7
        r.halt()

Every card operation returns one status code (same convention as maester_fw.pn532):
    OK             0  the card answered and the answer checked out
    NO_CARD        1  clean timeout: nobody answered (the only status that means "absent")
    ERR_COLLISION  2  two or more cards answered at once and it could not be resolved
    ERR_CRC        3  an answer arrived but its CRC_A (or the UID check byte BCC) is wrong
    ERR_PARITY     4  an answer arrived with a parity error
    ERR_PROTOCOL   5  an answer of the wrong length/shape, or a chip protocol error
    ERR_OVERFLOW   6  the chip's 64-byte FIFO overflowed
    ERR_NAK        7  the card refused (NAK), or answered a HLTA
    ERR_HW         8  the chip itself did not respond (no IRQ within the guard time)

Timing: the chip's timer bounds every receive.  TPrescaler = 169 gives a 25 us tick
(13.56 MHz / (2*169+1) = 40 kHz); the reload value is timeout_us / 25 - 1.  With TAuto the timer
starts when the chip finishes transmitting and stops as soon as an answer starts.  A card answers
REQA/WUPA/ANTICOLLISION/SELECT after a fixed 86-91 us (ISO/IEC 14443-3 frame delay time), so
those wait 150 us (_ACTIVATION_US) and an empty reader costs 150 us of waiting plus about a dozen
register transactions, instead of 15-25 ms with the common driver defaults; READ, whose answer a
card may send later, waits timeout_us (default 1000 us).  The IRQ wait loop ends
on RxIRq or IdleIRq (the end of the answer) or TimerIRq (none came), not on a fixed count,
with a separate guard of timeout + 20 ms in case the chip is dead or unpowered.  It does not
end on ErrIRq: the chip raises it at a colliding bit while the rest of the frame is still
arriving (datasheet 9.3.1.5, 9.3.1.15), and writing Idle then would cut the FIFO short.  The
reference drivers wait for RxIRq | IdleIRq the same way (miguelbalboa/rfid, PCD_CommunicateWithPICC).

Hostile hardware (FIRMWARE.md, "Readers that fail"):
  * init() accepts only the VersionReg values of known chips (KNOWN_VERSIONS), and checks that
    a register it wrote reads back: a MISO with no reader on it floats on an ESP32-S3 and can
    return any byte.  `version` keeps what was read either way, for the report.
  * configured() tells whether the chip still holds its timer settings: a supply dip or a
    re-seated connector brings it back at its power-on values, with no timer, and every
    transceive then ends in ERR_HW.  The caller sets it up again.
  * A collision when REQA/WUPA is answered means "cards are there" (miguelbalboa/rfid,
    PICC_RequestA: STATUS_OK or STATUS_COLLISION): request() returns OK and sets `multiple`,
    as does a collision during anticollision.  `multiple` is cleared by the next request().

No allocation after construction: registers go through two 2-byte buffers, FIFO traffic
through preallocated buffers and memoryviews prepared in __init__.
"""

try:
    from micropython import const
except ImportError:  # CPython
    from .cpython import const

from .clock import sleep_us as _sleep_us, ticks_diff as _ticks_diff, ticks_us as _ticks_us
from .status import (  # noqa: F401  (re-exported: callers use driver.OK, driver.NO_CARD...)
    ERR_COLLISION, ERR_CRC, ERR_HW, ERR_NAK, ERR_OVERFLOW, ERR_PARITY, ERR_PROTOCOL, NO_CARD, OK)

# registers
_CommandReg = const(0x01)
_ComIrqReg = const(0x04)
_DivIrqReg = const(0x05)
_ErrorReg = const(0x06)
_FIFODataReg = const(0x09)
_FIFOLevelReg = const(0x0A)
_ControlReg = const(0x0C)
_BitFramingReg = const(0x0D)
_CollReg = const(0x0E)
_ModeReg = const(0x11)
_TxModeReg = const(0x12)
_RxModeReg = const(0x13)
_TxControlReg = const(0x14)
_TxASKReg = const(0x15)
_CRCResultRegH = const(0x21)
_CRCResultRegL = const(0x22)
_ModWidthReg = const(0x24)
_RFCfgReg = const(0x26)
_TModeReg = const(0x2A)
_TPrescalerReg = const(0x2B)
_TReloadRegH = const(0x2C)
_TReloadRegL = const(0x2D)
_VersionReg = const(0x37)

# chip commands
_IDLE = const(0x00)
_CALC_CRC = const(0x03)
_TRANSMIT = const(0x04)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)

# card commands
_REQA = const(0x26)
_WUPA = const(0x52)
_SEL_CL1 = const(0x93)
_CT = const(0x88)
_READ = const(0x30)
_HLTA = const(0x50)

# VersionReg of the chips we know: NXP MFRC522 1.0 and 2.0, and the clones' (issue 24)
KNOWN_VERSIONS = (0x91, 0x92, 0x12, 0x88, 0xB2)

_PRESCALER = const(169)   # 25 us timer tick
_TICK_US = const(25)
_GUARD_US = const(20000)
# The receive timeout of REQA, WUPA, ANTICOLLISION and SELECT. A card answers these on a fixed bit
# grid: its frame delay time is 1172/fc or 1236/fc (86 or 91 us) after the reader's last bit
# (ISO/IEC 14443-3 6.2.1.1, n = 9), and with TAuto the timer stops at the answer's first bit
# (MFRC522 datasheet 9.3.3.10 TModeReg), so its length need only cover that delay. NXP's own
# reader library waits 85 us + a 60 us extension for them (NFC Reader Library,
# phpalI14443p3a_Sw_Int.h: PHPAL_I14443P3A_SELECTION_TIME_US, _EXT_TIME_US); 150 us is that, on
# the 25 us tick. An empty reader then costs 150 us of timer instead of the 1 ms READ keeps.
_ACTIVATION_US = const(150)
# A card in a field that was just switched on may take up to 5 ms before it must accept a REQA or
# WUPA; a reader that wants every card gives it 5.1 ms of unmodulated field first (ISO/IEC 14443-3
# clause 5.2.1, Polling). request() waits out what is left of that after antenna(True).
_POWER_UP_US = const(5100)
_BUF = const(20)          # largest frame: READ answer, 16 data + 2 CRC
# Waiting for a frame: sleep through what cannot be over yet (the bits on air at 9.44 us each,
# a parity bit a byte, then the card's frame delay time), then look every _IRQ_POLL_US. Reading
# ComIrqReg back to back costs an SPI transaction each and finds nothing sooner.
_FDT_US = const(86)
_FDT_MAX_US = const(92)   # 1236/fc: after a reader frame ending in 0 (ISO/IEC 14443-3 6.2.1.1)
_IRQ_POLL_US = const(50)
# After ErrIRq, how long to wait for the end of the answer: the longest we ask for (READ, 18
# bytes with parity) lasts 1.6 ms on air.
_ERR_GRACE_US = const(2000)


def crc_a(buf, n):
    """CRC_A of buf[0:n] (ISO/IEC 14443-3 annex B: preset 0x6363, reflected), low byte first.

    In software: a few µs a byte, where the chip's coprocessor costs six SPI transactions.
    """
    crc = 0x6363
    for i in range(n):
        ch = buf[i] ^ (crc & 0xFF)
        ch = (ch ^ (ch << 4)) & 0xFF
        crc = (crc >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4)
    return crc


class MFRC522:
    # request(True) sends an ISO WUPA, which wakes a card in HALT (ISO/IEC 14443-3 6.3): after a
    # clean removal the presence machine keeps the field on and finds a halted card with it.
    wakes_halted = True

    def __init__(self, spi, cs, rst=None, timeout_us=1000, gain=5,
                 sleep_us=None, ticks_us=None):
        self._spi = spi
        self._cs = cs.value if hasattr(cs, "value") else cs
        self._cs(1)
        self._rst = rst
        self._sleep_us = sleep_us if sleep_us is not None else _sleep_us
        self._ticks = ticks_us if ticks_us is not None else _ticks_us
        self.timeout_us = timeout_us
        self._reload = -1                # the TReloadReg value the chip holds (-1: not known)
        self.gain = gain & 7
        self._w = bytearray(2)
        self._r = bytearray(2)
        # The four registers a receive is judged by, read in one transaction (_rstatus)
        self._sw = bytearray((0x80 | (_ComIrqReg << 1), 0x80 | (_ErrorReg << 1), 0x80 | (_FIFOLevelReg << 1),
                              0x80 | (_ControlReg << 1), 0))
        self._sr = bytearray(5)
        self._ftx = bytearray(_BUF + 1)
        self._frx = bytearray(_BUF + 1)
        mt = memoryview(self._ftx)
        mr = memoryview(self._frx)
        self._ftxv = [mt[:n] for n in range(_BUF + 2)]
        self._frxv = [mr[:n] for n in range(_BUF + 2)]
        self.buf = bytearray(_BUF)       # frame to send
        self.rbuf = bytearray(_BUF)      # frame received
        self.rx_len = 0                  # bytes received
        self.rx_last_bits = 0            # valid bits in the last byte (0 = all 8)
        self._cl = bytearray(5)          # one cascade level: 4 bytes + BCC
        self.atqa = bytearray(2)
        self.uid = bytearray(10)
        self.uid_len = 0
        self.sak = 0
        self.version = 0
        self.multiple = False            # more than one card answered since the last request()
        # Called while the chip sends a frame and waits for the answer (the app reads its serial
        # port there, issue 29): the chip's timer and FIFO do not need the CPU meanwhile.
        self.serve = None
        self._field_at = None            # ticks_us when the field came on, until the next request
        self._tx_at = None               # ticks_us when halt() started a HLTA still on air, or None
        # True while the FIFO is known to be empty (with no BufferOvfl), so the next frame need not
        # flush it: its last frame's answer was read whole, or a HLTA's Transmit took it all out.
        self._fifo_empty = False
        # health counters
        self.transceives = 0
        self.collisions = 0

    # -- registers -----------------------------------------------------------------------
    def _wreg(self, reg, val):
        w = self._w
        w[0] = (reg << 1) & 0x7E
        w[1] = val
        self._cs(0)
        self._spi.write(w)
        self._cs(1)

    def _rreg(self, reg):
        w = self._w
        w[0] = ((reg << 1) & 0x7E) | 0x80
        w[1] = 0
        self._cs(0)
        self._spi.write_readinto(w, self._r)
        self._cs(1)
        return self._r[1]

    def _rstatus(self):
        """ComIrqReg, ErrorReg, FIFOLevelReg and ControlReg into _sr[1:5], in one SPI transaction:
        each address byte sent names the register whose value comes back with the next byte
        (MFRC522 datasheet 8.1.2.1, Table 6), as _fifo_read does for the FIFO. Read one by one they
        cost a board four transactions (~20 us each of machine.SPI call and chip-select, issue 29).
        """
        self._cs(0)
        self._spi.write_readinto(self._sw, self._sr)
        self._cs(1)

    def _fifo_write(self, src, n):
        t = self._ftx
        t[0] = (_FIFODataReg << 1) & 0x7E
        for i in range(n):
            t[1 + i] = src[i]
        self._cs(0)
        self._spi.write(self._ftxv[n + 1])
        self._cs(1)

    def _fifo_read(self, dst, n):
        t = self._ftx
        a = ((_FIFODataReg << 1) & 0x7E) | 0x80
        for i in range(n):
            t[i] = a
        t[n] = 0
        self._cs(0)
        self._spi.write_readinto(self._ftxv[n + 1], self._frxv[n + 1])
        self._cs(1)
        r = self._frx
        for i in range(n):
            dst[i] = r[i + 1]

    # -- set-up --------------------------------------------------------------------------
    def init(self):
        """Reset and configure the chip, switch the antenna on.  OK, or ERR_HW if absent."""
        if self._rst is not None:
            self._rst(0)
            self._sleep_us(100)
            self._rst(1)
            self._sleep_us(50_000)
        # An absent chip answers nothing: MISO floats high (every register reads 0xFF) or
        # is pulled low (0x00).  Found here at once; after the soft reset, a PowerDown bit
        # that reads 1 forever would spin the 100 ms wait below on every retry.
        self.version = self._rreg(_VersionReg)
        if self.version not in KNOWN_VERSIONS:
            return ERR_HW
        self._tx_at = None                               # the reset ends a HLTA on air too
        self._fifo_empty = False                         # not counted on: the next frame flushes
        self._wreg(_CommandReg, _SOFT_RESET)
        t0 = self._ticks()
        while self._rreg(_CommandReg) & 0x10:            # PowerDown: oscillator starting
            if _ticks_diff(self._ticks(), t0) > 100_000:
                return ERR_HW
            self._sleep_us(1000)
        self._wreg(_TxModeReg, 0x00)                     # 106 kbit/s, no hardware CRC
        self._wreg(_RxModeReg, 0x00)
        self._wreg(_ModWidthReg, 0x26)
        self.set_timeout(self.timeout_us)
        if not self.configured():
            return ERR_HW                                # what was written does not read back
        self._wreg(_TxASKReg, 0x40)                      # 100 % ASK, as type A needs
        self._wreg(_ModeReg, 0x3D)                       # CRC coprocessor preset 0x6363
        self._wreg(_CollReg, 0x00)                       # clear bits after a collision
        self._wreg(_RFCfgReg, self.gain << 4)            # RxGain: 5 = 38 dB (7 saturates)
        self.antenna(True)
        return OK

    def set_timeout(self, timeout_us):
        """Receive timeout of READ (and the longest any command waits), rounded to the 25 us
        timer tick (25 us .. 1.6 s).  REQA, WUPA and SELECT wait _ACTIVATION_US (or this, if
        shorter): a card answers those after a fixed delay."""
        reload = timeout_us // _TICK_US - 1
        if reload < 1:
            reload = 1
        if reload > 0xFFFF:
            reload = 0xFFFF
        self.timeout_us = (reload + 1) * _TICK_US
        self._wreg(_TModeReg, 0x80 | (_PRESCALER >> 8))  # TAuto: start after transmit
        self._wreg(_TPrescalerReg, _PRESCALER & 0xFF)
        self._reload = -1
        self._timer(self.timeout_us)

    def _timer(self, timeout_us):
        """Load the timer's reload value for the next receives, when it is not loaded already
        (the chip takes TReloadReg at each timer start: datasheet 9.3.3.11).  Two register writes
        at most, none when unchanged."""
        if timeout_us > self.timeout_us:
            timeout_us = self.timeout_us
        reload = timeout_us // _TICK_US - 1
        if reload == self._reload:
            return
        if reload >> 8 != self._reload >> 8 or self._reload < 0:
            self._wreg(_TReloadRegH, reload >> 8)
        self._wreg(_TReloadRegL, reload & 0xFF)
        self._reload = reload

    def configured(self):
        """True while the chip holds the timer settings init() gave it (TAuto and the 25 us
        prescaler).  Two register reads; a chip back at its power-on values reads 0x00."""
        return (self._rreg(_TModeReg) == 0x80 | (_PRESCALER >> 8)
                and self._rreg(_TPrescalerReg) == _PRESCALER & 0xFF)

    def antenna(self, on):
        """RF field on/off.  Off powers every card down: they come back in IDLE."""
        self._tx_done()
        v = self._rreg(_TxControlReg)
        if on:
            if v & 0x03 != 0x03:
                self._wreg(_TxControlReg, v | 0x03)
                self._field_at = self._ticks()
        elif v & 0x03:
            self._wreg(_TxControlReg, v & 0xFC)

    field = antenna

    # -- CRC coprocessor ------------------------------------------------------------------
    def _crc(self, src, n):
        """CRC_A of src[0:n] computed by the chip; returns it as an int (low byte first)."""
        self._wreg(_CommandReg, _IDLE)
        self._wreg(_DivIrqReg, 0x04)                     # clear CRCIRq
        self._wreg(_FIFOLevelReg, 0x80)                  # flush
        self._fifo_empty = False
        self._fifo_write(src, n)
        self._wreg(_CommandReg, _CALC_CRC)
        t0 = self._ticks()
        while not self._rreg(_DivIrqReg) & 0x04:
            if _ticks_diff(self._ticks(), t0) > _GUARD_US:
                return -1
        self._wreg(_CommandReg, _IDLE)
        return self._rreg(_CRCResultRegL) | (self._rreg(_CRCResultRegH) << 8)

    def _append_crc(self, n):
        c = crc_a(self.buf, n)
        self.buf[n] = c & 0xFF
        self.buf[n + 1] = c >> 8
        return True

    def _check_crc(self, n):
        """True if rbuf[0:n] is followed by its correct CRC_A."""
        c = crc_a(self.rbuf, n)
        return self.rbuf[n] == (c & 0xFF) and self.rbuf[n + 1] == (c >> 8)

    # -- transceive -----------------------------------------------------------------------
    def transceive(self, n, tx_last_bits=0, rx_align=0, rx_bytes=0):
        """Send buf[0:n] (the last byte holding tx_last_bits bits, 0 = 8), receive into rbuf.

        rx_bytes: how long the answer a card sends is (ANTICOLLISION 5 bytes with CT or UID and
        BCC, SELECT's SAK 3: ISO/IEC 14443-3 6.5.3, 6.5.3.4): its time on air is slept through
        with the frame's, rather than read ComIrqReg for (an SPI transaction every 78 us). Only
        where an answer is all but sure (a card answered the request before), since a silent
        reader is then known later by that much.

        Returns OK, NO_CARD (the timer ran out: clean timeout), or an error code.  On OK and
        on ERR_COLLISION, rx_len and rx_last_bits describe what arrived.
        """
        self.transceives += 1
        self.rx_len = 0
        self.rx_last_bits = 0
        if self._tx_at is not None and self._tx_done() != OK:
            return ERR_HW
        framing = (rx_align << 4) | tx_last_bits
        # No Idle written first: every path out of this driver leaves the chip in Idle (each end of
        # the IRQ wait below writes it; a HLTA's Transmit and a SoftReset end in Idle by themselves,
        # datasheet 10.3.1.5, 10.3.1.10; _crc writes it), and a chip that lost its supply comes
        # back in Idle (9.3.1.2). Each register write is an SPI transaction (~25 us, issue 29).
        self._wreg(_ComIrqReg, 0x7F)                     # clear all IRQ bits
        self._fifo_start()
        self._fifo_write(self.buf, n)
        self._wreg(_BitFramingReg, framing)
        self._wreg(_CommandReg, _TRANSCEIVE)
        self._wreg(_BitFramingReg, framing | 0x80)       # StartSend
        bits = n * 9 - (8 - tx_last_bits if tx_last_bits else 0)     # with a parity bit a byte
        if rx_bytes:
            # both frames with their start and end bits, and the longer frame delay time (1236/fc)
            self._wait((bits + 2 + rx_bytes * 9 + 2) * 944 // 100 + _FDT_MAX_US)
        else:
            self._wait(bits * 944 // 100 + _FDT_US)
        t0 = self._ticks()
        err_at = t0
        err_seen = False
        st = self._sr
        while True:
            # the IRQ bits, and with them what the answer left: once RxIRq is set the receive is
            # over and ErrorReg, the FIFO level and RxLastBits hold (datasheet 9.3.1.5)
            self._rstatus()
            irq = st[1]
            if irq & 0x30:                               # RxIRq or IdleIRq: the answer is in
                self._wreg(_CommandReg, _IDLE)
                break
            if irq & 0x01:                               # TimerIRq, nothing received
                self._wreg(_CommandReg, _IDLE)
                return NO_CARD
            now = self._ticks()
            if irq & 0x02:                               # ErrIRq: let the frame end first
                if not err_seen:
                    err_seen = True
                    err_at = now
                elif _ticks_diff(now, err_at) > _ERR_GRACE_US:
                    self._wreg(_CommandReg, _IDLE)       # cut short: the FIFO keeps what came
                    self._rstatus()
                    break
            if _ticks_diff(now, t0) > self.timeout_us + _GUARD_US:
                self._wreg(_CommandReg, _IDLE)
                return ERR_HW
            self._sleep_us(_IRQ_POLL_US)
        err = st[2]
        if err == 0xFF:
            return ERR_HW                                # bit 5 is reserved (reads 0): no chip, MISO pulled up
        if err & 0x10:
            return ERR_OVERFLOW
        if err & 0x01:
            return ERR_PROTOCOL
        coll = err & 0x08
        if err & 0x02 and not coll:
            return ERR_PARITY
        if err & 0x04:
            return ERR_CRC
        level = st[3]
        if level > _BUF:
            return ERR_OVERFLOW
        self.rx_last_bits = st[4] & 0x07
        self._fifo_read(self.rbuf, level)
        self.rx_len = level
        self._fifo_empty = True                          # all it held is read, and the chip is Idle
        if coll:
            self.collisions += 1
            return ERR_COLLISION
        return OK

    def _fifo_start(self):
        """Before a frame's bytes go into the FIFO: flush it (FlushBuffer, which also clears
        BufferOvfl: datasheet 9.3.1.11) unless it is known empty. After a timeout or an error it
        is not known: an answer may have come in while the command was still Transceive."""
        if not self._fifo_empty:
            self._wreg(_FIFOLevelReg, 0x80)
        self._fifo_empty = False

    def _wait(self, us):
        """Wait us while the chip works on its own (a frame on air, the card's reply): the caller's
        `serve` runs first, then the rest is slept. A serve longer than the wait only delays the
        read of the chip's IRQ bits: the answer waits in the FIFO (datasheet 8.3) and the timer
        has stopped or expired. The guard time is counted from after the wait."""
        serve = self.serve
        if serve is not None:
            t0 = self._ticks()
            serve()
            us -= _ticks_diff(self._ticks(), t0)
            if us <= 0:
                return
        self._sleep_us(us)

    # -- ISO/IEC 14443-3 -----------------------------------------------------------------
    def request(self, wupa=False):
        """REQA (wakes IDLE cards) or WUPA (wakes IDLE and HALT cards).  ATQA -> self.atqa.
        The first after the field came on waits until the cards had 5.1 ms of field (_POWER_UP_US).

        Cards with different ATQAs answer with a collision: they are there, so OK, with
        `multiple` set (the ATQA then holds the bits before the collision)."""
        self.multiple = False
        field_at = self._field_at
        if field_at is not None:
            # the field was just switched on: the cards get their power-up time first (_POWER_UP_US)
            left = _POWER_UP_US - _ticks_diff(self._ticks(), field_at)
            self._field_at = None
            if left > 0:
                self._wait(left)
        self._timer(_ACTIVATION_US)
        self.buf[0] = _WUPA if wupa else _REQA
        st = self.transceive(1, 7)
        if st == ERR_COLLISION:
            self.multiple = True
            self.atqa[0] = self.rbuf[0] if self.rx_len else 0
            self.atqa[1] = self.rbuf[1] if self.rx_len > 1 else 0
            return OK
        if st != OK:
            return st
        if self.rx_len != 2 or self.rx_last_bits:
            return ERR_PROTOCOL
        self.atqa[0] = self.rbuf[0]
        self.atqa[1] = self.rbuf[1]
        return OK

    def _anticoll(self, sel):
        """Bit-frame anticollision for one cascade level; result in self._cl (4 bytes + BCC).

        On a collision the 1 branch is taken (ISO/IEC 14443-3), so with two cards on one
        reader the same card wins every time.
        """
        cl = self._cl
        buf = self.buf
        for i in range(5):
            cl[i] = 0
        known = 0
        for _ in range(33):
            full = known >> 3
            extra = known & 7
            nsend = full + (1 if extra else 0)
            buf[0] = sel
            buf[1] = ((2 + full) << 4) | extra
            for i in range(nsend):
                buf[2 + i] = cl[i]
            st = self.transceive(2 + nsend, extra, extra, 5 - nsend)
            if st != OK and st != ERR_COLLISION:
                return st
            n = self.rx_len
            if full + n > 5:
                return ERR_PROTOCOL
            for i in range(n):
                if i == 0 and extra:
                    m = (1 << extra) - 1
                    cl[full] = (cl[full] & m) | (self.rbuf[0] & ~m & 0xFF)
                else:
                    cl[full + i] = self.rbuf[i]
            if st == OK:
                if full + n != 5 or self.rx_last_bits:
                    return ERR_PROTOCOL
                return OK
            self.multiple = True
            c = self._rreg(_CollReg)
            if c & 0x20:                                 # position not valid
                return ERR_COLLISION
            pos = c & 0x1F
            if pos == 0:
                pos = 32
            bit = full * 8 + pos - 1
            if bit < known or bit >= 32:
                return ERR_COLLISION
            cl[bit >> 3] |= 1 << (bit & 7)
            known = bit + 1
        return ERR_COLLISION

    def check(self, uid, n):
        """Right after request(): is the card that answered the one whose UID is uid[:n], alone?

        One ANTICOLLISION of the first cascade level with no known bits (NVB 0x20): every card in
        READY sends its CL1 bytes (ISO/IEC 14443-3 6.5.3), so a second card lying there collides
        on the first bit where the two differ, and a different card alone shows its own bytes.
        Three transceives fewer than select() for a 7-byte UID (about 3 ms of a board's time).
        The card stays READY; the caller's HLTA, a frame it does not expect there, sends it back
        to HALT, where the next WUPA finds it (ISO/IEC 14443-3 6.3; the NTAG21x datasheet's state
        diagram: an unexpected command in READY returns the tag to IDLE or HALT).
        A card that shares the first cascade level (CT and the first 3 UID bytes of a 7-byte UID)
        passes: the full re-select every reselect_every polls catches it.

        OK: the same bytes, no collision. NO_CARD: no answer. ERR_COLLISION: another card
        answered (`multiple` is set when two did). Else the error of the answer.
        """
        buf = self.buf
        buf[0] = _SEL_CL1
        buf[1] = 0x20
        st = self.transceive(2, 0, 0, 5)
        if st == ERR_COLLISION:
            self.multiple = True
            return st
        if st != OK:
            return st
        r = self.rbuf
        if self.rx_len != 5 or self.rx_last_bits:
            return ERR_PROTOCOL
        if r[0] ^ r[1] ^ r[2] ^ r[3] != r[4]:
            return ERR_CRC                               # BCC wrong: corrupted answer
        if n == 4:
            same = r[0] == uid[0] and r[1] == uid[1] and r[2] == uid[2] and r[3] == uid[3]
        else:
            same = r[0] == _CT and r[1] == uid[0] and r[2] == uid[1] and r[3] == uid[2]
        return OK if same else ERR_COLLISION

    def select(self):
        """Anticollision + SELECT over cascade levels 1-3.  UID -> uid[:uid_len], SAK -> sak.

        Call right after a successful request(); the card ends ACTIVE.
        """
        self.uid_len = 0
        self._timer(_ACTIVATION_US)
        cl = self._cl
        buf = self.buf
        for level in range(3):
            sel = _SEL_CL1 + 2 * level
            st = self._anticoll(sel)
            if st != OK:
                return st
            if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
                return ERR_CRC                           # BCC wrong: corrupted answer
            buf[0] = sel
            buf[1] = 0x70
            for i in range(5):
                buf[2 + i] = cl[i]
            if not self._append_crc(7):
                return ERR_HW
            st = self.transceive(9, 0, 0, 3)
            if st != OK:
                return st
            if self.rx_len != 3 or self.rx_last_bits:
                return ERR_PROTOCOL
            if not self._check_crc(1):
                return ERR_CRC
            sak = self.rbuf[0]
            u = self.uid
            k = self.uid_len
            if sak & 0x04:                               # cascade bit: UID not complete
                if cl[0] != _CT:
                    return ERR_PROTOCOL
                u[k] = cl[1]
                u[k + 1] = cl[2]
                u[k + 2] = cl[3]
                self.uid_len = k + 3
            else:
                u[k] = cl[0]
                u[k + 1] = cl[1]
                u[k + 2] = cl[2]
                u[k + 3] = cl[3]
                self.uid_len = k + 4
                self.sak = sak
                return OK
        return ERR_PROTOCOL

    def read(self, page, out):
        """NTAG21x / Ultralight READ (0x30): 16 bytes (4 pages from `page`) into out[0:16]."""
        buf = self.buf
        buf[0] = _READ
        buf[1] = page
        if not self._append_crc(2):
            return ERR_HW
        self._timer(self.timeout_us)
        st = self.transceive(4)
        if st != OK:
            return st
        if self.rx_len == 1 and self.rx_last_bits == 4:
            return ERR_NAK
        if self.rx_len != 18 or self.rx_last_bits:
            return ERR_PROTOCOL
        if not self._check_crc(16):
            return ERR_CRC
        r = self.rbuf
        for i in range(16):
            out[i] = r[i]
        return OK

    def halt(self):
        """HLTA: park the ACTIVE card in HALT (only WUPA wakes it).

        A card answers HLTA with silence, so the frame is only transmitted: waiting out the
        receive timeout for an answer that never comes cost a millisecond on every poll of a
        card lying on the reader. Nor does it wait for the frame to leave (0.36 ms): the chip sends
        it from its FIFO alone, and the Transmit command ends itself when the FIFO is empty
        (datasheet 10.3.1.5), while the loop polls the other readers (issue 29). The next command
        to this chip waits for it first (_tx_done): a command written meanwhile would cut the
        frame short, and no card would halt.
        """
        st = self._tx_done()
        if st != OK:
            return st
        buf = self.buf
        buf[0] = _HLTA
        buf[1] = 0
        self._append_crc(2)
        self._wreg(_ComIrqReg, 0x7F)                     # the chip is Idle here (transceive)
        self._fifo_start()
        self._fifo_write(buf, 4)
        self._wreg(_BitFramingReg, 0)
        self._wreg(_CommandReg, _TRANSMIT)
        self._tx_at = self._ticks()
        return OK

    def _tx_done(self):
        """Before a command: the HLTA that halt() left on air has ended (TxIRq). Waits out what is
        left of its air time (4 bytes with parity, 36 bits), then reads TxIRq: one register read
        when other readers were polled meanwhile. ERR_HW if the chip never says so."""
        at = self._tx_at
        if at is None:
            return OK
        self._tx_at = None
        left = 36 * 944 // 100 - _ticks_diff(self._ticks(), at)
        if left > 0:
            self._wait(left)
        t0 = self._ticks()
        while not self._rreg(_ComIrqReg) & 0x40:         # TxIRq: the last bit is out
            if _ticks_diff(self._ticks(), t0) > _GUARD_US:
                self._wreg(_CommandReg, _IDLE)
                return ERR_HW
            self._sleep_us(_IRQ_POLL_US)
        # the Transmit sent the whole FIFO and ended itself (datasheet 10.3.1.5): empty, Idle
        self._fifo_empty = True
        return OK
