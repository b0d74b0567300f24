"""MicroPython's microsecond clock, with a stand-in so the same drivers run on CPython.

(`const` stays imported from `micropython` in each module: only there does the compiler inline it.)
"""

try:
    from time import sleep_us, ticks_diff, ticks_us  # noqa: F401
except ImportError:  # CPython
    import time as _time

    def sleep_us(us):
        _time.sleep(us / 1_000_000)

    def ticks_us():
        return _time.monotonic_ns() // 1000

    def ticks_diff(a, b):
        return a - b
