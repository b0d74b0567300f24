cimport cython

# C types for zones.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. The
# helpers the rules call at every turn are cpdef functions: C calls inside this module, and from the
# rule modules whose .pxd cimport this one (from anywhere else, Python calls, as in the pure build).
cpdef cid(inst)
cpdef dict table(g)
@cython.locals(last=tuple, hit=tuple, by=dict)
cpdef tuple card(g, inst)
@cython.locals(last=tuple)
cdef tuple _look_up(key)
cpdef info(g, inst)
cpdef net(g, inst, mtype)
cpdef reshuffle(ctx)
cpdef take_from_deck(ctx)
cpdef draw(ctx, seat, k, why)
cpdef refill(ctx, seat)
cpdef discard_from_hand(ctx, seat, inst, why)
cpdef decree_on_top(g, inst)
cpdef take_decree(g, inst)
cpdef decree_to_bottom(g, inst)
cpdef judged_by(g, monarch)
cpdef partner(g, monarch)
cpdef monarch_eyes(g, monarch)
cpdef turn_order(g)
@cython.locals(coin=Py_ssize_t, honor=Py_ssize_t, power=Py_ssize_t, k=Py_ssize_t, c=Py_ssize_t,
               h=Py_ssize_t, p=Py_ssize_t)
cpdef list payments(cubes, cost)
@cython.locals(i=Py_ssize_t)
cpdef gain(ctx, seat, dict amounts, why)
@cython.locals(ms=list, must=list, allowed=list, i=Py_ssize_t, mine=Py_ssize_t, played=Py_ssize_t)
cpdef tuple play_state(g, seat)
cpdef play_card(ctx, seat, inst, i, face_up=*)
cpdef character(g, seat)
