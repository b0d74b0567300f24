"""Benchmarks: `maester bench hil|peers|chaos|fuzz` (the engine's own is `sim.run`), and the optional
compiled build they can measure (`maester build-fast`)."""
