"""Game of Thrones: Oathbreaker for 5-8 players: a King (and a Queen at 8) against hidden loyalties.

Modules: zones (helpers, the step registry, a noble's play to the missions), abilities (Character
Abilities), missions (Mission Rounds), decrees (Decree Rounds and decree texts), flow (setup, the
round track), judgment (the end), manual (resolving unknown texts by hand), observe (a real table's
taps), view; then bot, table (taps and LEDs), text, web, tui. Each imports only zones and the rules
it builds on, never one above it.

Config: ``players`` (5-8), ``king`` (seat, default 0), ``queen`` (8 players only; a neighbour of
the King, default the seat on the King's left), ``hand`` (the first Hand of the King; asked of the
King when absent), ``characters`` (a list by seat of character ids, None for monarchs and for
nobles who choose at the table), ``variants`` (the optional rules, below).

The optional rules The Aloof King, The Cagey Court and Order in the Court limit what players say:
the engine records them in the config and the view so the table shows them, and changes nothing
else. The Night Is Dark and Full of Terrors deals a card from the deck face down to each mission.

``observe`` (a real table, where the cards are shuffled and dealt by hand): ``"hands"`` learns every
influence card and decree drawn from the taps of whoever drew it, and the cards dealt face down to
missions from the King's taps; ``"missions"`` learns the missions turned up from the King's taps
(observe.py). Loyalty and Ambition cards are always dealt by the host.
"""

from ...cards import db as cardsdb
from ...engine import config as check
from ...engine import Game, register
from . import abilities, decrees, flow, judgment, manual, missions, observe  # noqa: F401  (registers the steps)
from . import view as _view
from . import zones as Z
from .zones import STEPS, TYPES

VARIANTS = ("aloof_king", "cagey_court", "night_is_dark", "order_in_court")
VARIANT_NAMES = {"aloof_king": "The Aloof King", "cagey_court": "The Cagey Court",
                 "night_is_dark": "The Night Is Dark and Full of Terrors", "order_in_court": "Order in the Court"}
CONFIG_KEYS = ("players", "king", "queen", "hand", "characters", "variants", "observe", "cards", "owner_cards")
OBSERVABLE = ("hands", "missions")
BOX = {"missions": "missions", "decrees": "decrees", "influence": "influence", "ambitions": "ambitions",
       "characters": "characters"}


def card_table(owner=True):
    """The cards a game uses, frozen into its config so a saved game replays the same."""
    return cardsdb.table("oathbreaker", owner, _build_table)


def _chosen(data, section, box):
    """The real records, then simulation filler until the box count (enrolled cards push filler out)."""
    real = [c for c in data[section] if not c.get("simulation")]
    room = box - sum(c["copies"] for c in real)
    out = list(real)
    for c in data[section]:
        if c.get("simulation") and c["copies"] <= room:
            out.append(c)
            room -= c["copies"]
    return out


def _check_abilities(records, known, what):
    for r in records:
        ab = r.get("ability")
        if ab is not None and ab not in known:
            raise ValueError("%s %s names ability %r, which the engine does not implement "
                             "(use 'manual' to resolve it by hand)" % (what, r["id"], ab))


def _build_table(data):
    comp = data["components"]
    counts = comp["counts"]
    sec = {s: _chosen(data, s, counts[BOX[s]]) for s in BOX}
    _check_abilities(sec["missions"], abilities.MISSION_ABILITIES, "mission")
    _check_abilities(sec["decrees"], abilities.DECREE_ABILITIES, "decree")
    _check_abilities(sec["characters"], abilities.CHARACTER_ABILITIES, "character")
    info = {}
    for r in sec["missions"]:
        info[r["id"]] = {"type": "mission", "name": r["name"], "influence": r["influence"],
                         "success": dict(r["success"]), "failure": dict(r["failure"]), "ability": r["ability"],
                         "amount": r.get("amount", 1 if r["ability"] in ("extra_cards", "extra_sabotage") else 0),
                         "sim": bool(r.get("simulation"))}
    for r in sec["decrees"]:
        info[r["id"]] = {"type": "decree", "name": r["name"], "decree": r["decree"], "value": r["value"],
                         "ability": r["ability"], "sim": bool(r.get("simulation"))}
    eff = {}
    for r in sec["influence"]:
        icons = r["icons"]
        info[r["id"]] = {"type": "influence", "name": r["name"], "icons": dict(icons),
                         "conditional": r["conditional"], "fail_chaos": r["fail_chaos"],
                         "sim": bool(r.get("simulation"))}
        e = {"fail_chaos": r["fail_chaos"]}
        for t in TYPES:
            match = icons[t] + icons["any"] + (1 if r["conditional"] == t else 0)
            sab = icons["sabotage"] + (1 if r["conditional"] and r["conditional"] != t else 0)
            e[t] = [match, sab]
        eff[r["id"]] = e
    for r in sec["ambitions"]:
        info[r["id"]] = {"type": "ambition", "name": r["name"], "coin": r["coin"], "honor": r["honor"],
                         "power": r["power"], "sim": bool(r.get("simulation"))}
    boards = {}
    for r in sec["characters"]:
        info[r["id"]] = {"type": "character", "name": r["name"], "board": r["board"], "side": r["side"],
                         "ability": r["ability"], "cost": r["cost"], "timing": r["timing"],
                         "sim": bool(r.get("simulation"))}
        boards.setdefault(r["board"], {}).setdefault(r["side"], []).append(r["id"])
    for board, sides in sorted(boards.items()):
        if sorted(sides) != ["diamond", "other"] or any(len(v) != 1 for v in sides.values()):
            raise ValueError("Character Board %r must have exactly one 'diamond' and one 'other' side, not %s; "
                             "correct the characters' board and side" % (board, sides))
    tracks = {}
    for key in ("5", "6", "7", "8"):
        track = comp["round_track"][key]
        if track[0]["round"] != "mission" or track[-1]["round"] != "mission":
            raise ValueError("the round track for %s players must begin and end with a Mission Round" % key)
        tracks[key] = track
    return {
        "components": comp, "info": info, "eff": eff, "tracks": tracks,
        "influence_instances": cardsdb.instances(sec["influence"]),
        "mission_instances": cardsdb.instances(sec["missions"]),
        "decree_instances": cardsdb.instances(sec["decrees"]),
        "ambition_instances": cardsdb.instances(sec["ambitions"]),
        "character_ids": [r["id"] for r in sorted(sec["characters"], key=lambda r: (r["board"], r["side"] != "diamond"))],
    }


class Oathbreaker(Game):
    name = "oathbreaker"
    title = "Game of Thrones: Oathbreaker"
    steps = STEPS

    def check_config(self, config):
        config = dict(config)
        unknown = sorted(set(config) - set(CONFIG_KEYS))
        if unknown:
            raise ValueError("unknown setting %s for Oathbreaker (settings: %s)"
                             % (", ".join(map(repr, unknown)), ", ".join(CONFIG_KEYS[:-2])))
        n = check.players(config, 5, 8, "Oathbreaker")
        cards = check.cards(config, card_table)
        check.options(config, "variants", VARIANTS, "unknown variant %r")
        check.options(config, "observe", OBSERVABLE, "cannot observe %r from the table")
        king = check.seat(config.get("king", 0), n, "the King")
        config["king"] = king
        queen = config.get("queen")
        if n == 8:
            queen = (king + 1) % n if queen is None else check.seat(queen, n, "the Queen")
            if queen not in ((king + 1) % n, (king - 1) % n):
                raise ValueError("the King and Queen must sit next to each other (seat %d is not beside seat %d)"
                                 % (queen, king))
        elif queen is not None:
            raise ValueError("a Queen joins the King only in an 8-player game")
        config["queen"] = queen
        monarchs = {king, queen} - {None}
        nobles = [s for s in range(n) if s not in monarchs]
        hand = config.get("hand")
        if hand is not None and (check.seat(hand, n, "the first Hand of the King") in monarchs):
            raise ValueError("the Hand of the King must be a noble, not a monarch (seat %d)" % hand)
        config["hand"] = hand
        info = cards["info"]
        chars = config.get("characters")
        if chars is not None:
            if not isinstance(chars, list) or len(chars) != n:
                raise ValueError("characters must be a list with one entry per seat (%d), None where the noble "
                                 "chooses at the table" % n)
            boards = []
            for seat, c in enumerate(chars):
                if c is None:
                    continue
                if seat in monarchs:
                    raise ValueError("seat %d is a monarch and takes no Character Board" % seat)
                if c not in info or info[c]["type"] != "character":
                    raise ValueError("unknown character %r (choose from %s)" % (c, ", ".join(cards["character_ids"])))
                boards.append(info[c]["board"])
            if len(set(boards)) != len(boards):
                raise ValueError("two nobles cannot share a Character Board (each board has two sides)")
            config["characters"] = list(chars)
        loyal = cards["components"]["loyalty"][str(n)]
        total = loyal["conspirator"] + loyal["loyalist"]
        if total - len(nobles) not in (0, 1):
            raise ValueError("the loyalty cards for %d players (%d) do not fit %d nobles and at most one Agent; "
                             "correct 'loyalty' in cards_db/oathbreaker/components.json" % (n, total, len(nobles)))
        if len(cards["ambition_instances"]) < len(nobles):
            raise ValueError("%d nobles need %d Ambition cards, the data has %d"
                             % (len(nobles), len(nobles), len(cards["ambition_instances"])))
        return config

    def setup(self, ctx, config):
        flow.setup(ctx, config)

    # The view is a table of fields (view.py; core.Game.view builds it) so that a bot's LazyView
    # computes only those it reads.
    VIEW_FIELDS = _view.FIELDS

    def view_keys(self, state, viewer):
        return _view.view_keys(state, viewer)

    def describe_choice(self, state, ask, choice, viewer=None):
        return describe(state["g"], choice)


def name_of(g, x):
    if isinstance(x, str):
        rec = Z.table(g)["info"].get(x.split("#", 1)[0])
        if rec is not None:
            return rec["name"]
    return str(x)


def describe(g, choice):
    op = choice[0] if choice else ""
    if op == "play":
        return "play %s to mission %d (%s)" % (name_of(g, choice[1]), choice[2], name_of(g, g["missions"][choice[2]]["card"]))
    if op == "face_up":
        return "play %s face up to mission %d" % (name_of(g, choice[1]), choice[2])
    if op == "decree":
        return "play %s" % name_of(g, choice[1]) + (" on seat %d" % choice[2] if len(choice) > 2 else "")
    if op in ("card", "mission"):
        return name_of(g, choice[1])
    if op == "ability":
        paid = ", ".join("%d %s" % (k, r) for k, r in zip(choice[1:], ("coin", "honor", "power")) if k)
        return "use the ability, paying %s" % (paid or "nothing")
    return " ".join(name_of(g, x) for x in choice)


GAME = register(Oathbreaker())
