"""Oathbreaker events as one readable line each, for the table log and the terminal.

`describe_event(g, event, viewer, cards)` has the same shape as the other games': `g` is the
engine's state["g"] or a view, `cards` the config's card table. It returns None for an event the
viewer may not see. A line never says more than its event: a public "played" names the seat and
the mission, never the card; a card tapped face down is named to nobody.
"""

from ...engine import PUBLIC, cardtables
from ..text import generic_line, hidden_from, variants_words

RES = ("coin", "honor", "power")


class Names:
    """Seat, card and mission names, from the config's card table (or the game data)."""

    def __init__(self, g=None, cards=None):
        self.g = g or {}
        self.info = (cards or {}).get("info") or self.g.get("info") or {}

    def role(self, seat):
        g = self.g
        if seat is None:
            return None
        if seat == g.get("king"):
            return "King"
        if seat == g.get("queen"):
            return "Queen"
        chars = g.get("characters") or []
        if seat < len(chars) and chars[seat]:
            return self.name(chars[seat])
        return None

    def seat(self, seat):
        if seat is None:
            return "nobody"
        role = self.role(seat)
        return "Seat %d (%s)" % (seat, role) if role else "Seat %d" % seat

    def leader(self, seat):
        """What the shared terminal loop shows beside "Seat N": the role, or the seat itself."""
        return self.role(seat) or "Seat %d" % seat

    def name(self, cid):
        rec = self.info.get(cid.split("#", 1)[0])
        return rec["name"] if rec else cid

    def card(self, inst):
        rec = self.info.get(inst.split("#", 1)[0])
        if rec is None:
            return inst
        if rec["type"] == "decree":
            if rec["decree"] == "proclamation":
                return "%s (proclamation)" % rec["name"]
            return "%s (%s %d)" % (rec["name"], rec["decree"], rec["value"])
        if rec["type"] == "mission":
            return "%s (%s)" % (rec["name"], rec["influence"])
        if rec["type"] == "ambition":
            return "%s (%s)" % (rec["name"], cubes({r: rec[r] for r in RES}) or "nothing")
        return rec["name"]

    def cards(self, insts):
        return ", ".join(self.card(c) for c in insts) or "nothing"

    def mission(self, g, i):
        missions = g.get("missions") or []
        if 0 <= i < len(missions):
            return "mission %d (%s)" % (i + 1, self.name(missions[i]["card"]))
        return "mission %d" % (i + 1)


def cubes(amounts):
    return ", ".join("%d %s" % (k, r) for r, k in amounts.items() if k)


def _you(names, seat, viewer):
    return "You" if viewer == seat else names.seat(seat)


def _v(viewer, seat, you, other):
    return you if viewer == seat else other


def describe_choice(state, ask, choice, viewer=None):
    """A menu label for a choice."""
    g = state["g"]
    nm = Names(g, cardtables.table(state))
    op = choice[0]
    if op == "play":
        return "play %s face down to %s" % (nm.card(choice[1]), nm.mission(g, choice[2]))
    if op == "face_up":
        return "play %s face up to %s" % (nm.card(choice[1]), nm.mission(g, choice[2]))
    if op == "decree":
        # A noble plays a decree only through Daenerys, and then always sideways (it says so: the
        # side is what sets it apart from the King's decrees).
        sideways = " sideways" if ask is not None and ask["seat"] in g.get("nobles", ()) else ""
        return "play %s%s" % (nm.card(choice[1]), sideways) + (" on %s" % nm.seat(choice[2]) if len(choice) > 2 else "")
    if op in ("resolve", "bar", "sigil"):
        return {"resolve": "resolve %s", "bar": "bar %s", "sigil": "House Sigil on %s"}[op] % nm.mission(g, choice[1])
    if op == "look":
        if ask is not None and ask["kind"] == "melisandre_look":
            return "look at %s" % nm.mission(g, choice[1])
        return "look at %s's discard" % nm.seat(choice[1])
    if op in ("hand", "vote_for", "give"):
        return {"hand": "make %s the Hand of the King", "vote_for": "vote for %s", "give": "give it to %s"}[op] \
            % nm.seat(choice[1])
    edit = edit_words(nm, choice)
    if edit:
        return edit
    if op in ("card", "mission", "discard", "take", "offer", "accept"):
        verb = {"card": "", "mission": "", "discard": "discard ", "take": "take ", "offer": "offer ",
                "accept": "accept, giving "}[op]
        return verb + nm.card(choice[1])
    if op == "character":
        return character_side(nm, choice[1])
    if op == "ability":
        paid = cubes(dict(zip(RES, choice[1:])))
        return "use the ability, paying %s" % (paid or "nothing")
    if op == "cube":
        return "take a %s cube" % choice[1]
    if op == "done" and ask is not None and ask["kind"] == "play":
        return "done playing cards"
    if op in OTHER_CHOICES:
        return OTHER_CHOICES[op]
    return " ".join(str(x) for x in choice).replace("_", " ")


def edit_words(nm, change):
    """A change made by hand (manual.py), as its button and its log line say it; None for another choice."""
    op = change[0]
    if op == "take" and len(change) == 3:
        return "take a %s cube from %s" % (change[2], nm.seat(change[1]))
    if op in ("gain", "lose"):
        return "%s a %s cube" % (op, change[1])
    if op in ("order", "chaos"):
        return "%s %+d" % (op.capitalize(), change[1])
    if op == "draw":
        return "draw a card"
    if op == "discard" and len(change) == 1:  # the log's: which card stays with its owner
        return "discard a card"
    return None


# Choices with nothing to name but themselves.
OTHER_CHOICES = {"pass": "pass", "no_trade": "no trade now",
                 "decline": "decline the trade", "loyalist": "a loyalist", "conspirator": "a conspirator"}


def character_side(names, cid):
    """A character as the board shows it: its name, its board and the side it is on (the choice of
    a Character Board is a choice of a board and a side)."""
    rec = names.info.get(cid.split("#", 1)[0])
    if rec is None or "board" not in rec:
        return names.name(cid)
    return "%s (%s board, %s side)" % (rec["name"], rec["board"].capitalize(), rec["side"])


def describe_event(g, event, viewer=PUBLIC, cards=None):
    """One line for `event` as `viewer` may read it, or None if it is not theirs to see."""
    if hidden_from(event, viewer):
        return None
    k = event.get("e")
    nm = Names(g, cards)
    seat = event.get("seat")
    who = _you(nm, seat, viewer)

    if k == "setup":
        crown = "%s is the King" % nm.seat(event["king"])
        if event.get("queen") is not None:
            crown += " and %s the Queen" % nm.seat(event["queen"])
        rules = variants_words(event.get("variants"), "standard rules")
        return "Oathbreaker for %d players (%s): %s; %s." % (
            event["players"], rules, crown, "an Agent is in the game" if event.get("agent") else "no Agent")
    if k == "loyalty":
        return "Your loyalty: %s." % event["loyalty"]
    if k == "ambition":
        return "Your ambition: %s." % nm.card(event["card"])
    if k == "character":
        return "%s %s %s." % ("You" if viewer == seat else "Seat %d" % seat, _v(viewer, seat, "choose", "chooses"),
                              nm.name(event["character"]))
    if k == "hand_of_the_king":
        return "%s %s the Hand of the King." % (who, _v(viewer, seat, "are now", "is now"))
    if k == "round":
        if event["round"] == "end":
            return "The round track is done: Final Judgment."
        what = "missions" if event["round"] == "mission" else "decrees"
        return "Round %d: a %s Round (%d %s)." % (event["space"] + 1, event["round"].capitalize(),
                                                   event.get("count") or 0, what)
    if k == "mission":
        return "Mission %d: %s." % (event["mission"] + 1, nm.card(event["card"]))
    if k == "mission_deck_empty":
        return "The mission deck is out: %d mission%s short." % (event["short"], "" if event["short"] == 1 else "s")
    if k == "face_down":
        return "Mission %d gets %d card%s face down from the deck." % (
            event["mission"] + 1, event["count"], "" if event["count"] == 1 else "s")
    if k == "barred":
        return "%s may not play to mission %d this round." % (who, event["mission"] + 1)
    if k == "played":
        if event.get("face_up"):
            return "%s %s %s face up to mission %d." % (who, _v(viewer, seat, "play", "plays"),
                                                        nm.card(event["card"]), event["mission"] + 1)
        return "%s %s a card face down to mission %d." % (who, _v(viewer, seat, "play", "plays"), event["mission"] + 1)
    if k == "played_card":
        return "You played %s to mission %d." % (nm.card(event["card"]), event["mission"] + 1)
    if k == "sigil":
        return "%s %s %s House Sigil on mission %d." % (who, _v(viewer, seat, "put", "puts"),
                                                         _v(viewer, seat, "your", "their"), event["mission"] + 1)
    if k == "no_sigil":
        return "%s played no card and %s no House Sigil." % (who, _v(viewer, seat, "place", "places"))
    if k == "drew":
        return "%s drew %s (%s)." % (who, nm.cards(event["cards"]), event.get("why", ""))
    if k == "draws":
        if not event["count"]:
            return None
        return "%s %s %d card%s (%s)." % (who, _v(viewer, seat, "draw", "draws"), event["count"],
                                          "" if event["count"] == 1 else "s", event.get("why", ""))
    if k == "drew_decrees":
        return "%s drew the decrees %s." % (who, nm.cards(event["cards"]))
    if k == "decree_draws":
        if not event["count"]:
            return None
        return "%s %s %d decree%s." % (who, _v(viewer, seat, "draw", "draws"), event["count"],
                                       "" if event["count"] == 1 else "s")
    if k == "tapped_into_hand":
        return "%s tapped %s (%d of %d)." % (who, nm.card(event["card"]), event["count"], event["of"])
    if k == "tap_refused":
        what = nm.card(event["card"]) if event.get("card") else "That card"
        return "%s is %s: tap only the card you took." % (what, event.get("why", "not there"))
    if k == "deck_empty":
        return "The influence deck is out: %s %d card%s short." % (nm.seat(seat), event["short"],
                                                                   "" if event["short"] == 1 else "s")
    if k == "deck_reshuffled":
        return "The discard pile is shuffled into a new influence deck (%d cards)." % event["cards"]
    if k == "discarded":
        cards_ = event["cards"] if "cards" in event else [event["card"]]
        return "You discarded %s (%s)." % (nm.cards(cards_), event.get("why", ""))
    if k == "discards":
        return "%s %s %d card%s face down (%s)." % (who, _v(viewer, seat, "discard", "discards"), event["count"],
                                                    "" if event["count"] == 1 else "s", event.get("why", ""))
    if k == "ability":
        paid = cubes(event.get("paid") or {})
        return "%s %s %s's ability%s." % (who, _v(viewer, seat, "use", "uses"), nm.name(event["character"]),
                                          " (paying %s)" % paid if paid else "")
    if k == "arya":
        return "Arya's card %s the mission." % {"helps": "helps", "hurts": "hurts", "neutral": "neither helps nor hurts"}[
            event["outcome"]]
    if k == "saw_mission":
        return "You see mission %d's cards: %s." % (event["mission"] + 1, nm.cards(event["cards"]))
    if k == "looked_at_mission":
        return "%s %s at mission %d's cards." % (who, _v(viewer, seat, "look", "looks"), event["mission"] + 1)
    if k == "took_from_mission":
        return "You take %s from mission %d." % (nm.card(event["card"]), event["mission"] + 1)
    if k == "takes_from_mission":
        return "%s %s a card from mission %d." % (who, _v(viewer, seat, "take", "takes"), event["mission"] + 1)
    if k == "discarded_unseen":
        return "One card of mission %d goes to the discard pile unseen." % (event["mission"] + 1)
    if k == "revealed":
        return "Mission %d is revealed: %s." % (event["mission"] + 1, nm.cards(event["cards"]))
    if k == "mission_resolved":
        if event["success"]:
            outcome = "succeeds (%d matching against %d sabotage): Order +%d" % (
                event["match"], event["sabotage"], event["order"])
        else:
            outcome = "fails (%d matching against %d sabotage): Chaos +%d" % (
                event["match"], event["sabotage"], event["chaos"])
        return "Mission %d, %s, %s." % (event["mission"] + 1, nm.name(event["card"]), outcome)
    if k == "cubes":
        if event.get("gained"):
            return "%s %s %s (%s)." % (who, _v(viewer, seat, "gain", "gains"), cubes(event["gained"]), event["why"])
        return "%s %s %s (%s)." % (who, _v(viewer, seat, "lose", "loses"), cubes(event["lost"]), event["why"])
    if k in ("order", "chaos"):
        why = "decrees on %s" % nm.seat(event["seat"]) if "seat" in event else event["why"]
        return "%s %+d, now %d (%s)." % (k.capitalize(), event["by"], event["to"], why)
    if k == "decree":
        how = "" if event.get("how") == "played" else " (%s)" % event.get("how")
        side = " sideways" if event.get("sideways") else ""
        return "%s %s %s%s on %s%s." % (_you(nm, event["by"], viewer), _v(viewer, event["by"], "play", "plays"),
                                       nm.card(event["card"]), side, nm.seat(event["target"]), how)
    if k == "proclamation":
        return "%s %s the proclamation %s." % (_you(nm, event["by"], viewer), _v(viewer, event["by"], "play", "plays"),
                                                nm.name(event["card"]))
    if k == "vote_called":
        return "%s %s %s: the nobles vote on who receives it." % (
            _you(nm, event["by"], viewer), _v(viewer, event["by"], "play", "plays"), nm.card(event["card"]))
    if k == "voted":
        return "%s %s for %s." % (who, _v(viewer, seat, "vote", "votes"), nm.seat(event["target"]))
    if k == "to_bottom":
        return "%s goes to the bottom of the decree deck." % nm.name(event["card"])
    if k == "black_cells":
        return "%s may play only one card next Mission Round." % nm.seat(seat)
    if k == "cornered":
        return "%s is Cornered: a mission will be barred next Mission Round." % nm.seat(seat)
    if k == "executed":
        return "%s is executed: the board turns to %s." % (nm.seat(seat), nm.name(event["now"]))
    if k == "saw_hand":
        return "You see %s's hand: %s." % (nm.seat(event["target"]), nm.cards(event["cards"]))
    if k == "looked_at_hand":
        return "%s %s at %s's hand." % (who, _v(viewer, seat, "look", "looks"), nm.seat(event["target"]))
    if k == "confess_discard":
        return "%s %s a card face down for Confess!." % (who, _v(viewer, seat, "discard", "discards"))
    if k == "confessed":
        return "Confess!: nobody has a card to discard."
    if k == "saw_discard":
        return "You see %s's discard: %s." % (nm.seat(event["target"]), nm.card(event["card"]))
    if k == "looked_at_discard":
        return "%s %s at %s's discard." % (who, _v(viewer, seat, "look", "looks"), nm.seat(event["target"]))
    if k == "revealed_decree":
        where = "to the bottom of the deck" if event["to"] == "bottom" else "for Daenerys"
        return "Turned over: %s, %s." % (nm.card(event["card"]), where)
    if k == "no_decree_found":
        return "No Favor or Suspicion is left in the decree deck."
    if k == "traded":
        return "The King gives %s and the Queen gives %s." % (nm.card(event["king_gave"]), nm.card(event["queen_gave"]))
    if k == "monarchs_traded":
        return "The King and Queen trade one decree each."
    if k == "trade_declined":
        return "The Queen declines the trade."
    if k == "manual":
        change = edit_words(nm, [event["op"]] + list(event.get("args") or [])) or event["op"].replace("_", " ")
        return "%s %s by hand: %s." % (who, _v(viewer, seat, "record", "records"), change)
    if k == "resolved_by_hand":
        return "%s is resolved by hand." % nm.name(event["what"])
    if k == "final_judgment":
        return "Final Judgment: the monarchs judge every noble."
    if k == "guess":
        return "%s %s %s a %s." % (who, _v(viewer, seat, "judge", "judges"), nm.seat(event["target"]), event["guess"])
    if k == "revealed_identity":
        return "%s was a %s, with the ambition %s." % (nm.seat(seat), event["loyalty"], nm.card(event["ambition"]))
    if k == "agent":
        return "The Agent was a %s." % event["loyalty"]
    if k == "game_over":
        realm = "Order" if event["realm"] == "order" else "Chaos"
        return "Game over: %s wins the realm, %d to %d; %s." % (realm, event["order"], event["chaos"],
                                                               winners_line(nm, event["winners"]))
    return generic_line(event)


def winners_line(names, winners):
    if not winners:
        return "nobody wins"
    if len(winners) == 1:
        return "%s wins" % names.seat(winners[0])
    return "the winners are %s" % ", ".join(names.seat(s) for s in winners)


def about_lines(rec):
    """A card's facts for a person who asks; its text is cards_db's (games/text.py adds it)."""
    if "success" in rec:
        return ["mission · %s" % rec["influence"].capitalize(),
                "on success: %s" % (cubes(rec["success"]) or "nothing"),
                "on failure: %s" % (cubes(rec["failure"]) or "nothing")]
    if "decree" in rec:
        return ["decree · %s%s" % (rec["decree"], "" if rec["decree"] == "proclamation" else " %d" % rec["value"])]
    if "icons" in rec:
        icons = cubes({k: v for k, v in rec["icons"].items() if v}) or "none printed"
        return ["influence card · icons: %s" % icons.replace("any", "any mission")]
    if "board" in rec:
        return ["character · %s board · costs %d cubes" % (rec["board"].capitalize(), rec["cost"])]
    return ["ambition · needs %s" % (cubes({r: rec[r] for r in RES}) or "nothing")]
