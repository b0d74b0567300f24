"""A simulated `rp2` module for the MicroPython unix port: enough of the RP2040's PIO and DMA to run
maester_fw/pio_ws2812.py and look at the waveform its program puts on the pin.

* asm_pio assembles the program the way MicroPython's does (the DSL names are put into the
  function's globals while it runs), into the RP2040's 16-bit instruction words (RP2040 datasheet
  3.4, "Instruction Set"): JMP 000, OUT 011, NOP = MOV Y, Y (0xA042); bits 12..8 hold the
  side-set value (top `sideset` bits) and the delay (the rest).  Only the instructions and
  conditions the WS2812 program uses are here.
* StateMachine runs the words cycle by cycle (3.5, "Functional Details"): an instruction takes one
  cycle plus its delay, its side-set value drives the pin from its first cycle, OUT with autopull
  stalls while the output shift register is empty and the TX FIFO too, wrap goes from `wrap` back
  to `wrap_target`.  `wave` is the pin's level as (level, cycles) runs.
* DMA copies a buffer into a state machine's TX FIFO.  A byte-sized transfer to the 32-bit FIFO
  register lands in all four byte lanes (2.1.4, narrow writes are replicated).  The transfer is
  done at once: pacing by the FIFO's data request is not modelled, nor the FIFO's depth.
"""

PIO_SHIFT_LEFT = 0
PIO_SHIFT_RIGHT = 1


class PIO:
    SHIFT_LEFT = PIO_SHIFT_LEFT
    SHIFT_RIGHT = PIO_SHIFT_RIGHT
    OUT_LOW = 0
    OUT_HIGH = 1
    JOIN_NONE = 0


_JMP_CONDS = {"always": 0, "not_x": 1}
_OUT_DESTS = {"pins": 0, "x": 1, "y": 2, "null": 3}


class _Program:
    def __init__(self, sideset_init, out_shiftdir, autopull, pull_thresh):
        self.words = []
        self.labels = {}
        self.fixups = []  # (word index, label)
        self.sideset = 0 if sideset_init is None else 1
        self.out_shiftdir = out_shiftdir
        self.autopull = autopull
        self.pull_thresh = pull_thresh
        self.wrap_target = 0
        self.wrap = -1

    # -- the DSL ------------------------------------------------------------------------
    def _word(self, w, label=None):
        if label is not None:
            self.fixups.append((len(self.words), label))
        self.words.append(w)
        return self

    def side(self, v):
        self.words[-1] |= v << (13 - self.sideset)
        return self

    def __getitem__(self, delay):
        if delay >= 1 << (5 - self.sideset):
            raise ValueError("delay too long")
        self.words[-1] |= delay << 8
        return self

    def names(self):
        return {
            "wrap_target": lambda: setattr(self, "wrap_target", len(self.words)),
            "wrap": lambda: setattr(self, "wrap", len(self.words) - 1),
            "label": lambda name: self.labels.__setitem__(name, len(self.words)),
            "out": lambda dest, n: self._word(0x6000 | _OUT_DESTS[dest] << 5 | (n & 31)),
            "jmp": lambda a, b=None: self._word(_JMP_CONDS[a] << 5, b) if b is not None else self._word(0, a),
            "nop": lambda: self._word(0xA042),
            "x": "x", "y": "y", "pins": "pins", "null": "null", "not_x": "not_x",
        }

    def finish(self):
        for i, label in self.fixups:
            self.words[i] |= self.labels[label]
        if self.wrap < 0:
            self.wrap = len(self.words) - 1
        return self


def asm_pio(sideset_init=None, out_shiftdir=PIO_SHIFT_LEFT, autopull=False, pull_thresh=32, **_):
    def dec(f):
        prog = _Program(sideset_init, out_shiftdir, autopull, pull_thresh)
        g = f.__globals__
        saved = dict(g)
        g.update(prog.names())
        try:
            f()
        finally:
            g.clear()
            g.update(saved)
        return prog.finish()
    return dec


class StateMachine:
    def __init__(self, sm_id, prog, freq=125_000_000, sideset_base=None):
        self.id = sm_id
        self.prog = prog
        self.freq = freq
        self.pin = sideset_base
        self.on = False
        self.fifo = []  # TX FIFO words (depth not modelled)
        self.wave = []  # [level, cycles] runs of the side-set pin
        self.pc = prog.wrap_target
        self.x = 0
        self.osr = 0
        self.osr_count = 32  # bits shifted out of the OSR since it was filled: empty
        self.level = 0

    def active(self, on=None):
        if on is not None:
            self.on = bool(on)
        return self.on

    def put(self, value, shift=0):
        if isinstance(value, int):
            value = (value,)
        for v in value:
            self.fifo.append((v << shift) & 0xFFFFFFFF)
        self.run()

    def _drive(self, level, cycles):
        if self.wave and self.wave[-1][0] == level:
            self.wave[-1][1] += cycles
        else:
            self.wave.append([level, cycles])

    def run(self, idle_cycles=80):
        """Run until the program stalls on an empty FIFO; then `idle_cycles` of the stall."""
        p = self.prog
        ss = p.sideset
        while self.on:
            w = p.words[self.pc]
            field = (w >> 8) & 0x1F
            if ss:
                self.level = field >> (5 - ss)
            delay = field & ((1 << (5 - ss)) - 1)
            op = w >> 13
            nxt = p.wrap_target if self.pc == p.wrap else self.pc + 1
            if op == 3:  # OUT
                if self.osr_count >= (p.pull_thresh or 32):
                    if not self.fifo:
                        self._drive(self.level, idle_cycles)  # stalled: the side-set level holds
                        return
                    self.osr = self.fifo.pop(0)
                    self.osr_count = 0
                n = (w & 31) or 32
                if p.out_shiftdir == PIO_SHIFT_LEFT:
                    data = self.osr >> (32 - n)
                    self.osr = (self.osr << n) & 0xFFFFFFFF
                else:
                    data = self.osr & ((1 << n) - 1)
                    self.osr >>= n
                self.osr_count += n
                if (w >> 5) & 7 == 1:
                    self.x = data
            elif op == 0:  # JMP
                cond = (w >> 5) & 7
                if cond == 0 or (cond == 1 and self.x == 0):
                    nxt = w & 31
            self._drive(self.level, 1 + delay)
            self.pc = nxt


class DMA:
    def __init__(self):
        self._busy = False

    def pack_ctrl(self, size=2, inc_write=True, treq_sel=0x3F, **_):
        return size

    def config(self, read=None, write=None, count=None, ctrl=2, trigger=False):
        if trigger and isinstance(write, StateMachine):
            words = []
            for i in range(count):
                if ctrl == 0:
                    words.append(read[i] * 0x01010101)
                else:
                    words.append(read[i])
            write.put(words)

    def active(self):
        return self._busy
