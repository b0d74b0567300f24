"""The REPL of a simulated board: the MicroPython unix port's own, raw REPL included, run as

    micropython -i firmware/sim/board_repl.py      (working directory: the board's filesystem)

on the board's pty (host/maester/link/simboard.py starts it when the firmware ends, see
run_sim.py).  mpremote drives it as it drives a board's: `exec`, `fs cp` into the working
directory, `reset`.  This script only makes the port look like a board's before the REPL starts:

* sys.path[0] is "" (the working directory, the board's filesystem, as a board's sys.path starts
  with ""); `-i` would leave it at this script's directory.
* machine.reset() ends the process with status RESET: the board restarts.  The unix port's
  machine module has no reset (ports/unix/modmachine.c); mpremote's `reset` runs
  `machine.reset()` (mpremote/main.py, the "reset" alias) and a hobbyist types it.

Leaving the REPL: Ctrl-D on an empty line (friendly or raw) ends the unix port's REPL with status 0,
which the simulated board takes as a soft reset; machine.reset() as a hard one.  Either way the
firmware then runs again from the board's filesystem.
"""

import sys

RESET = 7  # the exit status that means machine.reset() (simboard.py: REPL_RESET)

sys.path[0] = ""


class _Machine:
    """The unix port's machine module, with a board's reset."""

    def __init__(self, builtin):
        self._builtin = builtin

    def __getattr__(self, name):
        return getattr(self._builtin, name)

    def reset(self):
        raise SystemExit(RESET)


import machine  # noqa: E402 — the built-in one, wrapped

sys.modules["machine"] = _Machine(machine)
del machine, _Machine
