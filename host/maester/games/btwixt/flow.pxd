# C types for flow.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. A turn,
# the step most decisions run, calls these two: as cpdef functions, C calls.
cpdef list _playable(g, seat, facts)

cpdef bint silenced(g, seat, facts=*)
