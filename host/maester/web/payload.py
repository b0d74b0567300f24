"""What a page receives: one JSON document per viewer, built from `view(state, viewer)` alone.

Design principle 4: everything that leaves the engine passes through the view. A seat's payload is
its view, the lines of the log it may read (`filter_events`, worded by the game's text module from
that same view), the labels of its own open choices and the names of the cards its view mentions.
The table's payload is the public view, the LED strip drawn from it, and the public log. Nothing
here reads a secret that the view did not already hand to that viewer, and the leak tests compare
these payloads for states that differ only in what the viewer may not see.
"""

from .. import games
from ..engine import PUBLIC, cardtables, core
from ..games.text import about_card
from ..table import clocks
from . import blocks as B
from . import hints, leds

LOG_LINES = 80  # enough to follow a round; the whole log stays in the game's log file


class Words:
    """Names and log lines for one viewer, from the game's text module when it has one."""

    def __init__(self, state, view, viewer):
        self.state = state
        self.view = view
        self.viewer = viewer
        self.cards = cardtables.of_config(state["config"])
        self.info = self.cards.get("info") or {}
        self.text = games.part(state["game"], "text")  # None: a new game without words yet, generic lines stand in
        names = getattr(self.text, "Names", None)
        self.names = names(view, self.cards) if names is not None else None

    def card(self, x):
        if self.names is not None and "#" in x:
            return self.names.card(x)
        base, _, copy = x.partition("#")
        rec = self.info.get(base)
        if rec is None or "name" not in rec:
            return None
        return rec["name"] + (" %s" % copy if copy and copy != "1" else "")

    def seat(self, seat):
        if self.names is not None:
            return self.names.leader(seat)
        return "Seat %d" % seat

    def names_in(self, value, out=None):
        """{string: name} for every card id that `value` (a view) mentions, and only those."""
        out = {} if out is None else out
        if isinstance(value, str):
            if value not in out and ("#" in value or value in self.info):
                name = self.card(value)
                if name:
                    out[value] = name
        elif isinstance(value, dict):
            for v in value.values():
                self.names_in(v, out)
        elif isinstance(value, (list, tuple)):
            for v in value:
                self.names_in(v, out)
        return out

    def about(self, names):
        """{card id without its copy: {"name", "lines"}}: what a tap on a card's name shows (item 6 of
        issue 28), for the cards `names` holds (those the view mentions, and only those)."""
        out = {}
        for card in names:
            base = card.split("#", 1)[0]
            if base not in out:
                about = about_card(self.state["game"], card)
                if about is not None:
                    out[base] = about
        return out

    def event(self, e):
        describe = getattr(self.text, "describe_event", None)
        if describe is not None:
            # The view stands in for state["g"]: the words see no more than the viewer does.
            return describe(self.view, e, self.viewer, self.cards)
        fields = ", ".join("%s %s" % (k, self._word(v)) for k, v in e.items() if k not in ("e", "vis"))
        return "%s: %s" % (e["e"].replace("_", " "), fields) if fields else e["e"].replace("_", " ")

    def _word(self, v):
        if isinstance(v, str):
            return self.card(v) or v
        if isinstance(v, list):
            return "[%s]" % ", ".join(self._word(x) for x in v)
        return str(v)

    def choice(self, ask, choice):
        # The same words as the terminal's menu (play.Screen.ask_human), for the seat's own asks.
        describe = getattr(self.text, "describe_choice", None)
        if describe is None:
            describe = core.get_game(self.state["game"]).describe_choice
        return describe(self.state, ask, choice, self.viewer)


def log(words, events, viewer):
    """The last lines of the log that `viewer` may read; private ones are marked."""
    lines = []
    for e in reversed(events):  # from the newest: a long game's log is not worded again on every move
        if len(lines) == LOG_LINES:
            break
        if not core.visible(e, viewer):
            continue
        private = "vis" in e
        if private:
            e = {k: v for k, v in e.items() if k != "vis"}
        text = words.event(e)
        if text:
            lines.append({"text": text, "private": private})
    lines.reverse()
    return lines


def _common(state, view, words, viewer):
    game = core.get_game(state["game"])
    players = game.seat_count(state)
    names = words.names_in(view)
    return {
        "game": state["game"], "title": game.title or state["game"], "players": players,
        "seat_names": [words.seat(s) for s in range(players)], "view": view,
        "names": names, "about": words.about(names), "hints": hints.for_game(state["game"]),
        "waiting": waiting(view, words),
    }


def waiting(view, words):
    """Who the table waits for, in words: [{"seat", "name", "doing"}] (the asks' public side)."""
    out = []
    for a in view.get("asks", []):
        seat = a["seat"]
        name = "The table" if seat == core.TABLE else words.seat(seat)
        out.append({"seat": seat, "name": name, "doing": a.get("public") or ""})
    return out


def _web_module(game):
    """The game's page layout (games/<game>/web.py), or None: the generic renderer draws it."""
    return games.part(game, "web")


def layout(state, view, words, viewer):
    """The game's own page layout (web/blocks.py) for this viewer, or None: the generic renderer."""
    module = _web_module(state["game"])
    timed_out = clocks.out_of_time_words(view, words.seat)
    if timed_out:  # a game lost on time has none of the game's own end: the table as it stood, and why it ended
        view = dict(view, result=None, over=False)
    if viewer == PUBLIC:
        make = getattr(module, "table_blocks", None)
        made = make(view, words) if make is not None else None
    else:
        make = getattr(module, "seat_blocks", None)
        made = make(view, words, viewer) if make is not None else None
    if timed_out and made is not None:
        first = dict(B.text(timed_out, "good"), column=1)
        if isinstance(made, dict):
            made["about"] = [first] + list(made.get("about", []))
        else:
            made = [first] + list(made)
    return made


def _option(words, module, view, ask, choice):
    """A button: the choice, its words, and where it points when the game says so (a card to pick
    and a place to tap, e.g. the Intrigue court), so the page can offer a picture instead of a list."""
    out = {"label": words.choice(ask, choice), "choice": choice}
    mark = getattr(module, "option_mark", None)
    where = mark(view, ask, choice) if mark is not None else None
    if where:
        out.update(where)
    return out


def seat_payload(state, events, seat, pending=None, can_choose=True, notice=None):
    """Seat `seat`'s page. `pending`: the table runner's held tap for this seat, if any; `notice`:
    why its last tap was refused, naming its card (the host display says only "a card")."""
    view = core.view(state, seat)
    words = Words(state, view, seat)
    out = _common(state, view, words, seat)
    out.update(kind="seat", seat=seat, can_choose=bool(can_choose), log=log(words, events, seat), notice=notice)
    # Only this seat's own asks: their choices are in its view already; the labels word them.
    module = _web_module(state["game"])
    out["decisions"] = [{"ask": a["id"], "kind": a["kind"], "prompt": a.get("prompt", ""),
                         "options": [_option(words, module, view, a, c) for c in a["choices"]]}
                        for a in view["asks"] if a["seat"] == seat and "choices" in a]
    if can_choose:
        out["decisions"] += table_decisions(state, words)
    out["layout"] = layout(state, view, words, seat)
    out["pending"] = None
    if pending is not None and core.find_ask(state, pending["ask"]) is not None:
        out["pending"] = {"ask": pending["ask"], "card": pending["card"],
                          "card_name": words.card(pending["card"]) or pending["card"],
                          "labels": list(pending["labels"])}
    return out


def table_decisions(state, words):
    """What the table itself must say (the ally turned up from the deck), offered on every seat's
    page for a card that cannot be tapped (no sticker yet, `play --allow-missing`). The options come
    from the game's table module (`page_choices`): a fixed list, every such card of the game, so what
    a page offers does not depend on what has been tapped or taken face down."""
    hook = getattr(games.part(state["game"], "table"), "page_choices", None)
    if hook is None:
        return []
    return [{"ask": a["id"], "kind": a["kind"], "prompt": a.get("prompt", ""),
             "options": [{"label": words.choice(a, c), "choice": c} for c in hook(state, a)]}
            for a in state["asks"] if a["seat"] == core.TABLE]


def table_payload(state, events, clock_faces=None, hands=()):
    """The public table page: the public view, the LED strip as the table shows it, the public log.
    `clock_faces`: the seats' clocks (table/clocks.py), public: on the page, and a low seat's LEDs blink.
    `hands`: the bot-hands seats (table/bothands.py), lit as the runner lights them."""
    view = core.view(state, PUBLIC)
    if clock_faces is not None:
        view["clocks"] = clock_faces
    words = Words(state, view, PUBLIC)
    out = _common(state, view, words, PUBLIC)
    out.update(kind="table", log=log(words, events, PUBLIC),
               strip=leds.strip(state["game"], view, out["players"], words.seat, hands),
               layout=layout(state, view, words, PUBLIC))
    return out
