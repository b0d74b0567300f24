"""A Game of Thrones: The Card Game, 1st edition (2008 Core Set), for 2 to 6 players.

Each player brings a House deck and seven plots. A round is seven phases: plot (a secret plot
chosen by everyone at once, initiative, the first player, titles in melee), draw, marshalling,
challenges (military, intrigue and power), dominance, standing and taxation. The first to 15 power
on their House and cards wins (30 for a team in two-on-two).

Config:
- ``players``: 2 (joust, no titles) to 6 (melee with the six titles).
- ``decks``: one deck per seat: the name of one of the Core's four starter decks (default: Stark,
  Lannister, Baratheon, Targaryen in turn; the same deck may sit at two seats), or a deck of one's
  own as ``{"name", "house", "draw": [codes], "plots": [codes]}`` (decks.py reads deck-list files;
  a code may repeat: each copy is its own instance). Such a deck must be legal under ``deck_rules``.
- ``deck_rules``: ``"casual"`` (the default: the deck construction rules without the 60-card
  minimum, so the Core's 45-card starter decks qualify) or ``"tournament"``.
- ``variants``: ``two_on_two`` (four players, partners across the table, 30 power, no titles) and
  ``littlefinger`` (gold may be handed to another player in any window outside marshalling).
- ``observe``: ``["draws"]`` for a real shuffled deck: the host learns each card drawn from a tap on
  its owner's reader (flow.observe_draw).
- ``first``: the first player of setup (default: drawn at random).

The engine is built from small modules, each importing only those before it: model (the table, its
questions, the constant abilities), abilities (what a card may do now, against what), timing
(windows, responses, saves, cancels, an ability's resolution, power and victory), titles, flow (setup
and the phases), effects (the verbs the cards share), challenge, the cards (cards_<house>.py); then
the bots (sampling, bot, search), the order of passive effects that start together (ordering: it
plays them out on a sample), table, text, web and tui.
"""

from ...engine import PUBLIC, REFEREE, Game, register
from ...engine import config as check
from .. import STARTER_DECKS as STARTER
from . import abilities, challenge, effects, flow, ordering, timing  # noqa: F401  (registers the steps)
from . import cards_baratheon, cards_lannister, cards_stark, cards_targaryen  # noqa: F401  (the abilities)
from . import model as M
from .cards import card_table
from .decks import rules_problems
from .steps import STEPS
from .text import describe_choice

CONFIG_KEYS = ("players", "decks", "variants", "observe", "first", "cards", "owner_cards", "deck_rules")
DECK_RULES = ("casual", "tournament")
VARIANTS = ("two_on_two", "littlefinger")
VARIANT_NOTES = {
    "two_on_two": "two teams of two, partners across the table, 30 power between them, no titles (rulebook)",
    "littlefinger": "gold may be handed between players in any window outside marshalling (rulebook)",
}
OBSERVABLE = ("draws",)


def _then_check(fn):
    """Step `fn`, then the rules that hold at any moment (timing.after_step: victory, watches)."""
    after = timing.after_step  # read once: in the compiled build a module's attribute is a Python look-up at every step

    def run(ctx, st, answer):
        fn(ctx, st, answer)
        after(ctx)
    return run


class LCG(Game):
    name = "lcg"
    title = "A Game of Thrones: The Card Game"
    steps = {name: _then_check(fn) for name, fn in STEPS.items()}

    def check_config(self, config):
        config = dict(config)
        unknown = sorted(set(config) - set(CONFIG_KEYS))
        if unknown:
            raise ValueError("unknown setting %s for the LCG (settings: %s)"
                             % (", ".join(map(repr, unknown)), ", ".join(CONFIG_KEYS[:5])))
        n = check.players(config, 2, 6, "A Game of Thrones: The Card Game")
        table = check.cards(config, card_table)
        variants = check.options(config, "variants", VARIANTS, "unknown variant %r")
        check.options(config, "observe", OBSERVABLE, "cannot observe %r from the table")
        if "two_on_two" in variants and n != 4:
            raise ValueError("two-on-two is for exactly 4 players, not %d" % n)
        decks = config.get("decks") or [STARTER[s % len(STARTER)] for s in range(n)]
        if not isinstance(decks, list) or len(decks) != n:
            raise ValueError("give one deck per player: %d decks for %d players" % (len(decks), n))
        rules = config.get("deck_rules") or "casual"
        if rules not in DECK_RULES:
            raise ValueError("deck_rules is casual or tournament, not %r" % (rules,))
        for d in decks:
            if isinstance(d, dict):
                _check_deck(d, table, rules)
            elif d not in table["decks"]:
                raise ValueError("unknown deck %r (decks: %s)" % (d, ", ".join(sorted(table["decks"]))))
        config["decks"] = [dict(d) if isinstance(d, dict) else d for d in decks]
        if "deck_rules" in config:
            config["deck_rules"] = rules
        first = config.get("first")
        config["first"] = None if first is None else check.seat(first, n, "the first player")
        return config

    def setup(self, ctx, config):
        flow.setup(ctx, config)

    def view_keys(self, state, viewer):
        return view_keys(state, viewer)

    def describe_choice(self, state, ask, choice, viewer=None):
        return describe_choice(state, ask, choice, viewer)


def _check_deck(deck, table, rules):
    """A deck of one's own in the config: its shape, real codes of the right kind, and the deck
    construction rules (decks.rules_problems)."""
    if set(deck) != {"name", "house", "draw", "plots"} or not isinstance(deck["name"], str):
        raise ValueError("a deck is {name, house, draw, plots}, not %r" % (sorted(deck),))
    for part in ("draw", "plots"):
        codes = deck[part]
        if not isinstance(codes, list):
            raise ValueError("deck %s: %s is a list of card codes" % (deck["name"], part))
        for code in codes:
            card = table["cards"].get(code) if isinstance(code, str) else None
            if card is None:
                raise ValueError("deck %s: %r is not a card" % (deck["name"], code))
            if (card["type"] == "plot") != (part == "plots"):
                raise ValueError("deck %s: %s (%s, a %s) does not belong in the %s" % (
                    deck["name"], code, card["name"], card["type"], part))
    problems = rules_problems(deck, table, casual=rules == "casual")
    if problems:
        raise ValueError("deck %s is not legal in %s play: %s" % (deck["name"], rules, "; ".join(t for _, t in problems)))


def _card_view(state, g, inst):
    c = g["cards"][inst]
    out = {"card": inst, "kneel": c["kneel"], "power": c["power"]}
    if M.is_character(state, inst):
        out["str"] = M.strength(state, inst)  # as it stands now, every modifier counted (public)
    if c["att"]:
        out["attachments"] = list(c["att"])
    if c["dups"]:
        out["duplicates"] = len(c["dups"])
    if c["on"] is not None:
        out["on"] = c["on"]
    if c["ctrl"] != M.owner_of(inst):
        out["owner"] = M.owner_of(inst)
    return out


def _seats(state, g, viewer):
    """Every seat's public side; a seat's own secrets for itself (and all of them for the referee)."""
    players = []
    for seat, p in enumerate(g["players"]):
        pv = {
            "house": p["house"], "deck_name": p["deck_name"], "power": p["power"],
            "total_power": M.total_power(g, seat), "gold": p["gold"], "hand_size": len(p["hand"]),
            "deck_size": len(p["deck"]), "plots_left": len(p["plots"]), "used_plots": list(p["used"]),
            "revealed": p["revealed"], "has_chosen": p["chosen"] is not None, "title": p["title"],
            "discard": list(p["discard"]), "dead": list(p["dead"]), "setup_face_down": len(p["setup"]),
            "play": [_card_view(state, g, i) for i in p["play"] if g["cards"][i]["on"] is None],
            "attachments": [_card_view(state, g, i) for i in p["play"] if g["cards"][i]["on"] is not None],
            "challenges_made": list(p["challenges_made"]), "limited_played": p["limited_played"],
        }
        if viewer == REFEREE or viewer == seat:
            pv.update(hand=list(p["hand"]), plots=sorted(p["plots"]), chosen=p["chosen"], setup=list(p["setup"]))
        if viewer == REFEREE:
            pv["deck"] = list(p["deck"])
        players.append(pv)
    return players


def _challenge(state, g, viewer):
    ch = g["challenge"]
    return None if ch is None else {k: (list(v) if isinstance(v, list) else v) for k, v in ch.items()}


# The view is a table of fields, each a function of (state, g, viewer), so that a bot's LazyView
# (engine/lazyview.py) computes only the fields it reads: the seats, with every character's STR as
# it stands, are most of the cost. Which fields a viewer gets is decided by view_keys alone.
FIELDS = {
    "game": lambda state, g, v: "lcg",
    "players": lambda state, g, v: g["n"],
    "round": lambda state, g, v: g["round"],
    "phase": lambda state, g, v: g["phase"],
    "first": lambda state, g, v: g["first"],
    "initiative": lambda state, g, v: g["initiative"],
    "goal": lambda state, g, v: g["goal"],
    "teams": lambda state, g, v: g["teams"],
    "melee": lambda state, g, v: g["melee"],
    "title_pool": lambda state, g, v: list(g["title_pool"]),
    "seats": _seats,
    "challenge": _challenge,
    "effects": lambda state, g, v: [dict(e) for e in g["effects"]],
    "bank": lambda state, g, v: dict(g["bank"]),
    # a seat
    "seat": lambda state, g, v: v,
    # a player's own secrets once more at the top, where its page draws them in their own box
    "hand": lambda state, g, v: list(g["players"][v]["hand"]),
    "plots": lambda state, g, v: sorted(g["players"][v]["plots"]),
    "chosen_plot": lambda state, g, v: g["players"][v]["chosen"],
    "setup_cards": lambda state, g, v: list(g["players"][v]["setup"]),
}
_SHARED = ("game", "players", "round", "phase", "first", "initiative", "goal", "teams", "melee", "title_pool",
           "seats", "challenge", "effects", "bank")
_OWN = ("hand", "plots", "chosen_plot", "setup_cards")


def view_keys(state, viewer):
    """The fields `viewer` gets, in the order of the whole view. Public: everything on the table,
    counts of hands and decks, used and revealed plots, whether a seat has chosen its plot. A seat
    adds its hand, its plot deck, its chosen plot and its face-down setup cards. The referee also
    sees every hand and deck order."""
    keys = list(_SHARED)
    if viewer not in (PUBLIC, REFEREE):
        keys.append("seat")
        if isinstance(viewer, int) and 0 <= viewer < state["g"]["n"]:
            keys += _OWN
    return keys


LCG.VIEW_FIELDS = FIELDS
GAME = register(LCG())
