# Read by Cython only (`maester build-fast`; Python never reads it): the model questions, the
# abilities', timing's and flow's helpers that model.pxd, abilities.pxd, timing.pxd and flow.pxd declare
# are C calls from this module in the compiled build (a C import of those modules).
cimport maester.games.lcg.abilities as A
cimport maester.games.lcg.flow as flow
cimport maester.games.lcg.model as M
cimport maester.games.lcg.timing as T
