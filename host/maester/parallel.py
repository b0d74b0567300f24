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
    """A worker ended while it had a job and the job will not be played: `in_flight`, the jobs handed
    out and not finished, the lost one among them. The message says how it ended."""

    def __init__(self, message, in_flight):
        super().__init__(message)
        self.in_flight = in_flight


def in_order(jobs, pending, start, finish, ahead):
    """Yield each job's result in the jobs' order, with up to `ahead()` jobs handed out at once so no
    worker waits while the oldest is awaited. start(job) hands a job out and returns its handle;
    finish(pending) waits for the oldest, pending[0] (job, handle), and returns its result or raises.
    `pending` (a deque, the caller's, so it can cancel what is left) holds the jobs handed out. The one
    loop of the process pool and of a Dask cluster (cluster.py)."""
    jobs, done = iter(jobs), object()

    def top_up():
        while len(pending) < ahead():
            job = next(jobs, done)
            if job is done:
                return
            pending.append((job, start(job)))

    top_up()
    while pending:
        result = finish(pending)
        pending.popleft()
        top_up()
        yield result


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
    with _context().Pool(workers, initializer=_ignore_sigint) as pool:  # leaving the block terminates it
        # The pool's own processes: it replaces one that dies without a word, so look for an exit code.
        started = list(pool._pool)

        def finish(pending):
            while not pending[0][1].ready():
                pending[0][1].wait(0.2)
                dead = [p.exitcode for p in started if p.exitcode is not None]
                if dead:
                    in_flight = [job for job, r in pending if not r.ready()]
                    raise WorkerLost("a worker process ended (%s) with %d job%s unfinished" % (
                        "signal %d" % -dead[0] if dead[0] < 0 else "exit code %d" % dead[0],
                        len(in_flight), "" if len(in_flight) == 1 else "s"), in_flight)
            return pending[0][1].get()

        yield from in_order(jobs, collections.deque(), lambda job: pool.apply_async(func, (job,)), finish,
                            lambda: 2 * workers)
