"""Chance that lives in the game state, so a game is a pure function of its seed and commands.

The generator is a 64-bit xorshift* kept as one int in `state["rng"]`: cheap to copy, trivially
serialisable, identical on every Python. Every outcome drawn is also appended to
`state["_outcomes"]` during a command, so the log can record it and a replay can be fed the
logged outcomes instead of the generator (see `Forced`).
"""

MASK = (1 << 64) - 1
# The constants are named, not written inline, so that chance.pxd can make them C integers in the
# compiled build (a literal this large stays a Python int there, and so would the arithmetic).
GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment: the odd integer nearest 2**64 / golden ratio
MIX1 = 0xBF58476D1CE4E5B9  # SplitMix64's two multipliers
MIX2 = 0x94D049BB133111EB
STAR = 0x2545F4914F6CDD1D  # xorshift*'s multiplier


def mix64(z):
    """SplitMix64's output function: a 64-bit integer spread over all 64 bits."""
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return z ^ (z >> 31)


def seed_state(seed):
    """Spread any integer seed over 64 bits (splitmix64), never zero."""
    return mix64((int(seed) + GAMMA) & MASK) or 1


def _step(x):
    """The generator's next value (xorshift64)."""
    x ^= (x >> 12)
    x ^= (x << 25) & MASK
    return x ^ (x >> 27)


def _next(x):
    """(the generator's next value, the output drawn from it)."""
    x = _step(x)
    return x, (x * STAR) & MASK


def draw(key, index, n):
    """A uniform integer in [0, n): draw number `index` of the SplitMix64 stream `key` (a value of
    seed_state). Any draw is reached at once, with no generator carried from one to the next: a bot
    that draws by decision id keeps no memory, and its picks are the same on any machine."""
    z = (key + index * GAMMA) & MASK
    z = ((z ^ (z >> 30)) * MIX1) & MASK  # mix64, written out: a random bot draws every decision
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return (z ^ (z >> 31)) % n


class Chance:
    """Draws from the state's generator; records outcomes; obeys forced outcomes on replay."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def below(self, n):
        """A uniform integer in [0, n).

        On replay the logged outcome wins (the log is the truth); the generator still advances so
        that draws after the replayed part continue exactly as in the live game.
        """
        state = self.state
        state["rng"], out = _next(state["rng"])
        value = out % n
        forced = state.get("_forced")
        if forced is not None:
            if not forced:
                raise ValueError("the log holds fewer chance outcomes than the replay draws")
            value = forced.pop(0)
            if not 0 <= value < n:
                raise ValueError("replayed outcome %r is out of range %d" % (value, n))
        state["_outcomes"].append(value)
        return value

    def pick(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items):
        """Fisher-Yates in place."""
        state = self.state
        if state.get("_forced") is not None:  # a replay: each draw may come from the log
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return items
        # Live, the draws of below() without its bookkeeping per draw: a season's shuffle draws
        # once per card, as many draws as a game has decisions.
        state["rng"], drawn = _shuffle(state["rng"], items)
        state["_outcomes"] += drawn
        return items


def _shuffle(x, items):
    """Fisher-Yates on the list `items` in place, drawing from generator value `x`; returns the
    generator's value after and the draws made (what below() would have drawn, in order)."""
    drawn = []
    for i in range(len(items) - 1, 0, -1):
        x = _step(x)  # not _next: no tuple a card (compiled, x stays a C integer throughout)
        j = ((x * STAR) & MASK) % (i + 1)
        drawn.append(j)
        items[i], items[j] = items[j], items[i]
    return x, drawn
