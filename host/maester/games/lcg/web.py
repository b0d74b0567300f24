"""Hints for the seat and table pages (web/hints.py): the generic renderer draws the LCG's view.

The seat's own hand, plots, chosen plot and face-down setup cards (the view repeats them at its top
for a seat) go in the page's "only you" box; the seats' records (House, power, gold, counts, cards in
play with their STR and kneeling) one seat to a row; the challenge in progress near the top.
"""

HINTS = {
    "order": ["round", "phase", "first", "initiative", "goal", "challenge", "seats", "title_pool", "teams",
              "effects", "bank", "result"],
    "labels": {"round": "Round", "phase": "Phase", "first": "First player", "initiative": "Won initiative",
               "goal": "Power to win", "challenge": "Challenge in progress", "seats": "Seats",
               "title_pool": "Titles not taken", "teams": "Teams", "effects": "Lasting effects",
               "bank": "Power and gold pools", "hand": "Your hand", "plots": "Your plot deck",
               "chosen_plot": "Your chosen plot", "setup_cards": "Your setup cards, face down"},
    "secret": ["hand", "plots", "chosen_plot", "setup_cards"],
    "per_seat": ["seats"],
    "seats": ["first", "initiative"],
    "hide": ["melee"],
}
