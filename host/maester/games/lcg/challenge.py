"""The challenges phase: each player in turn makes up to one challenge of each type.

A challenge is: choose its type and target, declare attackers (kneeling them), the Crown Regent's
redirect, an action window, stealth, defenders (then the Lord Commander's redirect and the
supporters' defence when none were declared), an action window, and resolution: STR with titles
and Intimidate, the winner (ties to an attacker with STR 1 or more), the unopposed bonus, claim,
the opposed title's power, Renown, Deadly, Vigilant and Vengeful, then responses.

Attackers and defenders are declared one card at a time (a tap on the table, or a pick on the seat
page), then "done": no list of every subset is ever built.
"""

from . import abilities as A
from . import effects as E
from . import flow
from . import model as M
from . import timing as T
from . import titles as TT
from .steps import step

TYPES = ("military", "intrigue", "power")


@step
def challenges_phase(ctx, st, answer):
    g = ctx.g
    ctx.push(*[{"s": "challenge_turn", "seat": s, "windowed": False} for s in M.turn_order(g)])


def can_attack_with(state, seat, ctype):
    g = state["g"]
    return [i for i in M.characters(state, seat)
            if not g["cards"][i]["kneel"] and M.has_icon(state, i, ctype) and not M.has_kw(state, i, "cannot_attack")
            and (not A.TOLLS or A.toll_due(state, i) <= g["players"][seat]["gold"])]


def attack_icons(state, seat):
    """Every challenge icon some character of `seat` could attack with now (can_attack_with for the
    three types at once: each character's icons and keywords worked out once)."""
    g = state["g"]
    out = set()
    for i in M.characters(state, seat):
        if not g["cards"][i]["kneel"]:
            ready = M.icons(state, i) - out
            if ready and not M.has_kw(state, i, "cannot_attack") \
                    and (not A.TOLLS or A.toll_due(state, i) <= g["players"][seat]["gold"]):
                out |= ready
                if len(out) == len(TYPES):
                    break  # every icon found: the other characters could add none
    return out


def challenge_options(state, seat):
    g = state["g"]
    p = g["players"][seat]
    unmade = [ctype for ctype in TYPES if ctype not in p["challenges_made"]]
    if not unmade:
        return []  # every challenge made: no character's icons need reading
    able = attack_icons(state, seat)
    out = []
    targets = None  # the players `seat` may challenge and the lasting bars, read once for all types
    for ctype in unmade:
        if ctype not in able:
            continue
        if p["gold"] < challenge_toll(state, seat, ctype):
            continue  # must hand over gold first and cannot (Uneasy Truce)
        if targets is None:
            targets = TT.challenge_targets(state, seat)
            # Lasting "no X challenge against Y" (Mutual Blackmail): type index * 10 + the seat barred.
            barred = {e["value"] for e in g["effects"] if e["kind"] == "no_challenge" and e["target"] == seat}
        out += [["challenge", ctype, opp] for opp in targets if TYPES.index(ctype) * 10 + opp not in barred]
    return out


def challenge_toll(state, seat, ctype):
    """Gold `seat` must give the defending player before it starts a `ctype` challenge (a constant
    "toll:<type>" of a revealed plot: Uneasy Truce)."""
    return M.rare_constant(state, state["g"]["players"][seat]["revealed"], _TOLL_KEYS[ctype])


_TOLL_KEYS = {ctype: "toll:" + ctype for ctype in TYPES}  # made once: the key's hash is then kept with it


@step
def challenge_turn(ctx, st, answer):
    g = ctx.g
    state = ctx.state
    seat = st["seat"]
    if answer is None and not st["windowed"]:
        st["windowed"] = True  # "before and between" challenges: an action window first
        ctx.push({"s": "window", "phase": "challenges", "turn": g["first"], "passes": 0, "tag": "before"}, st)
        return
    if answer is not None:
        choice = answer[1]
        if choice[0] == "done":
            return
        _, ctype, opp = choice
        g["players"][seat]["challenges_made"].append(ctype)
        toll = challenge_toll(state, seat, ctype)
        if toll:
            g["players"][seat]["gold"] -= toll
            g["players"][opp]["gold"] += toll
            ctx.emit("gold_given", seat=seat, to=opp, amount=toll)
        g["challenge"] = {"type": ctype, "attacker": seat, "defender": opp, "target": opp,
                          "attackers": [], "defenders": [], "stealthed": [], "supporter": None,
                          "redirected": None, "on_win_draw": [], "claim_mod": 0}
        ctx.emit("challenge", seat=seat, type=ctype, against=opp)
        for e in g["effects"]:  # lasting "pay 1 gold to X for each challenge of this type" (Magister Illyrio)
            if e["kind"] == "gold_tax" and e["target"] == seat and e["value"][1] == ctype \
                    and g["players"][seat]["gold"] > 0:
                g["players"][seat]["gold"] -= 1
                g["players"][e["value"][0]]["gold"] += 1
                ctx.emit("gold_given", seat=seat, to=e["value"][0], amount=1)
        st["windowed"] = False
        ctx.push({"s": "attackers"}, {"s": "crown_regent"},
                 {"s": "window", "phase": "challenges", "turn": g["first"], "passes": 0, "tag": "attackers"},
                 {"s": "stealth"}, {"s": "defenders", "seat": None, "support": False},
                 {"s": "undefended"},
                 {"s": "window", "phase": "challenges", "turn": g["first"], "passes": 0, "tag": "defenders"},
                 {"s": "resolve"}, {"s": "challenge_end"}, st)
        return
    options = challenge_options(state, seat)
    if not options:
        return
    ctx.ask(seat, "challenge", options + [["done"]], "Challenges: choose a challenge to make, or end your challenges",
            public="chooses a challenge")


@step
def attackers(ctx, st, answer):
    g = ctx.g
    ch = g["challenge"]
    seat = ch["attacker"]
    if answer is not None:
        choice = answer[1]
        if choice[0] == "done":
            for i in ch["attackers"]:
                if not M.has_kw(ctx.state, i, "no_kneel_attack"):
                    g["cards"][i]["kneel"] = True
            ctx.emit("attackers", seat=seat, cards=list(ch["attackers"]))
            T.trigger(ctx, {"e": "attackers_declared", "seat": seat, "cards": list(ch["attackers"])}, seat)
            return
        ch["attackers"].append(choice[1])
        if A.TOLLS:
            A.pay_tolls(ctx, choice[1])  # (Motley)
        free = still_free(ctx.state, seat, answer[0]["choices"], choice)
    else:
        free = [i for i in can_attack_with(ctx.state, seat, ch["type"]) if i not in ch["attackers"]]
    choices = [["attacker", i] for i in free] + ([["done"]] if ch["attackers"] else [])
    if not free:
        choice = ["done"]
        return attackers(ctx, st, (None, choice))
    ctx.ask(seat, "attackers", choices, "Declare attackers for your %s challenge" % ch["type"],
            public="declares attackers")


def still_free(state, seat, offered, declared):
    """The characters that may still attack (or defend) after `declared` (["attacker"|"defender",
    card]) was declared: those offered with it (`offered`, the last question's choices), less it,
    judged again only on the gold left for their tolls (Motley: paid as each is declared). A side's
    characters are declared at once by the rules (the table asks one at a time) and nothing happens
    between two of them, so no other character's icons, keywords or kneeling changed: can_attack_with
    (can_defend_with) is not worked out again for every one declared."""
    kind, card = declared
    free = [c[1] for c in offered if c[0] == kind and c[1] != card]
    if A.TOLLS:
        gold = state["g"]["players"][seat]["gold"]
        free = [i for i in free if A.toll_due(state, i) <= gold]
    return free


@step
def crown_regent(ctx, st, answer):
    """The Crown Regent may send a declared challenge at another legal target, once a round."""
    g = ctx.g
    state = ctx.state
    ch = g["challenge"]
    if not g["melee"]:
        return
    cr = TT.holder(g, "crown_regent")
    if answer is None:
        if cr is None or cr == ch["attacker"] or g["title_used"].get("crown_regent"):
            return
        others = [s for s in TT.challenge_targets(state, ch["attacker"]) if s != ch["defender"]]
        if not others:
            return
        st["others"] = others
        ctx.ask(cr, "redirect", [["redirect"], ["pass"]], "Crown Regent: make the attacker choose a new target?",
                public="may redirect the challenge")
        return
    choice = answer[1]
    if choice[0] == "redirect":
        g["title_used"]["crown_regent"] = True
        ctx.emit("title_used", seat=cr, title="crown_regent")
        st["stage"] = "pick"
        ctx.ask(ch["attacker"], "retarget", [["target", s] for s in st["others"]],
                "The Crown Regent redirects your challenge: choose a new target", public="chooses a new target")
        return
    if choice[0] == "target":
        ch["defender"] = ch["target"] = choice[1]
        ctx.emit("redirected", to=choice[1], by="crown_regent")


_STEALTH_KWS = ("stealth", "stealth_proof")  # a character with either may not be picked by Stealth


@step
def stealth(ctx, st, answer):
    """Each attacking Stealth character may pick a non-Stealth character of the defender: it may not
    defend this challenge."""
    g = ctx.g
    state = ctx.state
    ch = g["challenge"]
    seat = ch["attacker"]
    if answer is not None:
        choice = answer[1]
        if choice[0] == "done":
            return
        st.setdefault("used", []).append(choice[1])
        ch["stealthed"].append(choice[2])
        ctx.emit("stealth", card=choice[1], target=choice[2])
    used = st.get("used", [])
    sneaks = [i for i in ch["attackers"] if i not in used and M.has_kw(state, i, "stealth")
              and g["cards"][i]["zone"] == "play"]
    if not sneaks:  # most challenges: no defender's keywords need reading
        return
    marks = [i for i in M.characters(state, ch["target"])
             if i not in ch["stealthed"] and not M.keywords_among(state, i, _STEALTH_KWS)]
    choices = [["stealth", a, t] for a in sneaks for t in marks]
    if choices:
        ctx.ask(seat, "stealth", choices + [["done"]], "Stealth: choose a character that may not defend",
                public="uses stealth")


def can_defend_with(state, seat):
    g = state["g"]
    ch = g["challenge"]
    barred = M.may_have_kw(state, "cannot_defend")
    return [i for i in M.characters(state, seat) if not g["cards"][i]["kneel"]
            and M.has_icon(state, i, ch["type"]) and i not in ch["stealthed"] and i not in ch["defenders"]
            and not (barred and M.has_kw(state, i, "cannot_defend"))  # (Stannis Baratheon)
            and (not A.TOLLS or A.toll_due(state, i) <= g["players"][seat]["gold"])]  # (Motley)


@step
def defenders(ctx, st, answer):
    g = ctx.g
    ch = g["challenge"]
    if st["seat"] is None:
        st["seat"] = ch["defender"]  # the target when defenders are declared (after a Crown Regent's redirect)
    seat = st["seat"]
    if answer is not None:
        choice = answer[1]
        if choice[0] == "done":
            mine = [i for i in ch["defenders"] if g["cards"][i]["ctrl"] == seat]
            for i in mine:
                if not M.has_kw(ctx.state, i, "no_kneel_defend"):
                    g["cards"][i]["kneel"] = True
            ctx.emit("defenders", seat=seat, cards=mine)
            if mine:
                T.trigger(ctx, {"e": "defenders_declared", "seat": seat, "cards": mine}, seat)
            return
        ch["defenders"].append(choice[1])
        if A.TOLLS:
            A.pay_tolls(ctx, choice[1])  # (Motley)
        if st["support"]:
            ch["supporter"] = seat
        free = still_free(ctx.state, seat, answer[0]["choices"], choice)
    else:
        free = can_defend_with(ctx.state, seat)
    if not free:
        return defenders(ctx, st, (None, ["done"]))
    ctx.ask(seat, "defenders", [["defender", i] for i in free] + [["done"]],
            "Declare defenders against a %s challenge (or none)" % ch["type"], public="declares defenders")


@step
def undefended(ctx, st, answer):
    """No defenders: the Lord Commander may take a military challenge on himself; otherwise a
    player whose title supports the target's may defend for them."""
    g = ctx.g
    state = ctx.state
    ch = g["challenge"]
    if ch["defenders"] or not g["melee"]:
        return
    if answer is None:
        lc = TT.holder(g, "lord_commander")
        if ch["type"] == "military" and lc is not None and lc not in (ch["attacker"], ch["defender"]) \
                and not g["title_used"].get("lord_commander") \
                and lc in TT.challenge_targets(state, ch["attacker"]):
            ctx.ask(lc, "redirect", [["redirect"], ["pass"]],
                    "Lord Commander: take this undefended military challenge on yourself?",
                    public="may take the challenge")
            return
    elif answer[1][0] == "redirect":
        lc = answer[0]["seat"]
        g["title_used"]["lord_commander"] = True
        ch["defender"] = ch["target"] = lc
        ch["redirected"] = "lord_commander"
        ctx.emit("redirected", to=lc, by="lord_commander")
        ctx.push({"s": "defenders", "seat": lc, "support": False})
        return
    supporters = [s for s in range(g["n"]) if s not in (ch["attacker"], ch["defender"])
                  and TT.supports(state, s, ch["defender"])]
    ctx.push(*[{"s": "defenders", "seat": s, "support": True} for s in supporters])


def side_strength(state, side):
    """Total STR of one side: its participating characters, Intimidate, and the titles' +3."""
    g = state["g"]
    ch = g["challenge"]
    left_out = {e["target"] for e in g["effects"] if e["kind"] == "uncounted"}
    cards = [i for i in ch[side] if g["cards"][i]["zone"] == "play" and i not in left_out]
    total = 0
    threats = [M.strength(state, i) for i in ch["attackers"]
               if g["cards"][i]["zone"] == "play" and M.has_kw(state, i, "intimidate")] \
        if side == "defenders" and M.may_have_kw(state, "intimidate") else []
    bar = max(threats) if threats else None
    for i in cards:
        s = M.strength(state, i)
        if bar is not None and s < bar:
            continue  # Intimidate: weaker characters than an intimidating attacker do not count
        total += s
    if g["melee"]:
        for seat in {g["cards"][i]["ctrl"] for i in cards}:
            total += TT.str_bonus(state, seat, ch["type"])
    return total, len(cards)


def claim_value(state, seat):
    g = state["g"]
    plot = g["players"][seat]["revealed"]
    return max(0, M.info(state, plot)["plot"]["claim"] + g["challenge"]["claim_mod"]
               + M.rare_constant(state, plot, "claim"))


@step
def resolve(ctx, st, answer):
    g = ctx.g
    state = ctx.state
    ch = g["challenge"]
    atk, natk = side_strength(state, "attackers")
    dfn, ndfn = side_strength(state, "defenders")
    attacker = ch["attacker"]
    defending = ch["supporter"] if ch["supporter"] is not None else ch["defender"]
    if natk and atk >= 1 and atk >= dfn:
        winner, loser = attacker, defending
    elif ndfn and dfn >= 1 and dfn > atk:
        winner, loser = defending, attacker
    else:
        winner = loser = None
    ch["winner"], ch["loser"] = winner, loser
    participants = [i for i in ch["attackers"] + ch["defenders"] if g["cards"][i]["zone"] == "play"]
    ctx.emit("challenge_result", type=ch["type"], attacker=attacker, defender=ch["defender"],
             attack=atk, defence=dfn, winner=winner, unopposed=winner == attacker and dfn == 0)
    # Queued in reverse of the order they happen: the responses last, the claim first.
    ev = {"e": "won_challenge", "winner": winner, "loser": loser, "type": ch["type"], "attacker": attacker,
          "defender": ch["defender"], "participants": participants,
          "margin": abs(atk - dfn), "unopposed": winner == attacker and dfn == 0}
    if winner is not None:
        T.trigger(ctx, dict(ev, e="lost_challenge"), winner)
        T.trigger(ctx, ev, winner)
        for seat, n in ch["on_win_draw"]:
            if seat == winner:
                ctx.push({"s": "draw_cards", "seat": seat, "n": n})
    steps = []
    if winner == attacker:
        if dfn == 0:
            steps.append({"s": "house_power", "seat": attacker, "amount": 1, "why": "unopposed"})
        steps.append({"s": "claim", "n": claim_value(state, attacker)})
    if winner is not None and ch["redirected"] == "lord_commander" and winner == ch["defender"]:
        steps.append({"s": "lc_power"})
    if winner is not None and g["melee"] and winner == attacker and not g["players"][winner]["oppose_bonus"] \
            and TT.opposes(state, winner, ch["defender"]):
        g["players"][winner]["oppose_bonus"] = True
        steps.append({"s": "house_power", "seat": winner, "amount": 1, "why": "opposed title"})
    if winner is not None:
        for i in participants:
            if g["cards"][i]["ctrl"] == winner and M.has_kw(state, i, "renown"):
                steps.append({"s": "renown", "card": i})
    deadly_atk = sum(1 for i in ch["attackers"] if g["cards"][i]["zone"] == "play" and M.has_kw(state, i, "deadly"))
    # The defenders' Deadly is read only when an attacker has it (most challenges: none does).
    if deadly_atk and deadly_atk > sum(1 for i in ch["defenders"] if g["cards"][i]["zone"] == "play"
                                       and M.has_kw(state, i, "deadly")):
        steps.append({"s": "deadly"})
    if winner == attacker:
        steps.append({"s": "stand_keyword", "seat": attacker, "kw": "vigilant"})
    if loser is not None and loser != attacker:
        steps.append({"s": "stand_keyword", "seat": loser, "kw": "vengeful"})
    ctx.push(*steps)


@step
def draw_cards(ctx, st, answer):
    flow.draw(ctx, st["seat"], st["n"], capped=True)


@step
def house_power(ctx, st, answer):
    flow.claim_for_house(ctx, st["seat"], st["amount"], st["why"])


@step
def renown(ctx, st, answer):
    inst = st["card"]
    if ctx.g["cards"][inst]["zone"] == "play":
        T.gain_power(ctx, ctx.g["cards"][inst]["ctrl"], 1, "renown", on=inst)
        T.trigger(ctx, {"e": "claimed_renown", "card": inst, "seat": ctx.g["cards"][inst]["ctrl"]},
                  ctx.g["cards"][inst]["ctrl"])  # (Robert Baratheon claims one more)


@step
def lc_power(ctx, st, answer):
    ch = ctx.g["challenge"]
    T.move_house_power(ctx, ch["attacker"], ch["defender"], 1, "Lord Commander")


@step
def claim(ctx, st, answer):
    """The claim falls on the challenge's target (who may not be the player who defended for it)."""
    g = ctx.g
    state = ctx.state
    ch = g["challenge"]
    target = ch["target"]
    n = st["n"]
    if n <= 0:
        return
    if ch["type"] == "power":
        infamy = M.with_kw(state, g["players"][ch["attacker"]]["play"], "infamy")
        moved = min(n, g["players"][target]["power"])
        if infamy and moved:
            # Moved power may go on an Infamy card instead: take it off the target, then place it.
            g["players"][target]["power"] -= moved
            g["bank"]["power"] += moved
            ctx.emit("power_lost", seat=target, amount=moved, why="power claim")
            ctx.push({"s": "power_to", "seat": ch["attacker"], "amount": moved, "why": "power claim", "cards": infamy})
        else:
            T.move_house_power(ctx, target, ch["attacker"], n, "power claim")
        return
    if ch["type"] == "intrigue":
        E.discard_at_random(ctx, target, n)
        return
    ctx.push({"s": "claim_kill", "seat": target, "n": n, "chosen": []})


@step
def claim_kill(ctx, st, answer):
    """Military claim: the target chooses that many different characters, killed all at once."""
    g = ctx.g
    if answer is not None:
        st["chosen"].append(answer[1][1])
    alive = [i for i in M.characters(ctx.state, st["seat"]) if i not in st["chosen"]]
    if len(st["chosen"]) < st["n"] and alive:
        ctx.ask(st["seat"], "claim_kill", [["kill", i] for i in alive],
                "Military claim: choose a character to kill (%d of %d)" % (len(st["chosen"]) + 1, st["n"]),
                public="chooses a character to kill")
        return
    T.kill(ctx, st["chosen"], g["challenge"]["attacker"])


@step
def deadly(ctx, st, answer):
    g = ctx.g
    ch = g["challenge"]
    mine = [i for i in ch["defenders"] if g["cards"][i]["zone"] == "play"]
    if not mine:
        return
    if answer is None:
        seat = g["cards"][mine[0]]["ctrl"]
        ctx.ask(seat, "deadly", [["kill", i] for i in mine], "Deadly: choose a defending character to kill",
                public="chooses a character to kill")
        return
    T.kill(ctx, [answer[1][1]], ch["attacker"])


@step
def stand_keyword(ctx, st, answer):
    """Vigilant (after winning as the attacker) / Vengeful (after losing as the defender): stand any
    number of your kneeling cards with the keyword, one at a time."""
    g = ctx.g
    state = ctx.state
    if answer is not None:
        if answer[1][0] == "done":
            return
        g["cards"][answer[1][1]]["kneel"] = False
        ctx.emit("stood_card", card=answer[1][1], why=st["kw"])
    if not M.may_have_kw(state, st["kw"]):
        return  # no card of the game could have the keyword now
    ready = [i for i in g["players"][st["seat"]]["play"] if g["cards"][i]["kneel"] and M.has_kw(state, i, st["kw"])]
    if ready:
        ctx.ask(st["seat"], st["kw"], [["stand", i] for i in ready] + [["done"]],
                "%s: stand a card?" % st["kw"].capitalize(), public="may stand cards")


@step
def challenge_end(ctx, st, answer):
    flow.end_scope(ctx.g, "challenge")
    ctx.g["challenge"] = None
