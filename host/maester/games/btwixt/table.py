"""B'Twixt on the table: what taps mean beyond "this card", and what the LEDs show.

Each leader has a tagged leader card (`leader:<id>`). Tapping your own leader card kneels (as you
turn it sideways on the table); tapping another leader's card picks that leader, or the council
you share with them. LEDs are drawn from the public view only, so they can show nothing secret.
"""

from ...engine import cardtables
from . import zones as Z
from ...table.lights import seat_lights

LEADER_TAG = "leader:"
# Robb Stark's questions hang on a hidden Betrayal: every leader is asked (abilities.ab_robb), and at a
# table each question stays open the same time whatever the hand, then closes with this answer
# (table/asking.py).
WINDOW_KINDS = {"robb_kill": ["decline"], "robb_cancel": ["accept"]}
SEASON_COLOURS = {"summer": (255, 180, 0), "autumn": (255, 70, 0), "winter": (60, 120, 255)}
FIRST = (255, 160, 0)
KNELT = (120, 0, 0)


def tap_choices(state, ask, card, place=None):
    if not card.startswith(LEADER_TAG):
        return None
    g = state["g"]
    leader = card[len(LEADER_TAG):]
    if leader not in g["leaders"]:
        return []
    target = g["leaders"].index(leader)
    seat = ask["seat"]
    if target == seat:
        return [c for c in ask["choices"] if c in (["kneel"], ["done"], ["decline"], ["accept"], ["none"])]
    shared = [c for c in Z.councils_of(g, seat) if Z.neighbour_via(g, seat, c) == target]
    return [c for c in ask["choices"]
            if c == ["leader", target] or (c[0] == "council" and c[1] in shared)]


def moves_card(state, ask, choice):
    """Kneeling turns the seat's leader card sideways: a card moves, even with no other choice."""
    return choice == ["kneel"]


def segments(view):
    """{segment name: (level, (r, g, b), pattern, period_ms)} from the public view."""
    # Both tracks are "dot" segments: level k lights pixel k, counted from 1 (0 lights none).
    out = {
        "round": (view["round_space"] + 1, (255, 255, 255), "solid", 0),
        "season": (("summer", "autumn", "winter").index(view["season"]) + 1, SEASON_COLOURS[view["season"]],
                   "solid", 0),
    }

    def state_of(seat):
        if view["knelt"][seat]:
            return 80, KNELT
        if seat == view["first"]:
            return 255, FIRST
        return None

    out.update(seat_lights(view, state_of))
    return out


def page_choices(state, ask):
    """The ally off the deck, chosen on a seat page when its card has no sticker: every ally of the
    game, whatever has been seen, so the list tells nothing of what was taken face down."""
    if ask["kind"] != "observe_ally":
        return []
    return [["ally", a] for a in sorted(cardtables.table(state)["ally_instances"])]
