"""The hands page of a bot-hands seat (`--bot-hands SEAT`, table/bothands.py): what its bot chose, in
words, and the card to tap where, for the person who handles that seat's real cards.

    GET /hands/{seat}/{token}   the page     GET .../state   WS .../ws   its payload

The page shows that seat's own view (its hand included, as its seat page would) and the bot's plans;
it has no buttons: the bot decides, the person taps. Its token is drawn from the seat's kept token
(so its link lasts with the game's log, keys.py) but is not that token: a seat page's link does not
open the hands page, nor the other way round. The table page gets the plans in public words only.
"""

import hashlib

from . import payload


def hands_token(seat_token):
    """The hands page's token for a seat whose seat token is `seat_token`: derived, not the same."""
    return hashlib.sha256(("maester bot hands:" + seat_token).encode()).hexdigest()[:32]


def hands_payload(state, events, seat, hands):
    """The hands page: seat `seat`'s own page, without decisions (its bot makes them), and the bot's
    plans in that seat's words (its own hidden cards named)."""
    out = payload.seat_payload(state, events, seat, can_choose=False)
    out.update(kind="hands", decisions=[],
               plans=[dict(hands.private_words(p), ask=p["ask"]) for p in hands.open_plans() if p["seat"] == seat])
    return out


def table_plans(hands, view):
    """The plans of the bot-hands seats that wait for a tap, as the table page may show them. A plan
    that no tap expresses is applied at once, and is not shown before: it may be a secret (a bid)."""
    return [hands.public_words(p, view) for p in hands.open_plans() if p["tap"] is not None]
