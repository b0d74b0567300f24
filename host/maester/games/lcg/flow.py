"""Setup and the round: plot, draw, marshalling, challenges, dominance, standing, taxation.

Chance is drawn by the host (shuffles, the random first player, initiative's last tie-break, an
intrigue claim's random discard) or, with ``observe: ["draws"]``, the deck is a real shuffled deck:
the host keeps it as an unordered set and learns each card drawn from a tap on its owner's reader.
"""

from . import abilities
from . import model as M
from . import timing as T
from . import titles
from .steps import step


def setup(ctx, config):
    g = ctx.g
    state = ctx.state
    table = M.table(state)
    comp = table["components"]
    n = config["players"]
    decks = config["decks"]
    teams = [[0, 2], [1, 3]] if "two_on_two" in config["variants"] else None
    g.update({
        "n": n, "round": 0, "phase": "setup", "first": 0, "teams": teams,
        "goal": comp["team_power_to_win"] if teams else comp["power_to_win"],
        "melee": n >= 3 and not teams, "littlefinger": "littlefinger" in config["variants"],
        "observe_draws": "draws" in config["observe"],
        "players": [], "cards": {}, "effects": [], "limits": {}, "limit_scopes": [], "event_limits": {},
        "canceled": [], "uid": 0, "challenge": None, "bank": {}, "title_pool": [], "title_used": {},
        "titles_taken_last": [], "initiative": None,
    })
    codes = []  # each seat's deck list: the codes of its cards
    cards = g["cards"]
    for seat in range(n):
        deck = decks[seat] if isinstance(decks[seat], dict) else dict(table["decks"][decks[seat]], name=decks[seat])
        codes.append(tuple(deck["draw"]) + tuple(deck["plots"]))
        p = {"house": deck["house"], "deck_name": deck["name"], "deck": [], "hand": [], "discard": [],
             "dead": [], "plots": [], "used": [], "revealed": None, "chosen": None, "play": [],
             "setup": [], "power": 0, "gold": 0, "drawn_extra": 0, "title": None,
             "limited_played": False, "limited_response": False, "challenges_made": [],
             "oppose_bonus": False, "reducers": []}
        g["players"].append(p)
        for zone, part in (("deck", "draw"), ("plots", "plots")):
            # Each card's record a copy of one made for the zone (its keys in place at once; compiled, a
            # literal of eight keys is grown as they go in), with lists of its own.
            made = {"owner": seat, "ctrl": seat, "zone": zone, "kneel": False, "power": 0, "att": None,
                    "dups": None, "on": None}
            found = _instances(deck[part], seat)
            for inst in found:
                c = cards[inst] = made.copy()
                c["att"] = []
                c["dups"] = []
            p[zone] = list(found)  # the zone's list made at once (it was empty)
        if g["observe_draws"]:
            p["deck"].sort()  # a real shuffled deck: the host knows what is in it, not its order
        else:
            ctx.chance.shuffle(p["deck"])
    for seat in range(n):
        g["players"][seat]["hand_kinds"] = abilities.hand_kinds(state, seat, codes[seat])
    # The Throne Room and the Treasury: at least 15 power and 10 gold per player; more is added
    # when they run out, and the count of what was added keeps the totals checkable.
    g["bank"] = {"power": 15 * n, "gold": 10 * n, "added_power": 0, "added_gold": 0}
    g["first"] = config["first"] if config["first"] is not None else ctx.chance.below(n)
    ctx.emit("setup", players=n, first=g["first"], decks=[p["deck_name"] for p in g["players"]], houses=[p["house"] for p in g["players"]],
             variants=list(config["variants"]), goal=g["goal"])
    ctx.push({"s": "setup_hand"}, {"s": "setup_place", "order": M.turn_order(g), "i": 0},
             {"s": "setup_reveal"}, {"s": "round_start"})


# (a deck list's codes, seat) -> the instances of its cards at that seat (model.instance_ids): the
# same for every game that seats the list there, so made once (a string formatted for each card was a
# quarter of a random game's setup), a bounded number of lists kept
_INSTANCES = {}


def _instances(codes, seat):
    key = (tuple(codes), seat)
    found = _INSTANCES.get(key)
    if found is None:
        if len(_INSTANCES) >= 64:
            _INSTANCES.clear()
        found = _INSTANCES[key] = tuple(M.instance_ids(codes, seat))
    return found


# --- drawing ------------------------------------------------------------------------------------

def draw(ctx, seat, n, capped=False):
    """`seat` draws `n` cards (fewer when the deck runs out). Card effects count against the draw
    cap of 3 extra cards a round (rulebook, "The Draw Cap")."""
    g = ctx.g
    p = g["players"][seat]
    if capped:
        cap = M.table(ctx.state)["components"]["draw_cap"]
        n = min(n, cap - p["drawn_extra"], len(p["deck"]))
        p["drawn_extra"] += max(0, n)  # only the cards really drawn count against the cap
    n = min(n, len(p["deck"]))
    if n <= 0:
        return
    if g["observe_draws"]:
        ctx.push({"s": "observe_draw", "seat": seat, "left": n})
        return
    drawn = p["deck"][:n]
    del p["deck"][:n]
    for inst in drawn:
        g["cards"][inst]["zone"] = "hand"
        p["hand"].append(inst)
    # The round's own events are made only when kept: a quiet command's (bots' games, core.answer)
    # keeps none, and emit's keywords alone were most of what a phase's step did.
    if ctx.events is not None:
        ctx.record("drew", {"seat": seat, "count": n})
        ctx.record("drew_cards", {"seat": seat, "cards": drawn}, [seat])


def may_draw(state, seat):
    """Whether a card effect could make `seat` draw now: cards in its deck and room under the cap."""
    p = state["g"]["players"][seat]
    return bool(p["deck"]) and p["drawn_extra"] < M.table(state)["components"]["draw_cap"]


@step
def observe_draw(ctx, st, answer):
    """A real deck: the seat draws from the top and taps each card on its reader."""
    g = ctx.g
    seat = st["seat"]
    p = g["players"][seat]
    if answer is not None:
        inst = answer[1][1]
        M.move(g, inst, "hand")
        st["left"] -= 1
        ctx.emit("drew", seat=seat, count=1)
        ctx.emit("drew_cards", vis=[seat], seat=seat, cards=[inst])
    if st["left"] > 0 and p["deck"]:
        # Every card still in the deck is offered, in a fixed order: the list says nothing the
        # seat does not know, and another seat sees only that a card is being drawn.
        ctx.ask(seat, "draw", [["drew", i] for i in p["deck"]],
                "Draw the top card of your deck and tap it (%d to go)" % st["left"], public="draws a card")


@step
def setup_hand(ctx, st, answer):
    g = ctx.g
    for seat in draw_order(g):
        draw(ctx, seat, M.table(ctx.state)["components"]["setup_hand"])


def draw_order(g):
    """Turn order for drawing. An observed draw is a queued step, so those are queued last seat
    first for the first player's to run first."""
    order = M.turn_order(g)
    return order[::-1] if g["observe_draws"] else order


# --- setup -----------------------------------------------------------------------------------------

def setup_choices(state, seat):
    """Cards `seat` may still place face down: characters and locations (and Setup attachments on a
    placed card), within 5 gold with the gold penalty, one Limited card, no second copy of a unique."""
    g = state["g"]
    p = g["players"][seat]
    comp = M.table(state)["components"]
    spent = sum(M.gold_cost(state, seat, i) for i in p["setup"])
    names = {M.info(state, i)["name"] for i in p["setup"] if M.info(state, i)["unique"]}
    limited = any("limited" in (M.info(state, i)["keywords"] or ()) for i in p["setup"])
    out = []
    recs = M.records(state)
    for inst in p["hand"]:
        rec = recs[inst]
        if rec["type"] not in ("character", "location", "attachment"):
            continue
        if rec["type"] == "attachment" and ("setup" not in (rec["keywords"] or ())
                                             or not [t for t in p["setup"] if M.attach_ok(state, seat, inst, t)]):
            continue
        if spent + M.gold_cost(state, seat, inst) > comp["setup_gold"]:
            continue
        if rec["unique"] and rec["name"] in names:
            continue
        if limited and "limited" in (rec["keywords"] or ()):
            continue
        if not M.house_ok(state, seat, inst):
            continue
        out.append(["place", inst])
    return out


@step
def setup_place(ctx, st, answer):
    g = ctx.g
    order = st["order"]
    if answer is not None:
        seat = order[st["i"]]
        choice = answer[1]
        if choice[0] == "done":
            st["i"] += 1
        else:
            M.move(g, choice[1], "setup")
            ctx.emit("placed_face_down", seat=seat)
            ctx.emit("placed_setup", vis=[seat], seat=seat, card=choice[1])
    while st["i"] < len(order):
        seat = order[st["i"]]
        choices = setup_choices(ctx.state, seat)
        if choices or g["players"][seat]["hand"]:  # asked even with nothing to place: a skip would tell
            ctx.ask(seat, "setup", choices + [["done"]],
                    "Setup: place up to 5 gold of characters and locations face down",
                    public="places setup cards")
            return
        st["i"] += 1


@step
def setup_reveal(ctx, st, answer):
    """Every setup card is turned face up at once; none counts as played or put into play."""
    g = ctx.g
    state = ctx.state
    for seat in range(g["n"]):
        p = g["players"][seat]
        placed = list(p["setup"])
        attachments = [i for i in placed if M.info(state, i)["type"] == "attachment"]
        for inst in placed:
            if inst not in attachments:
                M.move(g, inst, "play")
        for inst in attachments:
            hosts = [t for t in p["play"] if M.attach_ok(state, seat, inst, t)]
            M.take_out(g, inst)
            if hosts:
                M.put(g, inst, "play")
                _hang(g, inst, hosts[0])
            else:
                M.put(g, inst, "discard")
        ctx.emit("setup_revealed", seat=seat, cards=placed)
    for seat in draw_order(g):
        need = M.table(ctx.state)["components"]["setup_hand"] - len(g["players"][seat]["hand"])
        draw(ctx, seat, need)


# --- the round ----------------------------------------------------------------------------------

@step
def round_start(ctx, st, answer):
    g = ctx.g
    g["round"] += 1
    for p in g["players"]:  # each set in place: no keywords' dict and method call a seat a round
        p["drawn_extra"] = 0
        p["limited_played"] = False
        p["limited_response"] = False
        p["challenges_made"] = []
        p["oppose_bonus"] = False
        p["chosen"] = None
    g["title_used"] = {}
    if ctx.events is not None:  # made only when kept (draw)
        ctx.record("round", {"round": g["round"]})
    ctx.push({"s": "phase", "name": "plot"}, {"s": "plot_choose"}, {"s": "plot_chosen_window"}, {"s": "plot_reveal"},
             {"s": "phase", "name": "draw"}, {"s": "draw_phase"},
             {"s": "phase", "name": "marshalling"}, {"s": "marshalling"},
             {"s": "phase", "name": "challenges"}, {"s": "challenges_phase"},
             {"s": "phase", "name": "dominance"}, {"s": "dominance"},
             {"s": "phase", "name": "standing"}, {"s": "standing"},
             {"s": "phase", "name": "taxation"}, {"s": "taxation"},
             {"s": "round_end"}, {"s": "round_start"})


@step
def phase(ctx, st, answer):
    g = ctx.g
    end_scope(g, "phase")
    for p in g["players"]:
        if p["reducers"]:
            p["reducers"] = []  # "this phase" cost reductions end with it (most phases: none to end)
    if "str_changed" in g:  # the STRs that changed in the phase that ends (timing.WATCHES); no method call
        del g["str_changed"]
    g["phase"] = st["name"]
    if ctx.events is not None:  # made only when kept (draw)
        ctx.record("phase", {"phase": st["name"], "round": g["round"]})
    # "At the beginning of the X phase" abilities (forced or responses) come before anything else.
    # The last move of this step (T.trigger's `last`): a forced step is queued only if it can answer.
    T.trigger(ctx, {"e": "phase_started", "phase": st["name"]}, None, True)


def end_scope(g, scope):
    """Lasting effects and limits that last `scope` ("challenge", "phase", "round") end now. The lists
    are made again only when something ends (at the end of many a challenge and phase, nothing does)."""
    ending = _ENDING[scope]
    effects = g["effects"]
    for e in effects:
        if e["until"] in ending:
            g["effects"] = [e for e in effects if e["until"] not in ending]
            break
    scopes = g["limit_scopes"]
    keep = []
    for pair in scopes:
        key, sc = pair
        if sc in ending:
            if key.startswith("event:"):
                g["event_limits"].pop(key[6:], None)
            else:
                g["limits"].pop(key, None)
        else:
            keep.append(pair)
    if len(keep) < len(scopes):
        g["limit_scopes"] = keep


# The spans that end with each: a phase's end is also its last challenge's, a round's both theirs.
_ENDING = {"challenge": ("challenge",), "phase": ("challenge", "phase"), "round": ("challenge", "phase", "round")}


# --- plot phase ---------------------------------------------------------------------------------

@step
def plot_choose(ctx, st, answer):
    """Every player chooses a plot at once, in secret: the choice is kept hidden until all chose."""
    g = ctx.g
    if answer is not None:
        ask, choice = answer
        g["players"][ask["seat"]]["chosen"] = choice[1]
        if ctx.events is not None:  # made only when kept (draw)
            ctx.record("plot_chosen", {"seat": ask["seat"]})
        return  # the other seats' asks stay open; this step waits on top until they are answered
    for seat in range(g["n"]):
        p = g["players"][seat]
        ctx.ask(seat, "plot", [["plot", i] for i in sorted(p["plots"])],
                "Choose your plot for round %d" % g["round"], public="chooses a plot")


@step
def plot_chosen_window(ctx, st, answer):
    """After every plot is chosen and before they are revealed: an action window, opened only while a
    card in play has the "plot_window" flag (Dragonstone Port, by errata)."""
    # Most games have no card that could have the flag: no card in play is read.
    if M.may_have_kw(ctx.state, "plot_window") \
            and any(M.has_kw(ctx.state, i, "plot_window") for i in M.in_play(ctx.g)):
        T.open_window(ctx, "plot", tag="chosen")


@step
def plot_reveal(ctx, st, answer):
    g = ctx.g
    state = ctx.state
    if answer is None:
        for seat in range(g["n"]):
            p = g["players"][seat]
            if p["revealed"]:
                M.move(g, p["revealed"], "used")
            M.move(g, p["chosen"], "revealed")
            p["chosen"] = None
        if ctx.events is not None:  # made only when kept (draw)
            ctx.record("plots_revealed", {"plots": [p["revealed"] for p in g["players"]]})
        totals = [initiative(state, s) for s in range(g["n"])]
        best = max(totals)
        tied = [s for s in range(g["n"]) if totals[s] == best]
        if len(tied) > 1:
            least = min(M.total_power(g, s) for s in tied)
            tied = [s for s in tied if M.total_power(g, s) == least]
        winner = tied[0] if len(tied) == 1 else tied[ctx.chance.below(len(tied))]
        g["initiative"] = winner
        if ctx.events is not None:  # made only when kept (draw)
            ctx.record("initiative", {"seat": winner, "totals": totals})
        ctx.ask(winner, "first_player", [["first", s] for s in range(g["n"])],
                "You won initiative: choose the first player", public="chooses the first player")
        return
    g["first"] = answer[1][1]
    if ctx.events is not None:  # made only when kept (draw)
        ctx.record("first_player", {"seat": g["first"]})
    T.open_window(ctx, "plot")  # queued first: it opens after the plots, their triggers and titles
    revealed = []
    for seat in M.turn_order(g):
        for plot, idx in abilities.when_revealed(state, seat):
            revealed.append(abilities.ability_step(g, seat, plot, idx, {"e": "revealed"}))
    steps = [{"s": "plot_recycle"}]
    if g["melee"]:
        steps.append({"s": "choose_titles", "order": M.turn_order(g), "i": 0})
    ctx.push(*steps)
    abilities.resolve_together(ctx, revealed)  # first: the plots' "when revealed", in the first player's order
    order = M.turn_order(g)
    for seat in reversed(order):
        # The first player's, queued last, is this step's last move (T.trigger's `last`)
        T.trigger(ctx, {"e": "plot_revealed", "seat": seat, "card": g["players"][seat]["revealed"]}, seat,
                  seat == order[0])


def initiative(state, seat):
    g = state["g"]
    p = g["players"][seat]
    total = M.info(state, p["revealed"])["plot"]["initiative"]
    total += M.rare_constant(state, p["revealed"], "initiative")
    return total


@step
def plot_recycle(ctx, st, answer):
    """A player who revealed the last plot of their deck takes the used plots back."""
    g = ctx.g
    for seat in range(g["n"]):
        p = g["players"][seat]
        if not p["plots"]:
            for inst in list(p["used"]):
                M.move(g, inst, "plots")
            ctx.emit("plots_recycled", seat=seat)


@step
def choose_titles(ctx, st, answer):
    titles.choose(ctx, st, answer)


# --- draw phase ---------------------------------------------------------------------------------

@step
def draw_phase(ctx, st, answer):
    g = ctx.g
    comp = M.table(ctx.state)["components"]
    T.open_window(ctx, "draw")
    for seat in draw_order(g):
        extra = titles.extra_draw(ctx.state, seat)  # outside the draw cap
        draw(ctx, seat, comp["draw_phase"] + extra)


# --- marshalling ---------------------------------------------------------------------------------

@step
def marshalling(ctx, st, answer):
    g = ctx.g
    steps = [{"s": "marshal_turn", "seat": s, "stage": "income", "done": False} for s in M.turn_order(g)]
    ctx.push(*steps)


def income(state, seat):
    g = state["g"]
    p = g["players"][seat]
    total = M.info(state, p["revealed"])["plot"]["income"]
    if M.constant_sources(g, "income"):
        total += M.constant(state, p["revealed"], "income")  # plots that change a plot's income (Blockade)
        for i in p["play"]:  # a loop, not sum() of a generator: cpdef (flow.pxd), income_bonus a C call
            total += M.income_bonus(state, i)
    else:  # no card in play can change an income (most marshalling phases): the printed ones, no constant asked
        recs = M.records(state)  # every card in play has its record there (model.records): one look-up a card
        for i in p["play"]:
            total += recs[i]["income"] or 0
    total += titles.income_bonus(state, seat)
    return max(0, total)


# Per game, by (seat, its House): {card of its hand: _marshal_facts}. What the facts depend on, the
# card table and the House, no step changes (PerGame).
_MARSHAL_FACTS = M.PerGame()


# By (card table, House): {card code: _marshal_facts}, for every game on that table: the facts are
# the printed record's, the House's and the table's gold penalty, so a game's first look at a card of
# a hand is a look-up when another game already read that card. Emptied when it holds 64 pairs (a
# bound on memory: worked out again when asked).
_FACTS_BY_CODE = {}


def _facts_by_code(state, seat):
    """{card code: _printed_facts} for `seat`'s House on the game's table (_FACTS_BY_CODE), found once
    for every card of a hand marshalling has not read yet."""
    key = (state["config"]["cards"], state["g"]["players"][seat]["house"])
    tables = _FACTS_BY_CODE  # a local typed dict (flow.pxd): its get() is a C call, not a method looked up
    by_code = tables.get(key)
    if by_code is None:
        if len(tables) >= 64:
            tables.clear()
        by_code = tables[key] = {}
    return by_code


def _marshal_facts(state, seat, inst, by_code):
    """What marshalling reads of `inst` in `seat`'s hand that stays the same all game (_printed_facts),
    kept for the card's code in `by_code` (_facts_by_code)."""
    c = M.code(inst)
    facts = by_code.get(c, False)
    if facts is False:
        facts = by_code[c] = _printed_facts(state, seat, inst, c)
    return facts


def _printed_facts(state, seat, inst, c):
    """None when `seat` may never marshal `inst` (code `c`): an event, a plot, a card of another House
    only (model.house_ok); else (its type, whether it is unique, (its name, its type): the key of a copy
    in play (model.own_copies), its name, its printed gold cost with the gold penalty, whether it is
    Limited, what an attachment asks of a host (model.attach_needs) or None, its code: whether a
    reducer of its own makes it cheaper is asked of model.REDUCERS when it is priced)."""
    rec = M.records(state)[inst]
    kind = rec["type"]
    if kind not in ("character", "location", "attachment") or not M.house_ok(state, seat, inst):
        return None
    needs = M.attach_needs(rec) if kind == "attachment" else None
    return (kind, rec["unique"], (rec["name"], kind), rec["name"], M.printed_gold_cost(state, seat, inst),
            "limited" in (rec["keywords"] or ()), needs, c)


# Per game: [copies of the play lists (model.plays_grown), the hosts in play a player ([(card, its
# record)], in play order), {attachment: (what it asks of a host, those hosts its printed restrictions
# fit (model.attach_fits_printed), a list a player)}], as the hands last read them. Between a seat's
# successive marshal asks the lists in play mostly only grew at their end, by the card it played: then
# only the cards that joined are read.
_HOSTS = M.PerGame()


def _kept_hosts(state):
    """_HOSTS brought up to date with the lists in play: the cards that joined them are added to the
    hosts and to the attachments' fits, or all is worked out anew when a list changed otherwise."""
    players = state["g"]["players"]
    answers = M.per_game_answers(_HOSTS, state)
    kept = answers.get("hosts")
    grown = None if kept is None else M.plays_grown(kept[0], players)
    if grown is None:
        kept = answers["hosts"] = ([list(p["play"]) for p in players], [[] for p in players], {})
        grown = kept[0]
    recs = M.records(state)
    by_att = kept[2]
    for s, new in enumerate(grown):
        for inst in new:
            rec = recs[inst]
            if rec["type"] == "character" or rec["type"] == "location":  # the only cards an attachment goes on
                kept[1][s].append((inst, rec))
                for att, (needs, fit) in by_att.items():
                    if M.attach_fits_printed(att, needs, inst, rec):
                        fit[s].append((inst, rec))
    return kept


def _printed_refusals(state):
    """{host: its printed model._refusal}, kept all game (_HOSTS) for the asks when refusals_printed:
    a printed record never changes, so neither does what it refuses."""
    answers = M.per_game_answers(_HOSTS, state)
    found = answers.get("refusals")
    if found is None:
        found = answers["refusals"] = {}
    return found


def _hosts_for(kept, att, needs):
    """[[(card, its record)] a player] for the hosts in play, in model.in_play's order, that attachment
    `att`'s printed restrictions (`needs`: model.attach_needs) fit (kept: _kept_hosts): the part of
    model.attach_fits no step but a card moving in or out of play changes."""
    by_att = kept[2]
    known = by_att.get(att)
    if known is None:
        known = by_att[att] = (needs, [[(host, hrec) for host, hrec in hosts
                                        if M.attach_fits_printed(att, needs, host, hrec)] for hosts in kept[1]])
    return known[1]


def marshal_choices(state, seat):
    """Every card of `seat`'s hand it may marshal now. What the cards of the hand share (the seat's
    copies in play, its gold, its reducers, the names it may not play again, each host's keywords)
    is worked out once for the hand, when a card first needs it, not once a card (or a card and a
    host): nothing changes while the choices are drawn up. What a card's printed text settles
    (_marshal_facts) is worked out once a game; what the cards in play settle (copies, names, hosts)
    is kept and extended by the cards that joined play since (model.own_copies, model.names_taken,
    _kept_hosts). A card whose printed cost fits the pool, or else the gold the seat may spend, is
    affordable without its reductions being summed: they only ever take gold off (model.gold_cost);
    nor are they summed for a card no reducer in play nor its own can make cheaper, when the pending
    reductions all together would not bring it within the gold (_pending_reduction)."""
    g = state["g"]
    p = g["players"][seat]
    out = []
    per_seat = M.per_game_answers(_MARSHAL_FACTS, state)
    key = (seat, p["house"])
    known = per_seat.get(key)
    if known is None:
        known = per_seat[key] = {}
    copies = gold = reducers = self_reducing = pending = taken = hosts = by_code = None
    pool = p["gold"]
    hosts_kws = {}
    for inst in p["hand"]:
        facts = known.get(inst, False)
        if facts is False:
            if by_code is None:
                by_code = _facts_by_code(state, seat)
            facts = known[inst] = _marshal_facts(state, seat, inst, by_code)
        if facts is None:
            continue
        kind, unique, copy_key, name, printed_cost, limited, needs, c = facts
        if unique:  # a duplicate under its own copy in play costs no gold (model.own_copy_in_play)
            if taken is None:
                taken = M.names_taken(state, seat)
            # A copy it owns in play is one it controls, so its name is taken ("control"): the copies
            # are looked through only for a name taken (most unique cards of a hand: none).
            if name in taken:
                if copies is None:
                    copies = M.own_copies(state, seat)
                if copy_key in copies:
                    out.append(["duplicate", inst])
                    continue
        if printed_cost > pool:  # the pool is most of what the seat may spend: no card read to see it fits
            if gold is None:
                gold = M.spendable_gold(state, seat)
            if printed_cost > gold:
                if reducers is None:
                    reducers = M.reducers_in_play(state, seat)
                    self_reducing = M.REDUCERS
                    pending = _pending_reduction(p)
                if not reducers and c not in self_reducing and printed_cost - pending > gold:
                    continue  # not even every pending reduction together would bring it within the gold
                if M.reduced_gold_cost(state, seat, inst, printed_cost, reducers) > gold:
                    continue
        if limited and p["limited_played"]:
            continue
        if kind == "attachment":
            if hosts is None:
                hosts = _kept_hosts(state)
                if M.refusals_printed(state):  # each host's refusal is its printed one: kept all game
                    hosts_kws = _printed_refusals(state)
            for fit in _hosts_for(hosts, inst, needs):
                for host, hrec in fit:
                    if M.attach_fits_now(state, seat, needs, host, hosts_kws):
                        out.append(["attach", inst, host])
        elif unique:  # model.can_enter_play: uniqueness and the dead pile (names_taken, read above)
            if name not in taken:
                out.append(["marshal", inst])
        else:
            out.append(["marshal", inst])
    return out


def _pending_reduction(p):
    """The most player `p`'s pending "next card costs N less" reductions (model.matching_reducers) can
    take off one card's cost: all of them together."""
    total = 0
    for r in p["reducers"]:  # a loop, not sum() of a generator: cpdef (flow.pxd)
        if r["amount"] > 0:
            total += r["amount"]
    return total


@step
def marshal_turn(ctx, st, answer):
    g = ctx.g
    state = ctx.state
    seat = st["seat"]
    p = g["players"][seat]
    if st["stage"] == "income":
        st["stage"] = "play"
        gold = income(state, seat)
        _take_gold(g, seat, gold)
        ctx.record("income", {"seat": seat, "gold": gold})  # emit's event, without its keywords
    if answer is not None:
        choice = answer[1]
        kind = choice[0]
        if kind == "done":
            return
        # After an action, every other player may act before this one goes on (rulebook); queued
        # first so that what the action itself triggers resolves before.
        after = _AFTER_PLAY.copy()  # made at its full size, not grown key by key (compiled: as core.Ctx.ask)
        after["turn"] = (seat + 1) % g["n"]
        ctx.push(after, st)
        if kind in ("marshal", "attach", "duplicate"):
            play_from_hand(ctx, seat, choice)
        else:
            T.take_action(ctx, seat, choice, "marshalling")
        return
    choices = marshal_choices(state, seat)  # a new list, its own: extended here, not copied twice
    choices.extend(T.window_choices(state, seat, "marshalling"))
    if not choices and not p["hand"]:
        return  # asked whenever the hand holds a card, playable or not: a skip would tell the table
    choices.append(["done"])
    ctx.ask(seat, "marshal", choices, _marshal_prompt(p["gold"]), public="is marshalling")


# {gold in the pool: the marshal ask's prompt}: a few amounts recur all game, so each is formatted once
_PROMPTS = {}


def _marshal_prompt(gold):
    """The marshal ask's prompt for `gold` in the pool (formatting it cost more than the look-up)."""
    prompts = _PROMPTS  # a local typed dict (flow.pxd): its get() is a C call
    prompt = prompts.get(gold)
    if prompt is None:
        if len(prompts) >= 256:
            prompts.clear()  # a bound on memory
        prompt = prompts[gold] = "Marshalling: %d gold in your pool" % gold
    return prompt


# The window step after a marshalling action (marshal_turn), but the seat whose turn it opens on.
_AFTER_PLAY = {"s": "window", "phase": "marshalling", "turn": None, "passes": 1, "tag": "after"}


def _take_gold(g, seat, amount):
    bank = g["bank"]
    if bank["gold"] < amount:
        bank["added_gold"] += amount - bank["gold"]
        bank["gold"] = amount
    bank["gold"] -= amount
    g["players"][seat]["gold"] += amount


def play_from_hand(ctx, seat, choice):
    """Play `choice`'s card from `seat`'s hand: the last move of marshal_turn's step, so the card's
    entering play is its step's last trigger (T.trigger's `last`)."""
    g = ctx.g
    state = ctx.state
    kind, inst = choice[0], choice[1]
    rec = M.info(state, inst)
    if kind == "duplicate":
        host = M.own_copy_in_play(state, seat, inst)
        M.take_out(g, inst)
        g["cards"][inst].update(zone="dup", on=host)
        g["cards"][host]["dups"] = g["cards"][host]["dups"] + [inst]  # a new list: model.dropped
        ctx.record("duplicate", {"seat": seat, "card": inst, "on": host})
        return
    pay_for(ctx, seat, inst)
    # "After you play X from your hand" responses: queued first, so they come after entering play.
    T.trigger(ctx, {"e": "played", "card": inst, "seat": seat, "type": rec["type"],
                    "on": choice[2] if kind == "attach" else None}, seat)
    if "limited" in (rec["keywords"] or ()):
        g["players"][seat]["limited_played"] = True
    if kind == "attach":
        M.take_out(g, inst)
        M.put(g, inst, "play")
        _hang(g, inst, choice[2])
        ctx.record("marshalled", {"seat": seat, "card": inst, "on": choice[2]})
        T.trigger(ctx, {"e": "entered_play", "card": inst, "seat": seat}, seat, True)
        return
    ctx.record("marshalled", {"seat": seat, "card": inst})
    enter_play(ctx, seat, inst, how="marshal", announce=False, last=True)


def pay_for(ctx, seat, inst):
    """Pay `inst`'s gold cost to play it from hand; the "next card costs less" reductions it used
    are spent."""
    g = ctx.g
    state = ctx.state
    p = g["players"][seat]
    # The reductions it uses, matched once: for its price (model.reduced_gold_cost) and to spend them.
    used = M.matching_reducers(state, seat, inst) if p["reducers"] else None  # none pending (most plays)
    M.pay_gold(g, seat, M.reduced_gold_cost(state, seat, inst, M.printed_gold_cost(state, seat, inst), None, used))
    if used:
        p["reducers"] = [r for r in p["reducers"] if r not in used]


def enter_play(ctx, seat, inst, how="put", announce=True, last=False):
    """`inst` enters play for `seat`; `last`: its caller's step does nothing after (T.trigger)."""
    g = ctx.g
    M.take_out(g, inst)
    g["cards"][inst]["ctrl"] = seat
    M.put(g, inst, "play")
    g["cards"][inst]["kneel"] = False
    if announce:
        ctx.emit("put_into_play", seat=seat, card=inst, how=how)
    T.trigger(ctx, {"e": "entered_play", "card": inst, "seat": seat}, seat, last)


def take_control(ctx, inst, seat):
    """`seat` takes control of `inst` (in play): it moves to that player's side with its
    attachments, power and kneeling; its owner does not change."""
    g = ctx.g
    c = g["cards"][inst]
    if c["ctrl"] == seat:
        return
    M.take_out(g, inst)  # model's moves, the one writer of the lists in play (model._TABLE_MOVES)
    c["ctrl"] = seat
    M.put(g, inst, "play")  # its power now counts for `seat` (model.POWER_ARRIVED): victory is checked after this step
    ctx.emit("control", seat=seat, card=inst)


def _hang(g, att, host):
    g["cards"][att]["on"] = host
    g["cards"][host]["att"] = g["cards"][host]["att"] + [att]  # a new list: model.dropped


def attach(ctx, att, host):
    """Move attachment `att` onto `host` (an effect: no restriction but No attachments is checked by
    the caller's targets)."""
    g = ctx.g
    old = g["cards"][att]["on"]
    if old is not None:
        g["cards"][old]["att"] = M.dropped(g["cards"][old]["att"], att)
    _hang(g, att, host)
    ctx.emit("attached", card=att, on=host)


# --- Ambush (keyword): a card put into play from hand in a window, paid with influence -------------

@step
def ambush_in(ctx, st, answer):
    """Ambush: the card, its influence paid, comes into play (an attachment onto the host chosen)."""
    ctx.emit("ambush", seat=st["seat"], card=st["card"])
    host = st.get("host")
    if host is None:
        enter_play(ctx, st["seat"], st["card"], how="ambush", last=True)  # this step's last move
        return
    g = ctx.g
    if g["cards"][host]["zone"] != "play":  # the host left play while the cost was paid: it stays in hand
        return
    M.take_out(g, st["card"])
    g["cards"][st["card"]]["ctrl"] = st["seat"]
    M.put(g, st["card"], "play")
    attach(ctx, st["card"], host)
    T.trigger(ctx, {"e": "entered_play", "card": st["card"], "seat": st["seat"]}, st["seat"], True)


@step
def ambush_host(ctx, st, answer):
    """Ambush of an attachment: choose the card it goes on, then pay its cost with influence."""
    if answer is None:
        hosts = abilities.ambush_hosts(ctx.state, st["seat"], st["card"])
        ctx.ask(st["seat"], "target", [["target", h] for h in hosts],
                "%s: choose the card it is attached to" % M.info(ctx.state, st["card"])["name"],
                public="chooses a target")
        return
    ctx.push({"s": "influence", "seat": st["seat"], "need": M.info(ctx.state, st["card"])["cost"] or 0, "paid": 0},
             {"s": "ambush_in", "seat": st["seat"], "card": st["card"], "host": answer[1][1]})


# --- dominance, standing, taxation ------------------------------------------------------------------

def dominance_total(state, seat):
    """Standing characters' STR plus gold (a loop, not sum() of a generator: cpdef, flow.pxd)."""
    g = state["g"]
    cards = g["cards"]
    total = g["players"][seat]["gold"]
    for i in M.characters(state, seat):
        if not cards[i]["kneel"]:
            total += M.strength(state, i)
    return total


@step
def dominance(ctx, st, answer):
    """Standing STR plus gold; the highest claims 1 power for its House, before any action; a tie
    for the highest wins nothing."""
    g = ctx.g
    state = ctx.state
    totals = [dominance_total(state, s) for s in range(g["n"])]
    best = max(totals)
    winners = [s for s in range(g["n"]) if totals[s] == best]
    winner = winners[0] if len(winners) == 1 else None
    if ctx.events is not None:  # made only when kept (draw)
        ctx.record("dominance", {"totals": totals, "winner": winner})
    T.open_window(ctx, "dominance")
    if winner is not None:
        T.trigger(ctx, {"e": "won_dominance", "seat": winner}, winner)
        claim_for_house(ctx, winner, 1, "dominance")


def claim_for_house(ctx, seat, amount, why):
    """Power claimed "for your House": on the House card, or on an Infamy card of the player's
    choice (rulebook, Infamy)."""
    state = ctx.state
    infamy = M.with_kw(state, state["g"]["players"][seat]["play"], "infamy")
    if infamy:
        ctx.push({"s": "power_to", "seat": seat, "amount": amount, "why": why, "cards": infamy})
    else:
        T.gain_power(ctx, seat, amount, why)


@step
def power_to(ctx, st, answer):
    if answer is None:
        choices = [["house"]] + [["card", i] for i in st["cards"] if ctx.g["cards"][i]["zone"] == "play"]
        ctx.ask(st["seat"], "infamy", choices, "Place %d power on your House or on an Infamy card" % st["amount"],
                public="places power")
        return
    choice = answer[1]
    T.gain_power(ctx, st["seat"], st["amount"], st["why"], on=choice[1] if choice[0] == "card" else None)


@step
def standing(ctx, st, answer):
    g = ctx.g
    state = ctx.state
    held = {e["target"] for e in g["effects"] if e["kind"] == "no_stand"}  # kept kneeling this round
    stood = []
    cards = g["cards"]
    # One pass over the play lists (not every card of the game: a card is in play only by model.put):
    # a kneeling card stays so if an effect holds it, or a constant says so (Noose and Swordpoint),
    # asked only of the kneeling cards no effect holds; nothing stands before every card is asked.
    for inst in M.in_play(g):
        if cards[inst]["kneel"] and inst not in held and not M.rare_constant(state, inst, "no_stand"):
            stood.append(inst)
    for inst in stood:
        cards[inst]["kneel"] = False
    if ctx.events is not None:  # made only when kept (draw)
        ctx.record("stood", {})
    T.trigger(ctx, {"e": "stood_in_standing", "cards": sorted(stood)}, None)
    T.open_window(ctx, "standing")


@step
def taxation(ctx, st, answer):
    g = ctx.g
    for seat, p in enumerate(g["players"]):
        if p["gold"] and not g.get("skip_taxation", {}).get(str(seat)):
            g["bank"]["gold"] += p["gold"]
            p["gold"] = 0
    g["skip_taxation"] = {}
    if ctx.events is not None:  # made only when kept (draw)
        ctx.record("taxed", {})
    T.open_window(ctx, "taxation")


@step
def round_end(ctx, st, answer):
    g = ctx.g
    end_scope(g, "round")
    titles.round_end(ctx.state)
