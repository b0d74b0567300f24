"""How each game's card data is laid out, as the card tools read it: the card sections of its cards.json
and the ability keys each may name, the kinds a box counts, the card types `maester cards add` enrolls.
Another game plugs in with its folder cards_db/<game>/ (cards.json, components.json), its schema
cards_db/schema/<game>.schema.json and an entry here."""

PROFILES = {
    "btwixt": {
        # card section in cards.json -> the set in maester.games.<game>.abilities it may name
        "sections": {"allies": "ALLY_ABILITIES", "influence": "INFLUENCE_ABILITIES"},
        # kind (a key of components.json "counts") -> how to say it in a sentence
        "kinds": {"allies": "allies", "standard": "standard influence cards",
                  "event": "event cards", "leader": "leader cards"},
        # `maester cards add --type` -> the section the card goes in
        "types": {"ally": "allies", "standard": "influence", "event": "influence", "leader": "influence"},
    },
    "intrigue": {
        "sections": {"characters": "CHARACTER_ABILITIES", "iron_throne": "IRON_THRONE_ABILITIES"},
        "kinds": {"characters": "character cards", "iron_throne": "Iron Throne cards"},
        # no "types": `maester cards add` does not enroll Westeros Intrigue cards (yet)
    },
    "oathbreaker": {
        "sections": {"missions": "MISSION_ABILITIES", "decrees": "DECREE_ABILITIES",
                     "influence": "INFLUENCE_ABILITIES", "ambitions": "AMBITION_ABILITIES",
                     "characters": "CHARACTER_ABILITIES"},
        "kinds": {"missions": "mission cards", "decrees": "decree cards", "influence": "influence cards",
                  "ambitions": "ambition cards", "characters": "characters"},
        # no "types": `maester cards add` does not enroll Oathbreaker cards (yet)
    },
    "lcg": {
        "sections": {"cards": "CARD_ABILITIES"},
        # An LCG card's `ability` is our paraphrase of its text, not a key: the engine names the
        # cards whose ability it implements by id (an original covers its copies, `duplicate_of`).
        "abilities_by_id": True,
        # The box counts go by card type, not by section.
        "kind_by_type": {"character": "characters", "location": "locations", "attachment": "attachments",
                         "event": "events", "plot": "plots"},
        "kinds": {"characters": "characters", "locations": "locations", "attachments": "attachments",
                  "events": "events", "plots": "plots"},
        # Records beside the cards that carry a src too: their assumed values are listed as well.
        "reference": {"titles": "titles", "houses": "House cards"},
        # Checks the schema cannot express (decks, copies, titles): module:function(doc, implemented ids).
        "checks": "maester.games.lcg.cards:data_problems",
        # The whole Core Set is public: no simulation filler, so the check shows the counts instead.
        "filler": False,
        # no "types": `maester cards add` does not enroll LCG cards; corrections go in the owner's file
    },
}
