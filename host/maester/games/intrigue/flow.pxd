# Read by Cython only (`maester build-fast`; Python never reads it): a turn's calls to the court's
# legal moves and placement, which court.pxd declares, are C calls in the compiled build.
cimport maester.games.intrigue.court as C

# A turn's placement, in words for its event: a C call from the turn.
cpdef tuple placed_where(court, row, pos)
