"""`maester hw test`: bring a built table up, one LED segment and one reader at a time (table/hwcheck.py)."""

from .. import lazy
from ..argtypes import BOARD_WAIT, seconds, serial_port
from ..table import profile as profiles
from ..table.hwconfig import BOARDS

hwcheck = lazy.Module("maester.table.hwcheck")  # the link and the wire codec when a test runs (start-up)


def register(sub):
    hw = sub.add_parser("hw", help="check the hardware of a built table",
                        description="Hardware checks for a table you built.")
    hw.set_defaults(func=lambda args: hw.print_help() or 2)
    cmds = hw.add_subparsers(dest="hw_command", metavar="ACTION")
    p = cmds.add_parser("test", help="bring a table up: every LED segment, then every reader's chip, a card, two cards and a power cut",
                        description="Light each segment of the table profile on its own and time a full-strip write; then, "
                                    "reader by reader, name its chip, ask for a tap, for two cards at once and for a power "
                                    "cut, reporting taps live. One line a reader at the end with a verdict and what to do. "
                                    "Exit status 1 if any reader needs a look.")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--port", type=serial_port, help="the board's serial port (default: the first board found)")
    where.add_argument("--sim", action="store_true", help="test the simulated board instead")
    p.add_argument("--profile", help="table profile (default: the one the board was flashed with, else %s)" % profiles.DEFAULT)
    p.add_argument("--board", default="pico", choices=BOARDS, help="pin map, to name the pins (default pico)")
    p.add_argument("--auto", type=seconds(0, 60), metavar="S",
                   help="do not wait for Enter: S seconds per segment, and at most S seconds per reader (0 to 60)")
    p.add_argument("--timeout", type=BOARD_WAIT, default=5.0, metavar="S",
                   help="how long to wait for the board, %s (default %%(default)s)" % BOARD_WAIT.span)
    p.set_defaults(func=cmd_test)


def cmd_test(args):
    return hwcheck.HwTest(args).run()
