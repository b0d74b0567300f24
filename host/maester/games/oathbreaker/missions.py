"""A Mission Round: deal missions, each noble's turn (cards face down, the House Sigil, refill),
the abilities used once every noble has played, resolution in the King's order, the end of round.

Secrecy of the face-down cards. A mission's pile is kept in play order in the state, but nothing
that leaves the engine shows that order: views show how many cards each seat put there (which
everyone saw), the public events of a turn name the seat and the mission but never the card, and
a reveal lists the pile sorted by card id. Chance that touches a pile (Battle of the Bay) draws
from the sorted pile, so which card goes cannot depend on who played what either.
"""

from . import abilities as A
from . import zones as Z
from .zones import step


def new_mission(g, inst):
    rec = Z.info(g, inst)
    return {"card": inst, "type": rec["influence"], "ability": rec["ability"], "amount": rec.get("amount", 0),
            "cards": [], "face_up": [], "counts": [0] * g["n"], "sigils": [], "extra": 0, "taken": 0,
            "result": None}


def _deal_mission(ctx, st, inst):
    g = ctx.g
    g["missions"].append(new_mission(g, inst))
    ctx.emit("mission", mission=len(g["missions"]) - 1, card=inst)
    if Z.info(g, inst)["ability"] == "pincer":
        st["want"] += 1  # Pincer Maneuver brings one more mission at once


@step
def mission_round(ctx, st, answer):
    """Deal the missions (observed: the King turns each up and taps it on its reader), then the
    face-down cards some missions take, then the turns."""
    g = ctx.g
    if "want" not in st:
        st["want"] = g["track"][g["space"]]["banners"]
        g["missions"] = []
    if answer is not None:
        inst = answer[1][1]
        g["mission_deck"].remove(inst)
        _deal_mission(ctx, st, inst)
    while len(g["missions"]) < st["want"] and g["mission_deck"]:
        if g["observe_missions"]:
            k = len(g["missions"])
            ctx.ask(g["king"], "observe_mission", [["mission", c] for c in sorted(g["mission_deck"])],
                    "Turn up mission %d from the mission deck and tap it on the reader of its place." % (k + 1),
                    public="turning up the missions", mission=k)
            return
        _deal_mission(ctx, st, g["mission_deck"].pop())
    if len(g["missions"]) < st["want"]:
        ctx.emit("mission_deck_empty", short=st["want"] - len(g["missions"]))
    # Once every mission is out: cards from the deck, face down (mission text, then the optional rule).
    extras = []
    for i, m in enumerate(g["missions"]):
        k = m["amount"] if m["ability"] == "extra_cards" else 0
        k += 1 if g["night"] else 0
        if k and g["observe_hands"]:
            extras.append({"s": "observe_extra", "mission": i, "left": k})
            continue
        for _ in range(k):
            inst = Z.take_from_deck(ctx)
            if inst is None:
                break
            m["cards"].append(inst)
            m["extra"] += 1
        if k:
            ctx.emit("face_down", mission=i, count=m["extra"])
    # Decrees from the last Decree Round that bind this round.
    g["cells"] = g["pending_cells"]
    g["pending_cells"] = []
    cornered, g["pending_cornered"] = g["pending_cornered"], []
    order = Z.turn_order(g)
    steps = extras + [{"s": "bar", "seat": seat, "by": by} for seat, by in cornered]
    steps += [{"s": "turn", "seat": s} for s in order]
    steps += [{"s": "window", "timing": "missions_played", "left": list(order)}, {"s": "resolve"},
              {"s": "mission_end"}]
    ctx.push(*steps)


@step
def bar(ctx, st, answer):
    """Cornered: whoever played it names the mission the noble may not play to this round."""
    g = ctx.g
    seat, by = st["seat"], st["by"]
    if answer is None:
        if not g["missions"]:
            return
        ctx.ask(by, "cornered", [["bar", i] for i in range(len(g["missions"]))],
                "Cornered: name the mission seat %d may not play cards to this round." % seat,
                public="naming the mission a Cornered noble may not play to", target=seat)
        return
    i = answer[1][1]
    g["barred"].append([seat, i])
    ctx.emit("barred", seat=seat, mission=i)


_PLAY_PROMPTS = {}  # (played, needed) -> the turn's prompt


@step
def turn(ctx, st, answer):
    """One decision of a noble's turn: a card to a mission, the ability, or done. After a card, the
    same step asks the next decision at once (what a fresh turn step would do, without one)."""
    g = ctx.g
    seat = st["seat"]
    if answer is not None:
        choice = answer[1]
        if choice[0] == "play":
            Z.play_card(ctx, seat, choice[1], choice[2])
        elif choice[0] == "ability":
            A.pay(ctx, seat, choice[1:])
            ctx.push(*A.steps_for(g, seat), {"s": "turn", "seat": seat})
            return
        else:
            ctx.push({"s": "sigil", "seat": seat})
            return
    played, needed, room, targets, must = Z.play_state(g, seat)
    choices = [["play", c, i] for c in g["hands"][seat] for i in targets] if room else []
    choices += A.choices(g, seat, "mission_turn", room)
    if room == 0 or (played >= needed and not must):
        if not choices:  # nothing to play and nothing to use: done without asking
            ctx.push({"s": "sigil", "seat": seat})
            return
        choices.append(["done"])
    if room == 0 or not must:
        prompt = _PLAY_PROMPTS.get((played, needed))
        if prompt is None:  # made once: formatting it was a tenth of the turn's cost
            prompt = _PLAY_PROMPTS[played, needed] = (
                "Play a card face down to a mission (%d played, at least %d), or done." % (played, needed))
    else:
        prompt = "You must play a card to Infiltrate Dorne."
    ctx.ask(seat, "play", choices, prompt, "playing influence cards")  # the public words by position: no keyword to parse


@step
def sigil(ctx, st, answer):
    """The House Sigil goes where the noble played the most cards (their choice on a tie), then refill."""
    g = ctx.g
    seat = st["seat"]
    counts = [m["counts"][seat] for m in g["missions"]]
    best = max(counts) if counts else 0  # (max with a keyword is a slow Python call)
    if answer is None:
        if best == 0:
            ctx.emit("no_sigil", seat=seat)
            Z.refill(ctx, seat)
            return
        options = [i for i, c in enumerate(counts) if c == best]
        if len(options) > 1:
            ctx.ask(seat, "sigil", [["sigil", i] for i in options],
                    "Place your House Sigil on one of the missions where you played the most cards.",
                    public="placing a House Sigil")
            return
        i = options[0]
    else:
        i = answer[1][1]
    g["missions"][i]["sigils"].append(seat)
    if ctx.events is not None:  # (quiet: no event to build)
        ctx.record("sigil", {"seat": seat, "mission": i})
    Z.refill(ctx, seat)


@step
def window(ctx, st, answer):
    """Nobles whose ability is used at this moment, from the Hand of the King clockwise, use it or pass."""
    g = ctx.g
    if answer is not None:
        seat = st["left"].pop(0)
        if answer[1][0] == "ability":
            A.pay(ctx, seat, answer[1][1:])
            ctx.push(*A.steps_for(g, seat), {"s": "window", "timing": st["timing"], "left": st["left"]})
            return
    while st["left"]:
        seat = st["left"][0]
        choices = A.choices(g, seat, st["timing"])
        if choices:
            name = Z.character(g, seat)["name"]
            ctx.ask(seat, "ability", choices + [["pass"]],
                    "Use %s's ability now (pay the cubes shown), or pass." % name,
                    public="deciding whether to use a Character Ability")
            return
        st["left"].pop(0)


@step
def resolve(ctx, st, answer):
    """The King picks the next mission to resolve."""
    g = ctx.g
    left = [i for i, m in enumerate(g["missions"]) if m["result"] is None]
    if not left:
        return
    if answer is None and len(left) > 1:
        ctx.ask(g["king"], "resolve", [["resolve", i] for i in left], "Choose the next mission to resolve.",
                public="choosing the next mission to resolve")
        return
    i = answer[1][1] if answer is not None else left[0]
    m = g["missions"][i]
    if g["observe_hands"] and m["ability"] == "discard_one" and m["cards"]:
        ctx.push({"s": "observe_unseen", "mission": i}, {"s": "resolve"})
        return
    steps = resolve_mission(ctx, i)
    ctx.push(*steps, {"s": "resolve"})


def resolve_mission(ctx, i, unseen=None):
    """Reveal and score mission `i`. `unseen`: the card Battle of the Bay discards, when it was
    observed (tapped face down) rather than drawn by the host."""
    g = ctx.g
    m = g["missions"][i]
    rec = Z.info(g, m["card"])
    pile = sorted(m["cards"])
    if m["ability"] == "discard_one" and pile:
        if unseen is None:
            unseen = pile.pop(ctx.chance.below(len(pile)))  # shuffled, one goes face down unrevealed
        else:
            pile.remove(unseen)
        m["cards"].remove(unseen)
        g["discard"].append(unseen)
        ctx.emit("discarded_unseen", mission=i)
    mtype = m["type"]
    match = sab = fail_chaos = 0
    for inst in pile:
        e = Z.card(g, inst)[1]
        a, b = e[mtype]
        match += a
        sab += b
        fail_chaos += e["fail_chaos"]
    if m["ability"] == "extra_sabotage":
        sab += m["amount"]
    # A tie fails, and so does an empty mission (no icons at all). Cards dealt face down to a mission
    # (its own text, The Night Is Dark) are shuffled in with the nobles' cards and revealed with them
    # (rulebook, "Missions": "along with any that the nobles play"): they are cards at the mission,
    # counted in the match above, so a mission holding only a dealt card can succeed.
    success = match > sab
    result = {"success": success, "match": match, "sabotage": sab, "revealed": pile, "order": 0, "chaos": 0,
              "rewards": {}, "unseen_discard": unseen is not None}
    m["result"] = result
    quiet = ctx.events is None  # a quiet command keeps no events: build none
    if not quiet:
        ctx.record("revealed", {"mission": i, "card": m["card"], "cards": list(pile)})
    if success:
        result["order"] = rec["success"]["order"]
        Z.move(ctx, "order", result["order"], "mission")
        reward = rec["success"]
    else:
        result["chaos"] = rec["failure"]["chaos"] + fail_chaos
        Z.move(ctx, "chaos", result["chaos"], "mission")
        reward = rec["failure"]
    cubes = {r: reward[r] for r in Z.RES if reward[r]}
    for seat in m["sigils"]:
        Z.gain(ctx, seat, cubes, "mission")
        if cubes:
            result["rewards"][str(seat)] = dict(cubes)
    if not quiet:
        ctx.record("mission_resolved", {"mission": i, "card": m["card"], "success": success, "match": match,
                                        "sabotage": sab, "order": result["order"], "chaos": result["chaos"],
                                        "sigils": list(m["sigils"])})
    g["history"].append({"space": g["space"], "mission": i, "card": m["card"], "type": mtype,
                         "counts": list(m["counts"]), "sigils": list(m["sigils"]), "face_up": list(m["face_up"]),
                         "extra": m["extra"], "taken": m["taken"], "revealed": list(pile),
                         "unseen_discard": unseen is not None, "success": success, "match": match,
                         "sabotage": sab, "order": result["order"], "chaos": result["chaos"]})
    if m["ability"] == "manual":
        return [{"s": "manual", "seat": g["king"], "subject": None, "what": m["card"]}]
    return []


@step
def mission_end(ctx, st, answer):
    """Played cards go to the discard pile face down, the Hand passes on, the round marker moves."""
    g = ctx.g
    for m in g["missions"]:
        g["discard"] += sorted(m["cards"])  # a pile's order would tell who played what
        m["cards"] = []
        g["missions_done"].append(m["card"])
    g["missions"] = []
    g["mine"] = [[] for _ in range(g["n"])]
    g["cells"] = []
    g["barred"] = []
    g["hand_of_king"] = Z.next_noble(g, g["hand_of_king"])
    ctx.emit("hand_of_the_king", seat=g["hand_of_king"], why="passed")
    ctx.push({"s": "advance"})
