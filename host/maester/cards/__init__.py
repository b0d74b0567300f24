"""The card data (cards_db/): loaded with the provenance of every value, the simulation filler and the
owner's own enrolled cards (db.py), and checked against its schema and the rules' code (check.py)."""
