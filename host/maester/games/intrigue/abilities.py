"""Westeros Intrigue cards have no abilities: only a character's house and an Iron Throne card's
value and swords matter. The empty sets tell `maester cards check` that no card may name one."""

CHARACTER_ABILITIES = frozenset()
IRON_THRONE_ABILITIES = frozenset()
