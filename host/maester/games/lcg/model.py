"""The LCG's table as plain data, and the questions every rule asks of it.

Every physical card in a game is an *instance* ``"<code>#<owner seat>"`` ("S5#0": seat 0's Eddard
Stark), so two players may bring the same starter deck. A deck of one's own may hold more copies of
a code than a Core box (3x Eddard Stark): the second and later copies are ``"S5#0~2"``, ``"S5#0~3"``
(instance_ids), so the code is still everything before the "#". ``g["cards"][inst]`` holds what changes
during play: zone, controller, kneeling, power, attachments and duplicates. The printed facts stay
in the game's card table, kept out of the state (``table(state)["cards"][code]``; engine/cardtables.py).

Zones are lists on the owning player (``deck`` with the top card first, ``hand``, ``discard``,
``dead``, ``plots``, ``used``), ``revealed`` (one plot) and ``play`` on the *controller* (characters,
locations and attachments, in the order they entered play). A duplicate sits in its unique card's
``dups`` with zone ``dup``.

Lasting effects (``g["effects"]``) are records with a duration; every STR, icon or keyword is
summed from scratch from the printed value, the lasting effects and the cards' constant abilities
each time it is asked (rulebook, "Lasting Effects"), and STR is floored at 0.
"""

from ...engine import cardtables

ICONS = ("military", "intrigue", "power")
PHASES = ("plot", "draw", "marshalling", "challenges", "dominance", "standing", "taxation")


class _Codes(dict):
    """Card codes by instance, each worked out once, on its first lookup."""

    def __missing__(self, inst):
        c = self[inst] = inst[:inst.index("#")]
        return c


# The card code of an instance ("S5#0" -> "S5"): the hottest call of a game, so a dict lookup
# (C speed once an instance has been seen) rather than a Python function.
code = _Codes().__getitem__


class _Owners(dict):
    """Owning seats by instance, each worked out once (as _Codes)."""

    def __missing__(self, inst):
        seat = self[inst] = int(inst.rsplit("#", 1)[1].split("~", 1)[0])
        return seat


# The seat that owns an instance ("S5#0~2" -> 0): asked for every card a uniqueness or control check reads.
owner_of = _Owners().__getitem__


def instance_ids(codes, seat):
    """The instances of a seat's cards, one per code in `codes`: a code's first copy is "S5#0",
    the next ones "S5#0~2", "S5#0~3", ..."""
    seen = {}
    out = []
    for c in codes:
        k = seen[c] = seen.get(c, 0) + 1
        out.append("%s#%d" % (c, seat) if k == 1 else "%s#%d~%d" % (c, seat, k))
    return out


def table(state):
    """The game's card table (its config holds only the table's key)."""
    return cardtables.get(state["config"]["cards"])


# {card-table key: {instance: its printed record}}, plain dicts: asked hundreds of thousands of times
# a game (every hand, window and STR reads a printed fact), and a dict SUBCLASS (a __missing__ that
# looked a record up on its first use) costs a Python-level __getitem__ call on every index, three
# times a plain dict's. So records() fills a game's whole table of instances at once (they are all in
# g["cards"] from setup on), and info() takes the slow path only for one it has not seen (_record).
# A table's key is the hash of its content (cardtables.register), so a record found once stays true.
RECORDS = {}
# The config, the count of instances and the records of the last game records() filled: most asks are
# of one game, and copy_state shares its config (model.PerGame's stamp, read with no call). Three module
# variables, not a list: the compiled build makes them C variables (model.pxd), so that info's test
# and its look-up of the instance are C reads of a typed dict.
_filled_config = None
_filled_count = 0
_filled_recs = None


def _table_records(key):
    """RECORDS' dict for card-table `key`, made empty on its first use; a key that is not one raises
    cardtables' own error."""
    try:
        recs = RECORDS.get(key)
    except TypeError:  # not a key at all: cardtables says so in its own words
        recs = None
    if recs is None:
        cardtables.get(key)
        recs = RECORDS[key] = {}
    return recs


def _record(state, inst):
    """The printed record of `inst`, looked up in its card table and kept (info's slow path)."""
    key = state["config"]["cards"]
    recs = _table_records(key)
    rec = recs.get(inst)
    if rec is None:
        rec = recs[inst] = cardtables.get(key)["cards"][code(inst)]
    return rec


def records(state):
    """{instance: its printed record} for the game's card table, a plain dict that holds every instance
    of the game (g["cards"]): fetch once, index per card."""
    global _filled_config, _filled_count, _filled_recs
    config = state["config"]
    n = len(state["g"]["cards"])
    if _filled_config is config and _filled_count == n:
        return _filled_recs
    key = config["cards"]
    recs = _table_records(key)
    cards = cardtables.get(key)["cards"]
    for inst in state["g"]["cards"]:
        if inst not in recs:
            c = code(inst)
            if c in cards:  # a code the table lacks raises KeyError when it is read, as before
                recs[inst] = cards[c]
    _filled_config, _filled_count, _filled_recs = config, n, recs
    return recs


def info(state, inst):
    """The printed record of `inst`. Most asks are of the game records() filled last (_filled_config,
    which copy_state shares, and that config's table in RECORDS, _filled_recs): one look-up of the
    instance then, not four (the config, its table's key, RECORDS, the instance); any other game's reads
    its table's key. A record not kept yet is looked up in the card table (_record)."""
    try:
        if _filled_config is state["config"]:
            return _filled_recs[inst]
        return RECORDS[state["config"]["cards"]][inst]
    except (KeyError, TypeError):
        return _record(state, inst)


class PerGame:
    """Answers worked out once a game: a dict by game, for the rules that ask the same of a game at
    every step (which card codes it has, which of its instances hold an ability for a moment). A game
    is its config (every instance is in g["cards"] from setup on, and copy_state shares the config):
    the dict is kept by the config's id, the config beside it so that the id is not reused while the
    answers stand, and with the stamp it was made under (a number the answers depend on besides: the
    count of the game's instances, say); asked with another stamp, it starts empty again. What the
    answers of every game depend on (a table of abilities) calls forget() when it changes. Its two
    attributes are slots, and in the compiled build C fields (model.pxd: a cdef class): per_game_answers
    reads them several times a step, and a Python object's attribute is a type look-up and a
    descriptor call each time."""

    __slots__ = ("by_config", "last")

    def __init__(self):
        self.by_config = {}
        self.last = (None, None, None)  # (config, stamp, answers) of the last ask: most are of one game

    def forget(self):
        self.by_config.clear()
        self.last = (None, None, None)


def per_game_answers(per_game, state, stamp=None):
    """The answers dict of `per_game` (a PerGame) for this game, made under `stamp`. A function, not a
    method of PerGame: the compiled build calls it in C (model.pxd), where a Python method call cost
    more than all the look-ups it made, and the rules ask several a step."""
    config = state["config"]
    last = per_game.last
    if last[0] is config and last[1] == stamp:
        return last[2]
    by_config = per_game.by_config
    entry = by_config.get(id(config))
    if entry is None or entry[0] is not config or entry[1] != stamp:
        if len(by_config) >= 256:
            by_config.clear()  # a bound on memory: worked out again when asked
        entry = by_config[id(config)] = (config, stamp, {})
    per_game.last = entry
    return entry[2]


_CODES = PerGame()


def game_codes(state):
    """The card codes of a game's deck lists, as a frozenset: a rule that only some card can bring
    into play (a watch after every step) asks it whether that card is in the game at all."""
    answers = per_game_answers(_CODES, state)
    codes = answers.get("codes")
    if codes is None:
        codes = answers["codes"] = frozenset(code(i) for i in state["g"]["cards"])
    return codes


# constant_answers' answers for a game, by `what`
_CONSTANT_ANSWERS = PerGame()


def may_have_kw(state, kw):
    """Whether any card of the game could have keyword `kw` now: printed on one of its cards, nameable
    by a constant ability of one of them (_nameable_keywords), or given by a lasting effect in play.
    When not, has_kw is False for every card: a rule that would read `kw` of each card of a zone
    (Vigilant after a challenge, Dragonstone Port's window each round) asks this once instead."""
    fixed = _fixed_keywords(state)
    if fixed is None or kw in fixed:
        return True
    for e in state["g"]["effects"]:
        if e["kind"] == "keyword" and e["value"] == kw:
            return True
    return False


def with_kw(state, cards, kw):
    """The cards of `cards` that have keyword `kw` now, in their order: `[i for i in cards if has_kw(state,
    i, kw)]`, asking has_kw of the cards with `kw` printed alone when nothing can give it to another (no
    constant ability of a card of the game can name it, no lasting effect in play gives it). A claim
    for a House reads Infamy of every card of its player's side (a card with it takes the power
    instead): Jaime alone has it printed, and nothing gives it."""
    printed = _printed_only(state, kw)
    if printed is not None:
        for e in state["g"]["effects"]:
            if e["kind"] == "keyword" and e["value"] == kw:
                printed = None  # a lasting effect gives it: every card is asked
                break
    out = []
    for i in cards:  # a loop, not a list comprehension (a call of its own in C)
        if (printed is None or i in printed) and has_kw(state, i, kw):
            out.append(i)
    return out


def _printed_only(state, kw):
    """The game's instances with keyword `kw` printed, a frozenset, when no constant ability of a card
    of the game can name `kw` (_nameable_keywords): then no other card has it but by a lasting effect.
    None when one can. Worked out once a game (stamped with its count of instances, all in g["cards"]
    from setup on), and again after a constant ability is registered."""
    g = state["g"]
    answers = per_game_answers(_PRINTED_ONLY, state, len(g["cards"]))
    found = answers.get(kw, _UNSPLIT)
    if found is _UNSPLIT:
        nameable = _nameable_keywords(state)
        found = None
        if nameable is not None and kw not in nameable:
            recs = records(state)
            found = frozenset([i for i in g["cards"] if kw in (recs[i]["keywords"] or ())])
        answers[kw] = found
    return found


_PRINTED_ONLY = PerGame()


def _fixed_keywords(state):
    """Every keyword printed on a card of the game or nameable by a constant ability of one (None: a
    constant ability names any), as a frozenset, worked out once a game: stamped with its count of
    instances (all in g["cards"] from setup on), and again after a constant ability is registered. It
    depends on the card table and the codes of the game's cards alone: a game takes the answer of an
    earlier one with the same (_FIXED_BY_CODES; most games repeat deck lists)."""
    g = state["g"]
    answers = per_game_answers(_FIXED_KEYWORDS, state, len(g["cards"]))
    try:
        return answers["fixed"]
    except KeyError:
        key = (state["config"]["cards"], frozenset([code(i) for i in g["cards"]]))
        by_codes = _FIXED_BY_CODES  # a local typed dict (model.pxd): its .get is a C call
        found = by_codes.get(key, _UNSPLIT)
        if found is _UNSPLIT:
            found = None
            kws = _nameable_keywords(state)
            if kws is not None:
                recs = records(state)
                for inst in g["cards"]:
                    kws.update(recs[inst]["keywords"] or ())
                found = frozenset(kws)
            if len(by_codes) >= 256:
                by_codes.clear()  # a bound on memory: worked out again when asked
            by_codes[key] = found
        answers["fixed"] = found
        return found


# {(card-table key, a game's card codes): _fixed_keywords' answer}, shared by the games with those
# codes; emptied whenever a constant ability is registered (register_constant)
_FIXED_BY_CODES = {}


def _nameable_keywords(state):
    """The keywords the constant abilities of the game's cards can name (GIVES), as a new set; None when
    one of them answers keywords without saying which (any keyword)."""
    return _named_by(game_codes(state))


def _named_by(codes):
    """The keywords the constant abilities of cards of `codes` can name (GIVES), as a new set; None when
    one of them answers keywords without saying which (any keyword)."""
    named = set()
    answers, gives = ANSWERS, GIVES  # locals typed dict (model.pxd): their .get is then a C call
    for c in codes:
        if c in CONSTANT and "keywords" in answers.get(c, ("keywords",)):
            can_name = gives.get(c)
            if can_name is None:
                return None
            named.update(can_name)
    return named


_FIXED_KEYWORDS = PerGame()


def card(g, inst):
    return g["cards"][inst]


def player(g, seat):
    return g["players"][seat]


def _rotations(n):
    """The orders of n seats, clockwise from each seat."""
    return tuple(tuple((seat + i) % n for i in range(n)) for seat in range(n))


# {n: _rotations(n)}, worked out once for a table size; a plain dict (not one with __missing__, whose
# every index is a Python-level call): order_from is asked for every seat loop of a game.
_ROTATIONS = {}


def order_from(g, seat):
    """Seats clockwise starting with `seat` (a new list: callers may change it)."""
    n = g["n"]
    try:
        orders = _ROTATIONS[n]
    except KeyError:
        orders = _ROTATIONS[n] = _rotations(n)
    return list(orders[seat % n])


def turn_order(g):
    return order_from(g, g["first"])


def left_of(g, seat):
    return order_from(g, (seat + 1) % g["n"])


# --- who is whose opponent --------------------------------------------------------------------

def partner(g, seat):
    teams = g.get("teams")
    if not teams:
        return None
    for team in teams:
        if seat in team:
            return [s for s in team if s != seat][0]
    return None


def opponents(g, seat):
    """Every other player, except a two-on-two partner."""
    mate = partner(g, seat)
    return [s for s in range(g["n"]) if s != seat and s != mate]


# --- card facts with their modifiers ------------------------------------------------------------

def in_play(g, seat=None):
    """Cards in play (controlled by `seat` when given)."""
    if seat is not None:
        return list(g["players"][seat]["play"])
    return [i for p in g["players"] for i in p["play"]]


def characters(state, seat=None):
    """The characters in play (controlled by `seat` when given), in play order: a new list."""
    by_seat = _characters_by_seat(state)
    if seat is not None:
        return list(by_seat[seat])
    return [i for chars in by_seat for i in chars]


def _characters_by_seat(state):
    """(each seat's characters in play, in play order), kept for the last game asked until a card
    enters or leaves play (_TABLE_MOVES): every challenge and most card abilities ask, many times
    between two cards moving."""
    g = state["g"]
    kept = _CHARACTERS[0]
    moves = _TABLE_MOVES[0]
    if kept[0] is g and kept[1] == moves:
        return kept[2]
    chars = _character_instances(state)
    found = tuple([tuple([i for i in p["play"] if i in chars]) for p in g["players"]])
    _CHARACTERS[0] = (g, moves, found)
    return found


def _character_instances(state):
    """The game's character instances, a frozenset worked out once a game (a printed type never
    changes; stamped with the count of instances, all in g["cards"] from setup on): a card moving in
    or out of play has _characters_by_seat read every card in play again, one set look-up each instead
    of its record and type."""
    g = state["g"]
    answers = per_game_answers(_CHARACTER_INSTANCES, state, len(g["cards"]))
    found = answers.get("characters")
    if found is None:
        recs = records(state)
        # (a code its table lacks is left out here: reading it raises KeyError elsewhere, as records says)
        found = answers["characters"] = frozenset([i for i in g["cards"]
                                                   if i in recs and recs[i]["type"] == "character"])
    return found


_CHARACTER_INSTANCES = PerGame()


# (game, _TABLE_MOVES, its characters by seat) of the last game characters() answered (the game held,
# so its id is not reused while it is here)
_CHARACTERS = [(None, None, None)]



def is_character(state, inst):
    return info(state, inst)["type"] == "character"


# --- the cards' constant abilities ---------------------------------------------------------------
#
# A constant ability ("while X", STR per gold, income) is a function `fn(state, src, inst, what)` in
# CONSTANT[code], registered by abilities.constant_for; a card that makes others cheaper is
# `fn(state, src, seat, inst)` in REDUCERS[code] (abilities.reducer_for), and its code in
# REDUCES_OTHERS unless the reducer can only make its own card cheaper (reducer_for self_only=). Both
# are summed from scratch whenever a value is asked.

CONSTANT = {}
ANSWERS = {}  # code -> the `what`s its constant ability can give anything for (constant_for); missing: any
# code -> "self" / "host" / ("named", name): the only cards its constant ability can give anything to
# (constant_for to=); missing: any card
SCOPES = {}
# code -> the keywords its constant ability's "keywords" answer can ever name (constant_for gives=);
# missing: any
GIVES = {}
REDUCERS = {}
REDUCES_OTHERS = set()  # the codes of REDUCERS whose function may make a card other than its own cheaper


def register_constant(code, fn, answers=None, to=None, gives=None):
    """Make `fn` the constant ability of cards of `code` (abilities.constant_for): the one writer of
    CONSTANT, ANSWERS, SCOPES and GIVES, so the sources kept by table (_kept_sources) are dropped here."""
    if to not in (None, "self", "host") and not (isinstance(to, tuple) and len(to) == 2 and to[0] == "named"):
        raise ValueError("constant ability of %s: to=%r (None, 'self', 'host' or ('named', name))" % (code, to))
    CONSTANT[code] = fn
    for table, value in ((ANSWERS, None if answers is None else frozenset(answers)), (SCOPES, to),
                         (GIVES, None if gives is None else frozenset(gives))):
        if value is None:
            table.pop(code, None)
        else:
            table[code] = value
    _KEPT.clear()
    _IS_SOURCE.clear()
    _ANSWERS_BY_CODES.clear()
    _FIXED_BY_CODES.clear()
    _CONSTANT_ANSWERS.forget()
    _FIXED_KEYWORDS.forget()
    _PRINTED_ONLY.forget()
    _LAST[0] = (None, None, None, None)


def constant(state, inst, what):
    """Sum what every constant ability in play gives `inst` for `what` (str, icons, keywords...)."""
    g = state["g"]
    last = _LAST[0]  # _kept_sources' answer as it keeps it, when it stands (its own first test): no call
    known = last[3] if last[0] is g and last[1] == _SOURCE_MOVES[0] else _kept_sources(g)
    # One look-up (.get with a marker: a kept split may be None), not `in` then a read: a key is hashed
    # once (a keyword reader's tuple is hashed afresh each time); a KeyError caught would cost more.
    by_key = known[2]
    split = by_key.get(what, _UNSPLIT)
    if split is _UNSPLIT:
        split = _split(known, what)
    if split is None:
        return {} if what in _SET_VALUED else 0
    return _summed(state, inst, what, split)


def constant_keywords_among(state, inst, wanted, known):
    """constant(state, inst, "keywords") for a reader of the keywords of `wanted` alone (keywords_among),
    `known` the sources in play (_kept_sources): only the sources whose ability can name one of them
    (GIVES) are asked, so its gains and losses are the same for those keywords. Random play: most
    keyword reads ask for one or two keywords that the card's own ability, or the one ability that may
    give anyone something, never names; keywords_among asks this only when one in play can (known[3]),
    before `wanted` is hashed to find its split (a reader's tuple is hashed afresh each time)."""
    by_key = known[2]
    split = by_key.get(wanted, _UNSPLIT)  # as in constant()
    if split is _UNSPLIT:
        split = _split(known, "keywords", wanted)
    if split is None:
        return {}
    return _summed(state, inst, "keywords", split)


def _summed(state, inst, what, split):
    """constant()'s sum for `inst` over the sources of `split` (_split) that can give it anything."""
    g = state["g"]
    anyone, own, hosted, named = split
    # Only the sources that can give `inst` anything are called (constant_for's answers= and to=):
    # a sum of ints or a union of sets, so the order they are asked in does not change it.
    if own or hosted or named:
        sources = [inst] if inst in own else []
        if hosted:
            cards = g["cards"]
            for s in hosted:  # a loop, not a list comprehension (a call of its own): one or two, on other cards
                if cards[s]["on"] == inst:
                    sources.append(s)
        if named and inst is not None:
            sources += named.get(info(state, inst)["name"], ())
        if anyone:
            sources += anyone
    else:
        sources = anyone
    if not sources:
        return {} if what in _SET_VALUED else 0
    effects = g["effects"]
    # The blank texts, found once (not once a source): a blank card's constant ability is off.
    blanked = [e["target"] for e in effects if e["kind"] == "blank"] if effects else None
    table, code_of = CONSTANT, code
    if what in _SET_VALUED:
        total = {}
        for src in sources:
            if blanked and src in blanked:
                continue
            got = table[code_of(src)](state, src, inst, what)
            if got:
                for k, v in got.items():
                    total.setdefault(k, set()).update(v)
        return total
    total = 0
    for src in sources:
        if blanked and src in blanked:
            continue
        got = table[code_of(src)](state, src, inst, what)
        if got:
            total += got
    return total


def rare_constant(state, inst, what):
    """constant() of a number that few cards answer (a plot's toll or claim, "uncancelable", "no_stand"):
    0 at once, without finding the table's sources, in a game none of whose cards can answer it
    (constant_answers, worked out once a game)."""
    return constant(state, inst, what) if constant_answers(state, what) else 0


# constant()'s marker for a key not split yet (a split kept may be None), _fixed_keywords' for codes
# not seen yet, _printed_only's for a keyword not asked yet
_UNSPLIT = object()
_SET_VALUED = ("icons", "keywords")  # constant() gathers {"gain"/"lose": set} for these, sums numbers for the rest


def reducers_in_play(state, seat):
    """[(card, its REDUCERS function)] for the cards `seat` controls that make others cheaper and are
    not blank, in play order: found once for a whole hand by a caller that prices every card in it.
    Only the REDUCES_OTHERS: a reducer that can only make its own card cheaper gives 0 to any other
    card, and a card in play is priced by cost_reduction itself. None loaded (every card's cost
    reduction so far is its own): no card in play is read."""
    out = []
    if not REDUCES_OTHERS:
        return out
    for src in state["g"]["players"][seat]["play"]:
        c = code(src)
        if c in REDUCES_OTHERS and not blank(state, src):  # `in` and an index, not .get(): no method call in C
            out.append((src, REDUCERS[c]))
    return out


def cost_reduction(state, seat, inst, in_play=None):
    """How much less `inst` costs `seat`; `in_play`: reducers_in_play, when the caller has it."""
    g = state["g"]
    total = 0
    for src, fn in reducers_in_play(state, seat) if in_play is None else in_play:
        total += fn(state, src, seat, inst)
    c = code(inst)
    if c in REDUCERS and (g["cards"][inst]["zone"] != "play" or _own_reducer_in_play(state, seat, inst, c)):
        total += REDUCERS[c](state, inst, seat, inst)  # a card that costs less to play itself (Grey Wind, Lady)
    return total


def _own_reducer_in_play(state, seat, inst, c):
    """Whether `inst`, a reducer in play, would be among reducers_in_play but is not only because it
    can only make itself cheaper (not in REDUCES_OTHERS): then cost_reduction adds its own reduction,
    as it would have from that list. No caller prices a card in play (gold is paid from hand or setup);
    this keeps cost_reduction's answer the same for one that did."""
    return c not in REDUCES_OTHERS and inst in state["g"]["players"][seat]["play"] and not blank(state, inst)


def _kept_sources(g):
    """[every constant source in play, {what: those that answer it}, {what, or the keywords a reader
    wants: those split by scope (_split)}, the keywords their abilities can name (_named_by, a frozenset;
    None: any)],
    kept by the sources (constant_sources, constant): the two dicts depend on them alone, so a
    table with the same sources as one seen before (most new tables: a card without a constant ability
    came or went) shares their splits. Finding the sources is one look at each card in play, no dearer
    than a key made of the table would be."""
    last = _LAST[0]  # one read: a tuple, so its parts always belong together
    moves = _SOURCE_MOVES[0]
    # Most reads follow one on the same game with no card with a constant ability moved since
    # (_SOURCE_MOVES): the same answer.
    if last[0] is g and last[1] == moves:
        return last[3]
    # Else the lists of a joust compared with the copies kept of the last one answered (what the
    # sources are found from, nothing else): the same table again (a copy of the state the ordering
    # of passive effects plays on, a card that came and went) before they are found again.
    players = g["players"]
    seen = last[2]
    if len(players) == 2:
        p0, p1 = players
        if seen is not None and p0["play"] == seen[0] and p1["play"] == seen[1] \
                and p0["revealed"] == seen[2] and p1["revealed"] == seen[3]:
            _LAST[0] = (g, moves, seen, last[3])
            return last[3]
        seen = (list(p0["play"]), list(p1["play"]), p0["revealed"], p1["revealed"])
    else:
        seen = None
    every = find_constant_sources(g)
    known = _KEPT.get(every)
    if known is None:
        if len(_KEPT) >= _KEPT_MAX:
            _KEPT.clear()  # a bound on memory; what is dropped is worked out again when asked
        named = _named_by([code(s) for s in every])
        known = _KEPT[every] = [every, {}, {}, None if named is None else frozenset(named)]
    _LAST[0] = (g, moves, seen, known)
    return known


def constant_sources(g, what=None):
    """The cards in play and revealed plots that have a constant ability, worked out from where the
    cards are (so a card put into play by any path counts at once: every path moves it with put);
    with `what`, only those whose ability can answer it (ANSWERS): in random play 98% of the calls to
    a constant ability gave nothing, most of them keyword reads of cards that only ever give STR.

    Every STR, icon or keyword read asks this, so a table read would cost the square of the cards in
    play: the answer is kept (_kept_sources) for the last table seen while no card with a constant
    ability enters or leaves play (_SOURCE_MOVES), and for a joust checked against copies of its
    lists after that, so the reads of one step, and of a state's copies, find the sources once."""
    known = _kept_sources(g)
    return known[0] if what is None else _answering(known, what)


def nameable_in_play(g):
    """The keywords the constant abilities in play can name (GIVES), as a frozenset (None: any), kept
    with the sources (_kept_sources): a reader of a few keywords that none of them can name asks
    no constant ability."""
    return _kept_sources(g)[3]


def _answering(known, what):
    """The sources of _kept_sources' `known` whose ability can answer `what` (ANSWERS), kept in it."""
    every, by_what = known[0], known[1]
    found = by_what.get(what)
    if found is None:
        answers, code_of = ANSWERS, code
        found = by_what[what] = tuple([s for s in every if what in answers.get(code_of(s), (what,))])
    return found


def _split(known, what, wanted=None):
    """The sources of _kept_sources' `known` that can answer `what`, split by whom they can give to
    (SCOPES): (the sources that may give any card something, a frozenset of those that give only to
    themselves, those that give only to the card they are attached to, {name: those that give only to
    cards of that name}), or None when no source answers, kept in it: a source's scope is its code's,
    so the split depends on nothing else. Most keyword reads then call no ability at all (random
    play: three in four calls to an ability were a card's own keyword asked of another card). With
    `wanted` (keywords), only the sources whose ability can name one of them (GIVES), kept under
    `wanted` (constant_keywords_among)."""
    anyone, own, hosted, named = [], [], [], {}
    gives, scopes = GIVES, SCOPES  # locals typed dict (model.pxd): their .get is then a C call
    for s in _answering(known, what):
        c = code(s)
        if wanted is not None:
            can_name = gives.get(c)
            if can_name is not None and can_name.isdisjoint(wanted):
                continue
        scope = scopes.get(c)
        if scope is None:
            anyone.append(s)
        elif scope == "self":
            own.append(s)
        elif scope == "host":
            hosted.append(s)
        else:
            named[scope[1]] = named.get(scope[1], ()) + (s,)
    split = (tuple(anyone), frozenset(own), tuple(hosted), named) if anyone or own or hosted or named else None
    known[2][what if wanted is None else wanted] = split
    return split


def find_constant_sources(g):
    """constant_sources worked out afresh: whether a card in play has a constant ability is one look-up
    of the instance (_IS_SOURCE), not its code and then CONSTANT."""
    is_source = _IS_SOURCE  # a local typed dict (model.pxd): its .get is a C call
    out = []
    for p in g["players"]:
        for i in p["play"]:
            found = is_source.get(i)
            if found is None:
                found = is_source[i] = code(i) in CONSTANT
            if found:
                out.append(i)
        if p["revealed"] and code(p["revealed"]) in CONSTANT:
            out.append(p["revealed"])
    return tuple(out)


# {instance: whether its code has a constant ability (CONSTANT)}: an instance's code never changes, so
# each is worked out once; emptied whenever a constant ability is registered (register_constant)
_IS_SOURCE = {}


# {constant sources in play: _kept_sources' answer}; emptied whenever a constant ability is registered
# (register_constant; a test's own card), so nothing kept from before counts
_KEPT = {}
_KEPT_MAX = 4096
# [the last table _kept_sources answered: (its game (held, so its id is not reused while it is here),
# _SOURCE_MOVES then, in a joust (seat 0's play, seat 1's play (copies), their revealed plots), its
# answer)]; emptied with _KEPT
_LAST = [(None, None, None, None)]


def strength(state, inst):
    """Printed STR plus every lasting effect and constant ability, floored at 0."""
    g = state["g"]
    base = info(state, inst)["str"] or 0
    total = base
    for e in g["effects"]:
        if e["kind"] == "str" and e["target"] == inst:
            total += e["value"]
    total += constant(state, inst, "str")
    return max(0, total)


def _with_changes(effects, inst, printed, gain_kind, lose_kind, extra):
    """A printed set of icons or keywords with what lasting effects add (`gain_kind`) and take away
    (`lose_kind`) and what constant abilities give (`extra`: constant's {"gain"/"lose": set}): the
    printed and gained ones less the lost ones, a set built only for the answer (lasting effects are
    in play for nine reads in ten, few of them on this card)."""
    out = set(printed) if printed else set()
    lost = ()
    for e in effects:
        if e["target"] == inst:
            kind = e["kind"]
            if kind == gain_kind:
                out.add(e["value"])
            elif kind == lose_kind:
                lost += (e["value"],)
    if extra:
        out.update(extra.get("gain", ()))
        lost += tuple(extra.get("lose", ()))
    if lost:
        out.difference_update(lost)
    return out


def icons(state, inst):
    """The challenge icons a character has now."""
    extra = constant(state, inst, "icons") if constant_answers(state, "icons") else None
    return _with_changes(state["g"]["effects"], inst, info(state, inst)["icons"], "icon", "lose_icon", extra)


def keywords(state, inst):
    effects = state["g"]["effects"]
    printed = info(state, inst)["keywords"]
    if printed and effects and blank(state, inst):
        printed = ()  # a blank text box has no keywords either
    return _with_changes(effects, inst, printed, "keyword", "lose_keyword", constant(state, inst, "keywords"))


def has_kw(state, inst, kw):
    """Whether `inst` has keyword `kw` now: `kw in keywords(state, inst)`, read for the one keyword
    without building the sets (most reads: a lasting effect is almost always in play)."""
    return bool(keywords_among(state, inst, (kw,)))


def keywords_among(state, inst, wanted):
    """The keywords of `wanted` (a tuple or frozenset) that `inst` has now, as a list: `keywords(state,
    inst) & wanted`, in one pass over the lasting effects and without building the card's whole
    keyword set (a rule that tests a few keywords of a card: protections, Stalwart and Deathbound)."""
    gained = lost = ()
    blanked = False
    g = state["g"]
    effects = g["effects"]  # typed list, its records typed dicts (model.pxd): read in C
    for e in effects:
        if e["target"] == inst:
            kind = e["kind"]
            if kind == "blank":
                blanked = True
            elif kind == "keyword":
                gained += (e["value"],)
            elif kind == "lose_keyword":
                lost += (e["value"],)
    # Only the constant abilities in play that can name one of them are asked (most reads: none). The
    # sources are read here, not in constant_keywords_among: most reads stop at the test, one call.
    last = _LAST[0]  # _kept_sources' answer as it keeps it, when it stands (the same test)
    known = last[3] if last[0] is g and last[1] == _SOURCE_MOVES[0] else _kept_sources(g)
    named = known[3]  # the keywords they can name (None: any)
    extra = None
    if named is None:
        extra = constant_keywords_among(state, inst, wanted, known)
    else:
        for kw in wanted:  # a loop, not isdisjoint(): no method call in C
            if kw in named:
                extra = constant_keywords_among(state, inst, wanted, known)
                break
    if extra:  # folded into the lasting effects' gains and losses: one test of each below
        gained += tuple(extra.get("gain", ()))
        lost += tuple(extra.get("lose", ()))
    printed = None if blanked else info(state, inst)["keywords"]  # a blank text box has no printed keywords
    if not gained and not printed:
        return []  # most cards asked: no keyword at all
    out = []
    for kw in wanted:
        if (kw in gained or (printed and kw in printed)) and kw not in lost:  # lost beats gained, as in keywords()
            out.append(kw)
    return out


def constant_answers(state, what):
    """Whether some card of the game has a constant ability that can answer `what` (ANSWERS; a card
    without answers= can answer anything): worked out once a game, and again after a constant ability
    is registered. Icons are answered by three cards of the pool, so most games never ask constant().
    A game's first ask of a `what` takes the answer of an earlier game with the same card codes
    (_ANSWERS_BY_CODES): the codes are all it depends on, and most games repeat deck lists."""
    answers = per_game_answers(_CONSTANT_ANSWERS, state)
    try:  # keyed by `what` itself, a string: no tuple to build and hash at every ask
        return answers[what]
    except KeyError:
        codes = game_codes(state)
        by_codes = _ANSWERS_BY_CODES  # a local typed dict (model.pxd): its .get is a C call
        shared = by_codes.get(codes)
        if shared is None:
            if len(by_codes) >= 256:
                by_codes.clear()  # a bound on memory: worked out again when asked
            shared = by_codes[codes] = {}
        found = shared.get(what)
        if found is None:
            found = False
            for c in codes:  # a loop, not any() over a generator: cpdef (model.pxd)
                if c in CONSTANT and what in ANSWERS.get(c, (what,)):
                    found = True
                    break
            shared[what] = found
        answers[what] = found
        return found


# {a game's card codes (game_codes): {what: constant_answers' answer}}, shared by the games with those
# codes; emptied whenever a constant ability is registered (register_constant)
_ANSWERS_BY_CODES = {}


def has_icon(state, inst, icon):
    """Whether `inst` has challenge icon `icon` now: `icon in icons(state, inst)`, read for the one
    icon without building the set (can_attack_with and can_defend_with ask it of every character)."""
    gained = lost = False
    for e in state["g"]["effects"]:
        if e["target"] == inst:
            kind = e["kind"]
            if kind == "icon":
                gained = gained or e["value"] == icon
            elif kind == "lose_icon":
                lost = lost or e["value"] == icon
    extra = constant(state, inst, "icons") if constant_answers(state, "icons") else None
    if lost or (extra and icon in extra.get("lose", ())):  # lost beats gained, as in icons()
        return False
    if gained or (extra and icon in extra.get("gain", ())):
        return True
    printed = info(state, inst)["icons"]
    return bool(printed) and icon in printed


def influence_of(state, inst):
    return (info(state, inst)["influence"] or 0) + constant(state, inst, "influence")


def income_bonus(state, inst):
    return (info(state, inst)["income"] or 0) + constant(state, inst, "income")


def immune_to(state, inst, source, by_seat, kws=None):
    """Whether `inst` ignores an effect of card `source` (None for a framework effect) used by `by_seat`.

    "Immune to character abilities" covers any character's ability; "immune to opponents'
    character abilities" only those of a character its controller's opponent uses; "immune_events"
    (granted by abilities) events. A card is never immune to the game's own rules (claim, deadly).
    """
    if source is None:
        return False
    if kws is None:  # a caller that reads other keywords of `inst` too hands them in, worked out once
        kws = keywords(state, inst)
    kind = info(state, source)["type"]
    ctrl = state["g"]["cards"][inst]["ctrl"]
    if kind == "character":
        if "immune_character" in kws:
            return True
        if "immune_opponent_character" in kws and by_seat in opponents(state["g"], ctrl):
            return True
    if kind == "event" and "immune_events" in kws:
        return True
    if kind == "plot" and "immune_plots" in kws:
        return True
    return False


POWER_LEFT_OUT = []  # fn(g, seat, inst): the power on `inst` does not count for `seat` (Melisandre)

# The games (id of g) in which a player's total rose without power being gained or moved between Houses
# (timing.gain_power and move_house_power check victory themselves): a card with power put into play
# or taken control of. timing.after_step checks victory for them and forgets them; an id left here by
# a step that raised costs only one more check.
POWER_ARRIVED = set()


def total_power(g, seat):
    """Power toward victory: on the House card and on every card the player controls."""
    p = g["players"][seat]
    cards = g["cards"]
    total = p["power"]
    for i in p["play"]:  # a loop, not sum() of a generator: asked for every seat of every view
        power = cards[i]["power"]
        # a card with no power adds nothing, left out or not: POWER_LEFT_OUT asked only of the others
        if power and not (POWER_LEFT_OUT and any(fn(g, seat, i) for fn in POWER_LEFT_OUT)):
            total += power
    return total


def team_power(g, seat):
    mate = partner(g, seat)
    return total_power(g, seat) + (total_power(g, mate) if mate is not None else 0)


# --- moving cards -------------------------------------------------------------------------------

def zone_list(g, inst):
    """The list that holds `inst` now (None for a duplicate or the revealed plot)."""
    c = g["cards"][inst]
    zone = c["zone"]
    if zone == "play":
        return g["players"][c["ctrl"]]["play"]
    if zone in ("dup", "revealed"):
        return None
    return g["players"][c["owner"]][zone]


# How many times, in any game, a card entered or left play or a revealed plot changed (put and
# take_out, the only writers of those lists): what is worked out from the cards in play alone (the
# characters) is kept with this count and stands while it has not moved.
_TABLE_MOVES = [0]
# The same count for the cards with a constant ability alone (the constant sources, _kept_sources):
# most cards that come and go have none.
_SOURCE_MOVES = [0]


def _moved_in_play(inst):
    """Count `inst` entering or leaving play, or becoming or ceasing to be a revealed plot."""
    _TABLE_MOVES[0] += 1
    if code(inst) in CONSTANT:
        _SOURCE_MOVES[0] += 1


def dropped(items, x):
    """A new list: `items` without its first `x` (ValueError if it has none, as list.remove). A card
    record's "att" and "dups" lists are replaced, never changed in place, so that a copy of the state
    may share them with its original (sampling.copy_state)."""
    out = items[:]
    out.remove(x)
    return out


def take_out(g, inst):
    """Remove `inst` from wherever it is (the caller puts it somewhere)."""
    c = g["cards"][inst]
    zone = c["zone"]
    if zone == "dup":
        host = g["cards"][c["on"]]
        host["dups"] = dropped(host["dups"], inst)
        c["on"] = None
    elif zone == "revealed":
        g["players"][c["owner"]]["revealed"] = None
        _moved_in_play(inst)
    else:
        zone_list(g, inst).remove(inst)
        if zone == "play":
            _moved_in_play(inst)


def put(g, inst, zone, top=False):
    """Put `inst` in `zone` of its owner (`play` uses its controller); `top` for the deck's top."""
    c = g["cards"][inst]
    c["zone"] = zone
    if zone == "revealed":
        g["players"][c["owner"]]["revealed"] = inst
        _moved_in_play(inst)
        return
    if zone == "play":
        g["players"][c["ctrl"]]["play"].append(inst)
        _moved_in_play(inst)
        if c["power"]:
            POWER_ARRIVED.add(id(g))
        return
    c["ctrl"] = c["owner"]
    c["kneel"] = False
    lst = g["players"][c["owner"]][zone]
    if top:
        lst.insert(0, inst)
    else:
        lst.append(inst)


def move(g, inst, zone, top=False):
    take_out(g, inst)
    put(g, inst, zone, top)


# Per game, by seat: (the game and the _TABLE_MOVES it was last asked under, a copy of the play list
# own_copies last worked its answer out from, the answer). It reads nothing else of the state (records
# and owners never change): asked again of the same game with no card moved in or out of play since (a
# marshal ask after an action, the seat's next ask after a window's), the answer stands as it is.
# Marshalling asks it again after each card it plays: that card went to the end of the seat's play
# list, so the kept answer is extended by it instead of worked out again (_grown). Any other change of
# the list works it out anew.
_COPIES = PerGame()


def _grown(kept, now):
    """How many of `now`'s cards `kept` (a copy of the list they were read from) already read: its
    length when `now` only grew at its end since, else -1 (work it out again)."""
    n = len(kept)
    if len(now) < n or now[:n] != kept:
        return -1
    return n


def plays_grown(copies, players):
    """The cards that joined the end of each player's play list since `copies` (a list a player, as
    the caller last read them), a list a player, each copy brought up to date; None when a list
    changed otherwise (a card left play or moved to another side: the caller works its answer out
    anew). What is worked out from the cards in play is then extended by the cards just played (a
    marshal ask follows the seat's last card played) instead of read again from all of them."""
    out = []
    grew = False
    for i in range(len(players)):  # an index, not enumerate(): typed C loops (model.pxd)
        now = players[i]["play"]
        old = copies[i]
        n = len(old)
        if len(now) == n:  # the same length: the same list, or changed otherwise
            if now != old:
                return None
            out.append(())
        elif len(now) < n or now[:n] != old:
            return None
        else:
            out.append(now[n:])
            grew = True
    if grew:
        for i in range(len(out)):
            if out[i]:
                old = copies[i]
                old.extend(out[i])
    return out


# Per game, by seat: [copies of the play lists (plays_grown) and of the seat's dead pile names_taken
# last read, its answer]. A card reaches the dead pile from elsewhere than play too, and may leave it:
# the pile is compared as a whole, a few cards.
_TAKEN = PerGame()


def names_taken(state, seat):
    """{name: why} for the unique names `seat` may not put into play (rulebook, "Unique Cards"): its
    cards in play ("control"), its dead pile ("dead"), its cards an opponent controls ("taken"), the
    first reason found kept. Kept between asks (_TAKEN) while the dead pile is the same and the lists
    in play only grew at their end (plays_grown): extended then by the cards that joined. Its callers
    only read it, the next ask may extend it."""
    g = state["g"]
    players = g["players"]
    answers = per_game_answers(_TAKEN, state)
    kept = answers.get(seat)
    grown = None
    if kept is not None and kept[1] == players[seat]["dead"]:
        grown = plays_grown(kept[0], players)
    if grown is None:
        taken = _names_taken(state, seat)
        answers[seat] = ([list(p["play"]) for p in players], list(players[seat]["dead"]), taken)
        return taken
    taken = kept[2]
    recs = None
    for s, new in enumerate(grown):
        for other in new:
            if recs is None:
                recs = records(state)  # read only when a card joined
            if s == seat:  # the first reason is "control" for any card of its own play list
                taken[recs[other]["name"]] = "control"
            elif owner_of(other) == seat:
                taken.setdefault(recs[other]["name"], "taken")  # read after the others, as _names_taken
    return taken


def _names_taken(state, seat):
    """names_taken worked out from the cards in play and the dead pile."""
    recs = records(state)
    players = state["g"]["players"]
    taken = {}
    for other in players[seat]["play"]:
        taken.setdefault(recs[other]["name"], "control")
    for other in players[seat]["dead"]:
        taken.setdefault(recs[other]["name"], "dead")
    for s, p in enumerate(players):
        if s != seat:
            for other in p["play"]:
                if owner_of(other) == seat:
                    taken.setdefault(recs[other]["name"], "taken")
    return taken


_BLOCKED = {"control": "you already control %s", "dead": "%s is in your dead pile",
            "taken": "an opponent has taken control of your %s"}


def unique_blocked(state, seat, inst):
    """Why `seat` may not put unique `inst` into play, or None (names_taken)."""
    rec = records(state)[inst]
    if not rec["unique"]:
        return None
    why = names_taken(state, seat).get(rec["name"])
    return None if why is None else _BLOCKED[why] % rec["name"]


def own_copies(state, seat):
    """{(name, type): the first card of that name and type `seat` owns and controls}: what a unique
    card of `seat`'s hand may be played on as a duplicate, worked out once for a whole hand; kept
    between asks (_COPIES) and extended by the cards that joined the end of the play list since: its
    callers only read it (own_copy_in_play, flow.marshal_choices), the next ask may extend it."""
    g = state["g"]
    moves = _TABLE_MOVES[0]
    answers = per_game_answers(_COPIES, state)
    kept = answers.get(seat)
    if kept is not None and kept[0] is g and kept[1] == moves:
        return kept[3]
    recs = records(state)
    play = g["players"][seat]["play"]
    n = -1 if kept is None else _grown(kept[2], play)
    out = {} if n < 0 else kept[3]
    for other in play[n:] if n > 0 else play:
        if owner_of(other) == seat:
            rec = recs[other]
            out.setdefault((rec["name"], rec["type"]), other)
    answers[seat] = (g, moves, list(play), out)
    return out


def own_copy_in_play(state, seat, inst):
    """The unique card of the same name that `seat` owns and controls, for a duplicate (own_copies)."""
    rec = records(state)[inst]
    if not rec["unique"]:
        return None
    return own_copies(state, seat).get((rec["name"], rec["type"]))


def printed_gold_cost(state, seat, inst):
    """The gold to marshal `inst` before any reduction: printed cost and the gold penalty for
    another House. gold_cost only takes from it (every reduction is of N gold less), never adds."""
    rec = info(state, inst)
    cost = rec["cost"] or 0
    houses = rec["houses"]
    if houses and state["g"]["players"][seat]["house"] not in houses:
        cost += table(state)["components"]["gold_penalty"]
    return cost


def gold_cost(state, seat, inst, in_play=None):
    """The gold to marshal `inst`: printed cost, the gold penalty for another House, reducers
    (`in_play`: reducers_in_play, when the caller has it)."""
    return reduced_gold_cost(state, seat, inst, printed_gold_cost(state, seat, inst), in_play)


def reduced_gold_cost(state, seat, inst, cost, in_play=None, matching=None):
    """gold_cost from `inst`'s printed_gold_cost `cost`, for a caller that keeps it (flow's marshal
    facts, worked out once a game); `matching`: matching_reducers, when the caller has it (flow.pay_for
    spends them)."""
    p = state["g"]["players"][seat]
    if in_play is None:  # found here once (most often none), for cost_reduction too
        in_play = reducers_in_play(state, seat)
    if in_play or code(inst) in REDUCERS:  # else nothing makes it cheaper
        cost -= cost_reduction(state, seat, inst, in_play)
    if p["reducers"]:
        if matching is None:
            matching = matching_reducers(state, seat, inst)
        for r in matching:  # a loop, not sum() of a generator: gold_cost is cpdef
            cost -= r["amount"]
    return max(0, cost)


def matching_reducers(state, seat, inst):
    """The pending "next card you play this phase costs N less" reductions `inst` would use
    (effects.add_reducer_if): each applies to the next matching card only."""
    rec = info(state, inst)
    houses = rec["houses"] or ()
    out = []
    for r in state["g"]["players"][seat]["reducers"]:  # a loop, not a comprehension of sets: cpdef, asked of each card priced
        if r["house"] is not None and r["house"] not in houses and not _shares(r["house"], houses):
            continue
        if r["kind"] is not None and r["kind"] != rec["type"]:
            continue
        if "icon" in r and r["icon"] and r["icon"] not in (rec["icons"] or ()):
            continue
        out.append(r)
    return out


def _shares(wanted, houses):
    """Whether a reducer's `wanted` (a list of Houses; anything else never matches) names one of `houses`."""
    if not isinstance(wanted, list):
        return False
    for h in wanted:
        if h in houses:
            return True
    return False


def blank(state, inst):
    """Whether `inst`'s text box is blank now (a lasting effect): its abilities and keywords are off."""
    for e in state["g"]["effects"]:  # a loop, not any(): asked for every card with a constant ability
        if e["target"] == inst and e["kind"] == "blank":
            return True
    return False


# The codes of the cards gold may be set on and spent from as though in their controller's pool (a
# card file adds its card: Tywin Lannister). The gold set on cards is read from these cards alone.
GOLD_CARRIERS = set()
# The game (its config, which copy_state shares) gold_carriers last answered, and its answer: held
# here, as records() holds its table, not in a PerGame: a look-up there cost a third of a scan.
_carriers_config = None
_carriers = None


def gold_carriers(state):
    """The game's instances of a GOLD_CARRIERS code (most games: none), worked out once a game: the only
    cards spendable_gold reads, instead of all the seat's cards in play."""
    global _carriers_config, _carriers
    config = state["config"]
    if config is not _carriers_config:
        _carriers = [i for i in state["g"]["cards"] if code(i) in GOLD_CARRIERS]
        _carriers_config = config
    return _carriers


def spendable_gold(state, seat):
    """Gold `seat` may spend: its pool and gold set on cards it controls (Tywin Lannister: the cards in
    play of gold_carriers). A loop, not sum() over a generator: cpdef (model.pxd), asked once a hand by
    marshal_choices and by abilities.payable for a gold cost the pool cannot cover."""
    g = state["g"]
    total = g["players"][seat]["gold"]
    carriers = gold_carriers(state)
    if carriers:
        cards = g["cards"]
        for inst in carriers:
            c = cards[inst]
            # in play and controlled by `seat`: in its play list (put), whatever their order there
            if "gold" in c and c["zone"] == "play" and c["ctrl"] == seat:  # `in`, not .get(): a C call
                total += c["gold"]
    return total


def pay_gold(g, seat, amount):
    """Spend gold: from the pool first, then from gold set on cards `seat` controls that may be
    spent as though in the pool (Tywin Lannister)."""
    p = g["players"][seat]
    from_pool = min(amount, p["gold"])
    p["gold"] -= from_pool
    rest = amount - from_pool
    for inst in p["play"] if rest else ():  # the pool paid it all (most payments): no card to read
        c = g["cards"][inst]
        if rest and c.get("gold"):
            took = min(rest, c["gold"])
            c["gold"] -= took
            rest -= took
    g["bank"]["gold"] += amount - rest


# --- where a card may go ----------------------------------------------------------------------------

def house_ok(state, seat, inst):
    for r in info(state, inst)["restrictions"] or ():
        if "house_only" in r and state["g"]["players"][seat]["house"] != r["house_only"]:
            return False
    return True


def can_enter_play(state, seat, inst):
    """Whether `seat` may put `inst` (character or location) into play: uniqueness and the dead pile."""
    return unique_blocked(state, seat, inst) is None


_REFUSING = ("no_attachments", "no_attachments_except_weapon")  # the keywords _refusal reads


def _refusal(state, host):
    """Which attachments `host` refuses: "all" (No attachments), "weapon" (all but Weapons) or "" (none).
    One read of those two keywords (keywords_among), not the whole set: a constant ability that can
    name neither is not asked (constant_keywords_among), the lasting effects are looked through once."""
    if state["g"]["cards"][host]["zone"] == "play":
        return refusal_of(keywords_among(state, host, _REFUSING))
    return refusal_of(info(state, host)["keywords"] or ())  # in setup: the printed keywords


def refusal_of(kws):
    """_refusal's answer for a card with keywords `kws`."""
    if "no_attachments" in kws:
        return "all"
    return "weapon" if "no_attachments_except_weapon" in kws else ""


def refusals_printed(state):
    """Whether every card's _refusal is now what its printed keywords say: no lasting effect blanks a
    card or gives or takes one of the keywords _refusal reads, and no constant ability in play can name
    one (keywords_among's tests, made once for all the hosts an ask reads instead of once a host)."""
    g = state["g"]
    for e in g["effects"]:
        kind = e["kind"]
        if kind == "blank" or ((kind == "keyword" or kind == "lose_keyword") and e["value"] in _REFUSING):
            return False
    last = _LAST[0]  # _kept_sources' answer as it keeps it, when it stands (keywords_among's test)
    known = last[3] if last[0] is g and last[1] == _SOURCE_MOVES[0] else _kept_sources(g)
    named = known[3]  # the keywords they can name (None: any)
    if named is None:
        return False
    for kw in _REFUSING:
        if kw in named:
            return False
    return True


def attach_ok(state, seat, att, host, hosts_kws=None):
    """Whether attachment `att` played by `seat` may go on `host` (restrictions, No attachments).
    `hosts_kws`: a dict the caller keeps while nothing changes, to work out once which attachments each
    host refuses (_refusal) for all the attachments it asks about. The printed restrictions are read
    first: most hosts a hand is offered (attachments, locations, an opponent's cards) fail them, and
    then their keywords are never read."""
    return attach_fits(state, seat, att, attach_needs(info(state, att)), host, info(state, host), hosts_kws)


def attach_needs(rec):
    """What attachment record `rec`'s printed restrictions ask of a host, summed up for attach_fits
    so that a caller that asks it of every host (flow's marshal facts, once a game) reads them once:
    (the host's type, "character" or "location"; whether only on a card an opponent controls; the
    Houses the host must have; a frozenset of Traits for each "one of these"; its name when at most
    one copy may go on a host (limit_per_character), else None; whether it is a Weapon)."""
    kind = "character"
    opponent = False
    houses = []
    traits = []
    limit_name = None
    for r in rec["restrictions"] or ():
        at = r["attach_to"] if "attach_to" in r else None
        if at == "opponent_character":
            opponent = True
        if at == "location":
            kind = "location"
        if "house" in r:
            houses.append(r["house"])
        if "traits_any" in r:
            traits.append(frozenset(r["traits_any"]))
        if "limit_per_character" in r and r["limit_per_character"]:
            limit_name = rec["name"]
    return kind, opponent, tuple(houses), tuple(traits), limit_name, "Weapon" in (rec["traits"] or ())


def attach_fits(state, seat, att, needs, host, hrec, hosts_kws=None):
    """attach_ok with `att`'s restrictions summed up (`needs`: attach_needs) and `host`'s printed
    record given (`hrec`): a caller that asks it of every host for every attachment of a hand reads
    each once. What the two records settle first (attach_fits_printed): it turns most hosts away."""
    return attach_fits_printed(att, needs, host, hrec) and attach_fits_now(state, seat, needs, host, hosts_kws)


def attach_fits_printed(att, needs, host, hrec):
    """The part of attach_fits that the printed records alone settle, so never changes in a game: the
    host's type (first: it turns most hosts away in one comparison), Houses and Traits, and that an
    attachment does not go on itself. Marshalling keeps its answers while the cards in play stand
    (flow._hosts_for)."""
    kind, opponent, houses, traits, limit_name, weapon = needs
    if hrec["type"] != kind or host == att:
        return False
    for h in houses:
        if h not in (hrec["houses"] or ()):
            return False
    for wanted in traits:
        if wanted.isdisjoint(hrec["traits"] or ()):
            return False
    return True


def attach_fits_now(state, seat, needs, host, hosts_kws=None):
    """The rest of attach_fits, for a host whose printed record fits (attach_fits_printed): what the
    game changes, the host's zone and controller, the attachments already on it, its keywords."""
    kind, opponent, houses, traits, limit_name, weapon = needs
    g = state["g"]
    card = g["cards"][host]
    if card["zone"] != "play" and card["zone"] != "setup":
        return False
    if opponent and card["ctrl"] not in opponents(g, seat):
        return False
    if limit_name is not None:
        for a in card["att"]:  # a loop, not any() over a generator: cpdef (model.pxd)
            if info(state, a)["name"] == limit_name:
                return False
    refusal = hosts_kws[host] if hosts_kws is not None and host in hosts_kws else None
    if refusal is None:
        refusal = _refusal(state, host)
        if hosts_kws is not None:
            hosts_kws[host] = refusal
    if refusal == "all" or (refusal == "weapon" and not weapon):
        return False
    return True
