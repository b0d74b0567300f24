"""LCG Core Set card data: counts, starter decks, keywords and restrictions, the titles of the rulebook,
a source on every value, abilities in our own words, the loader, and `maester cards check lcg`."""

import json
import re
import shutil
from pathlib import Path

import pytest

from maester.cards import db as cardsdb
from maester import cli
from maester.cards import check
from maester.games.lcg import abilities, cards as lcg_cards

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = json.loads((ROOT / "cards_db" / "lcg" / "cards.json").read_text())
COMPONENTS = json.loads((ROOT / "cards_db" / "lcg" / "components.json").read_text())
BY_ID = {c["id"]: c for c in SHIPPED["cards"]}
# The research notes and rulebooks live beside the project (../shared), not in it.
SHARED = ROOT.parent / "shared"
RESEARCH = SHARED / "research" / "agot-lcg-core.json"
RULEBOOK = SHARED / "seeds" / "agot-lcg-1st-ed-core-rules.txt"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MAESTER_CARDS_DB", raising=False)
    cardsdb.forget_cache()
    yield tmp_path / "home"
    cardsdb.forget_cache()


@pytest.fixture
def research():
    if not RESEARCH.exists():
        pytest.skip("needs %s (the research notes beside the project)" % RESEARCH)
    return {c["code"]: c for c in json.loads(RESEARCH.read_text())["cards"]}


@pytest.fixture
def db(tmp_path, monkeypatch):
    """A copy of cards_db/ to break on purpose; returns an editor for lcg/cards.json."""
    root = tmp_path / "db"
    shutil.copytree(ROOT / "cards_db", root)
    monkeypatch.setenv("MAESTER_CARDS_DB", str(root))

    def edit(change):
        path = root / "lcg" / "cards.json"
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
    return edit


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def codes(letter, *spans):
    return {"%s%d" % (letter, n) for a, b in spans for n in range(a, b + 1)}


# research/agot-lcg.md §2: the numbers in each starter deck and its draw deck by type.
DECKS = {
    "stark": (codes("S", (1, 33), (135, 139), (155, 160), (177, 177), (195, 201)),
              {"character": 23, "location": 12, "attachment": 3, "event": 7}),
    "lannister": (codes("L", (34, 65), (140, 144), (161, 167), (178, 178), (188, 194)),
                  {"character": 22, "location": 13, "attachment": 3, "event": 7}),
    "baratheon": (codes("B", (66, 99), (145, 149), (168, 172), (179, 179), (181, 187)),
                  {"character": 23, "location": 11, "attachment": 5, "event": 6}),
    "targaryen": (codes("T", (100, 134), (150, 154), (173, 176), (180, 180), (202, 208)),
                  {"character": 23, "location": 12, "attachment": 6, "event": 4}),
}


def with_keyword(kw):
    return {c["id"] for c in SHIPPED["cards"] if kw in c["keywords"]}


def with_restriction(rule):
    return {c["id"] for c in SHIPPED["cards"] if rule in c["restrictions"]}


# --- the data and its checks --------------------------------------------------------------------

def test_the_card_data_passes_its_schema_and_checks():
    assert check.validate("lcg") == []


def test_208_cards_one_per_number_by_type():
    assert len(SHIPPED["cards"]) == 208
    assert sorted(c["number"] for c in SHIPPED["cards"]) == list(range(1, 209))
    assert all(c["id"] == "%s%d" % (c["deck"][0].upper(), c["number"]) and c["copies"] == 1 for c in SHIPPED["cards"])
    by_type = {}
    for c in SHIPPED["cards"]:
        by_type[c["type"]] = by_type.get(c["type"], 0) + 1
    assert by_type == {"character": 91, "location": 48, "attachment": 17, "event": 24, "plot": 28}
    counts = COMPONENTS["counts"]
    assert {k: counts[k] for k in ("characters", "locations", "attachments", "events", "plots")} == \
        {t + "s": n for t, n in by_type.items()}


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_each_starter_deck_is_45_cards_and_7_plots_as_the_research_counts(deck):
    numbers, breakdown = DECKS[deck]
    d = SHIPPED["decks"][deck]
    assert d["house"] == deck and len(d["draw"]) == 45 and len(d["plots"]) == 7
    assert set(d["draw"]) | set(d["plots"]) == numbers
    types = {}
    for code in d["draw"]:
        types[BY_ID[code]["type"]] = types.get(BY_ID[code]["type"], 0) + 1
    assert types == breakdown
    assert all(BY_ID[code]["type"] == "plot" for code in d["plots"])
    assert lcg_cards.deck_names() == ["stark", "lannister", "baratheon", "targaryen"]


def test_every_value_has_a_source_and_every_assumed_value_a_note():
    def fields(rec):
        return set(rec) - {"id", "note", "src"}
    records = SHIPPED["cards"] + SHIPPED["houses"] + SHIPPED["titles"] + list(SHIPPED["decks"].values())
    for rec in records:
        src = rec["src"]
        assert fields(rec) <= set(src), (rec.get("id") or rec["house"], fields(rec) - set(src))
        assert set(src.values()) <= {"rulebook", "research", "assumed"}
        if "assumed" in src.values():
            assert rec.get("note", "").strip(), rec["id"]
    for key, value in COMPONENTS.items():
        if key in ("game", "title", "sources", "src", "notes"):
            continue
        assert key in COMPONENTS["src"] or (isinstance(value, dict) and "src" in value), key


def test_keywords_as_the_research_counts_them():
    assert {kw: len(with_keyword(kw)) for kw in ("deadly", "renown", "stealth", "limited", "no_attachments")} == \
        {"deadly": 10, "renown": 9, "stealth": 16, "limited": 24, "no_attachments": 22}
    assert with_keyword("deadly") == {"S5", "S11", "S12", "S14", "L37", "L44", "L51", "B82", "T114", "T122"}
    assert with_keyword("renown") == {"S5", "B71", "B72", "B74", "B76", "B85", "B90", "T106", "B146"}
    assert with_keyword("stealth") == {"L38", "L43", "L49", "L51", "B79", "B87", "T107", "T109", "T110", "T111",
                                       "T112", "T117", "S135", "S137", "L141", "L142"}
    assert with_keyword("no_attachments_except_weapon") == {"B81", "S136", "B146"}
    assert with_keyword("immune_character") == {"L47", "T122"}
    assert with_keyword("immune_opponent_character") == {"B73", "B76"}
    assert [with_keyword(k) for k in ("stalwart", "infamy", "vigilant", "ambush", "deathbound")] == \
        [{"S5"}, {"L37"}, {"B68"}, {"T103"}, {"T174"}]
    assert with_keyword("setup") == set()       # the rulebook defines it; no Core card has it
    # A keyword a card only gains under a condition belongs to its ability (Devan Seaworth's stealth).
    assert "stealth" not in BY_ID["B80"]["keywords"] and "stealth" in BY_ID["B80"]["ability"]


def test_restrictions():
    assert with_restriction({"limit_per_deck": 1}) == {"S139", "L144", "B149"}
    assert with_restriction({"limit_per_character": 1}) == {"L140", "T150"}
    assert with_restriction({"limit_per_plot_deck": 1}) == {"S201"}
    assert with_restriction({"plot_copies": 2}) == {"L194", "S200"}
    assert with_restriction({"attach_to": "opponent_character"}) == {"B67"}
    assert with_restriction({"attach_to": "character", "house": "stark"}) == {"S1", "S2", "S3"}
    assert with_restriction({"attach_to": "character", "traits_any": ["Lord", "Lady"]}) == {"T150"}
    assert [with_restriction({"limit": span}) for span in ("round", "challenge", "phase")] == \
        [{"S156"}, {"S158"}, {"T175"}]
    assert {h: len(with_restriction({"house_only": h})) for h in ("stark", "lannister", "baratheon", "targaryen")} == \
        {"stark": 5, "lannister": 6, "baratheon": 3, "targaryen": 6}
    for c in SHIPPED["cards"]:
        targets = [r for r in c["restrictions"] if "attach_to" in r]
        assert len(targets) == (c["type"] == "attachment"), c["id"]
    # Multi-house cards keep every house; neutral cards have none.
    assert [BY_ID[c]["houses"] for c in ("S33", "B99", "L65", "T134", "S136")] == \
        [["stark", "baratheon"], ["stark", "baratheon"], ["lannister", "greyjoy"], ["targaryen", "martell"], []]


def test_the_titles_follow_the_rulebook():
    titles = {t["id"]: t for t in SHIPPED["titles"]}
    assert {t: titles[t]["supports"] for t in titles} == {
        "master_of_laws": ["hand_of_the_king"], "hand_of_the_king": ["master_of_whispers"],
        "master_of_whispers": ["master_of_coin"], "master_of_coin": ["master_of_laws"],
        "crown_regent": [], "lord_commander": []}
    assert {t: sorted(titles[t]["opposes"]) for t in titles} == {
        "hand_of_the_king": ["master_of_coin"], "master_of_coin": ["hand_of_the_king"],
        "master_of_laws": ["master_of_whispers"], "master_of_whispers": ["crown_regent", "master_of_laws"],
        "crown_regent": [], "lord_commander": []}
    assert {t: titles[t]["effect"] for t in titles} == {
        "crown_regent": {"str_bonus": {"challenge": "power", "amount": 3}, "redirect": "any"},
        "lord_commander": {"str_bonus": {"challenge": "military", "amount": 3},
                           "redirect": "undefended_military_to_self", "redirect_win_power": 1},
        "master_of_whispers": {"str_bonus": {"challenge": "intrigue", "amount": 3}},
        "hand_of_the_king": {"influence_once_per_round": 2},
        "master_of_laws": {"extra_draw": 1},
        "master_of_coin": {"income": 2}}
    # The rulebook lost the icons of the three STR bonuses (and of the Lord Commander's redirect).
    assumed = {(t, f) for t in titles for f, s in titles[t]["src"].items() if s == "assumed"}
    assert assumed == {("crown_regent", "effect.str_bonus.challenge"), ("lord_commander", "effect.str_bonus.challenge"),
                       ("master_of_whispers", "effect.str_bonus.challenge"), ("lord_commander", "effect.redirect")}
    assert all("icon" in titles[t]["note"] for t, _ in assumed)


def test_components_from_the_rulebook():
    c = COMPONENTS
    assert (c["power_to_win"], c["team_power_to_win"], c["setup_gold"], c["setup_hand"], c["draw_phase"],
            c["draw_cap"], c["gold_penalty"]) == (15, 30, 5, 7, 2, 3, 2)
    assert c["deck_rules"]["plot_deck"] == 7 and c["counts"]["house_cards"] == 6 and c["counts"]["titles"] == 6
    assert [h["house"] for h in SHIPPED["houses"] if not h["starter"]] == ["greyjoy", "martell"]


# --- our own words ------------------------------------------------------------------------------

def _grams(text, n):
    w = re.findall(r"[a-z0-9']+", text.lower())
    return {" ".join(w[i:i + n]) for i in range(len(w) - n + 1)}


def _own_texts():
    out = [(c["id"], f, c[f]) for c in SHIPPED["cards"] for f in ("ability", "errata", "note") if c.get(f)]
    return out + [(t["id"], f, t[f]) for t in SHIPPED["titles"] for f in ("text", "note") if t.get(f)]


def test_abilities_are_our_own_words_not_the_research_paraphrase(research):
    theirs = [r["ability_paraphrase"] for r in research.values()] + \
        [r["errata_or_faq_note"] for r in research.values() if r.get("errata_or_faq_note")]
    runs = set().union(*(_grams(t, 8) for t in theirs))
    for cid, field, text in _own_texts():
        assert text not in theirs, (cid, field)
        assert not _grams(text, 8) & runs, (cid, field, sorted(_grams(text, 8) & runs))


def test_abilities_repeat_no_rulebook_sentence():
    if not RULEBOOK.exists():
        pytest.skip("needs %s" % RULEBOOK)
    runs = _grams(RULEBOOK.read_text(encoding="utf-8"), 8)
    for cid, field, text in _own_texts():
        assert not _grams(text, 8) & runs, (cid, field, sorted(_grams(text, 8) & runs))


def test_copies_repeat_their_original_and_vanilla_cards_have_no_ability():
    for c in SHIPPED["cards"]:
        if c["duplicate_of"]:
            orig = BY_ID[c["duplicate_of"]]
            assert (orig["name"], orig["ability"]) == (c["name"], c["ability"]), c["id"]
    assert [BY_ID[c]["ability"] for c in ("S16", "S18", "B76", "S29", "S138")] == [None] * 5


# --- the research, field by field ---------------------------------------------------------------

# The research's keywords that are not one lowercase word, as our ids.
KEYWORDS = {"No attachments": "no_attachments", "No attachments except Weapon": "no_attachments_except_weapon",
            "Immune to character abilities": "immune_character",
            "Immune to opponents' character abilities": "immune_opponent_character"}


def test_the_research_values_are_carried_over(research):
    """Every value marked `research` (or `rulebook`, which agrees) is the research's, normalised."""
    assert set(research) == set(BY_ID)
    for code, r in research.items():
        c = BY_ID[code]
        plot = {k: r[k] for k in ("income", "initiative", "claim")} if r["type"] == "Plot" else None
        expected = {
            "number": r["number"], "deck": r["starter_deck"].lower(), "name": r["name"], "type": r["type"].lower(),
            "houses": [h.lower() for h in r["house_affiliation"] if h != "Neutral"], "unique": r["unique"],
            "cost": r.get("cost"), "str": r.get("strength"), "icons": [i.lower() for i in r.get("icons") or []],
            "crests": [x.lower() for x in r["crests"]], "traits": r["traits"],
            "keywords": [KEYWORDS.get(k, k.lower()) for k in r["keywords"]],
            "income": r.get("income_bonus") or 0, "influence": r.get("influence") or 0, "plot": plot,
            "duplicate_of": r["duplicate_of"], "joust": r["legality_joust"].lower(),
            # a ruling on a card holds for its copies too (Robert Baratheon B90, Rhaegal T110)
            "errata": bool(r.get("errata_or_faq_note") or
                           r["duplicate_of"] and research[r["duplicate_of"]].get("errata_or_faq_note")),
        }
        got = dict({k: c[k] for k in expected}, errata=c["errata"] is not None)
        assert got == expected, (code, {k: (got[k], v) for k, v in expected.items() if got[k] != v})


# --- the loader ---------------------------------------------------------------------------------

def test_the_loader_gives_the_engine_a_small_plain_table():
    table = lcg_cards.card_table(owner=False)
    assert set(table) == {"cards", "decks", "titles", "houses", "components"}
    assert len(table["cards"]) == 208
    bran = table["cards"]["S13"]
    assert set(bran) == set(lcg_cards.CARD_FIELDS) | {"errata"}
    assert bran["errata"] is True and table["cards"]["S5"]["errata"] is False and "ability" not in bran
    assert table["decks"]["stark"] == {k: SHIPPED["decks"]["stark"][k] for k in ("house", "draw", "plots")}
    assert table["titles"]["master_of_coin"] == {"name": "Master of Coin", "supports": ["master_of_laws"],
                                                 "opposes": ["hand_of_the_king"], "effect": {"income": 2}}
    assert table["houses"] == ["baratheon", "greyjoy", "lannister", "martell", "stark", "targaryen"]
    assert table["components"]["power_to_win"] == 15
    assert json.loads(json.dumps(table)) == table        # plain JSON: it is frozen into a game's config
    assert lcg_cards.ability_text("S5") == BY_ID["S5"]["ability"] and lcg_cards.ability_text("S16") is None
    with pytest.raises(KeyError):
        lcg_cards.ability_text("X1")


def test_an_owner_correction_replaces_the_card_and_its_assumption():
    fixed = dict(BY_ID["B77"], ability="Marshalling: kneel Cressen to discard a Condition attachment.",
                 src=dict(BY_ID["B77"]["src"], ability="owner"))
    fixed.pop("note")
    path = cardsdb.owner_file("lcg")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"game": "lcg", "cards": [fixed]}))
    assert check.validate("lcg") == []
    assert lcg_cards.ability_text("B77") == fixed["ability"]
    listed = {(i["card"], i["field"]) for g in check.report("lcg")["assumed"] for i in g["items"]}
    assert ("B77", "ability") not in listed and ("T104", "restrictions") in listed


# --- what the checks catch ----------------------------------------------------------------------

def _card(doc, code):
    return next(c for c in doc["cards"] if c["id"] == code)


BROKEN = {
    "unknown keyword": (lambda d: _card(d, "S5")["keywords"].append("fearless"), ["S5", "fearless"]),
    "field without a source": (lambda d: _card(d, "S5")["src"].pop("cost"), ["S5", "'cost' is a required"]),
    "attachment with no target": (lambda d: _card(d, "L34").update(restrictions=[]), ["L34", "restrictions"]),
    "plot with a cost": (lambda d: _card(d, "S201").update(cost=2), ["S201", "cost"]),
    "deck names a missing card": (lambda d: d["decks"]["stark"]["draw"].append("S999"), ["S999 is not a card"]),
    "plot in the draw deck": (lambda d: d["decks"]["stark"].update(
        draw=d["decks"]["stark"]["draw"][:-1] + ["S195"], plots=d["decks"]["stark"]["plots"][1:] + ["S32"]),
        ["S195 (plot) does not belong in the draw"]),
    "copy of another card": (lambda d: _card(d, "S30").update(duplicate_of="S26"), ["S30", "duplicate_of 'S26'"]),
    "title supports a stranger": (lambda d: d["titles"][0].update(supports=["master_of_ships"]), ["master_of_ships"]),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_validate_reports_a_broken_record(db, case):
    change, words = BROKEN[case]
    db(change)
    problems = check.validate("lcg")
    assert any(all(w in p for w in words) for p in problems), problems


def test_card_abilities_may_name_only_cards_that_have_one(monkeypatch):
    monkeypatch.setattr(abilities, "CARD_ABILITIES", {"S5", "S16", "X9"})
    problems = check.validate("lcg")
    assert any("'X9', which is not a card" in p for p in problems), problems
    assert any("S16 (War Host of the North), which has no ability" in p for p in problems), problems
    monkeypatch.setattr(abilities, "CARD_ABILITIES", {"S5", "S29", "B71"})
    ab = check.report("lcg")["abilities"]
    assert {"S5", "B71", "B90"} <= set(ab["implemented"])   # naming B71 covers its copy B90
    assert "S29" not in ab["implemented"]                    # Great Keep has no ability text to implement
    assert len(ab["implemented"]) + len(ab["by_hand"]) == sum(1 for c in SHIPPED["cards"] if c["ability"])


# --- maester cards check lcg --------------------------------------------------------------------

def test_cards_check_lcg_prints_counts_decks_assumptions_errata_and_abilities(capsys):
    code, out, err = run(capsys, "cards", "check", "lcg")
    assert code == 0, err
    assert "91 characters, 48 locations, 17 attachments, 24 events, 28 plots" in out
    rows = {re.sub(r"[^a-z0-9]+", " ", line).strip() for line in out.splitlines()}
    # deck, draw, plots, then characters, locations, attachments and events
    assert {"stark 45 7 23 12 3 7", "lannister 45 7 22 13 3 7", "baratheon 45 7 23 11 5 6",
            "targaryen 45 7 23 12 6 4"} <= rows
    assert "Crown Regent" in out and "Master of" in out and "Bones of a Child" in out
    assert "Errata and FAQ rulings (13 cards)" in out and "Fleeing to the Wall" in out
    assert "Card abilities" in out and "printed stats and keywords only" in out
    code, out, _ = run(capsys, "cards", "check", "lcg", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["problems"] == []
    assert {r["kind"]: r["total"] for r in rep["simulation"]} == \
        {"characters": 91, "locations": 48, "attachments": 17, "events": 24, "plots": 28}
    assert [(d["deck"], d["draw"], d["plots"]) for d in rep["decks"]] == \
        [("stark", 45, 7), ("lannister", 45, 7), ("baratheon", 45, 7), ("targaryen", 45, 7)]


def test_cards_add_lcg_says_what_to_do_instead(capsys):
    code, _, err = run(capsys, "cards", "add", "lcg", "--name", "Ser Pounce")
    assert code != 0 and "cannot enroll lcg cards yet" in err
