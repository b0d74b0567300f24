"""How long `maester` takes to start: `maester --help`, `--version`, each `maester COMMAND --help`
and a few commands that need no web page or schema (issue 16: each within 0.15 s). Prints the
median of 10 runs each (interleaved), in wall-clock time and in CPU time (user + system: what a busy machine's
other work does not inflate), beside a bare `python -c pass` (the interpreter's own start, which no
change here can cut), and marks with * every wall time over 0.15 s.

    .venv/bin/python tests/startup_time.py [COMMAND ...]     # default: all of them

The runs use compiled bytecode as an installed maester would: PYTHONDONTWRITEBYTECODE is dropped
and the .pyc files go to a temporary PYTHONPYCACHEPREFIX (the tree is left alone), written by one
uncounted run of each command first. Without them every run compiles the firmware's wire.py and
any module edited since its last .pyc, which is most of what such a run measures.

Not a test: timings depend on the machine and its load (printed first); tests/test_startup.py
checks what each command imports.
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 10
LIMIT = 0.15  # seconds, the target
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Commands that do real work yet need no web page or schema: a board search that finds none, and a
# starter deck checked against the LCG's rules.
WORK = (["--version"], ["doctor"], ["decks", "check", os.path.join(ROOT, "cards_db", "lcg", "decks", "stark.txt")])


def cpu_of_children():
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def medians(argvs, env):
    """[(wall, cpu)]: the medians of RUNS runs of each of `argvs`, after one uncounted run of each.
    The runs are interleaved, a round of every command at a time, so a burst of other work on the
    machine lands on all of them alike rather than on whichever ran then."""
    wall, cpu = [[] for _ in argvs], [[] for _ in argvs]
    for run in range(RUNS + 1):
        for i, argv in enumerate(argvs):
            began, began_cpu = time.perf_counter(), cpu_of_children()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
            if run:
                wall[i].append(time.perf_counter() - began)
                cpu[i].append(cpu_of_children() - began_cpu)
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(wall, cpu)]


def row(label, seconds):
    wall, cpu = seconds
    print("%-52s %7.3fs%s %7.3fs" % (label, wall, "*" if wall > LIMIT else " ", cpu))


def main(commands):
    from maester.cli import COMMANDS
    env = dict(os.environ, MAESTER_HOME=tempfile.mkdtemp(prefix="maester-startup-"),
               PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="maester-pyc-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print("load average %.1f %.1f %.1f on %d cores" % (os.getloadavg() + (os.cpu_count(),)))
    print("%-52s %8s  %8s" % ("median of %d runs" % RUNS, "wall", "cpu"))
    runs = [words + ["--help"] for words in ([[]] + [[c] for c in (commands or COMMANDS)])]
    if not commands:
        runs += [list(w) for w in WORK]
    labels = ["python -c pass"] + ["maester " + " ".join(os.path.relpath(w, ROOT) if os.path.isabs(w) else w
                                                         for w in words) for words in runs]
    argvs = [[sys.executable, "-c", "pass"]] + [[sys.executable, "-m", "maester.cli"] + words for words in runs]
    for label, seconds in zip(labels, medians(argvs, env)):
        row(label, seconds)
    print("* over %.2f s of wall time" % LIMIT)


if __name__ == "__main__":
    main(sys.argv[1:])
