"""Independent jobs spread over worker processes, their results handed back in the jobs' order.

`maester sim --jobs N` plays whole games this way: a game is a pure function of its seed, so which
worker plays it, and when, changes nothing but the timings.

Workers are forked where the platform can (Linux): they start in milliseconds with the parent's
modules already loaded, the compiled build included when `bench engine --build compiled` loaded it,
and the parent runs no threads that a fork could catch half-way. Elsewhere they are spawned (each
imports maester again: a fraction of a second per worker).
"""

import collections
import multiprocessing
import os
import signal


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _ignore_sigint():
    # Ctrl-C on a terminal reaches the whole process group: the parent alone handles it (stops the
    # pool, prints one line), so the workers print no traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def ordered(func, jobs, workers):
    """Yield func(job) for each of `jobs` (an iterable), in order. workers == 1: in this process,
    one after another. Otherwise a pool of `workers` processes, with a few jobs queued ahead of the
    one awaited so no worker waits; closing the generator early (a budget reached, Ctrl-C, an
    exception) terminates the pool, dropping the jobs under way. An exception raised by func is
    raised here, at its job's turn."""
    if workers == 1:
        for job in jobs:
            yield func(job)
        return
    jobs = iter(jobs)
    with _context().Pool(workers, initializer=_ignore_sigint) as pool:  # leaving the block terminates it
        pending = collections.deque()

        def submit():
            for job in jobs:
                pending.append(pool.apply_async(func, (job,)))
                return

        for _ in range(2 * workers):
            submit()
        while pending:
            result = pending.popleft().get()
            submit()
            yield result
