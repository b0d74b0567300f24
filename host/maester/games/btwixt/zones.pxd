# C types for zones.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. The
# helpers a decision calls, many times over, are cpdef functions: C calls inside this module, and
# from flow and abilities too, whose .pxd cimport this one (from anywhere else, Python calls, as
# in the pure build).
cimport cython
cpdef tuple councils_of(g, seat)
cpdef other_council(g, seat, council)
cpdef tuple seats_of(g, council)
cpdef neighbour_via(g, seat, council)
cpdef dict table(g)
@cython.locals(cache=dict, got=dict)
cpdef dict facts(g)
@cython.locals(withs=dict)
cpdef having(g, ability_key, dict known=*)
cpdef card(g, inst)
cpdef ability(g, inst)
cpdef holder(g, inst)
cpdef discard_card(ctx, inst, reason, seen_by=*)
cpdef bint protected(g, inst)
cpdef bint allies_ready(ctx, st, k)
cpdef next_ally_from_deck(ctx)
cpdef _deck_top(g)
cpdef next_ally(ctx)
cpdef kill(ctx, inst, where)
cpdef gain_token(ctx, seat, council, why=*)
cpdef return_token(ctx, tok)
cpdef bid_total(g, seat)
