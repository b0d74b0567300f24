"""The Intrigue heuristic bot against its rule written plainly: at every decision of a few games it
takes a placement that scores best when each resulting court is built and weighed as the bot's
docstring says (its own cards still placeable, places left for its houses, rivals likely to fit),
whatever order the ask lists its choices in."""

import random

import pytest

from maester.engine.bots import card_info, decide, make_bot
from maester.engine import core
from maester.games.intrigue import bot as intrigue_bot, court as C


def plain_scores(state, seat, choices, totals):
    """Each choice's score, from the court the placement makes (built) and the seat's own cards."""
    g = state["g"]
    house_of, hand = g["house_of"], g["hands"][seat]
    unseen = dict(totals)  # cards of each house the seat cannot see
    for c in C.placed_cards(g["court"]) + hand:
        unseen[house_of[c]] -= 1
    all_unseen = sum(unseen.values())
    rivals = [len(h) for s, h in enumerate(g["hands"]) if s != seat and not g["out"][s] and h]
    out = []
    for _, inst, row, pos in choices:
        court = C.copy_court(g["court"])
        C.place(court, inst, house_of[inst], row, pos)
        rest = [c for c in hand if c != inst]
        spots = C.open_spots(court)
        bases = sum(1 for s in spots if s[2] is None)
        upper = [(a, b) for _, _, a, b in spots if a is not None]
        fit = set(totals) if bases else {h for pair in upper for h in pair}
        kept = {house_of[c] for c in rest}
        own = sum(1 for c in rest if house_of[c] in fit)
        places = sum(1 for a, b in upper if a in kept or b in kept)
        q = sum(unseen[h] for h in fit) / (all_unseen or 1)
        rivals_fitting = sum(1 - (1 - q) ** k for k in rivals)
        out.append(intrigue_bot.OWN_PLAYABLE * own + intrigue_bot.OWN_PLACES * (bases + places)
                   - intrigue_bot.OPPONENT * rivals_fitting)
    return out


@pytest.mark.parametrize("players,variants", [(4, []), (2, []), (5, ["mat"]), (6, ["winner_starts"])])
def test_the_intrigue_bot_places_where_the_court_it_makes_scores_best(players, variants):
    rng = random.Random(players)
    checked = 0
    for seed in range(2):
        state, _ = core.new_game("intrigue", {"players": players, "variants": variants}, seed)
        info = card_info(state)
        totals = {}
        for rec in info.values():
            if rec["type"] == "character":
                totals[rec["house"]] = totals.get(rec["house"], 0) + rec["copies"]
        bots = [make_bot("intrigue", "heuristic", seed, s, info) for s in range(players)]
        while not state["over"]:
            ask = state["asks"][0]
            seat = ask["seat"]
            pick = decide(bots[seat], state, seat, ask, core.view)
            if ask["kind"] == "place" and len(ask["choices"]) > 1:
                # the same decision with the choices listed in another order
                shuffled = dict(ask, choices=rng.sample(ask["choices"], len(ask["choices"])))
                other = decide(bots[seat], state, seat, shuffled, core.view)
                scores = plain_scores(state, seat, ask["choices"], totals)
                best = max(scores)
                for chosen in (pick, other):
                    assert chosen in ask["choices"]
                    assert scores[ask["choices"].index(chosen)] > best - 1e-6, (seed, ask["id"], chosen)
                checked += 1
            assert core.apply(state, {"seat": seat, "ask": ask["id"], "choice": pick}).ok
    assert checked > 50
