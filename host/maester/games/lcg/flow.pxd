# Read by Cython only (`maester build-fast`; Python never reads it): the model questions, the
# abilities' and timing's helpers that model.pxd, abilities.pxd and timing.pxd declare are C calls from
# this module in the compiled build (a C import of those modules).
cimport maester.games.lcg.abilities as abilities
cimport maester.games.lcg.model as M
cimport maester.games.lcg.timing as T
cimport cython

cdef dict _AFTER_PLAY  # marshal_turn's window step, copied (a C call)

# Marshalling's own helpers, asked once a marshal question or play: C calls from marshal_turn (a
# Python call of a module function cost more than several of the look-ups they make).
cpdef income(state, seat)
@cython.locals(by_code=dict, tables=dict)
cpdef _facts_by_code(state, seat)
@cython.locals(by_code=dict)
cpdef _marshal_facts(state, seat, inst, by_code)
cpdef _printed_facts(state, seat, inst, c)
@cython.locals(kept=tuple, by_att=dict, recs=dict, grown=list, answers=dict)
cpdef _kept_hosts(state)
cpdef dict _printed_refusals(state)
@cython.locals(by_att=dict)
cpdef _hosts_for(kept, att, needs)
@cython.locals(known=dict, per_seat=dict, out=list, taken=dict, copies=dict, self_reducing=dict, hosts_kws=dict)
cpdef marshal_choices(state, seat)
cpdef _pending_reduction(p)
@cython.locals(prompts=dict)
cpdef _marshal_prompt(gold)
cpdef _take_gold(g, seat, amount)
cpdef play_from_hand(ctx, seat, choice)
cpdef pay_for(ctx, seat, inst)
cpdef enter_play(ctx, seat, inst, how=*, announce=*, last=*)
# Dominance's total of a seat, once a seat a dominance phase (a C call from dominance).
cpdef dominance_total(state, seat)
# Ends a challenge's, a phase's and a round's lasting effects and limits (from challenge, a Python call).
cpdef end_scope(g, scope)
