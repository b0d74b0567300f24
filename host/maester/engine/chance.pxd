# C types for chance.py in the compiled build (`maester build-fast`): Cython reads this file beside
# the module it augments; Python never does, so the pure build is the same source untyped.
# Arithmetic on unsigned 64-bit C integers wraps modulo 2**64, which is what every `& MASK` of the
# source asks for, so both builds draw the same numbers (tests/test_compiled.py plays the same games).
cimport cython

cdef unsigned long long MASK, GAMMA, MIX1, MIX2, STAR

cpdef unsigned long long mix64(unsigned long long z)

cpdef unsigned long long _step(unsigned long long x)

cpdef tuple _next(unsigned long long x)

@cython.locals(z=cython.ulonglong)
cpdef unsigned long long draw(unsigned long long key, unsigned long long index, unsigned long long n)

@cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t)
cpdef tuple _shuffle(unsigned long long x, list items)
