# C types for sampling.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped. Copying the
# state is the lookahead's and ordering's commonest work: the card records are known dicts (a copy is
# PyDict_Copy, a length PyDict_Size, no method look-up), _copied calls itself in C, and a sample's
# shuffles and draws are chance's own C functions (a C import of that module).
cimport cython
cimport maester.engine.chance as chance

@cython.locals(out=dict, g=dict, cards=dict, c=dict, n=cython.Py_ssize_t, shared=dict)
cpdef dict copy_state(state)

cpdef _copied(value, dict shared)

@cython.locals(det=dict, g=dict, cards=dict, p=dict, x=cython.ulonglong, nh=cython.Py_ssize_t,
               ns=cython.Py_ssize_t)
cpdef dict determinise(state, seat, seed)
