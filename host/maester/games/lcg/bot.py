"""An LCG bot that plays the Core Set's starter decks by their printed numbers.

It decides from its seat's view alone (the table, its own hand and plots, the challenge in
progress) and the public card table frozen into the game's config (`info`: the printed cost, STR,
icons and keywords of every card, and the titles). A character's STR is the one the view shows (every
modifier counted); icons and keywords are the printed ones with the lasting effects the view lists.
A card ability the bot cannot read counts for nothing.

What it does:
- plot: good income while its hand holds cards to marshal and early on, a high claim when it is
  ahead or has the stronger board, initiative a little;
- setup and marshalling: the most expensive cards it can afford, characters first, then locations
  (those with income first), then attachments on its strongest character; duplicates always (they
  cost nothing and save their card from a kill);
- challenges: each type against the opponent it beats by the most, only when its standing STR with
  that icon is at least the defender's standing STR with it (the attacker wins ties), declaring as
  few attackers as that takes so that others stay home to defend and count for dominance;
- defence: defends with as little as wins when the claim would hurt; when it cannot win it lets the
  challenge through, but spends its weakest character to deny an unopposed power late in the game
  or when its own challenges are over;
- claims: kills a character saved by a duplicate, else its least valuable one; saves with a
  duplicate or a save ability whenever it can; stands its Vigilant/Vengeful cards;
- titles: Master of Coin while gold is short, the +3 STR titles for the challenge types it is
  strong in, Crown Regent when ahead; redirects a challenge aimed at itself;
- windows: Ambush when it can; card abilities as judged below; otherwise it passes;
- influence: kneels what it needs least (cards that are not characters first, then the weakest).

**Card abilities are judged by simulating them.** The abilities are Python functions written card by
card (cards_<house>.py), so rather than keep a hint per card the bot tries them: given the state
(`choose(view, ask, state)`, as sim and play do; see bots.decide), it first draws a sample of it in
which everything its seat may not see is redrawn from public facts and its own seed
(sampling.determinise: the opponents' hands and decks dealt afresh, every deck's order, an opponent's
face-down plot, the chance generator), so it still decides from its own view only. On that sample it
applies each ability the ask offers (an action, a response, a cancel) to a copy, resolves it
(trying its own targets, at most MAX_TARGETS of the dearest on each side, and only the first ALIKE,
from both sides and unlike cards, when they score alike; paying influence with the cards it needs
least; opponents not cancelling), and scores the table with sampling.evaluate (power, cards in hand,
characters by cost and STR, standing STR while challenges are to come, gold before marshalling, and
the challenge under way projected by each side's STR). An ability is used when it beats the table
as it stands by MARGIN; so a -STR or kill effect lands on the opponent's character that matters
most, +STR on its own side when that turns a challenge, a stand on its strongest kneeling character
before challenges, a response that gains power, cards or gold is taken, and an event is not spent
for nothing (the card in hand counts). A target ask is answered the same way and a cancel is used
when letting the ability resolve scores worse. A marshal cost reducer is not simulated: its worth
comes after the simulation ends, so it would never beat passing (_cost_reducer). Nor is a window
judged that would show the evaluation a board already judged: one opened while a challenge's
declarations are under way (the challenge counts once both sides are declared, so only the board
would, as in the window just before; _declaring), or the window before a player's first challenge
right after another player ended its own (the board every seat has just passed on; _passed_on).
Saves (a duplicate, or a save ability) are always used for its own card. Without the state
(`choose(view, ask)`), it plays by the rules above and passes on abilities except responses and
saves.

Every answer is one of the ask's own choices; anything it has no rule for falls back to the random
bot's pick among them, so it never chooses an illegal move.
"""

from ...engine import core
from ...engine.bots import HeuristicBase
from . import abilities, effects, model
from .sampling import copy_state, determinise, evaluate, pending_declaration

TYPES = ("military", "intrigue", "power")


ABILITY_CHOICES = ("action", "respond", "cancel")  # choices of a window that use a card's ability
JUDGED = ("action", "response", "cancel", "target")  # asks whose ability choices are judged by simulation
MARGIN = 0.25  # an ability must beat passing by this much (in evaluate's units) to be used
MAX_TARGETS = 8  # targets tried when judging an ability (the first ones offered)
ALIKE = 3  # targets tried first (both sides, unlike cards): if all score the same, they stand for the rest


def _cost_reducer(inst, idx):
    """Whether ability `idx` of card `inst` is one of the Core's marshal cost reducers (the
    Fiefdoms, the seas, the halls: "kneel or discard it: the next card you play this phase costs
    less", registered by effects.marshal_reducer). Its worth is the card it makes cheaper, played
    after the ability has resolved, where _judge's simulation has already stopped: all it could
    show is the cost (a location knelt or discarded), which never beats passing. So it is not
    simulated at all: the same verdict without the sample, and these are most of what marshalling
    windows offer, again after every card marshalled."""
    found = abilities.ABILITIES.get(model.code(inst), ())
    effect = found[idx].effect if idx < len(found) else None
    return getattr(effect, "__qualname__", "").startswith(effects.marshal_reducer.__qualname__ + ".")


def _declaring(state):
    """Whether a challenge's declarations are under way (attackers declared, defenders not yet).
    evaluate counts a challenge only once both sides are declared, so an action window opened now
    would be judged on the board alone, as the window just before the challenge was (the attackers
    knelt since); the window after the defenders weighs the challenge itself. Such a window is
    left to the rules (Ambush, else pass) without a sample."""
    return state["g"]["challenge"] is not None and pending_declaration(state)


def _passed_on(state):
    """Whether this is the window before a player's first challenge that follows another player's
    challenges: that player ended them ("done") straight after a window that every seat passed on,
    so this window shows the same board to the same seats, and is passed again without a sample."""
    stack = state["stack"]
    if len(stack) < 2 or stack[-1].get("tag") != "before" or stack[-2].get("s") != "challenge_turn":
        return False
    g = state["g"]
    seat = stack[-2]["seat"]
    return seat != g["first"] and not g["players"][seat]["challenges_made"]


class HeuristicBot(HeuristicBase):
    uses_state = True  # given the state, it judges abilities on samples of it (see the docstring)

    def __init__(self, seed=0, seat=0, info=None, simulate=True):
        super().__init__(seed, seat, info)
        table = self.info or {}
        self.cards = table.get("cards", table)  # the card table, or already its cards
        self.titles = table.get("titles", {})
        self.now = {}
        self.simulate = simulate
        self._policy = {}
        self._entries_of, self._entries = None, {}  # entries() of the view last asked about

    # --- card facts -----------------------------------------------------------------------------

    def rec(self, inst):
        return self.cards.get(inst.split("#", 1)[0], {})

    def cost(self, inst):
        return self.rec(inst).get("cost") or 0

    def _effects(self, view, inst, kind):
        return [e["value"] for e in view.get("effects", ()) if e.get("target") == inst and e.get("kind") == kind]

    def strength(self, view, inst):
        now = self.now
        if now is None:
            # The STR the view shows of every character in play, read on first need: many asks
            # (windows, draws) are answered without looking at the table at all.
            now = self.now = {e["card"]: e.get("str") for p in view["seats"] for e in p["play"]}
        known = now.get(inst)
        if known is not None:
            return known  # the view's STR of a character in play, every modifier counted
        base = self.rec(inst).get("str") or 0
        return max(0, base + sum(self._effects(view, inst, "str")))

    def icons(self, view, inst):
        have = set(self.rec(inst).get("icons") or ())
        have |= set(self._effects(view, inst, "icon"))
        return have - set(self._effects(view, inst, "lose_icon"))

    def keywords(self, view, inst):
        have = set(self.rec(inst).get("keywords") or ())
        have |= set(self._effects(view, inst, "keyword"))
        return have - set(self._effects(view, inst, "lose_keyword"))

    def is_character(self, inst):
        return self.rec(inst).get("type") == "character"

    # --- the table as the view shows it ------------------------------------------------------------

    def entries(self, view, seat):
        """{inst: entry} of the characters `seat` controls in play (worked out once a view: the rules
        ask it of every choice they weigh)."""
        if self._entries_of is not view:
            self._entries_of, self._entries = view, {}
        known = self._entries.get(seat)
        if known is None:
            known = self._entries[seat] = {e["card"]: e for e in view["seats"][seat]["play"]
                                           if self.is_character(e["card"])}
        return known

    def standing(self, view, seat, ctype=None, exclude=()):
        return [i for i, e in self.entries(view, seat).items() if not e["kneel"] and i not in exclude
                and (ctype is None or ctype in self.icons(view, i))]

    def title_bonus(self, view, seat, ctype):
        if not view.get("melee"):
            return 0
        t = view["seats"][seat].get("title")
        b = (self.titles.get(t) or {}).get("effect", {}).get("str_bonus") if t else None
        return b["amount"] if b and b.get("challenge") == ctype else 0

    def side(self, view, cards, seat, ctype, bar=None):
        """A side's STR: its characters (those weaker than an Intimidate `bar` count 0), its title."""
        total = sum(s for s in (self.strength(view, i) for i in cards) if bar is None or s >= bar)
        return total + (self.title_bonus(view, seat, ctype) if cards else 0)

    def power(self, view, seat):
        return view["seats"][seat]["total_power"]

    def team_power(self, view, seat):
        for team in view.get("teams") or ():
            if seat in team:
                return sum(self.power(view, s) for s in team)
        return self.power(view, seat)

    def opponents(self, view):
        me = view["seat"]
        mate = self.partner(view)
        return [s for s in range(view["players"]) if s not in (me, mate)]

    def partner(self, view):
        for team in view.get("teams") or ():
            if view["seat"] in team:
                return [s for s in team if s != view["seat"]][0]
        return None

    def ahead(self, view):
        me = self.power(view, view["seat"])
        return all(me >= self.power(view, s) for s in self.opponents(view))

    def board(self, view, seat):
        return sum(self.strength(view, i) for i in self.entries(view, seat))

    def challenges_done(self, view):
        """Whether this seat's own challenges of the round are behind it (it came earlier in turn)."""
        n, first, me = view["players"], view["first"], view["seat"]
        ch = view.get("challenge")
        if ch is None:
            return False
        order = [(first + i) % n for i in range(n)]
        return order.index(me) < order.index(ch["attacker"])

    def value(self, view, inst):
        """How much a character of this seat is worth keeping (low: kill it first)."""
        e = self.entries(view, view["seat"]).get(inst, {})
        if e.get("duplicates"):
            return -10  # its duplicate saves it
        return self.cost(inst) + 2 * e.get("power", 0) + 0.5 * self.strength(view, inst) \
            + len(e.get("attachments", ())) + (1 if self.rec(inst).get("unique") else 0)

    # --- decisions ------------------------------------------------------------------------------

    def choose(self, view, ask, state=None):
        choices = ask["choices"]
        if len(choices) == 1:
            return choices[0]
        if state is not None and self.simulate and ask["kind"] in JUDGED \
                and (ask["kind"] == "target" or any(c[0] in ABILITY_CHOICES for c in choices)):
            pick = self._judge(ask, state)
            if pick is not None and pick in choices:
                return pick
            if ask["kind"] in ("response", "cancel") and ["pass"] in choices:
                return ["pass"]  # no ability beat passing
        self.now = None  # this view's STR of each character, read by strength() when first needed
        handler = getattr(self, "on_" + ask["kind"], None)
        choice = handler(view, ask) if handler is not None else None
        if choice is not None and choice in choices:
            return choice
        return super().choose(view, ask)

    # --- judging an ability by simulating it on a sample of the state ----------------------------

    def _judge(self, ask, state):
        """The ability choice of `ask` whose short simulation scores best, or None to leave the
        ask to the rules (passing included). Each ability choice is applied to a copy of one sample
        of the state (sampling.determinise: everything the seat may not see drawn afresh) and its
        resolution played out (the bot's own targets tried each in turn, at most MAX_TARGETS; costs
        paid by the rules; opponents never cancelling) until the ability has resolved; then
        sampling.evaluate scores the table. An ability is used only when it beats the table as it is
        (passing changes nothing) by MARGIN. A target ask (an ability already chosen) takes the best
        target; a cancel ask compares cancelling with letting the ability resolve."""
        me = ask["seat"]
        kind = ask["kind"]
        if kind == "target" or kind == "cancel":
            options = ask["choices"]
        elif kind == "action" and (_declaring(state) or _passed_on(state)):
            return None
        else:
            # A safety valve against a window held open for ever (two bots moving a card to and
            # fro with an ability that has no limit): the engine counts every use of such an
            # ability over the game (g["limits"], public), and the bot stops using one that has
            # been used more than twice a round on average.
            uses = state["g"]["limits"]
            cap = 2 + 2 * state["g"]["round"]
            options = [c for c in ask["choices"] if c[0] in ABILITY_CHOICES
                       and not (c[0] == "action" and (uses.get("%s/%d" % (c[1], c[2]), 0) >= cap
                                                      or _cost_reducer(c[1], c[2])))]
            if not options:
                return None  # nothing worth a sample
        det = determinise(state, me, self.seed * 1000003 + ask["id"])
        base = None if kind == "target" or kind == "cancel" else evaluate(det, me) + MARGIN
        best, score = None, base
        last = len(options) - 1
        for i, c in enumerate(options):
            s = det if i == last else copy_state(det)  # the sample itself serves the last choice
            anchor = s["stack"][-1] if s["stack"] else None
            uid = s["g"].get("uid", 0) + 1  # the ability step this choice starts (action, response)
            if not self._apply(s, me, ask["id"], c):
                continue
            watch = ("uid", uid) if c[0] in ABILITY_CHOICES and kind != "cancel" else ("step", anchor)
            v = self._finish(s, me, watch, 0)
            if c[0] == "pass":
                v += MARGIN  # a cancel must be worth its cost
            if score is None or v > score:
                best, score = c, v
        return best

    @staticmethod
    def _apply(s, seat, ask_id, choice):
        return core.apply(s, {"seat": seat, "ask": ask_id, "choice": choice}).ok

    @staticmethod
    def _pending(s, watch):
        how, what = watch
        if how == "uid":
            return any(x.get("uid") == what and x.get("s") == "ability" for x in s["stack"])
        return what is not None and any(x is what for x in s["stack"])

    def _finish(self, s, me, watch, depth, budget=40):
        for _ in range(budget):
            if s["over"] or not s["asks"] or not self._pending(s, watch):
                break
            ask = s["asks"][0]
            seat, choices = ask["seat"], ask["choices"]
            if seat == me and ask["kind"] == "target" and depth == 0 and len(choices) > 1:
                best = None
                idx = next((i for i, x in enumerate(s["stack"]) if x is watch[1]), None)
                targets, both = self._both_sides(s, me, self._some_targets(s, me, choices))
                scores = []
                for k, c in enumerate(targets):
                    # The last target is tried on `s` itself: a rejected choice leaves it as it
                    # was, for the evaluation below.
                    t = s if k == len(targets) - 1 else copy_state(s)
                    # the copy's own object for a watched step (a uid is the same in the copy)
                    w = watch if idx is None or t is s else ("step", t["stack"][idx])
                    if self._apply(t, me, ask["id"], c):
                        v = self._finish(t, me, w, 1, budget)
                        best = v if best is None else max(best, v)
                        scores.append(v)
                    if k + 1 == ALIKE and both and len(scores) == ALIKE and len(set(scores)) == 1 \
                            and len({self._facts(x) for x in targets[:ALIKE]}) > 1:
                        # The first targets, on both sides of the table and unlike in what the
                        # evaluation weighs of a card, score alike to the last decimal: what the
                        # ability does to its target shows nowhere in the evaluation (a keyword
                        # nothing counts, an effect that fizzles), so the other targets would
                        # score alike too. (A target ask answered by _judge itself still weighs
                        # every target it offers.)
                        break
                return evaluate(s, me) if best is None else best
            if len(choices) == 1:
                choice = choices[0]
            elif ask["kind"] == "cancel" or (ask["kind"] in ("action", "response") and ["pass"] in choices):
                choice = ["pass"]
            elif seat == me and ask["kind"] == "influence":
                choice = self._cheap_influence(s, ask)
            else:
                bot = self._policy.get(seat)
                if bot is None:
                    bot = self._policy[seat] = HeuristicBot(self.seed + 101 * seat, seat, self.info, simulate=False)
                choice = bot.choose(core.view(s, seat), ask)
            if not self._apply(s, seat, ask["id"], choice):
                break
        return evaluate(s, me)

    def _some_targets(self, s, me, choices):
        """At most MAX_TARGETS of a target ask's choices: the dearest and strongest cards on each
        side of the table (its own and the others'), half each."""
        if len(choices) <= MAX_TARGETS:
            return choices
        cards = s["g"]["cards"]

        def worth(c):
            rec = self.rec(c[1]) if len(c) > 1 and isinstance(c[1], str) else {}
            return -((rec.get("cost") or 0) + (rec.get("str") or 0)), str(c[1]) if len(c) > 1 else ""
        mine = sorted((c for c in choices if len(c) > 1 and isinstance(c[1], str) and c[1] in cards
                       and cards[c[1]]["ctrl"] == me), key=worth)
        others = sorted((c for c in choices if c not in mine), key=worth)
        half = MAX_TARGETS // 2
        take_mine = max(half, MAX_TARGETS - len(others))
        return mine[:take_mine] + others[:MAX_TARGETS - min(take_mine, len(mine))]

    def _facts(self, choice):
        """A target's printed cost and STR (what evaluate weighs of a card), None if it is no card."""
        if len(choice) < 2 or not isinstance(choice[1], str):
            return None
        rec = self.rec(choice[1])
        return rec.get("cost"), rec.get("str")

    @staticmethod
    def _both_sides(s, me, targets):
        """`targets` in turns from the others' side of the table and its own (each side in its
        order), so the first few tried cover both sides; and whether there are two sides (characters
        on both sides of the table, rather than, say, its own plots to choose among)."""
        cards = s["g"]["cards"]
        mine = [c for c in targets if len(c) > 1 and isinstance(c[1], str) and c[1] in cards
                and cards[c[1]]["ctrl"] == me]  # (a choice may be no card at all: ["none"])
        others = [c for c in targets if c not in mine]
        out = []
        for i in range(max(len(mine), len(others))):
            out += others[i:i + 1] + mine[i:i + 1]
        return out, bool(mine) and bool(others)

    def _cheap_influence(self, s, ask):
        """Influence paid from the state: a non-character first, else the cheapest character."""
        if ["title_influence"] in ask["choices"]:
            return ["title_influence"]
        return min(self._of(ask, "kneel_influence"),
                   key=lambda c: (self.is_character(c[1]), self.cost(c[1]), c[1]))

    @staticmethod
    def _of(ask, *kinds):
        return [c for c in ask["choices"] if c[0] in kinds]

    @staticmethod
    def _exit(ask):
        for word in ("done", "pass"):
            if [word] in ask["choices"]:
                return [word]
        return None

    # setup and marshalling

    def _card_score(self, view, choice):
        kind, inst = choice[0], choice[1]
        rec = self.rec(inst)
        if kind == "duplicate":
            return 1000 + (10 if rec.get("type") == "character" else 0)
        cost = self.cost(inst)
        if rec.get("type") == "character":
            return 300 + 10 * cost + (rec.get("str") or 0) + len(rec.get("icons") or ())
        if rec.get("type") == "location":
            early = view.get("round", 0) <= 3
            return 200 + 10 * cost + (40 if early else 10) * (rec.get("income") or 0) + 5 * (rec.get("influence") or 0)
        if kind == "attach":
            host = choice[2]
            mine = host in self.entries(view, view["seat"])
            hostile = any(r.get("attach_to") == "opponent_character" for r in rec.get("restrictions") or ())
            if mine == hostile:
                return None  # a helpful card on an enemy, or a harmful one on a friend
            return 100 + 10 * cost + self.strength(view, host)
        return None

    def _best_card(self, view, ask, kinds):
        best, score = None, None
        for c in self._of(ask, *kinds):
            s = self._card_score(view, c)
            if s is not None and (score is None or s > score):
                best, score = c, s
        return best

    def on_setup(self, view, ask):
        return self._best_card(view, ask, ("place",)) or self._exit(ask)

    def on_marshal(self, view, ask):
        pick = self._best_card(view, ask, ("duplicate", "marshal", "attach"))
        if pick is not None:
            return pick
        return self._of(ask, "ambush")[0] if self._of(ask, "ambush") else self._exit(ask)

    # the plot phase

    def on_plot(self, view, ask):
        me = view["seat"]
        hand = view["seats"][me].get("hand", [])
        gold_need = sum(self.cost(i) for i in hand if self.rec(i).get("type") in ("character", "location"))
        early = view["round"] <= 2
        w_income = 1.5 if early else (1.0 if gold_need >= 4 else 0.4)
        stronger = all(self.board(view, me) >= self.board(view, s) for s in self.opponents(view))
        w_claim = 1.2 if (self.ahead(view) or stronger) and not early else 0.5
        best, score = None, None
        for c in self._of(ask, "plot"):
            rec = self.rec(c[1])
            p = rec.get("plot") or {}
            s = w_income * (p.get("income") or 0) + w_claim * (p.get("claim") or 0) + 0.15 * (p.get("initiative") or 0)
            if rec.get("name") == "Valar Morghulis":
                s -= 3  # kills every character: kept for last
            if score is None or s > score:
                best, score = c, s
        return best

    def on_first_player(self, view, ask):
        return ["first", ask["seat"]]  # its own seat, from the ask: reading the view would build it all

    def on_title(self, view, ask):
        me = view["seat"]
        hand = view["seats"][me].get("hand", [])
        gold_need = sum(self.cost(i) for i in hand if self.rec(i).get("type") in ("character", "location"))
        mine = self.standing(view, me)
        strong = {t: sum(self.strength(view, i) for i in mine if t in self.icons(view, i)) for t in TYPES}
        best_type = max(TYPES, key=lambda t: strong[t])
        scores = {"master_of_coin": 1.0 + (2.0 if gold_need >= 5 or view["round"] <= 2 else 0.5),
                  "master_of_laws": 1.5, "hand_of_the_king": 0.6,
                  "crown_regent": 1.8 + (1.0 if self.ahead(view) else 0) + (0.8 if best_type == "power" else 0),
                  "lord_commander": 1.6 + (0.8 if best_type == "military" else 0),
                  "master_of_whispers": 1.5 + (0.8 if best_type == "intrigue" else 0)}
        return max(self._of(ask, "title"), key=lambda c: scores.get(c[1], 0))

    # challenges: attacking

    def _plan(self, view, ctype, opp, exclude=()):
        """(my attackers' STR, the defender's possible STR, the Intimidate bar) for a challenge now."""
        me = view["seat"]
        mine = self.standing(view, me, ctype, exclude)
        sneaks = sum(1 for i in mine if "stealth" in self.keywords(view, i))
        theirs = sorted((self.strength(view, i) for i in self.standing(view, opp, ctype)
                         if "stealth" not in self.keywords(view, i)), reverse=True)[sneaks:]
        theirs += [self.strength(view, i) for i in self.standing(view, opp, ctype) if "stealth" in self.keywords(view, i)]
        bars = [self.strength(view, i) for i in mine if "intimidate" in self.keywords(view, i)]
        bar = max(bars) if bars else None
        defence = sum(s for s in theirs if bar is None or s >= bar)
        if theirs:
            defence += self.title_bonus(view, opp, ctype)
        return self.side(view, mine, me, ctype), defence

    def claim(self, view, seat):
        plot = view["seats"][seat].get("revealed")
        return ((self.rec(plot).get("plot") or {}).get("claim") or 0) if plot else 1

    def _claim_worth(self, view, ctype, opp):
        claim = self.claim(view, view["seat"])
        if claim <= 0:
            return 0.1
        p = view["seats"][opp]
        if ctype == "military":
            return 2.0 * min(claim, len(self.entries(view, opp))) if self.entries(view, opp) else 0.2
        if ctype == "intrigue":
            return 1.0 * min(claim, p["hand_size"]) if p["hand_size"] else 0.2
        return 2.0 * min(claim, p["power"]) if p["power"] else 0.3

    def on_challenge(self, view, ask):
        best, score = None, 0.0
        me = view["seat"]
        for c in self._of(ask, "challenge"):
            _, ctype, opp = c
            atk, dfn = self._plan(view, ctype, opp)
            if atk < max(1, dfn):
                continue
            worth = self._claim_worth(view, ctype, opp)
            if dfn == 0:
                worth += 1.5  # unopposed: a power for the House
            worth += 0.8 * sum(1 for i in self.standing(view, me, ctype) if "renown" in self.keywords(view, i))
            worth += 0.3 * (atk - dfn > 2)
            worth += 0.2 * self.team_power(view, opp) / view["goal"]  # hold back the leader
            if worth > score:
                best, score = c, worth
        return best or self._exit(ask)

    def on_attackers(self, view, ask):
        ch = view["challenge"]
        me = view["seat"]
        free = [c[1] for c in self._of(ask, "attacker")]
        declared = list(ch["attackers"])
        _, need = self._plan(view, ch["type"], ch["defender"])
        have = self.side(view, declared, me, ch["type"])
        if declared and have >= max(1, need) + (1 if need else 0):
            return self._exit(ask)
        # Renown attackers earn a power on a win: send them along first when they are free.
        renown = [i for i in free if "renown" in self.keywords(view, i)]
        if renown and have < max(1, need) + 2:
            return ["attacker", max(renown, key=lambda i: self.strength(view, i))]
        if not free:
            return self._exit(ask)
        want = max(1, need) + (1 if need else 0) - have
        enough = [i for i in free if self.side(view, declared + [i], me, ch["type"]) - have >= want]
        if need == 0:
            # Unopposed: the cheapest attacker with STR is enough.
            pick = min(free, key=lambda i: (self.strength(view, i) == 0, self.cost(i), self.strength(view, i)))
        elif enough:
            pick = min(enough, key=lambda i: (self.strength(view, i), self.cost(i)))
        else:
            pick = max(free, key=lambda i: (self.strength(view, i), -self.cost(i)))
        return ["attacker", pick]

    def on_stealth(self, view, ask):
        ch = view["challenge"]
        opp = ch["target"]
        useful = [c for c in self._of(ask, "stealth")
                  if c[2] in self.standing(view, opp, ch["type"])]
        if not useful:
            return self._exit(ask)
        return max(useful, key=lambda c: self.strength(view, c[2]))

    def on_retarget(self, view, ask):
        ch = view["challenge"]
        return min(self._of(ask, "target"),
                   key=lambda c: (self._plan(view, ch["type"], c[1])[1], -self.power(view, c[1])))

    def on_redirect(self, view, ask):
        ch = view["challenge"]
        me = view["seat"]
        if ch["defender"] == me:
            return ["redirect"]  # the Crown Regent sends a challenge at itself elsewhere
        if view["seats"][me].get("title") == "lord_commander" and ch["type"] == "military":
            atk = self.side(view, ch["attackers"], ch["attacker"], "military")
            mine = self.side(view, self.standing(view, me, "military"), me, "military")
            if mine > atk:
                return ["redirect"]
        return ["pass"]

    # challenges: defending

    def on_defenders(self, view, ask):
        ch = view["challenge"]
        me = view["seat"]
        ctype = ch["type"]
        attackers = list(ch["attackers"])
        bars = [self.strength(view, i) for i in attackers if "intimidate" in self.keywords(view, i)]
        bar = max(bars) if bars else None
        atk = self.side(view, attackers, ch["attacker"], ctype)
        free = [c[1] for c in self._of(ask, "defender")]
        mine = [i for i in ch["defenders"] if i in self.entries(view, me)]
        have = self.side(view, mine, me, ctype, bar)
        if mine and have > atk:
            return ["done"]
        can = self.side(view, mine + free, me, ctype, bar)
        target = ch["target"]
        p = view["seats"][target]
        hurts = {"military": bool(self.entries(view, target)), "intrigue": p["hand_size"] > 0,
                 "power": p["power"] > 0}[ctype]
        renown = sum(1 for i in attackers if "renown" in self.keywords(view, i))
        useful = [i for i in free if bar is None or self.strength(view, i) >= bar]
        if can > atk and useful and (hurts or renown or self.challenges_done(view)):
            want = atk + 1 - have
            enough = [i for i in useful if self.side(view, mine + [i], me, ctype, bar) - have >= want]
            if enough:
                return ["defender", min(enough, key=lambda i: (self.strength(view, i), self.cost(i)))]
            return ["defender", max(useful, key=lambda i: self.strength(view, i))]
        if not mine and useful:
            late = self.team_power(view, ch["attacker"]) >= view["goal"] - 4
            if late or self.challenges_done(view):
                weakest = min(useful, key=lambda i: (self.strength(view, i) == 0, self.cost(i), self.strength(view, i)))
                if self.strength(view, weakest) > 0:
                    return ["defender", weakest]  # no unopposed power for them
        return ["done"]

    # claims, kills and saves

    def on_claim_kill(self, view, ask):
        return min(self._of(ask, "kill"), key=lambda c: (self.value(view, c[1]), c[1]))

    on_deadly = on_claim_kill

    def on_save(self, view, ask):
        target = (ask.get("data") or {}).get("card")
        me = view["seats"][view["seat"]]
        if target is not None and not any(e["card"] == target for e in me["play"] + me["attachments"]):
            return ["pass"]  # not this seat's card
        dups = self._of(ask, "dup")
        if dups:
            return dups[0]
        saves = self._of(ask, "save")
        return saves[0] if saves else ["pass"]

    def on_vigilant(self, view, ask):
        stand = self._of(ask, "stand")
        return stand[0] if stand else ["done"]

    on_vengeful = on_vigilant

    def on_infamy(self, view, ask):
        return ["house"]

    def on_order(self, view, ask):
        """Passive effects that start together: the others' first, its own side's last, so that its
        own act on the table the others leave (a draw after the discard, not before)."""
        mine = {view["seat"], self.partner(view)}
        return min(ask["choices"], key=lambda c: model.owner_of(c[1]) in mine)

    def on_winner(self, view, ask):
        for seat in (view["seat"], self.partner(view)):
            if ["winner", seat] in ask["choices"]:
                return ["winner", seat]
        return None

    def on_influence(self, view, ask):
        if ["title_influence"] in ask["choices"]:
            return ["title_influence"]
        # Kneel what is least needed: non-characters first, then the weakest character.
        return min(self._of(ask, "kneel_influence"),
                   key=lambda c: (self.is_character(c[1]), self.strength(view, c[1]), c[1]))

    # windows

    def on_action(self, view, ask):
        ambush = self._of(ask, "ambush")
        if ambush:
            return max(ambush, key=lambda c: self.cost(c[1]))
        return ["pass"]

    def on_response(self, view, ask):
        used = self._of(ask, "respond")
        return used[0] if used else ["pass"]

    def on_cancel(self, view, ask):
        return ["pass"]

    def on_draw(self, view, ask):
        return ask["choices"][0]
