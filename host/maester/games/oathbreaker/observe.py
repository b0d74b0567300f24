"""Observed decks: on a real table the cards are shuffled and dealt by hand, and the engine learns
each card that leaves a deck from a tap (config ``observe``).

``"hands"``: every influence card a noble draws (the deal, refills, Arya, Stannis, a draw made by
hand) and every decree a monarch draws is tapped by its new owner on their own reader; the nobles
tap the deal all at once, the monarchs one after the other (at eight players they share one
reader). The cards a mission takes face down from the deck (Consult the Maesters and its kin, The
Night Is Dark) and the card Battle of the Bay discards unseen are tapped face down by the King on
that mission's reader; the decrees Daenerys turns over are tapped by her. The decks are then sets:
the host shuffles none of them, and a spent deck is replaced by the discard pile as it lies.

``"missions"``: the King turns up each mission and taps it on the reader of its place (missions.py).

What a tapping seat is offered never depends on a secret: influence taps list every influence card
not face up on a mission, decree taps every decree not in play, mission taps the mission deck.
A card that cannot have come from where the tap says is refused, and only the tapping seat is
told (without the card's name when it was tapped face down).

Loyalty and Ambition cards stay dealt by the host: each noble learns theirs privately from it, so
the physical Loyalty and Ambition cards are not used on a table with readers.
"""

from . import zones as Z
from .missions import resolve_mission
from .zones import step


def _finish(ctx, seat, got, why):
    g = ctx.g
    if seat in g["monarchs"]:
        ctx.emit("drew_decrees", vis=Z.monarch_eyes(g, seat), seat=seat, cards=list(got))
        ctx.emit("decree_draws", seat=seat, count=len(got))
    else:
        ctx.emit("drew", vis=[seat], seat=seat, cards=list(got), why=why)
        ctx.emit("draws", seat=seat, count=len(got), why=why)


@step
def observe_cards(ctx, st, answer):
    """Seats tap the cards they drew: st["need"] holds [seat, still to tap, tapped so far]."""
    g = ctx.g
    need = st["need"]
    if answer is not None:
        ask, choice = answer
        seat, inst = ask["seat"], choice[1]
        entry = next(e for e in need if e[0] == seat)
        monarch = seat in g["monarchs"]
        if monarch and Z.decree_on_top(g, inst):
            Z.take_decree(g, inst)
            g["decree_hands"][seat].append(inst)
        elif not monarch and inst in g["deck"]:
            g["deck"].remove(inst)
            g["hands"][seat].append(inst)
        else:
            ctx.emit("tap_refused", vis=Z.monarch_eyes(g, seat) if monarch else [seat], seat=seat, card=inst,
                     why="not on the decree deck" if monarch else "not on the deck")
            entry = None
        if entry is not None:
            entry[1] -= 1
            entry[2].append(inst)
            ctx.emit("tapped_into_hand", vis=Z.monarch_eyes(g, seat) if monarch else [seat], seat=seat, card=inst,
                     count=len(entry[2]), of=len(entry[2]) + entry[1])
            if entry[1] == 0:
                _finish(ctx, seat, entry[2], st["why"])
    open_for = {a["seat"] for a in ctx.state["asks"]}
    monarch_busy = any(s in g["monarchs"] for s in open_for)
    for entry in need:
        seat, left, got = entry
        if left <= 0 or seat in open_for:
            continue
        if seat in g["monarchs"]:
            if monarch_busy:
                continue  # one monarch at a time: at eight players they tap on the same reader
            monarch_busy = True
            ctx.ask(seat, "observe_decree", Z.decree_choices(g),
                    "Tap each decree you drew (%d of %d)." % (len(got) + 1, len(got) + left),
                    public="tapping the decrees they drew")
            continue
        if not g["deck"] and g["discard"] and not open_for & set(g["nobles"]):
            Z.reshuffle(ctx)  # only while no other noble is tapping from the old deck
        if not g["deck"]:
            if open_for & set(g["nobles"]):
                continue  # wait: the deck is refilled once the others are done
            entry[1] = 0
            ctx.emit("deck_empty", seat=seat, short=left)
            _finish(ctx, seat, got, st["why"])
            continue
        ctx.ask(seat, "observe_draw", Z.influence_choices(ctx),
                "Tap each influence card you drew (%d of %d)." % (len(got) + 1, len(got) + left),
                public="tapping the cards they drew")


@step
def observe_extra(ctx, st, answer):
    """The King deals cards face down from the deck to a mission and taps each there, unseen."""
    g = ctx.g
    king = g["king"]
    i = st["mission"]
    m = g["missions"][i]
    if answer is not None:
        inst = answer[1][1]
        if inst in g["deck"]:
            g["deck"].remove(inst)
            m["cards"].append(inst)
            m["extra"] += 1
            st["left"] -= 1
        else:  # tapped face down: the refusal does not name it
            ctx.emit("tap_refused", vis=[king], seat=king, why="not on the deck")
    if st["left"] > 0 and not g["deck"] and g["discard"]:
        Z.reshuffle(ctx)
    if st["left"] > 0 and g["deck"]:
        ctx.ask(king, "observe_extra", Z.influence_choices(ctx),
                "Deal a card face down from the influence deck to mission %d and tap it on that mission's "
                "reader without looking at it." % (i + 1),
                public="dealing cards face down to the missions", mission=i)
        return
    ctx.emit("face_down", mission=i, count=m["extra"])


@step
def observe_unseen(ctx, st, answer):
    """Battle of the Bay on a real table: the pile is shuffled, one card goes to the discard pile
    unseen, and the King taps it there face down; then the mission is revealed and scored."""
    g = ctx.g
    king = g["king"]
    i = st["mission"]
    if answer is not None:
        inst = answer[1][1]
        if inst in g["missions"][i]["cards"]:
            ctx.push(*resolve_mission(ctx, i, unseen=inst))
            return
        ctx.emit("tap_refused", vis=[king], seat=king, why="not in that mission's pile")
    ctx.ask(king, "observe_unseen", Z.influence_choices(ctx),
            "Battle of the Bay: shuffle the mission's cards, put one face down on the discard pile without "
            "looking, and tap it on the mission's reader.", public="discarding a card unseen", mission=i)
