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
cpdef trigger(Ctx ctx, ev, initiator, last=*)
cpdef round_answer(st, answer)
cdef dict _RESPONSE_PROMPTS
cpdef response_prompt(e)
@cython.locals(order=list, n=Py_ssize_t, i=Py_ssize_t, passes=Py_ssize_t)
cpdef _go_round(Ctx ctx, dict st, answer)
@cython.locals(g=dict, insts=list)
cpdef _remove(Ctx ctx, dict st, answer)
cpdef list save_choices(state, seat, target, how, list savers)
# Compiled, a card leaving play is a C call from the kill step and the costs (its context typed: its
# event recorded by a C call too)
@cython.locals(g=dict, c=dict)
cpdef leave_play(Ctx ctx, inst, dest, why=*)
cpdef _after_plan(state)
cpdef _steps_watch_nothing(state)
cpdef list _pay_costs(ctx, st, cost, src, seat)
cpdef _cancel_window_opens(state, src)
@cython.locals(g=dict, ab=abilities.Ability, cards=dict, c_src=dict, limits=dict)
cpdef _resolve_ability(Ctx ctx, dict st, answer)
# The module globals after_step reads at every step, as C variables (a module global is otherwise
# a look-up in the module's dict): one list and two sets, only ever changed in place.
cdef list _AFTER_LAST
cdef set _POWER_ARRIVED, _VICTORY_PENDING
# The engine's own context (core.pxd's extension type): after_step runs after every step, and reads
# its state and game as struct fields rather than attributes (and g, a dict local, in C).
@cython.locals(g=dict, last=list)
cpdef after_step(Ctx ctx)
