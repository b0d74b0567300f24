"""How long `maester --help` and each `maester COMMAND --help` take to start: the median of 10 runs
each, in wall-clock time and in CPU time (user + system: what a busy machine's other work does not
inflate), beside a bare `python -c pass` (the interpreter's own start, which no change here can cut).

    .venv/bin/python tests/startup_time.py [COMMAND ...]

Not a test: timings depend on the machine and its load; tests/test_startup.py checks what is imported.
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 10


def cpu_of_children():
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def median_seconds(argv, env):
    """(wall, cpu): the medians of RUNS runs of `argv`."""
    wall, cpu = [], []
    for _ in range(RUNS):
        began, began_cpu = time.perf_counter(), cpu_of_children()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
        wall.append(time.perf_counter() - began)
        cpu.append(cpu_of_children() - began_cpu)
    return statistics.median(wall), statistics.median(cpu)


def main(commands):
    from maester.cli import COMMANDS
    env = dict(os.environ, MAESTER_HOME=tempfile.mkdtemp(prefix="maester-startup-"))
    print("%-26s %8s %8s" % ("median of %d runs" % RUNS, "wall", "cpu"))
    print("%-26s %7.3fs %7.3fs" % (("python -c pass",) + median_seconds([sys.executable, "-c", "pass"], env)))
    for command in [None] + (commands or list(COMMANDS)):
        words = ([command] if command else []) + ["--help"]
        seconds = median_seconds([sys.executable, "-m", "maester.cli"] + words, env)
        print("%-26s %7.3fs %7.3fs" % (("maester " + " ".join(words),) + seconds))


if __name__ == "__main__":
    main(sys.argv[1:])
