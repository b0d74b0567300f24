"""House Lannister's starter deck (and the neutral cards that come in it): the card abilities.

Each card is registered under its code (all its copies' codes), with our own paraphrase above it;
`abilities.py` holds the framework and `effects.py` the verbs the effects are made of.
"""

from . import abilities as A
from . import effects as E
from . import flow
from . import model as M
from . import timing as T
from .abilities import Ability, card
from .steps import step


def _draw(ctx, seat, n):
    flow.draw(ctx, seat, n, capped=True)


# L163 Insidious Ways: Challenges action. One of your attacking Lannister characters gets +2 STR
# until the end of the phase; if you then win the challenge, you draw 2 cards.
def _insidious_ways(ctx, src, seat, target, ev):
    g = ctx.g
    E.lasting(g, "str", target, 2, "phase", src)
    if g["challenge"]:
        g["challenge"]["on_win_draw"].append([seat, 2])


card("L163", Ability("action", _insidious_ways, phases=("challenges",), challenge=True,
                     target=lambda s, src, seat, ev: A.attacking(s, seat, "lannister")))


# L141 Littlefinger: +1 STR for each gold in his controller's gold pool (his +2 income is printed).
@A.constant_for("L141", answers=("str",), to="self")
def _littlefinger(state, src, inst, what):
    if what != "str" or inst != src:
        return 0
    return state["g"]["players"][state["g"]["cards"][src]["ctrl"]]["gold"]


# L38 Tyrion Lannister: Response after you win an intrigue challenge, or any challenge he took
# part in: pay 1 gold to draw a card.
def _tyrion_when(state, src, seat, ev):
    return ev["winner"] == seat and (ev["type"] == "intrigue" or src in ev["participants"]) \
        and flow.may_draw(state, seat)  # not offered when it could draw nothing


card("L38", Ability("response", lambda ctx, src, seat, t, ev: _draw(ctx, seat, 1), trigger=("won_challenge",),
                    when=_tyrion_when, cost=(("gold", 1),)))


# --- shared helpers of this module -----------------------------------------------------------------


def _ctrl(state, inst):
    return state["g"]["cards"][inst]["ctrl"]


def _standing_characters(state, seat=None):
    return [c for c in M.characters(state, seat) if not state["g"]["cards"][c]["kneel"]]


def _own_death(ab):
    """A card's response to its own killing, used from the dead pile it went to (the framework's
    from_dead flag where it has one)."""
    if "from_dead" in Ability.__slots__:
        ab.from_dead = True
    return ab


def _kneel_target(ctx, src, seat, target, ev):
    E.kneel(ctx, target, why=M.code(src))


def _traits(state, inst):
    """Printed traits plus the ones an attachment gives (Lordship: Lord)."""
    out = set(M.info(state, inst)["traits"] or ())
    for att in state["g"]["cards"][inst]["att"]:
        if M.code(att) == "L140":
            out.add("Lord")
    return out


def _on(state, src, inst):
    return state["g"]["cards"][src]["on"] == inst


# L34 Gutter Rat's Cunning: the character it is on gains stealth and +2 STR.
@A.constant_for("L34", answers=("str", "keywords"), to="host", gives=("stealth",))
def _gutter_rat(state, src, inst, what):
    if not _on(state, src, inst):
        return 0
    if what == "str":
        return 2
    if what == "keywords":
        return {"gain": {"stealth"}}
    return 0


# L35 Gilded Plate: save the character it is on from being killed or discarded from play by paying
# 1 gold and discarding the Plate (that discard is a cost: it cannot be saved).
card("L35", Ability("save", A.saved, trigger=("would_kill", "would_discard"), when=A.saves_host,
                    cost=(("gold", 1), ("discard_self",))))


# L36 Joffrey Baratheon: response each time a Lord or Lady character is killed: Joffrey claims 1
# power; no more than 3 times a round.
def _joffrey_when(state, src, seat, ev):
    return bool(_traits(state, ev["card"]) & {"Lord", "Lady"}) and ev["card"] != src


card("L36", Ability("response", lambda ctx, src, seat, t, ev: T.gain_power(ctx, seat, 1, "Joffrey Baratheon", on=src),
                    trigger=("killed",), when=_joffrey_when, limit=("round", 3)))


# L37 Ser Jaime Lannister: does not kneel when declared as an attacker or defender in a military
# challenge.
@A.constant_for("L37", answers=("keywords",), to="self", gives=("no_kneel_attack", "no_kneel_defend"))
def _jaime(state, src, inst, what):
    ch = state["g"]["challenge"]
    if what == "keywords" and inst == src and ch and ch["type"] == "military":
        return {"gain": {"no_kneel_attack", "no_kneel_defend"}}
    return 0


# L39 Cersei Lannister: Dominance action, kneel Cersei and pay 2 gold: kneel a character; it stays
# kneeling through this round's standing phase.
def _cersei(ctx, src, seat, target, ev):
    E.kneel(ctx, target, why="L39")
    E.lasting(ctx.g, "no_stand", target, True, "round", src)


card("L39", Ability("action", _cersei, phases=("dominance",), cost=(("kneel_self",), ("gold", 2)),
                    target=A.CharacterTargets(kneeling=False, other=True)))


# L40 Tywin Lannister: as the marshalling phase begins, 2 gold from the treasury is set on Tywin;
# his controller may spend it as though it were in their gold pool (model.spendable_gold,
# model.pay_gold: the pool first). It is not in the pool: no taxation, no dominance, no Littlefinger.
def _tywin(ctx, src, seat, target, ev):
    g = ctx.g
    bank = g["bank"]
    if bank["gold"] < 2:  # "simply add more" gold to the Treasury
        bank["added_gold"] += 2 - bank["gold"]
        bank["gold"] = 2
    bank["gold"] -= 2
    g["cards"][src]["gold"] = g["cards"][src].get("gold", 0) + 2
    ctx.emit("gold_on_card", seat=seat, card=src, amount=2)


M.GOLD_CARRIERS.add("L40")
card("L40", Ability("forced", _tywin, trigger=("phase_started",),
                    when=lambda s, src, seat, ev: ev["phase"] == "marshalling"))


# L41 Ser Ilyn Payne: Marshalling action, kneel Ser Ilyn: kill a character with STR 2 or less.
card("L41", Ability("action", lambda ctx, src, seat, t, ev: T.kill(ctx, [t], seat, src=src), phases=("marshalling",),
                    cost=(("kneel_self",),),
                    target=A.CharacterTargets(max_str=2)))


# L42 The Hound: killed, he goes to the discard pile, not the dead pile. As the dominance phase
# begins, his controller either discards the top card of their deck or discards The Hound (that
# discard cannot be saved).
@A.constant_for("L42", answers=("keywords",), to="self", gives=("killed_to_discard",))
def _hound_kw(state, src, inst, what):
    return {"gain": {"killed_to_discard"}} if what == "keywords" and inst == src else 0


def _hound(ctx, src, seat, target, ev):
    ctx.push({"s": "lannister_hound", "seat": seat, "card": src})


@step
def lannister_hound(ctx, st, answer):
    g = ctx.g
    seat, hound = st["seat"], st["card"]
    if g["cards"][hound]["zone"] != "play":
        return
    deck = g["players"][seat]["deck"]
    if answer is None:
        choices = ([["deck_top"]] if deck else []) + [["discard_hound"]]
        ctx.ask(seat, "hound", choices, "The Hound: discard the top card of your deck, or The Hound",
                public="chooses for The Hound")
        return
    if answer[1][0] == "deck_top":
        if g["observe_draws"]:
            ctx.push({"s": "lannister_mill", "seat": seat})
            return
        top = deck[0]
        M.move(g, top, "discard")
        ctx.emit("milled", seat=seat, cards=[top], why="L42")
    else:
        T.kill(ctx, [hound], seat, src=hound, saveable=False, how="discard")


@step
def lannister_mill(ctx, st, answer):
    """A real deck: its owner turns the top card over into the discard pile and taps it."""
    g = ctx.g
    seat = st["seat"]
    if answer is None:
        ctx.ask(seat, "mill", [["milled", i] for i in g["players"][seat]["deck"]],
                "Put the top card of your deck into your discard pile and tap it", public="discards the top card")
        return
    M.move(g, answer[1][1], "discard")
    ctx.emit("milled", seat=seat, cards=[answer[1][1]], why="L42")


card("L42", Ability("forced", _hound, trigger=("phase_started",),
                    when=lambda s, src, seat, ev: ev["phase"] == "dominance"))


# L43 Chella, Daughter of Cheyk: response after you win a challenge in which a Clansman of yours
# took part: pay gold equal to a location's printed cost to return it to its owner's hand.
def _chella_when(state, src, seat, ev):
    return ev["winner"] == seat and any(_ctrl(state, c) == seat and "Clansman" in _traits(state, c)
                                        for c in ev["participants"])


def _chella_targets(state, src, seat, ev):
    gold = M.spendable_gold(state, seat)
    return [c for c in M.in_play(state["g"]) if M.info(state, c)["type"] == "location"
            and (M.info(state, c)["cost"] or 0) <= gold and not _on_house(state, c)]


def _chella(ctx, src, seat, target, ev):
    E.return_to_hand(ctx, target, why="L43")


card("L43", Ability("response", _chella, trigger=("won_challenge",), when=_chella_when, target=_chella_targets,
                    cost=(("target_cost",),)))


# L44 Bronn: Any phase, pay 2 gold and choose a character: until the end of the phase, if it would
# be killed while Bronn kneels, Bronn stands instead and it is not killed.
def _bronn_guard(ctx, src, seat, target, ev):
    E.lasting(ctx.g, "bronn_guard", target, src, "phase", src)


def _bronn_save_when(state, src, seat, ev):
    g = state["g"]
    return g["cards"][src]["kneel"] and any(e["kind"] == "bronn_guard" and e["target"] == ev["card"]
                                            and e["value"] == src for e in g["effects"])


def _bronn_save(ctx, src, seat, target, ev):
    E.stand(ctx, src, why="L44")
    A.saved(ctx, src, seat, target, ev)


card("L44", Ability("action", _bronn_guard, cost=(("gold", 2),), target=A.CharacterTargets()),
     Ability("save", _bronn_save, trigger=("would_kill",), when=_bronn_save_when))


# L45 Grand Maester Pycelle: response after an effect an opponent controls reveals cards: reveal the
# top card of your deck and put it in your hand; no more than 3 times a phase; never in answer to
# another Pycelle (FAQ).
def _pycelle_when(state, src, seat, ev):
    return ev["seat"] in M.opponents(state["g"], seat) and ev["why"] != "L45" \
        and bool(state["g"]["players"][seat]["deck"])


def _pycelle(ctx, src, seat, target, ev):
    g = ctx.g
    if g["observe_draws"]:
        ctx.push({"s": "lannister_pycelle", "seat": seat})
        return
    top = g["players"][seat]["deck"][0]
    M.move(g, top, "hand")
    E.reveal(ctx, seat, [top], "L45")


@step
def lannister_pycelle(ctx, st, answer):
    g = ctx.g
    seat = st["seat"]
    if answer is None:
        ctx.ask(seat, "reveal_top", [["revealed", i] for i in g["players"][seat]["deck"]],
                "Grand Maester Pycelle: reveal the top card of your deck and tap it", public="reveals a card")
        return
    M.move(g, answer[1][1], "hand")
    E.reveal(ctx, seat, [answer[1][1]], "L45")


card("L45", Ability("response", _pycelle, trigger=("cards_revealed",), when=_pycelle_when, limit=("phase", 3)))


# L46 Raff the Sweetling: Any phase, pay 1 gold: look at the top card of an opponent's deck, then
# leave it there or put it on the bottom.
def _raff(ctx, src, seat, target, ev):
    ctx.push({"s": "lannister_raff", "seat": seat, "whose": target})


@step
def lannister_raff(ctx, st, answer):
    g = ctx.g
    seat, whose = st["seat"], st["whose"]
    deck = g["players"][whose]["deck"]
    if not deck:
        return
    if answer is None:
        if g["observe_draws"] and not st.get("tapped"):
            st["tapped"] = True
            ctx.push({"s": "lannister_raff_tap", "seat": seat, "whose": whose}, st)
            return
        ctx.emit("peeked", vis=[seat], seat=seat, whose=whose, card=deck[0])
        ctx.emit("peek", seat=seat, whose=whose)
        ctx.ask(seat, "peek", [["leave"], ["bottom"]], "Raff the Sweetling: leave the card on top or put it at the bottom",
                public="looks at a deck's top card")
        return
    if answer[1][0] == "bottom":
        E.return_to_deck(ctx, deck[0], top=False)
        ctx.emit("to_bottom", seat=seat, whose=whose)


@step
def lannister_raff_tap(ctx, st, answer):
    """A real deck: the seat looks at the top card and taps it, so the host knows which it is."""
    g = ctx.g
    deck = g["players"][st["whose"]]["deck"]
    if answer is None:
        ctx.ask(st["seat"], "peek_tap", [["top", i] for i in sorted(deck)],
                "Raff the Sweetling: look at the top card and tap it", public="looks at a deck's top card")
        return
    deck.remove(answer[1][1])
    deck.insert(0, answer[1][1])


card("L46", Ability("action", _raff, cost=(("gold", 1),), target=A.SeatTargets(with_deck=True)))


# L47 Ser Jacelyn Bywater: response after he is killed: each opponent discards 1 card at random
# from their hand.
def _jacelyn(ctx, src, seat, target, ev):
    g = ctx.g
    for opp in M.order_from(g, seat)[1:]:
        if opp not in M.opponents(g, seat):
            continue
        E.discard_at_random(ctx, opp, 1)


card("L47", _own_death(Ability("response", _jacelyn, trigger=("killed",), when=lambda s, src, seat, ev: ev["card"] == src)))


# L48 Enemy Informer: response after you play it from your hand: kneel a character.
card("L48", Ability("response", _kneel_target, trigger=("played",),
                    when=lambda s, src, seat, ev: ev["card"] == src and ev["seat"] == seat,
                    target=A.CharacterTargets(kneeling=False, other=True)))


# L49 Qyburn's Informers: response after you win an intrigue challenge in which they took part:
# draw 2 cards.
def _qyburn_when(state, src, seat, ev):
    return ev["winner"] == seat and ev["type"] == "intrigue" and src in ev["participants"] \
        and flow.may_draw(state, seat)


card("L49", Ability("response", lambda ctx, src, seat, t, ev: _draw(ctx, seat, 2), trigger=("won_challenge",),
                    when=_qyburn_when))


# L50 Cersei's Attendant: response after Cersei Lannister or any Cersei's Attendant is killed:
# kneel a character.
# In play it answers the death of Cersei or of another Attendant; from the dead pile, its own.
def _attendant_when(state, src, seat, ev):
    return M.info(state, ev["card"])["name"] in ("Cersei Lannister", "Cersei's Attendant") and ev["card"] != src \
        and state["g"]["cards"][src]["zone"] == "play"


card("L50", Ability("response", _kneel_target, trigger=("killed",), when=_attendant_when,
                    target=A.CharacterTargets(kneeling=False)),
     _own_death(Ability("response", _kneel_target, trigger=("killed",), when=lambda s, src, seat, ev: ev["card"] == src,
                        target=A.CharacterTargets(kneeling=False))))


# L54 Lannisport Honor Guard: Challenges action from your hand: put it into play under the control
# of an opponent; after that opponent wins a challenge in which it took part, control returns to you.
def _honor_guard_in(ctx, src, seat, target, ev):
    E.put_into_play(ctx, seat, src, how="L54", controller=target)


def _honor_guard_back_when(state, src, seat, ev):
    return ev["winner"] == seat and seat != M.owner_of(src) and src in ev["participants"]


def _honor_guard_back(ctx, src, seat, target, ev):
    flow.take_control(ctx, src, M.owner_of(src))


card("L54", Ability("action", _honor_guard_in, phases=("challenges",), from_hand=True,
                    target=A.opponent_seats),
     Ability("forced", _honor_guard_back, trigger=("won_challenge",), when=_honor_guard_back_when))


# L55 Lannisport: response after you win an intrigue challenge: pay 1 gold for your House to claim
# 1 power; once per challenge.
def _lannisport(ctx, src, seat, target, ev):
    flow.claim_for_house(ctx, seat, 1, "Lannisport")


card("L55", Ability("response", _lannisport, trigger=("won_challenge",), cost=(("gold", 1),),
                    when=lambda s, src, seat, ev: ev["winner"] == seat and ev["type"] == "intrigue",
                    limit=("challenge", 1)))


# L56 Lannisport Brothel: response after a kneeling character stands in the standing phase: kneel the
# Brothel to kneel that character again.
card("L56", Ability("response", _kneel_target, trigger=("stood_in_standing",), cost=(("kneel_self",),),
                    target=lambda s, src, seat, ev: [c for c in ev["cards"] if s["g"]["cards"][c]["zone"] == "play"
                                                     and M.is_character(s, c) and not s["g"]["cards"][c]["kneel"]]))


# L57 Golden Tooth Mines: each time you reveal a plot, draw 1 card.
card("L57", Ability("forced", lambda ctx, src, seat, t, ev: _draw(ctx, seat, 1), trigger=("plot_revealed",),
                    when=lambda s, src, seat, ev: ev["seat"] == seat))


# L58, L59 Western Fiefdoms: Marshalling, kneel it: your next House Lannister card this phase costs 1 less.
E.marshal_reducer(("L58", "L59"), 1, houses=["lannister"])


# L60 Queen Cersei's Chambers (+1 income, 1 influence): Marshalling, you may play it from your hand
# as an attachment on your own House card, for its printed cost in gold; it then counts as an
# attachment there (the lasting "on_house" mark Khal Drogo's Tent uses), not as a location, and still
# gives its income and influence.
E.house_card_location("L60")


_on_house = E.on_house


# L64 Hall of Heroes: Marshalling, kneel it: your next House Lannister character this phase costs 2 less.
E.marshal_reducer("L64", 2, houses=["lannister"], kind="character")


# L65 Sunset Sea: Marshalling, discard it from play: your next Lannister or Greyjoy character this phase
# costs 2 less.
E.marshal_reducer("L65", 2, houses=["lannister", "greyjoy"], kind="character", cost="discard_self")


# L140 Lordship: the character it is on is a Lord, gains a power icon and has +4 STR in the
# dominance phase.
@A.constant_for("L140", answers=("icons", "str"), to="host")
def _lordship(state, src, inst, what):
    if not _on(state, src, inst):
        return 0
    if what == "icons":
        return {"gain": {"power"}}
    if what == "str" and state["g"]["phase"] == "dominance":
        return 4
    return 0


# L142 Varys: Plot phase action with 2 or more opponents, kneel Varys: you and an opponent trade plot
# decks and used piles until the end of the round.
# The trade is a lasting record for the round (in the public view's effects): after the plot phase's
# action window no rule of the Core reads a plot deck again before the round ends, so the cards stay
# in their owners' piles (each card lies in its owner's zones).
def _varys(ctx, src, seat, target, ev):
    E.lasting(ctx.g, "plots_traded", seat, target, "round", src)
    E.lasting(ctx.g, "plots_traded", target, seat, "round", src)
    ctx.emit("plots_traded", seat=seat, other=target)


card("L142", Ability("action", _varys, phases=("plot",), cost=(("kneel_self",),),
                     when=lambda s, src, seat, ev: len(M.opponents(s["g"], seat)) >= 2,
                     target=A.opponent_seats))


# L144 Shadowblack Lane: Marshalling, kneel it: your next character with an intrigue icon this phase
# costs 1 less.
E.marshal_reducer("L144", 1, kind="character", icon="intrigue")


# L161 I Never Bet Against My Family: Challenges action, kneel a House Lannister character and pay X
# gold: an opponent's claim is X lower for this challenge.
def _never_bet_when(state, src, seat, ev):
    ch = state["g"]["challenge"]
    return bool(ch) and ch["attacker"] in M.opponents(state["g"], seat)


def _never_bet(ctx, src, seat, target, ev):
    ctx.push({"s": "lannister_never_bet", "seat": seat})


@step
def lannister_never_bet(ctx, st, answer):
    g = ctx.g
    seat = st["seat"]
    if g["challenge"] is None:
        return
    if answer is None:
        gold = M.spendable_gold(ctx.state, seat)
        ctx.ask(seat, "pay_x", [["pay", x] for x in range(gold + 1)],
                "I Never Bet Against My Family: pay X gold to lower the claim by X", public="pays gold")
        return
    x = answer[1][1]
    M.pay_gold(g, seat, x)
    g["challenge"]["claim_mod"] -= x
    ctx.emit("claim_lowered", seat=seat, amount=x)


card("L161", Ability("action", _never_bet, phases=("challenges",), challenge=True, when=_never_bet_when, cost=(("kneel_target",),),
                     target=A.CharacterTargets(mine=True, kneeling=False, house="lannister")))


# L162 The Lion's Will: Any phase, pay 2 gold: kneel a character.
card("L162", Ability("action", _kneel_target, cost=(("gold", 2),), target=A.CharacterTargets(kneeling=False)))


# L164 Call Their Bluff: Dominance action, pay 2 gold and name a card: each opponent reveals their
# hand and discards every card of that name.
_NAMES_BY_TABLE = {}  # a card table's key -> the names Call Their Bluff may name


def _bluff_names(state, src, seat, ev):
    """Every name of a non-plot card of the game's card table, sorted: worked out once a table (its
    key is the hash of its content, model.table), since every dominance window asks whether the
    card has a target."""
    key = state["config"]["cards"]
    names = _NAMES_BY_TABLE.get(key)
    if names is None:
        names = _NAMES_BY_TABLE[key] = tuple(sorted({r["name"] for r in M.table(state)["cards"].values()
                                                     if r["type"] != "plot"}))
    return names


def _bluff(ctx, src, seat, target, ev):
    g = ctx.g
    ctx.emit("named", seat=seat, name=target)
    for opp in M.order_from(g, seat)[1:]:
        if opp not in M.opponents(g, seat):
            continue
        hand = sorted(g["players"][opp]["hand"])
        ctx.emit("hand_revealed", seat=opp, cards=hand, why="L164")  # shown to everyone by the card
        E.reveal(ctx, seat, hand, "L164")  # revealed by an effect `seat` controls (Pycelle answers it)
        E.discard_from_hand(ctx, opp, [c for c in hand if M.info(ctx.state, c)["name"] == target], "L164")


card("L164", Ability("action", _bluff, phases=("dominance",), cost=(("gold", 2),), target=_bluff_names))


# L165 I'm You Writ Small: Challenges action: a character gains deadly until the end of the phase;
# then this card is attached to a House Lannister character as a Boon giving +2 STR.
def _writ_small(ctx, src, seat, target, ev):
    E.lasting(ctx.g, "keyword", target, "deadly", "phase", src)
    ctx.push({"s": "lannister_writ_small", "seat": seat, "card": src})


@step
def lannister_writ_small(ctx, st, answer):
    g = ctx.g
    seat, inst = st["seat"], st["card"]
    if g["cards"][inst]["zone"] != "discard":
        return
    hosts = [c for c in M.characters(ctx.state) if "lannister" in (M.info(ctx.state, c)["houses"] or ())
             and not M.has_kw(ctx.state, c, "no_attachments")]
    if not hosts:
        return
    if answer is None:
        ctx.ask(seat, "target", [["target", h] for h in hosts], "I'm You Writ Small: attach it to a House Lannister character",
                public="chooses a target")
        return
    host = answer[1][1]
    M.take_out(g, inst)
    g["cards"][inst]["ctrl"] = seat
    M.put(g, inst, "play")
    flow.attach(ctx, inst, host)


@A.constant_for("L165", answers=("str",), to="host")
def _writ_small_str(state, src, inst, what):
    return 2 if what == "str" and _on(state, src, inst) else 0


card("L165", Ability("action", _writ_small, phases=("challenges",), target=A.CharacterTargets()))


# L166 A Lannister Pays His Debts: response after you lose a challenge: kneel a House Lannister
# character you control to kill a participating character the winner controls.
def _debts_kneelers(state, seat):
    return [c for c in _standing_characters(state, seat) if "lannister" in (M.info(state, c)["houses"] or ())]


def _debts(ctx, src, seat, target, ev):
    ctx.push({"s": "lannister_debts", "seat": seat, "kill": target, "by": ev["winner"]})


@step
def lannister_debts(ctx, st, answer):
    seat = st["seat"]
    if answer is None:
        ctx.ask(seat, "kneel_cost", [["kneel", c] for c in _debts_kneelers(ctx.state, seat)],
                "A Lannister Pays His Debts: kneel a House Lannister character", public="kneels a character")
        return
    E.kneel(ctx, answer[1][1], why="L166")
    T.kill(ctx, [st["kill"]], seat)


card("L166", Ability("response", _debts, trigger=("lost_challenge",),
                     when=lambda s, src, seat, ev: ev["loser"] == seat and bool(_debts_kneelers(s, seat)),
                     target=lambda s, src, seat, ev: [c for c in ev["participants"]
                                                      if s["g"]["cards"][c]["zone"] == "play" and _ctrl(s, c) == ev["winner"]]))


# L167 You've Killed the Wrong Dwarf!: Any phase: kneel a non-Noble character; it claims 1 power.
def _dwarf(ctx, src, seat, target, ev):
    E.kneel(ctx, target, why="L167")
    T.gain_power(ctx, _ctrl(ctx.state, target), 1, "L167", on=target)


card("L167", Ability("action", _dwarf, target=A.CharacterTargets(kneeling=False, not_crest="noble")))


# L178 Shae: Challenges action, kneel Shae: kneel a character whose controller has more power than you.
card("L178", Ability("action", _kneel_target, phases=("challenges",), cost=(("kneel_self",),),
                     target=A.CharacterTargets(kneeling=False, richer=True)))


# L188 Drunken Allegations: when revealed, you and an opponent you choose each kneel a standing
# character you control.
def _allegations(ctx, src, seat, target, ev):
    ctx.push({"s": "lannister_kneel_own", "seat": seat}, {"s": "lannister_kneel_own", "seat": target})


@step
def lannister_kneel_own(ctx, st, answer):
    seat = st["seat"]
    if answer is None:
        mine = _standing_characters(ctx.state, seat)
        if mine:
            ctx.ask(seat, "kneel_own", [["kneel", c] for c in mine], "Drunken Allegations: kneel a character you control",
                    public="kneels a character")
        return
    E.kneel(ctx, answer[1][1], why="L188")


card("L188", Ability("revealed", _allegations, target=A.opponent_seats))


# L189 Mutual Blackmail: when revealed, with 2 or more opponents: choose one; this round neither of
# you may make an intrigue challenge against the other.
def _blackmail(ctx, src, seat, target, ev):
    it = 10 * 1  # challenge.TYPES.index("intrigue") * 10 + the barred opponent
    E.lasting(ctx.g, "no_challenge", seat, it + target, "round", src)
    E.lasting(ctx.g, "no_challenge", target, it + seat, "round", src)


card("L189", Ability("revealed", _blackmail, when=lambda s, src, seat, ev: len(M.opponents(s["g"], seat)) >= 2,
                     target=A.opponent_seats))


# L190 Planning Ahead: there is no taxation phase this round. Read for the player who revealed it
# (the framework's per-seat skip_taxation): their unspent gold stays in their pool.
def _planning(ctx, src, seat, target, ev):
    ctx.g.setdefault("skip_taxation", {})[str(seat)] = True
    ctx.emit("no_taxation", seat=seat)


card("L190", Ability("revealed", _planning))


# L191 Wildfire Assault: when revealed, each player chooses up to 3 characters they control; every
# other character is killed, and cannot be saved.
def _wildfire(ctx, src, seat, target, ev):
    ctx.push({"s": "lannister_wildfire", "order": M.order_from(ctx.g, seat), "i": 0, "keep": []})


@step
def lannister_wildfire(ctx, st, answer):
    g = ctx.g
    state = ctx.state
    if answer is not None:
        seat = st["order"][st["i"]]
        if answer[1][0] == "keep":
            st["keep"].append(answer[1][1])
        else:
            st["i"] += 1
    while st["i"] < len(st["order"]):
        seat = st["order"][st["i"]]
        mine = M.characters(state, seat)
        kept = [c for c in st["keep"] if c in mine]
        free = [c for c in mine if c not in st["keep"]]
        if len(kept) < 3 and free:
            ctx.ask(seat, "keep", [["keep", c] for c in free] + [["done"]],
                    "Wildfire Assault: choose a character to keep (%d of 3)" % (len(kept) + 1),
                    public="chooses characters to keep")
            return
        st["i"] += 1
    doomed = [c for c in M.characters(state) if c not in st["keep"]]
    T.kill(ctx, doomed, st["order"][0], saveable=False)


card("L191", Ability("revealed", _wildfire))


# L192 Hear Me Roar: while revealed, each character without an intrigue icon has -1 STR.
@A.constant_for("L192", answers=("str",))
def _roar(state, src, inst, what):
    if what == "str" and M.is_character(state, inst) and not M.has_icon(state, inst, "intrigue"):
        return -1
    return 0


# L193 Blockade: while revealed, opponents' revealed plots have income 0.
@A.constant_for("L193", answers=("income",))
def _blockade(state, src, inst, what):
    g = state["g"]
    if what == "income" and M.info(state, inst)["type"] == "plot" and g["cards"][inst]["zone"] == "revealed" \
            and M.owner_of(inst) in M.opponents(g, M.owner_of(src)):
        return -(M.info(state, inst)["plot"]["income"] or 0)
    return 0


# L194 The Power of Blood: while revealed, characters with the Noble crest cannot be killed.
@A.constant_for("L194", answers=("keywords",), gives=("cannot_be_killed",))
def _power_of_blood(state, src, inst, what):
    if what == "keywords" and M.is_character(state, inst) and "noble" in (M.info(state, inst)["crests"] or ()):
        return {"gain": {"cannot_be_killed"}}
    return 0
