"""Bots decide from what their seat may see: `choose(view, ask)`, where `view` is `view(state, seat)`.

A bot keeps no memory between decisions and draws its randomness from (seed, decision id), so a
game resumed from its log continues exactly as an uninterrupted one would.
"""

import importlib

from . import cardtables, core
from .lazyview import LazyView
from . import chance


class RandomBot:
    name = "random"
    uses_view = False  # it picks among its own ask's choices, which its view holds anyway
    # A bot with uses_state is also given the state (`choose(view, ask, state)`) and must use it only
    # through a sample that redraws everything its seat may not see (the LCG's sampling.determinise).
    uses_state = False

    def __init__(self, seed=0, seat=0, info=None):
        self.seed = seed * 7919 + seat
        self.key = chance.seed_state(self.seed)  # the bot's own stream; a decision's draw is the ask id's

    def below(self, ask, n):
        """A uniform integer in [0, n) for this decision, from the seed and the ask id alone."""
        return chance.draw(self.key, ask["id"], n)

    def choose(self, view, ask):
        return random_pick(self.key, ask)


def random_pick(key, ask):
    """The random bot's choice for `ask` from its stream `key` (RandomBot.below, one call fewer;
    compiled, draw is a C call: bots.pxd). sim's play loop calls it itself for a RandomBot: a C call,
    not a method's (a random game makes one a decision)."""
    choices = ask["choices"]
    return choices[chance.draw(key, ask["id"], len(choices))]


class HeuristicBase(RandomBot):
    """What every game's heuristic bot starts from: its seat's view, and the public card data
    (`info`, the card table frozen in the game's config), with the random bot's pick as fallback."""

    name = "heuristic"
    uses_view = True
    # In-process, decide() hands the bot a LazyView (engine/lazyview.py): keys computed when first
    # read. A bot that reads nearly all of its view at every decision, many times over, is quicker
    # with the plain dict and sets this False.
    lazy_view = True

    def __init__(self, seed=0, seat=0, info=None):
        super().__init__(seed, seat, info)
        self.info = info or {}


def card_info(state):
    """The public card data a game's bots are given: the card table's `info` (each card's printed
    record) where the game keeps one, else the whole card table frozen into the config (the LCG's:
    its cards, decks and titles, all printed facts)."""
    cards = cardtables.of_config(state["config"])
    return cards["info"] if "info" in cards else cards


BOT_KINDS = ("random", "heuristic", "search")
PLAY_DELAY = 0.4  # seconds a bot's move stays on show before the next one when people watch (play, serve)
SEARCH_GAMES = ("lcg",)  # games with a search bot (games/<name>/search.py)


def make_bot(game, kind, seed, seat, info=None, think_ms=50, playouts=None):
    """A bot of `kind` ('random', 'heuristic' or, for the LCG, 'search') for `game`. `think_ms` and
    `playouts` set the search bot's budget per decision (playouts, when given, wins: reproducible)."""
    if kind == "random":
        return RandomBot(seed, seat, info)
    if kind == "heuristic":
        module = importlib.import_module("maester.games.%s.bot" % game)
        return module.HeuristicBot(seed, seat, info)
    if kind == "search" and game in SEARCH_GAMES:
        module = importlib.import_module("maester.games.%s.search" % game)
        return module.SearchBot(seed, seat, info, think_ms=think_ms, playouts=playouts)
    raise ValueError("unknown bot %r for %s (choose %s)"
                     % (kind, game, ", ".join(k for k in BOT_KINDS if k != "search" or game in SEARCH_GAMES)))


def decide(bot, state, seat, ask, view_fn):
    """The bot's answer to `ask`: its view (when it uses one) and, for a bot that asks for it, the state.

    With the engine's own view (`core.view`) a bot with `lazy_view` is given a LazyView: the same
    keys and values, computed only as far as the bot reads them."""
    if not bot.uses_view:
        view = None
    elif view_fn is core.view and getattr(bot, "lazy_view", False):
        view = LazyView(state, seat)
    else:
        view = view_fn(state, seat)
    if bot.uses_state:
        return bot.choose(view, ask, state)
    return bot.choose(view, ask)
