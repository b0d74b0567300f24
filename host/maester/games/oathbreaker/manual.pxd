# Read by Cython only (`maester build-fast`; Python never reads it): the zones helpers that
# zones.pxd declares are C calls from this module in the compiled build (a C import of zones).
cimport maester.games.oathbreaker.zones as Z

# The texts by (card table, what): a dict, so a look-up is a C call.
cdef dict _WORDS
