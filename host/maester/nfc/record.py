"""The NDEF record a sticker carries to name its own card, and how a tap's tag becomes a card.

`maester tags write btwixt betrayal#2` puts one record on the sticker:

    NFC Forum external type   urn:nfc:ext:maester.example:card
    payload (UTF-8)           btwixt/betrayal#2        (the game, a slash, the card's copy)

Why an external type and not a URI such as `maester:btwixt/betrayal#2`: a URI record is what a phone
opens when it touches a tag, and a scheme nothing handles makes it offer an app store or an error;
an external type is the NFC Forum's place for one application's own data, which phones list as data
and leave alone. The domain part is ours to choose: `.example` is reserved (RFC 2606), so no
registered domain, and so no other application's record type, can ever be the same name.

Such a sticker is known at any table without `maester enroll`: wherever the host turns a tap into a
card (table/runner.py) the tags file is asked first, then the tag's own record. The board's firmware
reads UIDs only, so today the record is read by host-side readers (nfcpy, nfc/reader.py); README
"A USB reader at your desk" says what the firmware would need.

The `ndef` package (ndeflib, which nfcpy brings) is imported only when there is NDEF data to decode
or write, so a table driven by the board alone does not need it.
"""

from ..games import TITLES
from ..paths import missing

RECORD_TYPE = "urn:nfc:ext:maester.example:card"


class RecordError(ValueError):
    """The tag's NDEF data cannot be decoded, or its Maester record is malformed."""


def _ndef():
    try:  # ndeflib (the `nfc` extra), needed only when there is NDEF data
        import ndef
    except ImportError:
        raise ValueError(missing("ndeflib, which reads the records on a sticker,", "nfc")) from None
    return ndef


def encode(game, card):
    """The NDEF message (bytes) naming `card` of `game`: our one record."""
    ndef = _ndef()
    return b"".join(ndef.message_encoder([ndef.Record(RECORD_TYPE, "", ("%s/%s" % (game, card)).encode())]))


def decode(octets):
    """(game, card) named by the Maester record in an NDEF message; None when it holds none
    (a blank tag, or other data such as a link). RecordError when the data cannot be decoded."""
    if not octets:
        return None
    ndef = _ndef()
    try:
        records = list(ndef.message_decoder(bytes(octets), errors="strict"))
    except Exception as e:  # ndeflib's DecodeError, and a UnicodeDecodeError for a type name of raw bytes
        raise RecordError("its NDEF data cannot be decoded (%s)" % e) from None
    for rec in records:
        if rec.type != RECORD_TYPE:
            continue
        try:
            game, card = bytes(rec.data).decode("utf-8").split("/", 1)
        except (UnicodeDecodeError, ValueError):
            raise RecordError("its Maester record is malformed") from None
        if not game or not card:
            raise RecordError("its Maester record is malformed")
        return game, card
    return None


def describe(octets):
    """What a tag's NDEF data holds, in a few words, for the desk commands (never for a table's log)."""
    try:
        found = decode(octets)
    except RecordError as e:
        return "data that " + str(e).replace("its ", "", 1)
    if found:
        return "the record of %s (%s)" % found
    if not octets:
        return "no NDEF data (blank)"
    ndef = _ndef()
    kinds = sorted({r.type for r in ndef.message_decoder(bytes(octets), errors="strict")})
    return "other NDEF data (%s)" % ", ".join(kinds)


def write_record(tap, game, card, force=False):
    """Put `card`'s record on the tag lying on the reader and read it back: (True, what was done) or
    (False, why not). Runs while the tag is there: on the reader's thread, or just after its tap."""
    want = encode(game, card)
    if tap.ndef and not force:
        try:
            same = decode(tap.ndef) == (game, card)
        except RecordError:
            same = False
        if same:
            return True, "the sticker already carries the record of %s" % card
        return False, ("refused: this sticker carries %s; `--force` overwrites it"
                       % describe(tap.ndef))
    tag = tap.tag
    try:
        area = tag.ndef
        if area is None and tag.format():  # a tag without NDEF formatting: make it an NDEF tag first
            area = tag.ndef
        if area is None:
            return False, ("refused: nfcpy finds no NDEF area on this %s to write (MIFARE Classic cards have "
                           "none); use NTAG213/215/216 stickers" % tag.type)
        if not area.is_writeable:
            return False, "refused: this sticker is locked (read-only)"
        if len(want) > area.capacity:
            return False, "refused: the record needs %d bytes, the sticker holds %d" % (len(want), area.capacity)
        area.octets = want
        if area.has_changed or tag.ndef is None or bytes(tag.ndef.octets) != want:
            return False, "the sticker did not read back what was written: tap it again"
    except Exception as e:  # nfcpy's errors for a sticker lifted mid-write are many
        return False, "writing failed (%s): hold the sticker still and tap again" % (e or type(e).__name__)
    return True, "wrote the record of %s and read it back" % card


def card_from_record(game, octets, known, taken=()):
    """(card, None) when the tag's record names a card of `game` that is in `known`; (None, (what, why))
    when it names something the table must refuse; (None, None) when it carries no Maester record.

    `what` and `why` are said on the public log ("<what> on seat2: <why>"), so they never name the
    card, only why it is refused (the other game's name is no secret: the card is not part of this
    game). `taken`: the cards bound to a sticker in the tags file: a second sticker naming one of
    them is a copied sticker.
    """
    try:
        found = decode(octets)
    except RecordError as e:
        return None, ("a sticker", str(e))
    except ValueError:  # no ndeflib on this machine: nothing to read the record with
        return None, None
    if found is None:
        return None, None
    their_game, card = found
    if their_game != game:
        return None, ("a card of %s" % TITLES.get(their_game, their_game), "it is not part of this game")
    if card not in known:
        return None, ("a sticker", "it names a card this game does not have")
    if card in taken:
        return None, ("a sticker", "it names a card another sticker is enrolled for (a copied sticker?)")
    return card, None
