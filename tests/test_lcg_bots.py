"""The LCG's bots: the heuristic bot's legality and saves, the search bot's view-only decisions and
its strength, and `maester sim --bots search`."""

import json
import random

import pytest

from lcg_harness import Table, table_with
from maester.engine.bots import card_info, decide, make_bot
from maester.engine import core
from maester.games.lcg import abilities as A
from maester.games.lcg import effects as E
from maester.games.lcg import flow as F
from maester.games.lcg import model as M
from maester.games.lcg import sampling as S
from maester.games.lcg import timing as T
from maester.games.lcg import titles
from maester.games.lcg import LCG
from maester.sim import play_one

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

PLANNING_AHEAD = "L190"     # Lannister 3/0/1
MUTUAL_ENEMIES = "S196"     # Stark 2/2/2


def p(code, seat):
    return "%s#%d" % (code, seat)


@pytest.mark.parametrize("players,variants,decks,seed", [
    (2, [], ["targaryen", "lannister"], 3),
    (2, [], ["stark", "baratheon"], 4),
    (3, [], ["lannister", "targaryen", "stark"], 5),
    (4, [], None, 6),
])
def test_the_heuristic_bot_never_makes_an_illegal_move(players, variants, decks, seed):
    config = {"players": players, "variants": variants}
    if decks:
        config["decks"] = decks
    state, actions = play_one("lcg", config, seed, "heuristic")  # play_one raises on an illegal move
    assert state["over"] and actions > 0


def _save_table(with_dup):
    """Seat 0 (Lannister, Tywin) wins a military challenge against seat 1 (Stark), whose only
    character is Eddard with Nymeria on him (or a duplicate under him)."""
    cards = table_with({"S5b": {"of": "S5", "duplicate_of": "S5"}})  # a second Eddard (a second Core Set)
    deck = dict(cards["decks"]["stark"])
    deck["draw"] = deck["draw"] + ["S5b"]
    cards["decks"]["stark"] = deck
    t = Table(2, decks=["lannister", "stark"], cards=cards)
    t.play(p("L40", 0))
    t.play(p("S5", 1))
    if with_dup:
        t.dup("S5b#1", on=p("S5", 1))
    else:
        t.play(p("S2", 1), on=p("S5", 1))
    t.plots(p(PLANNING_AHEAD, 0), p(MUTUAL_ENEMIES, 1))
    t.choose(t.ask()["seat"], "first", 0)
    t.declare(0, "military", 1, p("L40", 0))
    t.defend(1)
    t.until_ask("claim_kill", 1)
    t.choose(1, "kill", p("S5", 1))
    return t


@pytest.mark.parametrize("with_dup", [False, True])
def test_the_heuristic_bot_saves_its_character_when_it_can(with_dup):
    t = _save_table(with_dup)
    ask = t.ask(1)
    assert ask["kind"] == "save" and ["pass"] in ask["choices"]
    bot = make_bot("lcg", "heuristic", 1, 1, card_info(t.state))
    choice = decide(bot, t.state, 1, ask, core.view)
    assert choice[0] == ("dup" if with_dup else "save")
    t.choose(1, *choice)
    t.finish_challenge()
    assert t.g["cards"][p("S5", 1)]["zone"] == "play"


def _decision_state(seed, kind="plot", seat=0, decks=("stark", "lannister")):
    """A heuristic game played until `seat` is asked a decision of `kind` with several choices."""
    state, _ = core.new_game("lcg", {"players": 2, "decks": list(decks)}, seed)
    info = card_info(state)
    bots = [make_bot("lcg", "heuristic", seed, s, info) for s in range(2)]
    for _ in range(3000):
        ask = state["asks"][0]
        if ask["seat"] == seat and ask["kind"] == kind and len(ask["choices"]) > 1 and state["g"]["round"] >= 2:
            return state, ask
        choice = decide(bots[ask["seat"]], state, ask["seat"], ask, core.view)
        assert core.apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": choice}).ok
    pytest.fail("no %s decision" % kind)


def _hide_differently(state, seat):
    """The same state for `seat`'s eyes: the opponents' hands and decks dealt otherwise, every deck
    in another order, another chosen plot, another chance generator and game seed."""
    other = S.copy_state(state)
    other["rng"] = state["rng"] ^ 0x5DEECE66D
    other["seed"] = state["seed"] + 12345
    g = other["g"]
    for s, pl in enumerate(g["players"]):
        pl["deck"].reverse()
        if s == seat:
            continue
        if pl["hand"] and pl["deck"]:
            h, d = pl["hand"][0], pl["deck"][0]
            pl["hand"][0], pl["deck"][0] = d, h
            g["cards"][h]["zone"], g["cards"][d]["zone"] = "deck", "hand"
        if pl["chosen"] is not None and len(pl["plots"]) > 1:
            pl["chosen"] = next(x for x in sorted(pl["plots"]) if x != pl["chosen"])
    return other


@pytest.mark.parametrize("kind", ["plot", "challenge", "marshal"])
def test_the_search_bot_decides_from_its_own_view_only(kind):
    state, ask = _decision_state(11, kind)
    other = _hide_differently(state, 0)
    assert core.view(other, 0) == core.view(state, 0)
    assert json.dumps(S.determinise(state, 0, 99)["g"], sort_keys=True) == \
        json.dumps(S.determinise(other, 0, 99)["g"], sort_keys=True)
    # A sample is consistent with the seat's view.
    assert core.view(S.determinise(state, 0, 5), 0)["seats"] == core.view(state, 0)["seats"]
    info = card_info(state)
    a = make_bot("lcg", "search", 21, 0, info, playouts=2).choose(core.view(state, 0), ask, state)
    b = make_bot("lcg", "search", 21, 0, info, playouts=2).choose(core.view(other, 0), ask, other)
    assert a == b and a in ask["choices"]


def test_the_search_bot_beats_the_random_bot():
    wins = 0
    for i, decks in enumerate((["lannister", "stark"], ["stark", "targaryen"], ["baratheon", "lannister"])):
        kinds = ["search", "random"] if i % 2 == 0 else ["random", "search"]
        state, _ = play_one("lcg", {"players": 2, "decks": decks}, 40 + i, kinds, playouts=1)
        wins += kinds.index("search") in state["result"]["winners"]
    assert wins == 3


def test_sim_with_search_bots_runs(capsys):
    from maester import cli
    rc = cli.main(["sim", "lcg", "--bots", "search,heuristic", "--games", "1", "--playouts", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc in (None, 0) and out["games"] == 1 and out["search"]["samples"] > 0 and out["bots"] == "search,heuristic"


def _containers(obj, out):
    """The ids of every list and dict inside `obj`."""
    if isinstance(obj, (list, dict)):
        out.add(id(obj))
        for v in (obj.values() if isinstance(obj, dict) else obj):
            _containers(v, out)
    return out


def test_copy_state_shares_nothing_the_engine_writes():
    """The bots' simulations play on copy_state's copies: a copy equals the state and shares no list
    or dict with it but the card records' "att" and "dups" lists (the rules replace those, never
    change them in place), a card record with keys of its own (copied the slow way) included."""
    state, _ = core.new_game("lcg", {"players": 2}, 4)
    for _ in range(80):
        ask = state["asks"][0]
        assert core.apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": ask["choices"][-1]}).ok
    inst = next(iter(state["g"]["cards"]))
    state["g"]["cards"][inst]["marks"] = [["a", 1]]
    copy = S.copy_state(state)
    lists = {id(c[k]) for c in state["g"]["cards"].values() for k in ("att", "dups")}
    for key in ("g", "stack", "asks", "result"):
        assert copy[key] == state[key]
        assert not (_containers(copy[key], set()) & _containers(state[key], set())) - lists, key
    assert list(copy["g"]) == list(state["g"]) and list(copy["g"]["cards"]) == list(state["g"]["cards"])


def test_play_on_a_copy_leaves_the_original_as_it_was():
    """A copy shares its card records' attachment and duplicate lists with its original: playing on
    the copy, attachments and duplicates coming and going included, leaves the original unchanged."""
    moved = 0
    for seed in range(3):
        state, _ = core.new_game("lcg", {"players": 2}, seed)
        pick = random.Random(seed).choice  # uniform random play attaches and duplicates cards
        while not state["over"] and state["g"]["round"] < 6:
            if any(c["att"] or c["dups"] for c in state["g"]["cards"].values()):
                before = json.dumps(state, sort_keys=True, default=str)
                copy = S.copy_state(state)
                lists = [(c["att"], c["dups"]) for c in copy["g"]["cards"].values()]
                for _ in range(40):
                    if copy["over"]:
                        break
                    ask = copy["asks"][0]
                    assert core.apply(copy, {"seat": ask["seat"], "ask": ask["id"], "choice": pick(ask["choices"])}).ok
                moved += lists != [(c["att"], c["dups"]) for c in copy["g"]["cards"].values()]
                assert json.dumps(state, sort_keys=True, default=str) == before
            ask = state["asks"][0]
            assert core.apply(state, {"seat": ask["seat"], "ask": ask["id"], "choice": pick(ask["choices"])}).ok
    assert moved  # some copy's attachments or duplicates did change


def test_copy_state_keeps_what_two_steps_share_shared():
    """The steps one event starts share its dict (`ev`): so do their copies (as pickle kept them),
    a dict of their own, not the original's, so that a copy plays as the state it was taken from."""
    state, _ = core.new_game("lcg", {"players": 2}, 4)
    ev = {"e": "revealed", "participants": ["L40#0"]}
    state["stack"] += [{"s": "forced", "ev": ev}, {"s": "forced", "ev": ev}]
    copy = S.copy_state(state)
    first, second = copy["stack"][-2]["ev"], copy["stack"][-1]["ev"]
    assert first is second and first == ev and first is not ev
    assert first["participants"] is not ev["participants"]


def test_the_kept_constant_sources_are_always_the_ones_in_play():
    """model.constant_sources keeps its answers (every STR read asks it): after every move of
    heuristic games, whose bots also play on sampled copies, the kept answer is what a fresh look at
    the table finds, plots with a constant ability and cards leaving play included."""
    seen = set()

    def check(state, result):
        g = state["g"]
        kept = M.constant_sources(g)
        assert kept == M.find_constant_sources(g), (g["round"], g["phase"])
        seen.add(kept)

    for seed, decks in ((7, ["baratheon", "stark"]), (8, ["targaryen", "lannister"])):
        play_one("lcg", {"players": 2, "decks": decks}, seed, "heuristic", on_step=check)
    assert len(seen) > 20  # the sources came and went many times


def test_the_kept_characters_are_always_the_ones_in_play():
    """model.characters keeps its answer while no card enters or leaves play: after every move of
    heuristic games, whose bots also play on sampled copies, it is for each seat and for the whole
    table what a fresh look at the cards in play finds, in play order."""
    seen = set()

    def check(state, result):
        g = state["g"]
        for seat in (0, 1, None):
            fresh = [i for s, p in enumerate(g["players"]) if seat in (None, s) for i in p["play"]
                     if M.info(state, i)["type"] == "character"]
            assert M.characters(state, seat) == fresh, (g["round"], g["phase"], seat)
        seen.add(tuple(M.characters(state)))

    for seed, decks in ((7, ["baratheon", "stark"]), (8, ["targaryen", "lannister"])):
        play_one("lcg", {"players": 2, "decks": decks}, seed, "heuristic", on_step=check)
    assert len(seen) > 20  # characters came and went many times


def test_what_marshalling_keeps_of_the_cards_in_play_is_what_a_fresh_look_finds():
    """model.names_taken, model.own_copies and flow's hosts for attachments (_kept_hosts) are kept
    between asks and extended by the cards that joined the end of the lists in play (model.plays_grown):
    after every move of heuristic games, whose bots also play on sampled copies that share those kept
    answers, they must be what a fresh look at the cards in play and the dead pile finds, the hosts in
    play order and each attachment's fit what its printed restrictions allow (attach_fits_printed).
    When model.refusals_printed says so, every card's refusal of attachments is its printed one, and
    the refusals marshalling keeps all game for those asks (flow._printed_refusals) a fresh look's."""
    grew = []
    last = {}
    printed = []

    def check(state, result):
        g = state["g"]
        players = g["players"]
        for seat in range(g["n"]):
            assert M.names_taken(state, seat) == M._names_taken(state, seat), (g["round"], g["phase"], seat)
            fresh = {}
            for inst in players[seat]["play"]:
                if M.owner_of(inst) == seat:
                    fresh.setdefault((M.info(state, inst)["name"], M.info(state, inst)["type"]), inst)
            assert M.own_copies(state, seat) == fresh, (g["round"], g["phase"], seat)
            before = last.get(seat)
            now = list(players[seat]["play"])
            if before is not None and len(now) > len(before) and now[:len(before)] == before:
                grew.append(seat)  # the kept answers were extended, not worked out anew
            last[seat] = now
        hosts = [[(i, M.info(state, i)) for i in p["play"] if M.info(state, i)["type"] in ("character", "location")]
                 for p in players]
        for inst in g["cards"]:
            if M.info(state, inst)["type"] == "attachment":
                needs = M.attach_needs(M.info(state, inst))
                fit = [[(h, r) for h, r in hs if M.attach_fits_printed(inst, needs, h, r)] for hs in hosts]
                assert F._hosts_for(F._kept_hosts(state), inst, needs) == fit, (g["round"], g["phase"], inst)
        assert F._kept_hosts(state)[1] == hosts
        if M.refusals_printed(state):  # marshalling then reads each host's refusal from the kept ones
            printed.append(g["round"])
            kept = F._printed_refusals(state)
            for inst in M.in_play(g):
                assert M._refusal(state, inst) == M.refusal_of(M.info(state, inst)["keywords"] or ())
                assert kept.get(inst, M._refusal(state, inst)) == M._refusal(state, inst)

    for seed, decks in ((7, ["baratheon", "stark"]), (8, ["targaryen", "lannister"])):
        play_one("lcg", {"players": 2, "decks": decks}, seed, "heuristic", on_step=check)
    assert len(grew) > 20  # cards joined the lists in play many times between two looks
    assert len(printed) > 20  # refusals were the printed ones at many moves


def _spendable_by_scan(g, seat):
    """The gold `seat` may spend read from every card it has in play, as model.spendable_gold once did."""
    return g["players"][seat]["gold"] + sum(g["cards"][i].get("gold", 0) for i in g["players"][seat]["play"])


def test_spendable_gold_read_from_the_gold_carriers_is_a_scan_of_the_cards_in_play():
    """model.spendable_gold reads the gold set on cards from the game's gold carriers alone
    (model.gold_carriers, worked out once a game): after every move of random games, with Tywin
    Lannister in one deck (gold set on him, spent, and him leaving play) and in none, it is what
    reading every card the seat has in play finds."""
    on_cards = []

    def check(state, result):
        g = state["g"]
        for seat in range(g["n"]):
            assert M.spendable_gold(state, seat) == _spendable_by_scan(g, seat), (g["round"], g["phase"], seat)
            if M.spendable_gold(state, seat) > g["players"][seat]["gold"]:
                on_cards.append(seat)

    for seed, decks in ((0, ["lannister", "stark"]), (4, ["lannister", "stark"]), (5, ["baratheon", "targaryen"])):
        play_one("lcg", {"players": 2, "decks": decks}, seed, "random", on_step=check)
    assert on_cards  # gold was set on a card and counted


def test_income_without_a_card_in_play_that_changes_one_is_the_printed_sum():
    """flow.income reads only the printed incomes when no card in play has a constant ability that can
    answer "income" (model.constant_sources): after every move of random games whose decks hold such
    cards (The Rains of Castamere, Blockade), with them in play and without, it is what asking each
    card's constant income finds."""
    branches = set()

    def check(state, result):
        g = state["g"]
        for seat in range(g["n"]):
            p = g["players"][seat]
            if p["revealed"] is None:
                continue
            full = M.info(state, p["revealed"])["plot"]["income"] + M.constant(state, p["revealed"], "income")
            for inst in p["play"]:
                full += M.income_bonus(state, inst)
            full += titles.income_bonus(state, seat)
            assert F.income(state, seat) == max(0, full), (g["round"], g["phase"], seat)
            branches.add(bool(M.constant_sources(g, "income")))

    for seed in range(6):
        play_one("lcg", {"players": 2, "decks": ["baratheon", "lannister"]}, seed, "random", on_step=check)
    assert branches == {True, False}  # both ways of reading income were checked


def test_the_kept_actions_in_play_are_always_what_the_cards_in_play_offer():
    """An action window keeps, for each seat, the actions its cards in play and its revealed plot
    offer (abilities._actions_in_play) until its play list or plot changes: after every move of
    random games with all four Houses' decks, and in every phase's window, the kept list is what a
    fresh look at the seat's cards and their abilities finds, in the same order."""
    offered = set()

    def check(state, result):
        g = state["g"]
        for phase in M.PHASES:
            window = A._window_of(state, phase)
            held, offers = window[0], window[4]
            for seat, p in enumerate(g["players"]):
                fresh = [(src, idx, ab, ("kneel_self",) in ab.cost) for src in A._in_play_among(p, held)
                         for idx, ab in A._offered(state, offers, src, "action", phase)]
                kept = A._actions_in_play(state, p, seat, window, phase)
                assert list(kept) == fresh, (g["round"], g["phase"], phase, seat)
                offered.update((M.code(src), idx) for src, idx, _, _ in kept)

    _random_games_of_every_house(check)
    assert len(offered) >= 30  # cards of every House in play offered actions


def test_a_constant_ability_gives_nothing_for_what_it_does_not_answer():
    """A card's constant ability declared to answer only some values (constant_for answers=) is
    called for those only (model.constant): asked for every other value, on every card, after
    every move of random games with the decks those cards are in, it must give nothing, or skipping
    it would change the rules."""
    asked = set()

    def check(state, result):
        for src, answers in _declared(state, M.ANSWERS):
            for inst in state["g"]["cards"]:
                for what in _CONSTANT_VALUES:
                    if what not in answers:
                        assert not M.CONSTANT[M.code(src)](state, src, inst, what), (src, inst, what)
                        asked.add(M.code(src))

    _random_games_of_every_house(check)
    assert len(asked) >= 16  # most of the declared cards came into play


# Every value a rule asks model.constant for
_CONSTANT_VALUES = ("str", "icons", "keywords", "influence", "income", "initiative", "claim", "uncancelable",
                    "no_stand", "event_tax", "toll:military", "toll:intrigue", "toll:power", "reserve", "gold")


def _declared(state, table):
    """(source, its declaration) for each constant source in play whose code has one in `table`
    (model.ANSWERS, SCOPES or GIVES: what constant_for declared of it)."""
    for src in M.find_constant_sources(state["g"]):
        declared = table.get(M.code(src))
        if declared is not None:
            yield src, declared


def _random_games_of_every_house(check):
    """Random games with each House's starter deck, `check(state, result)` after every move."""
    for seed, decks in ((3, ["stark", "lannister"]), (4, ["lannister", "stark"]),
                        (5, ["baratheon", "targaryen"]), (6, ["targaryen", "baratheon"])):
        play_one("lcg", {"players": 2, "decks": decks}, seed, "random", on_step=check)


# The card files' target rules that abilities.CharacterTargets replaced, as they were written
def _standing(s, seat=None):
    return [c for c in M.characters(s, seat) if not s["g"]["cards"][c]["kneel"]]


_REPLACED_TARGETS = {
    "L39": lambda s, src, seat: [c for c in _standing(s) if c != src],
    "L41": lambda s, src, seat: [c for c in M.characters(s) if M.strength(s, c) <= 2],
    "L44": lambda s, src, seat: M.characters(s),
    "L48": lambda s, src, seat: [c for c in _standing(s) if c != src],
    "L50": lambda s, src, seat: _standing(s),
    "L161": lambda s, src, seat: [c for c in _standing(s, seat) if "lannister" in (M.info(s, c)["houses"] or ())],
    "L162": lambda s, src, seat: _standing(s),
    "L165": lambda s, src, seat: M.characters(s),
    "L167": lambda s, src, seat: [c for c in _standing(s) if "noble" not in (M.info(s, c)["crests"] or ())],
    "S7": lambda s, src, seat: [i for i in M.characters(s) if i != src
                                and M.keywords_among(s, i, ("stealth", "renown"))],
    "S155": lambda s, src, seat: [i for i in M.characters(s) if not s["g"]["cards"][i]["kneel"]
                                  and M.has_icon(s, i, "military")],
    "S177": lambda s, src, seat: [i for i in M.characters(s) if s["g"]["cards"][i]["kneel"]
                                  and M.info(s, i)["crests"]],
    "T111": lambda s, src, seat: M.characters(s),
    "T112": lambda s, src, seat: [c for c in M.characters(s) if s["g"]["cards"][c]["kneel"]],
    "T116": lambda s, src, seat: M.characters(s, seat),
    "T174": lambda s, src, seat: M.characters(s),
    "L178": lambda s, src, seat: [c for c in _standing(s) if M.total_power(s["g"], s["g"]["cards"][c]["ctrl"])
                                  > M.total_power(s["g"], seat)],
    # abilities.SeatTargets
    "L46": lambda s, src, seat: [o for o in M.opponents(s["g"], seat) if s["g"]["players"][o]["deck"]],
    "L54": lambda s, src, seat: M.opponents(s["g"], seat),
    "S17": lambda s, src, seat: M.opponents(s["g"], seat),
}


def test_a_character_target_rule_picks_what_the_card_rule_it_replaced_picked():
    """Target rules written as abilities.CharacterTargets (data the compiled rules read) give, after
    every move of random games with all four Houses' decks, for each copy of those cards and each
    seat, the list the card file's lambda gave, in the same order; and has_legal_target, which judges
    such a rule card by card and stops at the first legal target, says whether legal_targets gives any."""
    found = set()

    def check(state, result):
        g = state["g"]
        for src in g["cards"]:
            code = M.code(src)
            old = _REPLACED_TARGETS.get(code)
            if old is None:
                continue
            for ab in (ab for ab in A.ABILITIES[code] if ab.target is not None):
                assert isinstance(ab.target, (A.CharacterTargets, A.SeatTargets)), code
                for seat in range(g["n"]):
                    picked = ab.target(state, src, seat, None)
                    assert picked == list(old(state, src, seat)), (code, g["round"], g["phase"], seat)
                    legal = A.legal_targets(state, seat, src, ab)
                    assert A.has_legal_target(state, seat, src, ab) == bool(legal), (code, seat)
                    if legal:
                        found.add(code)

    _random_games_of_every_house(check)
    assert len(found) >= 10  # most of those cards had targets to pick


def test_an_ability_used_only_in_a_challenge_is_refused_between_challenges():
    """_usable refuses an ability marked `challenge` without calling its condition or target rule
    when no challenge is under way: after every move of random games with all four Houses' decks
    in which none is, for every copy of those cards and each seat, its condition says no or its
    rule names no target, as skipping them takes for granted."""
    marked = {code for code, abs_ in A.ABILITIES.items() if any(ab.challenge for ab in abs_)}
    assert {"L161", "L163", "S1", "S10", "S156", "S158"} <= marked
    checked = set()

    def check(state, result):
        g = state["g"]
        if g["challenge"]:
            return
        for src in g["cards"]:
            for ab in A.ABILITIES.get(M.code(src), ()):
                if not ab.challenge:
                    continue
                for seat in range(g["n"]):
                    assert (ab.when is not None and not ab.when(state, src, seat, None)) \
                        or (ab.target is not None and not list(ab.target(state, src, seat, None))), (src, seat)
                checked.add(M.code(src))

    _random_games_of_every_house(check)
    assert len(checked) >= 6  # the Core's Lannister and Stark ones, in every game with their decks


def test_an_action_window_asks_a_seat_with_a_choice_or_a_card_it_may_hold():
    """An action window's turn (action_choices asked=True) reads hand_may's answer from the window's
    answers for each seat's deck list: after every move of random games with all four Houses' decks,
    for each seat, it gives the seat's actions then "pass" when it has one or hand_may says its hand
    may hold a card for the window, and nothing otherwise."""
    asked = []

    def check(state, result):
        g = state["g"]
        for seat in range(g["n"]):
            actions = A.action_choices(state, seat, g["phase"])
            may = bool(actions) or A.hand_may(state, seat, "action", g["phase"])
            assert A.action_choices(state, seat, g["phase"], True) == (actions + [["pass"]] if may else []), seat
            asked.append(may)

    _random_games_of_every_house(check)
    assert any(asked) and not all(asked)


def test_a_blank_comes_only_from_a_card_registered_as_blanking():
    """A window reads no lasting effect for a blank in a game where no card can make one
    (abilities._blanks, from the codes in abilities.BLANKING): effects.lasting refuses a blank from
    any other card, and after every move of random games with all four Houses' decks, a game with a
    blank effect is one _blanks says can have it."""
    blanked = []

    def check(state, result):
        if any(e["kind"] == "blank" for e in state["g"]["effects"]):
            assert A._blanks(state)
            blanked.append(state["g"]["round"])

    _random_games_of_every_house(check)
    state, _ = core.new_game("lcg", {"players": 2, "decks": ["stark", "lannister"]}, 0)
    assert not A._blanks(state)
    with pytest.raises(ValueError):
        E.lasting(state["g"], "blank", "S5#0", True, "phase", "S5#0")
    assert A._blanks(core.new_game("lcg", {"players": 2, "decks": ["baratheon", "targaryen"]}, 0)[0])


def test_legal_targets_keep_out_every_card_protected_from_the_source():
    """legal_targets reads only the protections that could apply to an ability of its source's
    type (abilities._guards: none against a location's or an attachment's): after every move of
    random games with all four Houses' decks, for every ability with a target of every card and
    each seat, it gives the rule's candidates less every card immune to the source (model.immune_to
    with all its keywords) or shielded from it, in the same order."""
    kept_out = set()

    def check(state, result):
        g = state["g"]
        cards = g["cards"]
        for src in cards:
            for ab in A.ABILITIES.get(M.code(src), ()):
                if ab.target is None or ab.kind != "action":
                    continue
                for seat in range(g["n"]):
                    candidates = list(ab.target(state, src, seat, None))
                    fresh = [t for t in candidates if not (isinstance(t, str) and t in cards and _protected_from(state, t, src, seat))]
                    assert A.legal_targets(state, seat, src, ab) == fresh, (src, seat, g["round"], g["phase"])
                    kept_out.update(M.code(src) for t in candidates if t not in fresh)

    _random_games_of_every_house(check)
    assert kept_out  # some card was kept out of some ability's targets


def _protected_from(state, target, src, seat):
    """Whether `target` is immune to, or shielded from, an ability of `src` used by `seat`, from all of
    its keywords."""
    kws = M.keywords(state, target)
    shielded = "untargetable_by_opponents" in kws and M.info(state, src)["type"] in ("event", "character") \
        and seat in M.opponents(state["g"], state["g"]["cards"][target]["ctrl"])
    return M.immune_to(state, target, src, seat, kws) or shielded


def test_a_game_finds_the_window_answers_of_an_earlier_game_with_its_deck_lists_unchanged():
    """A game starts with the holders and action windows' answers of the last game with the same
    instances and card table (abilities._shared_answers): in a second random game with the same
    deck lists, after every move, every phase's window holds what a fresh look at the game's cards
    finds (holders' sets, the actions each card offers from play)."""
    asked = []

    def check(state, result):
        for phase in M.PHASES:
            window = A._window_of(state, phase)
            fresh = A._action_window(state, {}, phase)
            assert window[:3] == fresh[:3] and window[5] == fresh[5], phase
        first = A._SHARED[state["config"]["cards"], tuple(state["g"]["cards"])]  # the first game's answers
        found = A._in_game(state)
        assert found is not first and found["action windows"] is first["action windows"]
        asked.append(1)

    config = {"players": 2, "decks": ["stark", "lannister"]}
    play_one("lcg", config, 3, "random")
    play_one("lcg", config, 4, "random", on_step=check)
    assert len(asked) > 100


def test_the_seats_a_response_window_passes_over_have_no_response(monkeypatch):
    """A response window looks for the responses of the seats abilities.responders names only, and
    asks hand_may only when a deck list could hold a response (hands_may_respond): at every window
    of random games with all four Houses' decks, every other seat must have no response at all (the
    full look at its cards) and, without such a deck, hand_may must be False for every seat, or
    passing them over would change the questions."""
    responders, hands_may_respond = A.responders, A.hands_may_respond
    passed_over = []

    def checked(state, ev, found=None):
        may = responders(state, ev, found)
        for seat in range(state["g"]["n"]):
            if seat not in may:
                assert A.response_choices(state, seat, ev) == [], (ev, seat)
                passed_over.append(ev["e"])
            if not hands_may_respond(state, ev["e"]):
                assert not A.hand_may(state, seat, "response", ev["e"]), (ev, seat)
        return may

    monkeypatch.setattr(A, "responders", checked)
    _random_games_of_every_house(lambda state, result: None)
    assert len(set(passed_over)) >= 5 and len(passed_over) > 200


def test_the_seats_a_save_round_passes_over_have_no_save(monkeypatch):
    """A kill or discard looks for the save abilities of the seats abilities.savers names only: at
    every save round of random games with all four Houses' decks, every other seat must have no save
    ability for any card in play (the full look at its cards), or passing it over would change the
    questions."""
    savers = A.savers
    passed_over = []

    def checked(state, at):
        may = savers(state, at)
        for seat in range(state["g"]["n"]):
            if seat not in may:
                for target in M.in_play(state["g"]):
                    assert A.save_choices(state, seat, target, at[len("would_"):]) == [], (at, seat, target)
                passed_over.append(at)
        return may

    monkeypatch.setattr(A, "savers", checked)
    _random_games_of_every_house(lambda state, result: None)
    assert len(passed_over) > 50


def test_a_forced_trigger_passed_over_has_no_card_to_resolve(monkeypatch):
    """run_forced looks at the seats' cards in play only when one of the game's cards with a forced
    ability for the moment is in play, a revealed plot or the card that left play (_may_force): at
    every forced step of random games with all four Houses' decks, when it says none is, none of them
    is in any seat's play list or revealed slot, nor the card of a kill or discard."""
    may_force = A._may_force
    seen = {True: 0, False: 0}

    def checked(g, held, ev, e):
        found = may_force(g, held, ev, e)
        if not found:
            for p in g["players"]:
                assert not any(i in held for i in p["play"]) and p["revealed"] not in held, (ev, p)
            assert not (e in ("killed", "discarded") and ev["card"] in held), ev
        seen[found] += 1
        return found

    monkeypatch.setattr(A, "_may_force", checked)
    _random_games_of_every_house(lambda state, result: None)
    assert seen[True] > 20 and seen[False] > 200


def test_a_forced_step_left_out_by_a_last_trigger_would_have_found_no_card(monkeypatch):
    """A trigger that is its step's last move (timing.trigger's `last`) queues no forced step when none
    of the moment's forced cards is where run_forced looks, judged as the trigger happens: in random
    games with all four Houses' decks, at the start of the step that runs next (where the forced step
    would have run) none of them may be there either, or leaving it out would change the rules."""
    trigger, steps = T.trigger, LCG.steps
    left_out = []  # (g, held, ev) of the forced step left out by the last trigger, until the next step
    checked = []

    def watched(ctx, ev, initiator, last=False):
        e = ev["e"]
        held = A.holders(ctx.state, "forced", e)[0]
        if last and held and not A._may_force(ctx.g, held, ev, e):
            left_out.append((ctx.g, held, ev))
        trigger(ctx, ev, initiator, last)

    def next_step(fn):
        def run(ctx, st, answer):
            while left_out:
                g, held, ev = left_out.pop()
                assert g is ctx.g and not A._may_force(g, held, ev, ev["e"]), (ev, st)
                checked.append(ev["e"])
            fn(ctx, st, answer)
        return run

    monkeypatch.setattr(T, "trigger", watched)
    for name, fn in list(steps.items()):
        monkeypatch.setitem(steps, name, next_step(fn))
    _random_games_of_every_house(lambda state, result: left_out.clear() if state["over"] else None)
    assert {"phase_started", "entered_play", "plot_revealed", "killed"} <= set(checked) and len(checked) > 100


def test_a_constant_ability_gives_nothing_to_a_card_outside_its_scope():
    """A card's constant ability declared to give only to itself, to the card it is attached to or to
    cards of one name (constant_for to=) is called for those cards only (model.constant): asked for
    every value, of every other card (and of no card), after every move of random games with all
    four Houses' decks, it must give nothing, or skipping it would change the rules."""
    asked = set()

    def check(state, result):
        g = state["g"]
        for src, scope in _declared(state, M.SCOPES):
            # no card (inst None) for "self" and "host" only: a named card's ability reads its name
            for inst in list(g["cards"]) + ([None] if scope in ("self", "host") else []):
                if inst == src if scope == "self" else inst == g["cards"][src]["on"] if scope == "host" \
                        else M.info(state, inst)["name"] == scope[1]:
                    continue
                for what in _CONSTANT_VALUES:
                    assert not M.CONSTANT[M.code(src)](state, src, inst, what), (src, inst, what)
                    asked.add(M.code(src))

    _random_games_of_every_house(check)
    assert len(asked) >= 12  # most of the declared cards came into play


def test_a_constant_ability_names_no_keyword_it_does_not_declare():
    """A card's constant ability declared to name only some keywords (constant_for gives=) is not
    asked by a read of any other keyword (model.has_kw, constant_keywords_among): its "keywords" answer for
    every card, after every move of random games with all four Houses' decks, must gain and lose
    those keywords only, or skipping it would change the rules."""
    asked = set()

    def check(state, result):
        for src, gives in _declared(state, M.GIVES):
            for inst in state["g"]["cards"]:
                got = M.CONSTANT[M.code(src)](state, src, inst, "keywords") or {}
                named = set(got.get("gain", ())) | set(got.get("lose", ()))
                assert named <= gives, (src, inst, named - gives)
                asked.add(M.code(src))

    _random_games_of_every_house(check)
    assert len(asked) >= 12  # most of the declared cards came into play


def _nameable_by(codes):
    """The keywords the constant abilities of cards of `codes` can name (GIVES), a new set; None when
    one of them may name any."""
    named = set()
    for c in codes:
        if c in M.CONSTANT and "keywords" in M.ANSWERS.get(c, ("keywords",)):
            if c not in M.GIVES:
                return None
            named |= M.GIVES[c]
    return named


def test_keywords_the_constant_sources_in_play_can_name_are_kept_true():
    """model.nameable_in_play, kept with the constant sources in play (_kept_sources), is every keyword
    their abilities can name (constant_for gives=; None when one may name any): a keyword read that
    none of them can name asks no constant ability (constant_keywords_among), nor does a target's
    protection (abilities._shields). After every move of random games with all four Houses' decks it
    must equal that set worked out afresh from the cards in play, or a read would miss a keyword."""
    seen = set()

    def check(state, result):
        g = state["g"]
        fresh = _nameable_by([M.code(src) for src in M.find_constant_sources(g)])
        assert M.nameable_in_play(g) == (None if fresh is None else frozenset(fresh))
        seen.add(frozenset(fresh or ()))

    _random_games_of_every_house(check)
    assert len(seen) >= 4  # the set changed as sources came and went


# What constant_answers is asked about (and a `what` no card answers)
_CONSTANT_WHATS = ("str", "icons", "keywords", "influence", "income", "claim", "initiative", "no_stand",
                   "uncancelable", "event_tax", "toll:military", "nothing answers this")


def _random_games_with_deck_lists_repeated(check):
    """Random games, each pair of deck lists played twice: the second game of a pair starts from the
    answers the first one shared by card codes. `check(state, result)` after every move."""
    for seed, decks in ((3, ["stark", "lannister"]), (4, ["stark", "lannister"]),
                        (5, ["baratheon", "targaryen"]), (6, ["baratheon", "targaryen"])):
        play_one("lcg", {"players": 2, "decks": decks}, seed, "random", on_step=check)


def test_what_a_game_shares_by_card_codes_is_what_a_fresh_look_at_its_cards_finds():
    """model.constant_answers and model._fixed_keywords take the answer of an earlier game with the
    same card codes (_ANSWERS_BY_CODES, _FIXED_BY_CODES), and find_constant_sources reads whether a card
    has a constant ability from a set kept by instance (_IS_SOURCE). After every move of random games
    playing each pair of deck lists twice, each answer is what a fresh look at the game's cards finds:
    whether a card's constant ability can answer each `what`, the keywords printed on a card or
    nameable by a constant ability (None: one names any), the cards in play with a constant ability."""

    def check(state, result):
        g = state["g"]
        codes = {M.code(i) for i in g["cards"]}
        constant = [c for c in codes if c in M.CONSTANT]
        for what in _CONSTANT_WHATS:
            fresh = any(what in M.ANSWERS.get(c, (what,)) for c in constant)
            assert M.constant_answers(state, what) == fresh, what
        fixed = _nameable_by(constant)
        if fixed is not None:
            fixed |= {kw for i in g["cards"] for kw in M.info(state, i)["keywords"] or ()}
        assert M._fixed_keywords(state) == (None if fixed is None else frozenset(fixed))
        in_play = [i for p in g["players"] for i in p["play"] + ([p["revealed"]] if p["revealed"] else [])
                   if M.code(i) in M.CONSTANT]
        assert list(M.find_constant_sources(g)) == in_play, (g["round"], g["phase"])
        configs = games.setdefault(id(M._ANSWERS_BY_CODES[M.game_codes(state)]), [])
        if not any(c is state["config"] for c in configs):
            configs.append(state["config"])

    games = {}  # {id of a shared answers dict: the configs of the games that read it}
    _random_games_with_deck_lists_repeated(check)
    assert sorted(len(configs) for configs in games.values()) == [2, 2]  # each pair of games shared one


def test_the_cards_with_a_keyword_are_those_has_kw_finds():
    """model.with_kw asks has_kw only of the cards with the keyword printed when no constant ability of
    the game's cards can name it and no lasting effect gives it (a claim's Infamy cards): after every
    move of random games with all four Houses' decks, for each keyword and each seat's cards in play,
    it gives the cards has_kw says have it, in play order."""
    found = set()

    def check(state, result):
        for p in state["g"]["players"]:
            for kw in ("infamy", "stealth", "renown", "intimidate", "cannot_defend", "immune_events"):
                fresh = [i for i in p["play"] if M.has_kw(state, i, kw)]
                assert M.with_kw(state, p["play"], kw) == fresh, kw
                found.update((kw, M.code(i)) for i in fresh)

    _random_games_of_every_house(check)
    assert ("infamy", "L37") in found and len({kw for kw, c in found}) >= 4


def test_an_influence_cost_is_judged_as_the_whole_influence_would():
    """abilities.available_influence with `need` (payable's influence costs) stops counting once the
    total reaches it, which is only right while no card's influence takes away: after every move of
    random games with all four Houses' decks, for every seat and need, it must reach `need` exactly
    when the whole total does."""
    reached = set()

    def check(state, result):
        for seat in range(state["g"]["n"]):
            whole = A.available_influence(state, seat)
            for need in range(5):
                assert (A.available_influence(state, seat, need) >= need) == (whole >= need), (seat, need)
                reached.add(whole >= need)

    _random_games_of_every_house(check)
    assert reached == {True, False}


def test_has_kw_reads_one_keyword_as_keywords_would():
    """model.has_kw reads one keyword without building the card's keyword set: after every move of
    random games with all four Houses' decks, for every card and every keyword printed, gained or
    lost in them, it must answer as `kw in keywords()`, lasting effects and blanks included."""
    kws = {"stealth", "renown", "immune_events", "no_attachments", "insight", "intimidate", "limited"}
    seen = set()

    def check(state, result):
        g = state["g"]
        for e in g["effects"]:
            if e["kind"] in ("keyword", "lose_keyword"):
                kws.add(e["value"])
            seen.add(e["kind"])
        for inst in g["cards"]:
            have = M.keywords(state, inst)
            kws.update(have)
            for kw in kws:
                assert M.has_kw(state, inst, kw) == (kw in have), (inst, kw)
            # keywords_among: a few keywords at once (protections, Stalwart and Deathbound)
            assert set(M.keywords_among(state, inst, tuple(kws))) == have & kws, inst
            assert set(M.keywords_among(state, inst, A.PROTECTIONS)) == have & A.PROTECTIONS, inst

    # seed 1's Lannister/Baratheon game blanks a card with printed keywords
    for seed, decks in ((3, ["stark", "lannister"]), (5, ["baratheon", "targaryen"]),
                        (1, ["lannister", "baratheon"])):
        play_one("lcg", {"players": 2, "decks": decks}, seed, "random", on_step=check)
    assert {"keyword", "lose_keyword", "blank"} <= seen  # effects on keywords were in play


def test_has_icon_reads_one_icon_as_icons_would():
    """model.has_icon reads one challenge icon without building the character's icon set: after every
    move of random games with all four Houses' decks, for every character in play and every icon, it
    must answer as `icon in icons()`, lasting effects and constant abilities (Lady, ...) included."""
    seen = set()

    def check(state, result):
        g = state["g"]
        for e in g["effects"]:
            seen.add(e["kind"])
        for inst in M.characters(state):
            have = M.icons(state, inst)
            for icon in ("military", "intrigue", "power"):
                assert M.has_icon(state, inst, icon) == (icon in have), (inst, icon)

    for seed, decks in ((3, ["stark", "lannister"]), (5, ["baratheon", "targaryen"]),
                        (1, ["lannister", "baratheon"]), (2, ["stark", "targaryen"])):
        play_one("lcg", {"players": 2, "decks": decks}, seed, "random", on_step=check)
    assert "icon" in seen or "lose_icon" in seen  # effects on icons were in play


def _marshal_choices_card_by_card(state, seat):
    """flow.marshal_choices as each card of the hand asks it alone (how it read before issue 29)."""
    g = state["g"]
    p = g["players"][seat]
    out = []
    for inst in p["hand"]:
        rec = M.info(state, inst)
        if rec["type"] not in ("character", "location", "attachment") or not M.house_ok(state, seat, inst):
            continue
        if M.own_copy_in_play(state, seat, inst) is not None:
            out.append(["duplicate", inst])
            continue
        if M.gold_cost(state, seat, inst) > _spendable_by_scan(g, seat):
            continue
        if "limited" in (rec["keywords"] or ()) and p["limited_played"]:
            continue
        if rec["type"] == "attachment":
            out += [["attach", inst, h] for h in M.in_play(g) if M.attach_ok(state, seat, inst, h)]
        elif M.can_enter_play(state, seat, inst):
            out.append(["marshal", inst])
    return out


def test_marshal_choices_offer_what_each_card_asked_alone_would():
    """flow.marshal_choices works out what a hand shares once (its copies in play, its reducers, the
    names it may not play again, each host's keywords): after every move of random games, for every
    seat, it offers what asking each card alone offers, in the same order. Cards whose printed cost
    is over the gold, offered because a reduction brings them within it, were among them (the hand
    sums reductions only for those)."""
    offered = set()

    def check(state, result):
        for seat in range(state["g"]["n"]):
            choices = F.marshal_choices(state, seat)
            assert choices == _marshal_choices_card_by_card(state, seat), (seat, state["g"]["phase"])
            offered.update(c[0] for c in choices)
            gold = M.spendable_gold(state, seat)
            if any(c[0] != "duplicate" and M.printed_gold_cost(state, seat, c[1]) > gold for c in choices):
                offered.add("reduced")

    for seed, decks in ((5, ["stark", "lannister"]), (2, ["baratheon", "targaryen"])):
        play_one("lcg", {"players": 2, "decks": decks}, seed, "random", on_step=check)
    assert offered == {"duplicate", "attach", "marshal", "reduced"}  # each kind was on offer along the way
