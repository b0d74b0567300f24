"""A simulated MFRC522 at the register level, behind a simulated SPI bus.

The real driver (maester_fw.mfrc522) talks to it exactly as to the chip: an address byte
`(addr << 1) & 0x7E`, with bit 7 set for a read; a read transaction sends one address byte per
register and a final 0x00, a write sends the address then data bytes that all go to that
register (so the FIFO can be filled in one transaction).

Modelled: the 64-byte FIFO, CommandReg (Idle, CalcCRC, Transmit, Transceive, SoftReset),
ComIrqReg/DivIrqReg with their Set1/Set2 write semantics, ErrorReg, ControlReg (RxLastBits),
BitFramingReg (StartSend, RxAlign, TxLastBits), CollReg (ValuesAfterColl, CollPos), the timer
(TAuto, prescaler, reload: a transceive with no answer raises TimerIRq after the configured
time), the CRC coprocessor (real CRC_A with the ModeReg preset), TxControlReg (antenna on/off
switches the RF field, which powers the cards down and up), TxASKReg (without 100 % ASK the
cards hear nothing).  Not modelled: MIFARE Crypto1, RxCRCEn/TxCRCEn checking on receive,
water levels, IRQ pin, analog settings (RFCfgReg is stored only).

The hardware's hostile habits, modelled because a real table meets them:

* Power.  `power(False)` cuts the chip's supply: it answers nothing (it drives no MISO) and its
  field is off.  `power(True)` (or `power_cycle()`, a brown-out) brings it back with the
  power-on register values of datasheet section 9.3 (_RESET_VALUES, tables 25 to 111): no
  TAuto, no 100 % ASK, antenna off, so a transceive never starts the timer and the driver's
  guard time runs out (ERR_HW), until the driver configures it again.
* Collisions, bit by bit.  When two cards answer with different bits, the chip raises ErrIRq and
  sets ErrorReg.CollErr and CollReg.CollPos at the colliding bit, while the rest of the frame is
  still arriving; RxIRq comes at the end of the frame.  With CollReg.ValuesAfterColl = 0 the bits
  after the collision are received as 0 (datasheet 9.3.1.15).  Writing Idle to CommandReg
  before the end stops the reception: the FIFO keeps only the bytes completed by then, and
  ControlReg.RxLastBits is not updated.
* A command cuts a Transmit short.  A command written to CommandReg while a Transmit frame (a
  HLTA) is still on air stops it (datasheet 10.2), and no card acts on the truncated frame: the
  cards' states are put back (_cut, Card.keep/restore).  A driver that does not wait for TxIRq
  before its next command leaves the card ACTIVE (issue 29).
* The SPI bus (SimSPI).  A deselected device with `holds_miso` (a clone module whose MISO
  driver does not go high-impedance when its chip select is high, miguelbalboa/rfid#290)
  drives MISO low, so every other device on the bus reads 0x00.  With no device driving it,
  MISO reads `idle`: 0xFF (a pull-up), 0x00 (a pull-down: the RP2040's GPIOs reset with their
  pull-down on, RP2040 datasheet 2.19.6) or None, a floating input (an ESP32-S3 MISO with no
  pull), which reads noise.

Time: a SimClock shared by the bus.  Every SPI call costs `call_us` (host overhead, one call
of the MicroPython SPI API plus the chip-select toggles) plus the bits at `baud`.  Air time,
the card's frame delay and the timer run on the same clock, so an empty reader poll costs the
configured receive timeout plus the register traffic around it.
"""

from sim_cards import Field, FDT_US, air_us, crc_preset

try:
    # bound once: pace() runs at every chip-select edge and driver wait, and an import or an
    # attribute look-up there is the simulator's CPU, which a board does not spend (issue 29)
    from time import ticks_diff as _ticks_diff, ticks_us as _ticks_us
except ImportError:  # CPython: never paced (run_sim.py --paced runs under the unix port)
    _ticks_diff = _ticks_us = None

# registers
CommandReg = 0x01
ComIEnReg = 0x02
DivIEnReg = 0x03
ComIrqReg = 0x04
DivIrqReg = 0x05
ErrorReg = 0x06
Status1Reg = 0x07
Status2Reg = 0x08
FIFODataReg = 0x09
FIFOLevelReg = 0x0A
ControlReg = 0x0C
BitFramingReg = 0x0D
CollReg = 0x0E
ModeReg = 0x11
TxModeReg = 0x12
RxModeReg = 0x13
TxControlReg = 0x14
TxASKReg = 0x15
CRCResultRegH = 0x21
CRCResultRegL = 0x22
ModWidthReg = 0x24
RFCfgReg = 0x26
TModeReg = 0x2A
TPrescalerReg = 0x2B
TReloadRegH = 0x2C
TReloadRegL = 0x2D
VersionReg = 0x37

CMD_IDLE = 0x00
CMD_MEM = 0x01
CMD_CALC_CRC = 0x03
CMD_TRANSMIT = 0x04
CMD_RECEIVE = 0x08
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F

EV_NONE = 0
EV_RX = 1
EV_TIMER = 2
EV_TX = 3

# Power-on values (MFRC522 datasheet section 9.3, the "reset value" of each register table);
# every register not listed resets to 0x00 (TModeReg, TPrescalerReg, TReloadReg, TxASKReg...).
_RESET_VALUES = (
    (CommandReg, 0x20), (ComIEnReg, 0x80), (ComIrqReg, 0x14), (Status1Reg, 0x21),
    (0x0B, 0x08), (ControlReg, 0x10), (CollReg, 0xA0), (ModeReg, 0x3F),
    (TxControlReg, 0x80), (0x16, 0x10), (0x17, 0x84), (0x18, 0x84), (0x19, 0x4D),
    (0x1C, 0x62), (0x1F, 0xEB), (CRCResultRegH, 0xFF), (CRCResultRegL, 0xFF),
    (ModWidthReg, 0x26), (RFCfgReg, 0x48), (0x27, 0x88), (0x28, 0x20), (0x29, 0x20),
    (0x33, 0x80), (0x36, 0x40),
)
# Version values a chip may report (VersionReg): NXP 1.0 and 2.0, and the clones'
# (miguelbalboa/rfid PCD_DumpVersionToSerial, issue 24)
VERSIONS = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522 clone", 0x12: "counterfeit clone",
            0xB2: "FM17522E clone"}
BIT_US_X100 = 944  # one bit on air at 106 kbit/s, in 1/100 us


class SimClock:
    """Simulated time in integer microseconds: the board's time as the bus traffic, the chips'
    timers and the drivers' waits cost it (SimSPI, SimPin, the chips).

    paced=True (run_sim.py --paced, which `maester bench hil` turns on): the board's time is also
    waited out in wall time, so no reader transaction ends before a board would end it.  The unix
    port runs the drivers' Python about 5x faster than a Pico, so unpaced a poll ends long before
    its modelled time and a tap-to-light figure undercounts what a board shows.  pace() runs at each
    chip-select edge and at each wait or clock read of the drivers: it spins until the wall time
    since the last pace is at least the modelled time since then, then starts a new span.  Wall time
    that already passed (the board idle, or the host's own Python slower than the model) is never
    paid back, so a span costs max(wall, modelled); the Python between two transactions (not in the
    model) is counted as the unix port runs it, which still undercounts a board's.
    """

    def __init__(self, paced=False):
        self.now = 0
        self.paced = paced
        self._span_model = 0  # self.now when the span began
        self._span_wall = None  # the wall ticks_us then

    def pace(self):
        if not self.paced:
            return
        model = self.now - self._span_model
        w = _ticks_us()
        if self._span_wall is not None:
            while _ticks_diff(w, self._span_wall) < model:
                w = _ticks_us()
        self._span_wall = w
        self._span_model = self.now

    def advance(self, us):
        self.now += us

    def sleep_us(self, us):
        self.now += us
        self.pace()

    def sleep_ms(self, ms):
        self.now += ms * 1000
        self.pace()

    def ticks_us(self):
        self.pace()
        return self.now


class SimPin:
    """A chip-select pin: `pin.value(v)`, `pin(v)`, on()/off().  Tells its device on edges."""

    def __init__(self, clock, value=1, pin_us=2):
        self.clock = clock
        self._v = value
        self.dev = None
        self.pin_us = pin_us

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        if v != self._v:
            self._v = v
            self.clock.now += self.pin_us
            self.clock.pace()  # a transaction starts (its wait so far is over) or ends (waited out)
            d = self.dev
            if d is not None:
                if v:
                    d.cs_high()
                else:
                    d.cs_low()
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SimSPI:
    """An SPI bus shared by several devices; the device whose CS pin is low gets the bytes.

    MISO: what the selected device drives; a deselected device that `holds_miso` pulls it to 0;
    nobody driving it reads `idle` (0xFF pull-up, 0x00 pull-down, None floating: noise).  A device's
    xfer returns None when it drives nothing (unpowered).  Two selected at once counts a conflict
    (and neither is heard).
    """

    def __init__(self, clock, baud=4_000_000, call_us=20, idle=0xFF):
        self.clock = clock
        self.baud = baud
        self.call_us = call_us
        self.idle = idle
        self.devices = []
        self.calls = 0
        self.nbytes = 0
        self.conflicts = 0
        self._noise = 0x2545F491  # a floating input's reads (xorshift)

    def attach(self, dev):
        self.devices.append(dev)

    def _selected(self):
        found = None
        for d in self.devices:
            if d.cs._v == 0:
                if found is not None:
                    self.conflicts += 1
                    return None
                found = d
        return found

    def _held_low(self, sel):
        for d in self.devices:
            if d is not sel and getattr(d, "holds_miso", False) and getattr(d, "powered", True):
                return True
        return False

    def _float(self):
        if self.idle is not None:
            return self.idle
        x = self._noise
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._noise = x
        return x & 0xFF

    def _miso(self, d, b, low):
        v = d.xfer(b) if d is not None else None
        if low:
            return 0
        return v if v is not None else self._float()

    def _cost(self, n):
        self.calls += 1
        self.nbytes += n
        self.clock.now += self.call_us + (n * 8_000_000) // self.baud

    def write(self, buf):
        n = len(buf)
        self._cost(n)
        d = self._selected()
        if d is not None:
            for i in range(n):
                d.xfer(buf[i])

    def readinto(self, buf, write=0):
        n = len(buf)
        self._cost(n)
        d = self._selected()
        low = self._held_low(d)
        for i in range(n):
            buf[i] = self._miso(d, write, low)

    def write_readinto(self, wbuf, rbuf):
        n = len(wbuf)
        self._cost(n)
        d = self._selected()
        low = self._held_low(d)
        for i in range(n):
            rbuf[i] = self._miso(d, wbuf[i], low)


class SimMFRC522:
    def __init__(self, spi, cs=None, field=None, version=0x92, name="", holds_miso=False):
        self.holds_miso = holds_miso  # a module that keeps driving MISO low when not selected
        self.powered = True
        self.rx_at = 0  # when the answer's first bit arrives
        self.coll_at = -1  # when its colliding bit arrives (-1: no collision), and whether it was flagged
        self.coll_flagged = False
        self.spi = spi
        self.clock = spi.clock
        self.cs = cs if cs is not None else SimPin(spi.clock)
        self.cs.dev = self
        spi.attach(self)
        self.name = name
        self.field = field if field is not None else Field(name)
        self.field.clock = self.clock  # cards powered by a field switched on take POWER_UP_US
        self.version = version
        self.regs = bytearray(64)
        self.fifo = bytearray(64)
        self.fifo_r = 0
        self.fifo_n = 0
        self.txbuf = bytearray(66)
        self.rxbuf = bytearray(24)
        self.rx_bits = 0
        self.rx_coll = -1
        self.rx_parity = False
        self.ev = EV_NONE
        self.ev_at = 0
        # SPI transaction state
        self._first = True
        self._mode = 0            # 1 read, 2 write
        self._waddr = 0
        self._out = 0
        # statistics for tests
        self.transceives = 0
        self.requests = 0  # REQA/WUPA frames: one per presence poll
        self.irq_reads = 0
        self.tx_cuts = 0  # Transmit frames stopped mid-air by a command (_cut)
        self.tx_kept = False  # the cards kept their state before the Transmit frame on air
        self.resets = 0
        self.reset()

    # -- chip state ----------------------------------------------------------------------
    def power(self, on):
        """Supply on or off.  Off: no answer on the bus, the field drops.  On: power-on reset."""
        if on and not self.powered:
            self.powered = True
            self.reset()
        elif not on:
            self.powered = False
            self.ev = EV_NONE
            self.field.set_on(False)

    def power_cycle(self):
        """A supply dip, a re-seated connector: the chip comes back at its power-on values."""
        self.power(False)
        self.power(True)

    def reset(self):
        r = self.regs
        for i in range(64):
            r[i] = 0
        for a, v in _RESET_VALUES:
            r[a] = v
        r[VersionReg] = self.version
        self.fifo_r = 0
        self.fifo_n = 0
        self.ev = EV_NONE
        self.coll_at = -1
        self.field.set_on(False)
        self.resets += 1

    def fifo_level(self):
        return self.fifo_n - self.fifo_r

    def _push(self, v):
        if self.fifo_n >= 64:
            if self.fifo_r == 0:
                self.regs[ErrorReg] |= 0x10          # BufferOvfl
                return
            n = self.fifo_n - self.fifo_r
            for i in range(n):
                self.fifo[i] = self.fifo[self.fifo_r + i]
            self.fifo_r = 0
            self.fifo_n = n
        self.fifo[self.fifo_n] = v
        self.fifo_n += 1

    def _pop(self):
        if self.fifo_r >= self.fifo_n:
            return 0
        v = self.fifo[self.fifo_r]
        self.fifo_r += 1
        if self.fifo_r == self.fifo_n:
            self.fifo_r = 0
            self.fifo_n = 0
        return v

    def _flush(self):
        self.fifo_r = 0
        self.fifo_n = 0
        self.regs[ErrorReg] &= ~0x10 & 0xFF

    def timer_us(self):
        """Receive timeout from TModeReg/TPrescalerReg/TReloadReg (TPrescalEven = 0)."""
        r = self.regs
        p = ((r[TModeReg] & 0x0F) << 8) | r[TPrescalerReg]
        reload = (r[TReloadRegH] << 8) | r[TReloadRegL]
        return ((2 * p + 1) * (reload + 1) * 100) // 1356

    def _update(self):
        if self.ev == EV_NONE:
            return
        if self.coll_at >= 0 and not self.coll_flagged and self.clock.now >= self.coll_at:
            self._flag_collision()  # the colliding bit has arrived; the frame has not ended
        if self.clock.now < self.ev_at:
            return
        ev = self.ev
        self.ev = EV_NONE
        r = self.regs
        if ev == EV_TIMER:
            r[ComIrqReg] |= 0x41                     # TxIRq, TimerIRq
        elif ev == EV_TX:
            r[ComIrqReg] |= 0x50                     # TxIRq, IdleIRq
            r[CommandReg] = r[CommandReg] & 0xF0
        elif ev == EV_RX:
            self._deliver()

    def _bits_by(self, t):
        """How many of the answer's bits have been received by time t (us)."""
        n = 0
        while n < self.rx_bits:
            # bit n ends after the start bit, n + 1 data bits and a parity bit per byte before it
            if self.rx_at + ((2 + n + n // 8) * BIT_US_X100) // 100 > t:
                break
            n += 1
        return n

    def _flag_collision(self):
        r = self.regs
        self.coll_flagged = True
        align = (r[BitFramingReg] >> 4) & 7
        r[ErrorReg] |= 0x08                           # CollErr
        p = align + self.rx_coll + 1
        r[CollReg] = (r[CollReg] & 0x80) | (0x20 if p > 32 else p & 0x1F)
        r[ComIrqReg] |= 0x02                          # ErrIRq

    def _abort(self):
        """Idle written while an answer is arriving: the FIFO keeps the bytes completed by now."""
        got = self._bits_by(self.clock.now)
        align = (self.regs[BitFramingReg] >> 4) & 7
        keep = ((align + got) >> 3) << 3              # whole FIFO bytes only
        self._deliver(keep - align if keep > align else 0, False)

    def _deliver(self, bits=-1, done=True):
        r = self.regs
        align = (r[BitFramingReg] >> 4) & 7
        if bits < 0:
            bits = self.rx_bits
        total = align + bits
        nbytes = (total + 7) >> 3
        if nbytes > 64:
            r[ErrorReg] |= 0x10
            nbytes = 64
        f = self.fifo
        for i in range(nbytes):
            f[i] = 0
        self.fifo_r = 0
        self.fifo_n = nbytes
        coll = self.rx_coll
        keep = r[CollReg] & 0x80                      # ValuesAfterColl
        src = self.rxbuf
        for j in range(bits):
            if coll >= 0 and j >= coll and not keep:
                break
            if (src[j >> 3] >> (j & 7)) & 1:
                p = align + j
                f[p >> 3] |= 1 << (p & 7)
        if not done:
            return                                    # stopped early: no RxIRq, RxLastBits as it was
        r[ControlReg] = (r[ControlReg] & 0xF8) | (total & 7)
        if coll >= 0:
            if not self.coll_flagged:
                self._flag_collision()
        else:
            r[CollReg] = (r[CollReg] & 0x80) | 0x20  # CollPosNotValid
        if self.rx_parity:
            r[ErrorReg] |= 0x02                       # ParityErr
        irq = 0x60                                    # TxIRq, RxIRq
        if r[ErrorReg] & 0x1F:
            irq |= 0x02                               # ErrIRq
        r[ComIrqReg] |= irq

    def _cut(self):
        """A command written while a Transmit frame is on air: the chip stops it, no card got it."""
        self.tx_cuts += 1
        if self.tx_kept:
            for c in self.field.cards:
                c.restore()

    def _calc_crc(self):
        r = self.regs
        preset = (0x0000, 0x6363, 0xA671, 0xFFFF)[r[ModeReg] & 0x03]
        n = self.fifo_n - self.fifo_r
        c = crc_preset(self.fifo, self.fifo_r, n, preset)
        self.fifo_r = 0
        self.fifo_n = 0
        r[CRCResultRegH] = c >> 8
        r[CRCResultRegL] = c & 0xFF
        r[DivIrqReg] |= 0x04                          # CRCIRq

    def _transmit(self, transceive):
        r = self.regs
        n = self.fifo_n - self.fifo_r
        tx = self.txbuf
        for i in range(n):
            tx[i] = self.fifo[self.fifo_r + i]
        self.fifo_r = 0
        self.fifo_n = 0
        last = r[BitFramingReg] & 7
        nbits = 0 if n == 0 else (n - 1) * 8 + (last if last else 8)
        if r[TxModeReg] & 0x80 and n:
            c = crc_preset(tx, 0, n, (0x0000, 0x6363, 0xA671, 0xFFFF)[r[ModeReg] & 0x03])
            tx[n] = c & 0xFF
            tx[n + 1] = c >> 8
            nbits += 16
        r[ErrorReg] &= 0x40
        self.transceives += 1
        fld = self.field
        heard = fld.on and (r[TxASKReg] & 0x40) and nbits > 0
        if nbits == 7 and (tx[0] == 0x26 or tx[0] == 0x52) and heard and not self.spi._held_low(self):
            # a REQA or WUPA that could find a card and whose answer the firmware can read: one
            # presence poll. Not with the field off (a chip reset to its power-on values) nor with
            # MISO held by another module: those polls see nothing, and a test that waits for the
            # firmware to notice a lifted card (simboard.settled) must not count them.
            self.requests += 1
        rx = 0
        self.tx_kept = heard and not transceive
        if heard:
            if not transceive:
                # Transmit (a HLTA): a command written before the frame's end stops the chip
                # mid-frame (datasheet 10.2: a command written to CommandReg ends the one running;
                # 10.3.1.5 Transmit), and a truncated frame reaches no card. The cards take the
                # frame now; _cut puts back what they were if it is stopped before its end.
                for c in fld.cards:
                    c.keep()
            rx = fld.transmit(tx, nbits)
            tx_us = fld.tx_us
        else:
            tx_us = air_us(nbits)
        now = self.clock.now
        if not transceive:
            self.ev = EV_TX
            self.ev_at = now + tx_us
            return
        timer = self.timer_us() if r[TModeReg] & 0x80 else -1
        if rx and (timer < 0 or FDT_US < timer):
            for i in range((rx + 7) >> 3):
                self.rxbuf[i] = fld.rx[i]
            self.rx_bits = rx
            self.rx_coll = fld.coll_bit
            self.rx_parity = fld.parity_err
            self.rx_at = now + tx_us + FDT_US
            self.coll_flagged = False
            self.coll_at = -1
            if fld.coll_bit >= 0:
                c = fld.coll_bit
                self.coll_at = self.rx_at + ((2 + c + c // 8) * BIT_US_X100) // 100
            self.ev = EV_RX
            self.ev_at = now + tx_us + fld.rx_us
        elif timer >= 0:
            self.ev = EV_TIMER
            self.ev_at = now + tx_us + timer
        else:
            self.ev = EV_NONE                         # no timer: waits forever

    # -- register access -----------------------------------------------------------------
    def read_reg(self, a):
        self._update()
        r = self.regs
        if a == FIFODataReg:
            return self._pop()
        if a == FIFOLevelReg:
            return self.fifo_n - self.fifo_r
        if a == ComIrqReg:
            self.irq_reads += 1
        return r[a]

    def write_reg(self, a, v):
        self._update()
        r = self.regs
        if a == FIFODataReg:
            self._push(v)
        elif a == FIFOLevelReg:
            if v & 0x80:
                self._flush()
        elif a == ComIrqReg:
            if v & 0x80:
                r[a] |= v & 0x7F
            else:
                r[a] &= ~v & 0x7F
        elif a == DivIrqReg:
            if v & 0x80:
                r[a] |= v & 0x7F
            else:
                r[a] &= ~v & 0x7F
        elif a == CommandReg:
            if self.ev == EV_TX:
                self._cut()                           # still on air (_update above did not end it)
            cmd = v & 0x0F
            r[a] = (v & 0x30) | cmd
            if cmd == CMD_SOFT_RESET:
                self.reset()
                r[CommandReg] = 0x20                  # reset done: RcvOff, Idle, PowerDown 0
            elif cmd == CMD_IDLE:
                if self.ev == EV_RX:
                    self._abort()
                self.ev = EV_NONE
            elif cmd == CMD_CALC_CRC:
                self._calc_crc()
            elif cmd == CMD_TRANSMIT:
                self._transmit(False)
            elif cmd == CMD_TRANSCEIVE:
                if r[BitFramingReg] & 0x80:
                    self._transmit(True)
        elif a == BitFramingReg:
            r[a] = v
            if v & 0x80 and (r[CommandReg] & 0x0F) == CMD_TRANSCEIVE:
                self._transmit(True)
        elif a == TxControlReg:
            r[a] = v
            self.field.set_on((v & 0x03) != 0)
        elif a == ErrorReg or a == VersionReg or a == Status1Reg:
            pass                                      # read-only
        else:
            r[a] = v

    # -- SPI byte stream -----------------------------------------------------------------
    def cs_low(self):
        if not self.powered:
            return
        self._first = True
        self._mode = 0
        self._out = 0

    def cs_high(self):
        self._mode = 0

    def xfer(self, b):
        if not self.powered:
            return None                               # drives nothing
        out = self._out
        if self._first:
            self._first = False
            a = (b >> 1) & 0x3F
            if b & 0x80:
                self._mode = 1
                self._out = self.read_reg(a)
            else:
                self._mode = 2
                self._waddr = a
                self._out = 0
        elif self._mode == 1:
            self._out = self.read_reg((b >> 1) & 0x3F) if b & 0x80 else 0
        elif self._mode == 2:
            self.write_reg(self._waddr, b)
        return out


class Rig:
    """One SPI bus, one SimClock, `n` simulated MFRC522 readers each with its own CS pin."""

    def __init__(self, n=1, baud=4_000_000, call_us=20, idle=0xFF):
        self.clock = SimClock()
        self.spi = SimSPI(self.clock, baud, call_us, idle)
        self.chips = []
        for i in range(n):
            self.chips.append(SimMFRC522(self.spi, SimPin(self.clock), name="r%d" % i))

    def field(self, i=0):
        return self.chips[i].field

    def driver(self, i=0, timeout_us=1000, gain=5):
        from maester_fw.mfrc522 import MFRC522
        return MFRC522(self.spi, self.chips[i].cs, timeout_us=timeout_us, gain=gain,
                       sleep_us=self.clock.sleep_us, ticks_us=self.clock.ticks_us)
