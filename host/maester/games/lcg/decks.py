"""Deck lists as people write them, and the deck construction rules (rulebook, "Tournament Play and
Deck Construction Rules").

The text format, one card a line::

    # Stark, my way             a comment; blank lines are ignored too
    House: Stark                (or the House card's name: "House Stark")
    3x Eddard Stark             also "3 Eddard Stark", "Eddard Stark x3", or the name alone for one
    Plots:                      a section header; a plot is also known by its card type
    2x The Power of Arms

Names match case-insensitively (curly apostrophes are straight ones); a trailing "(...)" such as
"(Core Set)" is ignored, and "(S30)" names that copy. A name the Core Set has in several copies or
versions (Great Keep S29-S31, Crossroads, Robert Baratheon B71/B90, ...) maps to its copies' codes in
order, then around again: a deck may hold more copies of a card than one Core box does, and the engine
gives each further copy its own instance (model.instance_ids).

A first line that names no card, with a blank line after it, is the deck's title (deck builders'
exports start so). deck_import.py reads the other shapes a deck comes in (OCTGN .o8d, the deck
builders' text exports) into these lines, so every reader here takes them too.

    parse(text, name) -> (deck, entries, problems)
    parse_lines([(line, text)], name) -> (deck, entries, problems, title)
    read(path) -> (numbered lines, info, problems): a deck file of any shape ("-": standard input)
    rules_problems(deck, table, casual, entries=None) -> [(line, text)]
    check(path, casual) -> (deck, [(line, text)]): a file's every problem, parsing and rules
    load(path, casual=True): a file's deck, or ValueError naming each problem with its line
    import_file(path, house) -> (deck, entries, problems, info): a file to write as our deck list
    write(deck): a deck dict as text (the starter files in cards_db/lcg/decks/ are written so)

A deck is the config's plain dict {"name", "house", "draw": [codes], "plots": [codes]}. The
tournament rules: exactly 7 plots and no two of the same name (unless the plot allows copies: "plot
copies"), at least 60 cards in the House deck, at most 3 copies of a card by name, no "House X only"
card unless the deck's House is X, and each card's own "Limit n per deck" / "per plot deck". Casual
play keeps every rule but the 60 cards, so the Core's 45-card starter decks are legal; it still needs
one card.
"""

import difflib
import re
from pathlib import Path

from . import deck_import
from .cards import card_table

PLOTS_NEEDED = 7
MIN_CARDS = 60
MAX_COPIES = 3
LINE_COPIES = 99  # a line naming more is a slip, refused as its line's problem (a deck is ~60 cards)
MAX_BYTES = 256 * 1024  # a deck list is a few kilobytes; anything far bigger is not one
HEADERS_PLOTS = ("plots", "plot", "plot deck", "plot cards")
HEADERS_DRAW = ("house deck", "draw deck", "deck", "characters", "character", "locations", "location",
                "attachments", "attachment", "events", "event", "cards")
_COUNT_FIRST = re.compile(r"^(\d+)\s*[x×]?\s+(.+)$", re.I)
_COUNT_LAST = re.compile(r"^(.+?)\s+[x×](\d+)$", re.I)
_PAREN = re.compile(r"^(.*?)\s*\(([^()]*)\)$")
_HOUSE = re.compile(r"^house(?:\s*:\s*|\s+)(?:house\s+)?([a-z]+)$", re.I)
_HEADER = re.compile(r"^([a-z ]+?)\s*(?:\(\d+\))?\s*:?$", re.I)


def _key(name):
    return " ".join(name.replace("’", "'").replace("‘", "'").lower().split())


def _table():
    return card_table(owner=False)


def copies_by_name(table):
    """{name key: [codes in order]}: every copy or version of a card under its name."""
    out = {}
    for code, c in table["cards"].items():
        out.setdefault(_key(c["name"]), []).append(code)
    for codes in out.values():
        codes.sort(key=lambda code: (table["cards"][code]["duplicate_of"] is not None, _number(code)))
    return out


def _number(code):
    return int(re.sub(r"\D", "", code) or 0)


def suggest(name, table):
    """The closest card names to `name`, as printed."""
    names = {_key(c["name"]): c["name"] for c in table["cards"].values()}
    return [names[k] for k in difflib.get_close_matches(_key(name), list(names), n=3, cutoff=0.6)]


def _either(names):
    return names[0] if len(names) == 1 else "%s or %s" % (", ".join(names[:-1]), names[-1])


def _count(digits):
    """A line's count: a whole number up to LINE_COPIES, else the digits as words (shortened when long)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) <= 3 and int(digits) <= LINE_COPIES:
        return int(digits)
    return digits if len(digits) < 30 else "%s... (%d digits)" % (digits[:12], len(digits))


def read(path):
    """The deck file at `path` ("-": standard input) as numbered deck-list lines, whatever its shape
    (deck_import: our lists, deck builders' exports, OCTGN .o8d) -> (numbered, info, problems).
    Raises ValueError saying why it is no deck file (OSError when it cannot be opened)."""
    data = deck_import.read(str(path), MAX_BYTES)
    return deck_import.lines(data, "standard input" if str(path) == "-" else path)


def parse(text, name="deck", table=None):
    """A deck list's text -> (deck, entries, problems) (parse_lines without the title)."""
    return parse_lines(list(enumerate(text.splitlines(), 1)), name, table)[:3]


def _is_title(no, line, numbered, table):
    """A deck builder's title line: the first line, no count, a blank line after it, and no card's
    name within reach (a misspelt card is the card's problem, not a title)."""
    after = [text for n, text in numbered if n > no][:1]
    names = [_key(c["name"]) for c in table["cards"].values()]
    return after == [""] and not difflib.get_close_matches(_key(line), names, n=1, cutoff=0.8)


def parse_lines(numbered, name="deck", table=None):
    """Numbered deck-list lines [(line, text)] -> (deck, entries, problems, title).

    entries: one per card line {"line", "name", "count", "codes", "plot", "section"} in file order;
    problems: [(line, text)] for lines that are not a card, a House or a header (unknown names come
    with the closest names); title: a first line that names no card and has a blank line after it
    (a deck builder's export starts so), else None."""
    table = table or _table()
    by_name = copies_by_name(table)
    houses = set(table["houses"])
    deck = {"name": name, "house": None, "draw": [], "plots": []}
    entries, problems = [], []
    section = title = None
    first = True
    for no, raw in numbered:
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        was_first, first = first, False
        m = _HOUSE.match(line)
        if m:
            house = m.group(1).lower()
            if house not in houses:
                problems.append((no, "unknown House %r (Houses: %s)" % (m.group(1), ", ".join(sorted(houses)))))
            elif deck["house"] is not None and deck["house"] != house:
                problems.append((no, "a second House (%s): a deck has one House" % house))
            else:
                deck["house"] = house
            continue
        count, card = "1", line
        m = _COUNT_FIRST.match(line) or None
        if m:
            count, card = m.group(1), m.group(2).strip()
        else:
            m = _COUNT_LAST.match(line)
            if m:
                card, count = m.group(1).strip(), m.group(2)
        count = _count(count)
        header = _HEADER.match(line)
        if header and not m and _key(header.group(1)) not in by_name and (
                line.endswith(":") or _key(header.group(1)) in HEADERS_PLOTS + HEADERS_DRAW):
            word = _key(header.group(1))
            if word in HEADERS_PLOTS:
                section = "plots"
            elif word in HEADERS_DRAW:
                section = "draw"
            else:
                problems.append((no, "unknown section %r (a card line is `3x Card Name`; sections: Plots:, "
                                     "House deck:, Characters:, ...)" % line))
            continue
        codes = by_name.get(_key(card))
        pick = None
        if codes is None:
            m2 = _PAREN.match(card)
            if m2:
                codes = by_name.get(_key(m2.group(1)))
                inner = m2.group(2).strip().upper()
                if codes is not None and inner in codes:
                    pick = inner
                card = m2.group(1) if codes is not None else card
        if codes is None and was_first and not m and _is_title(no, line, numbered, table):
            title = line
            continue
        if codes is None:
            close = suggest(card, table)
            problems.append((no, "unknown card %r%s" % (card, "; did you mean %s?" % _either(close) if close else "")))
            continue
        if isinstance(count, str) or count < 1:
            problems.append((no, "%s copies of %s%s" % (count, card, "" if count == 0 else
                                                         ": a line names at most %d copies" % LINE_COPIES)))
            continue
        printed = table["cards"][codes[0]]
        is_plot = printed["type"] == "plot"
        if section == "plots" and not is_plot:
            problems.append((no, "%s is %s %s, not a plot, but it is listed under Plots" % (
                printed["name"], "an" if printed["type"][0] in "aeiou" else "a", printed["type"])))
        entries.append({"line": no, "name": printed["name"], "count": count, "codes": [], "plot": is_plot,
                        "section": section, "pick": pick})
    # The codes once the House is known: the House's own starter deck's copies first (a Targaryen
    # Crossroads is T153), then the others in the Core's order, then around again.
    used = {}
    for e in entries:
        codes = sorted(by_name[_key(e["name"])],
                       key=lambda c: (table["cards"][c].get("deck") != deck["house"], _number(c)))
        pick = e.pop("pick")
        if pick is not None:
            e["codes"] = [pick] * e["count"]
        else:
            start = used.get(e["name"], 0)
            e["codes"] = [codes[(start + i) % len(codes)] for i in range(e["count"])]
            used[e["name"]] = start + e["count"]
        deck["plots" if e["plot"] else "draw"].extend(e["codes"])
    return deck, entries, problems, title


def entries_of(deck, table):
    """A deck dict's cards as entries without line numbers: one per name, in first-seen order."""
    out = {}
    for part in ("draw", "plots"):
        for code in deck[part]:
            name = table["cards"][code]["name"]
            e = out.setdefault((part, name), {"line": None, "name": name, "count": 0, "codes": [],
                                              "plot": part == "plots", "section": None})
            e["count"] += 1
            e["codes"].append(code)
    return list(out.values())


def _restriction(card, key):
    for r in card["restrictions"]:
        if key in r:
            return r[key]
    return None


def rules_problems(deck, table=None, casual=False, entries=None, house_line=None):
    """[(line or None, text)]: what keeps `deck` from being legal under the tournament rules (or the
    casual ones, which allow fewer than 60 cards). `entries` (from parse) give the line numbers."""
    table = table or _table()
    cards = table["cards"]
    entries = entries if entries is not None else entries_of(deck, table)
    out = []
    house = deck.get("house")
    if house is None:
        out.append((None, "no House: add a line such as `House: Stark`"))
    elif house not in table["houses"]:
        out.append((house_line, "unknown House %r (Houses: %s)" % (house, ", ".join(table["houses"]))))
    plots = [e for e in entries if e["plot"]]
    draws = [e for e in entries if not e["plot"]]
    n_plots = sum(e["count"] for e in plots)
    if n_plots != PLOTS_NEEDED:
        where = plots[-1]["line"] if plots else None
        out.append((where, "%d plot%s: a plot deck has exactly %d" % (n_plots, "" if n_plots == 1 else "s",
                                                                       PLOTS_NEEDED)))
    n_draw = sum(e["count"] for e in draws)
    where = draws[-1]["line"] if draws else None
    if not casual and n_draw < MIN_CARDS:
        out.append((where, "%d cards in the House deck: tournament play needs at least %d (casual play "
                           "allows fewer: --casual)" % (n_draw, MIN_CARDS)))
    elif n_draw < 1:
        out.append((where, "no cards in the House deck"))
    seen = {}
    for e in entries:
        card = cards[e["codes"][0]]
        total = seen[e["name"]] = seen.get(e["name"], 0) + e["count"]
        before = total - e["count"]
        if e["plot"]:
            allowed = _restriction(card, "plot_copies") or 1
            limit = _restriction(card, "limit_per_plot_deck")
            if limit is not None and limit < allowed:
                allowed = limit
            if total > allowed and before <= allowed:
                out.append((e["line"], "%d copies of the plot %s: %s" % (
                    total, e["name"], "a plot deck has no duplicate plots" if allowed == 1 and limit is None
                    else "Limit %d per plot deck" % allowed if limit is not None
                    else "it allows %d copies in a plot deck" % allowed)))
        else:
            limit = _restriction(card, "limit_per_deck")
            if limit is not None and total > limit and before <= limit:
                out.append((e["line"], "%d copies of %s: Limit %d per deck" % (total, e["name"], limit)))
            elif total > MAX_COPIES and before <= MAX_COPIES:
                out.append((e["line"], "%d copies of %s: at most %d copies of a card" % (total, e["name"],
                                                                                         MAX_COPIES)))
        only = _restriction(card, "house_only")
        if only is not None and house is not None and only != house and before == 0:
            out.append((e["line"], "%s is House %s only, and this deck's House is %s" % (
                e["name"], only.capitalize(), house.capitalize())))
    return out


def _house_line(numbered):
    for no, raw in numbered:
        if _HOUSE.match(raw.split("#", 1)[0].strip()):
            return no
    return None


def _in_order(problems):
    return sorted(problems, key=lambda p: (p[0] is None, p[0] or 0))


def check(path, casual=False, table=None):
    """(deck, [(line, text)]): every problem of the deck file at `path` (any shape deck_import
    reads), in line order."""
    table = table or _table()
    numbered, _, problems = read(path)
    deck, entries, more, _ = parse_lines(numbered, _deck_name(path), table)
    problems = problems + more + rules_problems(deck, table, casual, entries, _house_line(numbered))
    return deck, _in_order(problems)


def _deck_name(path):
    return "stdin" if str(path) == "-" else Path(path).stem


def import_file(path, house=None, table=None):
    """A deck file of any shape deck_import reads, made ready to be written as our deck list ->
    (deck, entries, problems, info).

    problems: what keeps it from being written (a line no card matched, with the closest names; an
    agenda; no House): the deck construction rules are not among them (rules_problems says those).
    The House: the file's, else `house`, else the one House all its House cards share.
    info: deck_import's {"format", "game"} and "title", "house_from" ("file", "option", "cards")."""
    table = table or _table()
    numbered, info, problems = read(path)
    deck, entries, more, info["title"] = parse_lines(numbered, _deck_name(path), table)
    problems = problems + more
    info["house_from"] = "file"
    if not entries and not problems:
        problems.append((None, "no cards: not a deck list (a line a card: `3x Eddard Stark`)"))
    elif deck["house"] is not None and house is not None and house != deck["house"]:
        problems.append((_house_line(numbered), "the file's House is %s, and --house says %s"
                         % (deck["house"].capitalize(), house.capitalize())))
    elif deck["house"] is None and house is not None:
        deck["house"], info["house_from"] = house, "option"
    elif deck["house"] is None:
        shared = _houses_shared(deck, table)
        if len(shared) == 1:
            deck["house"], info["house_from"] = shared[0], "cards"
        else:
            problems.append((None, "no House line, and the cards %s: give one with --house" % (
                "are of no one House" if not shared else "fit %s" % _either([h.capitalize() for h in shared]))))
    return deck, entries, _in_order(problems), info


def _houses_shared(deck, table):
    """The Houses every House card of the deck belongs to (neutral cards fit any), in the table's order."""
    shared = set(table["houses"])
    for code in deck["draw"] + deck["plots"]:
        shared &= set(table["cards"][code]["houses"] or shared)
    return [h for h in table["houses"] if h in shared]


def load(path, casual=True, table=None):
    """The deck dict of a deck file, or ValueError naming each problem with its line."""
    deck, problems = check(path, casual, table)
    if problems:
        raise ValueError("deck %s is not legal%s: %s" % (path, " for casual play" if casual else "", "; ".join(
            ("line %d: %s" % (line, text)) if line else text for line, text in problems)))
    return deck


def write(deck, table=None, comment=None):
    """A deck dict as deck-list text: a comment, the House, its cards by name in first-seen order,
    then Plots:."""
    table = table or _table()
    cards = table["cards"]
    lines = ["# %s" % c for c in (comment or deck["name"]).splitlines()]
    lines += ["House: %s" % deck["house"].capitalize(), ""]
    for part in ("draw", "plots"):
        if part == "plots":
            lines += ["", "Plots:"]
        counts = {}
        for code in deck[part]:
            name = cards[code]["name"]
            counts[name] = counts.get(name, 0) + 1
        lines += ["%dx %s" % (k, name) for name, k in counts.items()]
    return "\n".join(lines) + "\n"
