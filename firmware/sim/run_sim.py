"""Run the firmware on a simulated board under the MicroPython unix port.

    micropython firmware/sim/run_sim.py [--serial PATH|-] [--control PATH|-]
                                        [--config FILE] [--taps FILE]

--serial   the board's USB serial.  "-" (the default): this process's stdin and stdout,
           which is how host/maester/link/simboard.py runs it, with a pty's master end as
           stdin/stdout so the host opens the slave /dev/pts/N like a real port.  A path:
           a tty to open (e.g. one end of a `socat` pty pair); it is put in raw mode.
--control  where JSON-line control commands come from and answers go (see hal_sim.py): a
           tty path.  "-" means stdin/stdout, the default when --serial is a path, so you
           can type commands.  With the serial on stdin/stdout and no --control there is
           no live control; --taps still works.
--config   the board's config file (default sim_config.json).  CONFIG_WRITE replaces it.
           Missing: the built-in default config (maester_fw.config.DEFAULT_TEXT).
--taps     a script of JSON lines {"t_ms", "reader", "uid", "action": "place"|"remove"}.
--cards    a JSON file {"reader": ["uid hex", ...]}: cards lying on the readers at power-on.
--trace    FILE: stamp serial bytes, card placements and strip writes into FILE as they happen
           (for `maester bench hil`); the control command {"cmd": "trace"} flushes it.

When the firmware ends (the REPL command, or an exception such as a KeyboardInterrupt), the port
is the REPL's, as on a board (sim_usb.Repl); Ctrl-D there runs the firmware again.  The control
channel says {"event": "exit", "why": ...} and then {"event": "repl", "mode": "friendly"|"raw"}.
Exit status 4 after BOOTLOADER.

The first two statements are firmware/main.py's: Ctrl-C off before anything else.  The unix port
enables it before it runs this script, as pyexec.c does before main.py on a board.
"""

import micropython
micropython.kbd_intr(-1)

import sys  # noqa: E402

_here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
sys.path.insert(0, _here)  # firmware/sim: the simulators
sys.path.insert(0, _here + "/..")  # firmware: maester_fw

import json  # noqa: E402

from hal_sim import Control, HalSim, Table, _unhex  # noqa: E402
from sim_cards import Card  # noqa: E402
from sim_usb import Poll, PtyWire, Repl, SOFT_RESET, UsbCdc, traceback_text  # noqa: E402
from maester_fw import app  # noqa: E402
from maester_fw.usb_serial import UsbSerial  # noqa: E402


def _args(argv):
    opts = {"--serial": "-", "--control": None, "--config": "sim_config.json", "--taps": None, "--trace": None, "--cards": None}
    i = 0
    while i < len(argv):
        k = argv[i]
        if k not in opts or i + 1 >= len(argv):
            print(__doc__)
            raise SystemExit(2)
        opts[k] = argv[i + 1]
        i += 2
    return opts


def _open_tty(path):
    f = open(path, "r+b")
    try:
        import termios

        termios.setraw(f.fileno())  # no echo, no line editing, no Ctrl-C signal: bytes as sent
    except (ImportError, OSError):
        pass
    return f


def main():
    """The board: what ports/rp2/main.c does around main.py.  The firmware runs (boot());
    when it ends, by returning or by an exception, the REPL takes the port
    (shared/runtime/pyexec.c), until a soft reset runs the firmware again."""
    o = _args(sys.argv[1:])
    if o["--serial"] == "-":
        wire = PtyWire(sys.stdin.buffer, sys.stdout.buffer)
    else:
        f = _open_tty(o["--serial"])
        wire = PtyWire(f, f)
    usb = UsbCdc(wire)
    control = None
    c = o["--control"]
    if c is None and o["--serial"] != "-":
        c = "-"
    if c == "-":
        control = Control(sys.stdin.buffer, sys.stdout.buffer)
    elif c:
        f = _open_tty(c)
        control = Control(f, f)
    taps = []
    if o["--taps"]:
        with open(o["--taps"]) as f:
            for line in f:
                line = line.strip()
                if line:
                    taps.append(json.loads(line))
    trace = None
    if o["--trace"]:
        from trace_sim import Trace

        trace = Trace(o["--trace"])
    table = Table()
    if o["--cards"]:
        with open(o["--cards"]) as f:
            for reader, uids in json.load(f).items():
                for uid in uids:
                    table.cards.setdefault(int(reader), []).append(Card(_unhex(uid)))
    hal = HalSim(UsbSerial(usb, usb, poll=Poll), table=table, control=control, taps=taps, trace=trace, usb=usb)

    def say(obj):
        if control is not None:
            control.send(obj)

    while True:
        try:
            why = app.main(hal, o["--config"])
        except KeyboardInterrupt as e:  # a 0x03 from the host while Ctrl-C was on
            usb.write(traceback_text(e).encode())
            usb.flush()
            why = "KeyboardInterrupt"
        say({"event": "exit", "why": why})
        if why == app.EXIT_BOOTLOADER:
            raise SystemExit(4)
        repl = Repl(usb, on_mode=lambda mode: say({"event": "repl", "mode": mode}),
                    idle=lambda: hal.idle(20))
        if repl.run() != SOFT_RESET:
            break
        # pyexec enables Ctrl-C again before main.py runs, and main.py's first line turns it
        # off with no branch between: it stays off here
        usb.write(b"MPY: soft reboot\r\n")
        usb.flush()
        say({"event": "soft_reset"})
    raise SystemExit(0)


main()
