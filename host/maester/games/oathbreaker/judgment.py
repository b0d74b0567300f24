"""Final Judgment: the monarchs' guesses, every noble's reveal and decree scoring, the bonus for a
perfect judgment, the Agent, and who wins."""

from . import zones as Z
from .zones import step


@step
def judgment(ctx, st, answer):
    g = ctx.g
    ctx.emit("final_judgment")
    ctx.push(*[{"s": "guess", "seat": g["judge"][s], "target": s} for s in Z.turn_order(g)], {"s": "reveal"})


@step
def guess(ctx, st, answer):
    """The monarch announces a guess about one noble's loyalty (at 8, each judges their own side)."""
    g = ctx.g
    target = st["target"]
    if answer is None:
        who = g["characters"][target]  # the seat as the table knows it: by its character
        who = "Seat %d (%s)" % (target, Z.table(g)["info"][Z.cid(who)]["name"]) if who else "Seat %d" % target
        ctx.ask(st["seat"], "guess", [["loyalist"], ["conspirator"]],
                "Final Judgment: is %s a loyalist or a conspirator?" % who,
                public="passing Final Judgment", target=target)
        return
    g["guesses"][target] = answer[1][0]
    ctx.emit("guess", seat=st["seat"], target=target, guess=answer[1][0])


def decree_values(g, seat):
    """(Favor total, Suspicion total) of the decrees in front of a noble, sideways ones included."""
    fav = sus = 0
    for d in g["decrees"][seat]:
        rec = Z.info(g, d["card"])
        if rec["decree"] == "favor":
            fav += rec["value"]
        elif rec["decree"] == "suspicion":
            sus += rec["value"]
    return fav, sus


@step
def reveal(ctx, st, answer):
    g = ctx.g
    g["revealed"] = True
    for seat in Z.turn_order(g):
        loyal = g["loyalty"][seat]
        ctx.emit("revealed_identity", seat=seat, loyalty=loyal, ambition=g["ambition"][seat])
        fav, sus = decree_values(g, seat)
        right, wrong = (fav, sus) if loyal == "loyalist" else (sus, fav)
        Z.move(ctx, "order", right, "decrees", seat=seat)
        Z.move(ctx, "chaos", wrong, "decrees", seat=seat)
    correct = all(g["guesses"][s] == g["loyalty"][s] for s in g["nobles"])
    Z.move(ctx, "order" if correct else "chaos", g["bonus"], "judgment")
    if g["agent"] is not None:
        ctx.emit("agent", loyalty=g["agent"])
        Z.move(ctx, "order" if g["agent"] == "loyalist" else "chaos", g["agent_value"], "agent")
    order_wins = g["order"] > g["chaos"]  # a tie goes to Chaos
    side = "loyalist" if order_wins else "conspirator"
    met = [Z.ambition_met(g, s) if s in g["nobles"] else None for s in range(g["n"])]
    winners = list(g["monarchs"]) if order_wins else []
    winners += [s for s in g["nobles"] if g["loyalty"][s] == side and met[s]]
    g["phase"] = "over"
    ctx.end({"winners": sorted(winners), "realm": "order" if order_wins else "chaos",
             "order": g["order"], "chaos": g["chaos"], "judgment_correct": correct,
             "loyalty": list(g["loyalty"]), "ambition": list(g["ambition"]), "ambition_met": met,
             "agent": g["agent"], "guesses": list(g["guesses"]), "rounds": g["rounds_played"]})
