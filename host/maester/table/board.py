"""A game on a table board: the port opened by name, the board checked, taps through the runner.

    board = connect(port, profile, report)      # BoardError (exit 2) if it is not the right board
    table = BoardTable(board, session, tags)     # from now on taps are moves and the LEDs follow
    ...
    table.close()

The same code serves a real board (/dev/ttyACM0, found by its USB id) and a `maester sim-board`
process (/dev/pts/N): the host cannot tell them apart, which is the point (design principle 12).

Before a game starts, `connect` makes sure the board is one this host can play on: it answers
the protocol this host speaks, runs the firmware this host ships, and holds the config that
`maester firmware flash` writes for the chosen table profile. Each mismatch is a BoardError
whose message says what differs and the command that fixes it; nothing has been written then.

During the game the board may be unplugged or reboot: the link reconnects by itself, restores
the LEDs and reconciles the readers from the board's snapshot (link/serial_link.py); this module
only tells the people at the table ("board lost, waiting for it…", "board back").
"""

import threading

from maester_fw import wire
from maester_fw.app import FIRMWARE

from ..link import BoardLink, find_boards
from ..link.serial_link import PLACED, REMOVED, UNKNOWN_STATES, ReaderHealth, Tap, health_text, port_holder
from .hwconfig import BOARDS, config_bytes
from .resting import RestingCards
from .runner import TableRunner

CONNECT_TIMEOUT = 10.0


class BoardError(ValueError):
    """The board cannot be played on as it is; the message says why and what to run."""


def find_port(port=None):
    """The port to open: the one given, else the first board found by its USB id."""
    if port:
        return port
    boards = find_boards()
    if not boards:
        raise BoardError("no board found (looked for a Raspberry Pi Pico or an ESP32-S3 running MicroPython on "
                         "USB). Plug it in, or name its port with --port (`maester doctor` shows what is there); to play without a "
                         "board, add --sim.")
    return boards[0].device


def _expected_configs(profile):
    """{build: (length, crc)} of the config `maester firmware flash` writes for `profile`."""
    out = {}
    for build in BOARDS:
        try:
            raw = config_bytes(profile, build)
        except (ValueError, KeyError):
            continue  # the profile does not fit that build's pin map
        out[build] = (len(raw), wire.crc16(raw))
    return out


def fit_problem(status, profile, port):
    """None when the board's stored config is the one flashed for `profile`; else what differs."""
    want = _expected_configs(profile)
    if (status.config_len, status.config_crc) in want.values():
        return None
    fix = ("Rewrite the board's config: maester firmware flash --port %s --profile %s --board %s"
           % (port, profile["name"], "|".join(want) or "pico"))
    readers, pixels = len(profile["readers"]), profile["pixels"]
    if not status.config_len:
        what = "the board holds no table config (it runs on its built-in defaults)"
    elif status.board != profile["name"]:
        what = ("the board is set up for table profile %r (%d readers, %d LEDs); this game wants %r (%d readers, "
                "%d LEDs)" % (status.board, status.reader_count, status.pixels, profile["name"], readers, pixels))
        if status.board.split("-")[0] == profile["game"]:  # another table of this game: it plays as it is
            fix += ", or play on the board as it is with --profile %s" % status.board
    else:
        what = ("the board's config for %r is not the one this host writes for that profile (%d readers, %d LEDs "
                "on the board; %d readers, %d LEDs here): the profile or the host changed since it was flashed"
                % (status.board, status.reader_count, status.pixels, readers, pixels))
    return "%s. %s" % (what, fix)


class Board:
    """A connected, checked board: the link, and what it said about itself."""

    def __init__(self, link, port, profile):
        self.link = link
        self.port = port
        self.profile = profile
        self.on_tap = None  # set by BoardTable (`attach`)
        # Until then what the board says is kept in order: ("tap", Tap) and ("snapshot", {reader: uid
        # or None}). A new game takes it as the cards lying there before the game; a resumed one
        # compares it with the cards it had taken (table/resting.py), so a card laid while the host
        # was down is a move and one played before the kill is not played again.
        self.early = []
        self.lock = threading.Lock()
        self.lost = None  # the notice of a lost board (connect): silenced when the host itself closes the link

    def _tap(self, tap):
        with self.lock:
            if self.on_tap is None:
                if not tap.from_snapshot:  # the link's reconciliation is redone from the snapshot
                    self.early.append(("tap", tap))
                return
        self.on_tap(tap)

    def _snapshot(self, snap):
        with self.lock:
            if self.on_tap is None:
                self.early.append(("snapshot", snap))

    def attach(self, on_tap, known=None, taken=()):
        """From now on taps go to `on_tap`. `known` ({reader: uid or None}, a resumed game's): the
        cards the game has taken, `taken` the (reader, boot id, board time) of their placements;
        what the board said meanwhile goes to `on_tap` first, in order, but for what the game
        already has. Returns the readers as they are now ({reader: uid or None})."""
        with self.lock:  # the link's thread waits here: no tap slips between the replay and on_tap
            seen = dict(known or {})
            for kind, item in self.early:
                if kind == "tap":
                    # A tap the killed host had taken but not acked comes again: the game has it
                    # (the same placement, or the removal of a card no longer there for it). The
                    # same card laid again is a new placement: a move.
                    if item.kind == PLACED:
                        news = (item.reader, item.boot_id, item.time_ms) not in taken
                    else:
                        news = seen.get(item.reader) == item.uid
                    if known is not None and news:
                        on_tap(item)
                    seen[item.reader] = item.uid if item.kind == PLACED else None
                    continue
                for r in item.readers:
                    if r.state in UNKNOWN_STATES:
                        continue  # it cannot tell: keep what we believed (as the link does)
                    now = bytes(r.uid) if r.state == "present" else None
                    old = seen.get(r.reader)
                    if now == old:
                        continue
                    if known is not None:
                        if old is not None:
                            on_tap(Tap(r.reader, REMOVED, old, item.boot_id, None, True))
                        if now is not None:
                            on_tap(Tap(r.reader, PLACED, now, item.boot_id, None, True))
                    seen[r.reader] = now
            self.early = []
            self.on_tap = on_tap
            self.link.believe(seen)  # a reader the snapshot could not tell about has the game's word
            return seen

    def close(self):
        if self.lost is not None:
            self.lost.armed = False  # the host lets go of the board (the game ended, Ctrl-C): nothing was lost
        self.link.close()


def connect(port, profile, report=print, timeout=CONNECT_TIMEOUT, **link_options):
    """Open `port` (a path, or None to find a board), check the board; returns a Board.

    Raises BoardError with the reason and the fix: no answer, another protocol or firmware
    version, or a config that is not the profile's.
    """
    port = find_port(port)
    incompatible = []
    lost = _LostNotice(report, [r["name"] for r in profile["readers"]])

    def on_status(event):
        if event.kind == "incompatible":
            incompatible.append(event.message)
        lost(event)

    board = None
    link = BoardLink(port, lambda tap: board._tap(tap) if board is not None else None,
                     on_snapshot=lambda snap: board._snapshot(snap) if board is not None else None,
                     on_status=on_status, refind=True, **link_options)
    board = Board(link, port, profile)
    board.lost = lost
    link.start()
    try:
        if not link.wait_connected(timeout):
            if incompatible:
                raise BoardError("%s. Flash this host's firmware: maester firmware flash --port %s --profile %s"
                                 % (incompatible[0], port, profile["name"]))
            st = link.status
            holder = port_holder(port) if st.last_error and "lock" in st.last_error else None
            if holder:  # a game not stopped, a host still closing, mpremote, a serial monitor...
                raise BoardError("%s is in use by another program, %s: stop it (or wait for it to end) and run "
                                 "this again" % (port, holder))
            raise BoardError("no Maester board answered on %s within %.0f s%s. Check it with: maester doctor --port %s"
                             % (port, timeout, " (%s)" % st.last_error if st.last_error else "", port))
        st = link.status
        if st.firmware != FIRMWARE:
            raise BoardError("the board runs %r and this host ships %r. Flash it: maester firmware flash --port %s "
                             "--profile %s" % (st.firmware, FIRMWARE, port, profile["name"]))
        problem = fit_problem(st, profile, port)
        if problem:
            raise BoardError(problem)
    except BaseException:
        link.close()
        raise
    lost.armed = True  # from now on a drop is news for the people at the table
    return board


class _LostNotice:
    """Says once when the board goes away and once when it is back (LEDs restored by the link),
    and when a reader's health changes: two cards on it, reset, not answering, reading again."""

    def __init__(self, report, names=()):
        self.report = report
        self.names = list(names)
        self.armed = False
        self.lost = False
        self.listeners = []  # told True when the board goes, False when it is back (the clocks stop meanwhile)

    def __call__(self, event):
        if not self.armed:
            return
        if event.kind == "reader":
            d = event.data
            name = self.names[d["reader"]] if d["reader"] < len(self.names) else None
            if d["health"] != "ok":
                self.report(health_text(ReaderHealth(d["reader"], d["health"], d["detail"]), name, self.names))
            elif d["was"] == "crowded":
                self.report("reader %s: one card again" % (name or d["reader"]))
            elif d["was"] is not None:
                self.report("reader %s reads again" % (name or d["reader"]))
            return
        if event.kind in ("disconnected", "link_down", "port_error") and not self.lost:
            self.lost = True
            self.report("board lost, waiting for it… (the game is paused; plug it back in)")
            for listen in self.listeners:
                listen(True)
        elif event.kind == "reboot" and not self.lost:
            self.report("the board restarted; restoring its LEDs")
        elif event.kind == "connected" and self.lost:
            self.lost = False
            self.report("board back: LEDs restored, tap on")
            for listen in self.listeners:
                listen(False)


class BoardTable:
    """Taps on `board` become moves of `session`; the LEDs follow its public view."""

    def __init__(self, board, session, tags, report=print, foreign=None, on_pending=None):
        self.board = board
        self.runner = TableRunner(session, board.profile, tags, report=report, on_pending=on_pending,
                                  foreign=foreign)
        self.lock = threading.Lock()
        self._attach(board, session)
        self.runner.attach(board.link)

    def _attach(self, board, session):
        """Taps become moves; a resumed game first takes the cards laid while its host was down."""
        if session.log is None or not hasattr(board, "attach"):  # no log to keep them beside (a Pi's readers)
            board.on_tap = self.runner.on_tap
            return
        resting = RestingCards(session.log)
        known = resting.known(session.log)  # None: a new game (or a log from before LOG.readers)
        self.runner.resting = resting
        now = board.attach(self.runner.on_tap, known, resting.taken)
        if known is None:
            resting.start(now)

    @property
    def link(self):
        return self.board.link

    def close(self):
        self.board.close()
