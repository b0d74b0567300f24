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
import logging
import signal
import threading

from . import compiled, parallel
from .paths import missing

LOCAL = "local"
# Workers a game may take down in turn before it counts as the culprit, on a local cluster (Dask's
# default, made explicit; a scheduler of your own has its distributed.scheduler.allowed-failures).
ALLOWED_FAILURES = 3
CONNECT_TIMEOUT = "10s"  # to reach a scheduler at an address
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
    and ignores Ctrl-C: a terminal's reaches the whole process group, and the worker's nanny (`dask
    worker`, or this process for a local cluster), which has it too, stops the worker cleanly, where
    the worker itself would print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    compiled.use_default(warn=lambda line: None)


@contextlib.contextmanager
def _local_cluster(workers):
    """A LocalCluster of `workers` processes whose workers never take a terminal's Ctrl-C, even while
    they import (a worker hit then printed a traceback and left the cluster half-started): SIGINT is
    ignored in this process while Dask starts the cluster, and an ignored signal stays ignored in the
    processes it starts, across exec (signal(7)); Python leaves it so. A Ctrl-C pressed in those few
    seconds is not seen (press it again once the games run: this process then takes it and closes the
    cluster). Blocking SIGINT instead, to keep that press pending, does not hold: multiprocessing
    unblocks it in the thread that starts its resource tracker (multiprocessing/resource_tracker.py).
    A worker started later, to replace a lost one, ignores it from its preload hook on (dask_setup)."""
    ignore = threading.current_thread() is threading.main_thread()  # signal() is the main thread's alone
    with contextlib.ExitStack() as stack:
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if ignore else None
        try:
            # One thread a worker: a game is pure Python, and threads of one process share its GIL.
            # Its workers log errors only: a game cancelled by Ctrl-C or a budget is not one.
            local = stack.enter_context(_dask().LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                silence_logs=logging.ERROR, preload=["maester.cluster"],
                scheduler_kwargs={"allowed_failures": ALLOWED_FAILURES}))
        finally:
            if ignore:
                signal.signal(signal.SIGINT, handler)
        yield local


def _quiet_teardown():
    """Closing a cluster in the middle of a run breaks the comms of the games under way, and Dask
    and tornado log each as an error with its traceback: noise for a person who pressed Ctrl-C and
    whose run stopped as asked (a test saw one in about one run in four). Every logger under those
    names is quieted, not only the parents: Dask's own logging config gives some of them a level of
    their own (tornado.application: error), which a parent's level does not override."""
    names = ("distributed", "tornado", "asyncio")
    for name in [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in names] + list(names):
        logging.getLogger(name).setLevel(logging.CRITICAL)


@contextlib.contextmanager
def _quiet_on_ctrl_c():
    """Quiet the teardown's loggers the moment Ctrl-C arrives, before anything is cancelled or closed
    (the games' futures are cancelled on the way out, while the interrupt is still rising)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupted(signum, frame):
        _quiet_teardown()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def connect(address, workers):
    """A Dask client: of the scheduler at `address`, or (address "local") of a LocalCluster of
    `workers` single-threaded worker processes started here. Closed on the way out, the local cluster
    with its workers. ValueError when the extra is missing or the scheduler cannot be reached."""
    if address == LOCAL:
        with _local_cluster(workers) as local, _dask().Client(local) as client, _quiet_on_ctrl_c():
            try:
                yield client
            except KeyboardInterrupt:
                _quiet_teardown()
                raise
        return
    try:
        client = _dask().Client(address, timeout=CONNECT_TIMEOUT)
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
    finished. An exception raised by func is raised here at its job's turn; a game that took down one
    worker more than the scheduler's allowed failures raises parallel.WorkerLost naming it."""
    distributed = _dask()
    pending = collections.deque()
    ahead = max(MIN_AHEAD, 4 * threads(client))

    def finish(pending):
        job, future = pending[0]
        try:
            return future.result()
        except distributed.KilledWorker as e:
            raise parallel.WorkerLost("a game took down %d Dask workers in turn (%s)"
                                      % (e.allowed_failures + 1, e), [job]) from None

    try:
        # pure=False: each job is its own task, never merged with an equal one of another run.
        yield from parallel.in_order(jobs, pending, lambda job: client.submit(func, job, pure=False),
                                     finish, lambda: ahead)
    finally:
        client.cancel([future for _, future in pending])
