"""Card presence on one reader: a small state machine over reader primitives.

Reader-agnostic: works with any driver that offers
    request(wupa) -> status     REQA (wupa False: IDLE cards only) or WUPA (IDLE and HALT cards)
    select()      -> status     anticollision + SELECT; UID in .uid[:.uid_len]
    check(uid, n) -> status     after request(): OK if the card that answered is uid[:n], alone, as
                                far as a cheap look tells (reselect_every); NO_CARD; else not sure
    read(page, buf16) -> status 16 bytes from `page` (NTAG21x READ)
    halt()        -> status     park the card in HALT
    antenna(on)                 RF field on/off (off resets every card in the field)
with the shared status codes (maester_fw.mfrc522 and maester_fw.pn532 use the same values):
only NO_CARD, a clean timeout, counts as a miss; any other failure means *something*
answered, so it is counted as an error and never as a miss.

    EMPTY --REQA answered, UID read--> SEEN (confirm > 1) --read M times--> PRESENT
      |                                  |                                  |
      |  (confirm == 1: straight to PRESENT, event PLACED)                  |
      |                                  |  N clean misses                  | N clean misses
      |                                  v                                  v (event REMOVED)
      +<--- next poll: field on ---- FIELD_OFF <----------------------------+
    PRESENT: WUPA; every K-th poll also SELECT and compare the UID, the polls between a cheap
             check (driver.check: an MFRC522 compares the first cascade level, where a second
             card collides); a check that is not sure, or the first answer after a miss, SELECTs.
             A different UID without a miss in between -> REMOVED(old) + PLACED(new) in the same
             poll.
    After every read (and after any error) the card is sent to HALT (after the event a read
    makes: the host hears of a new card first), so the next WUPA
    finds it in a known state; REQA would not wake it, which is why resting cards are
    polled with WUPA.  After a removal seen as `miss_limit` clean misses, a reader whose
    driver sends a real WUPA (`wakes_halted`: the MFRC522) keeps its field on and asks with
    WUPA for the next WAKE_POLLS polls: a card we halted that only went deaf (a phantom
    removal) answers it from HALT, and the next card laid, which came in through the field,
    answers at once instead of after a field cycle and its 5.1 ms power-up (issue 29).
    After any other removal (the error backstop below), and on a PN532 (its activation is
    taken to send REQA only), the field is switched off for one poll: a card we halted but
    lost track of is reset to IDLE and found again.
    While EMPTY every `sweep_every`-th poll uses WUPA instead of REQA, so a card left in
    HALT that the machine lost track of is found without a field cycle.
    Backstop: `bad_limit` consecutive polls without a good answer (errors or misses) also
    count as a removal, so a card that only ever answers with errors cannot stay forever.

    CROWDED: two or more cards answer (the driver's `multiple`: a collision on REQA/WUPA or in
    anticollision).  Anticollision picks one of them, the same one every time, so its UID says
    nothing about which card came or went: while crowded the machine keeps the card it had
    (no event), wakes cards with WUPA (a halted one too), and emits CROWDED once.  When one
    card answers alone again it emits UNCROWDED, then goes on as usual: the same card, nothing;
    another, REMOVED(old) + PLACED(new); none, REMOVED after N misses.
    `hw_run` counts polls in a row that ended in ERR_HW (the chip did not respond); the caller
    decides when to set the chip up again, then calls resume().

Events go to `on_event(presence, kind)` (kind PLACED or REMOVED; read presence.uid,
presence.uid_len, presence.data) and poll() returns the last event of the poll:
NONE, PLACED, REMOVED or SWAPPED.  No allocation in poll(): fixed buffers, int counters.
"""

try:
    from micropython import const
except ImportError:  # CPython
    from .cpython import const

from .status import (  # noqa: F401  (re-exported: callers use driver.OK, driver.NO_CARD...)
    ERR_COLLISION, ERR_CRC, ERR_HW, ERR_NAK, ERR_OVERFLOW, ERR_PARITY, ERR_PROTOCOL, NO_CARD, OK)

# states
EMPTY = const(0)
SEEN = const(1)
PRESENT = const(2)
FIELD_OFF = const(3)
STATE_NAMES = ("EMPTY", "SEEN", "PRESENT", "FIELD_OFF")

# events
NONE = const(0)
PLACED = const(1)
REMOVED = const(2)
SWAPPED = const(3)
CROWDED = const(4)      # two or more cards answer at once (on_event only)
UNCROWDED = const(5)    # one card (or none) again (on_event only)

# After a clean removal with the field left on, this many polls ask with WUPA, which wakes a card
# in HALT as well as in IDLE (ISO/IEC 14443-3 6.3, the PICC states): as many
# as the empty reader's WUPA sweep (sweep_every's default), which takes over afterwards.
WAKE_POLLS = const(8)


class Presence:
    def __init__(self, reader, on_event=None, index=0, miss_limit=3, confirm=1,
                 reselect_every=1, bad_limit=30, data_blocks=0, first_page=4,
                 sweep_every=8):
        """miss_limit N: removed after N consecutive clean misses.
        confirm M: placed after the same UID was read M times in a row.
        reselect_every K: a resting card is SELECTed (UID compared) every K-th poll and
            checked cheaply (driver.check) between; 1 = SELECTed every poll.
        bad_limit: removal backstop after this many polls with no good answer.
        data_blocks: read this many 16-byte blocks from first_page into .data when a
            new card is identified (4 blocks = pages 4..19 = 64 bytes of NDEF area).
        sweep_every: while empty, every n-th poll uses WUPA instead of REQA, to find a
            card left in HALT that we lost track of (0 = never).
        The field is switched off here; the first poll switches it on, so cards left in
        HALT by earlier code start again from IDLE.
        """
        self.reader = reader
        self.on_event = on_event
        self.index = index
        self.miss_limit = miss_limit if miss_limit > 0 else 1
        self.confirm = confirm if confirm > 0 else 1
        self.reselect_every = reselect_every if reselect_every > 0 else 1
        self.bad_limit = bad_limit
        self.sweep_every = sweep_every
        self.first_page = first_page
        self.data_blocks = data_blocks
        self.data = bytearray(16 * data_blocks)
        mv = memoryview(self.data)
        self._blocks = [mv[16 * i:16 * i + 16] for i in range(data_blocks)]
        self.uid = bytearray(10)
        self.uid_len = 0
        self.state = FIELD_OFF
        self._miss_run = 0
        self._bad_run = 0
        self._confirms = 0
        self._since = 0
        # The driver's request(True) is an ISO WUPA, which a card in HALT answers (the MFRC522's);
        # a PN532's activation is taken to send REQA only (READERS.md), so it needs the field cycle.
        self._wakes = getattr(reader, "wakes_halted", False)
        self._wake_left = 0      # polls left that ask an empty reader with WUPA (WAKE_POLLS)
        # Set by the caller while another reader waits for a card to be laid (app.HOT_MS): the full
        # SELECT due every reselect_every polls is put off, the cheap check goes on, and the
        # SELECT comes at the first poll after (issue 29).
        self.hold_reselect = False
        self.crowded = False
        self.hw_run = 0          # polls in a row that ended in ERR_HW
        self._blind = False      # resumed: the reader saw nothing for a while
        # The last poll ended in a verdict: one card known (PRESENT) or a clean miss on an empty
        # reader. Not after the field was just switched on, an error, two cards, or a resume: the
        # board waits for it before it tells the host what lies on a reader it had to hide.
        self.sure = False
        # health counters
        self.polls = 0
        self.misses = 0          # clean timeouts (an empty reader counts one per poll)
        self.errors = 0          # collisions, CRC/parity/protocol errors, NAKs
        self.reads = 0           # UIDs read successfully
        self.placed = 0
        self.removed = 0
        self.swaps = 0
        self.crowds = 0
        reader.antenna(False)

    # -- public ---------------------------------------------------------------------------
    def poll(self):
        self.polls += 1
        r = self.reader
        st = self.state
        if st == FIELD_OFF:
            r.antenna(True)
            self.state = EMPTY
            self.sure = False
            return NONE
        wupa = st != EMPTY or self.crowded
        if not wupa and self._wake_left:
            self._wake_left -= 1
            wupa = True
        if not wupa and self.sweep_every > 0 and self.polls % self.sweep_every == 0:
            wupa = True
        s = r.request(wupa)
        if s == NO_CARD:
            return self._miss()
        if s != OK:
            return self._error(s)
        self.hw_run = 0
        if (st == PRESENT and self.reselect_every > 1 and not r.multiple and not self.crowded
                and not self._miss_run):
            self._since += 1
            if self._since < self.reselect_every or self.hold_reselect:
                # Between full re-selects, a cheap check that the card answering is the resting one
                # and alone (an MFRC522 reads the first cascade level; issue 29). Not sure (another
                # UID, two cards, a broken answer): the full SELECT below decides.
                s = r.check(self.uid, self.uid_len)
                if s == OK:
                    r.halt()
                    self._miss_run = 0
                    self._bad_run = 0
                    return NONE
                if s == NO_CARD:
                    r.halt()
                    return self._miss()
        self._since = 0
        s = r.select()
        if s == NO_CARD:
            r.halt()
            return self._miss()
        if s != OK:
            return self._error(s)
        if r.multiple:
            return self._crowd()
        if self.crowded:
            self.crowded = False
            self._emit(UNCROWDED)
        same = self._same_uid()
        if self.data_blocks and not (same and st == PRESENT):
            for i in range(self.data_blocks):
                s = r.read(self.first_page + 4 * i, self._blocks[i])
                if s != OK:
                    if s == NO_CARD:
                        r.halt()
                        return self._miss()
                    return self._error(s)
        self.reads += 1
        self._miss_run = 0
        self._bad_run = 0
        # The event before the HLTA: a card placed is told (the app sends its TAP at once) as soon
        # as its UID is known, and the HLTA's register writes (~0.17 ms of a board's SPI) come after
        # (issue 29). The card waits ACTIVE meanwhile; nothing else is sent to it before the HLTA.
        ev = self._identified(same)
        r.halt()
        return ev

    def resume(self):
        """The driver was set up again (init() after the chip lost its configuration): go on
        from what the machine knew, and check the card's UID at the next poll."""
        self._miss_run = 0
        self._bad_run = 0
        self.hw_run = 0
        self._since = self.reselect_every
        self._blind = True
        self.sure = False

    def state_name(self):
        return STATE_NAMES[self.state]

    def present(self):
        return self.state == PRESENT

    def stats(self):
        """(polls, misses, errors, reads, placed, removed) -- allocates a tuple."""
        return (self.polls, self.misses, self.errors, self.reads, self.placed, self.removed)

    # -- internals ------------------------------------------------------------------------
    def _emit(self, kind):
        cb = self.on_event
        if cb is not None:
            cb(self, kind)

    def _same_uid(self):
        r = self.reader
        n = r.uid_len
        if n != self.uid_len or n == 0:
            return False
        a = self.uid
        b = r.uid
        for i in range(n):
            if a[i] != b[i]:
                return False
        return True

    def _take_uid(self):
        r = self.reader
        n = r.uid_len
        for i in range(n):
            self.uid[i] = r.uid[i]
        self.uid_len = n

    def _crowd(self):
        self._miss_run = 0      # they answered: neither a miss nor an error
        self._bad_run = 0
        self.sure = False
        self.reader.halt()
        if not self.crowded:
            self.crowded = True
            self.crowds += 1
            self._emit(CROWDED)
        return NONE

    def _miss(self):
        self.hw_run = 0
        self.misses += 1
        self.sure = self.state == EMPTY
        if self.state == EMPTY:
            if self.crowded:        # the cards that came together went together
                self.crowded = False
                self._emit(UNCROWDED)
            return NONE
        self._miss_run += 1
        self._bad_run += 1
        if self._miss_run >= self.miss_limit:
            return self._lost(True)
        if self._bad_run >= self.bad_limit:
            return self._lost(False)
        return NONE

    def _error(self, s):
        self.hw_run = self.hw_run + 1 if s == ERR_HW else 0
        self.errors += 1
        self.sure = False
        self._miss_run = 0          # a card did answer: not a miss
        self._bad_run += 1
        self.reader.halt()
        if self.state == EMPTY:
            # the card may now be halted: only WUPA finds it again
            self.state = SEEN
            self._confirms = 0
            self.uid_len = 0
        if self._bad_run >= self.bad_limit:
            return self._lost(False)
        return NONE

    def _lost(self, clean):
        """The card is gone: `clean` when it was miss_limit clean misses in a row, not the error
        backstop. See the module notes for when the field stays on."""
        ev = NONE
        if self.crowded:
            self.crowded = False
            self._emit(UNCROWDED)
        if self.state == PRESENT:
            self.removed += 1
            self._emit(REMOVED)
            ev = REMOVED
        self.uid_len = 0
        self._miss_run = 0
        self._bad_run = 0
        self._confirms = 0
        self._since = 0
        if clean and self._wakes:
            self.state = EMPTY
            self._wake_left = WAKE_POLLS
        else:
            self.state = FIELD_OFF
            self._wake_left = 0
            self.reader.antenna(False)
        return ev

    def _identified(self, same):
        st = self.state
        blind = self._blind
        self._blind = False
        self.sure = False
        if st == PRESENT:
            if same:
                self.sure = True
                return NONE
            self.swaps += 1
            self.removed += 1
            self._emit(REMOVED)                 # still carries the old UID
            self._take_uid()
            if blind:
                # The card changed while the reader could not look (it was being set up again):
                # the new one is placed at the next poll, not in the same one, which the host
                # would read as two cards on the reader.
                self.state = SEEN
                self._confirms = 0
                return REMOVED
            if self.confirm <= 1:
                self.placed += 1
                self._emit(PLACED)
                return SWAPPED
            self.state = SEEN
            self._confirms = 1
            return REMOVED
        if st == SEEN and same:
            self._confirms += 1
        else:
            self._take_uid()
            self._confirms = 1
        if self._confirms >= self.confirm:
            self.state = PRESENT
            self.sure = True
            self.placed += 1
            self._emit(PLACED)
            return PLACED
        self.state = SEEN
        return NONE


def ndef_message(buf, n=-1):
    """Find the NDEF message TLV (type 0x03) in Type 2 tag user memory.

    Returns (offset, length) of the message inside buf, or (-1, 0).  Allocates a tuple;
    meant for the placement path, not the poll loop.
    """
    if n < 0:
        n = len(buf)
    i = 0
    while i < n:
        t = buf[i]
        if t == 0x00:                   # NULL TLV
            i += 1
            continue
        if t == 0xFE or i + 1 >= n:     # terminator
            break
        ln = buf[i + 1]
        hdr = 2
        if ln == 0xFF:
            if i + 3 >= n:
                break
            ln = (buf[i + 2] << 8) | buf[i + 3]
            hdr = 4
        if t == 0x03:
            if i + hdr + ln > n:
                return -1, 0            # message longer than what was read
            return i + hdr, ln
        i += hdr + ln
    return -1, 0


def ndef_text(buf, n=-1):
    """(offset, length) of the text of the first NDEF Text record ("T"), or (-1, 0)."""
    p, ln = ndef_message(buf, n)
    if p < 0 or ln < 3:
        return -1, 0
    end = p + ln
    hdr = buf[p]
    tlen = buf[p + 1]
    if hdr & 0x10:                      # SR: one-byte payload length
        plen = buf[p + 2]
        q = p + 3
    else:
        plen = (buf[p + 2] << 24) | (buf[p + 3] << 16) | (buf[p + 4] << 8) | buf[p + 5]
        q = p + 6
    idlen = 0
    if hdr & 0x08:                      # IL: id length present
        idlen = buf[q]
        q += 1
    if (hdr & 0x07) != 0x01 or tlen != 1 or buf[q] != 0x54:
        return -1, 0
    q += tlen + idlen
    if q + plen > end or plen < 1:
        return -1, 0
    lang = buf[q] & 0x3F
    return q + 1 + lang, plen - 1 - lang
