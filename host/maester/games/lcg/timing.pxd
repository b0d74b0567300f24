# C types for timing.py in the compiled build (`maester build-fast`): Cython reads this file beside the
# module it augments; Python never does, so the pure build is the same source untyped. Its calls to the
# model questions and to the abilities' window helpers that model.pxd and abilities.pxd declare are C
# calls (a C import of those modules), and so are its own helpers below from this module, flow and
# challenge. Only the signatures are declared: an argument added or renamed in timing.py must be
# mirrored here, or the build says so.
cimport maester.games.lcg.abilities as abilities
cimport maester.games.lcg.model as M
from maester.engine.core cimport Ctx
cimport cython

cpdef list window_choices(state, seat, phase, bint asked=*)
cpdef window_prompt(phase)
cpdef take_action(ctx, seat, choice, phase)
cdef dict _RESPONSES
cpdef trigger(ctx, ev, initiator, last=*)
cpdef round_answer(st, answer)
cpdef _after_plan(state)
cpdef _steps_watch_nothing(state)
cpdef list _pay_costs(ctx, st, cost, src, seat)
cpdef _cancel_window_opens(state, src)
# The engine's own context (core.pxd's extension type): after_step runs after every step, and reads
# its state and game as struct fields rather than attributes (and g, a dict local, in C).
@cython.locals(g=dict, last=list)
cpdef after_step(Ctx ctx)
