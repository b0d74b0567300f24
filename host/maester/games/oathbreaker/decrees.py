"""A Decree Round: the monarchs' decrees (Favors, Suspicions, Proclamations), what each decree does,
Daenerys's sideways decrees, the 8-player trade, and refilling the decree hands.

The spread rule: a monarch may only play a Favor or Suspicion on a noble of their side holding the
fewest decrees (Daenerys's sideways decrees do not count; decrees given by vote do). The decree
that a monarch plays is public; the hand it came from is theirs (and their partner's) alone.
"""

from . import zones as Z
from .zones import step


@step
def decree_round(ctx, st, answer):
    g = ctx.g
    space = g["track"][g["space"]]
    steps = []
    if not g["trade_used"]:
        steps.append({"s": "trade"})
    if g["queen"] is None:
        steps.append({"s": "play_decree", "seat": g["king"], "left": space["scrolls"]})
    else:  # each monarch plays one decree, on their own side of the table
        steps += [{"s": "play_decree", "seat": m, "left": 1} for m in g["monarchs"]]
    steps += [{"s": "window", "timing": "decree_round", "left": Z.turn_order(g)},
              {"s": "decree_refill"}, {"s": "advance"}]
    ctx.push(*steps)


@step
def trade(ctx, st, answer):
    """8 players: once a game the King and Queen may each give the other one decree card."""
    g = ctx.g
    king, queen = g["king"], g["queen"]
    if answer is None and "offer" in st:
        return _ask_queen(ctx, queen)
    if answer is None:
        if not g["decree_hands"][king] or not g["decree_hands"][queen]:
            return
        ctx.ask(king, "trade_offer", [["offer", c] for c in g["decree_hands"][king]] + [["no_trade"]],
                "Offer the Queen one of your decrees in the once-a-game trade, or not now.",
                public="deciding on the monarchs' trade")
        return
    choice = answer[1]
    if choice[0] == "no_trade":
        return
    if choice[0] == "offer":
        st["offer"] = choice[1]
        return _ask_queen(ctx, queen)
    if choice[0] == "decline":
        ctx.emit("trade_declined")
        return
    give, back = st["offer"], choice[1]
    g["decree_hands"][king].remove(give)
    g["decree_hands"][queen].remove(back)
    g["decree_hands"][king].append(back)
    g["decree_hands"][queen].append(give)
    g["trade_used"] = True
    ctx.emit("traded", vis=[king, queen], king_gave=give, queen_gave=back)
    ctx.emit("monarchs_traded")


def _ask_queen(ctx, queen):
    ctx.ask(queen, "trade_accept", [["accept", c] for c in ctx.g["decree_hands"][queen]] + [["decline"]],
            "Accept the trade by choosing the decree you give back, or decline.",
            public="deciding on the monarchs' trade")


def decree_options(g, seat, inst, targets):
    rec = Z.info(g, inst)
    if rec["decree"] == "proclamation" or rec["ability"] == "vote":
        return [["decree", inst]]
    return [["decree", inst, t] for t in targets]


@step
def play_decree(ctx, st, answer):
    g = ctx.g
    seat = st["seat"]
    hand = g["decree_hands"][seat]
    if answer is None:
        if st["left"] <= 0 or not hand:
            return
        targets = Z.spread_targets(g, seat)
        choices = [c for inst in hand for c in decree_options(g, seat, inst, targets)]
        ctx.ask(seat, "decree", choices, "Play a decree (%d to play this round)." % st["left"],
                public="playing a decree")
        return
    choice = answer[1]
    inst = choice[1]
    hand.remove(inst)
    target = choice[2] if len(choice) > 2 else None
    ctx.push(*enact(ctx, seat, inst, target, sideways=False), {"s": "play_decree", "seat": seat, "left": st["left"] - 1})


def place(ctx, actor, inst, target, sideways, how="played"):
    g = ctx.g
    g["decrees"][target].append({"card": inst, "by": actor, "sideways": sideways})
    ctx.emit("decree", card=inst, by=actor, target=target, sideways=sideways, how=how)


def enact(ctx, actor, inst, target, sideways):
    """Play a decree: the steps it queues. `target` is None for Proclamations and vote decrees."""
    g = ctx.g
    rec = Z.info(g, inst)
    key = rec["ability"]
    if rec["decree"] == "proclamation":
        g["resolving"].append(inst)
        ctx.emit("proclamation", card=inst, by=actor)
        steps = [_ability_step(key, actor, inst, None, sideways)] if key else []
        return [s for s in steps if s] + [{"s": "to_bottom", "card": inst}]
    if key == "vote":
        g["resolving"].append(inst)
        ctx.emit("vote_called", card=inst, by=actor)
        return [{"s": "vote", "card": inst, "actor": actor, "sideways": sideways,
                 "left": Z.turn_order(g), "votes": []}]
    place(ctx, actor, inst, target, sideways)
    s = _ability_step(key, actor, inst, target, sideways)
    return [s] if s else []


def _ability_step(key, actor, inst, target, sideways):
    if key is None:
        return None
    if key == "manual":
        return {"s": "manual", "seat": actor, "subject": target, "what": inst}
    return {"s": "dec_" + key, "actor": actor, "card": inst, "target": target, "sideways": sideways}


@step
def to_bottom(ctx, st, answer):
    """A Proclamation goes to the bottom of the decree deck once its effect is over."""
    ctx.g["resolving"].remove(st["card"])
    Z.decree_to_bottom(ctx.g, st["card"])
    ctx.emit("to_bottom", card=st["card"])


@step
def decree_refill(ctx, st, answer):
    g = ctx.g
    if g["observe_hands"]:  # the monarchs tap what they drew, the King first
        Z.observe_draws(ctx, [[m, g["decree_hand_size"] - len(g["decree_hands"][m])] for m in g["monarchs"]],
                        "refill")
        return
    for m in g["monarchs"]:
        Z.draw_decrees(ctx, m)


# --- decree abilities ---------------------------------------------------------------------------

@step
def dec_black_cells(ctx, st, answer):
    ctx.g["pending_cells"].append(st["target"])
    ctx.emit("black_cells", seat=st["target"])


@step
def dec_cornered(ctx, st, answer):
    ctx.g["pending_cornered"].append([st["target"], st["actor"]])
    ctx.emit("cornered", seat=st["target"], by=st["actor"])


@step
def dec_execution(ctx, st, answer):
    """The noble's board turns over: the other side's character and ability; the cubes stay."""
    g = ctx.g
    seat = st["target"]
    old = g["characters"][seat]
    info = Z.table(g)["info"]
    board = info[old]["board"]
    new = next(c for c in Z.table(g)["character_ids"] if c != old and info[c]["board"] == board)
    g["characters"][seat] = new
    ctx.emit("executed", seat=seat, was=old, now=new)


@step
def dec_spy(ctx, st, answer):
    """The one who played it looks at the noble's influence cards."""
    g = ctx.g
    actor, seat = st["actor"], st["target"]
    hand = sorted(g["hands"][seat])
    g["notes"][actor].append({"what": "hand", "space": g["space"], "seat": seat, "cards": hand})
    ctx.emit("saw_hand", vis=[actor], seat=actor, target=seat, cards=hand)
    ctx.emit("looked_at_hand", seat=actor, target=seat)


@step
def dec_broken_trust(ctx, st, answer):
    """One more decree at once: from the monarch's hand, or Daenerys's ability again for free."""
    g = ctx.g
    actor = st["actor"]
    if actor in g["monarchs"]:
        ctx.push({"s": "play_decree", "seat": actor, "left": 1})
    else:
        ctx.push({"s": "ab_daenerys", "seat": actor})


@step
def dec_confess(ctx, st, answer):
    """Every noble with cards discards one face down; the monarch looks at one; all go to the pile."""
    g = ctx.g
    actor = st["actor"]
    if answer is None:
        st["phase"] = "discard"
        for seat in Z.turn_order(g):
            if g["hands"][seat]:
                ctx.ask(seat, "confess", [["discard", c] for c in g["hands"][seat]],
                        "Confess!: discard one card face down in front of you.", public="discarding for Confess!")
        if not ctx.asked:
            ctx.emit("confessed", seats=[])
        return
    ask, choice = answer
    if st["phase"] == "discard":
        seat = ask["seat"]
        g["hands"][seat].remove(choice[1])
        g["confessed"].append([seat, choice[1]])
        ctx.emit("confess_discard", seat=seat)
        if ctx.state["asks"]:
            return  # others still choosing
        seats = sorted(s for s, _ in g["confessed"])
        st["phase"] = "look"
        ctx.ask(actor, "confess_look", [["look", s] for s in seats],
                "Confess!: choose the noble whose discard you look at.", public="choosing a discard to look at")
        return
    seat = choice[1]
    card = next(c for s, c in g["confessed"] if s == seat)
    g["notes"][actor].append({"what": "confess", "space": g["space"], "seat": seat, "card": card})
    ctx.emit("saw_discard", vis=[actor], seat=actor, target=seat, card=card)
    ctx.emit("looked_at_discard", seat=actor, target=seat)
    for s, c in g["confessed"]:
        g["discard"].append(c)
    g["confessed"] = []


@step
def vote(ctx, st, answer):
    """Nobles vote in turn from the Hand; most votes takes the decree; the one who played it breaks ties.

    Whoever played it is Daenerys when she did: she votes as a noble, breaks ties, and may not take
    it herself, so nobody is offered a vote for her.
    """
    g = ctx.g
    actor = st["actor"]
    if answer is not None:
        ask, choice = answer
        if choice[0] == "vote_for":
            st["left"].pop(0)
            st["votes"].append([ask["seat"], choice[1]])
            ctx.emit("voted", seat=ask["seat"], target=choice[1])
        else:
            _give(ctx, st, choice[1], "tie broken")
            return
    if st["left"]:
        seat = st["left"][0]
        ctx.ask(seat, "vote", [["vote_for", s] for s in g["nobles"] if s not in (seat, actor)],
                "Vote for the noble who receives %s." % Z.info(g, st["card"])["name"], public="voting")
        return
    tally = {}
    for _, t in st["votes"]:
        tally[t] = tally.get(t, 0) + 1
    if not tally:  # nobody else got a vote: every other noble is tied on none
        tally = {s: 0 for s in g["nobles"] if s != actor}
    best = max(tally.values())
    tied = sorted(s for s, k in tally.items() if k == best)
    if len(tied) == 1:
        _give(ctx, st, tied[0], "most votes")
        return
    ctx.ask(actor, "tie_break", [["give", s] for s in tied],
            "The vote is tied: choose who receives %s." % Z.info(g, st["card"])["name"], public="breaking a tie")


def _give(ctx, st, target, how):
    ctx.g["resolving"].remove(st["card"])
    place(ctx, st["actor"], st["card"], target, st["sideways"], how=how)


# --- Daenerys Targaryen ----------------------------------------------------------------------------

@step
def ab_daenerys(ctx, st, answer):
    """Turn decrees over until a Favor or Suspicion (Proclamations to the bottom), then play it sideways
    on another noble, free of the spread rule, following its text as though she were the King."""
    g = ctx.g
    seat = st["seat"]
    if g["observe_hands"] and st.get("card") is None:
        if not _observe_turned_over(ctx, st, answer):
            return
        answer = None
    if answer is None and st.get("card") is None:
        deck = g["decree_deck"]
        for _ in range(len(deck)):
            inst = deck.pop()
            if Z.info(g, inst)["decree"] != "proclamation":
                break
            deck.insert(0, inst)
            ctx.emit("revealed_decree", card=inst, to="bottom")
        else:
            ctx.emit("no_decree_found", seat=seat)
            return
        ctx.emit("revealed_decree", card=inst, to="daenerys")
        g["resolving"].append(inst)
        st["card"] = inst
    if answer is None:
        inst = st["card"]
        others = [s for s in g["nobles"] if s != seat]
        ctx.ask(seat, "decree", decree_options(g, seat, inst, others),
                "Daenerys: play %s on another noble." % Z.info(g, inst)["name"], public="playing a decree")
        return
    choice = answer[1]
    target = choice[2] if len(choice) > 2 else None
    g["resolving"].remove(st["card"])
    ctx.push(*enact(ctx, seat, st["card"], target, sideways=True))


def _observe_turned_over(ctx, st, answer):
    """Observed: Daenerys turns decrees over from the top and taps each. True once a Favor or
    Suspicion is found (it is then st["card"]); False while she still taps, or when none is found."""
    g = ctx.g
    seat = st["seat"]
    deck = g["decree_deck"]
    st.setdefault("tries", len(deck))  # every card of the deck is turned over at most once
    if answer is not None:
        inst = answer[1][1]
        if not Z.decree_on_top(g, inst):
            ctx.emit("tap_refused", vis=[seat], seat=seat, card=inst, why="not on top of the decree deck")
        else:
            Z.take_decree(g, inst)
            st["tries"] -= 1
            if Z.info(g, inst)["decree"] != "proclamation":
                ctx.emit("revealed_decree", card=inst, to="daenerys")
                g["resolving"].append(inst)
                st["card"] = inst
                return True
            Z.decree_to_bottom(g, inst)
            ctx.emit("revealed_decree", card=inst, to="bottom")
    if st["tries"] <= 0 or not deck:
        ctx.emit("no_decree_found", seat=seat)
        return False
    ctx.ask(seat, "observe_decree", Z.decree_choices(g),
            "Daenerys: turn over the top decree of the decree deck and tap it on your reader.",
            public="turning over decrees")
    return False
