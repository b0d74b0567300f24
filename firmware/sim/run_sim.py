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

Exit status: 0 after a REPL command, 4 after BOOTLOADER.
"""

import sys

_here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
sys.path.insert(0, _here)  # firmware/sim: the simulators
sys.path.insert(0, _here + "/..")  # firmware: maester_fw

import json  # noqa: E402

from hal_sim import Control, HalSim, StreamSerial, Table, _unhex  # noqa: E402
from sim_cards import Card  # noqa: E402
from maester_fw import app  # noqa: E402


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
    o = _args(sys.argv[1:])
    if o["--serial"] == "-":
        serial = StreamSerial(sys.stdin.buffer, sys.stdout.buffer)
    else:
        f = _open_tty(o["--serial"])
        serial = StreamSerial(f, f)
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
    hal = HalSim(serial, table=table, control=control, taps=taps, trace=trace)
    why = app.main(hal, o["--config"])
    if control is not None:
        control.send({"event": "exit", "why": why})
    raise SystemExit(4 if why == app.EXIT_BOOTLOADER else 0)


main()
