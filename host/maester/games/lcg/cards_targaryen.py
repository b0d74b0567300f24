"""House Targaryen's starter deck (and the neutral cards that come in it): the card abilities.

Each card is registered under its code (all its copies' codes), with our own paraphrase above it;
`abilities.py` holds the framework and `effects.py` the verbs the effects are made of.

Choices an effect asks for after its target (Daario's gold or discard, a plot's victim) go through
one step, `targ_choose`, which names its handler in HANDLERS so the state stays plain JSON.
"""

from . import abilities as A
from . import effects as E
from . import flow
from . import model as M
from . import timing as T
from .abilities import Ability, card
from .steps import step

TYPES = ("military", "intrigue", "power")


# --- helpers ------------------------------------------------------------------------------------

def _g(state):
    return state["g"]


def _ctrl(state, inst):
    return state["g"]["cards"][inst]["ctrl"]


def _on(state, src):
    return state["g"]["cards"][src]["on"]


def _participating(state, inst):
    ch = state["g"]["challenge"]
    return bool(ch) and (inst in ch["attackers"] or inst in ch["defenders"])


def has_trait(state, inst, trait):
    """A printed trait, or one a Targaryen card gives (Blood of the Dragon: Dragon in a challenge)."""
    if trait in (M.info(state, inst)["traits"] or ()):
        return True
    if trait == "Dragon":
        g = state["g"]
        return any(M.code(a) == "T100" and not M.blank(state, a) for a in g["cards"][inst]["att"]) \
            and _participating(state, inst)
    return False


def _draw(ctx, seat, n):
    flow.draw(ctx, seat, n, capped=True)


def _self_only(state, src, seat, ev):
    return ev["card"] == src


HANDLERS = {}


def handler(fn):
    HANDLERS[fn.__name__] = fn
    return fn


def choose(ctx, seat, options, prompt, then, data=None, public="chooses a target", optional=False):
    """Ask `seat` to pick one of `options` (cards or seats); HANDLERS[then](ctx, seat, picked, data)
    runs with the pick (None for "pass" when `optional`). Nothing is asked when there is no option."""
    if not options:
        return
    ctx.push({"s": "targ_choose", "seat": seat, "options": list(options), "prompt": prompt, "then": then,
              "data": data, "public": public, "optional": optional})


@step
def targ_choose(ctx, st, answer):
    if answer is None:
        ctx.ask(st["seat"], "target", [["target", o] for o in st["options"]] + ([["pass"]] if st["optional"] else []),
                st["prompt"], public=st["public"])
        return
    picked = answer[1][1] if answer[1][0] == "target" else None
    HANDLERS[st["then"]](ctx, st["seat"], picked, st["data"])


def _attachments_in_play(state):
    """Attachments in play, with a Khal Drogo's Tent played on a House card."""
    on_house = {e["target"] for e in state["g"]["effects"] if e["kind"] == "on_house"}
    return [i for i in M.in_play(state["g"]) if M.info(state, i)["type"] == "attachment" or i in on_house]


def flame_check(ctx):
    """Flame-Kissed: a character it is on (with no other attachment) whose STR is 0 is killed."""
    state = ctx.state
    g = ctx.g
    doomed = []
    for inst in M.in_play(g):
        if M.code(inst) == "T103" and not M.blank(state, inst):
            host = g["cards"][inst]["on"]
            if host is not None and len(g["cards"][host]["att"]) == 1 and M.strength(state, host) == 0:
                doomed.append(host)
    if doomed:
        T.kill(ctx, sorted(set(doomed)), None, src=None)


# === attachments =================================================================================

# T100 Blood of the Dragon: while the character it is on takes part in a challenge, +6 STR and the
# Dragon trait.
@A.constant_for("T100", answers=("str",), to="host")
def _blood_of_the_dragon(state, src, inst, what):
    return 6 if what == "str" and _on(state, src) == inst and _participating(state, inst) else 0


card("T100")


# T101 Poisoned Wine: the character it is on gets -2 STR; Any Phase: kneel 1 influence to move it
# onto another character it may be attached to.
@A.constant_for("T101", answers=("str",), to="host")
def _wine_str(state, src, inst, what):
    return -2 if what == "str" and state["g"]["cards"][src]["on"] == inst else 0


def _move_wine(ctx, src, seat, target, ev):
    flow.attach(ctx, src, target)


def _wine_hosts(state, src, seat, ev):
    return [c for c in M.characters(state) if c != state["g"]["cards"][src]["on"]
            and M.attach_ok(state, seat, src, c)]


card("T101", Ability("action", _move_wine, cost=(("influence", 1),), target=_wine_hosts))


# T102 Aegon's Blade: the character it is on has +2 STR with a military icon, stealth with an
# intrigue icon and renown with a power icon.
@A.constant_for("T102", answers=("str", "keywords"), to="host", gives=("stealth", "renown"))
def _aegons_blade(state, src, inst, what):
    if _on(state, src) != inst or what not in ("str", "keywords"):
        return 0
    icons = M.icons(state, inst)
    if what == "str":
        return 2 if "military" in icons else 0
    gain = {kw for icon, kw in (("intrigue", "stealth"), ("power", "renown")) if icon in icons}
    return {"gain": gain} if gain else 0


card("T102")


# T103 Flame-Kissed (Ambush): with no other attachment, the character it is on has -2 STR and is
# killed if its STR reaches 0.
@A.constant_for("T103", answers=("str",), to="host")
def _flame_kissed(state, src, inst, what):
    host = _on(state, src)
    return -2 if what == "str" and host == inst and len(state["g"]["cards"][host]["att"]) == 1 else 0


card("T103", Ability("forced", lambda ctx, src, seat, t, ev: flame_check(ctx), trigger=("entered_play", "discarded"),
                     when=lambda s, src, seat, ev: ev["card"] == src or ev["e"] == "discarded"))
A.state_check("T103", flame_check)  # after every ability's effect too (a STR loss, another attachment gone)


# T104 Bones of a Child: Challenges: discard it (cannot be saved) for an opponent's revealed plot to
# have 1 less claim in this challenge.
def _bones(ctx, src, seat, target, ev):
    ch = ctx.g["challenge"]
    ch["claim_mod"] -= 1
    ctx.emit("claim_changed", seat=ch["attacker"], amount=ch["claim_mod"], card=src)


def _bones_when(state, src, seat, ev):
    ch = state["g"]["challenge"]
    return bool(ch) and "winner" not in ch and ch["attacker"] in M.opponents(state["g"], seat)


card("T104", Ability("action", _bones, phases=("challenges",), cost=(("discard_self",),), when=_bones_when))


# === characters ==================================================================================

# T105 Captain Groleo: Response after an opponent plays or reveals an attachment: your House claims
# 1 power. Once per phase.
def _groleo_when(state, src, seat, ev):
    opp = M.opponents(state["g"], seat)
    if ev["e"] == "played":
        return ev["type"] == "attachment" and ev["seat"] in opp
    return ev["seat"] in opp and any(M.info(state, c)["type"] == "attachment" for c in ev["cards"])


def _house_power(ctx, src, seat, target, ev):
    flow.claim_for_house(ctx, seat, 1, M.info(ctx.state, src)["name"])


card("T105", Ability("response", _house_power, trigger=("played", "cards_revealed"), when=_groleo_when,
                     limit=("phase", 1)))


# T106 Daenerys Targaryen (Renown): after you win a challenge in which she was the only attacker,
# take all the gold in the losing opponent's pool.
def _daenerys(ctx, src, seat, target, ev):
    g = ctx.g
    gold = g["players"][ev["loser"]]["gold"]
    g["players"][ev["loser"]]["gold"] = 0
    g["players"][seat]["gold"] += gold
    ctx.emit("gold_taken", seat=seat, frm=ev["loser"], amount=gold, card=src)


card("T106", Ability("forced", _daenerys, trigger=("won_challenge",),
                     when=lambda s, src, seat, ev: ev["winner"] == seat and ev["loser"] is not None
                     and s["g"]["challenge"]["attackers"] == [src]))


# T107 Khal Drogo (Stealth): Response after you win a challenge: put him into play from your hand;
# when the phase ends he returns to your hand.
def _drogo_in(ctx, src, seat, target, ev):
    E.put_into_play(ctx, seat, src, how="Khal Drogo")
    E.lasting(ctx.g, "return_to_hand", src, ctx.g["phase"], "game", src)


def _drogo_back(ctx, src, seat, target, ev):
    ctx.g["effects"] = [e for e in ctx.g["effects"] if not (e["kind"] == "return_to_hand" and e["target"] == src)]
    E.return_to_hand(ctx, src, why="Khal Drogo")


def _back_due(state, src, seat, ev):
    return any(e["kind"] == "return_to_hand" and e["target"] == src and e["value"] != ev["phase"]
               for e in state["g"]["effects"])


def _may_enter(state, src, seat):
    return M.can_enter_play(state, seat, src)


card("T107", Ability("response", _drogo_in, trigger=("won_challenge",), from_hand=True,
                     when=lambda s, src, seat, ev: ev["winner"] == seat and _may_enter(s, src, seat)),
     Ability("forced", _drogo_back, trigger=("phase_started",), when=_back_due))


# T108 Viserys Targaryen: Response when he would be killed or discarded from play: save him, then
# return him to his owner's hand.
def _viserys(ctx, src, seat, target, ev):
    A.saved(ctx, src, seat, target, ev)
    E.return_to_hand(ctx, src, why="Viserys Targaryen")


card("T108", Ability("save", _viserys, trigger=("would_kill", "would_discard"), when=_self_only))


# T109 T110 Rhaegal (Stealth, No attachments): Any Phase: pay 1 gold to search your deck for a
# duplicate of Rhaegal, attach it to him, and shuffle.
@A.predicate("targ_rhaegal")
def _is_rhaegal(state, inst, seat):
    return M.info(state, inst)["name"] == "Rhaegal"


card(("T109", "T110"), Ability("action", lambda ctx, src, seat, t, ev: E.search(
    ctx, seat, "targ_rhaegal", "attach:%s" % src, "Rhaegal"), cost=(("gold", 1),),
    when=lambda s, src, seat, ev: M.owner_of(src) == seat))


# T111 Drogon: Any Phase: pay 2 gold for a character to get -1 STR until the end of the phase; it is
# killed if that leaves it at STR 0. Once per phase.
def _drogon(ctx, src, seat, target, ev):
    E.lasting(ctx.g, "str", target, -1, "phase", src)
    if M.strength(ctx.state, target) == 0 and ctx.g["cards"][target]["zone"] == "play":
        T.kill(ctx, [target], seat, src=src)


card("T111", Ability("action", _drogon, cost=(("gold", 2),), limit=("phase", 1),
                     target=A.CharacterTargets()))


# T112 Viserion: Dominance: pay 4 gold to kill a kneeling character. Once per phase.
card("T112", Ability("action", lambda ctx, src, seat, t, ev: T.kill(ctx, [t], seat, src=src), phases=("dominance",),
                     cost=(("gold", 4),), limit=("phase", 1), target=A.CharacterTargets(kneeling=True)))


# T113 Strong Belwas: Response when a Noble character would be killed: pay 2 gold to save it.
# Noble is a crest in the Core set (Daenerys), never a trait, as for every other Noble card here.
card("T113", Ability("save", A.saved, trigger=("would_kill",), cost=(("gold", 2),),
                     when=lambda s, src, seat, ev: "noble" in (M.info(s, ev["card"])["crests"] or ())))


# T114 Daario Naharis (Deadly): as the dominance phase begins, remove 1 gold from any player's pool,
# or discard him from play.
def _daario(ctx, src, seat, target, ev):
    g = ctx.g
    if target == src:
        T.kill(ctx, [src], seat, src=src, how="discard")
        return
    g["players"][target]["gold"] -= 1
    g["bank"]["gold"] += 1
    ctx.emit("gold_removed", seat=target, amount=1, card=src)


card("T114", Ability("forced", _daario, trigger=("phase_started",),
                     when=lambda s, src, seat, ev: ev["phase"] == "dominance",
                     target=lambda s, src, seat, ev: [i for i in range(s["g"]["n"])
                                                      if s["g"]["players"][i]["gold"] > 0] + [src]))


# T115 Quaithe of the Shadow: while she has an attachment, opponents may not choose her as the
# target of events or character abilities.
@A.constant_for("T115", answers=("keywords",), to="self", gives=("untargetable_by_opponents",))
def _quaithe(state, src, inst, what):
    if what == "keywords" and inst == src and state["g"]["cards"][src]["att"]:
        return {"gain": {"untargetable_by_opponents"}}
    return 0


card("T115")


# T116 Xaro Xoan Daxos: Forced, after you play him from your hand: return a character you control
# to its owner's hand.
card("T116", Ability("forced", lambda ctx, src, seat, t, ev: E.return_to_hand(ctx, t, why="Xaro Xoan Daxos"),
                     trigger=("played",), when=_self_only,
                     target=A.CharacterTargets(mine=True)))


# T117 Jhogo (Stealth): +2 STR while a Weapon attachment is on him.
@A.constant_for("T117", answers=("str",), to="self")
def _jhogo(state, src, inst, what):
    if what == "str" and inst == src and any("Weapon" in (M.info(state, a)["traits"] or ())
                                             for a in state["g"]["cards"][src]["att"]):
        return 2
    return 0


card("T117")


# T118 Brown Ben Plumm: no ability (a 0-cost STR 2 military character).
# T122 Warlock's Servitors: no ability (Deadly, immune to character abilities: printed keywords).


# T119 Dothraki Honor Guard (No attachments): Challenges: put it into play from your hand under the
# control of an opponent you choose; after that opponent wins a challenge in which it took part,
# control of it passes to you.
def _honor_guard_in(ctx, src, seat, target, ev):
    E.put_into_play(ctx, seat, src, how="Dothraki Honor Guard", controller=target)


def _honor_guard_back(ctx, src, seat, target, ev):
    flow.take_control(ctx, src, M.owner_of(src))


card("T119", Ability("action", _honor_guard_in, phases=("challenges",), from_hand=True, target=A.opponent_seats),
     Ability("forced", _honor_guard_back, trigger=("won_challenge",),
             when=lambda s, src, seat, ev: seat != M.owner_of(src) and ev["winner"] == seat
             and src in ev["participants"]))


# T120 The Titan's Bastard: Response after a card is placed in your dead pile: put him into play
# from your hand. Response after a card is placed in an opponent's dead pile: return him to his
# owner's hand. (A card killed, or discarded from play into the dead pile by Deathbound.)
def _in_dead_pile(state, ev, seats):
    return ev["seat"] in seats and state["g"]["cards"][ev["card"]]["zone"] == "dead"


card("T120", Ability("response", lambda ctx, src, seat, t, ev: E.put_into_play(ctx, seat, src, how="The Titan's Bastard"),
                     trigger=("killed", "discarded"), from_hand=True,
                     when=lambda s, src, seat, ev: _in_dead_pile(s, ev, (seat,)) and _may_enter(s, src, seat)),
     Ability("response", lambda ctx, src, seat, t, ev: E.return_to_hand(ctx, src, why="The Titan's Bastard"),
             trigger=("killed", "discarded"),
             when=lambda s, src, seat, ev: s["g"]["cards"][src]["zone"] == "play"
             and _in_dead_pile(s, ev, M.opponents(s["g"], seat))))


# T121 Dany's Handmaiden: Response after Daenerys Targaryen or a Dany's Handmaiden is killed:
# discard an attachment in play.
card("T121", Ability("response", lambda ctx, src, seat, t, ev: T.kill(ctx, [t], seat, src=src, how="discard"),
                     trigger=("killed",),
                     when=lambda s, src, seat, ev: M.info(s, ev["card"])["name"] in ("Daenerys Targaryen",
                                                                                      "Dany's Handmaiden"),
                     target=lambda s, src, seat, ev: _attachments_in_play(s)))


# T123 Qartheen Fanatic: while any Dragon character is in play, +1 STR and a military icon.
@A.constant_for("T123", answers=("str", "icons"), to="self")
def _fanatic(state, src, inst, what):
    if inst != src or what not in ("str", "icons"):
        return 0
    if not any(has_trait(state, c, "Dragon") for c in M.characters(state)):
        return 0
    return 1 if what == "str" else {"gain": {"military"}}


card("T123")


# T124 Pentoshi Guildmaster: Response after you win a challenge by 4 STR or more: return him from
# your discard pile to your hand; then you may pay 3 gold to put him into play from your hand.
def _guildmaster(ctx, src, seat, target, ev):
    g = ctx.g
    M.move(g, src, "hand")
    ctx.emit("returned_to_hand", seat=seat, card=src, frm="discard")
    if g["players"][seat]["gold"] >= 3 and _may_enter(ctx.state, src, seat):
        choose(ctx, seat, [src], "Pentoshi Guildmaster: pay 3 gold to put him into play?", "_guildmaster_in",
               optional=True, public="may pay 3 gold")


@handler
def _guildmaster_in(ctx, seat, picked, data):
    if picked is None or ctx.g["cards"][picked]["zone"] != "hand":
        return
    M.pay_gold(ctx.g, seat, 3)
    E.put_into_play(ctx, seat, picked, how="Pentoshi Guildmaster")


card("T124", Ability("response", _guildmaster, trigger=("won_challenge",), from_discard=True,
                     when=lambda s, src, seat, ev: ev["winner"] == seat and ev["margin"] >= 4))


# T125 Illyrio's Man: Marshalling: kneel him for the next House Targaryen character you play this
# phase to cost 1 gold less.
E.marshal_reducer("T125", 1, houses=["targaryen"], kind="character")


# === locations ===================================================================================

# T126 Xaro's Home: Response after you play an attachment from your hand: kneel 1 influence to draw
# 1 card.
def _xaros_home_when(state, src, seat, ev):
    return ev["seat"] == seat and ev["type"] == "attachment" and flow.may_draw(state, seat)


card("T126", Ability("response", lambda ctx, src, seat, t, ev: _draw(ctx, seat, 1), trigger=("played",),
                     when=_xaros_home_when, cost=(("influence", 1),)))


# T127 T128 T129 Eastern Fiefdoms (Limited, 1 influence): Marshalling: kneel it for the next House
# Targaryen card you play this phase to cost 1 gold less.
E.marshal_reducer(("T127", "T128", "T129"), 1, houses=["targaryen"])


# T130 Khal Drogo's Tent (+1 income, 1 influence): Marshalling, you may play it from your hand as an
# attachment on your own House card (its printed cost in gold); it then counts as an attachment
# (a lasting "on_house" mark) and still gives its income and influence.
E.house_card_location("T130")


# T131 T132 Temple of the Graces (Limited, +1 income), T153 T154 Crossroads (+1 income, 1 influence):
# no ability.


# T133 Great Pyramid (Limited): Marshalling: kneel it for the next House Targaryen character you
# play this phase to cost 2 gold less.
E.marshal_reducer("T133", 2, houses=["targaryen"], kind="character")


# T134 Summer Sea (1 influence): Marshalling: discard it from play for the next Targaryen or Martell
# character you play this phase to cost 2 gold less.
E.marshal_reducer("T134", 2, houses=["targaryen", "martell"], kind="character", cost="discard_self")


# T180 Lady Daenerys's Chambers: Response after you play a House Targaryen character: return an
# attachment from your discard pile with printed cost no higher than that character's to your hand.
def _chambers_targets(state, src, seat, ev):
    most = M.info(state, ev["card"])["cost"] or 0
    return [i for i in state["g"]["players"][seat]["discard"]
            if M.info(state, i)["type"] == "attachment" and (M.info(state, i)["cost"] or 0) <= most]


def _chambers(ctx, src, seat, target, ev):
    M.move(ctx.g, target, "hand")
    ctx.emit("returned_to_hand", seat=seat, card=target, frm="discard")


card("T180", Ability("response", _chambers, trigger=("played",), target=_chambers_targets,
                     when=lambda s, src, seat, ev: ev["seat"] == seat and ev["type"] == "character"
                     and "targaryen" in (M.info(s, ev["card"])["houses"] or ())))


# === neutral cards ===============================================================================

# T150 Bodyguard (on a Lord or Lady): Response when the character it is on would be killed or
# discarded from play: discard Bodyguard instead (that discard cannot be saved).
card("T150", Ability("save", A.saved, trigger=("would_kill", "would_discard"), when=A.saves_host,
                     cost=(("discard_self",),)))


# T151 Maester Aemon: Response: kneel him to save a Night's Watch character from being killed.
card("T151", Ability("save", A.saved, trigger=("would_kill",), cost=(("kneel_self",),),
                     when=lambda s, src, seat, ev: has_trait(s, ev["card"], "Night's Watch")))


# T152 Magister Illyrio: Challenges: kneel him to name an opponent and a challenge type; until the end
# of the phase (FAQ) that opponent gives you 1 gold each time they start a challenge of that type.
def _illyrio(ctx, src, seat, target, ev):
    choose(ctx, seat, list(TYPES), "Magister Illyrio: name a challenge type", "_illyrio_type",
           data={"opp": target}, public="names a challenge type")


@handler
def _illyrio_type(ctx, seat, picked, data):
    E.lasting(ctx.g, "gold_tax", data["opp"], [seat, picked], "phase", None)
    ctx.emit("gold_tax", seat=seat, on=data["opp"], type=picked)


card("T152", Ability("action", _illyrio, phases=("challenges",), cost=(("kneel_self",),), target=A.opponent_seats))


# T173 Dance With Dragons: Any Phase: kneel 1 influence to search your deck for a Dragon card, reveal
# it, put it in your hand, and shuffle.
@A.predicate("targ_dragon")
def _is_dragon(state, inst, seat):
    return "Dragon" in (M.info(state, inst)["traits"] or ())


card("T173", Ability("action", lambda ctx, src, seat, t, ev: E.search(ctx, seat, "targ_dragon", "hand",
                                                                       "Dance With Dragons"),
                     cost=(("influence", 1),)))


# T174 Forever Burning (Deathbound, Targaryen only): Any Phase, a character gets -1 STR until the end
# of the phase. Dominance: while it is in your dead pile, pay 2 gold or kneel 1 influence to return
# it to your hand.
def _burn(ctx, src, seat, t, ev):
    E.lasting(ctx.g, "str", t, -1, "phase", src)


def _unburn(ctx, src, seat, t, ev):
    M.move(ctx.g, src, "hand")
    ctx.emit("returned_to_hand", seat=seat, card=src, frm="dead")


card("T174", Ability("action", _burn, target=A.CharacterTargets()),
     Ability("action", _unburn, phases=("dominance",), from_dead=True, cost=(("gold", 2),)),
     Ability("action", _unburn, phases=("dominance",), from_dead=True, cost=(("influence", 1),)))


# T175 Seductive Promise (Limit 1 per phase): Response after you win a power challenge by 4 STR or
# more: take control of a non-unique character the losing opponent controls.
def _promise(ctx, src, seat, target, ev):
    flow.take_control(ctx, target, seat)


card("T175", Ability("response", _promise, trigger=("won_challenge",),
                     when=lambda s, src, seat, ev: ev["winner"] == seat and ev["type"] == "power"
                     and ev["margin"] >= 4 and ev["loser"] is not None,
                     target=lambda s, src, seat, ev: [c for c in M.characters(s, ev["loser"])
                                                      if not M.info(s, c)["unique"]]))


# T176 Westeros Bleeds: Dominance: kneel 4 influence to discard every character from play.
card("T176", Ability("action", lambda ctx, src, seat, t, ev: T.kill(ctx, sorted(M.characters(ctx.state)), seat,
                                                                     src=src, how="discard"),
                     phases=("dominance",), cost=(("influence", 4),)))


# === plots =======================================================================================

# T202 Condemned by the Realm: When revealed, an opponent you choose must kill a character someone
# else controls, if they can.
def _condemned(ctx, src, seat, target, ev):
    victims = [c for c in M.characters(ctx.state) if _ctrl(ctx.state, c) != target]
    choose(ctx, target, sorted(victims), "Condemned by the Realm: kill a character another player controls",
           "_condemned_kill", data={"by": seat, "src": src}, public="chooses a character to kill")


@handler
def _condemned_kill(ctx, seat, picked, data):
    T.kill(ctx, [picked], seat, src=data["src"])


card("T202", Ability("revealed", _condemned, target=A.opponent_seats))


# T203 Counting Favors: When revealed, you and an opponent you choose each draw 3 cards.
def _counting_favors(ctx, src, seat, target, ev):
    _draw(ctx, target, 3)  # queued first for a real deck: pushed last, it runs after the owner's
    _draw(ctx, seat, 3)


card("T203", Ability("revealed", _counting_favors, target=A.opponent_seats))


# T204 Power and Wealth: your characters have +1 STR for each attachment on them.
@A.constant_for("T204", answers=("str",))
def _power_and_wealth(state, src, inst, what):
    g = state["g"]
    if what != "str" or g["cards"][inst]["ctrl"] != M.owner_of(src) or not M.is_character(state, inst):
        return 0
    return len(g["cards"][inst]["att"])


card("T204")


# T205 Mad King's Legacy (Targaryen only): When revealed, discard an attachment in play, if any.
def _mad_king(ctx, src, seat, target, ev):
    choose(ctx, seat, sorted(_attachments_in_play(ctx.state)), "Mad King's Legacy: discard an attachment",
           "_mad_king_discard", data={"src": src})


@handler
def _mad_king_discard(ctx, seat, picked, data):
    T.kill(ctx, [picked], seat, src=data["src"], how="discard")


card("T205", Ability("revealed", _mad_king))


# T206 Rule by Decree: it cannot be cancelled. When revealed, whoever holds the most cards in hand
# discards down to 4, choosing which.
@A.constant_for("T206", answers=("uncancelable",), to="self")
def _decree(state, src, inst, what):
    return 1 if what == "uncancelable" and inst == src else 0


def _decree_effect(ctx, src, seat, target, ev):
    g = ctx.g
    sizes = [len(p["hand"]) for p in g["players"]]
    most = max(sizes)
    if most <= 4:
        return
    for s in reversed(M.order_from(g, seat)):  # the plot's owner first, then clockwise
        if sizes[s] == most:
            ctx.push({"s": "targ_decree", "seat": s})


@step
def targ_decree(ctx, st, answer):
    g = ctx.g
    seat = st["seat"]
    hand = g["players"][seat]["hand"]
    if answer is not None:
        E.discard_from_hand(ctx, seat, [answer[1][1]], "Rule by Decree")
    if len(hand) > 4:
        ctx.ask(seat, "discard", [["discard", c] for c in sorted(hand)],
                "Rule by Decree: discard down to 4 cards (%d to go)" % (len(hand) - 4), public="discards cards")


card("T206", Ability("revealed", _decree_effect))


# T207 Noose and Swordpoint: characters with STR 2 or less do not stand in the standing phase.
@A.constant_for("T207", answers=("no_stand",))
def _noose(state, src, inst, what):
    return 1 if what == "no_stand" and M.is_character(state, inst) and M.strength(state, inst) <= 2 else 0


card("T207")


# T208 Herding the Masses: non-unique characters may not be declared as defenders.
@A.constant_for("T208", answers=("keywords",), gives=("cannot_defend",))
def _herding(state, src, inst, what):
    if what == "keywords" and M.is_character(state, inst) and not M.info(state, inst)["unique"]:
        return {"gain": {"cannot_defend"}}
    return 0


card("T208")
