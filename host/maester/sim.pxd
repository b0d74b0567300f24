# Read by Cython only (`maester build-fast`; Python never reads it): the bots' games call the engine's
# answer, which core.pxd declares, as a C call in the compiled build (a C import of core): once a
# decision, without a Python call's argument parsing.
cimport maester.engine.core as core
# The random bot's pick (bots.pxd): a C call from the play loop, not a method call.
cimport maester.engine.bots as bots_mod
