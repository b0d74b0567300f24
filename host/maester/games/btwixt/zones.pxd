# C types for zones.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. The card
# facts are read many times a decision: as cpdef functions, the calls among them inside this module
# are C calls (from the other modules they are still Python calls, as in the pure build).
cpdef dict facts(g)

cpdef having(g, ability_key, known=*)

cpdef card(g, inst)

cpdef ability(g, inst)

cpdef tuple councils_of(g, seat)
