"""The board's USB serial: the model of MicroPython's TinyUSB CDC and REPL (firmware/sim/sim_usb.py)
against what MicroPython's sources do, and the firmware against that model.

* the model alone, under the real MicroPython unix port: 0x03 with Ctrl-C on empties the ring buffer
  and raises KeyboardInterrupt (shared/tinyusb/mp_usbd_cdc.c tud_cdc_rx_cb), and is a plain byte
  with Ctrl-C off; the REPL's control bytes (shared/runtime/pyexec.c); the rp2 write that waits up
  to 500 ms for room, and poll that says writable with one free byte (mp_usbd_cdc_tx_strn,
  mp_usbd_cdc_poll_interfaces); the esp32 copy to UART0 (ports/esp32/uart.c);
* the firmware on the simulated board over a real pty: a host that sends RESYNC (with its 0x03 and
  0x01 bytes) every second while the board reboots;
* the firmware's UsbSerial (maester_fw/usb_serial.py) in memory, with a host that reads slowly.
"""
import ast
import json
import threading
import time

import pytest
import serial

from maester.paths import FIRMWARE
from maester.link.simboard import start_simulated_board
from maester_fw import wire

RESYNC = wire.encode_frame(wire.RESYNC, wire.resync(wire.RESYNC_CONNECT))


def test_the_resync_frame_carries_ctrl_c_and_ctrl_a():
    # the bytes the issue names: a host's first words hold 0x03 (Ctrl-C) and 0x01 (Ctrl-A)
    assert RESYNC.hex(" ") == "00 03 01 12 01 01 01 03 69 0b 00"


MODEL = r'''
import json, micropython
from sim_usb import UsbCdc, MemoryWire, Repl, SOFT_RESET, ctrl_c_enabled

def out(**kw):
    print(json.dumps(kw))

class Clock:
    def __init__(self):
        self.now = 0
    def __call__(self):
        return self.now
'''


def _records(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def test_ctrl_c_from_the_host_interrupts_only_while_enabled_and_empties_the_ring_buffer(run_micropython):
    recs = _records(run_micropython(MODEL + r'''
out(case="script", enabled=ctrl_c_enabled())   # the unix port enables it to run a script, as pyexec does
clock = Clock()
w = MemoryWire(clock)
cdc = UsbCdc(w)
w.push(b"ab\x03cd")
try:
    cdc.service()
    out(case="on", raised=False)
except KeyboardInterrupt:
    buf = bytearray(cdc.pending())
    cdc.readinto(buf)
    out(case="on", raised=True, kept=bytes(buf).decode())
micropython.kbd_intr(-1)
out(case="off_state", enabled=ctrl_c_enabled())
w.push(b"ab\x03cd")
cdc.service()
buf = bytearray(cdc.pending())
cdc.readinto(buf)
out(case="off", data=list(buf))
micropython.kbd_intr(3)
''').stdout)
    by = {r["case"]: r for r in recs}
    assert by["script"]["enabled"] is True and by["off_state"]["enabled"] is False
    # mp_usbd_cdc.c: "Clear the ring buffer" then mp_sched_keyboard_interrupt(); later bytes are kept
    assert by["on"] == {"case": "on", "raised": True, "kept": "cd"}
    assert by["off"]["data"] == [97, 98, 3, 99, 100]


def test_the_repl_takes_the_control_bytes_as_pyexec_does(run_micropython):
    recs = _records(run_micropython(MODEL + r'''
clock = Clock()
w = MemoryWire(clock)
cdc = UsbCdc(w)
modes = []
script = [b"\x01", b"\x12\x01", b"print(1)\x03x=6*7", b"\x04", b"\x05A\x01", b"\x02", b"x\r", b"\x04"]
def feed():
    if script:
        w.push(script.pop(0))
    else:
        raise SystemExit
end = Repl(cdc, on_mode=modes.append, idle=feed).run()
out(end=end, modes=modes, said=w.pull().decode())
''').stdout)
    (r,) = recs
    said = r["said"]
    assert r["end"] == "soft_reset" and r["modes"] == ["friendly", "raw", "friendly"]
    assert said.startswith("MicroPython v1.29") and ">>> \r\nraw REPL; CTRL-B to exit\r\n>" in said
    # in the raw REPL 0x01 starts it again, 0x03 clears the line, 0x04 runs it: "OK", output, 0x04
    assert said.count("raw REPL; CTRL-B to exit") == 2
    assert "OK\x04\x04>" in said  # x=6*7 ran without an error
    assert "R\x00" in said  # raw-paste probe: not supported
    assert said.endswith(">>> x\r\n42\r\n>>> \r\n")  # Ctrl-B back to friendly, x is 42, Ctrl-D soft reset


def test_rp2_write_waits_for_room_up_to_500_ms_and_poll_says_writable_with_one_free_byte(run_micropython):
    recs = _records(run_micropython(MODEL + r'''
import select
clock = Clock()
w = MemoryWire(clock, rate=0)          # a host that holds the port open and reads nothing
cdc = UsbCdc(w)
p = select.poll(); p.register(cdc, select.POLLOUT)
writable = lambda: any(ev & select.POLLOUT for _, ev in p.ipoll(0))
n1 = cdc.write(bytes(255))
out(case="fill", wrote=n1, ms=clock.now, writable=writable())
n2 = cdc.write(bytes(64))
out(case="stall", wrote=n2, ms=clock.now, writable=writable())
w.rate = 8                              # now it reads 8 bytes a millisecond
t0 = clock.now
n3 = cdc.write(bytes(64))
out(case="slow", wrote=n3, ms=clock.now - t0)
e = UsbCdc(MemoryWire(Clock(), rate=0), port="esp32")
q = select.poll(); q.register(e, select.POLLOUT)
e.write(bytes(256))
out(case="esp32", writable=any(ev & select.POLLOUT for _, ev in q.ipoll(0)))
c2 = Clock()
u = UsbCdc(MemoryWire(c2), port="esp32")
for i in range(4):
    u.write(bytes(100))                 # the UART0 copy: 128-byte FIFO at 115200 baud, 10 ms ticks
out(case="uart", ms=c2.now)
''').stdout)
    by = {r["case"]: r for r in recs}
    assert by["fill"] == {"case": "fill", "wrote": 255, "ms": 0, "writable": True}  # one byte free: "writable"
    assert by["stall"]["wrote"] == 1 and by["stall"]["ms"] == 500 and not by["stall"]["writable"]
    assert by["slow"]["wrote"] == 64 and 7 <= by["slow"]["ms"] <= 9
    assert by["esp32"]["writable"] is True  # ports/esp32/mphalport.c: POLLOUT whatever the FIFO holds
    assert by["uart"]["ms"] >= 20  # 400 bytes through a 128-byte FIFO draining 11.5 bytes a ms


# -- the firmware at boot, over a real pty ------------------------------------------------------

class ResyncHost:
    """A host that has opened the port and has no HELLO yet: RESYNC every second (serial_link.py),
    reading whatever comes back."""

    def __init__(self, port):
        self.ser = serial.Serial(port, timeout=0.05)
        self.got = bytearray()
        self.hellos = []
        self.stop = threading.Event()
        self.decoder = wire.Decoder(self._frame)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _frame(self, d):
        if d.type == wire.HELLO:
            self.hellos.append(wire.decode_message(d.type, d.payload())["boot_id"])

    def _run(self):
        next_at = 0.0
        while not self.stop.is_set():
            if time.monotonic() >= next_at:
                self.ser.write(RESYNC)
                next_at = time.monotonic() + 1.0
            data = self.ser.read(256)
            if data:
                self.got += data
                self.decoder.feed(data)

    def close(self):
        self.stop.set()
        self.thread.join(2)
        self.ser.close()


def test_a_board_that_boots_while_the_host_sends_resync_runs_the_firmware_not_the_repl():
    """Issue 24, item 1: before the fix this board ended in the raw REPL and said nothing more."""
    board = start_simulated_board()
    host = ResyncHost(board.port)
    try:
        deadline = time.monotonic() + 5
        while board.boot_id not in host.hellos and time.monotonic() < deadline:
            time.sleep(0.05)
        assert board.boot_id in host.hellos
        for _ in range(2):  # power cuts: the host's RESYNC lands while the board boots
            board.power_off()
            time.sleep(1.2)
            board.power_on()
            deadline = time.monotonic() + 4
            while board.boot_id not in host.hellos and time.monotonic() < deadline:
                time.sleep(0.05)
            at_repl = board.at_repl(0.5)  # the unix port's real REPL, raw REPL and all, would take it
            assert board.boot_id in host.hellos and not at_repl, (
                "no HELLO after the reboot; the REPL took the port: %r" % bytes(host.got[-120:]))
    finally:
        host.close()
        board.stop()


def _first_statements(path):
    tree = ast.parse(path.read_text())
    body = [n for n in tree.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    return [ast.unparse(n) for n in body[:2]]


@pytest.mark.parametrize("entry", ["main.py", "sim/run_sim.py"])
def test_the_entry_script_turns_ctrl_c_off_before_anything_can_branch(entry):
    # pyexec.c enables Ctrl-C just before it runs main.py; the USB task that turns a 0x03 into a
    # KeyboardInterrupt runs at the VM's first branch (py/vm.c pending_exception_check). An import
    # of a built-in module and one call have none, so nothing the host sends can stop the board.
    assert _first_statements(FIRMWARE / entry) == ["import micropython", "micropython.kbd_intr(-1)"]


# -- a host that reads slowly ------------------------------------------------------------------

SLOW_HOST = MODEL + r'''
from hal_sim import HalSim
from maester_fw import app, wire, config
from maester_fw.usb_serial import UsbSerial
from sim_usb import UsbCdc, MemoryWire

CFG = {"board": "t", "readers": [{"type": "mfrc522", "cs": 17, "name": "seat0"},
                                 {"type": "mfrc522", "cs": 20, "name": "seat1"}],
       "leds": {"pin": 22, "pixels": 8}, "segments": {"all": [0, 8]}, "poll": {"interval_ms": 20}}
BOOT = 0x51
micropython.kbd_intr(-1)              # as main.py: the host's frames hold 0x03 bytes

clock = Clock()
clock.now = 1000
w = MemoryWire(clock)
cdc = UsbCdc(w, port=%r)
hal = HalSim(UsbSerial(cdc, cdc), ticks_ms=clock, boot_id=BOOT, usb=cdc)
a = app.App(hal, config.validate(CFG), None, BOOT, "cfg.json")
taps = []
def deliver(t, p):
    m = wire.decode_message(t, p)
    if m["type"] == "TAP":
        taps.append(m["kind"])
host = wire.Link(w.push, deliver)

def step(n):
    longest = 0
    for _ in range(n):
        t0 = clock.now
        a.step()
        took = clock.now - t0
        longest = max(longest, took)
        clock.now += 2
        data = w.pull()
        if data:
            host.feed(data, clock.now)
        host.poll(clock.now)
        if host.heartbeat_due(clock.now):
            host.send_unreliable(wire.HEARTBEAT, wire.heartbeat(0, 7), clock.now)
    return longest

step(5)
host.reset()
host.send_unreliable(wire.HELLO_ACK, wire.hello_ack(BOOT), clock.now)
step(200)
w.rate = 0.2                          # alive, but takes 4 bytes every 20 ms
polls0, t0 = hal.table.polls()[0], clock.now
longest = 0
for i in range(40):                   # a card laid and lifted every 100 ms of the board's time
    if i %% 2:
        hal.table.remove(0)
    else:
        hal.table.place(0, "04a1b2c3d4e5f6")
    end = clock.now + 100
    while clock.now < end:
        longest = max(longest, step(1))
polls_per_s = (hal.table.polls()[0] - polls0) * 1000 // (clock.now - t0)
w.rate = None
step(3000)
out(longest_pass_ms=longest, polls_per_s=polls_per_s, placed=taps.count(1), removed=taps.count(0),
    longest_write_ms=cdc.longest_write_ms)
'''


@pytest.mark.parametrize("port", ["rp2"])
def test_a_host_that_reads_slowly_does_not_stall_reader_polling(run_micropython, port):
    """Issue 24, item 5: before the fix each 64-byte write waited for room in the USB FIFO."""
    (r,) = _records(run_micropython(SLOW_HOST % port, heap="4m", timeout=300).stdout)
    assert r["longest_pass_ms"] <= 10, r
    assert r["polls_per_s"] >= 30, r  # the interval is 20 ms for 2 readers: a reader every 40 ms at least
    # and nothing lost: once the host reads again, every placement and removal arrives (or the
    # snapshot the board sends instead of a queue that overflowed)
    assert r["placed"] >= 1 and r["removed"] >= 1, r


def test_on_esp32_writes_are_paced_to_the_uart0_copy_and_never_wait(run_micropython):
    (r,) = _records(run_micropython(MODEL + r'''
from maester_fw.usb_serial import UsbSerial
from sim_usb import UsbCdc, MemoryWire
res = {}
for paced in (True, False):
    clock = Clock()
    w = MemoryWire(clock)
    cdc = UsbCdc(w, port="esp32")
    ser = UsbSerial(cdc, cdc, uart_copy=paced, ticks=lambda: clock.now * 1000)
    data = bytes(range(256)) * 4
    off = 0
    while off < len(data):            # the app's passes, 2 ms apart
        off += ser.write(memoryview(data)[off:], len(data) - off)
        clock.now += 2
        cdc.service()                 # the loop's idle: the USB task runs
    res[paced] = [cdc.longest_write_ms, w.pull() == data, clock.now]
out(paced=res[True], unpaced=res[False])
''').stdout)
    longest, whole, took = r["paced"]
    assert longest == 0 and whole  # no write waited for the UART, and every byte came, in order
    assert took <= 120  # 1024 bytes at 115200 baud take 89 ms however they are cut
    assert r["unpaced"][0] >= 10  # 64 bytes at a time without pacing: a FreeRTOS tick's wait
