# Read by Cython only (`maester build-fast`; Python never reads it): the model questions and the
# abilities' helpers that model.pxd and abilities.pxd declare are C calls from this module in the
# compiled build (a C import of those modules).
cimport maester.games.lcg.abilities as A
cimport maester.games.lcg.model as M
