"""Independent jobs played on a Dask distributed cluster, their results handed back in the jobs' order:
`maester sim --cluster ADDRESS` (a scheduler already running, `dask scheduler` and `dask worker` on each
machine) or `--cluster local` (a LocalCluster of worker processes on this machine, closed at the end).

The loop is parallel.in_order's, the one the process pool runs: a window of jobs handed out, the oldest
awaited. Only the handing out differs: each job is a Dask future. A game is a pure function of its
seed, so which worker plays it changes nothing but the timings.

A lost worker (a machine switched off, a process killed) costs only the games it held: the scheduler
sees it go and gives those games to the others. That is Dask's own doing, bounded by its
`distributed.scheduler.allowed-failures` (ALLOWED_FAILURES here, for a local cluster): a game that
takes down more workers than that in turn is not tried again, and the run stops naming it.

Dask is the `cluster` extra, imported only here and only when a run asks for a cluster (it takes about
a second to import).
"""

import collections
import contextlib
import signal

from . import compiled, parallel
from .paths import missing

LOCAL = "local"
# Workers a game may take down in turn before it counts as the culprit (Dask's default, made explicit).
ALLOWED_FAILURES = 3
# Games handed to the scheduler ahead of the one awaited: every worker's thread busy, and more queued on
# the scheduler for workers that join mid-run; the rest wait here, so stopping early drops little.
MIN_AHEAD = 256


def _dask():
    try:  # the cluster extra, slow to import: only a run with --cluster pays for it
        import distributed
    except ImportError as e:
        raise ValueError(missing("Dask distributed, which spreads games over a cluster (%s)," % e, "cluster")) from None
    return distributed


def dask_setup(worker):
    """Dask's preload hook, run in each worker process as it starts (`dask worker --preload
    maester.cluster`; a local cluster's workers have it too). The worker plays with the compiled build
    when it is fresh, as `maester` does (compiled.use_default, before any game's module is imported),
    and leaves Ctrl-C to its nanny (`dask worker`, or the process that started a local cluster), which
    a terminal's Ctrl-C reaches as well and which stops the worker cleanly, without a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    compiled.use_default(warn=lambda line: None)


@contextlib.contextmanager
def connect(address, workers):
    """A Dask client: of the scheduler at `address`, or (address "local") of a LocalCluster of
    `workers` single-threaded worker processes started here. Closed on the way out, the local cluster
    with its workers. ValueError when the extra is missing or the scheduler cannot be reached."""
    distributed = _dask()
    import dask  # the cluster extra, as above (dask comes with distributed)
    with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES}):
        if address == LOCAL:
            # One thread a worker: a game is pure Python, and threads of one process share its GIL.
            with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                          dashboard_address=None, preload=["maester.cluster"]) as local, \
                    distributed.Client(local) as client:
                yield client
            return
        try:
            client = distributed.Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError) as e:
            raise ValueError("cannot reach the Dask scheduler at %s (%s): start it there with `dask scheduler`"
                             % (address, e)) from None
        with client:
            yield client


def threads(client):
    """How many games the cluster plays at once: its workers' threads, summed."""
    return sum(client.nthreads().values())


def ordered(func, jobs, client):
    """Yield func(job) for each of `jobs`, in order, each played on the cluster of `client` (connect).
    Closing the generator early (a budget reached, Ctrl-C, an exception) cancels the games not
    finished. An exception raised by func is raised here at its job's turn; a game that took down
    ALLOWED_FAILURES + 1 workers raises parallel.WorkerLost naming it."""
    distributed = _dask()
    pending = collections.deque()
    ahead = max(MIN_AHEAD, 4 * threads(client))

    def finish(pending):
        job, future = pending[0]
        try:
            return future.result()
        except distributed.KilledWorker as e:
            raise parallel.WorkerLost("a game took down %d Dask workers in turn (%s)"
                                      % (ALLOWED_FAILURES + 1, e), [job]) from None

    try:
        # pure=False: each job is its own task, never merged with an equal one of another run.
        yield from parallel.in_order(jobs, pending, lambda job: client.submit(func, job, pure=False),
                                     finish, lambda: ahead)
    finally:
        client.cancel([future for _, future in pending])
