"""Resolving by hand what the engine does not know (a character, decree or mission whose printed
text is not public): the players do what the card says and record each change here, so the
engine's state keeps matching the table. "done" closes it.

`seat` answers; `subject` is the noble whose cubes and cards the text changes (None: only the
tracks). Only the subject may pick a card of their own hand to discard.
"""

from . import zones as Z
from .zones import step


@step
def manual(ctx, st, answer):
    g = ctx.g
    seat, subject = st["seat"], st["subject"]
    if answer is not None:
        choice = answer[1]
        if choice[0] == "done":
            ctx.emit("resolved_by_hand", seat=seat, what=st["what"])
            return
        if choice[0] == "draw" and g["observe_hands"]:
            # The card drawn is tapped first; then the resolution goes on.
            ctx.emit("manual", seat=seat, op="draw", args=[])
            ctx.push(dict(st))
            Z.draw(ctx, subject, 1, "by hand")
            return
        _edit(ctx, seat, subject, choice)
    choices = [["done"], ["order", 1], ["chaos", 1]]
    if g["order"] > 0:
        choices.append(["order", -1])
    if g["chaos"] > 0:
        choices.append(["chaos", -1])
    if subject is not None and subject in g["nobles"]:
        # Plain loops over the three cubes: asked again after every change, so most of a hand
        # resolution's decisions are this list.
        res = Z.RES
        all_cubes = g["cubes"]
        cubes = all_cubes[subject]
        choices += [["gain", r] for r in res]
        for i in range(3):
            if cubes[i]:
                choices.append(["lose", res[i]])
        for o in g["nobles"]:
            if o != subject:
                cubes = all_cubes[o]
                for i in range(3):
                    if cubes[i]:
                        choices.append(["take", o, res[i]])
        if g["deck"] or g["discard"]:
            choices.append(["draw"])
        if subject == seat:
            choices += [["discard", c] for c in g["hands"][seat]]
    prompt, public = _words(g, st["what"])
    ctx.ask(seat, "manual", choices, prompt, public)  # the public words by position: no keyword to parse


_WORDS = {}  # (card table key, what) -> (prompt, public words): the same at every change recorded


def _words(g, what):
    key = (g["table"], what)
    words = _WORDS.get(key)
    if words is None:
        name = Z.table(g)["info"].get(Z.cid(what), {}).get("name", what)
        words = _WORDS[key] = ("Resolve %s by hand: record each change it makes, then choose done." % name,
                               "resolving %s by hand" % name)
    return words


def _edit(ctx, seat, subject, choice):
    g = ctx.g
    op = choice[0]
    quiet = ctx.events is None  # a quiet command keeps no events: build none
    if not quiet:
        ctx.record("manual", {"seat": seat, "op": op, "args": [] if op == "discard" else choice[1:]})
    if op in ("order", "chaos"):
        Z.move(ctx, op, choice[1], "by hand")
    elif op == "gain":
        Z.gain(ctx, subject, {choice[1]: 1}, "by hand")
    elif op == "lose":
        g["cubes"][subject][Z.RES.index(choice[1])] -= 1
        if not quiet:
            ctx.record("cubes", {"seat": subject, "lost": {choice[1]: 1}, "why": "by hand"})
    elif op == "take":
        other, r = choice[1], choice[2]
        g["cubes"][other][Z.RES.index(r)] -= 1
        if not quiet:
            ctx.record("cubes", {"seat": other, "lost": {r: 1}, "why": "by hand"})
        Z.gain(ctx, subject, {r: 1}, "by hand")
    elif op == "draw":
        Z.draw(ctx, subject, 1, "by hand")
    elif op == "discard":
        Z.discard_from_hand(ctx, seat, choice[1], "by hand")
