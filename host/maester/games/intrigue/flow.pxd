# Read by Cython only (`maester build-fast`; Python never reads it): a turn's calls to the court's
# legal moves and placement, which court.pxd declares, are C calls in the compiled build.
cimport cython
cimport maester.games.intrigue.court as C

# A turn's placement, in words for its event: a C call from the turn.
cpdef tuple placed_where(court, row, pos)

# The turn step's two halves: C calls, with the seats C integers (the loop over the seats is a C loop).
@cython.locals(hand=list)
cpdef _place_answer(ctx, dict g, Py_ssize_t seat, list choice)

@cython.locals(n=Py_ssize_t, seat=Py_ssize_t, out=list, hand=list, choices=list)
cpdef _offer_turn(ctx, dict g)
