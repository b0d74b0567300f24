"""Stand-ins for what MicroPython has built in, so the firmware's pure logic runs on CPython too
(the host shares the wire codec; tests drive the drivers there).

A board never imports this module (`maester firmware build` leaves it out): every firmware module
first tries MicroPython's own name and only falls back here. `const` is still imported from
`micropython` in each module, because only that import lets the compiler inline the constant. The
type-check against the port stubs (tests/test_firmware_types.py) skips this file: it is CPython code.
"""

import time as _time


def const(expr):
    return expr


def sleep_us(us):
    _time.sleep(us / 1_000_000)


def ticks_us():
    return _time.monotonic_ns() // 1000


def ticks_diff(a, b):
    return a - b
