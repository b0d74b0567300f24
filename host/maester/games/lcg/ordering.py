"""The order of passive effects that start together (forced triggers, the plots' "when revealed"):
the first player picks it (rulebook, "Plot Phase"), one effect at a time, and is asked only when the
order could change the outcome. abilities.resolve_together pushes the `passive_order` step by name;
it lives up here, beside the bots' sampling, because judging whether the order matters plays the
effects out on a sample of the state (sampling.py) with the engine's own loop."""

import itertools
import json

from ...engine import core
from .sampling import copy_state, determinise
from .steps import step

ORDER_TRIED = 3  # more effects at once than this are always ordered (3 make 6 orders to try; 4, 24)
ORDER_ANSWERS = 12  # the answers tried for one order: every answer to every question it asks (a target
# among the opponents, say); past this many the order is taken to matter, and the first player asked


@step
def passive_order(ctx, st, answer):
    """The first player picks the passive effect that resolves next; the rest wait for it to resolve
    and are ordered again. Nothing is asked when every order leaves the table the same (order_matters)."""
    steps = st["steps"]
    if answer is not None:
        picked = answer[1][1:]
        step_ = next(x for x in steps if [x["src"], x["idx"]] == picked)
        steps.remove(step_)
        ctx.push(step_, st)
        return
    if len(steps) < 2 or not order_matters(ctx.state, steps):
        ctx.push(*steps)
        return
    ctx.ask(ctx.g["first"], "order", [["next", x["src"], x["idx"]] for x in steps],
            "These effects start at the same time: choose the one that resolves next",
            public="chooses the order of effects that start together")


def order_matters(state, steps):
    """Whether the order of `steps` could change the outcome, judged from what the table can see: on a
    sample of the state in which every card no one may see (hands, decks, face-down cards) is dealt
    afresh from public facts (sampling.determinise, for no seat), so that whether the first player is
    asked tells nothing hidden. Each order is played on copies of the sample, the effects alone (and
    whatever they trigger), every question they ask answered every way it can be: the order matters
    unless every order can end in the same tables. More than ORDER_ANSWERS answers to try, or more
    than ORDER_TRIED effects, are taken to matter."""
    if len(steps) > ORDER_TRIED:
        return True
    sample = determinise(state, None, state["next_id"])
    seen = None
    for order in itertools.permutations(steps):
        ends = _endings(sample, order)
        if ends is None or (seen is not None and ends != seen):
            return True
        seen = ends
    return False


def _endings(state, order):
    """The tables `order` of effects can end in (as JSON text), or None past ORDER_ANSWERS answers to
    try (a window an action could hold open would never end). Chance draws from the state's own
    generator, the same for every order: an order that draws differently ends differently."""
    game = core.GAMES[state["game"]]
    trial = copy_state(state)
    trial.update(stack=json.loads(json.dumps(order[::-1])), asks=[], _outcomes=[])
    core._run(game, core.Ctx(trial, []))  # the engine's own loop, until a question or the end
    todo, ends, tried = [trial], set(), 0
    while todo:
        trial = todo.pop()
        if not trial["asks"] or trial["over"]:
            ends.add(json.dumps([trial["g"], trial["rng"], trial["result"]], sort_keys=True))
            continue
        ask = trial["asks"][0]
        tried += len(ask["choices"])
        if tried > ORDER_ANSWERS:
            return None
        for choice in ask["choices"]:
            child = copy_state(trial)
            core.apply(child, {"seat": ask["seat"], "ask": ask["id"], "choice": choice})
            todo.append(child)
    return ends
