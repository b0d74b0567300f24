"""A simulated board: the HAL that maester_fw.app runs on under the MicroPython unix port.

What it simulates:

* the SPI bus and its readers: one SimMFRC522 (register level) or SimPN532 (frame level)
  per configured reader, on the chip-select pin the config names.  The real drivers in
  maester_fw talk to them byte by byte.  Reader time is the simulators' own clock (SimClock),
  advanced by the bus traffic, so a poll costs simulated microseconds, not real ones;
* the table: `Table.place(reader, uid)` lays a card on a reader's antenna, `remove` lifts it,
  `noise` corrupts the card's answers;
* the LED strip: a VirtualStrip that keeps the last frame;
* the serial line: the firmware's own UsbSerial over sim_usb.UsbCdc, the board's USB CDC as
  MicroPython drives it (run_sim.py: the process's stdin/stdout or a tty opened by path), or
  `LoopSerial` in memory for tests that drive `App.step` themselves;
* the control channel: `Control` reads JSON lines (commands below) from a file object and
  answers each with one JSON line.

Control commands, one JSON object per line ("cmd" may also be spelled "action", so a line
of a taps script is also a command).  An "id" in a command is copied into its answer.

    {"cmd": "place", "reader": 0, "uid": "04a1b2c3d4e5f6"}   a card on reader 0
    {"cmd": "remove", "reader": 0}                           lift it (or "uid": one card);
                                                             answers the poll counts, as "polls"
    {"cmd": "noise", "reader": 0, "every": 3}                corrupt every 3rd card answer
    {"cmd": "mute", "reader": 0, "frames": 2}                the cards ignore 2 frames
    {"cmd": "wire", "reader": 0, "powered": false}           unplug a reader module (true: back)
    {"cmd": "wire", "reader": 0, "holds_miso": true}         a clone that holds MISO low when deselected
    {"cmd": "reset_reader", "reader": 0}                     a supply dip: the chip back at power-on values
    {"cmd": "strip"}           -> {"ok": true, "frame": "<hex, strip order>", "text": "RR..", ...}
    {"cmd": "state"}           -> readers, their cards, boot id, watchdog feeds
    {"cmd": "polls"}           -> how often each reader was asked for a card
    {"cmd": "trace"}           flush the time stamps to their file (only with run_sim.py --trace FILE)
    {"cmd": "ping"}            -> {"ok": true}
place/tap and remove/lift are taken as the next frame starts on any reader, in mid-pass as a player
lays a card (Table._on_air); the other commands, and any line after one of them, at the loop's idle.
Errors come back as {"ok": false, "error": "..."}.  Unprompted lines carry "event":
{"event": "ready", "boot_id": N} once the loop runs, {"event": "exit", "why": ...} at the end.

Taps script (--taps): the same lines with "t_ms", milliseconds after start, applied in order:
    {"t_ms": 500, "reader": 0, "uid": "04a1b2c3d4e5f6", "action": "place"}
"""

import json
import select
import sys
import time

from sim_cards import Card
from sim_mfrc522 import SimClock, SimMFRC522, SimPin, SimSPI
from sim_pn532 import SimPN532
from virtual_strip import StripClock, VirtualStrip


def _hex(b):
    return "".join("%02x" % x for x in b)


def _unhex(s):
    if not isinstance(s, str) or len(s) % 2:
        raise ValueError("uid must be hex, got %r" % (s,))
    return bytes([int(s[i:i + 2], 16) for i in range(0, len(s), 2)])


class Table:
    """The simulated SPI bus, one reader chip per configured reader, and the cards on them.

    Cards belong to a reader index, so they stay on the table when a new config rebuilds
    the chips.
    """

    def __init__(self, paced=False):
        self.clock = SimClock(paced)  # paced: modelled time also waited out in wall time (SimClock)
        self.spi = SimSPI(self.clock)
        self.chips = []
        self.types = []
        self._pins = {}
        self.cards = {}  # reader index -> [Card]
        # reader index -> {"powered": bool, "holds_miso": bool}: how each reader module is wired
        # and powered; like the cards, it outlasts a new config
        self.wiring = {}
        # Cards laid at a later modelled time (place at_us): (at_us, reader, uid), soonest first
        self._due = []
        # Called as each frame starts on any reader (HalSim: the control channel's lays)
        self.arrive = None

    def _on_air(self):
        """A frame is about to go out on some reader. A player lays a card whenever they lay it,
        not between passes of the firmware's loop: what was laid by now is in its field, so the
        frame starting now reaches it. One laid after this frame starts does not hear it (the
        chips compute an answer at the frame's start), and a card laid while its field is off
        still waits for the field and its power-up (sim_cards.Field.set_on)."""
        if self.arrive is not None:
            self.arrive()
        due = self._due
        while due and due[0][0] <= self.clock.now:
            _, reader, uid = due.pop(0)
            self.place(reader, uid)

    def wire(self, reader, **kw):
        """Change how a reader module behaves on the bus: powered=False (unplugged, or its
        supply cut), holds_miso=True (a clone that drives MISO low when not selected)."""
        self._field(reader)
        self.wiring.setdefault(reader, {}).update(kw)
        self._apply(reader)

    def _apply(self, i):
        chip = self.chips[i]
        w = self.wiring.get(i, {})
        chip.holds_miso = w.get("holds_miso", False)
        if hasattr(chip, "power"):
            chip.power(w.get("powered", True))

    def reset_reader(self, reader):
        """A supply dip or a re-seated connector: the chip comes back at its power-on state."""
        self._field(reader)
        self.chips[reader].power_cycle()

    def build(self, cfg):
        self.spi.devices = []
        self.chips = []
        self.types = []
        self._pins = {}
        for i, r in enumerate(cfg["readers"]):
            pin = SimPin(self.clock)
            if r["type"] == "pn532":
                chip = SimPN532(self.spi, pin, name=r["name"])
            else:
                chip = SimMFRC522(self.spi, pin, name=r["name"])
            self._pins[r["cs"]] = pin
            chip.field.on_air = self._on_air
            self.chips.append(chip)
            self.types.append(r["type"])
            for card in self.cards.get(i, ()):
                chip.field.place(card)
            self._apply(i)

    def pin(self, n):
        """The chip-select pin wired to a reader, or a pin with nothing on it."""
        p = self._pins.get(n)
        return p if p is not None else SimPin(self.clock)

    def _field(self, reader):
        if not isinstance(reader, int) or not 0 <= reader < len(self.chips):
            raise ValueError("no reader %r (the table has %d)" % (reader, len(self.chips)))
        return self.chips[reader].field

    def place(self, reader, uid, at_us=None):
        """Lay a card on a reader now, or at `at_us` of the board's modelled time (SimClock): it
        answers from the first frame that starts at or after that time (_on_air)."""
        uid = _unhex(uid) if isinstance(uid, str) else bytes(uid)
        field = self._field(reader)
        if at_us is not None and at_us > self.clock.now:
            self._due.append((at_us, reader, uid))
            self._due.sort(key=lambda d: d[0])
            return None
        cards = self.cards.setdefault(reader, [])
        for c in cards:
            if c.uid == uid:
                return c
        card = Card(uid)
        cards.append(card)
        field.place(card)
        return card

    def remove(self, reader, uid=None):
        field = self._field(reader)
        if uid is not None and isinstance(uid, str):
            uid = _unhex(uid)
        keep = []
        for c in self.cards.get(reader, ()):
            if uid is None or c.uid == uid:
                field.remove(c)
            else:
                keep.append(c)
        self.cards[reader] = keep

    def noise(self, reader, every=0, next=0, mode="crc"):
        f = self._field(reader)
        f.noise_every = every
        f.noise_next = next
        f.noise_mode = mode

    def mute(self, reader, frames):
        self._field(reader)
        for c in self.cards.get(reader, ()):
            c.mute = frames

    def polls(self):
        """How often each reader was asked for a card (REQA/WUPA, or InListPassiveTarget)."""
        return [getattr(c, "requests", getattr(c, "inlists", 0)) for c in self.chips]

    def state(self):
        return [{"reader": i, "type": self.types[i],
                 "cards": [_hex(c.uid) for c in self.cards.get(i, ())]}
                for i in range(len(self.chips))]


class LoopSerial:
    """An in-memory serial line.  The test is the host: `push` bytes to the device, `take`
    what the device wrote."""

    def __init__(self):
        self.inbox = bytearray()
        self._r = 0
        self.outbox = bytearray()

    def push(self, data):
        self.inbox.extend(data)

    def take(self):
        out = bytes(self.outbox)
        self.outbox = bytearray()
        return out

    def readinto(self, buf):
        avail = len(self.inbox) - self._r
        if avail <= 0:
            return 0
        n = avail if avail < len(buf) else len(buf)
        src = self.inbox
        r = self._r
        for i in range(n):
            buf[i] = src[r + i]
        self._r = r + n
        if self._r >= len(src):
            self.inbox = bytearray()
            self._r = 0
        return n

    def write(self, buf, n):
        for i in range(n):
            self.outbox.append(buf[i])
        return n


def _is_lay(line):
    try:
        cmd = json.loads(line)
    except ValueError:
        return False
    return isinstance(cmd, dict) and cmd.get("cmd", cmd.get("action")) in LAYS


LAYS = ("place", "tap", "remove", "lift")


class Control:
    """JSON-line commands from a file object, answered on another (see the module doc)."""

    def __init__(self, fin, fout):
        self.fin = fin
        self.fout = fout
        self._poll = select.poll()
        self._poll.register(fin, select.POLLIN)
        self._one = bytearray(1)
        self._line = bytearray()
        self._held = None  # a line read mid-pass that is not a lay: run at the next full service
        self.hal = None

    def send(self, obj):
        try:
            self.fout.write((json.dumps(obj) + "\n").encode())
            if hasattr(self.fout, "flush"):
                self.fout.flush()
        except OSError:
            pass

    def service(self, lays_only=False):
        """Take what is waiting; run every complete line. lays_only (as a frame starts, in mid-pass):
        only cards laid or lifted, which a player does whenever they like; at the first other
        command stop, and run it and what follows at the next full service, in order."""
        if self._held is not None:
            if lays_only:
                return
            line = self._held
            self._held = None
            self.send(self.hal.command_line(line))
        for _ in range(4096):
            ready = False
            for _obj, ev in self._poll.ipoll(0):
                ready = ev & select.POLLIN
            if not ready or not self.fin.readinto(self._one):
                return
            b = self._one[0]
            if b == 10 or b == 13:
                if self._line:
                    line = bytes(self._line).decode()
                    self._line = bytearray()
                    if lays_only and not _is_lay(line):
                        self._held = line
                        return
                    self.send(self.hal.command_line(line))
            elif len(self._line) < 1024:
                self._line.append(b)


class HalSim:
    """The HAL of a simulated board.  See FIRMWARE.md for the interface every HAL offers."""

    platform = "rp2"  # it stands in for a Pico (hal_esp32.Esp32HalSim for an ESP32-S3)
    # What MISO reads when no reader drives it: the RP2040's GPIOs reset with their pull-down on
    # (RP2040 datasheet 2.19.6.3, PADS_BANK0 PDE) and machine.SPI leaves the pulls alone.
    miso_idle = 0x00
    # main.py pulls MISO up before it builds the bus; the RP2040 keeps the pull under SPI
    # (ports/rp2/machine_spi.c only sets the pin function)
    miso_pullup = True

    def __init__(self, serial, table=None, ticks_ms=None, control=None, taps=(), boot_id=None, trace=None,
                 usb=None):
        # trace: a trace_sim.Trace when `maester bench hil` wants time stamps (run_sim.py --trace)
        # usb: the sim_usb.UsbCdc under `serial` (run_sim.py), whose USB task kbd_intr and idle run
        self.trace = trace
        self.usb = usb
        if trace is not None:
            from trace_sim import TracedSerial

            serial = TracedSerial(serial, trace)
        self.serial = serial
        self.table = table or Table()
        self.table.spi.idle = self.miso_idle
        self.ticks_ms = ticks_ms or time.ticks_ms
        self.sleep_us = self.table.clock.sleep_us  # the drivers wait in simulated time
        self.ticks_us = self.table.clock.ticks_us
        self.control = control
        if control is not None:
            control.hal = self
            # a card laid through the control channel comes into its field at the next frame that
            # starts on any reader, not at the loop's next idle (Table._on_air)
            self.table.arrive = self._lays
        self.taps = sorted(taps, key=lambda t: t.get("t_ms", 0))
        self._t0 = self.ticks_ms()
        self.strip_obj = None
        self.feeds = 0
        self.kbd = None
        self.bootloader_calls = 0
        self._announced = False
        if boot_id is None:
            import os

            boot_id = 0
            while not boot_id:
                b = os.urandom(4)
                boot_id = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)
        self._boot_id = boot_id
        self._wait = select.poll()
        self._waitable = False  # an in-memory serial has nothing to wait on: idle returns at once
        for f in (getattr(serial, "fin", None) or (usb and usb.fin), control and control.fin):
            if f is not None:
                self._wait.register(f, select.POLLIN)
                self._waitable = True

    # -- the HAL interface used by maester_fw.app ------------------------------------------

    def begin(self, cfg):
        self.table.build(cfg)

    def spi(self, spi_cfg):
        if self.miso_pullup:
            self.table.spi.idle = 0xFF
        return self.table.spi

    def pin(self, n):
        return self.table.pin(n)

    def strip(self, pin, pixels, order="GRB"):
        # the adapter main.py would build on this port, with its cost (virtual_strip.py)
        from maester_fw.strip import adapter_for

        path = adapter_for(self.platform)
        if path == "bitstream" and self.platform == "esp32":
            path = "rmt"  # the esp32 port's bitstream goes through RMT (esp32.RMT.bitstream_channel)
        clock = StripClock(self.ticks_ms if hasattr(self.ticks_ms, "now") else None, self.table.clock)
        self.strip_obj = VirtualStrip(pixels, order, path=path, clock=clock)
        if self.trace is not None:
            from trace_sim import TracedStrip

            return TracedStrip(self.strip_obj, self.trace)
        return self.strip_obj

    def idle(self, ms):
        """Wait up to ms for serial or control input; meanwhile run the table's script."""
        if not self._announced and self.control is not None:
            self._announced = True
            self.control.send({"event": "ready", "boot_id": self._boot_id})
        if ms > 0 and self._waitable and not (self.usb and self.usb.pending()):
            for _ in self._wait.ipoll(ms if ms < 20 else 20):
                break
        if self.usb is not None:
            self.usb.service()  # the USB task runs (and may raise a KeyboardInterrupt it scheduled)
        if self.control is not None:
            self.control.service()
        if self.taps:
            now = time.ticks_diff(self.ticks_ms(), self._t0)
            while self.taps and self.taps[0].get("t_ms", 0) <= now:
                self.command(self.taps.pop(0))

    def _lays(self):
        self.control.service(lays_only=True)

    def feed(self):
        self.feeds += 1

    def boot_id(self):
        return self._boot_id

    def kbd_intr(self, c):
        if self.usb is not None:
            # The bytes that came while Ctrl-C was as it is now meet it so (sim_usb.py): the USB
            # task runs before the switch.
            self.usb.service()
        self.kbd = c
        try:
            import micropython

            micropython.kbd_intr(c)
        except (ImportError, AttributeError):
            pass

    def reset(self):
        raise SystemExit(3)

    def bootloader(self):
        self.bootloader_calls += 1

    # -- the table's side ------------------------------------------------------------------

    def command_line(self, line):
        try:
            cmd = json.loads(line)
        except ValueError:
            return {"ok": False, "error": "not JSON: %r" % (line,)}
        if not isinstance(cmd, dict):
            return {"ok": False, "error": "a command is a JSON object"}
        return self.command(cmd)

    def command(self, cmd):
        """Run one control command (a dict); returns the answer (a dict)."""
        what = cmd.get("cmd", cmd.get("action"))
        out = {"ok": True}
        try:
            if what in ("place", "tap"):
                self.table.place(cmd["reader"], cmd["uid"])
                if self.trace is not None:
                    self.trace.place(self.trace.now(), cmd["reader"], cmd["uid"])
            elif what in ("remove", "lift"):
                self.table.remove(cmd["reader"], cmd.get("uid"))
                out["polls"] = self.table.polls()  # from here on every poll finds the card gone
            elif what == "noise":
                self.table.noise(cmd["reader"], cmd.get("every", 0), cmd.get("next", 0),
                                 cmd.get("mode", "crc"))
            elif what == "mute":
                self.table.mute(cmd["reader"], cmd.get("frames", 1))
            elif what == "wire":
                self.table.wire(cmd["reader"], **{k: bool(cmd[k]) for k in ("powered", "holds_miso") if k in cmd})
            elif what == "reset_reader":
                self.table.reset_reader(cmd["reader"])
            elif what == "strip":
                s = self.strip_obj
                if s is None:
                    raise ValueError("no strip yet")
                out["frame"] = _hex(s.frame)
                out["text"] = s.text()
                out["writes"] = s.writes
                out["pixels"] = s.pixel_count
            elif what == "state":
                out["readers"] = self.table.state()
                out["boot_id"] = self._boot_id
                out["feeds"] = self.feeds
                out["polls"] = self.table.polls()
            elif what == "polls":
                out["polls"] = self.table.polls()
            elif what == "trace":
                if self.trace is None:
                    raise ValueError("tracing is off (run_sim.py --trace FILE)")
                out["records"] = self.trace.flush()
                out["path"] = self.trace.path
            elif what != "ping":
                raise ValueError("unknown command %r" % (what,))
        except (KeyError, ValueError, TypeError) as e:
            out = {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}
        if "id" in cmd:
            out["id"] = cmd["id"]
        return out
