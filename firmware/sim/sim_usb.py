"""The board's USB serial as MicroPython drives it: TinyUSB CDC behind sys.stdin/sys.stdout, and the
REPL that takes the port when main.py ends.  Runs under the MicroPython unix port.

UsbCdc is the stream the firmware's UsbSerial (maester_fw/usb_serial.py) reads and writes, as it
reads and writes sys.stdin/sys.stdout on a board: an io.IOBase, so select.poll takes it.  What it
models, from MicroPython 1.29's sources:

* Receive, shared/tinyusb/mp_usbd_cdc.c `tud_cdc_rx_cb`: bytes from the host go into the stdin
  ring buffer (512 bytes, ports/rp2/mphalport.c MICROPY_HW_STDIN_BUFFER_LEN).  A byte equal to
  the interrupt character, while Ctrl-C is enabled, empties the ring buffer and schedules a
  KeyboardInterrupt (mp_sched_keyboard_interrupt) instead; the bytes after it are kept.
  Whether Ctrl-C is enabled is asked of the MicroPython that runs this (ctrl_c_enabled), not of
  the firmware's own account: the unix port, like pyexec.c on a board, enables it before it runs
  a script, and micropython.kbd_intr switches it.
  When the callback runs: on a board the USB task is a scheduled callback (shared/tinyusb/
  mp_usbd.c, mp_usbd_schedule_task), run at the VM's next branch.  Here it runs whenever the
  firmware touches the port (poll, read, write, the HAL's idle and kbd_intr), which is at least
  as often.  A KeyboardInterrupt it scheduled is raised there too: on a board it is raised at
  the next branch, which is just as certain to come.  Bytes that arrived since the last look are
  taken with Ctrl-C as it is at the look; HalSim.kbd_intr looks just before switching it, so
  bytes that waited while Ctrl-C was enabled meet it enabled.
* Transmit, `mp_usbd_cdc_tx_strn` and `mp_usbd_cdc_poll_interfaces`: a 256-byte TX FIFO
  (shared/tinyusb/tusb_config.h CFG_TUD_CDC_TX_BUFSIZE at full speed) that the host empties in
  64-byte packets as it reads.  On rp2, poll says writable while the FIFO has one free byte; a
  write waits for room for all of its bytes, 1 ms at a time, and gives up after 500 ms without
  progress (MICROPY_HW_USB_CDC_TX_TIMEOUT), returning what it wrote.  The esp32 port's
  mp_hal_stdio_poll says writable whatever the FIFO holds (ports/esp32/mphalport.c), and the
  ESP32_GENERIC_S3 build (MICROPY_HW_ENABLE_UART_REPL) copies every write to UART0 first:
  `uart_stdout_tx_strn` (ports/esp32/uart.c) fills the 128-byte UART FIFO, which empties at
  115200 baud, and waits one FreeRTOS tick (10 ms) at a time for room.

Repl models shared/runtime/pyexec.c's friendly and raw REPL over the same stream, for the tests that
run the USB model in memory (tests/firmware/test_usb.py); a simulated board on a pty gives its port to
the unix port's real REPL instead (run_sim.py, board_repl.py).  The bytes
0x01 (raw REPL), 0x02 (friendly REPL), 0x03 (clear the line), 0x04 (run, or soft reset on an
empty line) and the raw-paste probe mpremote sends, answered "not supported".  Lines are run
with exec(); what they print goes to the process's stdout.

Wires (what the host side is): PtyWire, a pty whose other end the host opened (run_sim.py, real
time), and MemoryWire, bytes in memory with a host that reads `rate` bytes per millisecond of a
clock the test moves.
"""

import io
import select
import sys
import time

RINGBUF = 512  # ports/rp2/mphalport.c MICROPY_HW_STDIN_BUFFER_LEN
TX_FIFO = 256  # shared/tinyusb/tusb_config.h CFG_TUD_CDC_TX_BUFSIZE (full speed)
PACKET = 64  # a full-speed bulk packet: what the host takes at a time
TX_TIMEOUT_MS = 500  # MICROPY_HW_USB_CDC_TX_TIMEOUT (ports/rp2/mphalport.h, ports/esp32/usb.h)
UART_FIFO = 128  # ESP32-S3 UART FIFO (SOC_UART_FIFO_LEN)
UART_US_PER_BYTE = 87  # 10 bits at 115200 baud
UART_TICK_MS = 10  # ulTaskNotifyTake(pdFALSE, 1): one FreeRTOS tick at CONFIG_FREERTOS_HZ=100
CTRL_A, CTRL_B, CTRL_C, CTRL_D, CTRL_E = 1, 2, 3, 4, 5
_POLL = 3  # MP_STREAM_POLL


def ctrl_c_enabled():
    """Is Ctrl-C enabled in this MicroPython right now?  The unix port's
    mp_hal_set_interrupt_char installs its SIGINT handler for Ctrl-C and SIG_DFL otherwise
    (ports/unix/unix_mphal.c), so the kernel's mask of caught signals tells: SigCgt, field 34
    of /proc/self/stat (proc(5)), bit 1 for SIGINT.  /proc/self/stat is one line: reading it
    costs a tenth of what /proc/self/status does, and every frame the host sends holds a 0x03."""
    try:
        with open("/proc/self/stat") as f:
            s = f.read()
        return bool((int(s[s.rindex(")") + 2:].split()[31]) >> 1) & 1)
    except (OSError, ValueError, IndexError):
        return False


class PtyWire:
    """The host side is a pty (or a tty): it holds what the host wrote; what goes in, the host reads."""

    def __init__(self, fin, fout):
        self.fin = fin  # HalSim waits on it
        self.fout = fout
        self._pin = select.poll()
        self._pin.register(fin, select.POLLIN)
        self._pout = select.poll()
        self._pout.register(fout, select.POLLOUT)
        self._one = bytearray(1)
        self.lost = 0  # bytes written while nobody had the port open

    def rx_ready(self):
        for _obj, ev in self._pin.ipoll(0):
            return bool(ev & select.POLLIN)
        return False

    def read1(self):
        return self._one[0] if self.fin.readinto(self._one) else -1

    def take(self, data):
        """The host takes up to a packet of `data` (a memoryview); returns how much."""
        for _obj, ev in self._pout.ipoll(0):
            if not ev & select.POLLOUT:
                return 0
            try:
                return self.fout.write(data[:PACKET]) or 0
            except OSError:  # no one on the other end: as a board with no host, bytes are lost
                self.lost += len(data)
                return len(data)
        return 0

    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        time.sleep_ms(ms)


class MemoryWire:
    """The host side in memory: `push` bytes from the host, `pull` what it has read.  `rate` is
    how many bytes the host reads per millisecond of `clock` (None: all at once)."""

    def __init__(self, clock, rate=None):
        self.clock = clock  # an object with .now (ms) that is also callable
        self.rate = rate
        self.inbox = bytearray()
        self.outbox = bytearray()
        self._r = 0
        self._credit = 0
        self._at = clock.now

    def push(self, data):
        self.inbox.extend(data)

    def pull(self):
        out = bytes(self.outbox)
        self.outbox = bytearray()
        return out

    def rx_ready(self):
        return self._r < len(self.inbox)

    def read1(self):
        if self._r >= len(self.inbox):
            return -1
        b = self.inbox[self._r]
        self._r += 1
        if self._r == len(self.inbox):
            self.inbox = bytearray()
            self._r = 0
        return b

    def take(self, data):
        n = len(data)
        if self.rate is not None:
            now = self.clock.now
            self._credit += (now - self._at) * self.rate
            self._at = now
            if self._credit > TX_FIFO:
                self._credit = TX_FIFO  # a host that read nothing for a while does not bank reads
            n = min(n, int(self._credit))
            self._credit -= n
        self.outbox.extend(data[:n])
        return n

    def ticks_ms(self):
        return self.clock.now

    def sleep_ms(self, ms):
        self.clock.now += ms


class UsbCdc(io.IOBase):
    """sys.stdin and sys.stdout of a board over TinyUSB CDC (see the module doc).  `port` is
    "rp2" or "esp32" (the esp32 port's poll and UART copy)."""

    def __init__(self, wire, port="rp2"):
        self.wire = wire
        self.fin = getattr(wire, "fin", None)
        self.port = port
        self._ring = bytearray(RINGBUF)
        self._get = 0
        self._n = 0
        self._fifo = bytearray(TX_FIFO)
        self._fifo_v = memoryview(self._fifo)
        self._fifo_n = 0
        self.kbd_pending = False
        self.interrupts = 0  # KeyboardInterrupts raised
        self.write_waits_ms = 0  # time writes spent waiting for room (USB FIFO and UART)
        self.longest_write_ms = 0
        self._uart_level = 0  # bytes in the UART FIFO (esp32) and when it was last looked at (us)
        self._uart_at = 0

    # -- receive (tud_cdc_rx_cb) -----------------------------------------------------------
    def rx_cb(self):
        w = self.wire
        enabled = None  # asked once a look, at its first 0x03
        while self._n < RINGBUF and w.rx_ready():
            c = w.read1()
            if c < 0:
                break
            if c == CTRL_C and enabled is None:
                enabled = ctrl_c_enabled()
            if c == CTRL_C and enabled:
                self._get = self._n = 0  # "Clear the ring buffer"
                self.kbd_pending = True  # mp_sched_keyboard_interrupt()
            else:
                self._ring[(self._get + self._n) % RINGBUF] = c
                self._n += 1

    def service(self):
        """The USB task runs; a KeyboardInterrupt it scheduled is raised now."""
        self.rx_cb()
        self._drain()
        if self.kbd_pending:
            self.kbd_pending = False
            self.interrupts += 1
            raise KeyboardInterrupt

    def pending(self):
        """Bytes waiting in the ring buffer (the HAL's idle must not sleep on them)."""
        return self._n

    def _get1(self):
        c = self._ring[self._get]
        self._get = (self._get + 1) % RINGBUF
        self._n -= 1
        return c

    def readinto(self, buf):
        """As a board's sys.stdin.buffer.readinto: waits until `buf` is full."""
        n = 0
        while n < len(buf):
            if not self._n:
                self.service()  # the ring is empty: see what the host sent since
            while n < len(buf) and self._n:
                buf[n] = self._get1()
                n += 1
            if n < len(buf):
                self.wire.sleep_ms(1)
        return n

    def read_byte(self, wait=None):
        """One byte for the REPL (mp_hal_stdin_rx_chr), or -1; `wait()` is called while none is there."""
        self.rx_cb()
        if self._n:
            return self._get1()
        if wait is not None:
            wait()
        return -1

    # -- transmit (mp_usbd_cdc_tx_strn) ----------------------------------------------------
    def _drain(self):
        """The host takes what it reads from the FIFO."""
        while self._fifo_n:
            k = self.wire.take(self._fifo_v[:self._fifo_n])
            if not k:
                return
            self._fifo_v[:self._fifo_n - k] = self._fifo_v[k:self._fifo_n]
            self._fifo_n -= k

    def write(self, buf):
        w = self.wire
        t0 = w.ticks_ms()
        if self.port == "esp32":
            self._uart_copy(len(buf))
        mv = memoryview(buf)
        total = len(mv)
        i = 0
        last = w.ticks_ms()
        while i < total:
            n = min(total - i, TX_FIFO - self._fifo_n)
            self._fifo[self._fifo_n:self._fifo_n + n] = mv[i:i + n]
            self._fifo_n += n
            i += n
            if self._fifo_n == TX_FIFO:
                self._drain()  # else the host takes it at the next look (service)
            if i < total:
                if n:
                    last = w.ticks_ms()
                elif time.ticks_diff(w.ticks_ms(), last) >= TX_TIMEOUT_MS:
                    break  # timeout: what was written is returned
                w.sleep_ms(1)  # mp_event_wait_ms(1): the host makes room meanwhile
                self._drain()
        took = time.ticks_diff(w.ticks_ms(), t0)
        self.write_waits_ms += took
        if took > self.longest_write_ms:
            self.longest_write_ms = took
        return i

    def _uart_copy(self, n):
        """ports/esp32/uart.c uart_stdout_tx_strn: the same bytes to UART0, waiting a tick at a
        time for room in its FIFO."""
        w = self.wire
        while n:
            now = w.ticks_ms() * 1000
            gone = (now - self._uart_at) // UART_US_PER_BYTE
            self._uart_at = now
            self._uart_level = max(0, self._uart_level - gone)
            k = min(n, UART_FIFO - self._uart_level)
            self._uart_level += k
            n -= k
            if n:
                w.sleep_ms(UART_TICK_MS)

    def flush(self):
        self._drain()

    # -- select.poll ---------------------------------------------------------------------
    def ioctl(self, req, arg):
        if req != _POLL:
            return -1
        if arg & select.POLLIN:
            if not self._n:
                # Only an empty ring sends us to the host for more: bytes already in it are
                # there whatever came since, and a byte at a time through the whole USB task
                # made a frame cost milliseconds (a board runs that task in C, between bytecodes).
                self.service()
        elif self._fifo_n == TX_FIFO:
            self._drain()
        ret = 0
        if arg & select.POLLIN and self._n:
            ret |= select.POLLIN
        if arg & select.POLLOUT and (self.port == "esp32" or self._fifo_n < TX_FIFO):
            ret |= select.POLLOUT
        return ret


class Poll:
    """select.poll for the UsbCdc, as the firmware's UsbSerial uses it (register, ipoll): it asks
    the stream's ioctl directly, as a board's poll asks the C-level sys.stdin.

    Why not select.poll: on the unix port a stream written in Python has no file descriptor, and
    select.poll then spends about a millisecond in every call, ready or not (measured with
    MicroPython 1.29's unix port: 1.1 ms a poll(0) on an io.IOBase whose ioctl answers
    MP_STREAM_GET_FILENO with an error, 1 us when it names a descriptor).  A pass of the
    firmware reads and writes a byte at a time, one poll a byte, so the simulated board ran
    40 times slower on its serial than a board does, and `bench hil` measured that.
    Readiness is the same ioctl(MP_STREAM_POLL) answer select.poll would get."""

    def __init__(self):
        self._objs = []

    def register(self, obj, mask):
        self._objs.append((obj, mask))

    def ipoll(self, timeout=-1):
        start = time.ticks_ms()
        while True:
            for obj, mask in self._objs:
                ev = obj.ioctl(_POLL, mask)
                if ev > 0:
                    return ((obj, ev),)
            if timeout == 0 or (timeout > 0 and time.ticks_diff(time.ticks_ms(), start) >= timeout):
                return ()
            time.sleep_ms(1)


BANNER = "MicroPython v1.29.0 on 2026-07-05; Raspberry Pi Pico with RP2040\r\nType \"help()\" for more information.\r\n"
RAW_BANNER = "raw REPL; CTRL-B to exit\r\n"
SOFT_RESET = "soft_reset"


class Repl:
    """shared/runtime/pyexec.c, pyexec_friendly_repl and pyexec_raw_repl, over a UsbCdc.

    run() returns SOFT_RESET on Ctrl-D (an empty line), as the board then runs main.py again;
    `on_mode(mode)` is told "friendly" or "raw" whenever the mode changes; `idle()` is called
    while no byte is waiting (run_sim.py serves the control channel there).
    """

    def __init__(self, cdc, on_mode=None, idle=None, banner=BANNER):
        self.cdc = cdc
        self.on_mode = on_mode
        self.idle = idle
        self.banner = banner
        self.mode = None
        self.globals = {"__name__": "__main__"}

    def _out(self, text):
        self.cdc.write(text.encode() if isinstance(text, str) else text)
        self.cdc.flush()

    def _set_mode(self, mode):
        if mode != self.mode:
            self.mode = mode
            if self.on_mode is not None:
                self.on_mode(mode)

    def _byte(self):
        while True:
            c = self.cdc.read_byte(self.idle)
            if c >= 0:
                return c
            if self.idle is None:
                self.cdc.wire.sleep_ms(1)

    def run(self, raw=False):
        import micropython
        micropython.kbd_intr(-1)  # pyexec: Ctrl-C is a plain byte at the prompt
        while True:
            if raw:
                if not self._raw():
                    return SOFT_RESET
                raw = False
            else:
                what = self._friendly()
                if what == SOFT_RESET:
                    return SOFT_RESET
                raw = True

    def _friendly(self):
        self._set_mode("friendly")
        self._out(self.banner)
        line = bytearray()
        self._out(">>> ")
        while True:
            c = self._byte()
            if c == CTRL_A:  # readline returns it on an empty line only; a real one as well
                self._out("\r\n")
                return "raw"
            if c == CTRL_B:
                self._out("\r\n" + self.banner + ">>> ")
                line = bytearray()
            elif c == CTRL_C:
                self._out("\r\n>>> ")
                line = bytearray()
            elif c == CTRL_D:
                if not line:
                    self._out("\r\n")
                    return SOFT_RESET
            elif c in (13, 10):
                self._out("\r\n")
                if line:
                    self._run(bytes(line).decode(), False)
                line = bytearray()
                self._out(">>> ")
            elif c == 8 or c == 127:
                if line:
                    line = line[:-1]
                    self._out("\x08 \x08")
            elif c >= 32:
                line.append(c)
                self._out(bytes([c]))

    def _raw(self):
        """False on a soft reset, True when Ctrl-B goes back to the friendly REPL."""
        self._set_mode("raw")
        self._out(RAW_BANNER + ">")
        line = bytearray()
        while True:
            c = self._byte()
            if c == CTRL_A:
                if len(line) == 2 and line[0] == CTRL_E:
                    self._out(b"R\x00")  # raw-paste mode not supported: mpremote falls back
                    line = bytearray()
                    continue
                self._out(RAW_BANNER + ">")
                line = bytearray()
            elif c == CTRL_B:
                self._out("\r\n")
                return True
            elif c == CTRL_C:
                line = bytearray()
            elif c == CTRL_D:
                self._out("OK")
                if not line:
                    self._out("\r\n")
                    return False
                self._run(bytes(line).decode(), True)
                line = bytearray()
                self._out(">")
            else:
                line.append(c)

    def _run(self, source, raw):
        err = ""
        try:
            try:
                r = eval(source, self.globals)
                if r is not None and not raw:
                    self._out(repr(r) + "\r\n")
            except SyntaxError:
                exec(source, self.globals)
        except Exception as e:  # noqa: BLE001 — what a REPL prints
            err = "Traceback (most recent call last):\r\n%s: %s\r\n" % (type(e).__name__, e)
        if raw:
            self._out("\x04" + err + "\x04")
        elif err:
            self._out(err)


def traceback_text(e):
    """What pyexec prints for an exception that ends main.py."""
    return "Traceback (most recent call last):\r\n  File \"main.py\"\r\n%s: %s\r\n" % (type(e).__name__, e)
