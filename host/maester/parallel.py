"""Independent jobs spread over worker processes, their results handed back in the jobs' order.

`maester sim --jobs N` plays whole games this way: a game is a pure function of its seed, so which
worker plays it, and when, changes nothing but the timings.

Workers are forked where the platform can (Linux): they start in milliseconds with the parent's
modules already loaded, the compiled build included when `bench engine --build compiled` loaded it,
and the parent runs no threads that a fork could catch half-way. Elsewhere they are spawned (each
imports maester again: a fraction of a second per worker).
"""

import collections
import signal


def _context():
    import multiprocessing  # here: a run in one process (the default) has no use for it (start-up)
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _ignore_sigint():
    # Ctrl-C on a terminal reaches the whole process group: the parent alone handles it (stops the
    # pool, prints one line), so the workers print no traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class WorkerLost(RuntimeError):
    """A worker process ended while it had a job (killed, out of memory, a crash of the interpreter):
    multiprocessing.Pool would replace it and wait for that job for ever. `in_flight`: the jobs
    handed out and not finished, the lost one among them; `exitcode`: negative for a signal."""

    def __init__(self, in_flight, exitcode):
        super().__init__("a worker process ended (%s) with %d job%s unfinished"
                         % ("signal %d" % -exitcode if exitcode < 0 else "exit code %d" % exitcode,
                            len(in_flight), "" if len(in_flight) == 1 else "s"))
        self.in_flight, self.exitcode = in_flight, exitcode


def ordered(func, jobs, workers):
    """Yield func(job) for each of `jobs` (an iterable), in order. workers == 1: in this process,
    one after another. Otherwise a pool of `workers` processes, with a few jobs queued ahead of the
    one awaited so no worker waits; closing the generator early (a budget reached, Ctrl-C, an
    exception) terminates the pool, dropping the jobs under way. An exception raised by func is
    raised here, at its job's turn; a worker that dies raises WorkerLost."""
    if workers == 1:
        for job in jobs:
            yield func(job)
        return
    jobs = iter(jobs)
    with _context().Pool(workers, initializer=_ignore_sigint) as pool:  # leaving the block terminates it
        pending = collections.deque()  # (job, its AsyncResult), in order
        # The pool's own processes: it replaces one that dies without a word, so look for an exit code.
        started = list(pool._pool)

        def submit():
            for job in jobs:
                pending.append((job, pool.apply_async(func, (job,))))
                return

        for _ in range(2 * workers):
            submit()
        while pending:
            while not pending[0][1].ready():
                pending[0][1].wait(0.2)
                dead = [p.exitcode for p in started if p.exitcode is not None]
                if dead:
                    raise WorkerLost([job for job, r in pending if not r.ready()], dead[0])
            result = pending.popleft()[1].get()
            submit()
            yield result
