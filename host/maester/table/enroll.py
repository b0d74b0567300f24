"""Enrolling: every card of a game tapped once (`maester enroll`, `maester tags write`), so the table knows
which sticker is which card.

Each binding maps a tag's UID to one physical copy of a card (`betrayal#2`, `leader:cersei`) and is
written at once, atomically, to $MAESTER_HOME/tags/<game>.json. Two ways to work:

* prompted (default): the command names the next card; tap it. Keys: Enter shows the prompt again,
  s skips the card, u undoes the last binding, l lists what is missing, q stops.
* --pick: tap any card, then say which it is (a number from the list, or part of its name).

A tag that is already bound to another card is refused. With --sim the command runs against the
simulated board; Enter (or `t`) lays a fresh simulated sticker for the prompted card on the
reader, and `t UID` lays the sticker with that UID.

With `--reader PATH`, PATH an nfcpy device path (usb, usb:072f:2200, tty:USB0:pn532, udp:HOST:PORT),
the taps come from an NFC reader at the desk (nfc/reader.py) and no board is needed; a sticker that
already carries a card's record (`maester tags write`) must be tapped for that card. Any other
--reader value names one of the board's readers, as in the table profile (seat0, deck): nfcpy paths
all start with usb, tty, com or udp, and no profile names a reader so.
"""

import queue
import sys
import threading
from collections import OrderedDict

from maester_fw import wire

from ..link import BoardLink
from ..link.simboard import start_simulated_board
from ..nfc import reader as nfcreader, record as tagrecord
from ..nfc.tags import sim_uid, tags_path
from . import hwconfig
from . import profile as profiles

TAP_TIMEOUT = 10.0
OK_RGB, REFUSED_RGB = (0, 255, 0), (255, 0, 0)
HELP = "keys: Enter = show the prompt again, s = skip this card, u = undo the last binding, l = list missing, q = quit"


# ---------------------------------------------------------------- the bookkeeping

class Enroller:
    """What is bound, what is missing, what comes next. No I/O: `save(tags)` persists."""

    def __init__(self, cards, tags, save, game="GAME"):
        self.game = game
        self.cards = cards
        self.by_id = {c.id: c for c in cards}
        self.tags = tags
        self.save = save
        bound = set(tags.values())
        self.queue = [c.id for c in cards if c.id not in bound]
        self.history = []

    @property
    def current(self):
        return self.queue[0] if self.queue else None

    def progress(self):
        return len(self.cards) - len(self.queue), len(self.cards)

    def name(self, card):
        c = self.by_id.get(card)
        return "%s (%s)" % (c.label, card) if c else "%s (not a card of the current data)" % card

    def bind(self, uid, card=None):
        """(True, message) when bound; (False, reason) when refused."""
        card = card or self.current
        if card is None:
            return False, "every card is bound already"
        owner = self.tags.get(uid)
        if owner == card:
            return False, "that tag is already bound to %s" % self.name(card)
        if owner is not None:
            return False, ("refused: tag %s is already bound to %s. Every card needs its own sticker: lift it "
                           "and tap %s. If you moved this sticker on purpose, `u` undoes the last binding, or "
                           "run `maester enroll %s --forget %s`."
                           % (uid, self.name(owner), self.by_id[card].label, self.game, owner))
        self.tags[uid] = card
        self.save(self.tags)
        self.history.append((uid, card))
        self.queue.remove(card)
        n, total = self.progress()
        return True, "bound %s -> %s  [%d of %d]" % (uid, self.name(card), n, total)

    def skip(self):
        if len(self.queue) > 1:
            self.queue.append(self.queue.pop(0))

    def undo(self):
        if not self.history:
            return "nothing to undo in this session"
        uid, card = self.history.pop()
        del self.tags[uid]
        self.save(self.tags)
        self.queue.insert(0, card)
        return "undone: tag %s is free again and %s is missing again" % (uid, self.name(card))

    def groups(self, text=""):
        """Missing cards by printed card: [(card id, label, missing instances)], filtered by `text`."""
        out = OrderedDict()
        for inst in self.queue:
            base = inst.split("#", 1)[0]
            out.setdefault(base, []).append(inst)
        text = text.lower()
        rows = []
        for base, insts in out.items():
            label = self.by_id[insts[0]].label.split(", copy ")[0]
            if text in label.lower() or text in base:
                rows.append((base, label, insts))
        return rows

    def missing_text(self, limit=40):
        lines = []
        group = None
        for inst in self.queue[:limit]:
            c = self.by_id[inst]
            if c.group != group:
                group = c.group
                lines.append("  %s" % group)
            lines.append("    %s" % self.name(inst))
        if len(self.queue) > limit:
            lines.append("  ... and %d more" % (len(self.queue) - limit))
        return "\n".join(lines) or "  none"


# ---------------------------------------------------------------- the session

def _game_profile(game, name, board_name=None):
    if name:
        return profiles.load(name)
    if board_name and (profiles.PROFILE_DIR / ("%s.json" % board_name)).exists():
        return profiles.load(board_name)
    found = sorted(profiles.PROFILE_DIR.glob("%s-*p.json" % game), key=lambda p: int(p.stem.rsplit("-", 1)[1][:-1]))
    if not found:
        raise ValueError("no table profile for %s in %s" % (game, profiles.PROFILE_DIR))
    return profiles.load(found[0].stem)


class Session:
    """One enrollment session: the board link, the keyboard, and the Enroller between them."""

    def __init__(self, args, enroller, out):
        self.args = args
        self.en = enroller
        self.out = out
        self.events = queue.Queue()
        self.deferred = []
        self.awaiting = None  # "removed"/"placed": a simulated tap is under way, keys wait for it
        self.sim_next = None
        self.sim_resting = {}
        self.pending_uid = None  # --pick: the tag waiting for its card
        self.shown = []  # --pick: the rows last listed
        self.board = None
        self.link = None
        self.desk = None  # the nfcpy reader at the desk, when --reader is a device path
        # tags write: writer(tap, card) puts the card's record on the tag before it is bound;
        # (True, note) when written and read back, (False, reason) when not
        self.writer = None
        self.bound_now = 0

    # -- setup ---------------------------------------------------------------------------

    def connect(self):
        if nfcreader.is_device_path(self.args.reader):
            return self.connect_desk()
        port = self.args.port
        if self.args.sim:
            self.profile = _game_profile(self.args.game, self.args.profile)
            self.board = start_simulated_board(config=hwconfig.sim_config(self.profile, self.args.board))
            port = self.board.port
        self.link = BoardLink(port, on_tap=lambda t: self.events.put(("tap", t)), refind=not self.args.sim)
        self.link.start()
        if not self.link.wait_connected(self.args.timeout):
            raise ValueError("no Maester board answered%s within %.0f s; run `maester doctor`"
                             % (" on %s" % port if port else "", self.args.timeout))
        if not self.args.sim:
            self.profile = _game_profile(self.args.game, self.args.profile, self.link.status.board)
        self.names = [r["name"] for r in self.profile["readers"]]
        count = self.link.status.reader_count
        if count != len(self.names):
            self.out("warning: the board has %d readers, profile %s names %d" % (count, self.profile["name"], len(self.names)))
        self.only = None
        if self.args.reader:
            if self.args.reader not in self.names:
                raise ValueError("no reader %r in profile %s (readers: %s)"
                                 % (self.args.reader, self.profile["name"], ", ".join(self.names)))
            self.only = self.names.index(self.args.reader)
        self.seg_ids = {s["name"]: i for i, s in enumerate(sorted(self.profile["segments"], key=lambda s: s["start"]))}

    def connect_desk(self):
        """The reader at the desk: one reader, no board, no profile, no LEDs."""
        if self.args.sim or self.args.port:
            raise ValueError("--reader %s is a reader at your desk; leave out --%s"
                             % (self.args.reader, "sim" if self.args.sim else "port"))
        self.desk = nfcreader.DeskReader(self.args.reader, on_tap=lambda t: self.events.put(("tap", t)),
                                         on_error=lambda m: self.events.put(("lost", m)))
        self.desk.start()
        self.profile = None
        self.names = [self.args.reader]
        self.only = None
        self.seg_ids = {}

    def keyboard(self):
        for line in sys.stdin:
            self.events.put(("key", line.strip()))
        self.events.put(("eof", None))

    # -- the loop ------------------------------------------------------------------------

    def run(self):
        try:
            self.connect()
            n, total = self.en.progress()
            if self.desk is not None:
                where = "the reader at %s" % self.args.reader
            else:
                where = "%s (profile %s)" % ("any reader" if self.only is None else "reader %s" % self.args.reader,
                                            self.profile["name"])
            self.out("%s %s on %s: %d of %d cards already bound"
                     % ("writing the stickers of" if self.writer else "enrolling", self.args.game, where, n, total))
            self.out(HELP + (", t [UID] = lay a simulated sticker" if self.args.sim else ""))
            threading.Thread(target=self.keyboard, daemon=True).start()
            self.prompt()
            while not self.finished():
                kind, value = self.next_event()
                if kind == "eof":
                    break
                if kind == "lost":
                    raise ValueError(value)
                if kind == "tap":
                    self.on_tap(value)
                elif self.on_key(value) == "quit":
                    break
        finally:
            if self.link is not None:
                self.link.close()
            if self.board is not None:
                self.board.stop()
            if self.desk is not None:
                self.desk.close()
        n, total = self.en.progress()
        self.out("%d of %d cards of %s bound, saved in %s" % (n, total, self.args.game, tags_path(self.args.game)))
        if self.en.queue:
            self.out("still missing %d:\n%s" % (len(self.en.queue), self.en.missing_text(limit=10)))
        return 0

    def finished(self):
        if self.awaiting or self.pending_uid:
            return False
        return not self.en.queue or (self.args.only is not None and self.bound_now >= self.args.only)

    def next_event(self):
        if not self.awaiting and self.deferred:
            return self.deferred.pop(0)
        while True:
            try:
                ev = self.events.get(timeout=TAP_TIMEOUT if self.awaiting else None)
            except queue.Empty:
                raise ValueError("the simulated board never reported the sticker laid on it") from None
            if self.awaiting and ev[0] != "tap":
                self.deferred.append(ev)
                continue
            return ev

    def prompt(self):
        if self.finished():
            return
        if self.args.pick:
            if self.pending_uid is None:
                self.out("tap any card (%d of %d bound)" % self.en.progress())
            return
        n, total = self.en.progress()
        self.out("[%d/%d] tap: %s" % (n + 1, total, self.en.name(self.en.current)))

    def on_tap(self, tap):
        if self.awaiting == "removed" and tap.kind == "removed":
            self.awaiting = None
            return self.lay_sim_sticker()
        if self.awaiting == "placed" and tap.kind == "placed":
            self.awaiting = None
        if tap.kind != "placed" or tap.from_snapshot:
            return
        reader = self.names[tap.reader] if tap.reader < len(self.names) else "reader %d" % tap.reader
        if self.only is not None and tap.reader != self.only:
            self.out("ignored: a tap on %s (enrolling on %s only)" % (reader, self.args.reader))
            return
        uid = tap.uid_hex
        if len(tap.uid) == 4:
            self.out("note: tag %s has a 4-byte UID, which is not guaranteed unique; NTAG21x stickers have 7" % uid)
        if self.desk is not None:
            return self.desk_tap(tap)
        if self.args.pick:
            return self.picked_tag(uid, tap.reader)
        ok, message = self.en.bind(uid)
        self.report(ok, message, tap.reader)
        self.prompt()

    def desk_tap(self, tap):
        """A tag on the desk reader: what its own record says decides before its UID is bound."""
        card, refusal = self.sticker_card(tap)
        if refusal:
            self.out("refused: %s" % refusal)
        elif self.args.pick and card is None:
            self.picked_tag(tap.uid_hex, tap.reader)
        else:
            card = card or self.en.current
            ok, message = self.write(tap, card) if self.writer else (True, None)
            if ok:
                written = message
                ok, message = self.en.bind(tap.uid_hex, card)
                if ok and written:  # "wrote the record of X and read it back; bound UID -> X"
                    message = "%s; %s" % (written, message)
            self.report(ok, message, tap.reader)
        self.prompt()

    def sticker_card(self, tap):
        """(card the sticker's record names or None, None) or (None, why it is refused)."""
        try:
            found = tagrecord.decode(tap.ndef)
        except tagrecord.RecordError as e:
            if self.writer:  # it is about to be overwritten (when --force allows it)
                return None, None
            self.out("note: this sticker's %s; it is bound by its UID" % str(e)[len("its "):])
            return None, None
        if found is None or self.writer:  # tags write decides itself what it may overwrite
            return None, None
        game, card = found
        if game != self.args.game:
            return None, ("this sticker carries a card of %s (%s). Use a sticker of its own, or rewrite this one "
                          "with `maester tags write %s CARD --force`" % (game, card, self.args.game))
        if card not in self.en.by_id:
            return None, "this sticker names %s, which is not a card of %s to enroll" % (card, game)
        if self.en.tags.get(tap.uid_hex) == card:
            return card, None  # bound already: Enroller.bind says so
        if card not in self.en.queue:
            return None, ("this sticker names %s, which another sticker is bound to (`maester enroll %s --forget %s` "
                          "frees it)" % (self.en.name(card), game, card))
        if not self.args.pick and card != self.en.current:
            return None, ("this sticker's record says it is %s, not %s. Put it on its own card, or rewrite it with "
                          "`maester tags write %s %s --force`" % (self.en.name(card), self.en.name(self.en.current),
                                                                   game, self.en.current))
        return card, None

    def write(self, tap, card):
        owner = self.en.tags.get(tap.uid_hex)
        if owner is not None and owner != card:  # refused before the sticker is touched
            return self.en.bind(tap.uid_hex, card)
        return self.writer(tap, card)

    def report(self, ok, message, reader):
        self.out(message)
        if ok:
            self.bound_now += 1
        seg = self.seg_ids.get(self.names[reader] if reader < len(self.names) else "", 0)
        if self.seg_ids:
            self.link.set_segment(seg, 255, OK_RGB if ok else REFUSED_RGB, wire.SOLID if ok else wire.BLINK,
                                  0 if ok else 200)

    def picked_tag(self, uid, reader):
        owner = self.en.tags.get(uid)
        if owner is not None:
            self.out("that tag is %s; tap another card" % self.en.name(owner))
            return
        self.pending_uid, self.pending_reader = uid, reader
        self.list_choices("")

    def list_choices(self, text):
        self.shown = self.en.groups(text)
        if len(self.shown) == 1:
            return self.choose(0)
        if not self.shown:
            self.out("no missing card matches %r; type part of its name" % text)
            return
        self.out("which card is tag %s? type its number or part of its name:" % self.pending_uid)
        for i, (base, label, insts) in enumerate(self.shown[:30], 1):
            self.out("  %2d  %s  (%d missing)" % (i, label, len(insts)))
        if len(self.shown) > 30:
            self.out("  ... %d more: type part of a name to narrow the list" % (len(self.shown) - 30))

    def choose(self, index):
        card = self.shown[index][2][0]
        ok, message = self.en.bind(self.pending_uid, card)
        self.report(ok, message, self.pending_reader)
        self.pending_uid = None
        self.prompt()

    def on_key(self, key):
        if self.pending_uid is not None and key not in ("q", "u", "l"):
            if key.isdigit() and 1 <= int(key) <= min(len(self.shown), 30):
                return self.choose(int(key) - 1)
            return self.list_choices(key)
        if key == "q":
            return "quit"
        if key == "s" and not self.args.pick:
            self.en.skip()
            self.out("skipped; it comes back at the end")
        elif key == "u":
            self.out(self.en.undo())
            self.pending_uid = None
        elif key == "l":
            self.out("missing %d:\n%s" % (len(self.en.queue), self.en.missing_text()))
        elif key in ("", "t") or key.startswith("t "):
            if self.args.sim:
                return self.sim_tap(key[2:].strip().lower() or self.fresh_sim_uid())
            if key.startswith("t"):
                self.out("`t` lays a simulated sticker; it works with --sim only")
        elif key in ("?", "h", "help"):
            self.out(HELP)
        else:
            self.out("unknown key %r; %s" % (key, HELP))
        self.prompt()

    def fresh_sim_uid(self):
        """The simulated sticker of the first missing card whose sticker is not bound yet."""
        for card in self.en.queue:
            if sim_uid(card) not in self.en.tags:
                return sim_uid(card)
        return sim_uid("spare-%d" % len(self.en.tags))

    def sim_tap(self, uid):
        """Lift the sticker lying on the simulated reader (wait for the board to see it go), then lay `uid`."""
        reader = self.only or 0
        self.sim_next = (reader, uid)
        if self.sim_resting.pop(reader, None):
            self.board.lift(reader)
            self.awaiting = "removed"
        else:
            self.lay_sim_sticker()

    def lay_sim_sticker(self):
        reader, uid = self.sim_next
        self.board.tap(reader, uid)
        self.sim_resting[reader] = uid
        self.awaiting = "placed"
