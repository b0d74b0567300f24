"""A game running on a table: taps from the board become commands, the public view drives the LEDs.

    tag uid ─► card ─┐
    reader ─► seat ──┴► taps.command_for_tap ─► Session.submit (logged, synced) ─► ack to the board
                                                    │
    LEDs ◄── link.set_segment ◄── game's segments(view(state, "public")) ◄──────────┘

A tap's LEDs go to the board as soon as the rules have applied its move, before the log writes
and syncs it; the board's tap is acked only after the sync (_light_now). A rejected tap flashes an
error on the seat's LEDs and its reason is reported to the host. The LEDs are drawn from the public
view alone, so no secret can reach the strip or the wire.

In a game whose table module sets CHOOSE_AFTER_TAP (Westeros Intrigue: a card may fit in several
places of the court), a tap that could mean several choices is not refused: it becomes the seat's
pending selection, and the seat picks one with `choose_pending` (a host prompt or seat page).

A reader may also be a zone of the table (Oathbreaker's mission places): a tap there answers
whichever seat's decision the game's table module says it fits (table/taps.py), and a tap that
waits for its position waits for that seat.
"""

import json
import threading

from .. import games
from ..engine import PUBLIC, cardtables, core
from ..nfc.record import card_from_record
from ..nfc.tags import sim_uid
from . import profile as P
from .lights import hands_lights
from .taps import asks_at, carried, command_for_tap, meanings

PATTERNS = {"off": 0, "solid": 1, "blink": 2, "pulse": 3}
ERROR_RGB = (255, 0, 0)
DEFAULT_READER_PINS = (17, 20, 21, 26, 27, 28, 14, 15, 13, 12)


def segment_ids(profile):
    """Wire id of each segment: its rank by first pixel (the firmware numbers them the same way)."""
    ordered = sorted(profile["segments"], key=lambda s: s["start"])
    return {s["name"]: i for i, s in enumerate(ordered)}


def board_config(profile, reader_type="mfrc522", pins=DEFAULT_READER_PINS, budget_ma=500):
    """The firmware config for a profile: readers in profile order, segments with their modes."""
    if len(profile["readers"]) > len(pins):
        raise ValueError("the profile has %d readers; give a chip-select pin for each" % len(profile["readers"]))
    return {
        "board": profile["name"],
        "readers": [{"type": reader_type, "cs": pin, "name": r["name"]}
                    for r, pin in zip(profile["readers"], pins)],
        "leds": {"pin": 22, "pixels": profile["pixels"], "budget_ma": budget_ma},
        "segments": {s["name"]: [s["start"], s["length"], bool(s.get("reversed")), s.get("mode", "fill")]
                     for s in profile["segments"]},
        "poll": {"interval_ms": 10},
        "watchdog_ms": 0,
    }


def sim_tags(state):
    """Stickers for every card of a game (and each leader card), for the simulated table."""
    cards = cardtables.table(state)
    insts = [i for key in ("ally_instances", "standard_instances", "event_instances", "leader_instances",
                           "characters", "influence_instances", "mission_instances", "decree_instances",
                           "throne_instances")
             for i in cards.get(key, [])]
    insts += ["leader:%s" % l for l in cards.get("leaders", [])]
    table = games.part(state["game"], "table")  # tokens a game tags besides its cards (Oathbreaker's House Sigils)
    insts += list(getattr(table, "extra_tags", lambda state: [])(state))
    return {sim_uid(c): c for c in insts}


class TableRunner:
    """Feeds taps to a Session and keeps the board's LEDs in step with the public view.

    `on_tap` is called on the link's thread; the link acks the tap only after it returns, and it
    returns only after the command reached the log, so an acknowledged tap is never lost.
    """

    def __init__(self, session, profile, tags, report=print, on_pending=None, foreign=None):
        self.session = session
        self.profile = profile
        self.tags = tags
        self.foreign = foreign or {}  # uid -> the other game whose card carries it (enrolled there)
        self.report = report
        # reader -> (boot id, board time) of its last removal, to catch two cards at once; the board's
        # clock starts again at each boot, so a time alone could match a removal before a reboot
        self.removed_at = {}
        # Told (place, card, labels) when a tap leaves a choice to make; by default it is reported.
        self.on_pending = on_pending
        self.on_private = None  # told (seat, text) of what only that seat may read: its refused card
        # seat → {"ask", "card", "choices"}: a tap waiting for its position, kept for the seat whose
        # decision it answers (the place tapped, except at a zone reader shared by several seats)
        self.pending = {}
        self.link = None
        # table/resting.py, beside the game log on a board: what each reader's card became, so a
        # resumed game knows which of the cards lying there it has taken (None: not kept)
        self.resting = None
        self.clocks = None  # the seats' clocks (table/clocks.py): public, drawn with the view
        self.putting_back = None  # table/undo.py's Undo while the cards an undo moved are put back
        self.seg_ids = segment_ids(profile)
        self.hands = None  # table/bothands.py: the seats a bot plays with cards a person taps
        self.shown = {}
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        game = session.state["game"]
        self.game_table = games.part(game, "table")

    def attach(self, link):
        self.link = link
        self.shown = {}
        self.refresh_leds()

    def on_tap(self, tap):
        if tap.kind != "placed":
            if tap.time_ms is not None:
                self.removed_at[tap.reader] = (tap.boot_id, tap.time_ms)
            self._rest(tap, None)
            return
        reader = self.profile["readers"][tap.reader]["name"] if tap.reader < len(self.profile["readers"]) else None
        card = self.tags.get(tap.uid_hex)
        problem = None
        if card is None:  # a sticker that names its own card (`maester tags write`), read by a host-side reader
            card, problem = self.card_from_record(getattr(tap, "ndef", None))
        with self.lock:
            putting_back = self.putting_back is not None and bool(self.putting_back.pending)
            if putting_back:
                self._put_back(tap, reader, card)
        if putting_back:
            return self.refresh_leds()
        with self.lock:
            place, command, reason = self._judge(tap, reader, card, problem)
            if command is None:
                if reason is not None:  # refused (else held for a position: _hold kept it so)
                    self._rest(tap)
                    self._refuse(place, reason)
                return
            try:
                result = self._submit_tap(command, place, card, tap)
            except BaseException:
                self._show(self._lights())  # the move's lights went out before the log failed it
                raise
            if not result.ok:
                self._rest(tap)
                return self._refuse(place, result.reason)
            self.changed.notify_all()
        self.refresh_leds()

    def _put_back(self, tap, reader, card):
        """After an undo, a tap is a card put back (table/undo.py): nothing is played until all are."""
        self._rest(tap)
        if card is None or not self.putting_back.confirm(card):  # an unknown sticker puts nothing back
            return self._refuse(P.reader_place(self.profile, reader) if reader else None,
                                "put the cards the undo moved back first (or confirm them at the host)")
        self.report("put back: %d card%s to go" % (len(self.putting_back.pending),
                                                   "" if len(self.putting_back.pending) == 1 else "s"))
        self.changed.notify_all()
        self.shown = {}  # redraw: the seats still waiting for a card stop blinking

    def _judge(self, tap, reader, card, problem):
        """(place, the command a placement makes, None), or (place, None, why it is refused), or
        (place, None, None) for a tap held until its seat picks a position. Called under the lock."""
        if reader is None:
            return None, None, "a tap on reader %d, which the table profile does not know" % tap.reader
        place = P.reader_place(self.profile, reader)
        if tap.time_ms is not None and self.removed_at.get(tap.reader) == (tap.boot_id, tap.time_ms):
            # One card gone and another there in the same poll (the firmware stamps a TAP with the
            # time its poll found it, PROTOCOL.md): no hand is that fast, so the reader sees two
            # cards (the firmware's anticollision picked the other one).
            return place, None, "two cards on %s: take one off, then tap again" % reader
        if card is None:
            if problem is not None:
                return place, None, "%s on %s: %s" % (problem[0], reader, problem[1])
            other = self.foreign.get(tap.uid_hex)
            if other:
                return place, None, "a card of %s on %s: it is not part of this game" % (other, reader)
            return place, None, ("an unknown sticker (%s) on %s: enroll it with `maester enroll %s`"
                                 % (tap.uid_hex, reader, self.session.state["game"]))
        self.pending.pop(place, None)  # a new tap replaces an earlier one still waiting
        if self.hands is not None:  # a bot-hands seat takes the tap its bot chose, and no other
            judged = self.hands.judge_tap(self.session.state, place, card)
            if judged is not None:
                return place, judged[0], judged[1]
        command, reason = command_for_tap(self.session.state, place, card)
        if command is None:
            if self._hold(place, card, tap):
                return place, None, None
            self._tell(place, card, reader, reason)
            return place, None, "%s on %s: %s" % (self.tap_words(card, place), reader, reason)
        return place, command, None

    def _rest(self, tap, move=None):
        """Keep what `tap`'s card became (`move`: a command about to be logged, "held", or None)."""
        if self.resting is None or tap is None or tap.reader >= len(self.profile["readers"]):
            return
        if isinstance(move, dict):
            log = self.session.log  # the log's row number: after an undo it runs ahead of the state's moves
            row = log.next_seq() if log is not None else self.session.state["seq"] + 1
            move = [row, {k: move[k] for k in ("seat", "ask", "choice")}]
        placed = tap.kind == "placed"
        self.resting.set(tap.reader, tap.uid if placed else None, move,
                         [tap.boot_id, tap.time_ms] if placed and tap.time_ms is not None else None)

    def card_from_record(self, ndef):
        """(card, None), (None, (what, why)) or (None, None) for a tag's NDEF message (nfc/record.py).

        The board's firmware reads UIDs only, so its taps carry no NDEF and this is (None, None).
        """
        if ndef is None:
            return None, None
        known = set(sim_tags(self.session.state).values())  # every card instance of this game's setup
        return card_from_record(self.session.state["game"], ndef, known, set(self.tags.values()))

    def submit(self, command):
        """A choice made off the table (a seat page, the host prompt), logged the same way."""
        with self.lock:
            result = self.session.submit(command)
            if result.ok:
                self.pending.pop(command.get("seat"), None)
                for seat, held in list(self.pending.items()):  # a waiting tap whose decision closed
                    if core.find_ask(self.session.state, held["ask"]) is None:
                        del self.pending[seat]
            self.changed.notify_all()
        if result.ok:
            self.refresh_leds()
        return result

    def _submit_tap(self, command, place, card, tap):
        """Submit a tap's command, then what the same tap goes on to say (taps.carried: a game's
        tap that both chooses and moves a card). Once the rules have applied a command, its lights
        go out, then what the tap's card became is kept (_rest), both before the log's write and
        sync: a kill after the rest cannot lose the move or play it twice. Called under the lock."""
        kind = core.find_ask(self.session.state, command["ask"])["kind"]
        follows = []

        def applied():
            follows.append(carried(self.session.state, kind, command["seat"], place, card))
            if not follows[0]:
                self._light_now()  # else the lights wait for the move the tap goes on to make
            self._rest(tap, command)
        result = self.session.submit(command, applied)
        follow = result.ok and follows[0]
        if follow:
            def follow_applied():
                self._light_now()
                self._rest(tap, follow)
            self.session.submit(follow, follow_applied)
        return result

    def _light_now(self):
        """Put the lights of the move just applied on the wire now, before its log write and sync
        (Session.submit's `applied`), when called on the link's own thread (a tap); elsewhere the
        link's thread sends them at its next turn. The tap is acknowledged only after the sync, so
        a host that dies in between loses no move: the board sends the tap again (or, when the board
        went down too, the card lying there is a new tap, table/resting.py), and the move the
        light showed is made. So a tap's light waits neither for the log's sync nor for the file of
        the resting cards (issue 29). Called under the lock."""
        if self.link is None:
            return
        self._show(self._lights())
        send = getattr(self.link, "send_leds_now", None)
        if send is not None:
            send()

    def _hold(self, place, card, tap=None):
        """Keep a tap that fits several choices as the deciding seat's pending selection. Called under the lock."""
        if not getattr(self.game_table, "CHOOSE_AFTER_TAP", False):
            return False
        state = self.session.state
        for ask in asks_at(state, place):
            found = meanings(state, ask, card, place)
            if len(found) > 1:
                self.pending[ask["seat"]] = {"ask": ask["id"], "card": card, "choices": found, "tap": tap, "place": place}
                if tap is not None:
                    self._rest(tap, "held")
                labels = [self.choice_words(ask, c) for c in found]
                if self.on_pending is not None:  # a private channel: the seat's page or prompt
                    self.on_pending(ask["seat"], card, labels)
                else:
                    # The host display is public: the card, and the places it fits (which tell its
                    # house), belong to the seat alone until it is placed.
                    self.report("%s: the tapped card fits in %d places; choose one privately"
                                % ("seat %s" % place if isinstance(place, int) else place, len(labels)))
                self.changed.notify_all()
                return True
            if found:
                return False
        return False

    def choose_pending(self, seat, index):
        """Submit choice `index` (0 for the first listed) of `seat`'s pending selection.

        Returns core.Applied or core.Rejected. A selection whose decision has closed meanwhile is
        stale: it is dropped and the seat must tap again.
        """
        with self.lock:
            held = self.pending.pop(seat, None)
            if held is None:
                return core.Rejected("no tapped card is waiting for a position here")
            ask = core.find_ask(self.session.state, held["ask"])
            if ask is None:
                return core.Rejected("stale: the decision that tap answered is closed; tap the card again")
            if not 0 <= index < len(held["choices"]):
                self.pending[seat] = held  # a slip of the finger: keep it, so the seat can pick again
                return core.Rejected("choose a position from 1 to %d" % len(held["choices"]))
            command = {"seat": seat, "ask": held["ask"], "choice": held["choices"][index]}
            result = self._submit_tap(command, held.get("place"), held["card"], held.get("tap"))
            self.changed.notify_all()
        if result.ok:
            self.refresh_leds()
        return result

    def wait_pending(self, seat, card, timeout):
        """Wait until a tap of `card` is waiting for `seat` to pick its position."""
        with self.lock:
            return self.changed.wait_for(lambda: self.pending.get(seat, {}).get("card") == card, timeout)

    def choice_words(self, ask, choice):
        words = getattr(self.game_table, "choice_words", None)
        if words is not None:
            return words(self.session.state, choice)
        return core.get_game(self.session.state["game"]).describe_choice(self.session.state, ask, choice, ask["seat"])

    def card_words(self, card):
        words = getattr(self.game_table, "card_words", None)
        return words(self.session.state, card) if words is not None else self.describe(card)

    def tap_words(self, card, place, viewer=PUBLIC):
        """The tapped card as `viewer` may be told of it (design principle 4): its name when the
        viewer's own view shows every card the tap may stand for (a card face up, a seat's own
        hand), else "a card". A tag that is no card (Oathbreaker's House Sigils) has the game's words.

        A game's table module may say which of its cards a tap at `place` stands for (`tapped_as`:
        an LCG sticker names a code, and which seat's copy it is depends on the reader); by default
        the tag names the game's card itself."""
        state = self.session.state
        words = getattr(self.game_table, "token_words", None)
        words = words(state, card) if words is not None else None
        if words is not None:
            return words
        tapped_as = getattr(self.game_table, "tapped_as", None)
        cards = tapped_as(state, card, place) if tapped_as is not None else [card]
        if cards:
            shown = json.dumps(core.view(state, viewer))
            if all(json.dumps(c) in shown for c in cards):
                return self.card_words(card)
        return "a card"

    def _tell(self, place, card, reader, reason):
        """Say why `card` was refused to the seat at `place` only (its page), when there is such a
        channel, naming the card if that seat may see it."""
        if self.on_private is not None and isinstance(place, int):
            self.on_private(place, "%s on %s: %s" % (self.tap_words(card, place, place), reader, reason))

    def describe(self, card):
        info = cardtables.table(self.session.state).get("info", {})
        rec = info.get(card.split("#", 1)[0])
        return rec["name"] if rec else card

    def _refuse(self, place, reason):
        self.report("refused: %s" % reason)
        if self.link is not None and isinstance(place, int) and ("seat%d" % place) in self.seg_ids:
            seg = self.seg_ids["seat%d" % place]
            self.link.set_segment(seg, 255, ERROR_RGB, PATTERNS["blink"], 150)
            self.shown.pop(seg, None)  # the next refresh puts the seat's normal state back

    def refresh_leds(self):
        if self.link is None:
            return
        with self.lock:
            wanted = self._lights()
        self._show(wanted)

    def _lights(self):
        """{segment name: (level, rgb, pattern, period)} of the public view now. Called under the lock."""
        view = self.session.view(PUBLIC)
        if self.clocks is not None:
            view["clocks"] = self.clocks.public()  # public too: a low seat's segment blinks
        wanted = self.game_table.segments(view)
        if self.hands is not None:
            wanted = hands_lights(view, wanted, self.hands.seats)
        if self.putting_back is not None:
            wanted = self.putting_back.leds(wanted)
        return wanted

    def _show(self, wanted):
        """Send the link the segments of `wanted` that differ from those shown."""
        if self.link is None:
            return
        for name, (level, rgb, pattern, period) in wanted.items():
            seg = self.seg_ids.get(name)
            if seg is None:
                continue
            value = (level, tuple(rgb), PATTERNS[pattern], period)
            if self.shown.get(seg) != value:
                self.link.set_segment(seg, *value)
                self.shown[seg] = value

    def wait_for(self, predicate, timeout):
        with self.lock:
            return self.changed.wait_for(lambda: predicate(self.session.state), timeout)
