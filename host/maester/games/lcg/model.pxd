# C types for model.py in the compiled build (`maester build-fast`): Cython reads this file beside the
# module it augments; Python never does, so the pure build is the same source untyped and both play the
# same games (tests/test_compiled.py). The questions every rule asks of the table, many thousand times a
# game, are cpdef functions: C calls inside this module, and from the rule modules whose .pxd cimports
# this one (abilities, timing, flow, challenge, effects, ordering); from anywhere else (the card files,
# the bots) Python calls, as in the pure build. Only the signatures are declared (an argument added or
# renamed in model.py must be mirrored here, or the build says so), PerGame's two fields, and a few
# locals that are always dicts (a dict's .get is then a C call, not a method look-up); no local is
# given a C type whose value could change kind if the code changed. A function that holds a generator expression cannot be
# cpdef (Cython: "closures inside cpdef functions"): total_power stays a Python function; gold_cost,
# spendable_gold and attach_ok loop instead, to be C calls from the rules.

cdef class PerGame:
    cdef public dict by_config
    cdef public tuple last

cimport cython

# the last game records() filled (model.py): read by info at every ask
cdef object _filled_config
cdef Py_ssize_t _filled_count
cdef dict _filled_recs
# the game gold_carriers last answered (model.py), and its answer
cdef object _carriers_config
cdef list _carriers

cpdef dict per_game_answers(PerGame per_game, state, stamp=*)
cpdef records(state)
cpdef info(state, inst)
cpdef order_from(g, seat)
cpdef partner(g, seat)
cpdef opponents(g, seat)
cpdef in_play(g, seat=*)
cpdef characters(state, seat=*)
@cython.locals(chars=frozenset)
cpdef _characters_by_seat(state)
@cython.locals(answers=dict)
cpdef frozenset _character_instances(state)
@cython.locals(by_key=dict, last=tuple, known=list)
cpdef constant(state, inst, what)
cpdef rare_constant(state, inst, what)
@cython.locals(by_key=dict)
cpdef constant_keywords_among(state, inst, wanted, list known)
@cython.locals(anyone=tuple, own=frozenset, hosted=tuple, named=dict, effects=list, blanked=list)
cpdef _summed(state, inst, what, split)
cpdef reducers_in_play(state, seat)
cpdef cost_reduction(state, seat, inst, in_play=*)
cpdef _own_reducer_in_play(state, seat, inst, c)
cpdef constant_sources(g, what=*)
@cython.locals(last=tuple)
cpdef _kept_sources(g)
cpdef _moved_in_play(inst)
cpdef nameable_in_play(g)
@cython.locals(answers=dict, gives=dict, named=set)
cpdef _named_by(codes)
@cython.locals(by_what=dict, answers=dict)
cpdef _answering(known, what)
@cython.locals(gives=dict, scopes=dict, named=dict)
cpdef _split(known, what, wanted=*)
@cython.locals(is_source=dict)
cpdef find_constant_sources(g)
cpdef strength(state, inst)
cpdef _with_changes(effects, inst, printed, gain_kind, lose_kind, extra)
cpdef icons(state, inst)
cpdef keywords(state, inst)
cpdef has_kw(state, inst, kw)
@cython.locals(effects=list, e=dict, gained=tuple, lost=tuple, extra=dict, last=tuple, known=list,
               named=frozenset)
cpdef list keywords_among(state, inst, wanted)
@cython.locals(answers=dict, by_codes=dict, shared=dict)
cpdef constant_answers(state, what)
cpdef has_icon(state, inst, icon)
cpdef may_have_kw(state, kw)
@cython.locals(out=list)
cpdef list with_kw(state, cards, kw)
@cython.locals(answers=dict)
cpdef _printed_only(state, kw)
@cython.locals(by_codes=dict)
cpdef _fixed_keywords(state)
cpdef _nameable_keywords(state)
cpdef _refusal(state, host)
cpdef refusal_of(kws)
cpdef bint refusals_printed(state)
cpdef gold_cost(state, seat, inst, in_play=*)
cpdef reduced_gold_cost(state, seat, inst, cost, in_play=*, matching=*)
@cython.locals(c=dict)
cpdef list gold_carriers(state)
cpdef spendable_gold(state, seat)
cpdef pay_gold(g, seat, amount)
cpdef attach_ok(state, seat, att, host, hosts_kws=*)
cpdef attach_needs(rec)
cpdef attach_fits(state, seat, att, needs, host, hrec, hosts_kws=*)
cpdef attach_fits_printed(att, needs, host, hrec)
cpdef attach_fits_now(state, seat, needs, host, hosts_kws=*)
cpdef immune_to(state, inst, source, by_seat, kws=*)
cpdef _grown(kept, now)
@cython.locals(out=list, old=list, now=list, i=Py_ssize_t, n=Py_ssize_t, grew=bint)
cpdef plays_grown(list copies, list players)
@cython.locals(answers=dict, taken=dict, players=list, grown=list, kept=tuple, s=Py_ssize_t)
cpdef names_taken(state, seat)
@cython.locals(recs=dict, players=list, taken=dict, s=Py_ssize_t)
cpdef _names_taken(state, seat)
cpdef own_copies(state, seat)
cpdef matching_reducers(state, seat, inst)
cpdef _shares(wanted, houses)
cpdef printed_gold_cost(state, seat, inst)
cpdef blank(state, inst)
cpdef is_character(state, inst)
cpdef turn_order(g)
cpdef left_of(g, seat)
cpdef house_ok(state, seat, inst)
cpdef influence_of(state, inst)
cpdef income_bonus(state, inst)
# A card moving between zones (flow, timing, effects, many times a game): C calls from the rule modules.
cpdef zone_list(g, inst)
cpdef take_out(g, inst)
cpdef put(g, inst, zone, top=*)
cpdef move(g, inst, zone, top=*)
