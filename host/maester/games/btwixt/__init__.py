"""A Game of Thrones: B'Twixt for 3-6 players, with the advanced game and every variant."""

from ...cards import db as cardsdb
from ...engine import PUBLIC, REFEREE, Game, cardtables, register
from ...engine import config as check
from . import abilities, flow  # noqa: F401  (registers the steps)
from .text import Names, choice_words
from .zones import SEASONS, STEPS

VARIANTS = ("advanced", "draft", "kingsmoot", "revealed", "short")
# What the table can tell the engine instead of the seeded shuffle: the allies as they come off
# the physical ally deck, and the hands as dealt by hand. Power tokens are always the host's.
OBSERVABLE = ("allies", "hands")


def card_table(owner=True):
    """The cards a game uses, frozen into its config so a saved game replays the same."""
    return cardsdb.table("btwixt", owner, _build_table)


def _build_table(data):
    info = {}
    for a in data["allies"]:
        info[a["id"]] = {"name": a["name"], "type": "ally", "power": a["power"], "ability": a.get("ability"),
                         "sim": bool(a.get("simulation"))}
    for c in data["influence"]:
        info[c["id"]] = {"name": c["name"], "type": "influence", "kind": c["kind"], "colour": c["colour"],
                         "value": c["value"], "ability": c.get("ability"), "leader": c.get("leader"),
                         "sim": bool(c.get("simulation"))}
    for r in data["allies"] + data["influence"]:
        ab = r.get("ability")
        known = abilities.ALLY_ABILITIES if r in data["allies"] else abilities.INFLUENCE_ABILITIES
        if ab is not None and ab not in known:
            raise ValueError("card %s names ability %r, which the engine does not implement "
                             "(use 'manual' to resolve it by hand)" % (r["id"], ab))
    by_kind = lambda kind: cardsdb.instances([c for c in data["influence"] if c["kind"] == kind])  # noqa: E731
    leader_cards = {}
    for c in data["influence"]:
        if c["kind"] == "leader":
            leader_cards.setdefault(c["leader"], []).extend(cardsdb.instances([c]))
    abil = {}
    for r in data["allies"] + data["influence"]:
        if r.get("ability"):
            abil.update((inst, r["ability"]) for inst in cardsdb.instances([r]))
    return {
        "components": data["components"], "info": info, "ability_of": abil,
        "leaders": [l["id"] for l in data["leaders"]],
        "leader_names": {l["id"]: l["name"] for l in data["leaders"]},
        "ally_instances": cardsdb.instances(data["allies"]),
        "standard_instances": by_kind("standard"), "event_instances": by_kind("event"),
        "leader_instances": by_kind("leader"), "leader_card_instances": leader_cards,
    }


class BTwixt(Game):
    name = "btwixt"
    title = "A Game of Thrones: B'Twixt"
    steps = STEPS

    def check_config(self, config):
        config = dict(config)
        n = check.players(config, 3, 6, "B'Twixt")
        check.options(config, "variants", VARIANTS, "unknown variant %r")
        check.options(config, "observe", OBSERVABLE, "cannot observe %r from the table")
        cards = check.cards(config, card_table)
        leaders = list(config.get("leaders") or [])
        for l in leaders:
            if l not in cards["leaders"]:
                raise ValueError("unknown leader %r (choose from %s)" % (l, ", ".join(cards["leaders"])))
        if len(set(leaders)) != len(leaders) or len(leaders) > n:
            raise ValueError("each seat needs a different leader, at most one per seat")
        config["leaders"] = leaders
        config["first"] = check.seat(config.get("first", 0), n, "the first player")
        return config

    def setup(self, ctx, config):
        flow.setup(ctx, config)

    def view(self, state, viewer):
        g = state["g"]
        n = g["n"]
        out = {
            "game": self.name, "players": n, "leaders": list(g["leaders"]), "first": g["first"],
            "season": SEASONS[g["season"]], "round_space": g["round_space"], "last_space": g["last_space"],
            "rounds_played": g["rounds_played"], "variants": list(state["config"]["variants"]),
            "current": g["current"], "current_tokens": len(g["current_tokens"]),
            "row": list(g["row"]), "dead": list(g["dead"]),
            "councils": [{"allies": list(c["allies"]), "tokens": list(c["tokens"])} for c in g["councils"]],
            "bids": [list(p) for p in g["bids"]], "knelt": list(g["knelt"]),
            # On a real table the events shuffled in but not yet tapped lie in the deck too.
            "hand_sizes": [len(h) for h in g["hands"]], "deck": len(g["deck"]) + g["events_owed"],
            "discard": list(g["discard"]),
            "removed": list(g["removed"]), "removed_unseen": len(g["removed_unseen"]),
            "ally_deck": len(g["ally_deck"]), "supply": len(g["supply"]),
            "effects": list(g["round"].get("effects", ())), "peeks": [list(p) for p in g["peeks"]],
            "leader_cards_left": [len(x) for x in g["leader_cards"]],
        }
        if state["over"] or viewer == REFEREE:
            out["token_values"] = dict(g["token_value"])
        if viewer == REFEREE:
            out["hands"] = [list(h) for h in g["hands"]]
            out["deck_order"] = list(g["deck"])
            out["ally_deck_order"] = list(g["ally_deck"])
            out["supply_order"] = list(g["supply"])
            out["leader_cards"] = [list(x) for x in g["leader_cards"]]
            out["events_aside"] = list(g["events_aside"])
            out["removed_unseen_cards"] = list(g["removed_unseen"])
            out["draft"] = g["draft_state"]
        elif viewer != PUBLIC:
            out["seat"] = viewer
            out["hand"] = list(g["hands"][viewer])
            out["leader_cards"] = list(g["leader_cards"][viewer])
            out["seen_hands"] = {str(t): list(g["hands"][t]) for card, t in g["peeks"]
                                 if card in g["bids"][viewer]}
            d = g["draft_state"]
            if d is not None:
                out["draft"] = {"pack": list(d["packs"][viewer]), "kept": list(d["kept"][viewer])}
        return out

    def describe_choice(self, state, ask, choice, viewer=None):
        g = state["g"]
        return choice_words(Names(g, cardtables.of_config(state["config"])), choice, g)


GAME = register(BTwixt())
