# Read by Cython only (`maester build-fast`; Python never reads it): the model questions, the
# abilities' and timing's helpers that model.pxd, abilities.pxd and timing.pxd declare are C calls from
# this module in the compiled build (a C import of those modules).
cimport maester.games.lcg.abilities as abilities
cimport maester.games.lcg.model as M
cimport maester.games.lcg.timing as T

# Marshalling's own helpers, asked once a marshal question or play: C calls from marshal_turn (a
# Python call of a module function cost more than several of the look-ups they make).
cpdef income(state, seat)
cpdef _marshal_facts(state, seat, inst)
cpdef _hosts_in_play(state)
cpdef marshal_choices(state, seat)
cpdef _take_gold(g, seat, amount)
cpdef play_from_hand(ctx, seat, choice)
cpdef pay_for(ctx, seat, inst)
# Ends a challenge's, a phase's and a round's lasting effects and limits (from challenge, a Python call).
cpdef end_scope(g, scope)
