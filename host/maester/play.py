"""Placeholder until the terminal UI lands."""


def register(sub):
    pass
