"""Oathbreaker on the table: what the LEDs show, drawn from the public view only.

Segments: `order` and `chaos` (the two markers of the shared track, scaled to its length),
`round` (the round marker), and one per seat: the Hand of the King, the monarchs, whoever must
act, and the winners at the end. Nothing secret is in the public view, so nothing secret can
light up. A tapped card means the choices that name it (the default reading); a card that may go
to several missions is placed from the seat page.
"""

ORDER = (255, 255, 255)
CHAOS = (120, 0, 160)
ROUND = (255, 60, 0)
HAND = (255, 180, 0)
MONARCH = (200, 0, 200)
IDLE = (40, 40, 60)
TO_ACT = (255, 255, 255)
WINNER = (0, 255, 0)


def tap_choices(state, ask, card):
    return None


def _level(value, length):
    return max(0, min(255, value * 255 // max(1, length)))


def segments(view):
    length = view["track_length"]
    out = {
        "order": (_level(view["order"], length), ORDER, "solid", 0),
        "chaos": (_level(view["chaos"], length), CHAOS, "solid", 0),
        "round": (view["space"], ROUND, "solid", 0),
    }
    acting = {a["seat"] for a in view["asks"]}
    winners = set(view["result"]["winners"]) if view.get("over") and view.get("result") else set()
    for seat in range(view["players"]):
        if seat in winners:
            out["seat%d" % seat] = (255, WINNER, "blink", 600)
        elif seat in acting:
            out["seat%d" % seat] = (255, TO_ACT, "pulse", 1200)
        elif seat in view["monarchs"]:
            out["seat%d" % seat] = (200, MONARCH, "solid", 0)
        elif seat == view["hand_of_king"]:
            out["seat%d" % seat] = (255, HAND, "solid", 0)
        else:
            out["seat%d" % seat] = (60, IDLE, "solid", 0)
    return out
