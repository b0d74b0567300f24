"""A bot's game played quietly (sim's play loop with nobody reading events: core.answer(quiet=True)
keeps none) must be the very game played with its events kept: the rules may never read the events
they made, and a step that records its events itself (ctx.record) must not fail when none are kept.
Issue 29 made both paths; a game whose rules looked at ctx.events would drift here, and Intrigue's and
Oathbreaker's hand-made events once crashed a quiet game."""

import hashlib
import json

import pytest

from maester.engine import core
from maester.sim import play_one

GAMES = [("btwixt", 4), ("intrigue", 4), ("oathbreaker", 6), ("lcg", 2)]


def digest(state):
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("game,players", GAMES)
def test_a_quiet_game_is_the_game_with_its_events_kept(game, players):
    config = {"players": players, "variants": []}
    for seed in (1, 2):
        events = []
        loud, n_loud = play_one(game, config, seed, "random", on_step=lambda state, r: events.extend(r.events))
        quiet, n_quiet = play_one(game, config, seed, "random")
        assert (digest(quiet), n_quiet) == (digest(loud), n_loud)
        assert len(events) > n_loud // 2  # the loud game kept its events


def test_record_makes_the_event_emit_makes():
    for vis in (None, [2], core.REFEREE):
        made, emitted = [], []
        core.Ctx({"g": {}}, made).record("played_card", {"seat": 2, "mission": 1, "card": "x#1"}, vis)
        core.Ctx({"g": {}}, emitted).emit("played_card", vis, seat=2, mission=1, card="x#1")
        assert json.dumps(made) == json.dumps(emitted) == json.dumps(
            [dict({"seat": 2, "mission": 1, "card": "x#1", "e": "played_card"}, **({"vis": vis} if vis else {}))])
    core.Ctx({"g": {}}, None).record("placed", {"seat": 0})  # quiet: kept nowhere, no error
