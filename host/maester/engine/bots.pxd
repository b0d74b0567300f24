# Read by Cython only (`maester build-fast`; Python never reads it): the random bot's draw, which
# chance.pxd declares, is a C call in the compiled build (a C import of that module): every decision
# of a random game makes one.
cimport maester.engine.chance as chance

cpdef random_pick(unsigned long long key, ask)
