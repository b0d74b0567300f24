"""Game of Thrones: Westeros Intrigue for 2-6 players (a retheme of Knizia's Pinguin Party).

Each round the 36 character cards are dealt; players take turns placing one card in the court, a
pyramid whose base grows at its ends and whose upper cards must share a house with one of the two
cards below them. A player who cannot place is out for the round; the last to place wins it and
draws a secret Iron Throne card; the others take a penalty point per card left in hand. After as
many rounds as players, penalties minus Iron Throne values: lowest wins.

Rules the public sources leave open are settings of the config, with defaults (and provenance) in
cards_db/intrigue/components.json. Where the rules text speaks, its reading is the default:

- ``base_width``: cards the base may hold (default 8, two players included).
- ``court``: ``free`` (the base grows at either end wherever the first card lies) or ``mat`` (a
  fixed pyramid of places; the first card goes on any of them).
- ``next_start``: ``rotate`` (the start passes clockwise each round) or ``winner``.
- ``winner_pays``: whether a round's winner also takes penalties for cards left in hand (default
  true: the rules charge everyone still holding cards).
- ``score_floor``: whether a final score stops at zero.
- ``tiebreak``: ``fewest_swords``, ``most_swords`` or ``none`` (a shared win).
- ``first``: the seat that starts the first round (the youngest player).

``observe: ["hands"]`` deals each round by hand on a real table: the seats tap the cards they were
dealt instead of the host shuffling (see flow.observe_deal). ``observe: ["thrones"]``: a round's
winner draws the physical Iron Throne card and taps it on their own reader (flow.round_end).

`variants` are shorthands for the non-default settings (see VARIANTS, and VARIANT_NOTES for where each
reading comes from), so `maester sim` can try them.
"""

from ...cards import db as cardsdb
from ...engine import PUBLIC, REFEREE, Game, register
from ...engine import config as check
from . import flow  # noqa: F401  (registers the steps)
from .court import MODES, copy_court, legal_moves, legal_positions  # noqa: F401  (the public helpers)
from .flow import STEPS

HOUSES = ("stark", "lannister", "baratheon", "targaryen")
# A variant sets one setting. DATA stands for a value read from components.json (its "variant"
# entry, marked `assumed` there since the rules do not give it); VARIANT_PLAYERS limits a variant to
# some player counts (elsewhere it changes nothing).
DATA = object()
VARIANTS = {
    "mat": ("court", "mat"),
    "narrow_two": ("base_width", DATA),
    "winner_starts": ("next_start", "winner"),
    "winner_exempt": ("winner_pays", DATA),
    "floor": ("score_floor", True),
    "most_swords": ("tiebreak", "most_swords"),
    # The rules' readings, the defaults now; the names stay so that games saved before replay.
    "wide": ("base_width", 8),
    "winner_pays": ("winner_pays", True),
}
VARIANT_DATA = {"narrow_two": "court", "winner_exempt": "round_winner_penalty"}  # components.json section
VARIANT_PLAYERS = {"narrow_two": (2,)}
VARIANT_NOTES = {
    "mat": "a fixed pyramid of places, as printed on a playing mat (not the rules, which give no mat)",
    "narrow_two": "with two players the base holds 7 cards (not the rules: a review, and the parent "
                  "game Pinguin Party's two-player rule)",
    "winner_starts": "the round's winner starts the next round (not the rules, which pass the start "
                     "to the left of the first player)",
    "winner_exempt": "the round's winner takes no penalty for cards left in hand (not the rules: the "
                     "publisher's description names only the opponents)",
    "floor": "a final score never goes below zero (not the rules, whose example ends at -1)",
    "most_swords": "a final tie goes to the Iron Throne card with the most swords (not the rules, "
                   "which say the fewest)",
    "wide": "a base of up to 8 cards with two players too: the rules' reading and the default",
    "winner_pays": "the round's winner pays for cards left in hand too: the rules' reading and the default",
}
SETTINGS = ("first", "base_width", "court", "next_start", "winner_pays", "score_floor", "tiebreak")
CONFIG_KEYS = ("players", "variants", "cards", "owner_cards", "observe") + SETTINGS
OBSERVABLE = ("hands", "thrones")  # chance the table can learn from taps instead of drawing it
NEXT_START = ("rotate", "winner")
TIEBREAKS = ("fewest_swords", "most_swords", "none")

def card_table(owner=True):
    """The cards a game uses, frozen into its config so a saved game replays the same."""
    return cardsdb.table("intrigue", owner, _build_table)


def _build_table(data):
    comp = data["components"]
    info, house_of, characters = {}, {}, []
    for c in data["characters"]:
        info[c["id"]] = {"type": "character", "name": c["name"], "house": c["house"], "colour": c["colour"],
                         "copies": c["copies"]}
        for inst in cardsdb.instances([c]):
            house_of[inst] = c["house"]
            characters.append(inst)
    want = comp["counts"]["characters"]
    if len(characters) != want:
        raise ValueError("the character cards add up to %d but the box holds %d; correct the copies in "
                         "cards_db/intrigue/cards.json or your own card file" % (len(characters), want))
    throne = {}
    for t in data["iron_throne"]:
        info[t["id"]] = {"type": "iron_throne", "name": t["name"], "value": t["value"], "swords": t["swords"]}
        for inst in cardsdb.instances([t]):
            throne[inst] = {"value": t["value"], "swords": t["swords"]}
    return {"components": comp, "info": info, "house_of": house_of, "characters": characters,
            "throne": throne, "throne_instances": sorted(throne)}


def defaults(comp, players):
    """The settings' defaults for a player count, from components.json."""
    return {
        "first": 0,
        "base_width": comp["court"]["base_width"],
        "court": "free",
        "next_start": comp["next_round_start"]["value"],
        "winner_pays": comp["round_winner_penalty"]["value"],
        "score_floor": comp["score_floor"]["value"],
        "tiebreak": comp["tiebreak"]["value"],
    }


class Intrigue(Game):
    name = "intrigue"
    title = "Game of Thrones: Westeros Intrigue"
    steps = STEPS

    def check_config(self, config):
        config = dict(config)
        unknown = sorted(set(config) - set(CONFIG_KEYS))
        if unknown:
            raise ValueError("unknown setting %s for Westeros Intrigue (settings: %s)"
                             % (", ".join(map(repr, unknown)), ", ".join(SETTINGS)))
        n = check.players(config, 2, 6, "Westeros Intrigue")
        cards = check.cards(config, card_table)
        variants = check.options(config, "variants", VARIANTS, "unknown variant %r")
        check.options(config, "observe", OBSERVABLE, "cannot observe %r from the table")
        settings = defaults(cards["components"], n)
        for v in variants:
            key, value = VARIANTS[v]
            if n not in VARIANT_PLAYERS.get(v, (n,)):
                continue
            if value is DATA:
                value = cards["components"][VARIANT_DATA[v]]["variant"][v]
            if key in config and config[key] != value:
                raise ValueError("variant %r sets %s to %r, but the config asks for %r"
                                 % (v, key, value, config[key]))
            settings[key] = value
        for key in SETTINGS:
            if key in config:
                settings[key] = config[key]
        _check_settings(settings, n, cards)
        config.update(settings)
        return config

    def setup(self, ctx, config):
        flow.setup(ctx, config)

    # The view is a table of fields (VIEW_FIELDS, set below; core.Game.view builds it) so that a
    # bot's LazyView computes only the ones it reads. Which fields a viewer gets is decided here
    # and nowhere else.
    def view_keys(self, state, viewer):
        keys = list(_SHARED)
        if state["over"] or viewer == REFEREE:
            keys.append("thrones")
        keys += _REFEREE if viewer == REFEREE else () if viewer == PUBLIC else _SEAT
        return keys

    def describe_choice(self, state, ask, choice, viewer=None):
        return describe(state["g"], choice)


_FIELDS = {  # key -> fn(state, g, viewer)
    "game": lambda state, g, v: "intrigue",
    "players": lambda state, g, v: g["n"],
    "round": lambda state, g, v: g["round"],
    "rounds": lambda state, g, v: g["rounds"],
    "starter": lambda state, g, v: g["starter"],
    "turn": lambda state, g, v: g["turn"],
    "court": lambda state, g, v: copy_court(g["court"]),
    "hand_sizes": lambda state, g, v: [len(h) for h in g["hands"]],
    "out": lambda state, g, v: list(g["out"]),
    "last": lambda state, g, v: g["last"],
    "start_card": lambda state, g, v: g["start_card"],
    "box": lambda state, g, v: len(g["box"]),
    "penalties": lambda state, g, v: list(g["penalties"]),
    "throne_counts": lambda state, g, v: [len(t) for t in g["thrones"]],
    "throne_deck": lambda state, g, v: len(g["throne_deck"]),
    "history": lambda state, g, v: [{k: list(x) if isinstance(x, list) else x for k, x in h.items()}
                                    for h in g["history"]],
    "settings": lambda state, g, v: {k: state["config"][k] for k in SETTINGS},
    # once the game is over, or for the referee
    "thrones": lambda state, g, v: [list(t) for t in g["thrones"]],
    # the referee only
    "hands": lambda state, g, v: [list(h) for h in g["hands"]],
    "box_cards": lambda state, g, v: list(g["box"]),
    "throne_deck_order": lambda state, g, v: list(g["throne_deck"]),
    # a seat only, its own
    "seat": lambda state, g, v: v,
    "hand": lambda state, g, v: list(g["hands"][v]),
    "my_thrones": lambda state, g, v: list(g["thrones"][v]),
}
_SHARED = ("game", "players", "round", "rounds", "starter", "turn", "court", "hand_sizes", "out", "last",
           "start_card", "box", "penalties", "throne_counts", "throne_deck", "history", "settings")
_REFEREE = ("hands", "box_cards", "throne_deck_order")
_SEAT = ("seat", "hand", "my_thrones")


def _check_settings(s, n, cards):
    first = s["first"]
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
        raise ValueError("the first player must be a seat from 0 to %d, not %r" % (n - 1, first))
    w = s["base_width"]
    if not isinstance(w, int) or isinstance(w, bool) or not 2 <= w <= 8:
        raise ValueError("base_width must be a whole number from 2 to 8, not %r" % (w,))
    if s["court"] not in MODES:
        raise ValueError("court must be one of %s, not %r" % (", ".join(MODES), s["court"]))
    if s["next_start"] not in NEXT_START:
        raise ValueError("next_start must be one of %s, not %r" % (", ".join(NEXT_START), s["next_start"]))
    for key in ("winner_pays", "score_floor"):
        if not isinstance(s[key], bool):
            raise ValueError("%s must be true or false, not %r" % (key, s[key]))
    if s["tiebreak"] not in TIEBREAKS:
        raise ValueError("tiebreak must be one of %s, not %r" % (", ".join(TIEBREAKS), s["tiebreak"]))
    deal = cards["components"]["deal"]["per_seat"][str(n)]
    if deal * n > len(cards["characters"]):
        raise ValueError("dealing %d cards to %d seats needs more than the %d character cards"
                         % (deal, n, len(cards["characters"])))


# --- words --------------------------------------------------------------------------------------

def house_name(house):
    return house.capitalize() if house else "?"


def card_name(g, inst):
    return "%s card %s" % (house_name(g["house_of"].get(inst)), inst)


def where(court, row, pos):
    """'base, left end' / 'row 3 on Stark and Lannister' for a position of `court`."""
    if row == 0:
        span = court["span"][0]
        if span is None:
            return "base, first card" + ("" if court["mode"] == "free" else " (place %d)" % pos)
        return "base, %s end" % ("left" if pos < span[0] else "right")
    h = court["houses"][row - 1]
    return "row %d on %s and %s (place %d)" % (row + 1, house_name(h[pos]), house_name(h[pos + 1]), pos)


def describe(g, choice):
    if choice and choice[0] == "place":
        _, inst, row, pos = choice
        return "%s: %s" % (card_name(g, inst), where(g["court"], row, pos))
    return " ".join(str(x) for x in choice)


def choices_for_card(ask, inst):
    """The choices of a place ask that use card `inst`: after a tap, which positions it may take."""
    return [c for c in ask["choices"] if c[0] == "place" and c[1] == inst]


Intrigue.VIEW_FIELDS = _FIELDS
GAME = register(Intrigue())
