"""Card abilities, keyed by the `ability` field of a card record in cards_db/btwixt.

`on_play` and `when_claimed` return the steps a card queues; each ability that needs a choice is a
step below. Priority of rules falls out of where each check sits: ally placement abilities are
consulted before Pulling the Strings (flow.placement_options), and Royal Decree is checked by every
influence ability that moves or discards a card.
"""

from . import zones as Z
from .zones import step

# Abilities with nothing to do when played: they act later, from the bid pile.
PASSIVE = {None, "pulling_the_strings", "contingency_plan", "royal_decree", "the_silence", "matchmaker"}
MOVABLE_COLOURS = ("red", "green", "purple")

# Every ability key the engine implements (cards_db records must use one of these, or None).
INFLUENCE_ABILITIES = PASSIVE - {None} | {
    "betrayal", "corruption", "intercepted", "bribery", "little_birds", "blood_magic",
    "shadow_assassin", "manual"}
ALLY_ABILITIES = {"jaime", "arianne", "oberyn", "varys", "jester", "ilyn", "loras", "shae", "robb",
                  "sansa", "free_placement", "manual"}


def on_play(g, seat, inst, ab):
    """The steps `inst` (with ability key `ab`, Z.ability) queues when `seat` plays it."""
    land = {"s": "land", "seat": seat, "card": inst}
    if ab in PASSIVE:
        return [land]
    if ab == "bribery":
        return [{"s": "ab_bribery", "seat": seat, "card": inst}]
    if ab == "manual":
        return [{"s": "manual", "seat": seat, "card": inst}, land]
    return [{"s": "ab_" + ab, "seat": seat, "card": inst}, land]


def when_claimed(g, seat, ally, council):
    ab = Z.ability(g, ally)
    if ab == "oberyn":
        steps = [{"s": "ab_discard", "seat": seat, "left": 2}]
        order = g["round"].get("order") or []
        if len(order) > 1:
            steps.append({"s": "ab_discard", "seat": order[1], "left": 2})
        return steps
    if ab == "varys":
        return [{"s": "ab_varys", "seat": seat}]
    if ab == "jester":
        return [{"s": "ab_look", "seat": seat, "k": 5, "kill": False}]
    if ab == "ilyn":
        return [{"s": "ab_look", "seat": seat, "k": 3, "kill": True}]
    if ab == "loras":
        return [{"s": "claim_next", "seat": seat, "into": council, "pts": False}]
    if ab == "shae":
        return [{"s": "ab_shae", "seat": seat, "council": council}]
    if ab == "robb":
        return [{"s": "ab_robb", "seat": seat, "ally": ally, "council": council}]
    if ab == "manual":
        return [{"s": "manual", "seat": seat, "card": ally}]
    return []


# --- influence cards --------------------------------------------------------------------------

@step
def ab_betrayal(ctx, st, answer):
    """Move one red, green or purple card from another bid pile into yours (optional)."""
    g = ctx.g
    seat = st["seat"]
    if answer is None:
        choices = [["take", c] for s, pile in enumerate(g["bids"]) if s != seat for c in pile
                   if Z.card(g, c)["colour"] in MOVABLE_COLOURS and not Z.protected(g, c)]
        if choices:
            ctx.ask(seat, "betrayal", choices + [["none"]], "Betrayal: take a card from a bid pile?",
                    public="resolving Betrayal")
        return
    choice = answer[1]
    if choice[0] == "take":
        inst = choice[1]
        src = Z.holder(g, inst)
        g["bids"][src].remove(inst)
        g["bids"][seat].append(inst)
        ctx.emit("bid_moved", card=inst, frm=src, to=seat, why="betrayal")


@step
def ab_corruption(ctx, st, answer):
    """Move a power token from a leader's council to that leader's other council."""
    g = ctx.g
    if answer is None:
        choices = []
        for c, council in enumerate(g["councils"]):
            if council["tokens"]:
                targets = sorted({Z.other_council(g, s, c) for s in Z.seats_of(g, c)} - {c})
                choices += [["move", tok, t] for tok in council["tokens"] for t in targets]
        if choices:
            ctx.ask(st["seat"], "corruption", choices, "Corruption: move a power token.",
                    public="resolving Corruption")
        return
    _, tok, to = answer[1]
    for c, council in enumerate(g["councils"]):
        if tok in council["tokens"]:
            council["tokens"].remove(tok)
            g["councils"][to]["tokens"].append(tok)
            ctx.emit("token_moved", token=tok, frm=c, to=to, why="corruption")
            return


def ask_other_leader(ctx, seat, kind, prompt):
    """Ask `seat` to pick another leader (Intercepted, Bribery, Varys)."""
    ctx.ask(seat, kind, [["leader", s] for s in range(ctx.g["n"]) if s != seat], prompt,
            public="choosing a leader")


@step
def ab_intercepted(ctx, st, answer):
    """Choose a leader; while this card lies in your bid pile this round, you see their hand."""
    if answer is None:
        return ask_other_leader(ctx, st["seat"], "intercepted", "Intercepted: whose hand will you watch this round?")
    target = answer[1][1]
    ctx.g["peeks"].append([st["card"], target])
    ctx.emit("peek", card=st["card"], seat=st["seat"], target=target)


@step
def ab_bribery(ctx, st, answer):
    """Bribery goes into another leader's bid pile; it returns to that leader's hand after the bid."""
    if answer is None:
        return ask_other_leader(ctx, st["seat"], "bribery", "Bribery: into whose bid pile?")
    target = answer[1][1]
    ctx.g["bids"][target].append(st["card"])
    ctx.emit("bid_moved", card=st["card"], frm=st["seat"], to=target, why="bribery")


@step
def ab_little_birds(ctx, st, answer):
    g = ctx.g
    if g["current"] is None or not g["supply"]:
        return
    tok = g["supply"].pop()
    g["current_tokens"].append(tok)
    ctx.emit("token_on_ally", token=tok, ally=g["current"])


@step
def ab_shadow_assassin(ctx, st, answer):
    g = ctx.g
    if g["current"] is not None:
        Z.kill(ctx, g["current"], "current")


@step
def ab_blood_magic(ctx, st, answer):
    g = ctx.g
    if not Z.allies_ready(ctx, st, 1):
        return
    if g["current"] is not None:
        Z.kill(ctx, g["current"], "current")
    ally = Z.next_ally(ctx)
    if ally is not None:
        g["current"] = ally
        g["round"]["ignore_pts"] = True
        ctx.emit("ally_revealed", ally=ally, extra=True)


# --- allies -----------------------------------------------------------------------------------

@step
def ab_discard(ctx, st, answer):
    """Oberyn Martell: discard cards of your choice, one at a time."""
    g = ctx.g
    seat = st["seat"]
    if answer is not None:
        inst = answer[1][1]
        g["hands"][seat].remove(inst)
        Z.discard_card(ctx, inst, "oberyn")
        ctx.emit("discarded", seat=seat, card=inst)
        st["left"] -= 1
    if st["left"] > 0 and g["hands"][seat]:
        ctx.ask(seat, "discard", [["discard", c] for c in g["hands"][seat]],
                "Discard a card (%d left)." % st["left"], public="discarding")


@step
def ab_varys(ctx, st, answer):
    """Look at another leader's hand and take a card. Only the two of them learn which."""
    g = ctx.g
    seat = st["seat"]
    if answer is None:
        return ask_other_leader(ctx, seat, "varys_leader", "Varys: whose hand do you look at?")
    choice = answer[1]
    if choice[0] == "leader":
        target = choice[1]
        ctx.emit("looked_at_hand", seat=seat, target=target)
        if g["hands"][target]:
            st["target"] = target
            ctx.ask(seat, "varys_take", [["take", c] for c in g["hands"][target]],
                    "Varys: take one card from this hand.", public="taking a card", target=target)
        return
    inst = choice[1]
    target = st["target"]
    g["hands"][target].remove(inst)
    g["hands"][seat].append(inst)
    ctx.emit("took_card", vis=[seat, target], seat=seat, target=target, card=inst)
    ctx.emit("took_card", vis=[s for s in range(g["n"]) if s not in (seat, target)] + ["public"],
             seat=seat, target=target)


@step
def ab_look(ctx, st, answer):
    """Jester of Dragonstone / Ser Ilyn Payne: look at top allies, maybe kill one, re-stack."""
    g = ctx.g
    seat = st["seat"]
    if answer is None:
        if "seen" not in st and not Z.allies_ready(ctx, st, st["k"] - (1 if g["revealed"] and g["row"] else 0)):
            return
        st["seen"] = Z.take_top_allies(ctx, st["k"])
        st["stack"] = []
        ctx.emit("saw_allies", vis=[seat], seat=seat, allies=list(st["seen"]))
        ctx.emit("looked_at_allies", seat=seat, count=len(st["seen"]))
    else:
        choice = answer[1]
        st["seen"].remove(choice[1])
        if choice[0] == "kill":
            st["kill"] = False
            g["dead"].append(choice[1])
            ctx.emit("killed", ally=choice[1], where="deck")
        else:
            st["stack"].append(choice[1])
    if st["kill"] and st["seen"]:
        ctx.ask(seat, "kill_ally", [["kill", a] for a in st["seen"]], "Kill one of these allies.",
                public="choosing an ally to kill")
    elif len(st["seen"]) > 1:
        ctx.ask(seat, "order_allies", [["top", a] for a in st["seen"]],
                "Choose the next ally to put back (the first you choose ends on top).",
                public="ordering the ally deck")
    else:
        st["stack"] += st["seen"]
        Z.put_allies_on_top(ctx, st["stack"])


@step
def ab_shae(ctx, st, answer):
    """Move an ally from your other council into Shae's."""
    g = ctx.g
    seat, shae_council = st["seat"], st["council"]
    other = Z.other_council(g, seat, shae_council)
    if answer is None:
        allies = g["councils"][other]["allies"]
        if allies:
            ctx.ask(seat, "shae", [["move", a] for a in allies],
                    "Shae: move an ally from your other council into hers.", public="resolving Shae")
        return
    ally = answer[1][1]
    g["councils"][other]["allies"].remove(ally)
    g["councils"][shae_council]["allies"].append(ally)
    ctx.emit("ally_moved", ally=ally, frm=other, to=shae_council, why="shae")


def _betrayal_in_hand(g, seat):
    return next((c for c in g["hands"][seat] if c.startswith("betrayal#")), None)


@step
def ab_robb(ctx, st, answer):
    """Each other leader in turn may discard a Betrayal to kill Robb; the claimer may cancel.

    Every leader is asked, holding a Betrayal or not, so the question itself reveals nothing.
    """
    g = ctx.g
    seat = st["seat"]
    if answer is not None:
        ask, choice = answer
        who = ask["seat"]
        if choice[0] == "betray":
            inst = _betrayal_in_hand(g, who)
            g["hands"][who].remove(inst)
            Z.discard_card(ctx, inst, "robb")
            ctx.emit("discarded", seat=who, card=inst, why="robb")
            if who == seat:  # the claimer cancelled
                ctx.emit("robb_saved", seat=seat)
                return
            st["killer"] = who
            betray = [["betray"]] if _betrayal_in_hand(g, seat) else []
            ctx.ask(seat, "robb_cancel", betray + [["accept"]],
                    "A Betrayal is aimed at Robb Stark. Discard one of yours to save him?",
                    public="deciding whether to save Robb Stark")
            return
        if choice[0] == "accept":
            Z.kill(ctx, st["ally"], st["council"])
            return
        st["i"] = st.get("i", 1) + 1
    i = st.get("i", 1)
    if i >= g["n"]:
        return
    who = (seat + i) % g["n"]
    st["i"] = i
    betray = [["betray"]] if _betrayal_in_hand(g, who) else []
    ctx.ask(who, "robb_kill", betray + [["decline"]],
            "Discard a Betrayal to kill Robb Stark?", public="deciding whether to betray Robb Stark")


# --- resolving by hand --------------------------------------------------------------------------

@step
def manual(ctx, st, answer):
    """A card whose printed ability the engine does not know: the players resolve it by hand.

    The engine offers the primitive changes a B'Twixt ability can make and records each one, so
    the state keeps matching the table. "done" closes it.
    """
    g = ctx.g
    seat = st["seat"]
    if answer is not None:
        choice = answer[1]
        if choice[0] == "done":
            ctx.emit("resolved_by_hand", seat=seat, card=st["card"])
            return
        _manual_edit(ctx, seat, choice)
    rec = Z.card(g, st["card"])
    prompt = _MANUAL_PROMPTS.get(rec["name"])
    if prompt is None:  # asked again after every change: the words are made once a card
        prompt = _MANUAL_PROMPTS[rec["name"]] = "Resolve %s by hand: record each change it makes, then choose done." % rec["name"]
    # The public words by position: no keyword to parse.
    ctx.ask(seat, "manual", manual_choices(g, seat, rec), prompt, "resolving a card by hand")


_MANUAL_PROMPTS = {}  # a card's name -> the prompt of resolving it by hand


def manual_choices(g, seat, rec):
    """The changes `seat` may record while resolving the card `rec` (its printed record) by hand,
    "done" first. (Asked again after each change: in random games, most of this card's work.)"""
    edit = Z.facts(g)["edit"]  # a card's choice lists, made once per card table
    choices = [["done"]]
    mine = Z.councils_of(g, seat)
    for c in mine:
        choices.append(["gain_token", c])
    kill = edit["kill"]
    if g["current"] is not None:
        choices.append(kill[g["current"]])
    for council in g["councils"]:
        for a in council["allies"]:
            choices.append(kill[a])
    if g["ally_deck"] or g["row"]:
        for c in mine:
            choices.append(["claim_next", c])
    for a in g["dead"]:
        for c in mine:
            choices.append(["claim_dead", a, c])
    # Royal Decree cannot be moved by another influence card's ability (an ally's may move it).
    shielded = Z.having(g, "royal_decree") if rec["type"] == "influence" else ()
    take = edit["take_bid"]
    for s, pile in enumerate(g["bids"]):
        if s != seat:
            for x in pile:
                if x not in shielded:
                    choices.append(take[x])
    back = edit["bid_to_hand"]
    for x in g["bids"][seat]:
        if x not in shielded:
            choices.append(back[x])
    discard = edit["discard"]
    for x in g["hands"][seat]:
        choices.append(discard[x])
    return choices


def _manual_edit(ctx, seat, choice):
    g = ctx.g
    op = choice[0]
    if ctx.events is not None:  # (quiet: no event to build; a change by hand is a fifth of the decisions)
        ctx.record("manual", {"seat": seat, "op": op, "args": choice[1:] if op != "discard" else []})
    if op == "gain_token":
        Z.gain_token(ctx, seat, choice[1], why="by hand")
    elif op == "kill":
        where = "current" if choice[1] == g["current"] else next(
            i for i, c in enumerate(g["councils"]) if choice[1] in c["allies"])
        Z.kill(ctx, choice[1], where)
    elif op == "claim_next":
        ctx.push({"s": "claim_next", "seat": seat, "into": choice[1], "pts": False})
    elif op == "claim_dead":
        g["dead"].remove(choice[1])
        g["councils"][choice[2]]["allies"].append(choice[1])
        ctx.emit("ally_claimed", seat=seat, ally=choice[1], council=choice[2], why="by hand")
    elif op == "take_bid":
        src = Z.holder(g, choice[1])
        g["bids"][src].remove(choice[1])
        g["bids"][seat].append(choice[1])
    elif op == "bid_to_hand":
        g["bids"][seat].remove(choice[1])
        g["hands"][seat].append(choice[1])
    elif op == "discard":
        g["hands"][seat].remove(choice[1])
        Z.discard_card(ctx, choice[1], "by hand")
        ctx.emit("discarded", seat=seat, card=choice[1])
