# Read by Cython only (`maester build-fast`; Python never reads it): the zones helpers that
# zones.pxd declares are C calls from this module in the compiled build (a C import of zones).
cimport maester.games.oathbreaker.zones as Z
# ...and so is the Character Abilities' choices at every turn (abilities.pxd).
cimport maester.games.oathbreaker.abilities as A

# The turn's prompts by (played, needed): a dict, so a look-up is a C call.
cdef dict _PLAY_PROMPTS
