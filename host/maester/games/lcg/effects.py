"""What card abilities do to the table: the small verbs every card module shares.

Each verb changes the state through the same paths as the rules (model.move, timing.leave_play,
timing.kill, flow.enter_play) and emits an event, so the log, the views and the triggers see a
card's effect exactly as they see the game's own. Card modules (cards_*.py) build their effects
from these; a verb that two cards need lives here, once.

Steps for the verbs that ask (a search, a choice of cards) keep their progress in plain data, like
every other step.
"""

from . import abilities as A
from . import flow
from . import model as M
from . import timing as T
from .steps import step


def kneel(ctx, inst, why=None):
    c = ctx.g["cards"][inst]
    if c["zone"] == "play" and not c["kneel"]:
        c["kneel"] = True
        if ctx.events is not None:  # made only when kept: a quiet command keeps none (flow.draw)
            ctx.record("knelt", {"card": inst, "why": why})


def stand(ctx, inst, why=None):
    c = ctx.g["cards"][inst]
    if c["zone"] == "play" and c["kneel"]:
        c["kneel"] = False
        ctx.emit("stood_card", card=inst, why=why)


def lasting(g, kind, target, value, until, src):
    """A lasting effect on `target` (a card, or a seat for player effects) until the end of the
    "challenge", "phase" or "round": kinds str, icon, lose_icon, keyword, lose_keyword, blank,
    no_stand (stays kneeling through the standing phase), uncounted (STR left out of a challenge)."""
    if kind == "blank" and M.code(src) not in A.BLANKING:  # windows skip blanks in games without these cards
        raise ValueError("%s blanks a text box but is not registered with abilities.blanking" % src)
    g["effects"].append({"kind": kind, "target": target, "value": value, "until": until, "src": src})


def return_to_hand(ctx, inst, why="returned"):
    """A card in play goes back to its owner's hand (attachments and duplicates go to the discard
    pile, power to the pool)."""
    if ctx.g["cards"][inst]["zone"] == "play":
        T.leave_play(ctx, inst, "hand", why=why)


def return_to_deck(ctx, inst, top=True, why="returned"):
    g = ctx.g
    if g["cards"][inst]["zone"] == "play":
        T.leave_play(ctx, inst, "deck", why=why)
        if not top:
            deck = g["players"][M.owner_of(inst)]["deck"]
            deck.remove(inst)
            deck.append(inst)
    else:
        M.move(g, inst, "deck", top=top)


def discard_from_hand(ctx, seat, insts, why):
    """Cards leave `seat`'s hand for its discard pile, face up: everyone sees which."""
    g = ctx.g
    for inst in insts:
        M.move(g, inst, "discard")
    if insts:
        ctx.emit("discarded_from_hand", seat=seat, cards=list(insts), why=why)


def random_from_hand(ctx, seat, n):
    """`n` cards of `seat`'s hand drawn at random by the host (sorted first, so the draw does not
    depend on the order the hand was filled in)."""
    hand = sorted(ctx.g["players"][seat]["hand"])
    picked = []
    for _ in range(min(n, len(hand))):
        picked.append(hand.pop(ctx.chance.below(len(hand))))
    return picked


def discard_at_random(ctx, seat, n):
    """`seat` discards `n` cards at random, drawn by the host from the hand it knows: the table
    hears how many, only the seat hears which (the cards then lie face up in its discard pile)."""
    picked = random_from_hand(ctx, seat, n)
    for inst in picked:
        M.move(ctx.g, inst, "discard")
    if picked:
        ctx.emit("discarded_at_random", seat=seat, count=len(picked))
        ctx.emit("discarded_cards", vis=[seat], seat=seat, cards=picked)
    return picked


def shuffle_deck(ctx, seat):
    """Shuffle `seat`'s deck; a real deck (observed draws) is shuffled by hand and its order was
    never known."""
    g = ctx.g
    if not g["observe_draws"]:
        ctx.chance.shuffle(g["players"][seat]["deck"])
    else:
        g["players"][seat]["deck"].sort()
    ctx.emit("shuffled", seat=seat)


def reveal(ctx, seat, insts, why):
    ctx.emit("revealed", seat=seat, cards=list(insts), why=why)
    if insts:
        T.trigger(ctx, {"e": "cards_revealed", "seat": seat, "cards": list(insts), "why": why}, seat)


def put_into_play(ctx, seat, inst, how="put", controller=None):
    """Put `inst` into play for `controller` (default `seat`), from wherever it is, bypassing cost
    and the marshalling rules (rulebook: "put into play" bypasses all restrictions but uniqueness)."""
    flow.enter_play(ctx, seat if controller is None else controller, inst, how=how)


def extra_challenge(ctx, seat, ctype):
    """`seat` may make one more challenge of `ctype` this phase."""
    made = ctx.g["players"][seat]["challenges_made"]
    if ctype in made:
        made.remove(ctype)
    ctx.emit("extra_challenge", seat=seat, type=ctype)


# --- searching a deck -----------------------------------------------------------------------------

def search(ctx, seat, pred, then, why, whose=None, up_to=1):
    """`seat` searches `whose` deck (its own by default) for up to `up_to` cards matching the named
    predicate `pred` (abilities.PREDICATES, registered by the card modules), then `then` ("hand",
    "play", "attach:<inst>"), and shuffles. With a real deck the owner searches it by hand and taps
    what they took; the host offers only the cards that match, so a card that does not is refused."""
    ctx.push({"s": "search_deck", "seat": seat, "whose": seat if whose is None else whose, "pred": pred,
              "then": then, "why": why, "left": up_to})


@step
def search_deck(ctx, st, answer):
    g = ctx.g
    state = ctx.state
    seat, whose = st["seat"], st["whose"]
    deck = g["players"][whose]["deck"]
    if answer is not None:
        choice = answer[1]
        if choice[0] == "take":
            inst = choice[1]
            st["left"] -= 1
            reveal(ctx, seat, [inst], st["why"])
            then = st["then"]
            if then == "hand":
                M.move(g, inst, "hand")
            elif then == "play":
                put_into_play(ctx, seat, inst, how=st["why"])
            elif then.startswith("attach:"):
                host = then.split(":", 1)[1]
                M.take_out(g, inst)
                g["cards"][inst].update(zone="dup", on=host)
                g["cards"][host]["dups"] = g["cards"][host]["dups"] + [inst]  # a new list: model.dropped
                ctx.emit("duplicate", seat=seat, card=inst, on=host)
        else:
            st["left"] = 0
    # Nothing left to take (the last card taken, or "none"): no card of the deck needs judging.
    # The predicate read once, not once per card of the deck (a module attribute and a dict look-up each).
    fits = []
    if st["left"] > 0:
        fits_pred = A.PREDICATES[st["pred"]]
        fits = [i for i in sorted(deck) if fits_pred(state, i, seat)]
    if fits:
        ctx.ask(seat, "search", [["take", i] for i in fits] + [["none"]],
                "Search the deck: take a card (%s)" % st["why"], public="searches a deck")
        return
    shuffle_deck(ctx, whose)


def add_reducer_if(ctx, seat, amount, src, houses=None, kind=None, icon=None):
    """The next card `seat` plays this phase of any of `houses` (a list), of `kind` ("character"...)
    and/or with printed challenge `icon` costs `amount` gold less (Sunset Sea: a Lannister or Greyjoy
    character; Shadowblack Lane: one with an intrigue icon). marshal_reducer registers the usual cards."""
    ctx.g["players"][seat]["reducers"].append({"amount": amount, "house": list(houses) if houses else None,
                                               "kind": kind, "icon": icon, "src": src})
    if ctx.events is not None:  # made only when kept (flow.draw)
        ctx.record("reducer", {"seat": seat, "card": src, "amount": amount})


# --- a location played onto its owner's House card (the four Chambers) -----------------------------

def on_house(state, inst):
    """Whether `inst` was played onto its controller's House card: it then counts as an attachment
    there, is no location a card may choose, and still gives its income and influence."""
    return any(e["kind"] == "on_house" and e["target"] == inst for e in state["g"]["effects"])


def may_play_on_house(state, src, seat, ev=None):
    return M.house_ok(state, seat, src) and M.can_enter_play(state, seat, src) \
        and M.spendable_gold(state, seat) >= M.gold_cost(state, seat, src)


def play_on_house(ctx, src, seat, target=None, ev=None):
    """Marshal `src` from hand onto `seat`'s House card, for its gold cost (reductions used)."""
    g = ctx.g
    if g["cards"][src]["zone"] != "hand":
        return
    flow.pay_for(ctx, seat, src)
    T.trigger(ctx, {"e": "played", "card": src, "seat": seat, "type": "attachment", "on": None}, seat)
    ctx.emit("marshalled", seat=seat, card=src, on_house=True)
    flow.enter_play(ctx, seat, src, how="marshal", announce=False)
    lasting(g, "on_house", src, seat, "game", src)  # held while it stays in play


def house_card_location(code):
    """Register a Chambers: Marshalling, from hand, it may be played onto your House card."""
    A.card(code, A.Ability("action", play_on_house, phases=("marshalling",), from_hand=True, when=may_play_on_house))


# --- the common shape of the Core's cost reducers ------------------------------------------------------

def marshal_reducer(codes, amount, houses=None, kind=None, icon=None, cost="kneel_self"):
    """Register "Marshalling: kneel (or discard) this card: the next <House> <kind> card you play
    this phase costs `amount` gold less" for `codes` (a card and its copies): the Fiefdoms, the
    halls, the seas and their like differ only in these values."""

    def reduce(ctx, src, seat, target, ev):
        add_reducer_if(ctx, seat, amount, src, houses=houses, kind=kind, icon=icon)

    A.card(codes, A.Ability("action", reduce, phases=("marshalling",), cost=((cost,),)))
