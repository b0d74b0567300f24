"""What the LCG's bots look ahead with: a copy of the state the engine may play on (`copy_state`), a
sample of it with everything one seat may not see drawn afresh (`determinise`), and a cheap score of
a seat's position (`evaluate`). The search bot (search.py) plays its samples out; the heuristic bot
(bot.py) judges an ability on one. How a sample is drawn, and why two states that differ only in what
the seat may not see give the same samples: search.py's docstring, point 1."""

import copy

from ...engine import chance
from ...engine.chance import seed_state
from . import model as M
from .challenge import side_strength


# --- copying and sampling the state ----------------------------------------------------------------

# A card's record in g["cards"]: scalars, and two lists of card instances (model.py).
_CARD_KEYS = frozenset(("owner", "ctrl", "zone", "kneel", "power", "att", "dups", "on"))
# The values a copy may share with its original: nothing changes one in place.
_IMMUTABLE = frozenset((str, int, float, bool, type(None)))


def copy_state(state):
    """A copy of `state` that the engine may play on (the config, frozen card table included, is
    shared: nothing writes it).

    The card records, most of the state, are copied by hand: a record is scalars and two lists of
    card names, "att" and "dups", which the copy shares (the rules replace them, never change them in
    place: model.dropped), a dict copied at C speed and nothing else made (ir.py's 20 random games,
    compiled: 23M fewer instructions than with both lists copied). The rest the engine may change
    (g's other keys, the stack, the questions, the result) is JSON-shaped data, copied by _copied: it
    shares the strings and numbers, which pickle made anew (copy_state's instructions in 20 random
    games, compiled: 114M pickling, 62M so). A dict or list that two places of the stack, the
    questions or the result share stays shared in the copy, as pickle kept it (the event `ev` of the
    steps one event started); g shares none, within itself or with them (in 35k states of 24 random
    and heuristic games, no dict or list of g was met twice)."""
    out = dict(state)
    g = state["g"]
    cards = dict(g["cards"])  # every key in place at once (each record is replaced below): no resizing
    # A record only ever gains keys (nothing in the rules deletes one), so a record of eight keys
    # has just the eight above: its length says so at a fraction of the cost of comparing keys.
    n = len(_CARD_KEYS)
    for inst, c in g["cards"].items():
        cards[inst] = c.copy() if len(c) == n else _copied(c, None)
    out["g"] = {k: cards if k == "cards" else _copied(v, None) for k, v in g.items()}  # g's own key order
    shared = {}
    out["stack"] = _copied(state["stack"], shared)
    out["asks"] = _copied(state["asks"], shared)
    out["result"] = _copied(state["result"], shared)
    out["_outcomes"] = []
    out.pop("_forced", None)
    return out


def _copied(value, shared):
    """A deep copy of `value` that shares its immutable parts: dicts and lists are made anew, strings,
    numbers, booleans and None shared, anything else (no rule keeps any) deep-copied. `shared` (a dict,
    or None where nothing is shared) maps the id of each dict or list copied so far to its copy, so
    that one met twice is copied once, as pickle does."""
    kind = type(value)
    if kind is dict or kind is list:
        if shared is not None:
            done = shared.get(id(value))
            if done is not None:
                return done
        if kind is dict:
            out = {k: v if type(v) is str or type(v) in _IMMUTABLE else _copied(v, shared) for k, v in value.items()}
        else:
            out = [v if type(v) is str or type(v) in _IMMUTABLE else _copied(v, shared) for v in value]
        if shared is not None:
            shared[id(value)] = out
        return out
    if kind in _IMMUTABLE:
        return value
    return copy.deepcopy(value)


def determinise(state, seat, seed):
    """A copy of `state` in which everything `seat` may not see is drawn afresh from `seed` and the
    public facts alone (see the module's docstring)."""
    det = copy_state(state)
    det["seed"] = 0
    det["rng"] = seed_state(seed * 31 + 17)
    det["setup_outcomes"] = []
    x = seed_state(seed)  # the sample's own generator, a local: chance's Fisher-Yates and draws
    g = det["g"]
    g["observe_draws"] = False  # a sample draws its own cards
    cards = g["cards"]
    for s, p in enumerate(g["players"]):
        if s == seat:
            deck = sorted(p["deck"])
            x = chance._shuffle(x, deck)[0]
            p["deck"] = deck
            continue
        pool = sorted(p["hand"] + p["setup"] + p["deck"])
        x = chance._shuffle(x, pool)[0]
        nh, ns = len(p["hand"]), len(p["setup"])
        p["hand"], p["setup"], p["deck"] = pool[:nh], pool[nh:nh + ns], pool[nh + ns:]
        for zone in ("hand", "setup", "deck"):
            for inst in p[zone]:
                cards[inst]["zone"] = zone
        if p["chosen"] is not None:
            left = sorted(p["plots"])
            x, drawn = chance._next(x)
            p["chosen"] = left[drawn % len(left)]
    return det


# --- a cheap evaluation -------------------------------------------------------------------------------

_TEMPORARY = ("challenge", "phase")


def _passing_str(state, phase):
    """The lasting STR effects that end with the challenge or the phase: they count for the board's
    worth only while challenges are still to come in this phase (so none are left out then)."""
    if phase == "challenges":
        return ()
    return [e for e in state["g"]["effects"] if e["kind"] == "str" and e["until"] in _TEMPORARY]


def _board_str(state, inst, passing):
    """A character's STR for the board's worth: its STR without the `passing` effects."""
    s = M.strength(state, inst)
    if passing:
        s -= sum(e["value"] for e in passing if e["target"] == inst)
    return max(0, s)


def pending_declaration(state):
    return any(a["kind"] in ("attackers", "defenders", "stealth", "challenge") for a in state["asks"]) \
        or any(st.get("s") in ("attackers", "defenders") for st in state["stack"])


def seat_value(state, seat):
    """One seat's worth on the table: power first, then cards in hand, what it has in play, gold
    while it can still be spent."""
    g = state["g"]
    p = g["players"][seat]
    phase = g["phase"]
    early = phase in ("plot", "draw", "marshalling", "setup")
    cards = g["cards"]
    # With power on no card in play the total is the House card's: total_power would ask of each
    # card whether its power counts (POWER_LEFT_OUT) for nothing.
    power = M.total_power(g, seat) if any(cards[i]["power"] for i in p["play"]) else p["power"]
    v = 4.0 * power + 1.0 * len(p["hand"]) + (0.5 if early else 0.05) * p["gold"]
    if not p["deck"]:
        v -= 3.0
    fighting = phase in ("challenges", "dominance") or early
    recs, code = M.table(state)["cards"], M.code  # the card table looked up once, not per card
    passing = _passing_str(state, phase)
    for inst in p["play"]:
        c = cards[inst]
        rec = recs[code(inst)]
        if rec["type"] == "character":
            s = _board_str(state, inst, passing)
            v += 1.0 + 0.8 * (rec["cost"] or 0) + 0.4 * s + 1.0 * len(c["dups"])
            if fighting and not c["kneel"]:
                v += 0.3 * s * len(rec["icons"] or ())  # printed icons: cheap, and nearly always right
        else:
            v += 0.6 + 0.6 * (rec["cost"] or 0) + (0.8 * (rec.get("income") or 0) if rec["type"] == "location" else 0)
    return v


def _challenge_projection(state, seat):
    """What the challenge under way is worth to `seat` by the STR now on each side (once both sides
    are declared): the winner's claim and unopposed power, the loser's loss."""
    g = state["g"]
    ch = g["challenge"]
    if not ch or not ch["attackers"] or pending_declaration(state):
        return 0.0
    atk, _ = side_strength(state, "attackers")
    dfn, nd = side_strength(state, "defenders")
    won = atk >= dfn and atk > 0
    claim = (M.info(state, g["players"][ch["attacker"]]["revealed"])["plot"]["claim"] or 0) \
        if g["players"][ch["attacker"]]["revealed"] else 1
    worth = 2.0 * claim + (4.0 if nd == 0 else 0.0)
    if won:
        if seat == ch["attacker"] or seat == M.partner(g, ch["attacker"]):
            return worth
        if seat == ch["defender"]:
            return -worth
        return 0.0
    if seat == ch["defender"]:
        return 1.0
    if seat == ch["attacker"]:
        return -1.0
    return 0.0


def evaluate(state, seat):
    """The seat's position: its side's worth minus its strongest opponent's (a won game 1000)."""
    g = state["g"]
    if state["over"]:
        return 1000.0 if seat in state["result"]["winners"] else -1000.0
    mate = M.partner(g, seat)
    mine = seat_value(state, seat) + (seat_value(state, mate) if mate is not None else 0)
    opps = M.opponents(g, seat)
    theirs = max(seat_value(state, s) for s in opps) if opps else 0.0
    return mine - theirs + _challenge_projection(state, seat)


# --- playouts ---------------------------------------------------------------------------------------
