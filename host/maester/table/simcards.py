"""The cards a simulated board can be tapped with, by name: what `maester sim-board` checks a typed
card id against (refusing a typo with the closest names, as the host would only say "an unknown
sticker") and what its `cards` command lists, grouped per seat where the game deals per seat."""

import difflib

from .. import games
from ..engine import cardtables, core
from ..nfc.tags import cards_to_tag
from .runner import sim_tags


class SimCards:
    """Every card id of `game` at `players` seats that carries a simulated sticker, with its name."""

    def __init__(self, game, players):
        self.game, self.players = game, players
        state, _ = core.new_game(game, {"players": players}, 0)  # the default game: decks, leaders, boxes
        self.table = cardtables.table(state)
        printed = {c.id: c for c in cards_to_tag(game, include_sim=True)}
        names = games.part(game, "text").Names(state["g"], self.table)
        self.names, self.groups = {}, {}
        self._foreign = None  # the other games' card ids, read at the first id this table does not know
        for card in sorted(sim_tags(state).values()):
            self.names[card] = printed[card].label if card in printed else names.card(card)
            if game == "lcg":  # a card's copy is its seat's deck ("S12#0": seat 0's)
                group = "Seat %s (the default decks)" % card.rpartition("#")[2]
            else:
                group = printed[card].group if card in printed else "Tokens"
            self.groups.setdefault(group, []).append(card)

    def check(self, card):
        """Raise ValueError for a card id this table has no sticker for, naming the closest ones."""
        if card in self.names or self._other_deck(card) or self._other_game(card):
            return
        by_name = {v.lower(): k for k, v in self.names.items()}
        close = difflib.get_close_matches(card, list(self.names), n=3, cutoff=0.5)
        close += [by_name[n] for n in difflib.get_close_matches(card.lower(), list(by_name), n=3, cutoff=0.5)
                  if by_name[n] not in close]
        hint = "; did you mean %s?" % ", ".join("%s (%s)" % (c, self.names[c]) for c in close[:3]) if close else ""
        raise ValueError("no card %r on this table (`cards` lists them)%s" % (card, hint))

    def _other_deck(self, card):
        """The LCG: a card of any deck `play --decks` may bring, at a seat of this table ("B12#1")."""
        code, _, seat = card.partition("#")
        return (self.game == "lcg" and code in (self.table.get("cards") or {}) and seat.isdigit()
                and int(seat) < self.players)

    def _other_game(self, card):
        """A card of another game's box ("leader:cersei" on an Intrigue table): a real sticker that can
        lie on this table, which the host refuses as not part of this game, so it is tapped as it is."""
        if self._foreign is None:
            self._foreign = {c.id for g in games.NAMES if g != self.game for c in cards_to_tag(g, include_sim=True)}
        return card in self._foreign

    def listing(self, word=None):
        """The lines of `cards [WORD]`: each group and its cards, id and name, those matching WORD."""
        out = []
        for group, cards in self.groups.items():
            shown = [c for c in cards if not word or word.lower() in ("%s %s %s" % (group, c, self.names[c])).lower()]
            if shown:
                out.append("%s:" % group)
                out += ["  %-24s %s" % (c, self.names[c]) for c in shown]
        return out or ["no card matches %r" % word]
