"""The LCG search bot: determinised Monte Carlo search from its own seat's view.

At a decision with several choices the bot

1. **samples the hidden information** (`determinise`): it copies the state and then overwrites
   everything its seat may not see with a value drawn from (its seed, the decision id, the sample
   number) and the public facts alone: each other seat's hand, face-down setup cards and deck are
   pooled (sorted, so the pool does not depend on where the cards really are), shuffled and dealt
   back in the same counts; every deck's order is shuffled (its own too: nobody sees their deck's
   order); an opponent's face-down chosen plot is re-picked among the plots it has left; the chance
   generator is re-seeded and the game's seed and drawn outcomes are dropped. Two states that differ
   only in what the seat may not see therefore give the same samples (tests/test_lcg_bots.py checks
   it, and that the sample's view for the seat is the seat's real view);
2. for each sample and each choice, applies the choice to a copy and **plays out** with the rule-based
   heuristic bot at every seat (`HeuristicBot(simulate=False)`: quick, no look-ahead of its own) to
   the end of the current round (`horizon` rounds; 1 by default) or the end of the game;
3. scores the end of each playout with `evaluate` (a win or loss, then power, cards in hand, the
   characters and locations in play by cost and STR, gold before marshalling, and the challenge in
   progress projected by its STR), the seat's side minus its strongest opponent's, and picks the
   choice with the best average; ties go to the heuristic bot's own pick.

Every sample serves every choice (common random numbers), so choices are compared on the same
deals. The choices it weighs are all of the ask's (at most `MAX_CHOICES`: beyond that, the heuristic
pick and an even spread of the others).

Reproducibility: with `playouts` (``--playouts N``: N samples per decision) a decision is a pure
function of (seed, decision id, the seat's view), so a resumed game continues exactly as the
uninterrupted one. With the default time budget (``--think-ms``, 50 ms) the number of samples
depends on the machine's speed at that moment, so the same decision may differ from one run to the
next: use ``--playouts`` for reproducible runs (the tests do).
"""

import time

from ...engine import core
from .bot import HeuristicBot
from .sampling import copy_state, determinise, evaluate

MAX_CHOICES = 12
MAX_PLAYOUT_ACTIONS = 600


def playout(state, bots, horizon_round, max_actions=MAX_PLAYOUT_ACTIONS):
    """Play `state` on with `bots` (one per seat) until `horizon_round` begins or the game ends."""
    apply, view = core.apply, core.view
    for _ in range(max_actions):
        if state["over"] or state["g"]["round"] >= horizon_round:
            return
        ask = state["asks"][0]
        seat = ask["seat"]
        choices = ask["choices"]
        choice = choices[0] if len(choices) == 1 else bots[seat].choose(view(state, seat), ask)
        if not apply(state, {"seat": seat, "ask": ask["id"], "choice": choice}).ok:
            return


class SearchBot(HeuristicBot):
    """Determinised Monte Carlo search over the ask's choices (see the module's docstring)."""

    name = "search"
    uses_state = True

    def __init__(self, seed=0, seat=0, info=None, think_ms=50, playouts=None, horizon=1):
        super().__init__(seed, seat, info)
        self.seat = seat
        self.think_ms = think_ms
        self.playouts = playouts
        self.horizon = horizon
        self.samples = 0  # samples drawn over the game (for the figures)

    def choose(self, view, ask, state=None):
        choices = ask["choices"]
        if len(choices) == 1:
            return choices[0]
        prior = HeuristicBot.choose(self, view, ask, state)
        if state is None:
            return prior
        me = ask["seat"]
        cands = [prior] + [c for c in choices if c != prior]
        if len(cands) > MAX_CHOICES:
            rest = cands[1:]
            step = len(rest) / (MAX_CHOICES - 1)
            cands = [prior] + [rest[int(i * step)] for i in range(MAX_CHOICES - 1)]
        base = self.seed * 1000003 + ask["id"]
        n_players = state["g"]["n"]
        horizon = state["g"]["round"] + self.horizon
        totals = [0.0] * len(cands)
        deadline = time.perf_counter() + self.think_ms / 1000.0
        n = 0
        while True:
            det = determinise(state, me, base * 8191 + n)
            bots = [HeuristicBot(base + 977 * n + s, s, self.info, simulate=False) for s in range(n_players)]
            for j, c in enumerate(cands):
                s = copy_state(det)
                if not core.apply(s, {"seat": me, "ask": ask["id"], "choice": c}).ok:
                    totals[j] = float("-inf")
                    continue
                playout(s, bots, horizon)
                totals[j] += evaluate(s, me)
            n += 1
            if self.playouts is not None:
                if n >= self.playouts:
                    break
            elif time.perf_counter() >= deadline:
                break
        self.samples += n
        best = max(range(len(cands)), key=lambda j: (totals[j], j == 0))
        return cands[best]
