"""Maester: a companion system for physical Game of Thrones tabletop games."""

__version__ = "0.1.0"
