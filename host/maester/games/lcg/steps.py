"""The LCG's step registry: every module adds its steps here with `@step`.

Each step is `(ctx, step, answer)`; `answer` is None on a first run and `(ask, choice)` when a seat
answered this step's ask (engine/core.py). A step keeps its progress in its own dict, which stays
on the stack while it waits, so a game saves and resumes in the middle of any window.
"""

STEPS = {}


def step(fn):
    STEPS[fn.__name__] = fn
    return fn
