"""Card abilities: what a card may do, when, at what cost, to what.

A card's abilities are `Ability` records in `ABILITIES[code]`, beside our own paraphrase of the
card. This module answers the framework's questions: which abilities a seat may use now, their
legal targets (never a card immune to them), whether their costs can be paid; the framework
(timing.py) offers them in the right windows, takes their costs before the cancel window (so a
cancelled ability stays paid) and runs their effect. Constant abilities ("while X", STR per gold,
income) are functions in `model.CONSTANT[code]`, registered here with `constant_for` and summed from
scratch whenever a value is asked (model.strength and friends).

This is the floor under the rules' flow: it reads the table (model.py) and pushes steps by name,
and imports nothing above it, so timing, flow, the challenge and the cards may all import it.

Kinds:
- ``action``: offered in action windows of the phases listed (``any`` for "Any Phase:").
- ``response``: offered after a trigger event `ev` for which `when(state, src, seat, ev)` holds.
- ``forced``: resolved by itself after a trigger, before responses.
- ``save``: offered in the save window of a kill or discard from play; `when(state, src, seat,
  ev)` with ev ``{"e": "would_kill"|"would_discard", "card": target}``.
- ``cancel``: offered in the cancel window of another ability; its effect cancels it.
- ``revealed``: a plot's "when revealed" effect.

Costs are tuples: ("gold", n), ("kneel_self",), ("discard_self",), ("influence", n),
("kneel_host",) (the card an attachment is on). An event's source is the card in hand.

Issue 13 fills this table for all 208 Core cards; the cards here are the ones the rulebook's own
examples use, so the framework is proven on real cards. `CARD_ABILITIES` (the codes implemented
here) is what `maester cards check lcg` reports; any other card plays with its printed stats and
keywords only.
"""

from . import model as M

class _AbilityTable(dict):
    """ABILITIES: a dict that drops what was worked out from it (BY_INSTANCE) whenever it changes,
    so a test's own card (monkeypatch.setitem) is seen at once."""

    def __setitem__(self, code, abilities):
        super().__setitem__(code, abilities)
        self._changed()

    def __delitem__(self, code):
        super().__delitem__(code)
        self._changed()

    def _changed(self):
        BY_INSTANCE.clear()
        BY_KIND.clear()
        BY_TRIGGER.clear()
        PILES.clear()
        HAND_KINDS.clear()
        _IN_GAME.forget()
        _SHARED.clear()
        _WINDOWS[0] = (None, None, None)


class _ByInstance(dict):
    """A card instance's abilities, from its code, looked up once: every window scans each seat's
    cards in play, hand and piles for them."""

    def __missing__(self, inst):
        found = self[inst] = ABILITIES.get(M.code(inst), ())
        return found


class _Piles(dict):
    """(from hand, from discard, from dead): whether any of an instance's abilities is used from that
    pile, looked up once."""

    def __missing__(self, inst):
        abs_ = BY_INSTANCE[inst]
        found = self[inst] = (any(ab.from_hand for ab in abs_), any(ab.from_discard for ab in abs_),
                              any(ab.from_dead for ab in abs_))
        return found


class _ByKind(dict):
    """(card instance, kind) -> its abilities of that kind as (index, ability), in index order: a
    window asks every card a seat may use for one kind (action, response...), and most cards have
    none of it, so they are passed over with one look-up instead of a loop over all their abilities."""

    def __missing__(self, key):
        inst, kind = key
        found = self[key] = tuple((i, ab) for i, ab in enumerate(BY_INSTANCE[inst]) if ab.kind == kind)
        return found


class _ByTrigger(dict):
    """(card instance, kind, moment) -> its abilities of that kind that answer that moment, as (index,
    ability) in index order: for "action" the moment is a phase (an "any" phase ability answers every
    one), for response, forced and save the trigger event. A window asks each card it may use for
    the one moment it is open for, and passes over a card with none in one look-up: a hand's cards
    before their restrictions are read."""

    def __missing__(self, key):
        inst, kind, at = key
        if kind == "action":
            found = tuple((i, ab) for i, ab in BY_KIND[inst, kind] if "any" in ab.phases or at in ab.phases)
        else:
            found = tuple((i, ab) for i, ab in BY_KIND[inst, kind] if at in ab.trigger)
        self[key] = found
        return found


ABILITIES = _AbilityTable()
BY_INSTANCE = _ByInstance()
BY_KIND = _ByKind()
BY_TRIGGER = _ByTrigger()
PILES = _Piles()
# {card code: fn(ctx)}: card rules that watch the table, run after every ability's effect in a game
# that has that card (state_check): in any other game nothing they watch can come into play
STATE_CHECKS = {}


class Ability:
    __slots__ = ("kind", "phases", "trigger", "when", "cost", "target", "effect", "limit", "text",
                 "limited", "from_hand", "from_dead", "from_discard", "challenge")

    def __init__(self, kind, effect, phases=("any",), trigger=(), when=None, cost=(), target=None,
                 limit=None, text="", limited=False, from_hand=False, from_dead=False,
                 from_discard=False, challenge=False):
        self.kind = kind
        self.effect = effect
        self.phases = phases
        self.trigger = trigger
        self.when = when
        self.cost = cost
        # target(state, src, seat, ev): the candidates its rule allows, any iterable read once (legal_targets,
        # has_legal_target): a generator expression lets a window that only asks whether there is one
        # stop at the first, instead of judging every card (a filter that reads STR or keywords). A rule
        # that picks characters by common facts is a CharacterTargets (data, judged in compiled code).
        self.target = target
        self.limit = limit  # ("round"|"phase"|"challenge", times)
        self.text = text
        self.limited = limited  # a "Limited Response:" (one per player per round)
        self.from_hand = from_hand  # a non-event card's ability used from its owner's hand (Honor Guard)
        self.from_discard = from_discard  # used from its owner's discard pile (Pentoshi Guildmaster)
        self.from_dead = from_dead  # a card's ability used from its owner's dead pile (Trident Reinforcements)
        # used only while a challenge is under way (g["challenge"] set): its condition or target rule
        # reads the challenge, and _usable says no without calling them between challenges
        self.challenge = challenge


CARD_ABILITIES = set()  # every code whose ability is in the engine (maester cards check lcg)


def state_check(code, fn):
    """Register `fn(ctx)`, a rule of card `code` that watches the table, to run after every ability's
    effect in the games that have that card (STATE_CHECKS)."""
    STATE_CHECKS[code] = fn


# The codes of the cards whose abilities can blank a card's text box (a "blank" lasting effect, which
# effects.lasting makes only for them): a game with none of them never has one, and its windows read
# no lasting effect for it (_blanks).
BLANKING = set()


def blanking(*codes):
    """Register these cards as able to blank a text box (BLANKING)."""
    BLANKING.update(codes)


def _blanks(state):
    """Whether a card of this game can blank a text box (BLANKING), from its instances' codes: the
    same all game long (every instance is in g["cards"] from setup on), so worked out with a window's
    answers, once a game and phase (_action_window)."""
    code_of = M.code
    for inst in state["g"]["cards"]:
        if code_of(inst) in BLANKING:
            return True
    return False


def card(codes, *abilities):
    """Register the abilities of a card under its code, or the codes of all its copies."""
    for code in (codes,) if isinstance(codes, str) else codes:
        ABILITIES[code] = list(abilities)
        CARD_ABILITIES.add(code)


def constant_for(*codes, answers=None, to=None, gives=None):
    """Decorator: `fn(state, src, inst, what)` is the constant ability of these cards. `answers`: the
    `what`s it can ever give anything for (it returns 0 for every other), so that a read of another
    value does not call it (model.constant); None: any. `to`: the cards it can ever give anything
    to, "self" (inst is src), "host" (the card src is attached to) or ("named", name) (cards of that
    printed name), so that a read of any other card does not call it (model.SCOPES); None: any card.
    `gives`: for an ability that answers "keywords", every keyword its answer can ever name (gained
    or lost), so that a read of one other keyword (model.has_kw) does not call it; None: any."""
    def register(fn):
        for code in codes:
            M.register_constant(code, fn, answers, to, gives)
            CARD_ABILITIES.add(code)
        return fn
    return register


def reducer_for(*codes, self_only=False):
    """Decorator: `fn(state, src, seat, inst)` is how much less `inst` costs `seat` (a card in play).
    `self_only`: `fn` gives 0 whenever `inst` is not `src` (a card that costs less to play itself), so
    pricing a card never asks it of the other cards in play (model.reducers_in_play)."""
    def register(fn):
        for code in codes:
            M.REDUCERS[code] = fn
            if self_only:
                M.REDUCES_OTHERS.discard(code)
            else:
                M.REDUCES_OTHERS.add(code)
            CARD_ABILITIES.add(code)
        return fn
    return register


# --- named card predicates ---------------------------------------------------------------------

PREDICATES = {}  # name -> fn(state, inst, seat): the card predicates that costs and searches name


def predicate(name):
    """Decorator: register `fn(state, inst, seat)` as the card predicate `name`."""
    def register(fn):
        PREDICATES[name] = fn
        return fn
    return register


# --- what may be used now ---------------------------------------------------------------------------

# The tables above, read through their bound __getitem__ where a window reads them: indexing a dict
# SUBCLASS (table[key]) is a Python-level call of its __getitem__ (dict's own is a method the subclass's
# slot cannot take), the bound method one C call that still runs __missing__. The tables are emptied,
# never replaced (_AbilityTable), so these stay theirs.
_abilities = BY_INSTANCE.__getitem__
_piles_of = PILES.__getitem__
_by_trigger = BY_TRIGGER.__getitem__
_by_kind = BY_KIND.__getitem__


def ability_of(src, idx):
    """Ability `idx` of card instance `src` (its code's list in ABILITIES): what an ability step resolves."""
    return _abilities(src)[idx]


def limit_key(src, idx):
    """The key of ability `idx` of `src` in g["limits"] ("<instance>/<index>"), made once an ability
    (_LIMIT_KEYS): every ability used counts its uses under it, and formatting it cost more than two
    look-ups."""
    try:  # subscripts, not get(): compiled, a dict's get() is a method call
        return _LIMIT_KEYS[src][idx]
    except KeyError:
        if len(_LIMIT_KEYS) >= 4096:
            _LIMIT_KEYS.clear()  # a bound on memory: made again when asked
        key = "%s/%d" % (src, idx)
        try:
            _LIMIT_KEYS[src][idx] = key
        except KeyError:
            _LIMIT_KEYS[src] = {idx: key}
        return key


_LIMIT_KEYS = {}  # instance -> {ability index: limit_key's answer}


def _within_limit(g, src, idx, ab):
    if ab.limit is None:
        return True
    return g["limits"].get(limit_key(src, idx), 0) < ab.limit[1]


def payable(state, seat, src, ab):
    g = state["g"]
    c_src = g["cards"][src]
    gold = 0  # the ability's gold costs, summed in the same pass that tests each cost
    for c in ab.cost:
        kind = c[0]
        if kind == "gold":
            gold += c[1]
            # The pool is part of the spendable gold: only a cost it cannot cover alone needs the
            # gold set on cards counted (a sum over the seat's cards in play).
            if g["players"][seat]["gold"] < c[1] and M.spendable_gold(state, seat) < c[1]:
                return False
        elif kind == "kneel_self":
            if c_src["kneel"]:
                return False
        elif kind == "kneel_host":
            host = c_src["on"]
            if host is None or g["cards"][host]["kneel"]:
                return False
        elif kind == "influence":
            if available_influence(state, seat, c[1]) < c[1]:
                return False
        elif kind == "kneel":
            if len(kneelable(state, seat, c[2])) < c[1]:
                return False
    # What is left needs the pool only for gold: the gold costs, a toll (due only for a card with
    # attachments: tolls) or the tax on an event played from hand. Most abilities have none of these,
    # and a pool (never below 0) covers a cost of no gold: the pool is not read then.
    att = c_src["att"]
    in_hand = c_src["zone"] == "hand"
    if not (gold or att or in_hand):
        return True
    pool = g["players"][seat]["gold"]  # read once: nothing here changes it
    if TOLLS and (toll_due(state, src) if att else 0) + gold > pool:
        return False
    if in_hand and M.info(state, src)["type"] == "event" and pool < gold + event_tax(state, src):
        return False
    return True


def event_tax(state, src):
    """Gold a player pays an opponent to play event `src` (a constant "event_tax": Calm Over Westeros)."""
    return M.constant(state, src, "event_tax")


def kneelable(state, seat, pred):
    """`seat`'s standing cards in play that a ("kneel", n, pred) cost may kneel: `pred` names a
    predicate of PREDICATES."""
    g = state["g"]
    return [i for i in g["players"][seat]["play"] if not g["cards"][i]["kneel"] and PREDICATES[pred](state, i, seat)]


TOLLS = {}  # attachment code -> gold its host's controller hands the attachment's controller first (Motley)


def tolls(state, inst):
    """[(payee, gold)] that `inst`'s controller must hand over before declaring it as an attacker or
    defender or using its ability (TOLLS: attachments on it)."""
    g = state["g"]
    c = g["cards"].get(inst)
    if not TOLLS or c is None or c["zone"] != "play" or not c["att"]:
        return []
    return [(g["cards"][a]["ctrl"], TOLLS[M.code(a)]) for a in c["att"] if M.code(a) in TOLLS
            and g["cards"][a]["ctrl"] != c["ctrl"] and not M.blank(state, a)]


def toll_due(state, inst):
    return sum([n for _, n in tolls(state, inst)])  # a list: no closure in a cpdef


def pay_tolls(ctx, inst):
    g = ctx.g
    seat = g["cards"][inst]["ctrl"]
    for payee, n in tolls(ctx.state, inst):
        n = min(n, g["players"][seat]["gold"])
        g["players"][seat]["gold"] -= n
        g["players"][payee]["gold"] += n
        ctx.emit("gold_given", seat=seat, to=payee, amount=n, card=inst)


def available_influence(state, seat, need=None):
    """The influence `seat` may kneel now: its standing cards' and the Hand of the King's. With `need`,
    a caller that only asks whether it reaches `need` (a cost) may be answered as soon as it does: printed
    influence only adds, so the cards after it are not read (most influence costs are of 1)."""
    g = state["g"]
    cards = g["cards"]
    p = g["players"][seat]
    total = 2 if p["title"] == "hand_of_the_king" and not g["title_used"].get("hand_of_the_king") else 0
    # Lists summed, not generator expressions: a cpdef function (abilities.pxd) may hold no closure.
    # The sources in play are looked for only in a game with a card that can answer influence
    # (constant_answers, once a game): in most, none can.
    if M.constant_answers(state, "influence") and M.constant_sources(g, "influence"):
        return total + sum([M.influence_of(state, i) for i in p["play"] if not cards[i]["kneel"]])
    recs = M.records(state)  # no constant ability in play answers influence: each card's is printed
    for i in p["play"]:
        if need is not None and total >= need:
            break
        influence = recs[i]["influence"]  # first: most cards have none, and then whether it kneels is not read
        if influence and not cards[i]["kneel"]:
            total += influence
    return total


def _usable(state, seat, src, idx, ab, ev=None, blanks=True):
    """Whether `seat` may use ability `ab` (index `idx`) of `src` now. `blanks`: whether a card of the
    game can blank a text box (_blanks); without one no lasting effect is read for it."""
    g = state["g"]
    if ab.challenge and not g["challenge"]:
        return False
    if blanks and g["effects"] and M.blank(state, src):
        return False
    if not _within_limit(g, src, idx, ab):
        return False
    if ab.limited and g["players"][seat]["limited_response"]:
        return False
    if ab.when is not None and not ab.when(state, src, seat, ev):
        return False
    if not payable(state, seat, src, ab):
        return False
    if ab.target is not None and not has_legal_target(state, seat, src, ab, ev):
        return False
    return True


def hand_may(state, seat, kind, at=None):
    """Whether `seat` might hold a card usable for `kind` at moment `at` (its hand_kinds key:
    "action:<phase>", "response:<trigger>", "save:<trigger>", "cancel"), judged from public facts
    only: its hand is not empty and its deck list (public) has such a card. A window asks a seat that
    may act from its hand even when it cannot, so that being asked never tells the table what the
    hand holds."""
    p = state["g"]["players"][seat]
    if not p["hand"]:
        return False
    return _kinds_may(p["hand_kinds"], kind, at)


def _kinds_may(kinds, kind, at):
    """hand_may's answer for a hand that is not empty, from its seat's hand_kinds (`kinds`)."""
    if kind == "action":  # an "any" phase action or an Ambush card may be played in every window
        # the "any" phase first: most deck lists have one, and then no key is looked up for the phase
        return "action:any" in kinds or _hand_key(kind, at) in kinds or "ambush" in kinds
    return _hand_key(kind, at) in kinds


# kind -> {moment: hand_may's key}: a window asks hand_may at nearly every decision, and its key is
# made once a kind and moment instead of at each (a string built, then told apart by its prefix)
_HAND_KEYS = {}


def _hand_key(kind, at):
    # Subscripts, not get(): compiled, a dict's get() is a method call that cost more than the key.
    try:
        return _HAND_KEYS[kind][at]
    except KeyError:
        key = kind if at is None else "%s:%s" % (kind, at)
        _HAND_KEYS.setdefault(kind, {})[at] = key
        return key


def hand_kinds(state, seat, codes):
    """What the event and Ambush cards of `seat`'s deck list (`codes`: the codes of all its cards, a
    tuple) could do from hand (public facts): the same for every game with that deck list and card
    table, so worked out once (HAND_KINDS), not at each game's setup."""
    key = (state["config"]["cards"], codes)
    found = HAND_KINDS.get(key)
    if found is None:
        if len(HAND_KINDS) >= 256:
            HAND_KINDS.clear()  # a bound on memory: worked out again when asked
        found = HAND_KINDS[key] = _hand_kinds(state, seat)
    return list(found)


# (card table key, a deck list's codes) -> hand_kinds' answer (ABILITIES drops them when it changes)
HAND_KINDS = {}


def _hand_kinds(state, seat):
    out = set()
    for inst, c in state["g"]["cards"].items():
        if c["owner"] != seat:
            continue
        rec = M.info(state, inst)
        if "ambush" in (rec["keywords"] or ()):
            out.add("ambush")
        if rec["type"] != "event" and not any(ab.from_hand for ab in _abilities(inst)):
            continue
        for ab in _abilities(inst):
            if ab.kind == "action":
                out.update("action:%s" % ph for ph in ab.phases)
            elif ab.kind in ("response", "save"):
                out.update("%s:%s" % (ab.kind, t) for t in ab.trigger)
            elif ab.kind == "cancel":
                out.add("cancel")
    return tuple(sorted(out))


def _events_in_hand(state, seat, hand, in_hand):
    """The cards of `hand` among `in_hand` (holders: those with an ability for the window's moment
    that is used from a hand, events and abilities marked from_hand), within their restrictions."""
    # One pass over the hand, not an isdisjoint() first: a method call cost a window more than the
    # look-ups it saved, and most hands hold none of the window's cards (no records read then).
    held = [h for h in hand if h in in_hand]
    if not held:
        return held
    recs = M.records(state)
    return [h for h in held if not recs[h]["restrictions"] or _event_allowed(state, seat, h)]


# What a game's windows read of its instances, worked out once for the games with the same instances
# (model.PerGame, _SHARED): {kind:
# {moment: holders}, "moments": _moments (what holders' sets are made from), ("ambush", card table):
# ambushers, "waits": {trigger: waits_for}, "hands respond": {trigger: hands_may_respond},
# "action windows": {phase: _action_window},
# ("offered", kind, moment): _offered's answers for that moment ({instance: {zone: abilities}})}. The
# answers asked at every step are in dicts by string within it (_entries), not under tuple keys: a
# tuple built and hashed at every ask cost more than a second look-up by a string. It depends on nothing but the game's instances and the table of abilities
# (BY_TRIGGER, BY_KIND, PILES) or the game's card table (whose key is in the ambush entry's; a card's
# type, which _offered reads, is in it too): a game's instances are all in g["cards"] from setup on
# (model.py), and the answers are worked out again when the count of instances changes (the stamp) or
# ABILITIES does (forget).
_IN_GAME = M.PerGame()


def _in_game(state):
    """_IN_GAME's answers for this game (stamped with its count of instances), begun with those of
    the games before it that had the same instances and card table (_shared_answers)."""
    g = state["g"]
    found = M.per_game_answers(_IN_GAME, state, len(g["cards"]))
    if not found:
        _shared_answers(state, found)
    return found


# (card table key, a game's instances in g["cards"] order) -> the answers of the first game that had
# them (_IN_GAME's dict of that game): they depend on nothing else (above), and a game's instances
# are named from its deck lists (flow._instances), so every game with the same deck lists at the same
# seats asks the same of them. A new game starts with a copy of that dict: its entries (the dicts
# by moment, by phase, the offers) are shared, so what one game works out the next finds made, and
# the holders, moments and windows are worked out once a pair of deck lists instead of once a game
# (what a window keeps of a seat's cards in play, _actions_in_play, is checked against a copy of
# them, so another game's stands only for the same cards). Emptied when ABILITIES changes; a bounded
# number kept.
_SHARED = {}


def _shared_answers(state, found):
    """Fill `found`, a game's empty _IN_GAME answers, from _SHARED (or make it the one shared)."""
    key = (state["config"]["cards"], tuple(state["g"]["cards"]))
    shared = _SHARED.get(key)
    if shared is None:
        if len(_SHARED) >= 64:
            _SHARED.clear()  # a bound on memory: worked out again when asked
        _SHARED[key] = found
    elif shared is not found:
        found.update(shared)


def _entries(found, name):
    """found[name]: a dict of the game's answers of one sort (_IN_GAME), made empty on the first ask."""
    try:  # a subscript, not setdefault(): no method call, and no dict made at every ask
        return found[name]
    except KeyError:
        entries = found[name] = {}
        return entries


def holders(state, kind, at=None, found=None):
    """(held, piled, in_hand): the instances of this game that have an ability of `kind` for moment
    `at` (BY_TRIGGER; any of that kind without `at`), those of them used from a discard or dead pile,
    and those used from a hand (events, and cards with a from_hand ability), as frozensets worked out
    once a game (_IN_GAME). A window reads only its cards that are held instead of looking every card
    of every zone up, passes a moment no card of the game answers with one look-up, and the piles
    over in most games (T124, and S22, L47, L50, T174, in the Core, are used from there). A caller
    that reads the game's answers itself passes them (`found`: _in_game) rather than have them
    looked up twice."""
    if found is None:
        found = _in_game(state)
    by_moment = _entries(found, kind)
    trio = by_moment.get(at)
    if trio is None:
        trio = by_moment[at] = _work_out_holders(state, found, kind, at)
    return trio


def _work_out_holders(state, found, kind, at):
    """holders' answer for (kind, at), from the game's moments (_moments, one pass over its cards for
    every kind and moment, instead of one for each)."""
    moments = found.get("moments")
    if moments is None:
        moments = found["moments"] = _moments(state)
    held = moments.get((kind, at), frozenset())
    if kind == "action" and at is not None:  # an "any" phase action answers every phase's window
        held = held | moments.get((kind, "any"), frozenset())
    piles, recs = _piles_of, M.records(state)
    # Lists, not generator expressions: abilities.pxd may make a helper cpdef, which holds no closure.
    return (frozenset(held), frozenset([i for i in held if piles(i)[1] or piles(i)[2]]),
            frozenset([i for i in held if recs[i]["type"] == "event" or piles(i)[0]]))


def _moments(state):
    """{(kind, None): the game's instances with an ability of that kind, (kind, moment): those with
    one for that moment (an action's phases, "any" among them; any other kind's triggers)}."""
    out = {}
    for inst in state["g"]["cards"]:
        for ab in _abilities(inst):
            kind = ab.kind
            out.setdefault((kind, None), set()).add(inst)
            for at in (ab.phases if kind == "action" else ab.trigger):
                out.setdefault((kind, at), set()).add(inst)
    return out


def _offers(found, kind, at):
    """The game's answers of _offered for moment (kind, at), kept in its _IN_GAME answers (`found`):
    a window looks them up once, and each of its cards by its instance and zone in them (two look-ups
    by a string, where a key of four made a tuple to build and hash for every card)."""
    key = ("offered", kind, at)
    offers = found.get(key)
    if offers is None:
        offers = found[key] = {}
    return offers


def _offered(state, offers, src, kind, at):
    """BY_TRIGGER[src, kind, at] less the abilities not used from the zone `src` is in now
    (_from_right_zone), worked out once a game for each zone a card is found in (`offers`: _offers'
    dict for the moment): a window's every card would otherwise judge each of its abilities' zones."""
    zone = state["g"]["cards"][src]["zone"]
    by_zone = offers.get(src)
    if by_zone is None:
        by_zone = offers[src] = {}
    try:  # a subscript, not get(): compiled, `by_zone` is untyped, and its get() a method call
        return by_zone[zone]
    except KeyError:
        offered = by_zone[zone] = tuple([(idx, ab) for idx, ab in _by_trigger((src, kind, at))
                                         if _from_right_zone(state, src, ab, zone)])  # a list: no closure in a cpdef
        return offered


def waits_for(state, e):
    """(forced, responses): the cards of this game with a forced ability for trigger `e` (holders: a
    frozenset, empty when none, which trigger hands to _may_force without looking them up again), and
    whether one has a response, worked out once a game beside them. A trigger that no card of the
    game waits for opens no window: each seat would be passed for without a question (a hand's events
    and cards are among the holders, and so is every card hand_may could name)."""
    found = _in_game(state)
    by_trigger = _entries(found, "waits")
    pair = by_trigger.get(e)
    if pair is None:
        pair = by_trigger[e] = (holders(state, "forced", e, found)[0],
                                bool(holders(state, "response", e, found)[0]))
    return pair


def _pile_sources(state, seat, piled):
    """The cards of `piled` (holders) in `seat`'s dead pile, then its discard pile, that have an
    ability used from there."""
    if not piled:
        return []
    p = state["g"]["players"][seat]
    piles = _piles_of
    return [i for i in p["dead"] if i in piled and piles(i)[2]] + [i for i in p["discard"] if i in piled and piles(i)[1]]


def _discard_sources(state, seat, piled):
    """The cards of `piled` (holders) in `seat`'s discard pile that have an ability used from there."""
    if not piled:
        return []
    piles = _piles_of
    return [i for i in state["g"]["players"][seat]["discard"] if i in piled and piles(i)[1]]


def _from_right_zone(state, src, ab, zone):
    """Whether `ab`, an ability of `src`, is used from `zone`: a non-event card's ability marked
    from_hand is used from hand only, its others never there."""
    if ab.from_discard or (zone == "discard" and _piles_of(src)[1]):
        return ab.from_discard and zone == "discard"
    if M.info(state, src)["type"] == "event":
        return ab.from_dead == (zone == "dead")  # an event's pile ability (Forever Burning) from its pile only
    if ab.from_dead != (zone == "dead"):
        return False
    return ab.from_hand == (zone == "hand")


def _in_play_among(p, held):
    """The cards player `p` controls in play that are among `held` (holders), then its revealed plot
    if it is: the cards whose abilities it may use from play."""
    play = p["play"]  # a local typed list (abilities.pxd): read by index in C, no iterator
    out = [i for i in play if i in held]
    if p["revealed"] in held:  # None, with no plot revealed, is in no set of instances
        out.append(p["revealed"])
    return out


def action_choices(state, seat, phase, asked=False):
    """The actions `seat` may take in `phase`'s action window (none when the game is in another
    phase). `asked` (the window's own turn, timing.window): "pass" ends the list when the seat is to
    be asked, that is when it has a choice or may hold a card for the window in its hand (hand_may,
    from the window's answer for its deck list), and the list is empty when the seat is passed for."""
    g = state["g"]
    out = []
    if g["phase"] != phase:
        if asked and hand_may(state, seat, "action", phase):
            out.append(["pass"])
        return out
    p = g["players"][seat]
    hand = p["hand"]
    window = _window_of(state, phase)
    held, piled, in_hand, ambushers, offers, _, _, blanks, hands_may = window
    if held:
        cards = g["cards"]
        # A knelt card cannot pay ("kneel_self",): payable would say so after every test before it in
        # _usable, all of them without effect, so skipping it is the same answer sooner.
        for src, idx, ab, kneels in _actions_in_play(state, p, seat, window, phase):
            if kneels and cards[src]["kneel"]:
                continue
            if _usable(state, seat, src, idx, ab, None, blanks):
                out.append(["action", src, idx])
        sources = _events_in_hand(state, seat, hand, in_hand)
        if piled:
            sources += _pile_sources(state, seat, piled)
        kneel_self = ("kneel_self",)
        for src in sources:
            for idx, ab in _offered(state, offers, src, "action", phase):
                if cards[src]["kneel"] and kneel_self in ab.cost:
                    continue
                if _usable(state, seat, src, idx, ab, None, blanks):
                    out.append(["action", src, idx])
    if ambushers:  # a loop over the hand, not isdisjoint(): a method call costs more than the hand's look-ups
        for src in hand:
            if src in ambushers and _ambush_ok(state, seat, src):
                out.append(["ambush", src])
    if asked and (out or (hand and hands_may[seat])):
        out.append(["pass"])
    return out


# (the config of the last game an action window was asked in, its count of instances (_in_game's
# stamp), its _action_window answers by phase): the windows of a game, nearly every ask, find their
# phase's answers with one look-up instead of the game's answers looked up first. The config is
# held, so its id is not reused while it is here; emptied when ABILITIES changes.
_WINDOWS = [(None, None, None)]


def _window_of(state, phase):
    """_action_window's answer for this game's `phase`."""
    config = state["config"]
    count = len(state["g"]["cards"])
    kept = _WINDOWS[0]
    if kept[0] is config and kept[1] == count:
        by_phase = kept[2]  # a local typed dict (abilities.pxd): its get() is then a C call
        window = by_phase.get(phase)
        if window is not None:
            return window
    found = _in_game(state)
    window = _action_window(state, found, phase)
    _WINDOWS[0] = (config, count, _entries(found, "action windows"))
    return window


def _actions_in_play(state, p, seat, window, phase):
    """(card, index, ability, whether it costs kneeling the card) of every action player `p` (seat
    `seat`) could use from play in `phase`'s window (`window`: _action_window's), in the order it
    offers them: its cards in play in play order, then its revealed plot, each card's abilities
    used from there in index order (_offers_from_play). This depends on nothing but the seat's play
    list and revealed plot (and the window's moment), so it is kept in the window for each seat with
    a copy of them, and worked out again only when they changed: a list compared with its copy
    costs less than its cards looked up, at every ask."""
    play = p["play"]
    revealed = p["revealed"]
    by_seat = window[6]
    kept = by_seat.get(seat)
    if kept is not None and kept[1] == revealed and kept[0] == play:
        return kept[2]
    found = []
    from_play = window[5]
    for src in play:
        offered = from_play.get(src)
        if offered is not None:
            found += offered
    offered = from_play.get(revealed)  # None, with no plot revealed, is no card's key
    if offered is not None:
        found += offered
    by_seat[seat] = (list(play), revealed, found)
    return found


def _offers_from_play(state, held, phase):
    """{card of `held` (holders for `phase`'s action window): (card, index, ability, whether it costs
    kneeling the card) of each of its abilities for the window used from play, or from the revealed
    plots for a plot (_from_right_zone)}, with no entry for a card with none: a card in a play list
    is always in the zone "play", a plot only ever "revealed", so this is worked out once a game and
    phase, when its window's answers are (_action_window), for every holder at once."""
    recs = M.records(state)
    kneel_self = ("kneel_self",)
    out = {}
    for src in held:
        zone = "revealed" if recs[src]["type"] == "plot" else "play"
        offered = tuple([(src, idx, ab, kneel_self in ab.cost) for idx, ab in _by_trigger((src, "action", phase))
                         if _from_right_zone(state, src, ab, zone)])  # a list: no closure in a cpdef
        if offered:
            out[src] = offered
    return out


def _action_window(state, found, phase):
    """(held, piled, in_hand, ambushers, offers, from play, in play, blanks, hands may) for `phase`'s
    action window: holders' trio, _ambushers' set, _offers' dict, _offers_from_play's, {seat: what
    _actions_in_play keeps}, _blanks' answer and hand_may's for each seat's deck list (its
    hand_kinds, set at setup, and so the same all game), kept together in the game's _IN_GAME answers (`found`) so that a window,
    asked at nearly every decision, makes one look-up of them instead of several of the game's
    answers and their entries."""
    by_phase = _entries(found, "action windows")
    window = by_phase.get(phase)
    if window is None:
        trio = holders(state, "action", phase, found)
        window = by_phase[phase] = trio + (_ambushers(state), _offers(found, "action", phase),
                                           _offers_from_play(state, trio[0], phase), {}, _blanks(state),
                                           tuple([_kinds_may(p["hand_kinds"], "action", phase)
                                                  for p in state["g"]["players"]]))
    return window


def _ambushers(state):
    """The instances of this game whose printed keywords hold Ambush, worked out once a game and card
    table (a record never changes: model.RECORDS) beside holders' sets."""
    table = state["config"]["cards"]
    found = _in_game(state)
    held = found.get(("ambush", table))
    if held is not None:
        return held
    recs = M.records(state)
    held = found["ambush", table] = frozenset([i for i in state["g"]["cards"]
                                                if "ambush" in (recs[i]["keywords"] or ())])  # no closure in a cpdef
    return held


def _event_allowed(state, seat, src):
    """An event's own limits: "House X only" and "Limit 1 per round/phase/challenge"."""
    g = state["g"]
    rec = M.info(state, src)
    for r in rec["restrictions"] or ():
        if "house_only" in r and g["players"][seat]["house"] != r["house_only"]:
            return False
        if "limit" in r and g["event_limits"].get("%s/%d" % (rec["name"], seat)) == r["limit"]:
            return False
    return True


def _ambush_ok(state, seat, src):
    return M.can_enter_play(state, seat, src) \
        and available_influence(state, seat) >= (M.info(state, src)["cost"] or 0) \
        and (M.info(state, src)["type"] != "attachment" or bool(ambush_hosts(state, seat, src)))


def ambush_hosts(state, seat, src):
    """An attachment put into play by Ambush goes on a card it may legally be attached to."""
    return [h for h in M.in_play(state["g"]) if M.attach_ok(state, seat, src, h)]


def response_choices(state, seat, ev, found=None):
    """`seat`'s usable responses to `ev`. A window that has the game's answers (_in_game) passes them
    (`found`) to this, responders and hands_may_respond, rather than have each look them up."""
    e = ev["e"]
    if found is None:
        found = _in_game(state)
    held, piled, in_hand = holders(state, "response", e, found)
    if not held:
        return []  # no card of this game has a response to this moment
    out = []
    p = state["g"]["players"][seat]
    sources = _in_play_among(p, held)
    gone = ev.get("card") if e in ("killed", "discarded") else None
    if gone in held and M.owner_of(gone) == seat and state["g"]["cards"][gone]["zone"] != "play":
        sources.append(gone)  # a card's own "when it is killed" response, from where it went
    sources += _events_in_hand(state, seat, p["hand"], in_hand)
    if piled:
        sources += _discard_sources(state, seat, piled)
    if not sources:
        return out  # most seats hold none of the moment's cards: no offers looked up
    offers = _offers(found, "response", e)
    for src in sources:
        for idx, ab in _offered(state, offers, src, "response", e):
            if _usable(state, seat, src, idx, ab, ev):
                out.append(["respond", src, idx])
    return out


def responders(state, ev, found=None):
    """The seats that may have a response to `ev` now (a seat may be named more than once), all others
    having none: the controller of each card of the game with a response to the moment (holders) that
    is in play, the owner of each in a revealed plot's slot, in a hand if it is used from there (an
    event, or a card with a from_hand ability: holders' third set) or in a discard pile if it is used
    from there (its second set, and PILES) (the zones, sides and cards response_choices reads, as put
    keeps them), and the owner of the card that left play by a kill or a discard if it has one. A
    window asks it once for all its seats, and most moments' few held cards are all in decks, or are
    characters in a hand or a discard pile, whose responses are used from play only: no seat's play
    list, hand or pile is read then."""
    e = ev["e"]
    seats = []
    held, piled, in_hand = holders(state, "response", e, found)
    if not held:
        return seats
    if e in _LEAVING_PLAY and ev["card"] in held:
        seats.append(M.owner_of(ev["card"]))
    cards = state["g"]["cards"]
    sides = _RESPONDING_SIDE
    for inst in held:
        c = cards[inst]
        zone = c["zone"]
        side = sides.get(zone)
        if side is None:
            continue
        if zone == "hand":
            if inst not in in_hand:
                continue
        elif zone == "discard":
            if inst not in piled or not _piles_of(inst)[1]:
                continue
        seats.append(c[side])
    return seats


def hands_may_respond(state, e, found=None):
    """Whether any seat's deck list has a card that could be used from a hand in response to `e`
    (hand_may's question of every seat, without the hand): the players' hand_kinds are worked out
    once, at setup, from their deck lists, so this is too, once a game beside the holders. A
    response window asks hand_may only when it is so."""
    if found is None:
        found = _in_game(state)
    by_trigger = _entries(found, "hands respond")
    may = by_trigger.get(e)
    if may is None:
        key = _hand_key("response", e)
        may = False
        for p in state["g"]["players"]:
            if key in p["hand_kinds"]:
                may = True
                break
        by_trigger[e] = may
    return may


# The zones response_choices finds sources in, each with the card's field that names the seat whose
# source it is there (its play list is its controller's, a hand, pile or plot slot its owner's):
# one look-up a card in responders, where four comparisons of its zone's name cost more.
_RESPONDING_SIDE = {"play": "ctrl", "revealed": "owner", "hand": "owner", "discard": "owner"}
_IN_PLAY_ZONES = frozenset(("play", "revealed"))  # where run_forced finds sources (_may_force)
_LEAVING_PLAY = frozenset(("killed", "discarded"))  # the triggers whose card may answer from where it went


def savers(state, at):
    """The seats that may have a save for moment `at` ("would_kill", "would_discard") now (a seat may
    be named more than once), all others having none: the controller of each card of the game with a
    save for it (holders) in play, the owner of each in a revealed plot's slot, or in a hand if it is
    used from there (the cards save_choices reads, as put keeps them). A kill's save round asks it once
    for all its seats and cards: most games' save cards are in decks, or none is."""
    seats = []
    held, _, in_hand = holders(state, "save", at)
    if not held:
        return seats
    cards = state["g"]["cards"]
    for inst in held:
        c = cards[inst]
        zone = c["zone"]
        if zone == "play":
            seats.append(c["ctrl"])
        elif zone == "revealed" or (zone == "hand" and inst in in_hand):
            seats.append(c["owner"])
    return seats


def save_choices(state, seat, target, how):
    ev = {"e": "would_" + how, "card": target}
    held, _, in_hand = holders(state, "save", ev["e"])
    if not held:
        return []
    out = []
    p = state["g"]["players"][seat]
    for src in _in_play_among(p, held) + _events_in_hand(state, seat, p["hand"], in_hand):
        for idx, ab in _by_trigger((src, "save", ev["e"])):
            if _usable(state, seat, src, idx, ab, ev) and not M.immune_to(state, target, src, seat):
                out.append(["save", src, idx])
    return out


def cancel_choices(state, seat, ev):
    held, _, in_hand = holders(state, "cancel")
    if not held:
        return []
    out = []
    p = state["g"]["players"][seat]
    for src in _in_play_among(p, held) + _events_in_hand(state, seat, p["hand"], in_hand):
        for idx, ab in _by_kind((src, "cancel")):
            if _usable(state, seat, src, idx, ab, ev):
                out.append(["cancel", src, idx])
    return out


def legal_targets(state, seat, src, ab, ev=None):
    """The targets `ab` may choose: its own rule, minus every card immune to it."""
    cards = state["g"]["cards"]
    guards = _guards(state, src)
    shields = bool(guards) and _shields(state, guards)
    return [t for t in ab.target(state, src, seat, ev)
            if not (guards and isinstance(t, str) and t in cards and _protected(state, t, src, seat, guards, shields))]


def has_legal_target(state, seat, src, ab, ev=None):
    """Whether legal_targets would give anything: a window asks it of every ability it could offer,
    and stops at the first target no protection keeps out instead of judging every candidate. A
    CharacterTargets rule is judged here card by card (its test, then protection), so that the
    window builds no list and calls no card file's Python. The first card candidate that passes the
    rule is legal outright when no protection could keep it out (_guards: a location's or an
    attachment's ability)."""
    cards = state["g"]["cards"]
    kept = []  # _unprotected's guards and shields, worked out at the first card candidate: most abilities find none
    rule = ab.target
    if isinstance(rule, SeatTargets):
        return _any_seat(state, rule, seat)
    if isinstance(rule, CharacterTargets):
        for chars in _character_groups(state, rule, seat):
            if rule.richer and not (chars and _richer(state, chars, seat)):
                continue
            for t in chars:
                if _fits(state, rule, t, src) and _unprotected(state, t, src, seat, kept):
                    return True
        return False
    for t in rule(state, src, seat, ev):
        if not (isinstance(t, str) and t in cards) or _unprotected(state, t, src, seat, kept):
            return True
    return False


def _unprotected(state, target, src, seat, kept):
    """Whether card `target` is neither immune to `src` nor shielded from it (_protected), for
    has_legal_target's candidates: `kept` is empty at the first one, then holds the guards and shields
    worked out for it (_guards, _shields), the same for every candidate of one ability."""
    if not kept:
        guards = _guards(state, src)
        kept += [guards, bool(guards) and _shields(state, guards)]
    guards = kept[0]
    return not guards or not _protected(state, target, src, seat, guards, kept[1])


class CharacterTargets:
    """A target rule that names the characters in play by facts the compiled rules read (data a card
    file gives instead of a lambda): `mine`, only the user's; `kneeling` True or False, only kneeling
    or standing ones (None: either); `other`, never the ability's own card; `keywords`, only those
    with one of these keywords (a tuple); `crested`, only those with a printed crest; `not_crest`,
    only those without this printed crest; `house`, only those of this House; `max_str`, only those
    of at most this STR; `icon`, only those with this challenge icon; `richer`, only those whose
    controller has more power (model.total_power) than the user. Called like any target rule it
    gives the list, in play order; has_legal_target judges it card by card instead and stops at the
    first legal one."""
    __slots__ = ("mine", "kneeling", "other", "keywords", "crested", "not_crest", "house", "max_str", "icon",
                 "richer", "more")

    def __init__(self, mine=False, kneeling=None, other=False, keywords=None, crested=False, not_crest=None,
                 house=None, max_str=None, icon=None, richer=False):
        self.mine = mine
        self.richer = richer
        self.kneeling = kneeling
        self.other = other
        self.keywords = keywords
        self.crested = crested
        self.not_crest = not_crest
        self.house = house
        self.max_str = max_str
        self.icon = icon
        # whether it tests more than kneeling: most rules test that alone, or nothing (the pure build
        # then reads one field a candidate instead of every one)
        self.more = bool(other or keywords is not None or crested or not_crest is not None or house is not None
                         or max_str is not None or icon is not None)

    def __call__(self, state, src, seat, ev):
        # In play order (the groups are in seat order); with `richer`, only the richer controllers' groups
        return [t for chars in _character_groups(state, self, seat)
                if not self.richer or (chars and _richer(state, chars, seat))
                for t in chars if _fits(state, self, t, src)]


def _richer(state, chars, seat):
    """Whether the controller of `chars` (one seat's characters, a non-empty group of
    _character_groups) has more power than `seat` (CharacterTargets' `richer`)."""
    g = state["g"]
    ctrl = g["cards"][chars[0]]["ctrl"]
    return ctrl != seat and M.total_power(g, ctrl) > M.total_power(g, seat)


class SeatTargets:
    """A target rule that names the user's opponents (model.opponents), data the compiled rules read
    instead of a card file's function: `with_deck`, only those whose deck is not empty. Called like
    any target rule it gives the list; has_legal_target asks only whether there is one (a seat is
    never immune)."""
    __slots__ = ("with_deck",)

    def __init__(self, with_deck=False):
        self.with_deck = with_deck

    def __call__(self, state, src, seat, ev):
        g = state["g"]
        return [o for o in M.opponents(g, seat) if not self.with_deck or g["players"][o]["deck"]]


# The target rule "an opponent": the seats opposing the ability's user.
opponent_seats = SeatTargets()


def _any_seat(state, rule, seat):
    """Whether a SeatTargets rule names any seat for `seat` (has_legal_target)."""
    g = state["g"]
    if not rule.with_deck:
        return bool(M.opponents(g, seat))
    players = g["players"]
    for o in M.opponents(g, seat):
        if players[o]["deck"]:
            return True
    return False


def _character_groups(state, rule, seat):
    """The characters a CharacterTargets rule picks among, before its test: the kept tuples of
    model._characters_by_seat themselves (the user's alone for `mine`), read in place, in play order
    seat by seat (model.characters' order), instead of a new list."""
    by_seat = M._characters_by_seat(state)
    return (by_seat[seat],) if rule.mine else by_seat


def _fits(state, rule, inst, src):
    """Whether character `inst` passes a CharacterTargets rule's test (the cheap reads first: the
    answer is the same in any order, the reads change nothing)."""
    # standing when kneeling ones are wanted, or kneeling when standing ones are
    if rule.kneeling is not None and (not state["g"]["cards"][inst]["kneel"]) == rule.kneeling:
        return False
    if not rule.more:
        return True
    if rule.other and inst == src:
        return False
    if rule.crested or rule.not_crest is not None or rule.house is not None:
        rec = M.info(state, inst)
        if rule.crested and not rec["crests"]:
            return False
        if rule.not_crest is not None and rule.not_crest in (rec["crests"] or ()):
            return False
        if rule.house is not None and rule.house not in (rec["houses"] or ()):
            return False
    if rule.icon is not None and not M.has_icon(state, inst, rule.icon):
        return False
    if rule.max_str is not None and M.strength(state, inst) > rule.max_str:
        return False
    return rule.keywords is None or bool(M.keywords_among(state, inst, rule.keywords))


# The keywords that keep a card out of an ability's targets (model.immune_to, _shielded).
PROTECTIONS = frozenset(("immune_character", "immune_opponent_character", "immune_events", "immune_plots",
                         "untargetable_by_opponents"))


# The protections of PROTECTIONS that model.immune_to and _shielded read against an ability of a card
# of each printed type: none against a location's or an attachment's (most of the abilities with a
# target that windows offer), so that their candidates' keywords are never read.
_GUARDS = {"character": frozenset(("immune_character", "immune_opponent_character", "untargetable_by_opponents")),
           "event": frozenset(("immune_events", "untargetable_by_opponents")),
           "plot": frozenset(("immune_plots",))}
_UNGUARDED = frozenset()


def _guards(state, src):
    """The protections that could keep a card out of the targets of an ability of `src` (_GUARDS)."""
    try:  # a subscript, not get(): compiled, a dict's get() is a method call
        return _GUARDS[M.info(state, src)["type"]]
    except KeyError:
        return _UNGUARDED


def _shields(state, guards):
    """Whether anything but a card's printed keywords could give it one of `guards` (_guards) now: a
    lasting effect that gives one, or a constant ability in play that can (model.nameable_in_play,
    kept with the sources in play). Worked out once for a whole list of candidate targets; without
    either, only the printed record needs reading (most windows: the keyword-giving cards in play
    give Stealth or the like, or a protection against another type of card)."""
    g = state["g"]
    for e in g["effects"]:
        if e["kind"] == "keyword" and e["value"] in guards:
            return True
    named = M.nameable_in_play(g)
    return named is None or not named.isdisjoint(guards)


def _protected(state, target, src, seat, guards, shields=True):
    """Whether `target` is immune to `src` or shielded from it: its keywords among `guards` (_guards:
    all that immune_to and _shielded read against `src`), worked out once for both. With no `shields`
    (above) a card whose printed keywords hold none of them has none."""
    if not shields:
        for kw in M.info(state, target)["keywords"] or ():  # a loop, not isdisjoint(): no method call in C
            if kw in guards:
                break
        else:
            return False
    kws = M.keywords_among(state, target, guards)
    if not kws:
        return False
    return M.immune_to(state, target, src, seat, kws) or _shielded(state, target, src, seat, kws)


def _shielded(state, target, src, seat, kws):
    """A card its opponents may not choose as the target of events or character abilities."""
    if "untargetable_by_opponents" not in kws:
        return False
    return M.info(state, src)["type"] in ("event", "character") \
        and seat in M.opponents(state["g"], state["g"]["cards"][target]["ctrl"])


# --- starting an ability (timing.py resolves it) --------------------------------------------------------

def start(ctx, seat, choice, ev=None):
    """Begin resolving the ability (or Ambush) that `choice` names."""
    if choice[0] == "ambush":
        if M.info(ctx.state, choice[1])["type"] == "attachment":
            ctx.push({"s": "ambush_host", "seat": seat, "card": choice[1]})  # its host first, then the cost
            return
        ctx.push({"s": "influence", "seat": seat, "need": M.info(ctx.state, choice[1])["cost"] or 0, "paid": 0},
                 {"s": "ambush_in", "seat": seat, "card": choice[1]})
        return
    ctx.push(ability_step(ctx.g, seat, choice[1], choice[2], ev))


def ability_step(g, seat, src, idx, ev):
    """A step resolving ability `idx` of `src` for `seat`. Its `uid` names it in g["canceled"]: the
    state stays plain JSON (no step holds a reference to another)."""
    g["uid"] = g.get("uid", 0) + 1
    return {"s": "ability", "seat": seat, "src": src, "idx": idx, "ev": ev, "stage": "target",
            "target": None, "uid": g["uid"]}


# --- shared by the card modules (cards_<house>.py) -------------------------------------------------

def attacking(state, seat, house=None):
    """`seat`'s characters attacking in the challenge under way (of `house` when given)."""
    ch = state["g"]["challenge"]
    if not ch:
        return []
    out = [i for i in ch["attackers"] if state["g"]["cards"][i]["ctrl"] == seat
           and state["g"]["cards"][i]["zone"] == "play"]
    if house:
        out = [i for i in out if house in M.info(state, i)["houses"]]
    return out


def saves_host(state, src, seat, ev):
    """A save ability's condition: the card about to go is the one this attachment is on."""
    return state["g"]["cards"][src]["on"] == ev["card"]


def saved(ctx, src, seat, target, ev):
    """A save ability's effect: the kill or discard of ev["card"] does not happen."""
    ctx.emit("saved", card=ev["card"], by=src)


# --- plots' "when revealed" and forced triggers ---------------------------------------------------

def when_revealed(state, seat):
    """The "when revealed" abilities of `seat`'s revealed plot."""
    plot = state["g"]["players"][seat]["revealed"]
    return [(plot, i) for i, ab in enumerate(_abilities(plot)) if ab.kind == "revealed"
            and (ab.when is None or ab.when(state, plot, seat, None))] if plot else []  # "with 2 or more opponents"


def run_forced(ctx, ev):
    """Forced abilities triggered by `ev`, gathered in turn order from the first player, who orders
    them when the order matters (resolve_together)."""
    state = ctx.state
    g = ctx.g
    e = ev["e"]
    queue = []
    held = holders(state, "forced", e)[0]
    # Most moments have no forced ability in the game at all, and most of the others none among the
    # cards that could use one now (_may_force)
    if held and _may_force(g, held, ev, e):
        gone = ev.get("card") if e in ("killed", "discarded") else None
        for seat in M.turn_order(g):
            in_play = _in_play_among(g["players"][seat], held)
            if gone in held and M.owner_of(gone) == seat and g["cards"][gone]["zone"] != "play":
                in_play.append(gone)  # a card's own "when it is killed" forced effect, from where it went
            for src in in_play:
                for idx, ab in _by_trigger((src, "forced", e)):
                    if ab.when is None or ab.when(state, src, seat, ev):
                        queue.append(ability_step(g, seat, src, idx, ev))
    resolve_together(ctx, queue)


def _may_force(g, held, ev, e):
    """Whether any card of `held` (the game's cards with a forced ability for `e`) is where run_forced
    looks for one: in play or a revealed plot (put keeps a card's zone so while it is in a play list
    or the revealed slot), or the card that left play by a kill or a discard. Asked of the few held
    cards before the seats' play lists are read: at most moments (a phase begins, a card enters play)
    none of them is out."""
    if e in _LEAVING_PLAY and ev["card"] in held:
        return True
    cards = g["cards"]
    for inst in held:
        if cards[inst]["zone"] in _IN_PLAY_ZONES:
            return True
    return False


def resolve_together(ctx, steps):
    """Passive abilities that start at the same time (forced triggers, the plots' "when revealed"):
    the first player chooses the order they resolve in (rulebook, "Plot Phase"), one at a time, for
    as long as the order can change the outcome (ordering.passive_order); `steps` are in turn order."""
    if len(steps) > 1:
        ctx.push({"s": "passive_order", "steps": steps})
    else:
        ctx.push(*steps)
