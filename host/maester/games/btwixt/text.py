"""B'Twixt events as one readable line each, for the table log and the terminal.

`describe_event(g, event, viewer, cards)` takes the game data `g` (the engine's state["g"] or a
view of it), an event as `viewer` received it, and optionally the card table of the config (for
card and leader names when `g` is a view, which holds neither). It returns None for an event the
viewer may not see. Power token values are never named before `tokens_revealed`.
"""

from ...engine import PUBLIC
from ..text import generic_line, hidden_from, variants_words, winners_line

COUNCIL_WORD = "council"


class Names:
    """Card and leader names from whatever is at hand: the config's card table or state["g"]."""

    def __init__(self, g, cards=None):
        cards = cards or {}
        self.g = g
        self.info = cards.get("info") or g.get("info") or {}
        self.leader_names = cards.get("leader_names") or {}

    def leader(self, seat):
        if seat is None:
            return "nobody"
        lid = self.g["leaders"][seat]
        return self.leader_names.get(lid) or lid.replace("-", " ").title()

    def seat(self, seat):
        return "%s (seat %d)" % (self.leader(seat), seat)

    def card(self, inst):
        rec = self.info.get(inst.split("#", 1)[0])
        if rec is None:
            return inst
        if rec["type"] == "ally":
            return "%s (power %d)" % (rec["name"], rec["power"])
        return "%s (%d)" % (rec["name"], rec["value"])

    def cards(self, insts):
        return ", ".join(self.card(c) for c in insts) or "nothing"

    def council(self, c):
        n = len(self.g["leaders"])
        return "council %d (%s & %s)" % (c, self.leader(c), self.leader((c + 1) % n))


# A choice's first word as a button says it; the rest of the choice is cards, councils and leaders.
VERBS = {"take": "take", "discard": "discard", "keep": "keep", "kill": "kill", "top": "put back first",
         "card": "tap", "ally": "the ally is", "play": "play", "move": "move"}
ONE_WORD = {"kneel": "kneel", "skip": "skip this turn (The Silence)", "none": "take nothing", "decline": "decline",
            "accept": "accept", "done": "done: the card is resolved", "discard": "discard a card"}


def choice_words(nm, choice, g=None):
    """A choice (or a change recorded by hand) in words: cards, councils and leaders by their names.
    `g` (the game data) tells how many tokens lie in a council, to tell apart Corruption's buttons."""
    op, args = choice[0], choice[1:]
    if not args:
        return ONE_WORD.get(op, op.replace("_", " "))
    if op == "council":
        return nm.council(args[0])
    if op == "leader":
        return nm.leader(args[0])
    if op == "move" and len(args) == 2:  # Corruption: a face-down token, from its council to another
        frm = next((c for c, council in enumerate(g["councils"]) if args[0] in council["tokens"]), None) if g else None
        if frm is None:
            return "move a power token to %s" % nm.council(args[1])
        tokens = g["councils"][frm]["tokens"]
        which = " (token %d of %d)" % (tokens.index(args[0]) + 1, len(tokens)) if len(tokens) > 1 else ""
        return "move a power token%s from %s to %s" % (which, nm.council(frm), nm.council(args[1]))
    if op == "gain_token":
        return "gain a power token in %s" % nm.council(args[0])
    if op == "claim_next":
        return "claim the next ally into %s" % nm.council(args[0])
    if op == "claim_dead":
        return "claim %s from the dead into %s" % (nm.card(args[0]), nm.council(args[1]))
    if op == "take_bid":
        return "take %s from a bid pile into yours" % nm.card(args[0])
    if op == "bid_to_hand":
        return "take %s from your bid pile back into hand" % nm.card(args[0])
    return "%s %s" % (VERBS.get(op, op.replace("_", " ")), nm.cards(args))


def _you(names, seat, viewer):
    return "You" if viewer == seat else names.leader(seat)


def describe_event(g, event, viewer=PUBLIC, cards=None):
    """One line for `event` as `viewer` may read it, or None if it is not theirs to see."""
    if hidden_from(event, viewer):
        return None
    k = event.get("e")
    nm = Names(g, cards)
    who = lambda key="seat": _you(nm, event.get(key), viewer)  # noqa: E731
    why = event.get("why")

    if k == "setup":
        first = nm.leader(event["first"])
        variants = variants_words(event.get("variants"), "standard game")
        return "B'Twixt for %d (%s): %s. %s is first player." % (
            event["players"], variants, ", ".join(nm.leader(s) for s in range(event["players"])), first)
    if k == "season":
        return "%s begins: new hands are dealt." % event["season"].capitalize()
    if k == "hand":
        lead = "Your hand" if viewer == event["seat"] else "%s's hand" % nm.leader(event["seat"])
        return "%s: %s." % (lead, nm.cards(event["cards"]))
    if k == "leader_card":
        lead = "Your" if viewer == event["seat"] else "%s's" % nm.leader(event["seat"])
        return "%s leader card for this season: %s." % (lead, nm.card(event["card"]))
    if k == "deck_short":
        return "The influence deck ran short: %s got only %d cards." % (nm.leader(event["seat"]), event["dealt"])
    if k == "draft":
        return "Draft: keep one card from your pack and pass the rest to the %s." % event["direction"]
    if k == "ally_row":
        return "The ally row: %s." % nm.cards(event["row"])
    if k == "ally_revealed":
        if event.get("extra"):
            return "Another ally is revealed: %s." % nm.card(event["ally"])
        return "New ally up for bid: %s." % nm.card(event["ally"])
    if k == "no_ally":
        return "There is no ally left to reveal."
    if k == "play":
        return "%s %s %s." % (who(), "play" if viewer == event["seat"] else "plays", nm.card(event["card"]))
    if k == "kneel":
        return "%s %s." % (who(), "kneel" if viewer == event["seat"] else "kneels")
    if k == "skip":
        return "%s %s this turn (The Silence)." % (who(), "skip" if viewer == event["seat"] else "skips")
    if k == "bid_won":
        totals = event["totals"]
        others = ", ".join("%s %d" % (nm.leader(s), t) for s, t in enumerate(totals) if s != event["seat"])
        return "%s %s the bid with %d influence (%s)." % (
            who(), "win" if viewer == event["seat"] else "wins", totals[event["seat"]], others)
    if k == "ally_claimed":
        how = " by hand" if why == "by hand" else ""
        return "%s %s %s in %s%s." % (who(), "place" if viewer == event["seat"] else "places",
                                      nm.card(event["ally"]), nm.council(event["council"]), how)
    if k == "token_gained":
        src = {"on the ally": " (it lay on the ally)", "by hand": " (by hand)"}.get(why, "")
        return "%s %s a face-down power token in %s%s." % (
            who(), "gain" if viewer == event["seat"] else "gains", nm.council(event["council"]), src)
    if k == "token_on_ally":
        return "A face-down power token is laid on %s (Little Birds)." % nm.card(event["ally"])
    if k == "token_moved":
        return "A face-down power token moves from %s to %s (%s)." % (
            nm.council(event["frm"]), nm.council(event["to"]), (why or "moved").capitalize())
    if k == "token_returned":
        return "A power token goes back into the supply, unseen."
    if k == "supply_empty":
        return "The power token supply is empty: %s gains no token." % nm.leader(event["seat"])
    if k == "bid_moved":
        card = nm.card(event["card"])
        if why == "bribery":
            return "%s puts %s into %s's bid pile." % (nm.leader(event["frm"]), card, nm.leader(event["to"]))
        return "%s takes %s from %s's bid pile (%s)." % (
            nm.leader(event["to"]), card, nm.leader(event["frm"]), (why or "moved").capitalize())
    if k == "bid_to_hand":
        return "%s takes %s back into hand (%s)." % (nm.leader(event["seat"]), nm.cards(event["cards"]),
                                                     (why or "returned").capitalize())
    if k == "killed":
        where = event.get("where")
        place = {"current": "the ally up for bid", "deck": "the ally deck"}.get(
            where, nm.council(where) if isinstance(where, int) else "play")
        return "%s is killed (from %s)." % (nm.card(event["ally"]), place)
    if k == "discarded":
        return "%s %s %s." % (who(), "discard" if viewer == event["seat"] else "discards", nm.card(event["card"]))
    if k == "removed":
        if "card" not in event:  # a leader card thrown in unseen with a hand at a season's end
            return "A leader card of %s leaves the game (%s)." % (nm.leader(event["seat"]), why or "discarded")
        return "%s leaves the game (leader card, %s)." % (nm.card(event["card"]), why or "discarded")
    if k == "looked_at_hand":
        return "%s looks at %s's hand (Varys)." % (nm.leader(event["seat"]), nm.leader(event["target"]))
    if k == "took_card":
        taker, target = nm.leader(event["seat"]), nm.leader(event["target"])
        if viewer == event["seat"]:
            taker = "You"
        if viewer == event["target"]:
            target = "your"
        else:
            target += "'s"
        what = nm.card(event["card"]) if "card" in event else "a card"
        return "%s %s %s from %s hand." % (taker, "take" if taker == "You" else "takes", what, target)
    if k == "peek":
        return "%s will see %s's hand this round (Intercepted)." % (nm.leader(event["seat"]), nm.leader(event["target"]))
    if k == "saw_allies":
        return "%s the next allies: %s." % ("You see" if viewer == event["seat"] else nm.leader(event["seat"]) + " sees",
                                            nm.cards(event["allies"]))
    if k == "looked_at_allies":
        return "%s looks at the top %d allies of the ally deck." % (nm.leader(event["seat"]), event["count"])
    if k == "ally_moved":
        return "%s moves from %s to %s (%s)." % (nm.card(event["ally"]), nm.council(event["frm"]),
                                                 nm.council(event["to"]), (why or "moved").capitalize())
    if k == "robb_saved":
        return "%s discards a Betrayal to save Robb Stark." % nm.leader(event["seat"])
    if k == "first_player":
        return "%s %s first player." % (who(), "are now" if viewer == event["seat"] else "is now")
    if k == "round":
        return "The round token moves to space %d." % (event["round_space"] + 1)
    if k == "events_added":
        return "%d event cards are shuffled into the influence deck." % event["count"]
    if k == "manual":
        return "%s records by hand: %s." % (nm.leader(event["seat"]),
                                            choice_words(nm, [event["op"]] + list(event.get("args", []))))
    if k == "resolved_by_hand":
        return "%s finished resolving %s by hand." % (nm.leader(event["seat"]), nm.card(event["card"]))
    if k == "tapped_into_hand":  # a real table: the hand as dealt, one tap a card
        return "%s %s %s into %s hand." % (who(), "tap" if viewer == event["seat"] else "taps",
                                           nm.card(event["card"]), "your" if viewer == event["seat"] else "their")
    if k == "tap_refused":
        return "%s is not taken: %s." % (nm.card(event["card"]), why)
    if k == "tokens_revealed":
        return "The power tokens are turned face up."
    if k == "game_over":
        return "Game over after %d rounds: %s." % (event.get("rounds", 0), winners_line(nm, event["winners"]))
    return generic_line(event)


def about_lines(rec):
    """A card's facts for a person who asks; its ability is cards_db's `text` (games/text.py adds it)."""
    if "power" in rec:
        return ["ally · power %d" % rec["power"]]
    if "value" in rec:
        kind = {"standard": "influence card", "event": "event card", "leader": "leader's influence card"}
        return ["%s %s · value %d%s" % (rec.get("colour", ""), kind.get(rec.get("kind"), "influence card"),
                                        rec["value"], " · Triumph" if rec.get("triumph") else "")]
    return ["leader"]
