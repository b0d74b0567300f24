"""`maester tags write` and `maester tags read`: a sticker that carries its own card, on a reader at the desk.

    maester tags write btwixt betrayal#2            lay a blank sticker on the reader: it gets the record
    maester tags write btwixt                       walk every card not bound yet, like `maester enroll`
    maester tags read btwixt                        say what each tapped sticker carries

The record (nfc/record.py) names the game and the card's copy; after writing, the sticker is read back
to check it, and its UID is also bound in the tags file, so the board (whose firmware reads UIDs
only) knows it too. A sticker that already carries other data (another card's record, a link) is
refused unless --force. The reader is an nfcpy device path (nfc/reader.py); the default is `usb`.
"""

import argparse
import queue

from .. import lazy
from ..argtypes import int_range

# Imported when a verb runs, not for --help (issue 16, start-up).
enroll = lazy.Module("maester.table.enroll")
nfcreader = lazy.Module("maester.nfc.reader")
tagrecord = lazy.Module("maester.nfc.record")
tagfile = lazy.Module("maester.nfc.tags")

WAIT = 60.0


def register(sub):
    p = sub.add_parser("tags", help="write a card's record onto a sticker, or read one, on an NFC reader at your desk",
                       description="Stickers that carry their own card: `maester tags write GAME CARD` writes an "
                                   "NDEF record naming the card onto a blank sticker (NTAG21x) on a USB or serial "
                                   "reader nfcpy drives, reads it back, and binds the sticker in the tags file. "
                                   "Needs nfcpy: pip install 'maester[nfc]'.")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    w = verbs.add_parser("write", help="write a card's record onto a sticker (without CARD: every card not bound yet)")
    w.add_argument("game", help="the game, e.g. btwixt")
    w.add_argument("card", nargs="?", help="the card's copy, e.g. betrayal#2 or leader:eddard (default: walk the cards)")
    _reader(w)
    w.add_argument("--force", action="store_true", help="overwrite a sticker that carries other data or another card")
    w.add_argument("--sets", type=int_range(1, 9), default=1, metavar="N", help="the cards of N boxes (as enroll)")
    w.add_argument("--only", type=int_range(1), metavar="N", help="walking: stop after N stickers")
    w.add_argument("--wait", type=float, default=WAIT, metavar="S",
                   help="one card: how long to wait for the sticker (default %(default)s s)")
    w.set_defaults(func=cmd_write)
    r = verbs.add_parser("read", help="say what each sticker tapped on the reader carries (q or Ctrl-C stops)")
    r.add_argument("game", nargs="?", help="also say which card of this game the table takes it for")
    _reader(r)
    r.add_argument("--count", type=int_range(1), metavar="N", help="stop after N stickers")
    r.set_defaults(func=cmd_read)


def _reader(p):
    p.add_argument("--reader", type=_device_path, default="usb", metavar="PATH",
                   help="nfcpy device path: usb, usb:072f:2200, tty:USB0:pn532 (default %(default)s)")


def _device_path(text):
    if not nfcreader.is_device_path(text):
        raise argparse.ArgumentTypeError("%r is not an nfcpy device path (usb, usb:072f:2200, tty:USB0:pn532, "
                                         "udp:HOST:PORT)" % text)
    return text


# ---------------------------------------------------------------- writing one sticker

def _card_ids(game, sets):
    return [c.id for c in tagfile.cards_to_tag(game, include_sim=True, sets=sets)]


def cmd_write(args, out=print):
    ids = _card_ids(args.game, args.sets)
    if args.card is None:
        return _walk(args, out)
    if args.card not in ids:
        near = [c for c in ids if c.split("#", 1)[0] == args.card or args.card in c][:8]
        raise ValueError("no card %s in %s%s" % (args.card, args.game,
                                                  "; did you mean: %s" % ", ".join(near) if near else
                                                  " (`maester enroll %s --missing` lists them)" % args.game))
    tags = tagfile.load_tags(args.game)
    results = queue.Queue()

    def on_tap(tap):
        if tap.kind == "placed" and results.empty():
            results.put(_write_and_bind(tap, args, tags))

    reader = nfcreader.DeskReader(args.reader, on_tap, on_error=lambda m: results.put((False, m)))
    reader.start()
    try:
        out("lay the sticker for %s on the reader at %s" % (args.card, args.reader))
        try:
            ok, message = results.get(timeout=args.wait)
        except queue.Empty:
            raise ValueError("no sticker came to the reader at %s within %g s" % (args.reader, args.wait)) from None
    finally:
        reader.close()
    out(message)
    return 0 if ok else 1


def _write_and_bind(tap, args, tags):
    owner = tags.get(tap.uid_hex)
    if owner not in (None, args.card) and not args.force:
        return False, ("refused: this sticker (%s) is bound to %s in the tags file; `--force` rewrites it"
                       % (tap.uid_hex, owner))
    ok, message = tagrecord.write_record(tap, args.game, args.card, args.force)
    if not ok:
        return ok, message
    for uid in [u for u, c in tags.items() if c == args.card and u != tap.uid_hex]:
        del tags[uid]  # the card's old sticker: this one replaces it
        message += "; its old sticker %s is forgotten" % uid
    tags[tap.uid_hex] = args.card
    tagfile.save_tags(args.game, tags)
    return True, "%s; sticker %s bound to %s" % (message, tap.uid_hex, args.card)


def _walk(args, out):
    """Every card not bound yet, in enroll's order and with its keys: each sticker laid down is written."""
    walk = argparse.Namespace(game=args.game, reader=args.reader, sim=False, port=None, pick=False, only=args.only,
                              profile=None, board=None, timeout=None)
    cards = tagfile.cards_to_tag(args.game, include_sim=False, sets=args.sets)
    en = enroll.Enroller(cards, tagfile.load_tags(args.game), lambda t: tagfile.save_tags(args.game, t), args.game)
    session = enroll.Session(walk, en, out)
    session.writer = lambda tap, card: tagrecord.write_record(tap, args.game, card, args.force)
    return session.run()


# ---------------------------------------------------------------- reading

def cmd_read(args, out=print):
    tags = tagfile.load_tags(args.game) if args.game else {}
    known = set(_card_ids(args.game, 9)) if args.game else set()
    seen = queue.Queue()
    reader = nfcreader.DeskReader(args.reader, lambda t: t.kind == "placed" and seen.put(t),
                                  on_error=lambda m: seen.put(m))
    reader.start()
    out("tap stickers on the reader at %s; Ctrl-C stops" % args.reader)
    count = 0
    try:
        while args.count is None or count < args.count:
            tap = seen.get()
            if isinstance(tap, str):
                raise ValueError(tap)
            count += 1
            line = "sticker %s: %s" % (tap.uid_hex, tagrecord.describe(tap.ndef) if tap.ndef is not None
                                       else "no NDEF area")
            if args.game:
                line += "; " + _verdict(args.game, tap, tags, known, args.reader)
            out(line)
    except KeyboardInterrupt:
        pass
    finally:
        reader.close()
    return 0


def _verdict(game, tap, tags, known, reader):
    """Which card the table takes the sticker for, or why it refuses it (the tags file first)."""
    if tap.uid_hex in tags:
        return "bound to %s in the tags file" % tags[tap.uid_hex]
    card, problem = tagrecord.card_from_record(game, tap.ndef, known, set(tags.values()))
    if card:
        return "the table takes it for %s" % card
    if problem:
        return "the table refuses it: %s: %s" % problem
    return "unknown to %s: `maester enroll %s --reader %s` binds it" % (game, game, reader)
