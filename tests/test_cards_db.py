"""Card data: the schema and checks, the simulation fill, the owner's report, `maester cards add`."""

import builtins
import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from maester.cards import db as cardsdb
from maester import cli, engine
from maester.cards import check
from maester.engine import cardtables

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = json.loads((ROOT / "cards_db" / "btwixt" / "cards.json").read_text())
COMPONENTS = json.loads((ROOT / "cards_db" / "btwixt" / "components.json").read_text())


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """A fresh owner home, the shipped data, no cache, and stdin that is not a terminal."""
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MAESTER_CARDS_DB", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    cardsdb.forget_cache()
    yield tmp_path / "home"
    cardsdb.forget_cache()


@pytest.fixture
def db(tmp_path, monkeypatch):
    """A copy of cards_db/ to break on purpose; returns an editor for btwixt/cards.json."""
    root = tmp_path / "db"
    shutil.copytree(ROOT / "cards_db", root)
    monkeypatch.setenv("MAESTER_CARDS_DB", str(root))

    def edit(change):
        path = root / "btwixt" / "cards.json"
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
    return edit


def owner_path():
    return cardsdb.owner_file("btwixt")


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def card(data, cid):
    return next(c for c in data["allies"] + data["influence"] if c["id"] == cid)


def filler(kind, leader=None):
    data = cardsdb.load("btwixt")
    section = data["allies"] if kind == "ally" else [c for c in data["influence"] if c["kind"] == kind]
    return sum(c["copies"] for c in section if c.get("simulation") and (leader is None or c["leader"] == leader))


# --- schema and validate() ---------------------------------------------------------------------

def test_shipped_data_passes_schema_and_checks():
    assert check.validate("btwixt") == []


def _set(cid, **fields):
    return lambda data: card(data, cid).update(fields)


def _drop(cid, field):
    return lambda data: card(data, cid).pop(field)


BROKEN = {
    "standard card coloured blue": (_set("royal-decree", colour="blue"), ["royal-decree", "colour", "'blue'"]),
    "event card coloured red": (_set("bribery", colour="red"), ["bribery", "colour", "'red'"]),
    "unknown kind": (_set("betrayal", kind="gold"), ["betrayal", "kind", "'gold'"]),
    "leader card without its leader": (_drop("matchmaker", "leader"), ["matchmaker", "'leader' is a required"]),
    "missing src": (_drop("varys", "src"), ["varys", "'src' is a required property"]),
    "src without name": (lambda d: card(d, "shae")["src"].pop("name"), ["shae", "'name' is a required"]),
    "unknown source": (lambda d: card(d, "shae")["src"].update(power="guess"), ["shae", "src.power", "'guess'"]),
    "upper-case id": (_set("shae", id="Shae"), ["Shae", "does not match"]),
    "power out of range": (_set("shae", power=21), ["shae", "power", "21"]),
    "no copies": (_set("shae", copies=0), ["shae", "copies"]),
    "ability the engine lacks": (_set("shae", ability="fireball"), ["shae", "'fireball'", "engine implements"]),
    "ally ability on an influence card": (_set("betrayal", ability="varys"), ["betrayal", "'varys'"]),
    "duplicate id": (lambda d: d["allies"].append(dict(card(d, "varys"))), ["duplicate id 'varys'"]),
    "id shared by an ally and an influence card": (
        lambda d: d["allies"].append(dict(card(d, "varys"), id="betrayal")), ["duplicate id 'betrayal'"]),
    "leader id that is not a leader": (_set("the-silence", leader="robert"), ["the-silence", "'robert'", "not a leader"]),
    "more allies than the box": (_set("varys", copies=52 - sum(c["copies"] for c in SHIPPED["allies"])),
                                 ["there are 51 allies", "box holds 50"]),
    "more leader cards than a leader has": (_set("the-silence", copies=5), ["Euron Greyjoy has 5", "holds 4"]),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_validate_reports_a_broken_record(db, case):
    change, words = BROKEN[case]
    db(change)
    problems = check.validate("btwixt")
    assert any(all(w in p for w in words) for p in problems), problems


def test_validate_reports_a_broken_owner_file_with_its_path(home):
    owner_path().parent.mkdir(parents=True)
    bad = dict(card(SHIPPED, "varys"), id="ser-davos", ability="smuggle")
    owner_path().write_text(json.dumps({"allies": [bad]}))
    problems = check.validate("btwixt")
    assert any(str(owner_path()) in p and "'smuggle'" in p for p in problems), problems


def test_validate_unknown_game_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown game 'catan'.*btwixt"):
        check.validate("catan")


# --- simulation fill ---------------------------------------------------------------------------

def test_simulation_fill_reaches_the_box_counts_and_is_labelled():
    data = cardsdb.load("btwixt", owner=False)
    copies = lambda cards: sum(c["copies"] for c in cards)  # noqa: E731
    by_kind = {k: [c for c in data["influence"] if c["kind"] == k] for k in ("standard", "event", "leader")}
    assert copies(data["allies"]) == 50
    assert {k: copies(v) for k, v in by_kind.items()} == {"standard": 62, "event": 11, "leader": 36}
    assert {l["id"]: copies(c for c in by_kind["leader"] if c["leader"] == l["id"]) for l in data["leaders"]} == \
        {l["id"]: 4 for l in SHIPPED["leaders"]}
    fill = [c for c in data["allies"] + data["influence"] if c["id"].startswith("sim-")]
    assert len(fill) == 50 + 62 + 11 + 36 - copies(SHIPPED["allies"] + SHIPPED["influence"])
    for c in fill:
        assert c["simulation"] is True and "(simulation)" in c["name"] and c["src"]["name"] == "simulation", c
    # ... and nothing else is: no shipped card is passed off as filler or the reverse.
    assert all(not c.get("simulation") for c in data["allies"] + data["influence"] if c not in fill)


# --- report() ----------------------------------------------------------------------------------

def _items(rep):
    return [(g["group"], i) for g in rep["assumed"] for i in g["items"]]


def test_report_lists_what_an_owner_should_check():
    rep = check.report("btwixt")
    items = _items(rep)
    decree = [i for _, i in items if i["card"] == "royal-decree" and i["field"] == "value"]
    assert decree == [{"card": "royal-decree", "name": "Royal Decree", "field": "value",
                       "value": card(SHIPPED, "royal-decree")["value"], "note": ""}]
    tokens = [i for g, i in items if g == "components" and i["card"] == "power_tokens"]
    assert [(t["field"], t["value"]) for t in tokens] == [("values", COMPONENTS["power_tokens"]["values"])]
    assert "split" in tokens[0]["note"]
    # A value the rulebook prints is not on the list.
    assert not [i for _, i in items if i["card"] == "oberyn-martell" and i["field"] == "power"]
    assert not [i for _, i in items if i["card"].startswith("sim-")]
    allies = next(r for r in rep["simulation"] if r["kind"] == "allies")
    real = sum(c["copies"] for c in SHIPPED["allies"])
    assert allies["summary"] == "%d of 50 allies are simulation filler" % (50 - real)
    assert rep["owner"] == []


def test_power_token_values_are_marked_as_our_assumption():
    # The rulebook counts 54 tokens with a numbered side but prints no value: all of it is ours.
    tokens = COMPONENTS["power_tokens"]
    assert tokens["src"] in ("assumed", {"values": "assumed"})
    assert "rulebook prints no" in tokens["note"] and "(rulebook)" not in tokens["note"].split(";")[0]


def test_cards_check_prints_the_report(capsys):
    code, out, err = run(capsys, "cards", "check", "btwixt")
    assert code == 0, err
    assert "Royal Decree" in out and "power tokens" in out and "of 50 allies are simulation filler" in out
    code, out, _ = run(capsys, "cards", "check", "btwixt", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["problems"] == [] and rep["simulation"][0]["total"] == 50


def test_cards_check_fails_on_bad_data(db, capsys):
    db(_set("shae", ability="fireball"))
    code, out, _ = run(capsys, "cards", "check", "btwixt")
    assert code == 1 and "fireball" in out
    code, out, _ = run(capsys, "cards", "check", "btwixt", "--json")
    assert code == 1 and any("fireball" in p for p in json.loads(out)["problems"])


# --- maester cards add -------------------------------------------------------------------------

NEW = {
    "ally": ["--name", "Ser Davos Seaworth", "--type", "ally", "--power", "4", "--ability", "manual"],
    "standard": ["--name", "Whispers", "--type", "standard", "--colour", "green", "--value", "5",
                 "--ability", "none", "--copies", "2"],
    "event": ["--name", "Red Wedding", "--type", "event", "--value", "7", "--ability", "manual"],
    "leader": ["--name", "Winter Is Coming", "--type", "leader", "--value", "4", "--leader", "jon",
               "--ability", "manual"],
}
NEW_ID = {"ally": "ser-davos-seaworth", "standard": "whispers", "event": "red-wedding", "leader": "winter-is-coming"}


@pytest.mark.parametrize("kind", sorted(NEW))
def test_add_enrolls_a_card_that_replaces_simulation_filler(kind, capsys):
    leader = "jon" if kind == "leader" else None
    before = filler(kind, leader)
    code, out, err = run(capsys, "cards", "add", "btwixt", *NEW[kind], "--note", "from my box")
    assert code == 0, err
    cid = NEW_ID[kind]
    written = json.loads(owner_path().read_text())
    assert [c["id"] for c in written.get("allies", []) + written.get("influence", [])] == [cid]

    # No forget_cache() here: in one process (a table session) the next load must see the card.
    new = card(cardsdb.load("btwixt"), cid)
    assert new["src"]["name"] == "owner" and not new.get("simulation") and new["note"] == "from my box"
    assert new["src"]["power" if kind == "ally" else "value"] == "owner"
    copies = 2 if kind == "standard" else 1
    assert filler(kind, leader) == before - copies
    assert "%d of" % (filler(kind)) in out
    if leader:
        assert "%d of Jon Snow's 4 leader cards" % (before - 1) in out

    state, _ = engine.new_game("btwixt", {"players": 4}, 7)
    info = cardtables.table(state)["info"][cid]
    assert info["name"] == new["name"] and info["sim"] is False
    if kind == "ally":
        assert info["power"] == 4 and info["ability"] == "manual"
    else:
        assert info["kind"] == kind and info["colour"] == {"standard": "green", "event": "blue",
                                                           "leader": "white"}[kind]
    assert check.validate("btwixt") == []
    assert [c["id"] for c in check.report("btwixt")["owner"]] == [cid]


def test_add_with_a_shipped_id_corrects_that_card(capsys):
    code, out, err = run(capsys, "cards", "add", "btwixt", "--id", "royal-decree", "--value", "7")
    assert code == 0, err
    assert "corrects the shipped record for Royal Decree" in out
    data = cardsdb.load("btwixt")
    decree = [c for c in data["influence"] if c["id"] == "royal-decree"]
    assert len(decree) == 1 and decree[0]["value"] == 7 and decree[0]["src"]["value"] == "owner"
    # What the owner did not restate stays as shipped, with its source: still to be checked.
    assert decree[0]["ability"] == "royal_decree" and decree[0]["src"]["colour"] == "assumed"
    rep = check.report("btwixt")
    fields = {i["field"] for _, i in _items(rep) if i["card"] == "royal-decree"}
    assert "value" not in fields and "colour" in fields
    assert rep["owner"][0]["corrects"] == "Royal Decree" and rep["owner"][0]["given"] == {"value": 7}
    state, _ = engine.new_game("btwixt", {"players": 4}, 1)
    assert cardtables.table(state)["info"]["royal-decree"]["value"] == 7


BAD = {
    "unknown ability": (["--name", "X", "--type", "ally", "--power", "3", "--ability", "fireball"],
                        ["'fireball'", "choose one of", "varys", "manual"]),
    "influence ability on an ally": (["--name", "X", "--type", "ally", "--power", "3", "--ability", "betrayal"],
                                     ["'betrayal'"]),
    "value 99": (["--name", "X", "--type", "standard", "--colour", "red", "--value", "99", "--ability", "none"],
                 ["value", "99", "maximum"]),
    "missing options without a terminal": (["--name", "X", "--type", "standard"],
                                           ["missing --colour, --value, --ability", "not a terminal"]),
    "no name without a terminal": (["--type", "ally"], ["missing --name"]),
    "bad colour": (["--name", "X", "--type", "standard", "--colour", "blue", "--value", "3", "--ability", "none"],
                   ["'blue'", "red, green, purple"]),
    "power on an influence card": (["--name", "X", "--type", "event", "--power", "3"], ["--power", "event"]),
    "unknown leader": (["--name", "X", "--type", "leader", "--value", "3", "--leader", "robert",
                        "--ability", "manual"], ["'robert'", "cersei"]),
    "type change of a shipped card": (["--id", "varys", "--type", "standard", "--colour", "red", "--value", "3"],
                                      ["'varys'", "another type"]),
    "simulation id": (["--id", "sim-ally-01", "--name", "X", "--type", "ally", "--power", "2", "--ability", "none"],
                      ["simulation"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_add_refuses_bad_input_and_writes_nothing(case, capsys):
    # An earlier enrolment must survive a refused one byte for byte.
    assert run(capsys, "cards", "add", "btwixt", *NEW["event"])[0] == 0
    before = owner_path().read_bytes()
    argv, words = BAD[case]
    code, out, err = run(capsys, "cards", "add", "btwixt", *argv)
    assert code != 0
    assert all(w in err for w in words), err
    assert owner_path().read_bytes() == before
    assert [p.name for p in owner_path().parent.iterdir()] == ["btwixt.json"]  # no temp file left behind


def test_add_unknown_game(capsys):
    code, _, err = run(capsys, "cards", "add", "catan", *NEW["ally"])
    assert code != 0 and "unknown game 'catan'" in err and "btwixt" in err
    assert not owner_path().parent.exists()


def test_add_refuses_an_enrolled_id_unless_replace(capsys):
    assert run(capsys, "cards", "add", "btwixt", *NEW["ally"])[0] == 0
    first = owner_path().read_bytes()
    code, _, err = run(capsys, "cards", "add", "btwixt", *NEW["ally"])
    assert code != 0 and "--replace" in err and owner_path().read_bytes() == first

    code, out, err = run(capsys, "cards", "add", "btwixt", "--id", "ser-davos-seaworth", "--power", "6", "--replace")
    assert code == 0, err
    allies = json.loads(owner_path().read_text())["allies"]
    assert len(allies) == 1
    assert allies[0]["power"] == 6 and allies[0]["name"] == "Ser Davos Seaworth" and allies[0]["ability"] == "manual"
    assert card(cardsdb.load("btwixt"), "ser-davos-seaworth")["power"] == 6


def test_add_prompts_on_a_terminal(monkeypatch, capsys):
    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(sys, "stdin", Terminal())
    answers = iter(["Ser Davos Seaworth", "ally", "lots", "4", "fireball", "manual"])
    prompts = []
    monkeypatch.setattr(builtins, "input", lambda prompt: prompts.append(prompt) or next(answers))
    code, _, err = run(capsys, "cards", "add", "btwixt")
    assert code == 0, err
    assert any(p.startswith("type [ally, event, leader, standard]") for p in prompts), prompts
    assert any(p.startswith("ability [") and "varys" in p and "manual, none" in p for p in prompts), prompts
    assert "whole number" in err and "'fireball'" in err  # bad answers are explained, then asked again
    davos = json.loads(owner_path().read_text())["allies"][0]
    assert (davos["id"], davos["power"], davos["ability"]) == ("ser-davos-seaworth", 4, "manual")


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _answer(monkeypatch, answers):
    """stdin is a terminal and `answers` are typed at the prompts in turn; then Ctrl-D. Returns the prompts."""
    monkeypatch.setattr(sys, "stdin", _Terminal())
    answers, prompts = iter(answers), []

    def typed(prompt):
        prompts.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None
    monkeypatch.setattr(builtins, "input", typed)
    return prompts


def test_enter_at_the_optional_ability_prompt_means_none_and_keeps_every_answer(monkeypatch, capsys):
    # Enter at a required prompt asks again; Enter at the ability prompt is "none".
    prompts = _answer(monkeypatch, ["", "Ser Davos Seaworth", "ally", "", "4", ""])
    code, out, err = run(capsys, "cards", "add", "btwixt")
    assert code == 0, err
    assert "not a terminal" not in err and "name is needed" in err and "power is needed" in err
    assert [p.split(" ")[0].rstrip(":") for p in prompts] == ["name", "name", "type", "power", "power", "ability"]
    assert "(Enter: none)" in prompts[-1]
    davos = json.loads(owner_path().read_text())["allies"][0]
    assert (davos["name"], davos["power"], davos["ability"]) == ("Ser Davos Seaworth", 4, None)
    assert card(cardsdb.load("btwixt"), "ser-davos-seaworth")["ability"] is None


def test_ctrl_d_at_a_prompt_stops_and_writes_nothing(monkeypatch, capsys):
    _answer(monkeypatch, ["Ser Davos Seaworth", "ally"])
    code, out, err = run(capsys, "cards", "add", "btwixt")
    assert code == 2
    assert "stopped at the power prompt" in err and "nothing written" in err and "Traceback" not in err
    assert not owner_path().exists()


# --- an owner file of the wrong shape is an error naming it, never a traceback -----------------

@pytest.mark.parametrize("content,words", [
    ("[1, 2]", "[1, 2] is not of type 'object'"),
    ('{"game": "btwixt", "allies": [1]}', "$.allies[0]: 1 is not of type 'object'"),
    ('{"game": "btwixt", "allies": [{"id": "x", "name": "X"}]}', "'power' is a required property"),
    ("{nope", "not valid JSON"),
])
def test_a_broken_owner_file_is_named_by_every_command_that_reads_it(content, words, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # `cards check` prints through rich: no wrapping inside the path
    owner_path().parent.mkdir(parents=True)
    owner_path().write_text(content)
    where = str(owner_path())
    with pytest.raises(ValueError) as e:
        cardsdb.load("btwixt")
    assert where in str(e.value) and words in str(e.value)
    assert "maester cards check btwixt" in str(e.value) or "JSON" in words

    code, out, err = run(capsys, "cards", "check", "btwixt")
    assert code == 1 and where in out and words in out, out  # `cards check` reports problems: status 1
    code, out, err = run(capsys, "cards", "add", "btwixt", *NEW["ally"])
    assert code == 2 and where in err and "Traceback" not in err, err
    code, out, err = run(capsys, "sim", "btwixt", "--games", "1")
    assert code == 2 and where in err and words in err, err
    log = tmp_path / "game.sqlite"
    code, out, err = run(capsys, "play", "btwixt", "--sim", "--plain", "--no-web", "--seed", "1", "--log", str(log))
    assert code == 2 and where in err, err
    assert not log.exists()
    assert owner_path().read_text() == content and [p.name for p in owner_path().parent.iterdir()] == ["btwixt.json"]
