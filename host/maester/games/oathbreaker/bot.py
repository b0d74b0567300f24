"""Oathbreaker bots that decide from their own seat's view and the public card data only.

The King reads the missions' history (who put how many cards where, what was revealed, what
failed) and what they saw privately (Well-Placed Spy, Confess!) to rate each noble's chance of
being a conspirator; decrees and the final guesses follow that rating. A noble plays for their
loyalty: a loyalist helps the missions, a conspirator sabotages them while sending some help to
look loyal, and each votes and hands out decrees (as Daenerys) by the same public rating.
Cubes are spent on an ability only when the noble's ambition does not need them.
"""

from ...engine.bots import HeuristicBase

RES = ("coin", "honor", "power")
TYPES = ("crown", "raven", "sword")


def card_effect(rec, mtype):
    """(matching, sabotage) of an influence card record at a mission type (as the rules count them)."""
    icons = rec["icons"]
    cond = rec.get("conditional")
    match = icons[mtype] + icons["any"] + (1 if cond == mtype else 0)
    sab = icons["sabotage"] + (1 if cond and cond != mtype else 0)
    return match, sab


class HeuristicBot(HeuristicBase):
    def __init__(self, seed=0, seat=0, info=None):
        super().__init__(seed, seat, info)
        self._net = {}

    # --- what the bot reads from its view ---------------------------------------------------

    def net(self, inst, mtype):
        key = (inst.split("#", 1)[0], mtype)
        value = self._net.get(key)
        if value is None:
            m, s = card_effect(self.info[key[0]], mtype)
            value = self._net[key] = m - s
        return value

    def suspicion(self, view, me=None):
        """A rating per noble: blame for sabotage at the missions they joined, less credit for help."""
        score = {s: 0.0 for s in view["nobles"]}
        for h in view["history"]:
            total = sum(h["counts"]) + h["extra"]
            if not total:
                continue
            mtype = h["type"]
            sab = sum(max(0, -self.net(c, mtype)) for c in h["revealed"])
            helped = sum(max(0, self.net(c, mtype)) for c in h["revealed"])
            for c in h["face_up"]:  # a face-up card is known to be Arya's; keep it out of the shares
                v = self.net(c, mtype)
                sab -= max(0, -v)
                helped -= max(0, v)
            for s, k in enumerate(h["counts"]):
                if k and s in score:
                    score[s] += (sab - 0.6 * helped) * k / total
                    if not h["success"] and s in h["sigils"]:
                        score[s] += 0.2
        for note in view.get("notes", ()):
            if note["what"] == "confess" and note["seat"] in score:
                score[note["seat"]] += 0.5 if self.net(note["card"], "crown") < 0 else -0.2
        if me is not None:
            score.pop(me, None)
        return score

    def conspirator_chance(self, view, me=None):
        score = self.suspicion(view, me)
        if not score:
            return {}
        mean = sum(score.values()) / len(score)
        prior = 0.55
        return {s: min(0.95, max(0.05, prior + 0.12 * (v - mean))) for s, v in score.items()}

    def loyal(self, view):
        return view.get("loyalty_mine") == "loyalist"

    def need(self, view):
        """Cubes the bot's ambition still wants, per resource."""
        amb = self.info.get((view.get("ambition_mine") or "").split("#", 1)[0], {})
        have = view["cubes"][view["seat"]] or {}
        return {r: max(0, amb.get(r, 0) - have.get(r, 0)) for r in RES}

    # --- decisions ----------------------------------------------------------------------------

    def choose(self, view, ask):
        handler = getattr(self, "on_" + ask["kind"], None)
        choice = handler(view, ask) if handler else None
        return choice if choice is not None and choice in ask["choices"] else super().choose(view, ask)

    def on_play(self, view, ask):
        plays = [c for c in ask["choices"] if c[0] == "play"]
        done = ["done"] in ask["choices"]
        ability = self.ability_choice(view, ask)
        if ability is not None:
            return ability
        if not plays:
            return ["done"]
        missions = view["missions"]
        rate = lambda c: self.net(c[1], missions[c[2]]["type"])  # noqa: E731
        played = sum(m["counts"][view["seat"]] for m in missions)
        if self.loyal(view):
            best = max(plays, key=lambda c: (rate(c), -missions[c[2]]["cards"]))
            return best if (rate(best) > 0 or not done) else ["done"]
        # A conspirator: one sabotage where it is hidden among others' cards, then some help.
        worst = min(plays, key=lambda c: (rate(c), -missions[c[2]]["cards"]))
        if rate(worst) < 0 and (played < 2 or self.below(ask, 3) == 0):
            return worst
        if done:
            return ["done"]
        return max(plays, key=lambda c: (rate(c), missions[c[2]]["cards"]))

    def ability_choice(self, view, ask):
        """Use the ability only with cubes the ambition does not need, and only known abilities."""
        pays = [c for c in ask["choices"] if c[0] == "ability"]
        if not pays:
            return None
        char = self.info.get(view["characters"][view["seat"]] or "", {})
        if char.get("ability") in (None, "manual"):
            return None
        need = self.need(view)
        have = view["cubes"][view["seat"]]
        for c in pays:
            if all(have[r] - k >= need[r] for r, k in zip(RES, c[1:])):
                if char["ability"] == "stannis" and self.loyal(view):
                    hand = view.get("hand", [])
                    if any(self.net(x, m["type"]) > 0 for x in hand for m in view["missions"]):
                        return None
                return c
        return None

    def on_ability(self, view, ask):
        return self.ability_choice(view, ask) or ["pass"]

    def on_sigil(self, view, ask):
        mine = {}
        for inst, i in view.get("my_plays", ()):
            mine[i] = mine.get(i, 0) + self.net(inst, view["missions"][i]["type"])
        return max(ask["choices"], key=lambda c: mine.get(c[1], 0))

    def on_arya(self, view, ask):
        return max(ask["choices"], key=lambda c: self.net(c[1], view["missions"][c[2]]["type"]))

    def on_cube(self, view, ask):
        need = self.need(view)
        return ["cube", max(RES, key=lambda r: need[r])]

    def hand_value(self, inst):
        return max(self.net(inst, t) for t in TYPES)

    def on_discard(self, view, ask):
        key = lambda c: self.hand_value(c[1])  # noqa: E731
        return (min if self.loyal(view) else max)(ask["choices"], key=key)

    on_confess = on_discard

    def on_melisandre_look(self, view, ask):
        return max(ask["choices"], key=lambda c: view["missions"][c[1]]["cards"])

    def on_melisandre_take(self, view, ask):
        key = lambda c: self.hand_value(c[1])  # noqa: E731
        return (max if self.loyal(view) else min)(ask["choices"], key=key)

    def on_vote(self, view, ask):
        card = (view["resolving"] or [None])[-1]
        favor = self.info.get((card or "").split("#", 1)[0], {}).get("decree") == "favor"
        p = self.conspirator_chance(view, view["seat"])
        want_conspirator = favor != self.loyal(view)  # a loyalist favours the loyal; a conspirator the reverse
        return max(ask["choices"], key=lambda c: p.get(c[1], 0.5) if want_conspirator else -p.get(c[1], 0.5))

    # --- monarchs, and Daenerys ------------------------------------------------------------------

    def decree_score(self, view, choice, p, for_order):
        rec = self.info.get(choice[1].split("#", 1)[0], {})
        if len(choice) < 3:
            return 0.3 if rec.get("decree") == "proclamation" else 0.0
        q = p.get(choice[2], 0.5)
        v = rec.get("value", 0)
        gain = v * (1 - 2 * q) if rec.get("decree") == "favor" else v * (2 * q - 1)
        return gain if for_order else -gain

    def on_decree(self, view, ask):
        seat = view["seat"]
        for_order = seat in view["monarchs"] or self.loyal(view)
        p = self.conspirator_chance(view, None if seat in view["monarchs"] else seat)
        return max(ask["choices"], key=lambda c: self.decree_score(view, c, p, for_order))

    def on_tie_break(self, view, ask):
        card = (view["resolving"] or [None])[-1]
        favor = self.info.get((card or "").split("#", 1)[0], {}).get("decree") == "favor"
        for_order = view["seat"] in view["monarchs"] or self.loyal(view)
        p = self.conspirator_chance(view, view["seat"])
        sign = -1 if favor == for_order else 1
        return max(ask["choices"], key=lambda c: sign * p.get(c[1], 0.5))

    def on_guess(self, view, ask):
        target = ask["data"]["target"]
        p = self.conspirator_chance(view)
        side = [s for s in view["nobles"] if view["judge"][s] == view["seat"]]
        # Expect as many conspirators as the loyalty cards make likely; name the most suspect ones.
        k = max(1, round(len(side) * 0.55))
        ranked = sorted(side, key=lambda s: (-p.get(s, 0.5), s))
        return ["conspirator"] if target in ranked[:k] else ["loyalist"]

    def on_trade_offer(self, view, ask):
        return ["no_trade"]

    def on_trade_accept(self, view, ask):
        return ["decline"]

    def on_manual(self, view, ask):
        return ["done"]

    def on_resolve(self, view, ask):
        return ask["choices"][0]
