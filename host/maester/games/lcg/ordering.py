"""The order of passive effects that start together (forced triggers, the plots' "when revealed"):
the first player picks it (rulebook, "Plot Phase"), one effect at a time, and is asked only when the
order could change the outcome. abilities.resolve_together pushes the `passive_order` step by name;
it lives up here, beside the bots' sampling, because judging whether the order matters plays the
effects out on a sample of the state (sampling.py) with the engine's own loop, but only the effects
that could change something: the ones declared inert (INERT) are proven to commute without it."""

import itertools

from ...engine import core
from . import abilities as A
from . import model as M
from .sampling import _copied, copy_state, determinise
from .steps import step

ORDER_TRIED = 3  # more effects at once than this are always ordered (3 make 6 orders to try; 4, 24)
FIRST_ANSWERS_AT = 6  # a first question of this many answers or more: its first answers played first
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


# The "when revealed" effects that, while `when(state, seat)` holds, ask nothing, trigger nothing and
# only set keys of g named in `writes` that nothing reads while effects resolve (so setting them
# earlier or later changes nothing): resolving one before or after any other effect ends in the same
# tables, after the same questions. tests/test_lcg_rules.py checks each entry against its effect.
INERT = {
    "L190": (lambda state, seat: True, ("skip_taxation",)),  # Planning Ahead: read at taxation only
    "S196": (lambda state, seat: len(M.opponents(state["g"], seat)) < 2, ()),  # Mutual Enemies: nothing
}  # with one opponent (its effect asks only with two or more)


def inert(state, step_):
    """Whether `step_` is a plot's "when revealed" effect that INERT proves commutes with anything."""
    if step_["s"] != "ability" or (step_["ev"] or {}).get("e") != "revealed" or "as" in step_["ev"]:
        return False  # Good for the Gander resolves another plot's effect as its own: not declared
    entry = INERT.get(M.code(step_["src"]))
    return entry is not None and entry[0](state, step_["seat"])


def cancels_possible(state):
    """Whether any card in the game could cancel an ability (a cancel window would ask): its
    seat's deck list has such an event (public), or some card has a cancel ability (abilities.holders:
    the game's cards with one, worked out once a game)."""
    if any("cancel" in p["hand_kinds"] for p in state["g"]["players"]):
        return True
    return bool(A.holders(state, "cancel")[0])


def order_matters(state, steps):
    """Whether the order of `steps` could change the outcome, judged from what the table can see: on a
    sample of the state in which every card no one may see (hands, decks, face-down cards) is dealt
    afresh from public facts (sampling.determinise, for no seat), so that whether the first player is
    asked tells nothing hidden. Each order is played on copies of the sample, the effects alone (and
    whatever they trigger), every question they ask answered every way it can be: the order matters
    unless every order can end in the same tables. More than ORDER_ANSWERS answers to try, or more
    than ORDER_TRIED effects, are taken to matter.

    The inert effects (INERT; none while a cancel window could ask) are left out of the orders tried:
    each order of the others, then the inert ones, stands for every place they could take in it (the
    same questions, the same tables). None left to order: nothing is played out."""
    if len(steps) > ORDER_TRIED:
        return True
    if cancels_possible(state):
        rest, tail = steps, []
    else:
        rest, tail = [], []
        for x in steps:
            (tail if inert(state, x) else rest).append(x)
        if not rest:
            return False
    seen = None
    # The game's stack and questions are not copied into the samples: _endings replaces both.
    bare = dict(state, stack=[], asks=[])
    for order in itertools.permutations(rest):
        # Each order plays on a sample of its own, drawn from the same seed: the same sample each
        # time (determinise reads only the state and the seed), for no more than the copy of one
        # sample the order would need, and none at all for the orders never tried (most stop at the
        # first, whose questions have more answers than ORDER_ANSWERS).
        played = order + tuple(tail)
        ends = _endings(determinise(bare, None, state["next_id"]), played, seen)
        if ends is False:  # its first answers left it open: the whole tree, on the same sample again
            ends = _endings(determinise(bare, None, state["next_id"]), played, seen, False)
        if ends is None or (seen is not None and not _same(ends, seen)):
            return True
        seen = ends
    return False


def _same(ends, others):
    """Whether two lists of distinct endings hold the same ones, in any order."""
    return len(ends) == len(others) and all(e in others for e in ends)


def _endings(state, order, seen=None, first_answers=True):
    """The tables `order` of effects can end in (distinct (g, rng, result) triples, compared with ==:
    a dict's keys in any order), or None past ORDER_ANSWERS answers to try (a window an action could
    hold open would never end). Chance draws from the state's own generator, the same for every
    order: an order that draws differently ends differently. Played on `state` itself (a sample).
    With `seen`, the endings of an order played before, None too as soon as an ending not among them
    is met: this order then differs from that one whatever the rest of its tree holds (all of it
    played, it would end in that table too, or pass ORDER_ANSWERS), so the rest is not played.

    The tree of questions is played a level at a time (every answer to the questions at one depth,
    then the questions they lead to), each answer on a copy of the table that asked but the
    question's last answer on that table itself, and the answers counted as each question is met.
    Whatever the order of play, the same tables are met (play is deterministic), so the answer is the
    same: None exactly when the questions of the whole tree offer more than ORDER_ANSWERS answers
    between them, else every ending of the tree. Most trees pass ORDER_ANSWERS, and a level at a time
    counts every question near the top before playing on under any one of them: over the 275 orderings
    judged in 70 seeded games (random and heuristic), 18% fewer copies and 10% fewer answers played
    than depth first, for the same answers.

    The questions of a single answer met first are answered on the table itself (the tree's first
    levels, a table each). Then, with `first_answers`, a question of FIRST_ANSWERS_AT answers or more
    is played its first answer down, still on the table itself (_first_answers): most of those trees
    pass ORDER_ANSWERS along that one path, settled then with no copy made; when the path leaves it
    open, False (order_matters then plays the whole tree on the sample drawn again)."""
    game = core.GAMES[state["game"]]
    # The order's steps copied whole, none shared with the game's (play changes a step in place) nor
    # with one another, as a JSON round trip made them, but keeping the strings, so their keys stay
    # the interned ones the rules look up with (ir.py's 20 games: 4M fewer instructions compiled, 3M
    # pure).
    state.update(stack=_copied(list(order[::-1]), None), asks=[], _outcomes=[])
    core._run(game, core.Ctx(state, None))  # the engine's own loop, until a question or the end; quiet
    tried = 0
    while state["asks"] and not state["over"] and len(state["asks"][0]["choices"]) == 1:
        tried += 1
        if tried > ORDER_ANSWERS:
            return None
        core.answer(state, state["asks"][0], state["asks"][0]["choices"][0], True)
    if first_answers and state["asks"] and not state["over"] \
            and len(state["asks"][0]["choices"]) >= FIRST_ANSWERS_AT:
        return _first_answers(state, tried, seen)
    ends, asking = [], []  # asking: the tables met with a question, in the order met (a level at a time)
    tried = _meet(state, ends, asking, tried, seen)
    k = 0
    while k < len(asking) and tried <= ORDER_ANSWERS:
        trial = asking[k]
        asking[k] = None  # its answers are played below, the last on the table itself
        k += 1
        for i in range(len(trial["asks"][0]["choices"])):
            tried = _meet(_answered(trial, i), ends, asking, tried, seen)
            if tried > ORDER_ANSWERS:
                break
    return ends if tried <= ORDER_ANSWERS else None


def _first_answers(state, tried, seen):
    """None when the path of `state`'s tree of questions that takes every question's first answer
    settles that _endings is None (with `tried` answers counted above it): more than ORDER_ANSWERS
    answers along it are more in the whole tree, and an ending not in `seen` is met in the whole tree
    too. Else False: the rest of the tree decides. Played on `state` itself."""
    while state["asks"] and not state["over"]:
        ask = state["asks"][0]
        tried += len(ask["choices"])
        if tried > ORDER_ANSWERS:
            return None
        core.answer(state, ask, ask["choices"][0], True)
    if seen is not None and (state["g"], state["rng"], state["result"]) not in seen:
        return None
    return False


def _meet(trial, ends, asking, tried, seen):
    """`tried` with the answers to `trial`'s question added (and `trial` queued in `asking`), or, at
    the end of play, as it was (and `trial`'s ending added to `ends`, unless already there), but past
    ORDER_ANSWERS for an ending not in `seen` (when given: _endings)."""
    if not trial["asks"] or trial["over"]:
        end = (trial["g"], trial["rng"], trial["result"])
        if end not in ends:
            if seen is not None and end not in seen:
                return ORDER_ANSWERS + 1
            ends.append(end)
        return tried
    asking.append(trial)
    return tried + len(trial["asks"][0]["choices"])


def _answered(trial, i):
    """`trial` after its question's answer `i`: played on a copy, but the last answer on `trial`
    itself (its other answers are copied from it first: _endings asks for them in order)."""
    if i < len(trial["asks"][0]["choices"]) - 1:
        trial = copy_state(trial)
    ask = trial["asks"][0]
    core.answer(trial, ask, ask["choices"][i], True)
    return trial
