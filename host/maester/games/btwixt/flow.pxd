# C types for flow.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. A turn,
# the step most decisions run, calls these two: as cpdef functions, C calls; so are its calls to
# the zones helpers that zones.pxd declares (a C import of that module, compiled with this one).
cimport maester.games.btwixt.zones as Z

cpdef list _playable(g, seat, facts)

cpdef bint silenced(g, seat, facts=*)
