# C types for flow.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. The
# helpers of a turn and a claim below are cpdef functions: C calls from the steps; so are their
# calls to the zones helpers that zones.pxd declares (a C import of that module, compiled with
# this one).
cimport cython
cimport maester.games.btwixt.zones as Z

@cython.locals(hand=list, base=dict, in_bids=set)
cpdef list _playable(dict g, seat, dict facts)

@cython.locals(pile=list)
cpdef bint silenced(dict g, seat, facts=*)

@cython.locals(n=Py_ssize_t, seat=Py_ssize_t, knelt=list, choices=list, plays=dict)
cpdef _offer_turn(ctx, dict st, dict g, dict facts)

cpdef kneel(ctx, seat)

cpdef pts_council(g, seat)

@cython.locals(g=dict, facts=dict, ability=dict, silent_turn=bint)
cpdef _take_turn(ctx, dict st, Py_ssize_t seat, list choice)

cpdef bint _any_in(list cards, frozenset group)
