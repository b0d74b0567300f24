"""Number options that name their allowed range: argparse `type=` functions for every command.

    p.add_argument("--games", type=int_range(1, 1000000), default=100)
    p.add_argument("--timeout", type=seconds(0.1, 600), default=5.0)

A value out of range, or not a number at all, is refused while the command line is parsed: argparse
prints "argument --games: 0 is out of range: give a whole number from 1 to 1000000" and exits with
status 2, before anything runs. `seconds` refuses nan and inf as well. The same functions check a
value typed at a prompt: they raise argparse.ArgumentTypeError, a ValueError.
"""

import argparse
import math
import os


def _num(x):
    return "%g" % x if isinstance(x, float) else str(x)


def _span(lo, hi, noun):
    if lo is not None and hi is not None:
        return "%s from %s to %s" % (noun, _num(lo), _num(hi))
    if lo is not None:
        return "%s of at least %s" % (noun, _num(lo))
    if hi is not None:
        return "%s of at most %s" % (noun, _num(hi))
    return noun


def _checker(lo, hi, noun, convert, name):
    span = _span(lo, hi, noun)

    def check(text):
        try:
            value = convert(text)
        except (TypeError, ValueError, OverflowError):
            raise argparse.ArgumentTypeError("%r is not %s" % (text, span)) from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError("%s is out of range: give %s" % (text, span))
        return value

    check.__name__ = name  # what argparse calls the type in its own messages
    check.span = span  # for help texts: "a whole number from 1 to 8"
    return check


def _whole(text):
    if isinstance(text, bool):
        raise ValueError(text)
    return int(text) if isinstance(text, int) else int(str(text).strip(), 10)


def int_range(lo=None, hi=None):
    """A whole number from lo to hi (either end may be None: unbounded); "+3" and " 3" are fine, "3.0" is not."""
    return _checker(lo, hi, "a whole number", _whole, "int_range")


def _finite(text):
    if isinstance(text, bool):
        raise ValueError(text)
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def seconds(lo=0.0, hi=None):
    """A finite number of seconds from lo to hi; nan and inf are refused."""
    return _checker(lo, hi, "a number of seconds", _finite, "seconds")


# How long a command waits for a board's handshake (doctor, hw test, enroll).
BOARD_WAIT = seconds(0.1, 600)


def serial_port(text):
    """A board's serial port. A path that is not there is refused at once, before any wait for a
    board (Windows names such as COM3 are not paths, so they are passed on as they are)."""
    if os.name != "nt" and not os.path.exists(text):
        raise argparse.ArgumentTypeError(
            "%s: no such file or directory, so no board is there; `maester doctor` without --port lists "
            "the boards it finds (`ls /dev/ttyACM* /dev/ttyUSB*` shows the ports)" % text)
    return text
