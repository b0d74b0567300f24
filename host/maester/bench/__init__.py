"""Benchmarks: `maester bench hil|peers|chaos|fuzz` (the engine's own is sim.run, with commands/sim.py)."""
