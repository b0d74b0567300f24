"""A seat's view for bots in the same process, computed only as far as the bot reads it.

`LazyView(state, viewer)` is a read-only mapping equal, key by key, to `core.view(state, viewer)`;
it only puts off the work. A bot that answers from its ask alone (one legal choice, or an ask its
rules do not weigh) then pays nothing for a view, and one that reads a few keys pays for those.

Nothing here decides what a viewer may see: every value comes from the same functions as the full
view. A game that splits its view into fields (`view_keys(state, viewer)`, the keys the viewer
gets, and `VIEW_FIELDS`, each key's function of (state, state["g"], viewer)) is computed one key at
a time; for any other game the first key read builds the game's whole view once. The engine's own keys (the asks,
filtered for the viewer, `over` and `result`) are computed apart from the game's view.
"""

from collections.abc import Mapping

from . import core

_ENGINE_KEYS = ("asks", "over", "result")


class LazyView(Mapping):
    __slots__ = ("_state", "_viewer", "_game", "_fields", "_got", "_keys", "_allowed", "_whole")

    def __init__(self, state, viewer):
        self._state = state
        self._viewer = viewer
        self._game = game = core.GAMES[state["game"]]
        self._fields = getattr(game, "VIEW_FIELDS", None)
        self._got = {}
        self._keys = self._allowed = None
        self._whole = None

    def _game_keys(self):
        if self._keys is None:
            if self._fields is not None:
                self._keys = tuple(self._game.view_keys(self._state, self._viewer))
            else:
                self._keys = tuple(self._whole_view())
            self._allowed = frozenset(self._keys)
        return self._keys

    def _whole_view(self):
        if self._whole is None:
            self._whole = self._game.view(self._state, self._viewer)
        return self._whole

    def __getitem__(self, key):
        got = self._got
        if key in got:
            return got[key]
        state = self._state
        fields = self._fields
        if fields is not None and key in fields:
            if self._keys is None:
                self._game_keys()
            if key not in self._allowed:
                raise KeyError(key)  # a field this viewer does not get
            value = fields[key](state, state["g"], self._viewer)
        elif key == "asks":
            value = core.asks_seen_by(state, self._viewer)
        elif key == "over":
            value = state["over"]
        elif key == "result":
            value = state["result"] if state["over"] else None
        elif fields is not None:
            raise KeyError(key)
        else:
            value = self._whole_view()[key]  # a KeyError here is the full view's too
        got[key] = value
        return value

    def __iter__(self):
        keys = self._game_keys()
        return iter(keys + tuple(k for k in _ENGINE_KEYS if k not in keys))

    def __len__(self):
        return len(set(self._game_keys()) | set(_ENGINE_KEYS))

    def __contains__(self, key):
        return key in _ENGINE_KEYS or key in self._game_keys()

    def __repr__(self):
        return "LazyView(%r, read: %s)" % (self._viewer, ", ".join(sorted(self._got)) or "nothing yet")
