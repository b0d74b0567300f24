# C types for abilities.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. What a window
# asks of every card it could offer (the sources, whether an ability may be used now) are cpdef
# functions: C calls inside this module and from timing and flow, whose .pxd cimport this one; so are
# its calls to the model questions that model.pxd declares (a C import of that module). Only the
# signatures (a few arguments typed: an Ability, a dict, a str) and Ability's fields are declared: an
# argument added or renamed in abilities.py must be mirrored here, or the build says so.
cimport maester.games.lcg.model as M
cimport cython

# An ability's record: an extension type, so that the window helpers below, whose `ab` is typed, read
# its fields in C (a Python object's attribute is a type look-up and a descriptor call each time);
# from anywhere else its fields are attributes, as in Python.
cdef class Ability:
    cdef public object kind, phases, trigger, when, cost, target, effect, limit, text, limited
    cdef public object from_hand, from_dead, from_discard
    cdef public bint challenge

cpdef ability_of(src, idx)
cdef dict _LIMIT_KEYS
cpdef limit_key(src, idx)
cpdef _within_limit(g, src, idx, Ability ab)
cpdef payable(state, seat, src, Ability ab)
cpdef event_tax(state, src)
cpdef kneelable(state, seat, pred)
cpdef tolls(state, inst)
cpdef toll_due(state, inst)
cpdef pay_tolls(ctx, inst)
cpdef available_influence(state, seat, need=*)
cpdef dict _in_game(state)
cpdef _shared_answers(state, dict found)
cpdef dict _entries(dict found, name)
@cython.locals(by_moment=dict)
cpdef holders(state, kind, at=*, dict found=*)
@cython.locals(play=list)
cpdef list _in_play_among(p, frozenset held)
@cython.locals(kept=tuple, by_phase=dict)
cpdef tuple _window_of(state, phase)
@cython.locals(kept=tuple, by_seat=dict, found=list, from_play=dict)
cpdef list _actions_in_play(state, p, seat, tuple window, phase)
cpdef dict _offers_from_play(state, held, phase)
@cython.locals(by_phase=dict)
cpdef tuple _action_window(state, dict found, phase)
cpdef _ambushers(state)
cpdef bint _blanks(state)
cpdef _usable(state, seat, src, idx, Ability ab, ev=*, bint blanks=*)
cpdef hand_may(state, seat, kind, at=*)
cpdef bint _kinds_may(kinds, kind, at)
cpdef _hand_key(kind, at)
cpdef list _events_in_hand(state, seat, hand, frozenset in_hand)
cpdef list _discard_sources(state, seat, piled)
@cython.locals(found=dict, by_trigger=dict)
cpdef waits_for(state, e)
cpdef list _pile_sources(state, seat, piled)
cpdef _from_right_zone(state, src, Ability ab, zone)
cpdef dict _offers(dict found, kind, at)
cpdef _offered(state, dict offers, src, kind, at)
@cython.locals(ambushers=frozenset, hands_may=tuple)
cpdef list action_choices(state, seat, phase, bint asked=*)
cpdef _event_allowed(state, seat, src)
cpdef list response_choices(state, seat, ev, dict found=*)
cdef dict _RESPONDING_SIDE
cdef frozenset _IN_PLAY_ZONES, _LEAVING_PLAY
@cython.locals(cards=dict, c=dict, sides=dict)
cpdef list responders(state, ev, dict found=*)
@cython.locals(by_trigger=dict)
cpdef hands_may_respond(state, e, dict found=*)
@cython.locals(cards=dict, c=dict)
cpdef list savers(state, at)
cpdef cancel_choices(state, seat, ev)
cdef class CharacterTargets:
    cdef public object mine, kneeling, other, keywords, crested, not_crest, house, max_str, icon
    cdef public bint richer, more

cpdef bint _richer(state, tuple chars, seat)
cdef class SeatTargets:
    cdef public bint with_deck

cpdef bint _any_seat(state, SeatTargets rule, seat)
cpdef tuple _character_groups(state, CharacterTargets rule, seat)
cpdef bint _fits(state, CharacterTargets rule, inst, src)
cpdef has_legal_target(state, seat, src, Ability ab, ev=*)
cpdef bint _unprotected(state, target, src, seat, list kept)
cpdef frozenset _guards(state, src)
@cython.locals(named=frozenset)
cpdef _shields(state, frozenset guards)
cpdef _protected(state, target, src, seat, frozenset guards, shields=*)
cpdef ability_step(g, seat, src, idx, ev)
cpdef run_forced(ctx, ev)
@cython.locals(cards=dict)
cpdef _may_force(g, held, ev, e)
