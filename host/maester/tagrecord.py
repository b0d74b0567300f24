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
reads UIDs only, so today the record is read by host-side readers (nfcpy, nfcreader.py); README
"A USB reader at your desk" says what the firmware would need.

The `ndef` package (ndeflib, which nfcpy brings) is imported only when there is NDEF data to decode
or write, so a table driven by the board alone does not need it.
"""

RECORD_TYPE = "urn:nfc:ext:maester.example:card"


class RecordError(ValueError):
    """The tag's NDEF data cannot be decoded, or its Maester record is malformed."""


def _ndef():
    try:
        import ndef
    except ImportError:
        from .paths import missing
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
        from .play import TITLES
        return None, ("a card of %s" % TITLES.get(their_game, their_game), "it is not part of this game")
    if card not in known:
        return None, ("a sticker", "it names a card this game does not have")
    if card in taken:
        return None, ("a sticker", "it names a card another sticker is enrolled for (a copied sticker?)")
    return card, None
