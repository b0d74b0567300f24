"""LCG events and choices as one readable line each, for the table log, the terminal and the pages.

`describe_event(g, event, viewer, cards)` follows the other games: `g` is the engine's state["g"]
or a view, `cards` the config's card table. Private events (a seat's drawn cards, its face-down
setup) carry their own visibility, and a viewer who may not read one gets None (the host's screen
passes every event, as the other games' text modules expect); a public line never names a card
that is not face up on the table.
"""

from ...engine import PUBLIC, cardtables
from ..text import hidden_from
from . import model as M

HOUSES = {"stark": "Stark", "lannister": "Lannister", "baratheon": "Baratheon", "targaryen": "Targaryen",
          "greyjoy": "Greyjoy", "martell": "Martell"}
TITLE_NAMES = {"crown_regent": "Crown Regent", "lord_commander": "Lord Commander of the Kingsguard",
               "hand_of_the_king": "Hand of the King", "master_of_whispers": "Master of Whispers",
               "master_of_laws": "Master of Laws", "master_of_coin": "Master of Coin"}


class Names:
    def __init__(self, g=None, cards=None):
        self.cards = (cards or {}).get("cards") or {}
        self.g = g or {}

    def seat(self, seat):
        if seat is None:
            return "nobody"
        houses = self._houses()
        if houses and 0 <= seat < len(houses):
            return "Seat %d (%s)" % (seat, HOUSES.get(houses[seat], houses[seat]))
        return "Seat %d" % seat

    leader = seat

    def _houses(self):
        g = self.g
        if "seats" in g:
            return [p["house"] for p in g["seats"]]
        if "players" in g and isinstance(g["players"], list):
            return [p["house"] for p in g["players"]]
        return None

    def card(self, inst):
        code = inst.split("#", 1)[0]
        rec = self.cards.get(code)
        return rec["name"] if rec else inst

    def reason(self, why):
        """Why something happened: a card's ability is named by the card, not by its code."""
        rec = self.cards.get(why) if isinstance(why, str) else None
        return rec["name"] if rec else why

    def cards_text(self, insts):
        return ", ".join(self.card(c) for c in insts) or "none"


def describe_choice(state, ask, choice, viewer=None):
    names = Names(state["g"], cardtables.table(state))
    kind = choice[0]
    c = names.card
    if kind in ("pass", "done"):
        return {"pass": "Pass", "done": "Done"}[kind]
    if kind == "plot":
        rec = names.cards.get(choice[1].split("#")[0], {})
        p = rec.get("plot") or {}
        return "%s (income %s, initiative %s, claim %s)" % (c(choice[1]), p.get("income"), p.get("initiative"),
                                                          p.get("claim"))
    if kind == "first":
        return "%s goes first" % names.seat(choice[1])
    if kind == "title":
        return TITLE_NAMES.get(choice[1], choice[1])
    if kind == "challenge":
        return "%s challenge against %s" % (choice[1].capitalize(), names.seat(choice[2]))
    if kind == "attach":
        return "Attach %s to %s" % (c(choice[1]), c(choice[2]))
    if kind == "stealth":
        return "%s: %s may not defend" % (c(choice[1]), c(choice[2]))
    if kind == "give":
        return "Give 1 gold to %s" % names.seat(choice[1])
    if kind in ("action", "respond", "save", "cancel"):
        return "%s: use %s" % (kind.capitalize(), c(choice[1]))
    if kind == "title_influence":
        return "Hand of the King: 2 influence"
    if kind == "house":
        return "On your House card"
    if kind == "winner":
        return "%s wins" % names.seat(choice[1])
    if kind == "next" and len(choice) > 1 and choice[1] in state["g"]["cards"]:  # passive effects in order
        return "%s's %s resolves next" % (names.seat(state["g"]["cards"][choice[1]]["ctrl"]), c(choice[1]))
    if kind == "target" and isinstance(choice[1], int):
        return names.seat(choice[1])
    words = {"place": "Place %s face down", "marshal": "Marshal %s", "duplicate": "Duplicate %s",
             "attacker": "Attack with %s", "defender": "Defend with %s", "kill": "Kill %s",
             "dup": "Discard a duplicate to save (%s)", "drew": "Drew %s", "target": "Target %s",
             "kneel_influence": "Kneel %s for influence", "stand": "Stand %s", "card": "On %s",
             "ambush": "Ambush: put %s into play", "discard": "Discard %s", "take": "Take %s",
             "kneel": "Kneel %s", "top": "The top card is %s"}
    if kind in words and len(choice) > 1 and isinstance(choice[1], str):
        return words[kind] % c(choice[1]) + _detail(state, kind, choice[1])
    if kind == "keep" and len(choice) > 1:  # Fleeing to the Wall
        return "Keep %s" % c(choice[1])
    return {"redirect": "Redirect the challenge", "pay_gold": "Pay 1 gold",  # (pay_gold, to_hand: Ser Davos)
            "to_hand": "Return it to your hand",
            "deck_top": "Discard the top card of your deck", "discard_hound": "Discard The Hound",  # The Hound
            }.get(kind, " ".join(str(x) for x in choice))


def _detail(state, kind, inst):
    """What a person weighs in a menu: the gold a card costs, the STR a character brings."""
    g = state.get("g") or {}
    if inst not in g.get("cards", {}):
        return ""
    if kind in ("marshal", "place"):
        seat = g["cards"][inst]["owner"]
        return " (%d gold)" % M.gold_cost(state, seat, inst)
    if kind in ("attacker", "defender", "kill") and M.is_character(state, inst):
        return " (STR %d)" % M.strength(state, inst)
    return ""


def describe_event(g, e, viewer=PUBLIC, cards=None):
    if hidden_from(e, viewer):  # the host's screen passes every event: a private one is not the public's
        return None
    names = Names(g, cards)
    s, c = names.seat, names.card
    k = e["e"]
    if k == "setup":
        return "Setup: %d players; %s goes first" % (e["players"], s(e["first"]))
    if k == "round":
        return "Round %d" % e["round"]
    if k == "phase":
        return "%s phase" % e["phase"].capitalize()
    if k == "drew":
        return "%s draws %d card%s" % (s(e["seat"]), e["count"], "" if e["count"] == 1 else "s")
    if k == "drew_cards":
        return "You drew %s" % names.cards_text(e["cards"])
    if k == "placed_face_down":
        return "%s places a setup card face down" % s(e["seat"])
    if k == "placed_setup":
        return "You placed %s face down" % c(e["card"])
    if k == "setup_revealed":
        return "%s reveals setup: %s" % (s(e["seat"]), names.cards_text(e["cards"]))
    if k == "plot_chosen":
        return "%s has chosen a plot" % s(e["seat"])
    if k == "plots_revealed":
        return "Plots revealed: %s" % "; ".join("%s %s" % (s(i), c(p)) for i, p in enumerate(e["plots"]))
    if k == "initiative":
        return "%s wins initiative (%s)" % (s(e["seat"]), ", ".join(map(str, e["totals"])))
    if k == "first_player":
        return "%s is first player" % s(e["seat"])
    if k == "title":
        return "%s takes %s" % (s(e["seat"]), TITLE_NAMES.get(e["title"], e["title"]))
    if k == "income":
        return "%s collects %d gold" % (s(e["seat"]), e["gold"])
    if k == "marshalled":
        return "%s marshals %s%s" % (s(e["seat"]), c(e["card"]), " on %s" % c(e["on"]) if e.get("on") else "")
    if k == "duplicate":
        return "%s adds a duplicate to %s" % (s(e["seat"]), c(e["on"]))
    if k == "challenge":
        return "%s makes %s %s challenge against %s" % (s(e["seat"]), "an" if e["type"][0] in "aeiou" else "a",
                                                       e["type"], s(e["against"]))
    if k == "attackers":
        return "Attackers: %s" % names.cards_text(e["cards"])
    if k == "defenders":
        return "%s defends with %s" % (s(e["seat"]), names.cards_text(e["cards"]))
    if k == "stealth":
        return "%s keeps %s from defending (stealth)" % (c(e["card"]), c(e["target"]))
    if k == "challenge_result":
        who = "nobody wins" if e["winner"] is None else "%s wins" % s(e["winner"])
        return "%s challenge: %d against %d, %s%s" % (e["type"].capitalize(), e["attack"], e["defence"], who,
                                                       " (unopposed)" if e["unopposed"] else "")
    if k == "power":
        on = " on %s" % c(e["card"]) if e.get("card") else ""
        return "%s gains %d power%s (%s)" % (s(e["seat"]), e["amount"], on, names.reason(e["why"]))
    if k == "power_moved" and not e["amount"]:
        return "%s has no power on its House to take (%s)" % (s(e["frm"]), names.reason(e["why"]))
    if k == "power_moved":
        return "%d power moves from %s to %s (%s)" % (e["amount"], s(e["frm"]), s(e["to"]), names.reason(e["why"]))
    if k == "discarded_at_random":
        return "%s discards %d card%s at random (intrigue claim)" % (s(e["seat"]), e["count"], "" if e["count"] == 1 else "s")
    if k == "discarded_from_hand":
        return "%s discards %s from hand (%s)" % (s(e["seat"]), names.cards_text(e["cards"]), names.reason(e["why"]))
    if k == "discarded_cards":
        return "Your discarded cards: %s" % names.cards_text(e["cards"])
    if k == "control":
        return "%s takes control of %s" % (s(e["seat"]), c(e["card"]))
    if k == "left_play":
        if e["to"] in ("dead", "discard"):
            return "%s goes to the %s pile" % (c(e["card"]), e["to"])
        if e["to"] == "deck":
            return "%s goes back on top of its owner's deck" % c(e["card"])
        return "%s returns to its owner's %s" % (c(e["card"]), e["to"]) if e["to"] == "hand" \
            else "%s leaves play (%s)" % (c(e["card"]), e["to"])
    if k == "dominance":
        return "Dominance: %s" % ("tie, nobody" if e["winner"] is None else s(e["winner"]))
    if k == "ability":
        return "%s uses %s%s" % (s(e["seat"]), c(e["card"]), " on %s" % c(e["target"]) if isinstance(e.get("target"), str) else "")
    if k == "ambush":
        return "%s ambushes with %s" % (s(e["seat"]), c(e["card"]))
    if k == "put_into_play":
        return "%s puts %s into play" % (s(e["seat"]), c(e["card"]))
    if k == "attached":
        return "%s is attached to %s" % (c(e["card"]), c(e["on"]))
    if k == "canceled":
        return "%s is cancelled" % c(e["card"])
    if k == "saved":
        how = "by discarding a duplicate" if e.get("by") == "duplicate" else "by %s" % c(e["by"])
        return "%s is saved %s" % (c(e["card"]), how)
    if k == "stood_card":
        return "%s stands (%s)" % (c(e["card"]), names.reason(e["why"]))
    if k == "stood":
        return "Every card stands"
    if k == "taxed":
        return "Unspent gold returns to the treasury"
    if k == "plots_recycled":
        return "%s takes back its used plots" % s(e["seat"])
    if k == "power_lost":
        return "%s loses %d power (%s)" % (s(e["seat"]), e["amount"], names.reason(e["why"]))
    if k == "gold_given":
        return "%s gives %d gold to %s" % (s(e["seat"]), e["amount"], s(e["to"]))
    if k == "influence_paid":
        return "%s pays %d influence" % (s(e["seat"]), e["paid"])
    if k == "gold_taken":  # Targaryen cards' events
        return "%s takes %d gold from %s (%s)" % (s(e["seat"]), e["amount"], s(e["frm"]), c(e["card"]))
    if k == "gold_removed":
        return "%s loses 1 gold (%s)" % (s(e["seat"]), c(e["card"]))
    if k == "claim_changed":
        return "%s's claim changes by %+d for this challenge (%s)" % (s(e["seat"]), e["amount"], c(e["card"]))
    if k == "gold_tax":
        return "%s owes %s 1 gold for each %s challenge this phase" % (s(e["on"]), s(e["seat"]), e["type"])
    if k == "returned_to_hand":
        return "%s takes %s back from the %s pile" % (s(e["seat"]), c(e["card"]), e["frm"])
    if k == "gold_paid":  # Baratheon cards' events
        return "%s pays %d gold to keep %s" % (s(e["seat"]), e["amount"], c(e["card"]))
    if k == "plot_replaced":
        return "%s reveals a new plot: %s" % (s(e["seat"]), c(e["plot"]))
    if k == "not_attached":
        return "%s cannot go there and stays in %s's discard pile" % (c(e["card"]), s(e["seat"]))
    if k == "title_used":
        return "%s uses the %s title" % (s(e["seat"]), TITLE_NAMES.get(e["title"], e["title"]))
    if k == "redirected":
        return "The challenge turns on %s (%s)" % (s(e["to"]), TITLE_NAMES.get(e["by"], e["by"]))
    if k == "knelt":  # the effects' verbs (effects.py) and the Stark cards' events
        return "%s kneels (%s)" % (c(e["card"]), names.reason(e["why"]) or "an effect")
    if k == "reducer":
        return "%s: %s's next card costs %d less" % (c(e["card"]), s(e["seat"]), e["amount"])
    if k == "revealed":
        return "%s reveals %s (%s)" % (s(e["seat"]), names.cards_text(e["cards"]), names.reason(e["why"]))
    if k == "shuffled":
        return "%s shuffles their deck" % s(e["seat"])
    if k == "joins_challenge":
        return "%s joins the challenge among the %s" % (c(e["card"]), e["side"])
    if k == "to_deck_top":
        return "%s goes back on top of %s's deck (%s)" % (c(e["card"]), s(e["seat"]), names.reason(e["why"]))
    if k == "no_challenge":
        return "%s may not make %s challenges against each other this round (%s)" % (
            " and ".join(s(x) for x in e["seats"]), e["type"], names.reason(e["why"]))
    if k == "milled":  # Lannister cards' events
        return "%s puts %s from the top of their deck into the discard pile" % (s(e["seat"]), names.cards_text(e["cards"]))
    if k == "peeked":
        return "You look at the top card of %s's deck: %s" % (s(e["whose"]), c(e["card"]))
    if k == "peek":
        return "%s looks at the top card of %s's deck" % (s(e["seat"]), s(e["whose"]))
    if k == "to_bottom":
        return "%s puts the top card of %s's deck at the bottom" % (s(e["seat"]), s(e["whose"]))
    if k == "gold_on_card":
        return "%d gold from the treasury is set on %s" % (e["amount"], c(e["card"]))
    if k == "claim_lowered":
        return "%s lowers the claim by %d for this challenge" % (s(e["seat"]), e["amount"])
    if k == "named":
        return "%s names %s" % (s(e["seat"]), e["name"])
    if k == "hand_revealed":
        return "%s shows their hand: %s" % (s(e["seat"]), names.cards_text(e["cards"]))
    if k == "plots_traded":
        return "%s and %s trade plot decks until the end of the round" % (s(e["seat"]), s(e["other"]))
    if k == "no_taxation":
        return "%s skips the taxation phase this round" % s(e["seat"])
    if k == "game_over":
        return "Game over: %s win%s" % (" and ".join(s(w) for w in e["winners"]), "" if len(e["winners"]) > 1 else "s")
    fields = ", ".join("%s %s" % (key, v) for key, v in e.items() if key not in ("e", "vis"))
    return "%s%s" % (k.replace("_", " ").capitalize(), (": " + fields) if fields else "")


KEYWORD_WORDS = {"immune_character": "immune to character abilities",
                 "immune_opponent_character": "immune to opponents' character abilities",
                 "no_attachments": "takes no attachments", "no_attachments_except_weapon": "takes only Weapon attachments"}


def about_lines(rec):
    """A card's facts for a person who asks (`?` at a prompt, a tap on its name): the card data's fields,
    and its ability as cards_db words it (our paraphrase, never the printed text); games/text.py."""
    houses = ", ".join(HOUSES.get(h, h.capitalize()) for h in rec.get("houses") or ()) or "neutral"
    lines = ["%s%s · %s" % ("unique " if rec.get("unique") else "", rec["type"], houses)]
    facts = []
    if rec.get("cost") is not None:
        facts.append("cost %d gold" % rec["cost"])
    if rec.get("str") is not None:
        facts.append("STR %d" % rec["str"])
    if rec.get("icons"):
        facts.append("icons: " + ", ".join(rec["icons"]))
    plot = rec.get("plot")
    if plot:
        facts.append("income %s, initiative %s, claim %s" % (plot["income"], plot["initiative"], plot["claim"]))
    if rec.get("income"):
        facts.append("+%d gold a round" % rec["income"])
    if rec.get("influence"):
        facts.append("%d influence" % rec["influence"])
    lines.append(" · ".join(facts))
    if rec.get("crests"):
        lines.append("Crests: " + ", ".join(rec["crests"]))
    if rec.get("traits"):
        lines.append("Traits: " + ", ".join(rec["traits"]))
    if rec.get("keywords"):
        lines.append("Keywords: " + ", ".join(KEYWORD_WORDS.get(k, k) for k in rec["keywords"]))
    lines.append("Ability: %s" % rec["ability"] if rec.get("ability") else "No ability beyond its keywords and icons.")
    if rec.get("errata"):
        lines.append(rec["errata"])
    return lines
