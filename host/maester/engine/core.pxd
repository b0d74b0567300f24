# C types for core.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. The
# context becomes an extension type, so the engine's own loop reads and sets its fields directly
# (the games' steps still reach them as attributes, as in Python).
cimport cython

cdef class Ctx:
    cdef public object state, g, events, _chance
    cdef public bint asked

@cython.locals(ctx=Ctx)
cpdef apply(state, command, forced=*)

cpdef _answer(game, Ctx ctx, ask, choice)

@cython.locals(stack=list, asks=list)
cpdef _run(game, Ctx ctx)
