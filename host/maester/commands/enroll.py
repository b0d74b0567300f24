"""`maester enroll GAME`: tap every card of a game once, so the table knows which sticker is which card.
The session (keys, the board or the desk reader): table/enroll.py; the tags file: nfc/tags.py."""

from .. import lazy
from ..argtypes import BOARD_WAIT, int_range, serial_port
from ..table.hwconfig import BOARDS

# Imported when enrolling, not for --help (issue 16, start-up).
enroll = lazy.Module("maester.table.enroll")
tags = lazy.Module("maester.nfc.tags")


def register(sub):
    p = sub.add_parser("enroll", help="tap every card of a game once to bind its sticker",
                       description="Bind each card's NFC sticker to the card: the command names a card, you tap "
                                   "it on a reader (or tap first and pick it with --pick). Bindings are saved at "
                                   "once to $MAESTER_HOME/tags/GAME.json.")
    p.add_argument("game", help="the game, e.g. btwixt or intrigue")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--port", type=serial_port, help="the board's serial port (default: the first board found)")
    where.add_argument("--sim", action="store_true", help="use the simulated board (Enter lays the next sticker)")
    p.add_argument("--reader", metavar="NAME|PATH",
                   help="a board reader's name (seat0): take taps from it only (default: any reader); or an nfcpy "
                        "device path (usb, usb:072f:2200, tty:USB0:pn532): enroll on an NFC reader at your desk, "
                        "no board needed (maester's `nfc` extra)")
    p.add_argument("--profile", help="table profile naming the readers (default: the board's, else the game's smallest)")
    p.add_argument("--board", default="pico", choices=BOARDS, help="pin map of the simulated board")
    p.add_argument("--pick", action="store_true", help="tap any card, then pick which card it is from the list")
    p.add_argument("--only", type=int_range(1), metavar="N", help="stop after binding N cards")
    p.add_argument("--sets", type=int_range(1, 9), default=1, metavar="N",
                   help="the cards of N boxes of the game (the LCG at 5 or 6 players: --sets 2; default 1)")
    p.add_argument("--include-sim", action="store_true",
                   help="also enroll simulation filler (cards the data lacks; see `maester cards check`)")
    p.add_argument("--missing", action="store_true", help="list the cards still missing a tag and exit")
    p.add_argument("--forget", metavar="CARD|UID", help="remove the binding of a card or a tag and exit")
    p.add_argument("--timeout", type=BOARD_WAIT, default=5.0, metavar="S",
                   help="how long to wait for the board, %s (default %%(default)s)" % BOARD_WAIT.span)
    p.set_defaults(func=cmd_enroll)


def cmd_enroll(args, out=print):
    cards = tags.cards_to_tag(args.game, args.include_sim, args.sets)
    bound = tags.load_tags(args.game)
    if args.forget:
        gone = {u: c for u, c in bound.items() if args.forget in (u, c)}
        if not gone:
            out("no binding for %s in %s" % (args.forget, tags.tags_path(args.game)))
            return 1
        for u, c in gone.items():
            del bound[u]
            out("forgot tag %s (%s)" % (u, c))
        tags.save_tags(args.game, bound)
        return 0
    en = enroll.Enroller(cards, bound, lambda t: tags.save_tags(args.game, t), args.game)
    if args.missing:
        n, total = en.progress()
        out("%s: %d of %d cards bound; missing:\n%s" % (args.game, n, total, en.missing_text(limit=10 ** 6)))
        return 0
    skipped = len(tags.cards_to_tag(args.game, include_sim=True, sets=args.sets)) - len(cards)
    if skipped:
        out("note: the card data lacks %d cards of the box (simulation filler stands in for them). Add them with "
            "`maester cards add %s` to enroll them; `maester cards check %s` lists them." % (skipped, args.game, args.game))
    return enroll.Session(args, en, out).run()
