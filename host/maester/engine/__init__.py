"""The game-agnostic engine core. See core.py for the model and README for how a game plugs in."""

from .core import (  # noqa: F401
    PUBLIC, REFEREE, TABLE, Applied, Ctx, Game, Rejected, apply, asks_for, check,
    filter_events, get_game, new_game, register, view, visible,
)
