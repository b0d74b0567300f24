"""House Baratheon's starter deck (and the neutral cards that come in it): the card abilities.

Each card is registered under its code (all its copies' codes), with our own paraphrase above it;
`abilities.py` holds the framework and `effects.py` the verbs the effects are made of. Cards with no
ability text (B76 Brienne, B87 Bastard of Robert, B89 Host of Storm's End, B95-B97 Aegon's Garden,
B148 Crossroads) play by their printed keywords, income and influence alone.
"""

from . import abilities as A
from . import effects as E
from . import flow
from . import model as M
from . import timing as T
from .abilities import Ability, card
from .cards import card_table
from .steps import step


def _ctrl(state, inst):
    return state["g"]["cards"][inst]["ctrl"]


def _is_self(state, src, seat, ev):
    return ev["card"] == src


def _traits(state, inst):
    return M.info(state, inst)["traits"] or ()


def _power_to_house(ctx, seat, amount, why):
    flow.claim_for_house(ctx, seat, amount, why)


def _stand_target(ctx, src, seat, target, ev):
    E.stand(ctx, target, why=M.info(ctx.state, src)["name"])


def _stand_self(ctx, src, seat, target, ev):
    E.stand(ctx, src, why=M.info(ctx.state, src)["name"])


def _kneeling_self(state, src, seat, ev=None):
    return state["g"]["cards"][src]["kneel"]


def _host(state, src):
    return state["g"]["cards"][src]["on"]


# --- predicates (searches and kneel costs) ---------------------------------------------------------

@A.predicate("bara_knight_character")
def _knight_character(state, inst, seat):
    return M.info(state, inst)["type"] == "character" and "Knight" in _traits(state, inst)


@A.predicate("bara_character")
def _any_character(state, inst, seat):
    return M.info(state, inst)["type"] == "character"


@A.predicate("bara_noble_character")
def _noble_character(state, inst, seat):
    return M.info(state, inst)["type"] == "character" and "noble" in (M.info(state, inst)["crests"] or ())


# B66 Shadow's Blessing: the character it is on has +2 STR while it bears a power icon, -2 STR when not.
@A.constant_for("B66", answers=("str",), to="host")
def _shadows_blessing(state, src, inst, what):
    if what != "str" or _host(state, src) != inst or inst is None:
        return 0
    return 2 if M.has_icon(state, inst, "power") else -2


# B67 Motley: each time the controller of the character it is on declares it as an attacker or a
# defender, or uses its ability, they first hand you 1 gold from their pool (and cannot without it).
A.TOLLS["B67"] = 1
A.CARD_ABILITIES.add("B67")


# B68 Lightbringer: Response, kneel Lightbringer to save the character it is on from being killed.
card("B68", Ability("save", A.saved, trigger=("would_kill",), when=A.saves_host, cost=(("kneel_self",),)))


# B69 Stinking Drunk: the character it is on has -4 STR while it takes part in a challenge.
@A.constant_for("B69", answers=("str",), to="host")
def _stinking_drunk(state, src, inst, what):
    g = state["g"]
    ch = g["challenge"]
    if what != "str" or not ch or inst is None or _host(state, src) != inst:
        return 0
    return -4 if inst in ch["attackers"] or inst in ch["defenders"] else 0


# B70 Selyse Baratheon: Challenges action, kneel 1 influence: a unique character of your choice gains
# an intrigue icon until the end of the phase.
card("B70", Ability("action", lambda ctx, src, seat, t, ev: E.lasting(ctx.g, "icon", t, "intrigue", "phase", src),
                    phases=("challenges",), cost=(("influence", 1),),
                    target=lambda s, src, seat, ev: [c for c in M.characters(s) if M.info(s, c)["unique"]]))


# B71 / B90 Robert Baratheon: each time he claims power through Renown, he claims 1 more.
def _robert(ctx, src, seat, target, ev):
    T.gain_power(ctx, _ctrl(ctx.state, src), 1, "Robert Baratheon", on=src)


card(("B71", "B90"), Ability("forced", _robert, trigger=("claimed_renown",), when=_is_self))


# B72 Stannis Baratheon: while he attacks, a defending player who controls no Lord character may
# declare no defenders.
@A.constant_for("B72", answers=("keywords",), gives=("cannot_defend",))
def _stannis(state, src, inst, what):
    g = state["g"]
    ch = g["challenge"]
    if what != "keywords" or not ch or src not in ch["attackers"] or g["cards"][src]["zone"] != "play":
        return None
    c = g["cards"].get(inst)
    if c is None or c["zone"] != "play" or c["ctrl"] == g["cards"][src]["ctrl"] or not M.is_character(state, inst):
        return None
    if any("Lord" in _traits(state, o) for o in M.characters(state, c["ctrl"])):
        return None
    return {"gain": {"cannot_defend"}}


# B73 Renly Baratheon: Any phase, kneel 1 influence: stand Renly.
card("B73", Ability("action", _stand_self, cost=(("influence", 1),), when=_kneeling_self))


# B74 Melisandre: while she stands, Asshai characters have +1 STR, and the power on her controller's
# opponents' characters does not count toward those opponents' totals.
def _melisandre_up(state, src):
    g = state["g"]
    return g["cards"][src]["zone"] == "play" and not g["cards"][src]["kneel"]


@A.constant_for("B74", answers=("str",))
def _melisandre(state, src, inst, what):
    if what != "str" or inst not in state["g"]["cards"] or state["g"]["cards"][inst]["zone"] != "play":
        return 0
    return 1 if _melisandre_up(state, src) and M.is_character(state, inst) and "Asshai" in _traits(state, inst) else 0


_TYPES = {}


def _printed_type(code):
    if not _TYPES:
        _TYPES.update({c: r["type"] for c, r in card_table(owner=False)["cards"].items()})
    return _TYPES.get(code)


def _melisandre_power(g, seat, inst):
    """M.POWER_LEFT_OUT: power on `seat`'s character is left out while an opponent's Melisandre stands."""
    if not g["cards"][inst]["power"]:
        return False
    for opp in M.opponents(g, seat):
        for c in g["players"][opp]["play"]:
            if M.code(c) == "B74" and not g["cards"][c]["kneel"] and not M.blank({"g": g}, c):
                return _printed_type(M.code(inst)) == "character"
    return False


M.POWER_LEFT_OUT.append(_melisandre_power)
T.totals_change_by_themselves("B74")  # totals change as Melisandre kneels, stands or goes


# B75 Ser Davos Seaworth: Response, when he would be killed: save him, then pay 1 gold or return him
# to his owner's hand.
def _davos(ctx, src, seat, target, ev):
    A.saved(ctx, src, seat, target, ev)
    ctx.push({"s": "bara_davos", "seat": seat, "card": src})


@step
def bara_davos(ctx, st, answer):
    g = ctx.g
    seat, inst = st["seat"], st["card"]
    if g["cards"][inst]["zone"] != "play":
        return
    if answer is None and g["players"][seat]["gold"] >= 1:
        ctx.ask(seat, "choose", [["pay_gold"], ["to_hand"]], "Ser Davos Seaworth: pay 1 gold, or return him to your hand",
                public="chooses")
        return
    if answer is not None and answer[1][0] == "pay_gold":
        M.pay_gold(g, seat, 1)
        ctx.emit("gold_paid", seat=seat, amount=1, card=inst)
        return
    E.return_to_hand(ctx, inst, why="Ser Davos Seaworth")


card("B75", Ability("save", _davos, trigger=("would_kill",), when=_is_self))


# B77 Maester Cressen: Marshalling action, kneel him: discard a Condition attachment of your choice from play.
card("B77", Ability("action", lambda ctx, src, seat, t, ev: T.kill(ctx, [t], seat, src, how="discard"),
                    phases=("marshalling",), cost=(("kneel_self",),),
                    target=lambda s, src, seat, ev: [a for a in M.in_play(s["g"]) if s["g"]["cards"][a]["on"] is not None
                                                     and M.info(s, a)["type"] == "attachment"
                                                     and "Condition" in _traits(s, a)]))


# B78 Ser Axell Florent: Response after you win a power challenge by 4 STR or more: stand him.
def _won_power_by_4(state, src, seat, ev):
    return ev["winner"] == seat and ev["type"] == "power" and ev["margin"] >= 4


card("B78", Ability("response", _stand_self, trigger=("won_challenge",),
                    when=lambda s, src, seat, ev: _won_power_by_4(s, src, seat, ev) and _kneeling_self(s, src, seat)))


# B79 Edric Storm: Limited Response after you win a power challenge as the attacker by 4 STR or
# more: discard him from play (cannot be saved); you may make one more power challenge this phase.
def _edric(ctx, src, seat, target, ev):
    E.extra_challenge(ctx, seat, "power")
    T.kill(ctx, [src], seat, src, saveable=False, how="discard")


card("B79", Ability("response", _edric, trigger=("won_challenge",), limited=True,
                    when=lambda s, src, seat, ev: _won_power_by_4(s, src, seat, ev) and ev["attacker"] == seat))


# B80 Devan Seaworth: he has Stealth while a character you control has 1 power or more.
@A.constant_for("B80", answers=("keywords",), to="self", gives=("stealth",))
def _devan(state, src, inst, what):
    if what != "keywords" or inst != src:
        return None
    g = state["g"]
    if any(g["cards"][c]["power"] for c in M.characters(state, g["cards"][src]["ctrl"])):
        return {"gain": {"stealth"}}
    return None


# B81 Knight of the Rainwood: it cannot be discarded from play.
@A.constant_for("B81", answers=("keywords",), to="self", gives=("cannot_be_discarded",))
def _rainwood(state, src, inst, what):
    return {"gain": {"cannot_be_discarded"}} if what == "keywords" and inst == src else None


# B82 Stannis's Northern Cavalry: during a phase in which its STR was raised or lowered (a lasting
# STR effect on it, or its STR not the printed one, at any moment of the phase), it can be neither
# killed nor discarded from play. The moments are watched after every step (_cavalry_watch), so a STR
# that went up and came back (Holding the Trident, an effect until the end of a challenge) counts.
@A.constant_for("B82", answers=("keywords",), to="self", gives=("cannot_be_killed", "cannot_be_discarded"))
def _cavalry(state, src, inst, what):
    if what != "keywords" or inst != src:
        return None
    g = state["g"]
    changed = src in g.get("str_changed", ()) \
        or any(e["kind"] == "str" and e["target"] == src for e in g["effects"]) \
        or M.strength(state, src) != (M.info(state, src)["str"] or 0)
    return {"gain": {"cannot_be_killed", "cannot_be_discarded"}} if changed else None


def _cavalry_watch(ctx):
    """A watch (T.watch): note each Northern Cavalry whose STR is not its printed one now, for the rest
    of the phase (g["str_changed"], emptied as each phase begins: flow.phase)."""
    state = ctx.state
    g = ctx.g
    for p in g["players"]:
        for src in p["play"]:
            if src.startswith("B82#") and src not in g.get("str_changed", ()) \
                    and M.strength(state, src) != (M.info(state, src)["str"] or 0):
                g.setdefault("str_changed", []).append(src)


T.watch("B82", _cavalry_watch)  # run only in a game with a Northern Cavalry


# B83 Highgarden Honor Guard: Challenges action, from your hand: put it into play under the control
# of an opponent of your choice; when that opponent wins a challenge in which it took part, its
# control passes to you (its owner).
def _honor_guard_in(ctx, src, seat, target, ev):
    E.put_into_play(ctx, seat, src, how="Highgarden Honor Guard", controller=target)


def _honor_guard_back(ctx, src, seat, target, ev):
    flow.take_control(ctx, src, M.owner_of(src))


card("B83", Ability("action", _honor_guard_in, phases=("challenges",), from_hand=True,
                    when=lambda s, src, seat, ev: M.unique_blocked(s, seat, src) is None,
                    target=A.opponent_seats),
     Ability("forced", _honor_guard_back, trigger=("won_challenge",),
             when=lambda s, src, seat, ev: _ctrl(s, src) != M.owner_of(src) and ev["winner"] == _ctrl(s, src)
             and src in ev["participants"]))


# B84 Old Red Priest: Forced, when it is killed: kneel one of your standing locations, if you have one.
def _standing_locations(state, seat):
    g = state["g"]
    return [i for i in g["players"][seat]["play"] if M.info(state, i)["type"] == "location" and not g["cards"][i]["kneel"]]


card("B84", Ability("forced", lambda ctx, src, seat, t, ev: E.kneel(ctx, t, why="Old Red Priest"), trigger=("killed",),
                    when=lambda s, src, seat, ev: ev["card"] == src and bool(_standing_locations(s, M.owner_of(src))),
                    target=lambda s, src, seat, ev: _standing_locations(s, M.owner_of(src))))


# B85 Army of the Faithful: it costs 1 gold less to play for each Asshai character you control.
@A.reducer_for("B85", self_only=True)  # 0 unless inst is src
def _army_of_the_faithful(state, src, seat, inst):
    if inst != src:
        return 0
    return sum(1 for c in M.characters(state, seat) if "Asshai" in _traits(state, c))


A.blanking("B86", "B145")  # the blanks below (Renly's Courtier, Milk of the Poppy)


# B86 Renly's Courtier: Any phase, kneel it: the printed text box of a non-unique character of your
# choice is blank (Traits stay) until the end of the phase.
card("B86", Ability("action", lambda ctx, src, seat, t, ev: E.lasting(ctx.g, "blank", t, True, "phase", src),
                    cost=(("kneel_self",),),
                    target=lambda s, src, seat, ev: [c for c in M.characters(s) if not M.info(s, c)["unique"]]))


# B88 House Tyrell Guard: Response, from your hand, after a House Baratheon character you control
# is killed: put it into play.
def _tyrell_guard_when(state, src, seat, ev):
    return ev["seat"] == seat and M.is_character(state, ev["card"]) \
        and "baratheon" in (M.info(state, ev["card"])["houses"] or ()) and M.can_enter_play(state, seat, src)


card("B88", Ability("response", lambda ctx, src, seat, t, ev: E.put_into_play(ctx, seat, src, how="House Tyrell Guard"),
                    trigger=("killed",), from_hand=True, when=_tyrell_guard_when))


# B91 Dragonstone Port: it opens an action window in the plot phase after the plots are chosen and
# before they are revealed; Plot action in that window (once a phase, by errata): name a plot card;
# your House claims 1 power for each opponent who then reveals it.
@A.constant_for("B91", answers=("keywords",), to="self", gives=("plot_window",))
def _port_window(state, src, inst, what):
    return {"gain": {"plot_window"}} if what == "keywords" and inst == src else None


def _plot_names(state, src, seat, ev):
    return sorted({r["name"] for r in M.table(state)["cards"].values() if r["type"] == "plot"})


def _port_named(state, src):
    return [e["value"] for e in state["g"]["effects"] if e["kind"] == "named_plot" and e["target"] == src]


def _port_hit(state, src, seat, ev):
    return ev["seat"] in M.opponents(state["g"], seat) and ev["card"] is not None \
        and M.info(state, ev["card"])["name"] in _port_named(state, src)


card("B91", Ability("action", lambda ctx, src, seat, t, ev: E.lasting(ctx.g, "named_plot", src, t, "phase", src),
                    phases=("plot",), limit=("phase", 1), target=_plot_names,
                    when=lambda s, src, seat, ev: all(p["chosen"] is not None for p in s["g"]["players"])),
     Ability("forced", lambda ctx, src, seat, t, ev: _power_to_house(ctx, seat, 1, "Dragonstone Port"),
             trigger=("plot_revealed",), when=_port_hit))


# B92 / B93 Stormlands Fiefdoms: Marshalling, kneel it: the next House Baratheon card you play this
# phase costs 1 gold less.
E.marshal_reducer(("B92", "B93"), 1, houses=["baratheon"])


# B98 Great Hall: Marshalling, kneel it: the next House Baratheon character you play this phase costs 2 less.
E.marshal_reducer("B98", 2, houses=["baratheon"], kind="character")


# B99 Narrow Sea (a copy of S33): Marshalling, discard it from play: the next Stark or Baratheon
# character you play this phase costs 2 gold less.
E.marshal_reducer("B99", 2, houses=["stark", "baratheon"], kind="character", cost="discard_self")


# B145 Milk of the Poppy: the text box of the character it is on is blank, its Traits apart
# (a lasting blank for as long as Milk of the Poppy stays in play on it).
def _milk(ctx, src, seat, target, ev):
    host = _host(ctx.state, src)
    if host is not None:
        E.lasting(ctx.g, "blank", host, True, "source", src)


card("B145", Ability("forced", _milk, trigger=("entered_play",), when=_is_self))


# B146 Ser Barristan Selmy: Forced, when he enters play: each player shuffles their discard pile into their deck.
def _barristan(ctx, src, seat, target, ev):
    g = ctx.g
    for s in M.order_from(g, seat):
        for inst in list(g["players"][s]["discard"]):
            M.move(g, inst, "deck")
        E.shuffle_deck(ctx, s)


card("B146", Ability("forced", _barristan, trigger=("entered_play",), when=_is_self))


# B147 Knight of Flowers: Forced, as the dominance phase begins, if he stands: he claims 1 power.
card("B147", Ability("forced", lambda ctx, src, seat, t, ev: T.gain_power(ctx, seat, 1, "Knight of Flowers", on=src),
                     trigger=("phase_started",),
                     when=lambda s, src, seat, ev: ev["phase"] == "dominance" and not s["g"]["cards"][src]["kneel"]))


# B149 Street of Sisters: Marshalling, kneel it: the next character with a power icon you play this
# phase costs 1 gold less.
E.marshal_reducer("B149", 1, kind="character", icon="power")


# B168 Muster: Marshalling, kneel a Knight you control: search your deck for a Knight character,
# reveal it, put it in your hand, shuffle.
@A.predicate("bara_knight_in_play")
def _knight_in_play(state, inst, seat):
    return M.is_character(state, inst) and "Knight" in _traits(state, inst)


card("B168", Ability("action", lambda ctx, src, seat, t, ev: E.search(ctx, seat, "bara_knight_character", "hand", "Muster"),
                     phases=("marshalling",), cost=(("kneel", 1, "bara_knight_in_play"),)))


# B169 Prosperity and Plenty: Any phase, pay 1 gold: take an attachment from your discard pile and
# attach it to one of your characters (it is discarded if it may not go there).
def _prosperity(ctx, src, seat, target, ev):
    ctx.push({"s": "bara_prosperity", "seat": seat, "card": target})


@step
def bara_prosperity(ctx, st, answer):
    g = ctx.g
    seat, att = st["seat"], st["card"]
    if g["cards"][att]["zone"] != "discard":
        return
    mine = M.characters(ctx.state, seat)
    if answer is None and mine:
        ctx.ask(seat, "target", [["target", c] for c in mine], "Prosperity and Plenty: attach it to which character?",
                public="chooses a target")
        return
    host = answer[1][1] if answer is not None else None
    if host is None or not M.attach_ok(ctx.state, seat, att, host):
        ctx.emit("not_attached", seat=seat, card=att)
        return  # not a legal place for it: it stays in the discard pile
    M.take_out(g, att)
    g["cards"][att]["ctrl"] = seat
    M.put(g, att, "play")
    flow.attach(ctx, att, host)
    T.trigger(ctx, {"e": "entered_play", "card": att, "seat": seat}, seat)


card("B169", Ability("action", _prosperity, cost=(("gold", 1),),
                     target=lambda s, src, seat, ev: [a for a in s["g"]["players"][seat]["discard"]
                                                      if M.info(s, a)["type"] == "attachment"]))


# B170 Lords of the Narrow Sea: Any phase, kneel 3 influence or a Noble character: an opponent of
# your choice reveals a new plot; if its income is lower than your plot's, your House claims 1 power.
def _lords(ctx, src, seat, target, ev):
    ctx.push({"s": "bara_new_plot", "seat": seat, "opp": target})


def _plot_income(state, seat):
    plot = state["g"]["players"][seat]["revealed"]
    return M.info(state, plot)["plot"]["income"] + M.constant(state, plot, "income")


@step
def bara_new_plot(ctx, st, answer):
    g = ctx.g
    state = ctx.state
    opp = st["opp"]
    p = g["players"][opp]
    if not p["plots"]:
        return
    if answer is None:
        ctx.ask(opp, "plot", [["plot", i] for i in sorted(p["plots"])], "Reveal a new plot (Lords of the Narrow Sea)",
                public="chooses a plot")
        return
    new = answer[1][1]
    if p["revealed"]:
        M.move(g, p["revealed"], "used")
    M.move(g, new, "revealed")
    ctx.emit("plot_replaced", seat=opp, plot=new)
    steps = [A.ability_step(g, opp, plot, idx, {"e": "revealed"}) for plot, idx in A.when_revealed(state, opp)]
    steps.append({"s": "plot_recycle"})
    ctx.push(*steps)
    if g["players"][st["seat"]]["revealed"] and _plot_income(state, opp) < _plot_income(state, st["seat"]):
        _power_to_house(ctx, st["seat"], 1, "Lords of the Narrow Sea")


def _lords_targets(state, src, seat, ev):
    return [s for s in M.opponents(state["g"], seat) if state["g"]["players"][s]["plots"]]


card("B170", Ability("action", _lords, cost=(("influence", 3),), target=_lords_targets),
     Ability("action", _lords, cost=(("kneel", 1, "bara_noble_character"),), target=_lords_targets))


# B171 Retreat: Response after a unique character you control is killed: it goes to your hand
# instead of your dead pile.
def _retreat(ctx, src, seat, target, ev):
    inst = ev["card"]
    if ctx.g["cards"][inst]["zone"] == "dead":
        M.move(ctx.g, inst, "hand")
        ctx.emit("returned_to_hand", seat=seat, card=inst, frm="dead", why="Retreat")


card("B171", Ability("response", _retreat, trigger=("killed",),
                     when=lambda s, src, seat, ev: ev["seat"] == seat and M.info(s, ev["card"])["unique"]
                     and M.is_character(s, ev["card"]) and s["g"]["cards"][ev["card"]]["zone"] == "dead"))


# B172 Support of the Kingdom: Response after you win a power challenge: take control of a location
# an opponent controls that gives gold or influence.
def _kingdom_targets(state, src, seat, ev):
    g = state["g"]
    return [i for opp in M.opponents(g, seat) for i in g["players"][opp]["play"]
            if M.info(state, i)["type"] == "location" and g["cards"][i]["on"] is None
            and (M.income_bonus(state, i) > 0 or M.influence_of(state, i) > 0)]


def _kingdom(ctx, src, seat, target, ev):
    flow.take_control(ctx, target, seat)


card("B172", Ability("response", _kingdom, trigger=("won_challenge",), target=_kingdom_targets,
                     when=lambda s, src, seat, ev: ev["winner"] == seat and ev["type"] == "power"))


# B179 Distinct Mastery (a copy of S177): Any phase: stand a character with a Holy, Learned, Noble or War crest.
card("B179", Ability("action", _stand_target,
                     target=lambda s, src, seat, ev: [c for c in M.characters(s) if s["g"]["cards"][c]["kneel"]
                                                      and {"holy", "learned", "noble", "war"}
                                                      & set(M.info(s, c)["crests"] or ())]))


# --- plots ------------------------------------------------------------------------------------------

# B181 Summoning Season: When revealed, you and then an opponent of your choice each search your own
# deck for a character, reveal it, put it in your hand and shuffle.
def _summoning(ctx, src, seat, target, ev):
    E.search(ctx, target, "bara_character", "hand", "Summoning Season")  # queued first, runs second
    E.search(ctx, seat, "bara_character", "hand", "Summoning Season")


card("B181", Ability("revealed", _summoning, target=A.opponent_seats))


# B182 Mutual Cause: When revealed, with 2 or more opponents: choose one; this round neither of you
# may make a power challenge against the other.
def _mutual_cause(ctx, src, seat, target, ev):
    power = 2  # challenge.TYPES.index("power"): a no_challenge value is type index * 10 + seat
    E.lasting(ctx.g, "no_challenge", seat, power * 10 + target, "round", src)
    E.lasting(ctx.g, "no_challenge", target, power * 10 + seat, "round", src)


card("B182", Ability("revealed", _mutual_cause, when=lambda s, src, seat, ev: len(M.opponents(s["g"], seat)) >= 2,
                     target=A.opponent_seats))


# B183 Uneasy Truce: a player must give the defending player 2 gold before starting a military challenge.
@A.constant_for("B183", answers=("toll:military",))
def _uneasy_truce(state, src, inst, what):
    return 2 if what == "toll:military" else 0


# B184 Rains of Autumn: this round the income bonuses of characters, locations and attachments count
# for nothing (a plot's own income stays).
@A.constant_for("B184", answers=("income",))
def _rains(state, src, inst, what):
    if what != "income" or inst not in state["g"]["cards"] or state["g"]["cards"][inst]["zone"] != "play":
        return 0
    return -(M.info(state, inst)["income"] or 0)


# B185 Good for the Gander: When revealed: resolve the "when revealed" effect of a plot an opponent
# has revealed, as if it were this plot's.
def _gander_targets(state, src, seat, ev):
    g = state["g"]
    out = []
    for opp in M.opponents(g, seat):
        plot = g["players"][opp]["revealed"]
        if plot and M.code(plot) != "B185" and A.when_revealed(state, opp):
            out.append(plot)
    return out


def _gander(ctx, src, seat, target, ev):
    abs_ = A.ABILITIES.get(M.code(target), ())
    ctx.push(*[A.ability_step(ctx.g, seat, target, i, {"e": "revealed", "as": src})
               for i, ab in enumerate(abs_) if ab.kind == "revealed"])


card("B185", Ability("revealed", _gander, target=_gander_targets,
                     when=lambda s, src, seat, ev: bool(_gander_targets(s, src, seat, ev))))


# B186 Tourney for the Hand: Knights you control have +1 STR and are immune to opponents' character abilities.
@A.constant_for("B186", answers=("str", "keywords"), gives=("immune_opponent_character",))
def _tourney(state, src, inst, what):
    g = state["g"]
    c = g["cards"].get(inst)
    if what not in ("str", "keywords") or c is None or c["zone"] != "play" or c["ctrl"] != M.owner_of(src) \
            or not M.is_character(state, inst) or "Knight" not in _traits(state, inst):
        return 0 if what == "str" else None
    return 1 if what == "str" else {"gain": {"immune_opponent_character"}}


# B187 Fleeing to the Wall: When revealed (it cannot be cancelled, by errata): each player, from you
# clockwise, keeps up to 3 of their locations and discards the others (the discard cannot be saved).
@A.constant_for("B187", answers=("uncancelable",), to="self")
def _fleeing_uncancelable(state, src, inst, what):
    return 1 if what == "uncancelable" and inst == src else 0


def _fleeing(ctx, src, seat, target, ev):
    ctx.push(*[{"s": "bara_fleeing", "seat": s, "keep": []} for s in M.order_from(ctx.g, seat)])


@step
def bara_fleeing(ctx, st, answer):
    g = ctx.g
    state = ctx.state
    seat = st["seat"]
    if answer is not None:
        if answer[1][0] == "keep":
            st["keep"].append(answer[1][1])
        else:
            st["done"] = True
    locs = [i for i in g["players"][seat]["play"] if M.info(state, i)["type"] == "location"]
    rest = [i for i in locs if i not in st["keep"]]
    if len(locs) <= 3:
        return  # keeps them all
    if len(st["keep"]) < 3 and not st.get("done"):
        ctx.ask(seat, "keep", [["keep", i] for i in rest] + [["done"]],
                "Fleeing to the Wall: keep a location (%d of 3)" % (len(st["keep"]) + 1), public="keeps locations")
        return
    T.kill(ctx, rest, seat, None, saveable=False, how="discard")


card("B187", Ability("revealed", _fleeing))


# B94 King Robert's Chambers (+1 income, 1 influence): Marshalling, you may play it from your hand
# onto your own House card for its gold cost; there it is no location a card may choose, and it
# still gives its income and influence (the same rule as the other three Chambers).
E.house_card_location("B94")
