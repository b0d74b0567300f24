"""Deck files as people bring them, read into numbered deck-list lines (decks.py parses those).

Three shapes, told apart by their first character:

- our own deck lists (decks.py's format);
- the plain-text exports of the common deck builders: the same `3x Card Name` lines with what the
  builders add around them: a title line, section headers with counts ("Characters (20)", "Plot (7):"),
  a set after a name in round or square brackets ("(Core Set)", "[Core]"), list bullets, and lines
  about the export itself ("Packs: Core Set (2)", "Total Cards: 60", a link), which are skipped;
- OCTGN's `.o8d` deck files: XML, `<deck game="GUID">` holding `<section name="Plots">` elements
  that hold `<card qty="3" id="GUID">Card Name</card>`. The `game` attribute names an OCTGN game
  definition and the `id`s are that definition's card ids: both are kept for the report only, and the
  cards are read by their names (any OCTGN definition of the game names the same cards). A section
  named "House" holds the House card ("House Stark"), "Plots" the plots; the others (Characters,
  Locations, ...) the House deck.

Agendas (a section, or an `Agenda:` line) are refused as their line's problem: maester plays the
Core Set, which has none.

Hostile files: at most `limit` bytes are read (decks.MAX_BYTES: a deck is a few kilobytes); text must
be UTF-8 (a byte-order mark is dropped) with no NUL; XML (UTF-8, or what its declaration or byte-order
mark says) is read by expat with any DOCTYPE refused, so no entity can be declared (no "billion
laughs", no external entity: the defusedxml approach), and an element nested deeper than MAX_DEPTH is
refused. Each refusal is one ValueError line naming the file.

    read(path, limit) -> bytes   ("-" is standard input)
    lines(data, path) -> (numbered, info, problems)
        numbered: [(line number, text)]; info: {"format": "o8d" | "text", "game": GUID or None};
        problems: [(line, text)] for lines no card can come from (an agenda, an o8d card without a count)
"""

import re
import sys
from xml.parsers import expat

from ...files import read_bytes

MAX_DEPTH = 16  # <deck><section><card>: anything far deeper is not a deck
_SKIPPED = re.compile(r"^(packs?|sets?|total(\s+cards)?|cards\s+total|deck\s+size|author|created|"
                      r"built\s+with|exported|designed\s+by)\b\s*[:(=-]|^https?://|^-{3,}$|^={3,}$", re.I)
_AGENDA = re.compile(r"^agendas?\s*(?:\(\d+\)\s*)?(?::\s*(.*)|$)", re.I)
_COUNTED = re.compile(r"^\d+\s*[x×]?\s+(.+)$", re.I)
_BULLET = re.compile(r"^[-*•·]\s+")
_SQUARE = re.compile(r"\s*\[([^\[\]]*)\]$")
O8D_SECTIONS = {"house": "house", "houses": "house", "faction": "house", "plots": "plots", "plot": "plots",
                "plot deck": "plots", "agenda": "agenda", "agendas": "agenda"}  # any other: House-deck cards


def read(path, limit):
    """The bytes of the deck file `path` (at most `limit`), "-" for standard input. ValueError when
    it is not a file or is too big (files.read_bytes), OSError when it cannot be opened."""
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise ValueError("cannot read the deck from standard input: it is larger than %d KB" % (limit >> 10))
        return data
    return read_bytes(path, limit, "deck")


def lines(data, path):
    """A deck file's bytes -> (numbered lines, info, problems); ValueError for a file that is not a deck."""
    utf16 = data[:2] in (b"\xff\xfe", b"\xfe\xff")  # XML may come in UTF-16, its mark first
    if (data[2:].lstrip(b" \t\r\n\0") if utf16 else data.lstrip(b"\xef\xbb\xbf \t\r\n")).startswith(b"<"):
        numbered, game, problems = _o8d(data, path)
        return numbered, {"format": "o8d", "game": game}, problems
    numbered, problems = _export(_text(data, path))
    return numbered, {"format": "text", "game": None}, problems


def _text(data, path):
    """Bytes as text: UTF-8 (its byte-order mark dropped), no NUL. (UTF-16 is for XML only, where
    expat reads it by its mark: a text export is UTF-8 in practice, and a lone mark is binary.)"""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError("cannot read the deck %s: it is not text (UTF-8) at byte %d: save it as UTF-8"
                         % (path, e.start)) from None
    if "\0" in text:
        raise ValueError("cannot read the deck %s: it is binary (a NUL at character %d), not a deck list"
                         % (path, text.index("\0")))
    return text


def _export(text):
    """A deck list or a deck builder's export -> numbered deck-list lines, and agenda problems."""
    out, problems = [], []
    agendas = False  # inside an "Agenda" section: its counted lines are agendas, anything else ends it
    for no, raw in enumerate(text.splitlines(), 1):
        line = _BULLET.sub("", raw.strip())
        if line.startswith("#") or _SKIPPED.match(line):
            out.append((no, ""))
            continue
        m = _AGENDA.match(line)
        if m:
            agendas = not m.group(1)
            if m.group(1):
                problems.append((no, _no_agenda(m.group(1))))
            out.append((no, ""))
            continue
        counted = _COUNTED.match(line)
        if agendas and counted:
            problems.append((no, _no_agenda(counted.group(1))))
            out.append((no, ""))
            continue
        agendas = False
        out.append((no, _SQUARE.sub(r" (\1)", line)))
    return out, problems


def _no_agenda(name):
    return "the agenda %r: maester plays the Core Set, which has no agendas (take the line out)" % name.strip()


class _Refused(Exception):
    pass


def _o8d(data, path):
    """An OCTGN deck's XML -> (numbered lines, the game attribute, problems)."""
    parser = expat.ParserCreate()
    numbered, problems = [], []
    stack, card, found = [], {}, {"game": None, "section": "cards"}

    def refuse(*_):
        raise _Refused("it declares a DOCTYPE (entities are not read in a deck file)")

    def start(tag, attrs):
        stack.append(tag)
        if len(stack) > MAX_DEPTH:
            raise _Refused("its elements nest deeper than %d" % MAX_DEPTH)
        no = parser.CurrentLineNumber
        if len(stack) == 1:
            if tag != "deck":
                raise _Refused("its root element is <%s>, not an OCTGN <deck>" % tag[:40])
            found["game"] = attrs.get("game")
        elif tag == "section" and len(stack) == 2:
            found["section"] = O8D_SECTIONS.get(" ".join(attrs.get("name", "").lower().split()), "cards")
            if found["section"] in ("plots", "cards"):
                numbered.append((no, "Plots:" if found["section"] == "plots" else "Cards:"))
        elif tag == "card" and "card" not in stack[:-1]:
            card.clear()
            card.update(line=no, qty=attrs.get("qty", "1").strip(), name=[])

    def text(chars):
        if card and stack[-1] == "card":
            card["name"].append(chars)

    def end(tag):
        stack.pop()
        if tag == "section":
            found["section"] = "cards"
        if tag != "card" or not card:
            return
        name, qty, no = " ".join("".join(card["name"]).replace("#", " ").split()), card["qty"], card["line"]
        card.clear()
        if not name:
            problems.append((no, "a <card> with no name"))
        elif found["section"] == "agenda":
            problems.append((no, _no_agenda(name)))
        elif found["section"] == "house":  # the House card: "House Stark"
            numbered.append((no, "House: %s" % re.sub(r"^house\s+", "", name, flags=re.I)))
        elif not qty.isdigit():
            problems.append((no, "%s: qty %r is not a count" % (name, qty[:20])))
        else:
            numbered.append((no, "%sx %s" % (qty, name)))

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except _Refused as e:
        raise ValueError("cannot read the deck %s: %s" % (path, e)) from None
    except (LookupError, UnicodeError) as e:  # an encoding= that Python has no codec for, or bytes not in it
        raise ValueError("cannot read the deck %s: its XML encoding cannot be read (%s)" % (path, e)) from None
    except expat.ExpatError as e:
        raise ValueError("cannot read the deck %s: it is not well-formed XML (line %d: %s)"
                         % (path, e.lineno, expat.ErrorString(e.code))) from None
    return numbered, found["game"], problems
