"""Card abilities of the LCG Core Set that the engine implements, keyed by card code ("S5", "L38").

`CARD_ABILITIES` names the cards whose ability is code; naming a card's original (its
`duplicate_of`) covers its further copies. Any other card with an ability is resolved by hand.
"""

CARD_ABILITIES = set()
