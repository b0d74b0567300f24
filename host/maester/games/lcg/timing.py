"""The timing framework: action windows, responses, save and cancel interrupts, costs, kills.

Action windows ("Actions and Passive Abilities"): the first player may act first; after an action
resolves the next player clockwise may act, and the window closes when every player in turn has
passed. A seat that nothing could let act is passed for without being asked (see below).

Responses ("Responses"): after a trigger, opportunities go clockwise from the left of the player
who caused it; each player may use any number of eligible responses, one at a time, and the window
closes when a whole round of players has passed. Forced (passive) triggers resolve first, in the
first player's order.

Whether a seat is asked in a window depends on public facts only (abilities.hand_may): a seat is
passed for without a question when nothing it controls can act and no card of its deck list could
act from its hand; otherwise it is asked, even with only "pass" to choose, so the table never learns
from the questions what a hand holds.

Save and cancel responses interrupt: a kill or a discard from play opens a save window before it
happens; an ability opens a cancel window after its costs are paid and before its effect, so a
cancelled ability's costs stay paid.

An ability itself resolves here too (the `ability` step): its target, its costs, the cancel window
and its effect; abilities.py says what may be used and against what.
"""

from . import abilities
from . import model as M
from .steps import step


# --- action windows -------------------------------------------------------------------------------

def open_window(ctx, phase, start=None, tag=None):
    g = ctx.g
    ctx.push({"s": "window", "phase": phase, "turn": g["first"] if start is None else start,
              "passes": 0, "tag": tag})


def window_choices(state, seat, phase, asked=False):
    """`seat`'s choices in `phase`'s action window: its actions (abilities.action_choices), then the
    gold it may give (the Littlefinger variant). `asked` (the window's own turn): "pass" ends the
    list when the seat is to be asked (it has a choice, or may hold a card for the window in hand),
    and the list is empty when it is passed for."""
    out = abilities.action_choices(state, seat, phase, asked)
    g = state["g"]
    if g["littlefinger"] and phase != "marshalling" and g["players"][seat]["gold"] > 0:
        gives = [["give", s] for s in range(g["n"]) if s != seat]
        if not asked:
            out += gives
        elif out:
            out[-1:-1] = gives  # before "pass"
        else:
            out = gives + [["pass"]]
    return out


@step
def window(ctx, st, answer):
    g = ctx.g
    n = g["n"]
    if answer is not None:
        _, choice = answer
        seat = st["turn"]
        if choice[0] == "give":
            # Handing gold over (the Littlefinger variant) is not an action: the seat keeps its turn
            # and the window does not reopen, so gifts passed to and fro cannot hold it open.
            give_gold(ctx, seat, choice[1])
            choice = None
        else:
            st["turn"] = (seat + 1) % n
        if choice is None:
            pass
        elif choice[0] == "pass":
            st["passes"] += 1
        else:
            st["passes"] = 0
            ctx.push(st)  # this window goes on once the action has resolved
            take_action(ctx, seat, choice, st["phase"])
            return
    state = ctx.state
    phase = st["phase"]
    while st["passes"] < n:
        seat = st["turn"]
        choices = window_choices(state, seat, phase, True)
        if choices:  # "pass" last: the seat has a choice, or may hold a card for the window in hand
            ctx.ask(seat, "action", choices, window_prompt(phase), public="may take an action")
            return
        st["passes"] += 1
        st["turn"] = (seat + 1) % n


_WINDOW_PROMPTS = {}  # phase -> an action window's question, made once a phase name


def window_prompt(phase):
    try:  # a subscript, not get(): compiled, a dict's get() is a method call
        return _WINDOW_PROMPTS[phase]
    except KeyError:
        prompt = _WINDOW_PROMPTS[phase] = "%s phase: take an action, or pass" % phase.capitalize()
        return prompt


def take_action(ctx, seat, choice, phase):
    """Start resolving an action chosen in a window (the window is queued under it)."""
    abilities.start(ctx, seat, choice)


def give_gold(ctx, seat, to):
    """The Littlefinger variant: one gold handed to another player, recorded as a command."""
    g = ctx.g
    g["players"][seat]["gold"] -= 1
    g["players"][to]["gold"] += 1
    ctx.emit("gold_given", seat=seat, to=to, amount=1)


# --- responses --------------------------------------------------------------------------------

# A response window step's keys in order, with the values it starts with but for its own lists:
# compiled, a literal of six keys starts as Python's smallest dict and is grown at the sixth
_RESPONSES = {"s": "responses", "ev": None, "order": None, "i": 0, "passes": 0, "used": None}


def trigger(ctx, ev, initiator, last=False):
    """Something happened that cards may respond to: forced effects, then a response window. Each is
    opened only when a card of this game has such an ability for the moment (abilities.waits_for):
    without one, the forced step would resolve nothing and the window would pass every seat unasked,
    so neither is queued (most triggers wait for one of the two only: phase_started for forced
    effects, played for responses).

    `last`: the caller's step queues nothing and moves no card after this trigger, so its forced step
    is the next step to run, once after_step has run (its watches note facts and move no card; a
    victory it finds ends the game or leaves the choice of the winner as the only step). The cards
    where the forced step would look are then where they are now, and it is not queued when none of
    the moment's forced cards is there (abilities._may_force, the forced step's own first test): most
    phases begin and most marshalled cards enter play with no forced ability able to answer."""
    g = ctx.g
    state = ctx.state
    e = ev["e"]
    forced_held, responses_held = abilities.waits_for(state, e)
    if forced_held and last:
        forced_held = abilities._may_force(g, forced_held, ev, e)
    window = None
    if responses_held:
        window = _RESPONSES.copy()  # made at its full size (see core.Ctx.ask), then filled in
        window["ev"] = ev
        window["order"] = M.left_of(g, initiator if initiator is not None else g["first"])
        window["used"] = []
    if forced_held and window is not None:
        ctx.push({"s": "forced", "ev": ev}, window)
    elif forced_held:
        ctx.push({"s": "forced", "ev": ev})
    elif window is not None:
        ctx.push(window)


@step
def forced(ctx, st, answer):
    abilities.run_forced(ctx, st["ev"])


def round_answer(st, answer):
    """In a window that goes round `st["order"]`: (seat, choice) of the seat that answered, with
    its turn moved on; None when it passed (the passes are counted)."""
    seat = st["order"][st["i"] % len(st["order"])]
    st["i"] += 1
    if answer[1][0] == "pass":
        st["passes"] += 1
        return None
    return seat, answer[1]


@step
def responses(ctx, st, answer):
    _go_round(ctx, st, answer)


def _go_round(ctx, st, answer):
    """The response window step's work, in a function of its own: compiled, its context, step and
    counts are typed (timing.pxd), as for the ability step (_resolve_ability)."""
    order = st["order"]
    n = len(order)
    if answer is not None:
        used = round_answer(st, answer)
        if used is not None:
            seat, choice = used
            st["passes"] = 0
            st["used"].append(choice[1:3])
            ctx.push(st)
            abilities.start(ctx, seat, choice, ev=st["ev"])
            return
    # The window's fields read once, its count kept in locals and written back when it stops: most
    # windows pass every seat unasked. Nothing changes while it goes round without an answer, so the
    # seats that may have a response are found once (abilities.responders) and only theirs looked for,
    # and whether a hand might hold one asked of each seat only if a deck list has such a card.
    state = ctx.state
    ev = st["ev"]
    e = ev["e"]
    i = st["i"]
    passes = st["passes"]
    found = abilities._in_game(state)  # the game's answers, looked up once for the three below
    may = abilities.responders(state, ev, found)
    hands_may = abilities.hands_may_respond(state, e, found)  # else hand_may is False for every seat
    while passes < n:
        seat = order[i % n]
        choices = abilities.response_choices(state, seat, ev, found) if seat in may else []
        if choices:
            used = st["used"]
            choices = [c for c in choices if c[1:3] not in used]
        if choices or (hands_may and abilities.hand_may(state, seat, "response", e)):
            st["i"] = i
            st["passes"] = passes
            ctx.ask(seat, "response", choices + [["pass"]], response_prompt(e), public="may respond")
            return
        passes += 1
        i += 1
    st["i"] = i
    st["passes"] = passes


_RESPONSE_PROMPTS = {}  # trigger -> a response window's question, made once a trigger


def response_prompt(e):
    try:  # a subscript, not get(): compiled, a dict's get() is a method call
        return _RESPONSE_PROMPTS[e]
    except KeyError:
        prompt = _RESPONSE_PROMPTS[e] = "Respond to %s, or pass" % e.replace("_", " ")
        return prompt


# --- kills and discards from play, with their save window ------------------------------------------

def kill(ctx, insts, by, src=None, saveable=True, how="kill"):
    """Kill (or with how="discard", discard from play) the cards `insts` at once, after saves."""
    if insts:
        ctx.push({"s": "remove", "insts": list(insts), "by": by, "src": src, "saveable": saveable,
                  "how": how, "i": 0, "saved": [], "order": None, "passes": 0})


@step
def remove(ctx, st, answer):
    _remove(ctx, st, answer)


def _remove(ctx, st, answer):
    """The kill or discard step's work, in a function of its own: compiled, its context, step and
    game are typed (timing.pxd), as for the ability step (_resolve_ability)."""
    g = ctx.g
    insts = st["insts"]
    if answer is not None:
        _, choice = answer
        target = insts[st["i"]]
        seat = st["order"][st["turn"] % len(st["order"])]
        st["turn"] += 1
        if choice[0] == "pass":
            st["passes"] += 1
        else:
            st["saved"].append(target)
            st["i"] += 1
            st["order"] = None
            if choice[0] == "dup":
                dup = choice[1]
                M.take_out(g, dup)
                M.put(g, dup, "discard")
                ctx.emit("saved", card=target, by="duplicate", dup=dup)
            else:
                ctx.push(st)
                abilities.start(ctx, seat, choice, ev={"e": "would_" + st["how"], "card": target})
                return
    # The seats with a save card where they could use it, found once for the round of each card: the
    # others' cards in play and hands are not read for each card and seat (nothing moves meanwhile)
    savers = abilities.savers(ctx.state, "would_" + st["how"]) if st["saveable"] else []
    while st["saveable"] and st["i"] < len(insts):
        target = insts[st["i"]]
        if g["cards"][target]["zone"] != "play":
            st["i"] += 1
            continue
        if st["order"] is None:
            st["order"] = M.left_of(g, st["by"] if st["by"] is not None else g["first"])
            st["turn"] = 0
            st["passes"] = 0
        if st["passes"] >= len(st["order"]):
            st["i"] += 1
            st["order"] = None
            continue
        seat = st["order"][st["turn"] % len(st["order"])]
        choices = save_choices(ctx.state, seat, target, st["how"], savers)
        if choices or abilities.hand_may(ctx.state, seat, "save", "would_" + st["how"]):
            ctx.ask(seat, "save", choices + [["pass"]], "Save %s from being %s?" % (
                M.info(ctx.state, target)["name"], "killed" if st["how"] == "kill" else "discarded"),
                public="may save a card", card=target)
            return
        st["passes"] += 1
        st["turn"] += 1
    proof = "cannot_be_killed" if st["how"] == "kill" else "cannot_be_discarded"
    gone = [i for i in insts if i not in st["saved"] and g["cards"][i]["zone"] == "play"
            and not M.has_kw(ctx.state, i, proof)]
    for inst in gone:
        leave_play(ctx, inst, "dead" if st["how"] == "kill" else "discard", why=st["how"])
    for k in range(len(gone)):  # the last card's trigger is this step's last move (trigger's `last`)
        inst = gone[k]
        trigger(ctx, {"e": "killed" if st["how"] == "kill" else "discarded", "card": inst,
                      "seat": M.owner_of(inst)}, st["by"], k == len(gone) - 1)


def save_choices(state, seat, target, how, savers):
    """`seat`'s ways to save `target`: a duplicate of it, then its save abilities, looked for only if
    it is among `savers` (abilities.savers)."""
    g = state["g"]
    out = []
    c = g["cards"][target]
    if c["ctrl"] == seat and M.owner_of(target) == seat:
        out += [["dup", d] for d in c["dups"]]
    if seat in savers:
        out += abilities.save_choices(state, seat, target, how)
    return out


_WHERE_GONE_KWS = ("stalwart", "deathbound", "killed_to_discard")  # the keywords leave_play reads


def leave_play(ctx, inst, dest, why="discard"):
    """`inst` leaves play for `dest` (dead, discard, hand, deck, removed), with its attachments,
    duplicates and power; Stalwart and Deathbound change where a killed or discarded card goes."""
    state = ctx.state
    g = ctx.g
    c = g["cards"][inst]
    for att in list(c["att"]):
        leave_play(ctx, att, "discard", why="discard")
    for dup in list(c["dups"]):
        M.take_out(g, dup)
        M.put(g, dup, "discard")
    if c["power"]:
        g["bank"]["power"] += c["power"]
        c["power"] = 0
    if c.get("gold"):  # gold set on the card (Tywin) goes back to the treasury
        g["bank"]["gold"] += c["gold"]
        c["gold"] = 0
    if c["on"] is not None:
        host = g["cards"][c["on"]]
        host["att"] = M.dropped(host["att"], inst)
        c["on"] = None
    kws = M.keywords_among(state, inst, _WHERE_GONE_KWS)
    top = False
    if why in ("kill", "discard") and "stalwart" in kws:
        dest, top = "deck", True
    elif dest == "discard" and "deathbound" in kws:
        dest = "dead"
    elif dest == "dead" and not M.is_character(state, inst):
        dest = "discard"  # only characters die; anything else killed is discarded
    elif dest == "dead" and "killed_to_discard" in kws:
        dest = "discard"  # a character that goes to the discard pile when killed (The Hound)
    M.take_out(g, inst)
    # Its own effects go with it, and those that last while their source is in play (Milk of the Poppy).
    g["effects"] = [e for e in g["effects"] if e["target"] != inst and not (e["until"] == "source" and e["src"] == inst)]
    M.put(g, inst, dest, top=top)
    if ctx.events is not None:  # made only when kept: a quiet command keeps none (flow.draw)
        ctx.record("left_play", {"card": inst, "to": dest, "why": why})


# --- power and victory -----------------------------------------------------------------------------

def gain_power(ctx, seat, amount, why, on=None):
    """`seat` claims `amount` power from the pool, on its House or on card `on`."""
    g = ctx.g
    if amount <= 0:
        return
    bank = g["bank"]
    if bank["power"] < amount:  # "simply add more" counters to the Throne Room
        bank["added_power"] += amount - bank["power"]
        bank["power"] = amount
    bank["power"] -= amount
    if on is None:
        g["players"][seat]["power"] += amount
    else:
        g["cards"][on]["power"] += amount
    if ctx.events is not None:  # made only when kept (flow.draw)
        ctx.record("power", {"seat": seat, "amount": amount, "why": why, "card": on})
    check_victory(ctx)


def move_house_power(ctx, frm, to, amount, why):
    """Move up to `amount` power from `frm`'s House card to `to`'s House (a power claim)."""
    g = ctx.g
    moved = min(amount, g["players"][frm]["power"])
    if moved:
        g["players"][frm]["power"] -= moved
        g["players"][to]["power"] += moved
    ctx.emit("power_moved", frm=frm, to=to, amount=moved, why=why)
    check_victory(ctx)


def check_victory(ctx):
    """The game ends at once when a total reaches the goal, however it got there (rulebook, "Power
    and Victory"): checked when power is gained or moved, and after a step in which a total could
    rise otherwise (after_step)."""
    g = ctx.g
    if ctx.state["over"] or g.get("victory_pending"):
        return
    goal = g["goal"]
    bank = g["bank"]
    if 15 * g["n"] + bank["added_power"] - bank["power"] < goal:
        return  # all the power out of the Throne Room together is short of the goal: nobody has it
    cards = g["cards"]
    most = []
    for p in g["players"]:  # loops, not sum() over a generator: this runs after every step
        total = p["power"]
        for i in p["play"]:
            total += cards[i]["power"]
        most.append(total)
    if g.get("teams"):
        most = [sum(most[s] for s in team) for team in g["teams"]]
    if max(most) < goal:
        return  # even counting every power counter a player has, nobody has the goal (cheap: after every step)
    winners = [s for s in range(g["n"]) if M.team_power(g, s) >= goal]
    if not winners:
        return
    if g.get("teams"):
        winners = sorted({s for w in winners for s in (w, M.partner(g, w))})
        finish(ctx, winners)
        return
    if len(winners) == 1:
        finish(ctx, winners)
        return
    g["victory_pending"] = True
    _VICTORY_PENDING.add(id(g))  # after_step leaves the winner's choice the only step (_only_the_winner_left)
    ctx.push({"s": "choose_winner", "tied": winners})


# {card code: fn(ctx)}: what the table must notice at any moment for a card, run after every step of
# a game that has that card (a STR that changed this phase: Stannis's Northern Cavalry)
WATCHES = {}
# The codes of cards whose constant ability can raise a total with no power moving (Melisandre: power
# left out while she stands): in a game that has one, victory is checked after every step
TOTALS_CHANGE_BY_THEMSELVES = set()


# after_step's plan for a game, worked out once a game (model.PerGame): (its watches in WATCHES order,
# whether its totals change by themselves). It depends on nothing but the game's codes (fixed by its
# config: model.game_codes) and those two tables, which card modules fill through watch() and
# totals_change_by_themselves() as they are imported: each forgets the plans made before.
_AFTER = M.PerGame()
# [g, plan, its watches, whether its totals change by themselves] of the game after_step last ran for
# (a whole game runs between two others' steps): one look at the context's game (a field, compiled)
# instead of the PerGame lookup and a dict read per step. The game is held, so its id is not reused
# while it is here; emptied with _AFTER.
_AFTER_LAST = [None, None, (), False]
# model.POWER_ARRIVED itself (one set, only ever changed in place): a module global is read at C speed,
# a module's attribute is not
_POWER_ARRIVED = M.POWER_ARRIVED
# The ids of the games whose check_victory found players tied at the goal (g["victory_pending"]) and
# whose steps after_step has not yet cut down to the choice of the winner: an empty set's test at
# every step instead of a read of g. Once cut down, nothing but that choice runs (see
# _only_the_winner_left), so a game's id is dropped at its first cut.
_VICTORY_PENDING = set()


def watch(code, fn):
    WATCHES[code] = fn
    _forget_plans()


def totals_change_by_themselves(code):
    TOTALS_CHANGE_BY_THEMSELVES.add(code)
    _forget_plans()


def _forget_plans():
    _AFTER.forget()
    _AFTER_LAST[:] = [None, None, (), False]


def _after_plan(state):
    """after_step's plan for this game: (its watches, whether its totals change by themselves)."""
    g = state["g"]
    last = _AFTER_LAST
    if last[0] is g:
        return last[1]
    answers = M.per_game_answers(_AFTER, state)
    plan = answers.get("plan")
    if plan is None:
        codes = M.game_codes(state)
        plan = answers["plan"] = (tuple([fn for code, fn in WATCHES.items() if code in codes]),
                                  not TOTALS_CHANGE_BY_THEMSELVES.isdisjoint(codes))
    last[0] = g
    last[1] = plan
    last[2], last[3] = plan
    return plan


def _steps_watch_nothing(state):
    """Whether after_step has nothing of this game's to run but the checks of what a step did (power
    arriving, a tie at the goal): no watches, and totals that never change by themselves."""
    watches, totals_move = _after_plan(state)
    return not watches and not totals_move


def after_step(ctx):
    """Run after every step of the game (the engine calls it: LCG.after_step, see __init__.py): the
    watches, then victory where a total could have risen without power being gained or moved (those
    check it at once): a card with power came into play or changed sides (model.POWER_ARRIVED), or the
    game has a card whose constant ability changes totals (TOTALS_CHANGE_BY_THEMSELVES: Melisandre
    kneels). Totals only fall otherwise; checking after every step cost 5% of a random game. Players
    tied at the goal leave nothing else to play: the first player's choice of the winner is the only
    decision left open. In most games (no watch, no such card) a step leaves it an identity test and
    two tests of empty sets: it runs three times a decision.

    Once the game is over, only the watches must not run (they write to the game): check_victory and
    the cut to the winner's choice do nothing then (its asks and stack are empty)."""
    g = ctx.g
    last = _AFTER_LAST
    # _after_plan's own first test, made here: a call less at every step of a game; its plan's two
    # parts read from their own slots (no tuple unpacked at every step)
    if last[0] is not g:
        _after_plan(ctx.state)
    watches = last[2]
    if watches and not ctx.state["over"]:
        for watch in watches:
            watch(ctx)
    arrived = _POWER_ARRIVED
    if arrived and id(g) in arrived:
        arrived.discard(id(g))
        check_victory(ctx)
    elif last[3]:  # its totals change by themselves
        check_victory(ctx)
    pending = _VICTORY_PENDING
    if pending and id(g) in pending:
        pending.discard(id(g))
        _only_the_winner_left(ctx)


def _only_the_winner_left(ctx):
    """Players tied at the goal: every decision but the first player's choice of the winner is closed,
    and that choice is the only step left (a function of its own: after_step is cpdef, which may hold
    no generator expression)."""
    state = ctx.state
    if not any(a["kind"] == "winner" for a in state["asks"]):
        tied = next((st for st in state["stack"] if st["s"] == "choose_winner"), None)
        if tied is not None and (state["asks"] or state["stack"][-1] is not tied):
            state["asks"].clear()
            state["stack"][:] = [tied]
            ctx.asked = False


@step
def choose_winner(ctx, st, answer):
    if answer is None:
        ctx.ask(ctx.g["first"], "winner", [["winner", s] for s in st["tied"]],
                "Several players reached the goal at once: as first player, choose the winner",
                public="chooses the winner")
        return
    finish(ctx, [answer[1][1]])


def finish(ctx, winners):
    g = ctx.g
    ctx.end({"winners": winners, "rounds": g["round"],
             "power": [M.total_power(g, s) for s in range(g["n"])]})


# --- resolving an ability: target, costs, the cancel window, the effect ---------------------------------

@step
def ability(ctx, st, answer):
    """Target, costs, the cancel window, the effect; an event then goes to its owner's discard
    pile (or dead pile with Deathbound, unless it was cancelled)."""
    _resolve_ability(ctx, st, answer)


def _resolve_ability(ctx, st, answer):
    """The ability step's work, in a function of its own: the compiled build types its context, step,
    game and ability (timing.pxd), so that the fields it reads of each are C reads, where a step's
    handler (called by name, a Python function) reads them as attributes and generic look-ups."""
    g = ctx.g
    state = ctx.state
    src, seat = st["src"], st["seat"]
    ab = abilities.ability_of(src, st["idx"])
    if st["stage"] == "target":
        if answer is not None:
            st["target"] = answer[1][1]
        elif ab.target is not None:
            targets = abilities.legal_targets(state, seat, src, ab, st["ev"])
            ctx.ask(seat, "target", [["target", t] for t in targets],
                    "%s: choose a target" % M.info(state, src)["name"], public="chooses a target")
            return
        st["stage"] = "cost"
    if st["stage"] == "cost":
        st["stage"] = "cancel"
        rec = M.info(state, src)
        cards = g["cards"]
        c_src = cards[src]
        key = abilities.limit_key(src, st["idx"])
        limits = g["limits"]
        limits[key] = limits[key] + 1 if key in limits else 1
        if ab.limit is not None:
            g["limit_scopes"].append([key, ab.limit[0]])
        if ab.limited:
            g["players"][seat]["limited_response"] = True
        tax = 0
        if rec["type"] == "event" and c_src["zone"] == "hand":
            tax = abilities.event_tax(state, src)
            M.take_out(g, src)
            c_src["zone"] = "playing"
            for r in rec["restrictions"] or ():
                if "limit" in r:
                    g["event_limits"]["%s/%d" % (rec["name"], seat)] = r["limit"]
                    g["limit_scopes"].append(["event:%s/%d" % (rec["name"], seat), r["limit"]])
        # record(), not emit(): the fields in the order emit's keywords gave them, without a call by
        # keyword; made only when kept (flow.draw)
        if ctx.events is not None:
            ctx.record("ability", {"seat": seat, "card": src, "target": st["target"], "how": ab.kind})
        # Only a card with attachments can owe a toll (abilities.tolls): the others' is no call
        if abilities.TOLLS and c_src["zone"] == "play" and c_src["att"]:
            abilities.pay_tolls(ctx, src)
        more = _pay_costs(ctx, st, ab.cost, src, seat) if ab.cost else []
        if tax:
            more.append({"s": "pay_event_tax", "seat": seat, "n": tax})
        if more:
            ctx.push(*more, st)
            return
    if st["stage"] == "cancel":
        st["stage"] = "effect"
        if _cancel_window_opens(state, src):
            ctx.push({"s": "cancel_window", "of": st["uid"], "src": src, "seat": seat, "order": M.left_of(g, seat),
                      "i": 0, "passes": 0}, st)
            return
    if st["stage"] == "effect":
        rec = M.info(state, src)
        canceled = st["uid"] in g["canceled"]
        if canceled:
            g["canceled"].remove(st["uid"])
            ctx.emit("canceled", card=src, seat=seat)
        knelt = g["cost_knelt"].pop(str(st["uid"]), None) if g.get("cost_knelt") else None
        if canceled:
            pass
        elif knelt is not None:  # the cards a ("kneel", n, pred) cost knelt, for the effect
            ab.effect(ctx, src, seat, st["target"], dict(st["ev"] or {}, knelt=knelt))
        else:
            ab.effect(ctx, src, seat, st["target"], st["ev"])
            # A rule that watches the table after every effect (Flame-Kissed at STR 0), in a game
            # that has its card (the others' tables never hold what it watches for)
            checks = abilities.STATE_CHECKS
            if checks:
                codes = M.game_codes(state)
                for code, check in checks.items():
                    if code in codes:
                        check(ctx)
        st["canceled"] = canceled
        if rec["type"] == "event" and g["cards"][src]["zone"] == "playing":
            dead = "deathbound" in (rec["keywords"] or ()) and not st["canceled"]
            M.put(g, src, "dead" if dead else "discard")


def _pay_costs(ctx, st, cost, src, seat):
    """Pay an ability's costs that need no choice; the steps that pay the others (kneeling cards of
    the seat's choice, influence first), in the order they run."""
    g = ctx.g
    cards = g["cards"]
    influence = 0
    more = []
    for c in cost:
        kind = c[0]
        if kind == "gold":
            M.pay_gold(g, seat, c[1])  # the pool first, then gold on cards (Tywin)
        elif kind == "kneel_self":
            cards[src]["kneel"] = True
        elif kind == "kneel_host":
            cards[cards[src]["on"]]["kneel"] = True
        elif kind == "kneel_target":  # the chosen target is knelt as the cost (I Never Bet...)
            cards[st["target"]]["kneel"] = True
        elif kind == "target_cost":  # gold equal to the target's printed cost (Chella); its targets
            M.pay_gold(g, seat, M.info(ctx.state, st["target"])["cost"] or 0)  # list only what the seat can pay
        elif kind == "discard_self":
            leave_play(ctx, src, "discard", why="cost")
        elif kind == "influence":
            influence += c[1]
        elif kind == "kneel":
            more.append({"s": "kneel_cost", "seat": seat, "n": c[1], "pred": c[2], "uid": st["uid"], "chosen": []})
    if influence:
        more.insert(0, {"s": "influence", "seat": seat, "need": influence, "paid": 0})
    return more


def _cancel_window_opens(state, src):
    """Whether an ability of `src` whose costs are paid gets a cancel window before its effect."""
    if not abilities.holders(state, "cancel")[0] and _steps_watch_nothing(state):
        # No card of the game can cancel: the window would pass every seat unasked (hand_may names
        # only held cards), and nothing runs after a step here (its costs brought no card with power
        # into play), so the effect follows at once, as for an uncancelable one. Asked first: it is
        # two look-ups, and whether the ability is uncancelable a sum over constants.
        return False
    return not M.rare_constant(state, src, "uncancelable")  # Rule by Decree: no cancel window


@step
def cancel_window(ctx, st, answer):
    """Players, clockwise from the left of the one who used the ability, may cancel it."""
    order = st["order"]
    n = len(order)
    g = ctx.g
    ev = {"e": "would_resolve", "card": st["src"], "seat": st["seat"]}
    if answer is not None:
        used = round_answer(st, answer)
        if used is not None:
            seat, choice = used
            # The cancel resolves first (its own costs and cancel window), then marks its target.
            canceller = abilities.ability_step(g, seat, choice[1], choice[2], ev)
            ctx.push(canceller, {"s": "mark_canceled", "by": canceller["uid"], "of": st["of"]}, st)
            return
    while st["passes"] < n and st["of"] not in g["canceled"]:
        seat = order[st["i"] % n]
        choices = abilities.cancel_choices(ctx.state, seat, ev)
        if choices or abilities.hand_may(ctx.state, seat, "cancel"):
            ctx.ask(seat, "cancel", choices + [["pass"]], "Cancel %s?" % M.info(ctx.state, st["src"])["name"],
                    public="may cancel")
            return
        st["passes"] += 1
        st["i"] += 1


@step
def kneel_cost(ctx, st, answer):
    """A cost of kneeling `n` cards of the seat's choice that match predicate `pred`."""
    g = ctx.g
    if answer is not None:
        inst = answer[1][1]
        g["cards"][inst]["kneel"] = True
        st["chosen"].append(inst)
        if ctx.events is not None:  # made only when kept (flow.draw)
            ctx.record("knelt", {"card": inst, "why": "cost"})
    ready = abilities.kneelable(ctx.state, st["seat"], st["pred"])
    if len(st["chosen"]) < st["n"] and ready:
        ctx.ask(st["seat"], "kneel_cost", [["kneel", i] for i in ready],
                "Kneel a card to pay the cost (%d of %d)" % (len(st["chosen"]) + 1, st["n"]), public="pays a cost")
        return
    g.setdefault("cost_knelt", {})[str(st["uid"])] = list(st["chosen"])


@step
def pay_event_tax(ctx, st, answer):
    """Playing an event costs `n` gold handed to an opponent of the player's choice."""
    g = ctx.g
    seat = st["seat"]
    opps = M.opponents(g, seat)
    if answer is None and len(opps) > 1:
        ctx.ask(seat, "target", [["target", s] for s in opps], "Hand %d gold to an opponent" % st["n"],
                public="chooses an opponent")
        return
    to = answer[1][1] if answer is not None else opps[0]
    n = min(st["n"], g["players"][seat]["gold"])
    g["players"][seat]["gold"] -= n
    g["players"][to]["gold"] += n
    ctx.emit("gold_given", seat=seat, to=to, amount=n)


@step
def mark_canceled(ctx, st, answer):
    """The cancel resolved: unless it was itself cancelled, its target is."""
    canceled = ctx.g["canceled"]
    if st["by"] in canceled:
        canceled.remove(st["by"])
    else:
        canceled.append(st["of"])


@step
def influence(ctx, st, answer):
    """Kneel cards with influence (or use the Hand of the King) until the cost is met; any surplus
    is lost (rulebook, "Influence")."""
    g = ctx.g
    state = ctx.state
    seat = st["seat"]
    if answer is not None:
        choice = answer[1]
        if choice[0] == "title_influence":
            g["title_used"]["hand_of_the_king"] = True
            st["paid"] += 2
        else:
            g["cards"][choice[1]]["kneel"] = True
            st["paid"] += M.influence_of(state, choice[1])
    if st["paid"] >= st["need"]:
        ctx.emit("influence_paid", seat=seat, need=st["need"], paid=st["paid"])
        return
    choices = [["kneel_influence", i] for i in g["players"][seat]["play"]
               if not g["cards"][i]["kneel"] and M.influence_of(state, i) > 0]
    if g["players"][seat]["title"] == "hand_of_the_king" and not g["title_used"].get("hand_of_the_king"):
        choices.append(["title_influence"])
    if not choices:  # the ability's other costs knelt what would have paid: it is paid as far as it can be
        ctx.emit("influence_paid", seat=seat, need=st["need"], paid=st["paid"])
        return
    ctx.ask(seat, "influence", choices, "Kneel influence: %d of %d paid" % (st["paid"], st["need"]),
            public="pays influence")
