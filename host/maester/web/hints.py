"""Optional hints that help the generic page renderer (static/render.js) draw a game's view.

Every key of a view is drawn without hints: known shapes (numbers, card lists, one entry per seat,
lists of records) get a readable widget and anything else falls back to a tree. Hints only choose
the order, the words and a few special widgets. A new game needs none to be playable in the
browser; it may add an entry here, or ship `HINTS` in `maester/games/<game>/web.py`, which wins.

Keys of a hint (all optional):
    order     keys drawn first, in this order (the rest follow alphabetically)
    labels    {key: heading}
    secret    keys that are this seat's secrets: drawn first, in their own highlighted box
    per_seat  keys whose value is a list with one entry per seat (drawn as a seat table)
    hide      keys not worth drawing (plumbing already shown elsewhere, e.g. the asks)
    seats     keys whose value is a seat number (drawn as that seat's name)
    widgets   {key: widget name} for a shape render.js draws specially ("court", "records")
    seat_label  a view key holding, per seat, a card whose name labels that seat
"""

import functools

from .. import games

COMMON_HIDE = ["asks", "game", "players", "seat", "over"]

HINTS = {
    "btwixt": {
        "order": ["season", "round_space", "last_space", "first", "current", "current_tokens", "row",
                  "councils", "bids", "knelt", "hand_sizes", "result"],
        "labels": {"round_space": "Round track", "last_space": "Last space", "first": "First player",
                   "current": "Ally up for bidding", "current_tokens": "Power tokens on the ally",
                   "row": "Allies in the row", "bids": "Bids", "knelt": "Knelt",
                   "hand_sizes": "Cards in hand", "hand": "Your hand", "seen_hands": "Hands you have seen",
                   "leader_cards": "Your leader cards", "draft": "Your draft",
                   "leader_cards_left": "Leader cards left", "token_values": "Power token values"},
        "secret": ["hand", "seen_hands", "leader_cards", "draft"],
        "per_seat": ["bids", "knelt", "hand_sizes", "leader_cards_left"],
        "seats": ["first"],
        "hide": ["leaders"],  # the seats are named after their leaders everywhere already
        "widgets": {"councils": "records"},
    },
    "intrigue": {
        "order": ["round", "rounds", "starter", "turn", "court", "out", "hand_sizes", "penalties",
                  "throne_counts", "result"],
        "labels": {"court": "The court", "out": "Out this round", "hand_sizes": "Cards in hand",
                   "penalties": "Penalties", "throne_counts": "Iron Throne cards", "hand": "Your hand",
                   "my_thrones": "Your Iron Throne cards", "starter": "Started the round", "turn": "Turn"},
        "secret": ["hand", "my_thrones"],
        "per_seat": ["out", "hand_sizes", "penalties", "throne_counts"],
        "seats": ["starter", "turn", "last"],
        "widgets": {"court": "court", "history": "records"},
    },
    "oathbreaker": {
        "order": ["phase", "round", "order", "chaos", "track_length", "king", "queen", "hand_of_king",
                  "missions", "characters", "cubes", "decrees", "hand_sizes", "guesses", "result"],
        "labels": {"loyalty_mine": "Your loyalty", "ambition_mine": "Your ambition", "hand": "Your hand",
                   "notes": "What you learned", "my_plays": "Your plays this round",
                   "decree_hand": "Your decrees", "partner_hand": "Your partner's decrees",
                   "my_confession": "Your confession", "hand_of_king": "Hand of the King",
                   "order": "Order", "chaos": "Chaos", "hand_sizes": "Cards in hand"},
        "secret": ["loyalty_mine", "ambition_mine", "hand", "my_plays", "my_confession", "notes",
                   "decree_hand", "partner_hand"],
        "per_seat": ["characters", "cubes", "decrees", "hand_sizes", "decree_hand_sizes", "guesses", "used",
                     "judge"],
        "seats": ["king", "queen", "hand_of_king"],
        "widgets": {"missions": "records", "history": "records"},
        "seat_label": "characters",
    },
}


@functools.lru_cache(maxsize=None)  # looked up on every broadcast; games do not change hints at run time
def for_game(game):
    hint = dict(HINTS.get(game, {}))
    hint.update(getattr(games.part(game, "web"), "HINTS", {}))
    hint["hide"] = COMMON_HIDE + list(hint.get("hide", []))
    return hint
