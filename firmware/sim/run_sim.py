"""Run the firmware on a simulated board under the MicroPython unix port.

    micropython firmware/sim/run_sim.py [--serial PATH|-] [--control PATH|-] [--fs DIR]
                                        [--config FILE] [--taps FILE]

--serial   the board's USB serial.  "-" (the default): this process's stdin and stdout,
           which is how host/maester/link/simboard.py runs it, with a pty's master end as
           stdin/stdout so the host opens the slave /dev/pts/N like a real port.  A path:
           a tty to open (e.g. one end of a `socat` pty pair); it is put in raw mode.
--control  where JSON-line control commands come from and answers go (see hal_sim.py): a
           tty path.  "-" means stdin/stdout, the default when --serial is a path, so you
           can type commands.  With the serial on stdin/stdout and no --control there is
           no live control; --taps still works.
--fs       the board's filesystem: a directory holding what a flash copies onto a board (main.py,
           maester_fw/, maester.json).  The firmware is imported from there, so what was flashed is
           what runs; run this with DIR as its working directory.  Without --fs, the firmware
           source tree next to this script (firmware/maester_fw).
--config   the board's config file (default sim_config.json; with --fs, maester.json in DIR).  CONFIG_WRITE replaces it.
           Missing: the built-in default config (maester_fw.config.DEFAULT_TEXT).
--taps     a script of JSON lines {"t_ms", "reader", "uid", "action": "place"|"remove"}.
--cards    a JSON file {"reader": ["uid hex", ...]}: cards lying on the readers at power-on.
--trace    FILE: stamp serial bytes, card placements and strip writes into FILE as they happen
           (for `maester bench hil`); the control command {"cmd": "trace"} flushes it.
--paced    on: no reader transaction ends before the board's modelled time (SPI at 4 MHz, ~20 us per
           machine.SPI call, air time at 106 kbit/s, the chips' timers: sim_mfrc522.SimClock); the
           waits are spun out in wall time.  Off (the default): reader time is only simulated.

When the firmware ends (the REPL command, or a KeyboardInterrupt), the control channel says
{"event": "exit", "why": ...} and this process ends with status 5 (EXIT_TO_REPL): the port is then
the REPL's, and on a simulated board the real one (host/maester/link/simboard.py starts the unix
port's own REPL in DIR on the same pty, firmware/sim/board_repl.py).  It ends so too, with the
traceback on the port as pyexec prints it, when there is no firmware to run: DIR has no main.py
(a board with plain MicroPython), a flash did not finish (FLASHING, as main.py checks), or the
flashed modules do not import.  Exit status 4 after BOOTLOADER.

The first two statements are firmware/main.py's: Ctrl-C off before anything else.  The unix port
enables it before it runs this script, as pyexec.c does before main.py on a board.
"""

import micropython
micropython.kbd_intr(-1)

import sys  # noqa: E402

_here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
sys.path.insert(0, _here)  # firmware/sim: the simulators

import json  # noqa: E402
import os  # noqa: E402

from hal_sim import Control, HalSim, Table, _unhex  # noqa: E402
from sim_cards import Card  # noqa: E402
from sim_usb import Poll, PtyWire, UsbCdc, traceback_text  # noqa: E402

EXIT_TO_REPL = 5  # the firmware ended: whoever runs this gives the port to the REPL
FLASHING = "maester_flashing"  # main.py's name: a flash wrote it and had not finished


def _args(argv):
    opts = {"--serial": "-", "--control": None, "--config": None, "--fs": None, "--taps": None, "--trace": None,
            "--cards": None, "--paced": "off"}
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


def _firmware(fs, usb, say):
    """What a board finds on its filesystem when main.py would run: the firmware's modules (app,
    UsbSerial), or None when there is nothing to run (the REPL then has the port)."""
    if fs is None:
        sys.path.insert(0, _here + "/..")  # firmware/: maester_fw as it is in the source tree
    else:
        sys.path.insert(0, fs)
        why = None
        try:
            os.stat("main.py")
        except OSError:
            why = "no main.py"  # pyexec_file_if_exists: plain MicroPython goes to its REPL
        else:
            try:
                os.stat(FLASHING)
                why = "flash unfinished"
                usb.write(b"maester: a flash to this board did not finish; staying at the REPL (flash it again)\r\n")
            except OSError:
                pass
        if why:
            say({"event": "exit", "why": why})
            return None
    try:
        from maester_fw import app
        from maester_fw.usb_serial import UsbSerial
    except Exception as e:  # noqa: BLE001 — a half-copied or broken flash: main.py's import fails
        usb.write(traceback_text(e).encode())
        sys.print_exception(e, sys.stderr)  # and in stderr.log, for whoever looks at the simulated board
        say({"event": "exit", "why": "import failed: %s" % e})
        return None
    return app, UsbSerial


def main():
    """The board: what ports/rp2/main.c does around main.py, up to the REPL.  The firmware runs;
    when it ends (the REPL command, a KeyboardInterrupt) or finds nothing to run, this process
    ends with EXIT_TO_REPL and its runner gives the port to the REPL (shared/runtime/pyexec.c).
    A firmware bug (any other exception) ends it with the traceback on stderr, where tests look."""
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

    def say(obj):
        if control is not None:
            control.send(obj)

    found = _firmware(o["--fs"], usb, say)
    if found is None:
        usb.flush()
        raise SystemExit(EXIT_TO_REPL)
    app, UsbSerial = found

    taps = []
    if o["--taps"]:
        with open(o["--taps"]) as f:
            for line in f:
                line = line.strip()
                if line:
                    taps.append(json.loads(line))
    trace = None
    if o["--trace"]:
        from maester_fw.leds import Segments
        from trace_sim import Trace, trace_renders

        trace = Trace(o["--trace"])
        trace_renders(Segments, trace)
    table = Table(paced=o["--paced"] == "on")
    if o["--cards"]:
        with open(o["--cards"]) as f:
            for reader, uids in json.load(f).items():
                for uid in uids:
                    table.cards.setdefault(int(reader), []).append(Card(_unhex(uid)))
    hal = HalSim(UsbSerial(usb, usb, poll=Poll), table=table, control=control, taps=taps, trace=trace, usb=usb)
    config = o["--config"] or ("maester.json" if o["--fs"] else "sim_config.json")
    try:
        why = app.main(hal, config)
    except KeyboardInterrupt as e:  # a 0x03 from the host while Ctrl-C was on
        usb.write(traceback_text(e).encode())
        why = "KeyboardInterrupt"
    usb.flush()
    say({"event": "exit", "why": why})
    raise SystemExit(4 if why == app.EXIT_BOOTLOADER else EXIT_TO_REPL)


main()
