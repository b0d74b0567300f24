"""The court: a pyramid of character cards, its geometry and the legal positions for a card.

Pure functions over plain data. A court is a dict::

    {"width": 8, "mode": "free", "slots": 15,
     "cards":  [[inst or None, ...] per row],      # row 0 is the base
     "houses": [[house or None, ...] per row],     # the house of each placed card
     "span":   [[lo, hi] or None per row],         # leftmost and rightmost filled position
     "count":  [cards in each row],
     "open":   [[row, pos, house_a, house_b], ...]} # the open spots (see open_spots)

`span`, `count` and `open` are derived from the cards, kept up to date by `place` so that a turn
does not scan the court (`scan_spots` is the from-scratch definition the tests hold `open` to).

Row r ≥ 1, position x rests on the two side-by-side cards (r-1, x) and (r-1, x+1); row r has one
position fewer than the row below, so a full court is a pyramid of width, width-1, ... 1 cards.

Two models of the base row:

- ``free`` (default, the rules as written): the base is one unbroken line that grows at either end
  until it holds `width` cards; where the first card lies does not matter. Positions are counted on
  a line of 2*width-1 places with the first card in the middle (place width-1), so both ends can
  always grow while the base is short. Every position a card ever gets stays its own for the round.
- ``mat``: a fixed pyramid of `width` places, as on a printed mat; the first card goes on any of
  them, and the base can only grow where the mat has room.

A card on the base may be of any house. A card above it must share a house with at least one of
the two cards it rests on, and goes only where both of them lie and the place is empty.
"""

MODES = ("free", "mat")


def new_court(width, mode="free"):
    if mode not in MODES:
        raise ValueError("unknown court model %r (choose from %s)" % (mode, ", ".join(MODES)))
    slots = width if mode == "mat" else 2 * width - 1
    court = {"width": width, "mode": mode, "slots": slots,
             "cards": [[None] * (slots - r) for r in range(width)],
             "houses": [[None] * (slots - r) for r in range(width)],
             "span": [None] * width, "count": [0] * width}
    court["open"] = scan_spots(court)
    return court


def copy_court(court):
    """A copy sharing nothing with `court` (for views and for trying a placement). Every seat's view
    holds one, so a bot reading its view pays for it at each decision: list.copy and slices, the
    quickest copies of a list."""
    return {"width": court["width"], "mode": court["mode"], "slots": court["slots"],
            "cards": list(map(list.copy, court["cards"])), "houses": list(map(list.copy, court["houses"])),
            "span": [s and s[:] for s in court["span"]], "count": court["count"][:],
            "open": list(map(list.copy, court["open"]))}


def first_positions(court):
    """Where the first card of the base may go."""
    if court["mode"] == "mat":
        return list(range(court["slots"]))
    return [court["width"] - 1]


def start_position(court):
    """Where a card laid at setup (the 5-player starting card) goes: the middle of the base."""
    if court["mode"] == "mat":
        return (court["width"] - 1) // 2
    return court["width"] - 1


def open_spots(court):
    """Every empty position a card could go, as [row, pos, house_a, house_b] (read only).

    For the base the two houses are None (any card fits); above it they are the houses of the two
    cards the position rests on. Sorted by row, then position.
    """
    return court["open"]


def _base_spots(court):
    base = court["span"][0]
    if base is None:
        return [[0, x, None, None] for x in first_positions(court)]
    out = []
    if court["count"][0] < court["width"]:
        lo, hi = base
        if lo > 0:
            out.append([0, lo - 1, None, None])
        if hi < court["slots"] - 1:
            out.append([0, hi + 1, None, None])
    return out


def scan_spots(court):
    """The open spots worked out from the cards alone: what `open` must always equal."""
    out = _base_spots(court)
    span = court["span"]
    houses = court["houses"]
    count = court["count"]
    for r in range(1, court["width"]):
        if count[r - 1] < 2:
            break  # nothing can rest on fewer than two cards, so no row above has any either
        below = houses[r - 1]
        row = houses[r]
        lo, hi = span[r - 1]
        for x in range(lo, hi):
            if row[x] is None:
                a = below[x]
                if a is not None:
                    b = below[x + 1]
                    if b is not None:
                        out.append([r, x, a, b])
    return out


def fits(spot, house):
    _, _, a, b = spot
    return a is None or a == house or b == house


def legal_positions(court, card):
    """The positions [row, pos] where a card of house `card` may be placed now.

    `card` is the card's house: cards of the same house always have the same positions.
    """
    return [[r, x] for (r, x, a, b) in open_spots(court) if a is None or a == card or b == card]


def legal_moves(court, hand, house_of):
    """Every legal ["place", card, row, pos] for a hand, in hand order, then by row and position."""
    # The open spots by the houses they take, in one pass over them, keeping their order (row, then
    # position): a base spot takes any card (its houses are None), and the base's spots come first;
    # a spot above takes the houses of the two cards it rests on. Cards of one house go to the same places.
    anywhere = []
    by_house = {}
    for sp in court["open"]:
        a = sp[2]
        if a is None:
            anywhere.append(sp)
            continue
        fit = by_house.get(a)
        if fit is None:
            fit = by_house[a] = []
        fit.append(sp)
        b = sp[3]
        if b != a:
            fit = by_house.get(b)
            if fit is None:
                fit = by_house[b] = []
            fit.append(sp)
    out = []
    for inst in hand:
        for sp in anywhere:  # a turn's choices are most of a random game's work: one list each, no temporaries
            out.append(["place", inst, sp[0], sp[1]])
        fit = by_house.get(house_of[inst])
        if fit is not None:
            for sp in fit:
                out.append(["place", inst, sp[0], sp[1]])
    return out


def playable(court, hand, house_of):
    """True if any card of the hand has a legal position (cheaper than listing them)."""
    spots = open_spots(court)
    if not spots:
        return False
    if spots[0][2] is None:
        return bool(hand)  # a base position takes any card
    houses = {house_of[c] for c in hand}
    return any(a in houses or b in houses for (_, _, a, b) in spots)


def place(court, inst, house, row, pos):
    """Put a card on the court. The caller has checked the position is legal."""
    court["cards"][row][pos] = inst
    court["houses"][row][pos] = house
    court["count"][row] += 1
    s = court["span"][row]
    if s is None:
        court["span"][row] = [pos, pos]
    elif pos < s[0]:
        s[0] = pos
    elif pos > s[1]:
        s[1] = pos
    # The open spots: this one is taken (on the base, its ends move); above, a place opens where the
    # new card and a neighbour now lie side by side. (Cards never leave the court during a round.)
    # They stay sorted by row, then position (no two share both): the base's first, each new one
    # put in its place, so no spot is compared with another as a whole list.
    if row == 0:
        spots = _base_spots(court)
        spots += [sp for sp in court["open"] if sp[0] != 0]
    else:
        spots = [sp for sp in court["open"] if sp[1] != pos or sp[0] != row]
    if row + 1 < court["width"]:
        here, above = court["houses"][row], court["houses"][row + 1]
        for x in range(pos - 1, pos + 1):  # the places left and right above the new card
            if 0 <= x < len(above) and above[x] is None and here[x] is not None and here[x + 1] is not None:
                _insert_spot(spots, [row + 1, x, here[x], here[x + 1]])
    court["open"] = spots


def _insert_spot(spots, spot):
    """Put `spot` into `spots` (sorted by row, then position) where it belongs."""
    r, x = spot[0], spot[1]
    i = len(spots)
    while i and (spots[i - 1][0] > r or (spots[i - 1][0] == r and spots[i - 1][1] > x)):
        i -= 1
    spots.insert(i, spot)


def placed_cards(court):
    return [c for row in court["cards"] for c in row if c is not None]


def problems(court, house_of=None):
    """Why a court breaks the placement rules (empty list if it is legal). For tests and rigging."""
    out = []
    cards, houses = court["cards"], court["houses"]
    width, slots = court["width"], court["slots"]
    if len(cards) != width or any(len(cards[r]) != slots - r for r in range(width)):
        return ["the court does not have the shape of a %d-wide pyramid" % width]
    if court["open"] != scan_spots(court):
        out.append("the open spots kept are not the court's: %s, not %s" % (court["open"], scan_spots(court)))
    for r in range(width):
        filled = [x for x, c in enumerate(cards[r]) if c is not None]
        if [x for x, h in enumerate(houses[r]) if h is not None] != filled:
            out.append("row %d: cards and houses disagree" % r)
        if house_of is not None:
            for x in filled:
                if house_of.get(cards[r][x]) != houses[r][x]:
                    out.append("row %d position %d: %s is not of house %s" % (r, x, cards[r][x], houses[r][x]))
        span = [filled[0], filled[-1]] if filled else None
        if court["span"][r] != span or court["count"][r] != len(filled):
            out.append("row %d: span or count out of date" % r)
        if r == 0:
            if filled and filled[-1] - filled[0] + 1 != len(filled):
                out.append("the base has a gap")
            if len(filled) > width:
                out.append("the base holds %d cards, more than %d" % (len(filled), width))
            if filled and court["mode"] == "free" and not filled[0] <= width - 1 <= filled[-1]:
                out.append("the base does not contain the first card's place")
            continue
        for x in filled:
            a, b = houses[r - 1][x], houses[r - 1][x + 1]
            if a is None or b is None:
                out.append("row %d position %d does not rest on two cards" % (r, x))
            elif houses[r][x] not in (a, b):
                out.append("row %d position %d: %s on %s and %s" % (r, x, houses[r][x], a, b))
    return out


def rows_text(court, short=None):
    """The court as lines of text, top row first, each card as its house's initial ('.' empty)."""
    short = short or {}
    lines = []
    base = court["span"][0]
    if base is None:
        return ["(empty court)"]
    lo = base[0]
    for r in range(court["width"] - 1, -1, -1):
        if court["count"][r] == 0:
            continue
        cells = []
        for x in range(lo, base[1] + 1 - r):
            h = court["houses"][r][x]
            cells.append(short.get(h, h[0].upper()) if h else ".")
        lines.append(" " * r + " ".join(cells))
    return lines
