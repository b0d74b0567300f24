"""The LCG Core Set card data (cards_db/lcg/) as the plain-JSON table the engine freezes into its config.

    card_table(owner=True) -> {"cards": {code: {...}}, "decks": {...}, "titles": {id: {...}},
                               "houses": [...], "components": {...}}

Cards are keyed by code ("S5", "L38"): the collector number with the starter deck's letter. Each
record is one physical card; a further copy of a card (Great Keep S29-S31) has its own code and
names the first in `duplicate_of`. A card keeps: name, type (character, location, attachment,
event, plot), houses ([] neutral), unique, cost (null for events and plots), str (characters,
else null), icons, crests, traits, keywords, restrictions, income and influence (0 when none),
plot ({income, initiative, claim} or null), duplicate_of, deck (the starter deck it comes in)
and errata (a bool: a FAQ ruling or errata touches it; the text is in cards.json). The ability's
wording stays out of the table to keep saved games small: ability_text(code) gives it.

Vocabulary (also in cards_db/schema/lcg.schema.json):

keywords, printed at the top of a card's text:
    deadly, deathbound, renown, stealth, limited, setup (no Core card has it), no_attachments,
    no_attachments_except_weapon, immune_character (immune to character abilities),
    immune_opponent_character (immune to opponents' character abilities), and the House
    keywords stalwart, infamy, vigilant, ambush, intimidate, vengeful (the last two on no Core
    card). A keyword a card only gains under a condition (Devan Seaworth's stealth) is ability.

restrictions, a list of one-rule objects:
    {"house_only": h}                  only a player of House h may have it in their decks
    {"attach_to": "character"}         an attachment goes on a character; with "house": h only
                                       on a House h character, with "traits_any": [..] only on
                                       a character with one of those traits. Every attachment
                                       has exactly one attach_to; no other card has one.
    {"attach_to": "opponent_character"} only on a character an opponent controls (Motley)
    {"limit_per_deck": n}              at most n copies in a House deck
    {"limit_per_character": n}         at most n copies on one character
    {"limit_per_plot_deck": n}         at most n copies in a plot deck
    {"plot_copies": n}                 up to n copies in a plot deck (the deck rules allow 1)
    {"limit": "round"|"challenge"|"phase"}  each player plays it at most once in that span

title effects ({id: {"name", "supports", "opposes", "effect"}}):
    {"str_bonus": {"challenge": c, "amount": n}}  +n STR to the holder's side in each challenge
                                       of type c in which the holder has a participating character
    {"redirect": "any"}                once a round, after a challenge's target and attackers are
                                       declared, make the attacker pick another legal target
    {"redirect": "undefended_military_to_self", "redirect_win_power": 1}  once a round, when an
                                       opponent attacks another in a military challenge and no
                                       defenders are declared, become the target; winning it moves
                                       1 power from the attacker's House to the holder's
    {"influence_once_per_round": n}    produce n influence once in the round
    {"extra_draw": n}                  n more cards in the draw phase, outside the draw cap
    {"income": n}                      +n income in the marshalling phase
    The challenge types of the three STR bonuses and of the Lord Commander's redirect are
    assumed (the rulebook text lost their icons); `maester cards check lcg` lists them.
"""

from ...cards import db as cardsdb

GAME = "lcg"
# What the engine needs of a card; ability, errata text, note and src stay in cards.json.
CARD_FIELDS = ("name", "type", "houses", "unique", "cost", "str", "icons", "crests", "traits", "keywords",
               "restrictions", "income", "influence", "plot", "duplicate_of", "deck")


def card_table(owner=True):
    """The cards, decks, titles and components a game uses, frozen into its config."""
    return cardsdb.table(GAME, owner, _build)


def _build(data):
    cards = {c["id"]: dict({f: c[f] for f in CARD_FIELDS}, errata=c["errata"] is not None) for c in data["cards"]}
    return {
        "cards": cards,
        "decks": {name: {k: d[k] for k in ("house", "draw", "plots")} for name, d in data["decks"].items()},
        "titles": {t["id"]: {k: t[k] for k in ("name", "supports", "opposes", "effect")} for t in data["titles"]},
        "houses": sorted(h["house"] for h in data["houses"]),
        "components": data["components"],
    }


def deck_names():
    """The starter decks, in the order of the Core Set: stark, lannister, baratheon, targaryen."""
    return list(card_table()["decks"])


def ability_text(code):
    """Our paraphrase of a card's ability (for help and the seat pages), or None when it has none."""
    for card in cardsdb.load(GAME)["cards"]:
        if card["id"] == code:
            return card["ability"]
    raise KeyError("no LCG card %r" % code)


def data_problems(doc, implemented):
    """What the schema cannot say about a cards.json-shaped `doc`, as sentences.

    Decks name real cards of their own starter deck, plots in the plot deck and the rest in the
    House deck; a copy names an original of the same name; titles name titles; and the engine's
    CARD_ABILITIES (`implemented`) names only cards that have an ability.
    """
    cards = {c.get("id"): c for c in doc.get("cards", []) if isinstance(c, dict)}
    out = []
    for c in cards.values():
        orig = cards.get(c.get("duplicate_of")) if c.get("duplicate_of") else c
        if orig is None or orig.get("name") != c.get("name") or orig.get("duplicate_of"):
            out.append("%s: duplicate_of %r is not the first copy of %s" % (c["id"], c["duplicate_of"], c.get("name")))
    seen = {}
    for name, deck in (doc.get("decks") or {}).items():
        for part in ("draw", "plots"):
            for code in deck.get(part, []):
                card = cards.get(code)
                if card is None:
                    out.append("deck %s: %s is not a card" % (name, code))
                    continue
                if (card.get("type") == "plot") != (part == "plots"):
                    out.append("deck %s: %s (%s) does not belong in the %s" % (name, code, card.get("type"), part))
                if card.get("deck") != name:
                    out.append("deck %s: %s comes in the %s deck" % (name, code, card.get("deck")))
                if code in seen:
                    out.append("%s is in the %s deck and the %s deck" % (code, seen[code], name))
                seen.setdefault(code, name)
    out += ["%s comes in the %s deck but is in no deck's list" % (code, c.get("deck"))
            for code, c in cards.items() if code not in seen and c.get("deck") in (doc.get("decks") or {})]
    titles = {t.get("id") for t in doc.get("titles", [])}
    for t in doc.get("titles", []):
        for rel in ("supports", "opposes"):
            out += ["title %s %s %r, which is not a title" % (t["id"], rel, x) for x in t.get(rel, []) if x not in titles]
    for code in sorted(implemented):
        if code not in cards:
            out.append("CARD_ABILITIES names %r, which is not a card" % code)
        elif cards[code].get("ability") is None:
            out.append("CARD_ABILITIES names %s (%s), which has no ability" % (code, cards[code].get("name")))
    return out
