"""The per-seat lights every game shares, drawn from the public view.

Winners blink green and a seat that must act pulses white, in every game; otherwise a game's own
state for the seat (knelt, out, monarch...) or a dim idle light. With clocks (table/clocks.py, their
public reading in view["clocks"]), a seat whose time is low blinks orange, fast while its clock runs.
"""

WINNER = (0, 255, 0)
TO_ACT = (255, 255, 255)
IDLE = (40, 40, 60)
LOW_TIME = (255, 90, 0)
BOT_HANDS = (0, 160, 255)  # a bot-hands seat to act: its handler looks at the hands page and taps


def seat_lights(view, state_of):
    """{"seatN": (level, rgb, pattern, period_ms)}. `state_of(seat)` gives (level, rgb) or None."""
    acting = {a["seat"] for a in view["asks"]}
    winners = set(view["result"]["winners"]) if view.get("over") and view.get("result") else set()
    low = {c["seat"]: c["running"] for c in (view.get("clocks") or {}).get("seats", ()) if c["low"]}
    out = {}
    for seat in range(view["players"]):
        if seat in winners:
            light = (255, WINNER, "blink", 600)
        elif seat in low and not view.get("over"):
            light = (255, LOW_TIME, "blink", 300 if low[seat] else 1000)
        elif seat in acting:
            light = (255, TO_ACT, "pulse", 1200)
        else:
            level, rgb = state_of(seat) or (60, IDLE)
            light = (level, rgb, "solid", 0)
        out["seat%d" % seat] = light
    return out


def hands_lights(view, lights, seats):
    """`lights` with each of `seats` (played by a bot, its cards by a person: table/bothands.py) that
    must act pulsing blue instead of white, so its handler knows to read the hands page. From the
    public view alone: who acts is public, which card the bot chose is not."""
    acting = {a["seat"] for a in view["asks"]}
    out = dict(lights)
    for seat in seats:
        name = "seat%d" % seat
        if seat in acting and name in out and not view.get("over"):
            out[name] = (255, BOT_HANDS, "pulse", 1200)
    return out
