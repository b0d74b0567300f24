# C types for abilities.py in the compiled build (`maester build-fast`): Cython reads this file
# beside the module it augments; Python never does, so the pure build is the same source untyped.
# Its calls to the zones helpers that zones.pxd declares are C calls (a C import of that module).
cimport cython
cimport maester.games.btwixt.zones as Z

@cython.locals(choices=list, council=dict, pile=list, edit=dict, kill=dict, take=dict, back=dict, discard=dict)
cpdef list manual_choices(g, seat, rec)
