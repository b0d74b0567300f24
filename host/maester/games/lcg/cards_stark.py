"""House Stark's starter deck (and the neutral cards that come in it): the card abilities.

Each card is registered under its code (all its copies' codes), with our own paraphrase above it;
`abilities.py` holds the framework and `effects.py` the verbs the effects are made of. Cards with
no ability text (War Host of the North, Knight of the Tumblestone, Direwolf Pup, Great Keep,
Crossroads) play with their printed stats, keywords, income and influence alone.
"""

from . import abilities as A
from . import effects as E
from . import flow
from . import model as M
from . import timing
from .abilities import Ability, card
from .steps import step


# --- small questions the Stark cards ask ----------------------------------------------------------

def _ctrl(state, inst):
    return state["g"]["cards"][inst]["ctrl"]


def _named(state, name, seat=None):
    """Cards in play called `name` (controlled by `seat` when given)."""
    return [i for i in M.in_play(state["g"], seat) if M.info(state, i)["name"] == name]


def _traits(state, inst):
    return M.info(state, inst)["traits"] or ()


def _is_stark(state, inst):
    return "stark" in (M.info(state, inst)["houses"] or ())


def _challenge(state):
    """The challenge under way, before its result (None between challenges)."""
    ch = state["g"]["challenge"]
    return ch if ch is not None and "winner" not in ch else None


def _participants(state):
    g = state["g"]
    ch = g["challenge"]
    if not ch:
        return []
    return [i for i in ch["attackers"] + ch["defenders"] if g["cards"][i]["zone"] == "play"]


def _own_src(fn):
    """A condition that the trigger is about this very card."""
    return lambda s, src, seat, ev: ev.get("card") == src and fn(s, src, seat, ev)


def _draw(ctx, seat, n):
    flow.draw(ctx, seat, n, capped=True)


@A.predicate("stark_house_character")
def _stark_character(state, inst, seat):
    return M.is_character(state, inst) and _is_stark(state, inst)


@A.predicate("stark_noble_character")
def _noble_character(state, inst, seat):
    return M.is_character(state, inst) and "noble" in (M.info(state, inst)["crests"] or ())


@A.predicate("stark_direwolf")
def _direwolf(state, inst, seat):
    return "Direwolf" in _traits(state, inst)


@A.predicate("stark_location")
def _location(state, inst, seat):
    return M.info(state, inst)["type"] == "location"


@A.predicate("stark_cheap_location")
def _cheap_location(state, inst, seat):
    """A location printed at 2 gold or less that may enter play (uniqueness still holds)."""
    rec = M.info(state, inst)
    return rec["type"] == "location" and (rec["cost"] or 0) <= 2 and M.unique_blocked(state, seat, inst) is None


# === attachments ===================================================================================

# S1 Ice: Challenges action while the bearer attacks or defends: kneel Ice and discard it (the
# discard cannot be saved) to kill another participating character of your choice.
def _ice_when(state, src, seat, ev):
    return _challenge(state) is not None and state["g"]["cards"][src]["on"] in _participants(state)


card("S1", Ability("action", lambda ctx, src, seat, t, ev: _kill(ctx, [t], seat, src), phases=("challenges",),
                   challenge=True, when=_ice_when, cost=(("kneel_self",), ("discard_self",)),
                   target=lambda s, src, seat, ev: [i for i in _participants(s) if i != s["g"]["cards"][src]["on"]]))


def _kill(ctx, insts, seat, src):
    timing.kill(ctx, [i for i in insts if ctx.g["cards"][i]["zone"] == "play"], seat, src=src)


# S2 Nymeria: Response, kneel Nymeria to save the character it is on from being killed; on Arya Stark
# she also gives +1 STR and stealth.
card("S2", Ability("save", A.saved, trigger=("would_kill",), when=A.saves_host, cost=(("kneel_self",),)))


@A.constant_for("S2", answers=("str", "keywords"), to="host", gives=("stealth",))
def _nymeria(state, src, inst, what):
    if what not in ("str", "keywords") or state["g"]["cards"][src]["on"] != inst \
            or M.info(state, inst)["name"] != "Arya Stark":
        return 0
    return 1 if what == "str" else {"gain": {"stealth"}}


# S3 Summer: the character it is on gains a military icon and +2 STR; on Bran Stark, stealth too.
@A.constant_for("S3", answers=("str", "icons", "keywords"), to="host", gives=("stealth",))
def _summer(state, src, inst, what):
    if state["g"]["cards"][src]["on"] != inst:
        return 0
    if what == "str":
        return 2
    if what == "icons":
        return {"gain": {"military"}}
    if what == "keywords" and M.info(state, inst)["name"] == "Bran Stark":
        return {"gain": {"stealth"}}
    return 0


# === characters ====================================================================================

# S4 Ser Rodrik Cassel: does not kneel when declared as a defender; +2 STR while defending.
@A.constant_for("S4", answers=("str", "keywords"), to="self", gives=("no_kneel_defend",))
def _rodrik(state, src, inst, what):
    if inst != src:
        return 0
    if what == "keywords":
        return {"gain": {"no_kneel_defend"}}
    ch = state["g"]["challenge"]
    if what == "str" and ch and src in ch["defenders"]:
        return 2
    return 0


# S5 Eddard Stark: as he enters play (setup does not count) he claims 1 power.
def _eddard(ctx, src, seat, target, ev):
    timing.gain_power(ctx, seat, 1, "Eddard Stark", on=src)


card("S5", Ability("forced", _eddard, trigger=("entered_play",), when=lambda s, src, seat, ev: ev["card"] == src))


# S6 Catelyn Stark: Response after she is declared as a defender: a character in the challenge
# counts no STR for the rest of the challenge.
card("S6", Ability("response", lambda ctx, src, seat, t, ev: E.lasting(ctx.g, "uncounted", t, True, "challenge", src),
                   trigger=("defenders_declared",), when=lambda s, src, seat, ev: src in ev["cards"],
                   target=lambda s, src, seat, ev: _participants(s)))


# S7 Arya Stark: Any phase, kneel 1 influence: a character with stealth or renown loses them until the
# end of the phase, and Arya gains each one it lost.
def _arya(ctx, src, seat, target, ev):
    for kw in ("stealth", "renown"):
        if M.has_kw(ctx.state, target, kw):
            E.lasting(ctx.g, "lose_keyword", target, kw, "phase", src)
            E.lasting(ctx.g, "keyword", src, kw, "phase", src)


card("S7", Ability("action", _arya, cost=(("influence", 1),),
                   target=A.CharacterTargets(other=True, keywords=("stealth", "renown"))))


# S8 Robb Stark: Response after you win a military challenge he took part in: kill a character
# the losing player controls.
def _robb_when(state, src, seat, ev):
    return ev["winner"] == seat and ev["type"] == "military" and src in ev["participants"] and ev["loser"] is not None


card("S8", Ability("response", lambda ctx, src, seat, t, ev: _kill(ctx, [t], seat, src), trigger=("won_challenge",),
                   when=_robb_when, target=lambda s, src, seat, ev: M.characters(s, ev["loser"])))


# S9 Sansa Stark: Response after any player plays an attachment on her: that player may draw 1 card.
card("S9", Ability("response", lambda ctx, src, seat, t, ev: _draw(ctx, ev["seat"], 1), trigger=("played",),
                   when=lambda s, src, seat, ev: ev["type"] == "attachment" and ev["on"] == src
                   and _may_draw(s, ev["seat"])))


def _may_draw(state, seat):
    return flow.may_draw(state, seat)


# S10 Greatjon Umber: Challenges action, kneel him: he joins the military or power challenge under
# way, attacking or defending on your side.
def _greatjon_when(state, src, seat, ev):
    ch = _challenge(state)
    return ch is not None and ch["type"] in ("military", "power") and ch["attackers"] \
        and src not in ch["attackers"] + ch["defenders"] and seat in (ch["attacker"], ch["defender"])


def _greatjon(ctx, src, seat, target, ev):
    ch = ctx.g["challenge"]
    if ch is None or ctx.g["cards"][src]["zone"] != "play":
        return
    side = "attackers" if seat == ch["attacker"] else "defenders"
    ch[side].append(src)
    ctx.emit("joins_challenge", card=src, side=side)


card("S10", Ability("action", _greatjon, phases=("challenges",), challenge=True, when=_greatjon_when, cost=(("kneel_self",),)))


# S11 Shaggydog: while you control a House Stark Lord character, +3 STR and immune to events.
@A.constant_for("S11", answers=("str", "keywords"), to="self", gives=("immune_events",))
def _shaggydog(state, src, inst, what):
    if inst != src or what not in ("str", "keywords"):
        return 0
    if not any(_is_stark(state, i) and "Lord" in _traits(state, i) for i in M.characters(state, _ctrl(state, src))):
        return 0
    return 3 if what == "str" else {"gain": {"immune_events"}}


# S12 Hodor: may never attack; stealth cannot get past him.
@A.constant_for("S12", answers=("keywords",), to="self", gives=("cannot_attack", "stealth_proof"))
def _hodor(state, src, inst, what):
    return {"gain": {"cannot_attack", "stealth_proof"}} if what == "keywords" and inst == src else 0


# S13 Bran Stark: Plot phase, kneel Bran: choose another plot card of your plot deck and reveal it
# in place of your revealed plot (errata: at most three times a round).
def _bran(ctx, src, seat, target, ev):
    g = ctx.g
    p = g["players"][seat]
    if g["cards"][target]["zone"] != "plots":
        return
    if p["revealed"]:
        M.move(g, p["revealed"], "used")
    M.move(g, target, "revealed")
    E.reveal(ctx, seat, [target], "Bran Stark")
    ctx.push(*[A.ability_step(g, seat, plot, idx, {"e": "revealed"}) for plot, idx in A.when_revealed(ctx.state, seat)]
             + [{"s": "plot_recycle"}])
    timing.trigger(ctx, {"e": "plot_revealed", "seat": seat, "card": target}, seat)


card("S13", Ability("action", _bran, phases=("plot",), cost=(("kneel_self",),), limit=("round", 3),
                    # once the plots are revealed (not in the window while chosen plots lie face down)
                    when=lambda s, src, seat, ev: s["g"]["players"][seat]["chosen"] is None
                    and s["g"]["players"][seat]["revealed"] is not None,
                    target=lambda s, src, seat, ev: sorted(s["g"]["players"][seat]["plots"])))


# S14 Grey Wind: costs 2 gold less to play while Robb Stark is in play.
@A.reducer_for("S14", self_only=True)  # 0 unless inst is src
def _grey_wind(state, src, seat, inst):
    return 2 if src == inst and _named(state, "Robb Stark") else 0


# S15 Lady: your Sansa Stark gains renown and +1 STR; Lady costs 2 gold less while Sansa is in play.
@A.constant_for("S15", answers=("str", "keywords"), to=("named", "Sansa Stark"), gives=("renown",))
def _lady(state, src, inst, what):
    if what not in ("str", "keywords") or M.info(state, inst)["name"] != "Sansa Stark" \
            or _ctrl(state, inst) != _ctrl(state, src):
        return 0
    return 1 if what == "str" else {"gain": {"renown"}}


@A.reducer_for("S15", self_only=True)  # 0 unless inst is src
def _lady_cost(state, src, seat, inst):
    return 2 if src == inst and _named(state, "Sansa Stark") else 0


# S17 Winterfell Honor Guard: Challenges action from your hand: put it into play under the control of
# an opponent you choose; when that opponent wins a challenge it took part in, you take it back.
def _honor_guard_in(ctx, src, seat, target, ev):
    if ctx.g["cards"][src]["zone"] == "hand":
        E.put_into_play(ctx, seat, src, how="Winterfell Honor Guard", controller=target)


def _honor_guard_back_when(state, src, seat, ev):
    return _ctrl(state, src) != M.owner_of(src) and ev["winner"] == _ctrl(state, src) and src in ev["participants"]


def _honor_guard_back(ctx, src, seat, target, ev):
    if ctx.g["cards"][src]["zone"] == "play":
        flow.take_control(ctx, src, M.owner_of(src))


card(("S17",),
     Ability("action", _honor_guard_in, phases=("challenges",), from_hand=True,
             when=lambda s, src, seat, ev: any(M.unique_blocked(s, o, src) is None for o in M.opponents(s["g"], seat)),
             target=A.opponent_seats),
     Ability("forced", _honor_guard_back, trigger=("won_challenge",), when=_honor_guard_back_when))


# S20 Kennel Master: +1 STR for each Direwolf card in play; while you control 3 or more Direwolf
# cards, Response: when he would be killed or discarded, return him to his owner's hand instead.
@A.constant_for("S20", answers=("str",), to="self")
def _kennel_master(state, src, inst, what):
    if what != "str" or inst != src:
        return 0
    return sum(1 for i in M.in_play(state["g"]) if "Direwolf" in _traits(state, i))


def _kennel_master_save(ctx, src, seat, target, ev):
    A.saved(ctx, src, seat, target, ev)
    E.return_to_hand(ctx, src, why="Kennel Master")


card("S20", Ability("save", _kennel_master_save, trigger=("would_kill", "would_discard"),
                    when=lambda s, src, seat, ev: ev["card"] == src
                    and sum(1 for i in M.in_play(s["g"], seat) if "Direwolf" in _traits(s, i)) >= 3))


# S21 House Tully Recruiter: Marshalling, kneel it: your next House Stark character this phase
# costs 1 gold less.
E.marshal_reducer("S21", 1, houses=["stark"], kind="character")


# S22 Trident Reinforcements: Dominance action from your dead pile, while it holds 3 or more
# characters: return it to your hand.
def _trident(ctx, src, seat, target, ev):
    if ctx.g["cards"][src]["zone"] == "dead":
        M.move(ctx.g, src, "hand")
        ctx.emit("returned_to_hand", seat=seat, card=src, frm="dead")


card("S22", Ability("action", _trident, phases=("dominance",), from_dead=True,
                    when=lambda s, src, seat, ev: sum(1 for i in s["g"]["players"][seat]["dead"]
                                                      if M.is_character(s, i)) >= 3))


# S23 Winterfell Reserves: Response after it is declared as a defender, pay 1 gold: the top card of
# a player's discard pile goes back on top of that player's deck.
def _reserves(ctx, src, seat, target, ev):
    g = ctx.g
    pile = g["players"][target]["discard"]
    if not pile:
        return
    inst = pile[-1]  # the last card laid on the pile is its top
    M.move(g, inst, "deck", top=True)
    if g["observe_draws"]:
        g["players"][target]["deck"].sort()  # a real deck: the host keeps it unordered
    ctx.emit("to_deck_top", seat=target, card=inst, why="Winterfell Reserves")


card("S23", Ability("response", _reserves, trigger=("defenders_declared",), cost=(("gold", 1),),
                    when=lambda s, src, seat, ev: src in ev["cards"],
                    target=lambda s, src, seat, ev: [x for x in range(s["g"]["n"]) if s["g"]["players"][x]["discard"]]))


# === locations =====================================================================================

# S24 Winterfell Kennels: Any phase, kneel it and pay 1 gold: search your deck for a Direwolf card,
# reveal it, put it in your hand and shuffle.
card("S24", Ability("action", lambda ctx, src, seat, t, ev: E.search(ctx, seat, "stark_direwolf", "hand",
                                                                   "Winterfell Kennels"),
                    cost=(("kneel_self",), ("gold", 1))))


# S25 Winterfell Castle: each House Stark character you control has +1 STR.
@A.constant_for("S25", answers=("str",))
def _castle(state, src, inst, what):
    return 1 if what == "str" and _ctrl(state, inst) == _ctrl(state, src) and M.is_character(state, inst) \
        and _is_stark(state, inst) else 0


# S26 S27 Northern Fiefdoms: Marshalling, kneel it: your next House Stark card this phase costs 1
# gold less (its influence 1 is printed).
E.marshal_reducer(("S26", "S27"), 1, houses=["stark"])


# S28 Lord Eddard's Chambers: you may play it as an attachment on your own House card (it then is
# no location a card may choose; its income and influence still count).
E.house_card_location("S28")
_on_house = E.on_house


# S32 Godswood: Marshalling, kneel it: your next House Stark character this phase costs 2 gold less.
E.marshal_reducer("S32", 2, houses=["stark"], kind="character")


# S33 Narrow Sea: Marshalling, discard it from play: your next Stark or Baratheon character this
# phase costs 2 gold less.
E.marshal_reducer("S33", 2, houses=["stark", "baratheon"], kind="character", cost="discard_self")


# === neutral characters and locations ============================================================

# S135 Benjen Stark: Forced, after he is killed: every player shuffles their dead pile into their deck.
def _benjen(ctx, src, seat, target, ev):
    g = ctx.g
    for s in M.order_from(g, seat):
        p = g["players"][s]
        for inst in list(p["dead"]):
            M.move(g, inst, "deck")
        E.shuffle_deck(ctx, s)


card("S135", Ability("forced", _benjen, trigger=("killed",), when=lambda s, src, seat, ev: ev["card"] == src))


# S136 Jon Snow: your Ghost is immune to events; Response after you win a challenge in which Jon Snow
# or Ghost took part: Jon Snow claims 1 power.
def _jon_when(state, src, seat, ev):
    return ev["winner"] == seat and any(i == src or M.info(state, i)["name"] == "Ghost" for i in ev["participants"]
                                        if state["g"]["cards"][i]["ctrl"] == seat)


def _jon(ctx, src, seat, target, ev):
    if ctx.g["cards"][src]["zone"] == "play":
        timing.gain_power(ctx, seat, 1, "Jon Snow", on=src)


card("S136", Ability("response", _jon, trigger=("won_challenge",), when=_jon_when))


def _immune_partner(name):
    def fn(state, src, inst, what):
        if what == "keywords" and M.info(state, inst)["name"] == name and _ctrl(state, inst) == _ctrl(state, src):
            return {"gain": {"immune_events"}}
        return 0
    return fn


A.constant_for("S136", answers=("keywords",), to=("named", "Ghost"), gives=("immune_events",))(_immune_partner("Ghost"))

# S137 Ghost: your Jon Snow is immune to events; Response, kneel Ghost: save a Night's Watch character
# from being killed or discarded from play.
A.constant_for("S137", answers=("keywords",), to=("named", "Jon Snow"), gives=("immune_events",))(_immune_partner("Jon Snow"))
card("S137", Ability("save", A.saved, trigger=("would_kill", "would_discard"), cost=(("kneel_self",),),
                     when=lambda s, src, seat, ev: "Night's Watch" in _traits(s, ev["card"])))


# S139 Street of Steel: Marshalling, kneel it: your next character with a military icon this phase
# costs 1 gold less.
E.marshal_reducer("S139", 1, kind="character", icon="military")


# === events ========================================================================================

# S155 Distraction: Marshalling: kneel a character with a military icon.
card("S155", Ability("action", lambda ctx, src, seat, t, ev: E.kneel(ctx, t, why="Distraction"), phases=("marshalling",),
                     target=A.CharacterTargets(kneeling=False, icon="military")))


# S156 Winter is Coming: Challenges (limit 1 a round): for this challenge, each House Stark player's
# revealed plot has +1 claim.
def _winter(ctx, src, seat, target, ev):
    ch = ctx.g["challenge"]
    if ch is not None and ctx.g["players"][ch["attacker"]]["house"] == "stark":
        ch["claim_mod"] += 1  # only the attacker's claim is used in a challenge
        ctx.emit("claim_changed", seat=ch["attacker"], amount=1, card=src)


card("S156", Ability("action", _winter, phases=("challenges",), challenge=True, when=lambda s, src, seat, ev: _challenge(s) is not None))


# S157 Kings in the North: Response after you win dominance, kneel 2 House Stark characters you
# control: each of them claims 1 power.
def _kings(ctx, src, seat, target, ev):
    for inst in ev["knelt"]:
        if ctx.g["cards"][inst]["zone"] == "play":
            timing.gain_power(ctx, seat, 1, "Kings in the North", on=inst)


card("S157", Ability("response", _kings, trigger=("won_dominance",), cost=(("kneel", 2, "stark_house_character"),),
                     when=lambda s, src, seat, ev: ev["seat"] == seat))


# S158 Lethal Counterattack: Challenges, in a military challenge (limit 1 a challenge), kneel 2 House
# Stark characters you control: kill every attacking character.
def _lethal_when(state, src, seat, ev):
    ch = _challenge(state)
    return ch is not None and ch["type"] == "military" and bool(ch["attackers"])


card("S158", Ability("action", lambda ctx, src, seat, t, ev: _kill(ctx, list(ctx.g["challenge"]["attackers"]), seat, src),
                     phases=("challenges",), challenge=True, when=_lethal_when, cost=(("kneel", 2, "stark_house_character"),)))


# S159 Bran the Builder's Legacy: Dominance (House Stark only), pay 3 gold: search your deck for a
# location printed at 2 gold or less, put it into play, then shuffle.
card("S159", Ability("action", lambda ctx, src, seat, t, ev: E.search(ctx, seat, "stark_cheap_location", "play",
                                                                    "Bran the Builder's Legacy"),
                     phases=("dominance",), cost=(("gold", 3),)))


# S160 Guilty!: Dominance (House Stark only), kneel 3 influence or one Noble character: kill a
# character that is not House Stark.
def _guilty_targets(state, src, seat, ev):
    return [i for i in M.characters(state) if not _is_stark(state, i)]


def _guilty(ctx, src, seat, target, ev):
    _kill(ctx, [target], seat, src)


card("S160",
     Ability("action", _guilty, phases=("dominance",), cost=(("influence", 3),), target=_guilty_targets),
     Ability("action", _guilty, phases=("dominance",), cost=(("kneel", 1, "stark_noble_character"),),
             target=_guilty_targets))


# S177 Distinct Mastery: Any phase: stand a character with the Holy, Learned, Noble or War crest.
card("S177", Ability("action", lambda ctx, src, seat, t, ev: E.stand(ctx, t, why="Distinct Mastery"),
                     target=A.CharacterTargets(kneeling=True, crested=True)))


# === plots =========================================================================================

# S195 Building Season: When revealed, you and an opponent you choose each search your own deck for
# a location, reveal it, put it in your hand and shuffle (you first).
def _building_season(ctx, src, seat, target, ev):
    E.search(ctx, target, "stark_location", "hand", "Building Season")  # queued first, runs second
    E.search(ctx, seat, "stark_location", "hand", "Building Season")


card("S195", Ability("revealed", _building_season, target=A.opponent_seats))


# S196 Mutual Enemies: When revealed, with 2 or more opponents: choose one; this round neither of you
# may start a military challenge against the other.
def _mutual_enemies(ctx, src, seat, target, ev):
    if len(M.opponents(ctx.g, seat)) >= 2:
        ctx.push({"s": "stark_mutual_enemies", "seat": seat, "src": src})


@step
def stark_mutual_enemies(ctx, st, answer):
    g = ctx.g
    seat = st["seat"]
    if answer is None:
        ctx.ask(seat, "target", [["target", s] for s in M.opponents(g, seat)],
                "Mutual Enemies: choose an opponent", public="chooses a target")
        return
    other = answer[1][1]
    mil = 0  # challenge.TYPES.index("military")
    E.lasting(g, "no_challenge", seat, mil * 10 + other, "round", st["src"])
    E.lasting(g, "no_challenge", other, mil * 10 + seat, "round", st["src"])
    ctx.emit("no_challenge", seats=[seat, other], type="military", why="Mutual Enemies")


card("S196", Ability("revealed", _mutual_enemies))


# S197 Holding the Trident: while you control fewer characters than each opponent, your characters
# have +2 STR.
@A.constant_for("S197", answers=("str",))
def _trident_plot(state, src, inst, what):
    if what != "str" or _ctrl(state, inst) != _ctrl(state, src) or not M.is_character(state, inst):
        return 0
    g = state["g"]
    seat = _ctrl(state, src)
    mine = len(M.characters(state, seat))
    return 2 if all(mine < len(M.characters(state, o)) for o in M.opponents(g, seat)) else 0


# S198 Calm Over Westeros: playing an event costs its player 1 more gold, handed to an opponent.
@A.constant_for("S198", answers=("event_tax",))
def _calm(state, src, inst, what):
    return 1 if what == "event_tax" else 0


# S199 Snowed Under: Forced, as the standing phase begins: you choose one kneeling character or
# location each player controls; the chosen cards return to their owners' hands.
def _snowed_under(ctx, src, seat, target, ev):
    ctx.push({"s": "stark_snowed_under", "seat": seat, "order": M.order_from(ctx.g, seat), "i": 0, "picked": []})


def _snowed_choices(state, who):
    g = state["g"]
    return [i for i in g["players"][who]["play"] if g["cards"][i]["kneel"] and g["cards"][i]["on"] is None
            and M.info(state, i)["type"] in ("character", "location") and not _on_house(state, i)]


@step
def stark_snowed_under(ctx, st, answer):
    if answer is not None:
        st["picked"].append(answer[1][1])
        st["i"] += 1
    while st["i"] < len(st["order"]):
        who = st["order"][st["i"]]
        choices = _snowed_choices(ctx.state, who)
        if choices:
            ctx.ask(st["seat"], "target", [["target", i] for i in choices],
                    "Snowed Under: choose a kneeling card of Seat %d (%s) to return to its owner's hand"
                    % (who, ctx.g["players"][who]["house"].capitalize()),
                    public="chooses a target")
            return
        st["i"] += 1
    for inst in st["picked"]:
        E.return_to_hand(ctx, inst, why="Snowed Under")


card("S199", Ability("forced", _snowed_under, trigger=("phase_started",),
                     when=lambda s, src, seat, ev: ev["phase"] == "standing" and s["g"]["cards"][src]["zone"] == "revealed"))


# S200 The Power of Arms: your characters with the War crest have +2 STR.
@A.constant_for("S200", answers=("str",))
def _power_of_arms(state, src, inst, what):
    return 2 if what == "str" and _ctrl(state, inst) == _ctrl(state, src) and M.is_character(state, inst) \
        and "war" in (M.info(state, inst)["crests"] or ()) else 0


# S201 Valar Morghulis: When revealed: kill every character in play.
card("S201", Ability("revealed", lambda ctx, src, seat, t, ev: _kill(ctx, M.characters(ctx.state), seat, src)))
