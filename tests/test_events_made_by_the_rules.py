"""Events that a game's rules make themselves instead of calling ctx.emit with keywords (issue 29:
that call was a tenth of a random Intrigue game's time): Intrigue's "placed", and Oathbreaker's
zones.record. Each must be exactly the event ctx.emit would record from the same fields, key order
and visibility included (a log keeps the order; `vis` decides who sees it)."""

import json

from maester.engine import core
from maester.games.oathbreaker import zones as Z
from maester.sim import play_one


def emitted(kind, fields, vis=None):
    """The event ctx.emit(kind, vis, **fields) records."""
    events = []
    core.Ctx({"g": {}}, events).emit(kind, vis, **fields)
    return events[0]


def test_intrigues_placed_events_are_what_emit_records():
    seen = []
    for seed in (1, 2):
        play_one("intrigue", {"players": 4, "variants": []}, seed, "random",
                 on_step=lambda state, result: seen.extend(e for e in result.events if e["e"] == "placed"))
    assert len(seen) > 100
    for e in seen:
        fields = {k: v for k, v in e.items() if k not in ("e", "vis")}
        assert json.dumps(e) == json.dumps(emitted("placed", fields, e.get("vis")))


def test_oathbreakers_record_is_what_emit_records():
    for vis in (None, [2], core.REFEREE):
        events = []
        Z.record(core.Ctx({"g": {}}, events), "played_card", {"seat": 2, "mission": 1, "card": "x#1"}, vis)
        assert json.dumps(events) == json.dumps([emitted("played_card", {"seat": 2, "mission": 1, "card": "x#1"}, vis)])
