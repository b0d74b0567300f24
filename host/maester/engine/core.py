"""The game-agnostic engine: plain-data state, a step pipeline kept in the state, asks, apply, view.

State is a dict of plain data (JSON-serialisable). Flow is a stack of *steps*, each a small dict
``{"s": step_name, ...}`` handled by a function of the game. The engine pops the top step and runs
it; a step may push further steps (pushed later runs first, so a step's sub-steps run before its
siblings), or stop the pipeline by *asking* one or more seats for a choice. Because the
continuation is data, a game saves and resumes anywhere without pickling generators; nested
windows (the LCG's interrupts and responses) are steps that push steps.

An *ask* is the pending decision: an id that only grows, the seat that must answer, a kind, the
legal choices (always listed) and a prompt. A command names the ask it answers; a command aimed at
an ask that is closed or not yours is rejected, which also absorbs a reader's double read.

`apply` checks a command against the open asks before touching anything, so a rejected command
changes nothing. An accepted command mutates the state in place and returns the events. Callers
that need the old state (the session, tests) keep the log: state is a fold of it.
"""

import reprlib

from .. import games
from .chance import Chance, seed_state

REFEREE = "referee"
PUBLIC = "public"
TABLE = "table"  # the seat name for observations made by the table itself (a shared reader)
# A seat's clock ran out under `--clock-zero lose` (table/clocks.py): the answer to any of its open
# decisions that ends the game, that seat losing. Accepted only in a game whose config says so.
OUT_OF_TIME = ["out_of_time"]
ENGINE_CONFIG = ("clock_zero",)  # settings the engine reads itself, in every game's config


class Rejected:
    """A command that was refused. `reason` is written for the seat that sent it."""

    __slots__ = ("reason",)
    ok = False

    def __init__(self, reason):
        self.reason = reason

    def __repr__(self):
        return "Rejected(%r)" % self.reason


class Applied:
    __slots__ = ("events", "outcomes")
    ok = True

    def __init__(self, events, outcomes):
        self.events = events
        self.outcomes = outcomes


_ASK_PUBLIC = dict.fromkeys(("id", "seat", "kind", "choices", "prompt", "public"))  # an ask's keys, in order (Ctx.ask)


class Ctx:
    """What a step handler works with: the state, the game data, chance, events and asks."""

    # `ended` is state["over"] kept where the engine reads it at every step, push and ask (a field,
    # not a look-up of the state): the game ends only through this context (end, core._out_of_time),
    # which sets both.
    __slots__ = ("state", "g", "events", "_chance", "asked", "ended")

    def __init__(self, state, events):
        # _apply sets these same fields itself (one context a decision, no __init__ call): keep both alike.
        self.state = state
        self.g = state["g"]
        self.events = events
        self._chance = None
        self.asked = False
        self.ended = state.get("over", False)  # a bare state of a test's may have no "over" yet

    @property
    def chance(self):
        """The state's generator, made on first use: most commands draw nothing."""
        chance = self._chance
        if chance is None:
            chance = self._chance = Chance(self.state)
        return chance

    def push(self, *steps):
        """Queue steps to run next, in the order given, before anything already queued."""
        if not self.ended:
            stack = self.state["stack"]
            # One append a step, the last first: most pushes are of one to three steps, for which
            # this beats extend(reversed(steps)) and its iterator (compiled, a C loop over the tuple).
            for i in range(len(steps) - 1, -1, -1):
                stack.append(steps[i])

    def ask(self, seat, kind, choices, prompt, public=None, **data):
        """Open a decision for `seat`. The current step is re-run with the answer."""
        if self.ended:
            return None  # the game ended in the middle of this step: nothing more is asked
        state = self.state
        ask_id = state["next_id"]
        if public is None:  # five keys: the room of Python's smallest dict
            ask = {"id": ask_id, "seat": seat, "kind": kind, "choices": choices, "prompt": prompt}
        else:
            # Six keys: a copy of a dict that has them, then each set in place. Compiled, a literal
            # of six keys starts as Python's smallest dict (room for five) and is grown at the sixth,
            # a third of the ask's time; the copy is made at its full size.
            ask = _ASK_PUBLIC.copy()
            ask["id"] = ask_id
            ask["seat"] = seat
            ask["kind"] = kind
            ask["choices"] = choices
            ask["prompt"] = prompt
            ask["public"] = public
        if data:
            ask["data"] = data
        state["next_id"] = ask_id + 1
        state["asks"].append(ask)
        self.asked = True
        return ask

    def emit(self, kind, vis=None, **data):
        """Record an event. `vis` is None for everyone, a list of seats, or REFEREE."""
        if self.events is not None:  # a quiet command keeps no events: record's own test, a call sooner
            self.record(kind, data, vis)

    def record(self, kind, fields, vis=None):
        """emit() for a caller that has the event's fields in a dict of its own, which becomes the
        event (the fields in their order, then "e", then "vis"): the steps that run every turn use it,
        since a call with keywords builds the fields twice and cost a tenth of a random game."""
        events = self.events
        if events is None:  # a quiet command (core.answer): nobody reads its events
            return
        fields["e"] = kind
        if vis is not None:
            fields["vis"] = vis
        events.append(fields)

    def end(self, result):
        self.ended = True
        self.state["over"] = True
        self.state["result"] = result
        self.state["stack"].clear()
        self.state["asks"].clear()  # a win in the middle of a window closes every open decision
        self.emit("game_over", **result)


class Game:
    """A game plugs in by subclassing this: setup, step handlers and the view."""

    name = ""
    title = ""
    steps = {}
    # A rule that holds at any moment, run after every step with its context (the LCG's: victory and
    # its cards' watches), or None. The engine calls it itself: a game that wrapped each of its steps
    # in a function calling it paid a further call a step (a Python frame in the pure build).
    after_step = None
    # A view made of fields: {key: fn(state, g, viewer)}, with view_keys(state, viewer) naming the
    # keys a viewer gets. Then `view` needs no code of the game's own, and a bot's LazyView
    # (engine/lazyview.py) computes only the fields it reads.
    VIEW_FIELDS = None

    def setup(self, ctx, config):
        """Fill ctx.g and push the first steps. Called once by `new_game`."""
        raise NotImplementedError

    def check_config(self, config):
        """Return a normalised config or raise ValueError with a reason a person can act on."""
        return dict(config)

    def view(self, state, viewer):
        """What `viewer` (a seat, PUBLIC or REFEREE) may see of the game data: by default its
        VIEW_FIELDS, those view_keys gives the viewer, in that order."""
        fields = self.VIEW_FIELDS
        if fields is None:
            raise NotImplementedError
        g = state["g"]
        return {k: fields[k](state, g, viewer) for k in self.view_keys(state, viewer)}

    def view_keys(self, state, viewer):
        """The VIEW_FIELDS keys `viewer` gets: the one place that decides who sees what."""
        raise NotImplementedError

    def seat_count(self, state):
        return state["config"]["players"]

    def describe_choice(self, state, ask, choice, viewer):
        """A short label for a choice, for menus. Override for friendlier names."""
        return " ".join(str(x) for x in choice)


GAMES = {}
# A game's name -> (the game, its steps, its after_step): what _apply reads of the game at every
# decision, read off it once (two attribute look-ups of the game a decision, through its class).
_RUNNING = {}


def register(game):
    GAMES[game.name] = game
    _RUNNING.pop(game.name, None)  # a game registered again is read again
    return game


def _running(name):
    """(game, steps, after_step) of the registered game `name`."""
    found = _RUNNING.get(name)
    if found is None:
        game = GAMES[name]
        found = _RUNNING[name] = (game, game.steps, game.after_step)
    return found


def get_game(name):
    if name not in GAMES:
        games.load(name)  # a game's rules are imported when first played: each registers itself once
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError("unknown game %r (known: %s)" % (name, ", ".join(sorted(GAMES)))) from None


def new_game(name, config, seed, forced=None):
    """Build the initial state and run it to the first decision. Returns (state, events).

    `forced` replays logged chance outcomes instead of drawing them. The outcomes drawn during
    setup are left in `state["setup_outcomes"]` for the log.
    """
    game = get_game(name)
    own = {k: config[k] for k in ENGINE_CONFIG if k in config}
    if own:  # the engine's own settings: the game's check knows nothing of them
        if own.get("clock_zero", "lose") != "lose":
            raise ValueError("clock_zero is \"lose\" or absent, not %s" % (_show(own["clock_zero"]),))
        config = {k: v for k, v in config.items() if k not in own}
    config = game.check_config(config)
    if own:
        config.update(own)
    state = {
        "game": name,
        "config": config,
        "seed": int(seed),
        "rng": seed_state(seed),
        "_outcomes": [],
        "stack": [],
        "asks": [],
        "next_id": 1,
        "seq": 0,
        "over": False,
        "result": None,
        "g": {},
    }
    events = []
    ctx = Ctx(state, events)
    with _forcing(state, forced):
        game.setup(ctx, config)
        _run(game, ctx)
    state["setup_outcomes"] = state["_outcomes"]
    state["_outcomes"] = []
    return state, events


class ReplayMismatch(ValueError):
    """Logged chance outcomes that the code no longer draws the same way."""


class _forcing:
    def __init__(self, state, forced):
        self.state, self.forced = state, forced

    def __enter__(self):
        if self.forced is not None:
            self.state["_forced"] = list(self.forced)

    def __exit__(self, kind, exc, tb):
        left = self.state.pop("_forced", None)
        if kind is None and left:
            raise ReplayMismatch("%d logged chance outcomes were not drawn on replay" % len(left))


def find_ask(state, ask_id):
    """The open ask numbered `ask_id`, or None."""
    for ask in state["asks"]:
        if ask["id"] == ask_id:
            return ask
    return None


def check(state, command):
    """Validate without changing anything. Returns (ask, None) or (None, reason)."""
    ask, _, reason = _match(state, command)
    return ask, reason


def _match(state, command):
    """(ask, the ask's own choice that `command` names, None) or (None, None, reason).

    Matching is exact in JSON terms: a boolean, a whole number, a float and a string never stand
    for one another (Python's ``True == 1 == 1.0`` would let them), at any depth of a choice.
    """
    if state["over"]:
        return None, None, "the game is over"
    if type(command) is not dict:
        return None, None, "a command names a seat, a decision and a choice"
    seat = command.get("seat")
    ask_id = command.get("ask")
    if type(ask_id) is not int:
        return None, None, "a decision is named by its whole number, not %s" % (_show(ask_id),)
    ask = find_ask(state, ask_id)
    if ask is None:
        mine = [a["id"] for a in state["asks"] if same(a["seat"], seat)]
        if mine:
            return None, None, "decision %d is closed; your open decision is %s" % (ask_id, mine[0])
        return None, None, "nothing is asked of you now (decision %d is closed)" % (ask_id,)
    owner = ask["seat"]
    if owner is not seat and not same(owner, seat):  # a seat number is usually the very object
        return None, None, "decision %d is not yours" % (ask_id,)
    choice = command.get("choice")
    if type(choice) is tuple:
        choice = list(choice)
    choices = ask["choices"]
    for legal in choices:  # a bot hands back the ask's own choice: the same object, no comparing
        if legal is choice:
            return ask, legal, None
    # The membership test (C speed) refuses almost everything at once (`index` alone would, but its
    # error message is the repr of the choice, however deep); `index` then finds the first choice
    # equal in Python's looser sense, and `same` checks the types, going on to later equal choices
    # if needed.
    if choice not in choices:
        if choice == OUT_OF_TIME and state["config"].get("clock_zero") == "lose" and type(owner) is int:
            return ask, OUT_OF_TIME, None
        return None, None, _illegal(choice)
    i = choices.index(choice)
    legal = choices[i]
    if same(legal, choice):
        return ask, legal, None
    for legal in choices[i + 1:]:
        if legal == choice and same(legal, choice):
            return ask, legal, None
    return None, None, _illegal(choice)


def _illegal(choice):
    return "%s is not a legal choice for this decision" % (_show(choice),)


_ARRAYS = (list, tuple)


def same(a, b):
    """Whether `a` and `b` are the same JSON value, types included (a tuple counts as an array).

    The recursion follows whichever side is shallower, so a deeply nested value costs nothing
    against a flat one.
    """
    ta, tb = type(a), type(b)
    if ta in _ARRAYS:
        if tb not in _ARRAYS or len(a) != len(b):
            return False
        for x, y in zip(a, b):
            tx = type(x)
            if tx is str or tx is int:  # most choices: a word and a card or a number
                if tx is not type(y) or x != y:
                    return False
            elif not same(x, y):
                return False
        return True
    if ta is not tb:
        return False
    if ta is dict:
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    return a == b


def apply(state, command, forced=None):
    """Apply `command` ({"seat", "ask", "choice"}) to `state` in place.

    Returns Applied(events, outcomes) or Rejected(reason); a rejection leaves `state` untouched.
    `outcomes` lists every chance outcome drawn, for the log; `forced` replays logged ones.
    """
    ask, choice, reason = _match(state, command)
    if ask is None:
        return Rejected(reason)
    return _apply(state, ask, choice, forced)


def answer(state, ask, choice, quiet=False):
    """apply() for a caller in this process that holds an open ask of `state` itself and one of
    that ask's own choices (a bot: sim's play loop): the same result, without a command to build and
    match. Anything else (another object, a closed ask) goes through apply's checks. `quiet`: the
    caller reads no events, so none are kept (the result's events are empty; the state is the same)."""
    if not state["over"]:
        for open_ask in state["asks"]:
            if open_ask is ask:
                for legal in ask["choices"]:
                    if legal is choice:
                        return _apply(state, ask, choice, None, quiet)
                break
    return apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice})


def _apply(state, ask, choice, forced, quiet=False):
    """Apply the matched `choice` (one of `ask`'s own, or OUT_OF_TIME) of an open `ask`."""
    try:  # a subscript: no call (in Python, a frame) a decision
        game, steps, after = _RUNNING[state["game"]]
    except KeyError:
        game, steps, after = _running(state["game"])
    asks = state["asks"]
    if asks[0] is ask:  # nearly always the one open ask: no method call
        del asks[0]
    else:
        asks.remove(ask)
    state["seq"] += 1
    state["_outcomes"] = outcomes = []
    events = None if quiet else []
    # Ctx.__init__'s fields set here (one context a decision): compiled, a struct filled in C without
    # the argument parsing of a call; in Python, no frame for __init__.
    ctx = Ctx.__new__(Ctx)
    ctx.state = state
    ctx.g = state["g"]
    ctx.events = events
    ctx._chance = None
    ctx.asked = False
    ctx.ended = False  # an open ask was matched: the game is not over
    if choice is OUT_OF_TIME:
        _out_of_time(game, ctx, ask["seat"])
    elif forced is None:  # the live path: nothing to replay, so no context to enter
        _answer(steps, after, ctx, ask, choice)
    else:
        with _forcing(state, forced):
            _answer(steps, after, ctx, ask, choice)
    state["_outcomes"] = []
    result = Applied.__new__(Applied)  # compiled, the struct filled in without __init__'s argument parsing
    result.events = () if quiet else events
    result.outcomes = outcomes
    return result


def _out_of_time(game, ctx, seat):
    """The game ends: `seat`'s clock ran out, and every other seat shares the win."""
    state = ctx.state
    others = [s for s in range(game.seat_count(state)) if s != seat]
    ctx.ended = True
    state["over"] = True
    state["result"] = {"winners": others, "out_of_time": seat}
    state["stack"].clear()
    state["asks"].clear()
    # Not the game's own "game_over" (its words read the game's own scores): an event of its own.
    ctx.emit("out_of_time", seat=seat, winners=others)


def _answer(steps, after, ctx, ask, choice):
    """Re-run the waiting step with the answer, then the pipeline to the next decision (`steps` and
    `after`: the game's, _running)."""
    state = ctx.state
    step = state["stack"].pop()
    steps[step["s"]](ctx, step, (ask, choice))
    if after is not None:
        after(ctx)
    if (ctx.asked or state["asks"]) and not ctx.ended:
        # A step with open asks (new ones, or other seats' of a simultaneous decision) waits on top.
        state["stack"].append(step)
    _run_steps(ctx, steps, after)


def _run(game, ctx):
    """Run the pipeline to the next decision (or the end)."""
    _run_steps(ctx, game.steps, game.after_step)


def _run_steps(ctx, steps, after):
    """_run with the game's steps and after_step already read (_answer has them from _running)."""
    state = ctx.state
    stack = state["stack"]
    asks = state["asks"]
    while stack and not asks and not ctx.ended:
        step = stack.pop()
        ctx.asked = False
        steps[step["s"]](ctx, step, None)
        if after is not None:
            after(ctx)
        if ctx.asked and not ctx.ended:
            stack.append(step)


def asks_for(state, seat):
    return [a for a in state["asks"] if a["seat"] == seat]


def view(state, viewer):
    """Everything `viewer` may know: the game view plus the open asks, filtered."""
    game = GAMES[state["game"]]
    out = game.view(state, viewer)
    out["asks"] = asks_seen_by(state, viewer)
    out["over"] = state["over"]
    out["result"] = state["result"] if state["over"] else None
    return out


def asks_seen_by(state, viewer):
    """The open asks as `viewer` may see them: whole for its own (and for the referee), else who is
    asked and the public words only."""
    out = []
    for a in state["asks"]:
        if viewer == REFEREE or a["seat"] == viewer:
            out.append(a)
        else:
            out.append({"id": a["id"], "seat": a["seat"], "kind": a["kind"], "public": a.get("public", "")})
    return out


def visible(event, viewer):
    vis = event.get("vis")
    if vis is None or viewer == REFEREE:
        return True
    if vis == REFEREE:
        return False
    return viewer in vis


def filter_events(events, viewer):
    """The events `viewer` may see, without the visibility tag."""
    out = []
    for e in events:
        if visible(e, viewer):
            if "vis" in e:
                e = {k: v for k, v in e.items() if k != "vis"}
            out.append(e)
    return out


def _show(choice):
    """A choice in words, bounded however large or deep it is, and always encodable: a lone
    surrogate (JSON may spell one, no encoding carries it) is shown as its escape."""
    if type(choice) is list and all(type(x) in (str, int) for x in choice):
        text = " ".join(str(x) for x in choice) or "(empty)"
        text = text if len(text) <= 80 else text[:77] + "..."
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return reprlib.repr(choice)
