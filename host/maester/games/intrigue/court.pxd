# C types for court.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. A turn's
# legal moves are a sixth of a random Intrigue game's time: typed as lists, its loops index and append
# without Python's generic calls.
cimport cython

@cython.locals(anywhere=list, by_house=dict, out=list, fit=list, sp=list)
cpdef list legal_moves(dict court, list hand, dict house_of)

# A card's row and place are C integers here, and so are the loops over the places above it.
@cython.locals(spots=list, here=list, above=list, x=Py_ssize_t, s=list)
cpdef place(dict court, inst, house, Py_ssize_t row, Py_ssize_t pos)

cpdef list _base_spots(dict court)

@cython.locals(i=Py_ssize_t)
cpdef _insert_spot(list spots, list spot)
