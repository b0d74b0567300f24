"""Simulated ISO/IEC 14443-A cards and the RF field of one reader.

Shared by the MFRC522 simulator (register level) and the PN532 simulator (frame level).
Runs on CPython and on the MicroPython unix port.  The per-frame path avoids heap
allocation (preallocated bytearrays, integer arithmetic only) so that heap tests of the
firmware are not blurred by the simulator.

Bits travel LSB first inside each byte, as on the air.  A frame is (buffer, number of valid
bits); a card's answer is written into `card.resp` and its length in bits is returned.

Card states follow ISO/IEC 14443-3 (and the NTAG21x datasheet):

    OFF --field on--> IDLE --REQA/WUPA--> READY --SELECT(all levels)--> ACTIVE --HLTA--> HALT
                        ^                  |  any unexpected frame                      |
                        +------------------+  (back to HALT instead if woken from HALT)  |
                      HALT --WUPA--> READY (marked "from halt")  <------------------------+
    REQA does not wake a HALT card; WUPA wakes IDLE and HALT cards.
"""

OFF = 0
IDLE = 1
READY = 2
ACTIVE = 3
HALT = 4
STATE_NAMES = ("OFF", "IDLE", "READY", "ACTIVE", "HALT")

REQA = 0x26
WUPA = 0x52
SEL_CL1 = 0x93
SEL_CL2 = 0x95
SEL_CL3 = 0x97
CT = 0x88           # cascade tag
NTAG_READ = 0x30
HLTA = 0x50

# Air timing at 106 kbit/s: one bit lasts 128 / 13.56 MHz = 9.44 us.  Each byte carries a
# parity bit; a frame adds a start and an end bit.  FDT = frame delay time, the gap
# between the end of the reader's frame and the card's answer (1236/fc = 91 us).
BIT_NS = 9440
FDT_US = 91
# A card powered up by a field that was just switched on may need time before it takes a command:
# ISO/IEC 14443-3 clause 5.2.1 (Polling) lets a PICC take up to 5 ms of unmodulated field before it
# must accept a REQA or WUPA (a PCD that wants every card gives 5.1 ms). The sim takes the most the
# standard allows, so a firmware that toggles the field is never judged kinder than by a card.
POWER_UP_US = 5000


def air_us(nbits):
    """Time on air of a frame holding `nbits` data bits (parity, start and end bits added)."""
    return ((nbits + nbits // 8 + 2) * BIT_NS) // 1000


def crc_a(buf, start, n):
    """CRC_A of ISO/IEC 14443-3 (reflected 0x8408, preset 0x6363, no final xor).

    Returns an int: low byte first on the air.  crc_a(b'\\x50\\x00', 0, 2) == 0xCD57.
    """
    crc = 0x6363
    for i in range(start, start + n):
        ch = (buf[i] ^ crc) & 0xFF
        ch = (ch ^ (ch << 4)) & 0xFF
        crc = ((crc >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4)) & 0xFFFF
    return crc


def crc_preset(buf, start, n, preset):
    """Same CRC with another preset (the MFRC522 ModeReg allows 0000, 6363, A671, FFFF)."""
    crc = preset
    for i in range(start, start + n):
        ch = (buf[i] ^ crc) & 0xFF
        ch = (ch ^ (ch << 4)) & 0xFF
        crc = ((crc >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4)) & 0xFFFF
    return crc


def ndef_text_tlv(text, lang="en"):
    """An NDEF message TLV holding one well-known Text record ("T"), then the terminator TLV."""
    if isinstance(text, str):
        text = text.encode()
    if isinstance(lang, str):
        lang = lang.encode()
    payload = bytes([len(lang)]) + lang + text
    # header 0xD1: MB | ME | SR, TNF = 1 (well known); type length 1; type "T"
    record = bytes([0xD1, 0x01, len(payload), 0x54]) + payload
    return bytes([0x03, len(record)]) + record + b"\xfe"


class Card:
    """A Type 2 tag (NTAG21x-like) with a 4-, 7- or 10-byte UID.

    Memory: page 0-2 hold the UID and its check bytes as on an NTAG, page 3 the capability
    container, user memory from page 4.  A 4- or 10-byte UID card is not a real NTAG, but the
    same memory model is used so every UID size can be read through both drivers.

    classic=True makes a MIFARE Classic instead (SAK 0x08): it is found and selected like
    any type A card, but its memory needs Crypto1 authentication (not modelled), so it
    answers an NTAG READ with a NAK and stays ACTIVE.  (Staying ACTIVE is an assumption. It
    matches what was seen on a PN532 table, where every READ probe of a resting Classic
    failed until the presence machine gave up and reported it removed.)
    """

    def __init__(self, uid, pages=45, sak=None, atqa=None, text=None, name=None, classic=False):
        uid = bytes(uid)
        n = len(uid)
        if n not in (4, 7, 10):
            raise ValueError("UID must be 4, 7 or 10 bytes")
        self.uid = uid
        self.name = name or uid.hex()
        self.levels = 1 if n == 4 else (2 if n == 7 else 3)
        if atqa is None:
            # ATQA bits 7..6 give the UID size; bit 2 = bit-frame anticollision supported.
            atqa = (0x0004, 0x0044, 0x0084)[self.levels - 1]
        self.atqa = atqa
        self.classic = classic
        self.sak = sak if sak is not None else (0x08 if classic else 0x00)
        # Cascade level bytes: 3 levels x (4 bytes + BCC)
        self.cl = bytearray(15)
        if n == 4:
            parts = (uid[0:4],)
        elif n == 7:
            parts = (bytes([CT]) + uid[0:3], uid[3:7])
        else:
            parts = (bytes([CT]) + uid[0:3], bytes([CT]) + uid[3:6], uid[6:10])
        for lv, p in enumerate(parts):
            for i in range(4):
                self.cl[lv * 5 + i] = p[i]
            self.cl[lv * 5 + 4] = p[0] ^ p[1] ^ p[2] ^ p[3]
        self.npages = pages
        self.mem = bytearray(pages * 4)
        self._init_memory(text)
        self.state = OFF
        self.level = 0
        self.from_halt = False
        self.mute = 0               # ignore the next N frames entirely (detuned / phantom drop)
        self.ready_at = 0           # deaf until this time (us, the field's clock): POWER_UP_US
        self.resp = bytearray(24)
        self.frames_heard = 0
        self._kept = OFF             # keep(): the state before a frame that may be cut short
        self._kept_level = 0
        self._kept_halt = False
        self._kept_mute = 0

    def _init_memory(self, text):
        m = self.mem
        u = self.uid
        if len(u) == 7:
            m[0], m[1], m[2] = u[0], u[1], u[2]
            m[3] = CT ^ u[0] ^ u[1] ^ u[2]
            m[4], m[5], m[6], m[7] = u[3], u[4], u[5], u[6]
            m[8] = u[3] ^ u[4] ^ u[5] ^ u[6]
            m[9] = 0x48
        else:
            for i in range(min(len(u), 8)):
                m[i] = u[i]
        # capability container: NDEF magic, version 1.0, data area size / 8, read/write
        m[12], m[13], m[14], m[15] = 0xE1, 0x10, max(0, (self.npages - 4) * 4 // 8) & 0xFF, 0x00
        if text is not None:
            self.write_user(ndef_text_tlv(text))
        else:
            m[16], m[17], m[18] = 0x03, 0x00, 0xFE   # empty NDEF message

    def write_user(self, data, page=4):
        off = page * 4
        if off + len(data) > len(self.mem):
            raise ValueError("data does not fit in card memory")
        for i, b in enumerate(data):
            self.mem[off + i] = b

    def keep(self):
        """Remember the state before a frame that may yet be cut short (sim_mfrc522._cut)."""
        self._kept = self.state
        self._kept_level = self.level
        self._kept_halt = self.from_halt
        self._kept_mute = self.mute

    def restore(self):
        """The frame was cut short: the card never got it."""
        self.state = self._kept
        self.level = self._kept_level
        self.from_halt = self._kept_halt
        self.mute = self._kept_mute

    # -- power ---------------------------------------------------------------------------
    def power_on(self):
        if self.state == OFF:
            self.state = IDLE
            self.level = 0
            self.from_halt = False

    def power_off(self):
        self.state = OFF

    def state_name(self):
        return STATE_NAMES[self.state]

    # -- helpers -------------------------------------------------------------------------
    def _fallback(self):
        """An unexpected frame in READY or ACTIVE sends the card back to IDLE (or HALT)."""
        self.state = HALT if self.from_halt else IDLE
        self.level = 0

    def _clbit(self, base, i):
        return (self.cl[base + (i >> 3)] >> (i & 7)) & 1

    def _put_crc(self, n):
        c = crc_a(self.resp, 0, n)
        self.resp[n] = c & 0xFF
        self.resp[n + 1] = c >> 8

    # -- the air interface ---------------------------------------------------------------
    def hear(self, frame, nbits):
        """React to a reader frame.  Returns the answer length in bits (0 = silent)."""
        if self.state == OFF:
            return 0
        if self.mute > 0:
            self.mute -= 1
            return 0
        self.frames_heard += 1
        st = self.state
        if nbits == 7:
            cmd = frame[0] & 0x7F
            if (cmd == REQA and st == IDLE) or (cmd == WUPA and (st == IDLE or st == HALT)):
                self.from_halt = st == HALT
                self.state = READY
                self.level = 1
                self.resp[0] = self.atqa & 0xFF
                self.resp[1] = self.atqa >> 8
                return 16
            if st == READY or st == ACTIVE:
                self._fallback()
            return 0
        if nbits < 16:
            if st == READY or st == ACTIVE:
                self._fallback()
            return 0
        cmd = frame[0]
        if st == READY:
            return self._ready(frame, nbits, cmd)
        if st == ACTIVE:
            return self._active(frame, nbits, cmd)
        return 0

    def _ready(self, frame, nbits, cmd):
        lv = self.level
        if lv > self.levels or cmd != SEL_CL1 + 2 * (lv - 1):
            self._fallback()
            return 0
        base = (lv - 1) * 5
        nvb = frame[1]
        if nvb == 0x70:
            # full SELECT: 2 + 5 bytes + CRC_A
            if nbits != 72 or crc_a(frame, 0, 7) != (frame[7] | (frame[8] << 8)):
                self._fallback()
                return 0
            for i in range(5):
                if frame[2 + i] != self.cl[base + i]:
                    self._fallback()        # another card was selected
                    return 0
            if lv < self.levels:
                self.resp[0] = 0x04         # cascade bit: UID not complete
                self.level = lv + 1
            else:
                self.resp[0] = self.sak
                self.state = ACTIVE
            self._put_crc(1)
            return 24
        # ANTICOLLISION: NVB high nibble = whole bytes sent (incl. SEL and NVB), low = bits
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        if known < 0 or known > 40 or nbits != 16 + known:
            self._fallback()
            return 0
        for i in range(known):
            if ((frame[2 + (i >> 3)] >> (i & 7)) & 1) != self._clbit(base, i):
                return 0                    # not this card's prefix: stay quiet, stay READY
        r = self.resp
        for i in range(6):
            r[i] = 0
        n = 40 - known
        for j in range(n):
            if self._clbit(base, known + j):
                r[j >> 3] |= 1 << (j & 7)
        return n

    def _active(self, frame, nbits, cmd):
        if nbits != 32 or crc_a(frame, 0, 2) != (frame[2] | (frame[3] << 8)):
            self._fallback()
            return 0
        if cmd == HLTA and frame[1] == 0:
            self.state = HALT
            self.level = 0
            return 0
        if cmd == NTAG_READ and self.classic:
            self.resp[0] = 0x04            # NAK (4-bit answer): not authenticated
            return 4
        if cmd == NTAG_READ:
            page = frame[1]
            if page >= self.npages:
                self.resp[0] = 0x00        # NAK: invalid argument (4-bit answer)
                self._fallback()
                return 4
            total = self.npages * 4
            off = page * 4
            m = self.mem
            r = self.resp
            for i in range(16):            # reading past the end rolls over to page 0
                r[i] = m[(off + i) % total]
            self._put_crc(16)
            return 144
        self._fallback()
        return 0


class Field:
    """The RF field of one reader antenna and the cards lying in it.

    `transmit(frame, nbits)` sends a frame to every card and combines the answers the way a
    receiver sees them: identical bits add up, differing bits are a collision.  Results are
    left in attributes (no tuple is built): rx, rx_bits, coll_bit, parity_err, tx_us, rx_us.

    Fault injection:
      noise_next = N    corrupt the next N answers
      noise_at(k)       corrupt only the k-th answer from now (1 = the next one)
      noise_every = K   corrupt every K-th answer
      noise_mode        "crc" (two flipped bits in one byte: parity still fine, CRC/BCC fails;
                        a 16-bit ATQA gets a parity error instead) or "parity"
      remove_after(n, card)   take `card` away after n more frames (mid-transaction removal)
      card.mute = N     the card ignores N frames (a clean miss while it lies there)
    """

    def __init__(self, name=""):
        self.name = name
        self.cards = []
        self.on = False
        # The SimClock of the reader driving this field (set by the MFRC522 model), for the cards'
        # power-up time after the field is switched on; None: cards answer at once. A card laid into a
        # field that is on came in from above, already powered by the time it lies there.
        self.clock = None
        # Called as each frame starts, before any card hears it (hal_sim.Table: the cards a player
        # laid since the last frame come into the field then, whatever the loop was doing)
        self.on_air = None
        self.rx = bytearray(24)
        self.rx_bits = 0
        self.coll_bit = -1
        self.parity_err = False
        self.tx_us = 0
        self.rx_us = 0
        self.noise_next = 0
        self.noise_every = 0
        self.noise_mode = "crc"
        self._noise_in = 0
        self.frames = 0
        self.answers = 0
        self.corrupted = 0
        self._rm_after = -1
        self._rm_card = None

    # -- scene ---------------------------------------------------------------------------
    def place(self, card):
        if card not in self.cards:
            self.cards.append(card)
        card.power_off()
        if self.on:
            card.power_on()
        card.keep()  # laid during a frame it never heard: a frame cut short puts it back as it came

    def remove(self, card):
        if card in self.cards:
            self.cards.remove(card)
        card.power_off()

    def clear(self):
        for c in self.cards:
            c.power_off()
        self.cards = []

    def noise_at(self, k):
        self._noise_in = k

    def remove_after(self, frames, card):
        self._rm_after = frames
        self._rm_card = card

    def set_on(self, on):
        on = bool(on)
        if on and not self.on:
            ready = self.clock.now + POWER_UP_US if self.clock is not None else 0
            for c in self.cards:
                c.power_on()
                c.ready_at = ready
        elif not on and self.on:
            for c in self.cards:
                c.power_off()
        self.on = on

    # -- air -----------------------------------------------------------------------------
    def transmit(self, frame, nbits):
        if self.on_air is not None:
            self.on_air()
        self.frames += 1
        self.tx_us = air_us(nbits)
        self.rx_bits = 0
        self.rx_us = 0
        self.coll_bit = -1
        self.parity_err = False
        if self._rm_after >= 0:
            if self._rm_after == 0:
                self.remove(self._rm_card)
                self._rm_after = -1
                self._rm_card = None
            else:
                self._rm_after -= 1
        if not self.on:
            return 0
        rx = self.rx
        nb = 0
        first = True
        now = self.clock.now if self.clock is not None else 0
        for c in self.cards:
            if c.ready_at > now:
                continue                # still powering up: hears nothing
            n = c.hear(frame, nbits)
            if n == 0:
                continue
            if first:
                first = False
                for i in range((n + 7) >> 3):
                    rx[i] = c.resp[i]
                nb = n
                continue
            # combine: find the first differing bit among the common bits
            m = n if n < nb else nb
            for j in range(m):
                a = (rx[j >> 3] >> (j & 7)) & 1
                b = (c.resp[j >> 3] >> (j & 7)) & 1
                if a != b:
                    if self.coll_bit < 0 or j < self.coll_bit:
                        self.coll_bit = j
                    break
            if n > nb:
                for i in range(nb >> 3, (n + 7) >> 3):
                    rx[i] |= c.resp[i]
                nb = n
        self.rx_bits = nb
        if nb == 0:
            return 0
        self.answers += 1
        self.rx_us = FDT_US + air_us(nb)
        corrupt = False
        if self._noise_in > 0:
            self._noise_in -= 1
            corrupt = self._noise_in == 0
        if self.noise_next > 0:
            self.noise_next -= 1
            corrupt = True
        if self.noise_every > 0 and self.answers % self.noise_every == 0:
            corrupt = True
        if corrupt:
            self.corrupted += 1
            if self.noise_mode == "crc" and nb > 16:
                rx[0] ^= 0x03               # two flips in one byte: parity passes
            else:
                rx[0] ^= 0x01
                self.parity_err = True
        return nb


def activate(field, wupa, uid_out):
    """What a reader's firmware does to find one card: REQA/WUPA, anticollision over the
    cascade levels (on a collision it follows the 1 branch), SELECT.

    Used by the PN532 simulator.  Returns (error, uid_len, sak, atqa, elapsed_us) where error
    uses PN532 codes: 0 ok, 0x01 timeout (no card), 0x02 CRC, 0x03 parity, 0x23 bad BCC.
    """
    f = bytearray(9)
    f[0] = WUPA if wupa else REQA
    t = 0
    n = field.transmit(f, 7)
    t += field.tx_us + (field.rx_us if n else 0)
    if n == 0:
        return 0x01, 0, 0, 0, t
    if field.parity_err:
        return 0x03, 0, 0, 0, t
    atqa = field.rx[0] | (field.rx[1] << 8)
    ulen = 0
    sak = 0
    for lv in range(3):
        sel = (SEL_CL1, SEL_CL2, SEL_CL3)[lv]
        cl = bytearray(5)
        known = 0
        while True:
            f[0] = sel
            f[1] = ((2 + (known >> 3)) << 4) | (known & 7)
            for i in range(5):
                f[2 + i] = cl[i]
            n = field.transmit(f, 16 + known)
            t += field.tx_us + (field.rx_us if n else 0)
            if n == 0:
                return 0x01, 0, 0, 0, t
            if field.parity_err:
                return 0x03, 0, 0, 0, t
            lim = n if field.coll_bit < 0 else field.coll_bit
            for j in range(lim):
                if (field.rx[j >> 3] >> (j & 7)) & 1:
                    k = known + j
                    cl[k >> 3] |= 1 << (k & 7)
            if field.coll_bit < 0:
                break
            k = known + field.coll_bit
            cl[k >> 3] |= 1 << (k & 7)
            known = k + 1
        if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
            return 0x23, 0, 0, 0, t
        f[0] = sel
        f[1] = 0x70
        for i in range(5):
            f[2 + i] = cl[i]
        c = crc_a(f, 0, 7)
        f[7] = c & 0xFF
        f[8] = c >> 8
        n = field.transmit(f, 72)
        t += field.tx_us + (field.rx_us if n else 0)
        if n == 0:
            return 0x01, 0, 0, 0, t
        if field.parity_err:
            return 0x03, 0, 0, 0, t
        if n != 24 or crc_a(field.rx, 0, 1) != (field.rx[1] | (field.rx[2] << 8)):
            return 0x02, 0, 0, 0, t
        sak = field.rx[0]
        if sak & 0x04:
            for i in range(3):
                uid_out[ulen + i] = cl[1 + i]
            ulen += 3
        else:
            for i in range(4):
                uid_out[ulen + i] = cl[i]
            ulen += 4
            return 0, ulen, sak, atqa, t
    return 0x0B, 0, 0, 0, t
