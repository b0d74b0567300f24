# C types for flow.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. The
# helpers of a turn and a claim below are cpdef functions: C calls from the steps; so are their
# calls to the zones helpers that zones.pxd declares (a C import of that module, compiled with
# this one).
cimport maester.games.btwixt.zones as Z

cpdef list _playable(g, seat, facts)

cpdef bint silenced(g, seat, facts=*)

cpdef kneel(ctx, seat)

cpdef pts_council(g, seat)
