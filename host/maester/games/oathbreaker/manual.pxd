# Read by Cython only (`maester build-fast`; Python never reads it): the zones helpers that
# zones.pxd declares are C calls from this module in the compiled build (a C import of zones).
cimport maester.games.oathbreaker.zones as Z

# Helpers of the step, C calls in the compiled build.
cpdef _edit(ctx, seat, subject, choice)
cpdef tuple _words(g, what)

# The texts by (card table, what): a dict, so a look-up is a C call.
cdef dict _WORDS
