"""MicroPython's microsecond clock, with a stand-in so the same drivers run on CPython.

(`const` stays imported from `micropython` in each module: only there does the compiler inline it.)
"""

try:
    from time import sleep_us, ticks_diff, ticks_us  # noqa: F401
except ImportError:  # CPython
    from .cpython import sleep_us, ticks_diff, ticks_us  # noqa: F401
