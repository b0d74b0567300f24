# Read by Cython only (`maester build-fast`; Python never reads it): the zones helpers that
# zones.pxd declares are C calls from this module in the compiled build (a C import of zones).
cimport maester.games.oathbreaker.zones as Z

# The ways to pay for a Character Ability, asked at every noble's turn: a C call from the missions
# module, whose .pxd cimports this one.
cpdef list choices(g, seat, str timing, room=*)
