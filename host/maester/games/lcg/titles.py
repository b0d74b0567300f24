"""The six melee titles: choosing them, support and opposition, and each title's effect.

The data (cards_db/lcg/cards.json "titles") holds the support/oppose graph from the rulebook and
each effect. The rulebook text we have lost the challenge icon of the three +3 STR titles; the data
marks our reading (Crown Regent power, Lord Commander military, Master of Whispers intrigue) as
assumed. Titles are not in play and their effects cannot be cancelled.
"""

from . import model as M


def _titles(state):
    return M.table(state)["titles"]


def holder(g, title):
    for seat, p in enumerate(g["players"]):
        if p["title"] == title:
            return seat
    return None


def _effect(state, seat, key):
    t = state["g"]["players"][seat]["title"]
    if t is None:
        return None
    return _titles(state)[t]["effect"].get(key)


def supports(state, a, b):
    """Whether player `a`'s title supports player `b`'s title."""
    g = state["g"]
    ta, tb = g["players"][a]["title"], g["players"][b]["title"]
    return bool(ta and tb and tb in _titles(state)[ta]["supports"])


def opposes(state, a, b):
    g = state["g"]
    ta, tb = g["players"][a]["title"], g["players"][b]["title"]
    return bool(ta and tb and tb in _titles(state)[ta]["opposes"])


def extra_draw(state, seat):
    return _effect(state, seat, "extra_draw") or 0


def income_bonus(state, seat):
    return _effect(state, seat, "income") or 0


def str_bonus(state, seat, challenge_type):
    b = _effect(state, seat, "str_bonus")
    return b["amount"] if b and b["challenge"] == challenge_type else 0


def redirect(state, seat):
    return _effect(state, seat, "redirect")


def choose(ctx, st, answer):
    """The first player takes a title, then each player clockwise; the rest sit out the round."""
    g = ctx.g
    state = ctx.state
    order = st["order"]
    if st["i"] == 0 and answer is None and not st.get("begun"):
        st["begun"] = True
        if not g["title_pool"]:
            g["title_pool"] = sorted(_titles(state))
        for p in g["players"]:
            p["title"] = None
    if answer is not None:
        seat = order[st["i"]]
        title = answer[1][1]
        g["players"][seat]["title"] = title
        g["title_pool"].remove(title)
        ctx.emit("title", seat=seat, title=title)
        st["i"] += 1
    if st["i"] < len(order):
        seat = order[st["i"]]
        ctx.ask(seat, "title", [["title", t] for t in g["title_pool"]], "Choose your title for this round",
                public="chooses a title")


def round_end(state):
    """Titles go back to the pool, except with three players: then only once the pool is empty
    (rulebook, "Three Players")."""
    g = state["g"]
    if not g["melee"]:
        return
    if g["n"] != 3 or not g["title_pool"]:
        g["title_pool"] = sorted(_titles(state))
        for p in g["players"]:
            p["title"] = None  # returned: nobody holds a title until the next plot phase's choice


def challenge_targets(state, seat):
    """The players `seat` may challenge: opponents, but not one whose title its own title supports."""
    g = state["g"]
    return [s for s in M.opponents(g, seat) if not (g["melee"] and supports(state, seat, s))]
