# C types for core.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. The
# context becomes an extension type, so the engine's own loop reads and sets its fields directly
# (the games' steps still reach them as attributes, as in Python). The results and the matching of
# a command are C calls too: every decision goes through them once.
cimport cython

cdef class Rejected:
    cdef public object reason

cdef class Applied:
    cdef public object events, outcomes

cdef dict _ASK_PUBLIC, _RUNNING

cdef class Ctx:
    cdef public object state, g, events, _chance
    cdef public bint asked, ended
    cpdef record(self, kind, dict fields, vis=*)

cpdef find_ask(state, ask_id)

@cython.locals(choices=list, i=Py_ssize_t, mine=list)
cpdef tuple _match(state, command)

cpdef apply(state, command, forced=*)

cpdef answer(state, ask, choice, bint quiet=*)

@cython.locals(ctx=Ctx, result=Applied, asks=list)
cpdef _apply(state, ask, choice, forced, bint quiet=*)

cpdef tuple _running(name)

cpdef _answer(dict steps, after, Ctx ctx, ask, choice)

cpdef _run(game, Ctx ctx)

@cython.locals(stack=list, asks=list)
cpdef _run_steps(Ctx ctx, dict steps, after)
