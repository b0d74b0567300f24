"""The hardware data agree with each other and with the firmware; enroll and hw test work on the simulated board.

Pin maps (hardware/pins), table profiles (hardware/profiles) and the firmware config that
maester.table.hwconfig builds from them; the power budget; the committed diagrams against the data;
`maester enroll` and `maester hw test` driven through the simulated board.
"""

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from maester import cli
from maester.nfc import tags as tagfile
from maester.table import hwconfig
from maester.table import profile as profiles
from maester_fw import config as fwconfig
from maester_fw.leds import SOLID, Segments

ROOT = Path(__file__).resolve().parent.parent
DIAGRAMS = ROOT / "hardware" / "diagrams"
PROFILES = sorted(p.stem for p in profiles.PROFILE_DIR.glob("*.json"))
BOARDS = hwconfig.BOARDS


@pytest.fixture(scope="module")
def pinmaps():
    return {b: hwconfig.load_pinmap(b) for b in BOARDS}


# ---------------------------------------------------------------- pin maps, profiles, configs

def test_every_board_has_a_pin_map_and_every_game_profile_exists():
    assert sorted(p.stem for p in hwconfig.PINS_DIR.glob("*.json")) == sorted(BOARDS)
    for game, players in (("btwixt", range(3, 7)), ("intrigue", range(2, 7)), ("oathbreaker", range(5, 9)),
                          ("lcg", range(2, 7))):
        for n in players:
            assert "%s-%dp" % (game, n) in PROFILES


@pytest.mark.parametrize("board", BOARDS)
def test_a_pin_map_wires_each_pin_once_never_a_reserved_one(board, pinmaps):
    pm = pinmaps[board]
    used = hwconfig.used_pins(pm)  # raises on a pin used twice
    wired = [pm["spi"]["sck"], pm["spi"]["mosi"], pm["spi"]["miso"], pm["leds"]["pin"]] + pm["reader_cs"]
    assert len(used) == len(wired) == len(set(wired))
    assert not set(used) & {r["pin"] for r in pm["reserved"]}
    assert set(used) <= set(pm["gpio"])
    assert all(r["why"] for r in pm["reserved"])
    # and the check does catch a mistake: the LED pin doubling as a chip select
    bad = json.loads(json.dumps(pm))
    bad["reader_cs"][3] = bad["leds"]["pin"]
    with pytest.raises(ValueError, match="LED data"):
        hwconfig.check_pinmap(bad)
    bad = json.loads(json.dumps(pm))
    bad["reader_cs"][0] = pm["reserved"][0]["pin"]
    with pytest.raises(ValueError, match="reserved"):
        hwconfig.check_pinmap(bad)


@pytest.mark.parametrize("name", PROFILES)
def test_each_profile_gives_each_board_a_config_the_firmware_accepts(name, pinmaps):
    prof = profiles.load(name)
    for board, pm in pinmaps.items():
        assert len(prof["readers"]) <= len(pm["reader_cs"]), "%s: a chip select for every reader" % board
        assert prof["pixels"] <= pm["leds"]["max_pixels"]
        for seg in prof["segments"]:
            assert seg["start"] + seg["length"] <= prof["pixels"]
        raw = json.dumps(hwconfig.board_config(prof, pm))
        cfg = fwconfig.parse(raw)  # the firmware's own validator
        assert [r["name"] for r in cfg["readers"]] == [r["name"] for r in prof["readers"]]
        assert [r["cs"] for r in cfg["readers"]] == pm["reader_cs"][:len(prof["readers"])]
        assert cfg["spi"]["sck"] == pm["spi"]["sck"] and cfg["leds"]["pin"] == pm["leds"]["pin"]
        # segment wire ids (rank by first pixel) are the same on both sides
        assert [s[0] for s in cfg["segments"]] == [s["name"] for s in sorted(prof["segments"], key=lambda s: s["start"])]


@pytest.mark.parametrize("kind,folder", [("profile", profiles.PROFILE_DIR), ("pinmap", hwconfig.PINS_DIR)])
def test_every_shipped_profile_and_pin_map_passes_its_schema(kind, folder):
    files = sorted(folder.glob("*.json"))
    assert files
    for path in files:
        assert hwconfig.schema_problems(json.loads(path.read_text()), kind) == [], path
    loaded = [profiles.load(p) if kind == "profile" else hwconfig.load_pinmap(p) for p in files]
    assert len(loaded) == len(files)


def test_the_profile_schema_allows_the_modes_and_roles_the_code_knows():
    schema = json.loads((hwconfig.SCHEMA_DIR / "profile.schema.json").read_text())
    assert tuple(schema["$defs"]["segment"]["properties"]["mode"]["enum"]) == profiles.MODES
    assert tuple(schema["$defs"]["reader"]["properties"]["role"]["enum"]) == profiles.ROLES
    pins = json.loads((hwconfig.SCHEMA_DIR / "pinmap.schema.json").read_text())
    assert set(pins["properties"]["reader_type"]["enum"]) == set(hwconfig.READER_MA)


def _broken_profile(change):
    prof = json.loads((profiles.PROFILE_DIR / "btwixt-4p.json").read_text())
    change(prof)
    return prof


BROKEN_PROFILES = {
    "segment without length": (_broken_profile(lambda p: p["segments"][1].pop("length")),
                               ["$.segments[1] (season)", "'length' is a required property"]),
    "empty object": ({}, ["$: 'readers' is a required property", "'segments' is a required property"]),
    "readers a string": (_broken_profile(lambda p: p.update(readers="abc")), ["$.readers", "'abc' is not of type 'array'"]),
    "seat reader without a seat": (_broken_profile(lambda p: p["readers"][2].pop("seat")),
                                   ["$.readers[2] (seat1)", "'seat' is a required property"]),
    "a list": ([1, 2], ["$: [1, 2] is not of type 'object'"]),
    "not JSON": ("{nope", ["not valid JSON"]),
}


def _write(path, doc):
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


@pytest.mark.parametrize("case", sorted(BROKEN_PROFILES))
@pytest.mark.parametrize("command", ["hw test", "firmware flash", "play", "sim-board"])
def test_a_broken_profile_is_an_error_naming_the_file_and_the_field(case, command, tmp_path, capsys):
    doc, words = BROKEN_PROFILES[case]
    path = _write(tmp_path / "broken.json", doc)
    before = sorted(tmp_path.rglob("*"))
    argv = {"hw test": ["hw", "test", "--sim", "--auto", "0"],
            "firmware flash": ["firmware", "flash", "--port", str(tmp_path / "tty"), "--out", str(tmp_path / "build"),
                               "--mpremote", str(tmp_path / "no-mpremote")],
            # table/profile.py's load: the same check
            "play": ["play", "btwixt", "--players", "4", "--log", str(tmp_path / "game.sqlite")],
            "sim-board": ["sim-board"]}[command]
    rc = cli.main(argv + ["--profile", str(path)])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert str(path) in err and all(w in err for w in words), err
    assert "Traceback" not in err
    assert sorted(tmp_path.rglob("*")) == before  # no build, no config written


@pytest.mark.parametrize("change,words", [
    (lambda pm: pm.pop("reader_cs"), ["$: 'reader_cs' is a required property"]),
    (lambda pm: pm["spi"].update(sck="18"), ["$.spi.sck", "'18' is not of type 'integer'"]),
    (lambda pm: pm["reserved"][0].pop("why"), ["$.reserved[0]", "'why' is a required property"]),
    (lambda pm: pm["reader_cs"].__setitem__(0, pm["leds"]["pin"]), ["pin GP22 is both", "LED data"]),
])
def test_a_broken_pin_map_is_an_error_naming_the_file_and_the_field(change, words, tmp_path, capsys):
    pm = json.loads((hwconfig.PINS_DIR / "pico.json").read_text())
    change(pm)
    path = _write(tmp_path / "mypico.json", pm)
    rc = cli.main(["firmware", "flash", "--port", str(tmp_path / "tty"), "--board", str(path),
                   "--out", str(tmp_path / "build"), "--mpremote", str(tmp_path / "no-mpremote")])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert "pin map %s" % path in err and all(w in err for w in words), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mypico.json"]


def test_a_profile_with_more_readers_than_slots_is_refused(pinmaps):
    prof = profiles.load("btwixt-6p")
    big = dict(prof, readers=[{"name": "r%d" % i, "role": "table"} for i in range(11)])
    with pytest.raises(ValueError, match="chip-select slots"):
        hwconfig.board_config(big, pinmaps["pico"])


# ---------------------------------------------------------------- power

class _Strip:
    def write(self, buf):
        self.last = bytes(buf)


@pytest.mark.parametrize("name", PROFILES)
def test_every_profile_fits_its_supplies_with_every_led_at_full_white(name, pinmaps):
    prof = profiles.load(name)
    for board, pm in pinmaps.items():
        b = hwconfig.power_budget(prof, pm)
        assert b["fits"], b
        assert b["usb_ma"] <= b["usb_usable_ma"]
        assert b["rail_3v3_ma"] <= b["rail_3v3_usable_ma"]
        assert b["supply_5v_ma"] <= b["supply_5v_usable_ma"]
        # the firmware's renderer, given the config's budget, keeps the worst frame inside it
        cfg = fwconfig.parse(json.dumps(hwconfig.board_config(prof, pm)))
        leds = Segments([("all", 0, prof["pixels"])], prof["pixels"], _Strip(), cfg["leds"]["budget_ma"])
        leds.set("all", 255, 255, 255, 255, SOLID)
        leds.tick(0)
        assert leds.ma <= cfg["leds"]["budget_ma"]
        assert leds.ma + b["readers_ma"] + b["shifter_ma"] <= b["supply_5v_usable_ma"]


def test_the_budget_says_no_when_the_readers_outgrow_the_regulator(pinmaps):
    prof = profiles.load("btwixt-6p")
    crowded = dict(prof, readers=[{"name": "r%d" % i, "role": "table"} for i in range(10)],
                   pixels=150, segments=[{"name": "all", "start": 0, "length": 150}])
    small = json.loads(json.dumps(pinmaps["pico"]))
    small["power"]["rail_3v3_ma"] = 1000
    b = hwconfig.power_budget(crowded, small)
    assert b["rail_3v3_ma"] == 1200 and not b["fits"]
    with pytest.raises(ValueError, match="does not fit"):
        hwconfig.board_config(crowded, small)


def test_power_md_shows_the_budget_the_code_computes():
    text = (ROOT / "hardware" / "POWER.md").read_text()
    rows = hwconfig.budget_table(PROFILES, "pico")
    missing = [r for r in rows if r not in text]
    assert not missing, "POWER.md is out of date; paste `python -m maester.table.hwconfig pico`:\n" + "\n".join(missing)


# ---------------------------------------------------------------- diagrams

def test_the_committed_diagrams_are_what_the_data_draws(tmp_path):
    script = ROOT / "hardware" / "diagrams" / "make_diagrams.py"
    subprocess.run([sys.executable, str(script), "--out", str(tmp_path)], check=True, capture_output=True, timeout=60)
    fresh = sorted(p.name for p in tmp_path.glob("*.svg"))
    assert fresh == sorted(p.name for p in DIAGRAMS.glob("*.svg")), "run make_diagrams.py and commit its output"
    assert len(fresh) == len(BOARDS) + len(PROFILES)
    stale = [n for n in fresh if (tmp_path / n).read_bytes() != (DIAGRAMS / n).read_bytes()]
    assert not stale, "stale diagrams %s: run hardware/diagrams/make_diagrams.py" % stale
    readme = (ROOT / "hardware" / "README.md").read_text()
    assert all("diagrams/%s" % n in readme for n in fresh), "hardware/README.md shows every picture"


# ---------------------------------------------------------------- enroll

def _enroll(monkeypatch, capsys, argv, keys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(keys))
    rc = cli.main(["enroll"] + argv)
    return rc, capsys.readouterr().out


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    return tmp_path


def test_enroll_binds_every_card_of_intrigue_through_simulated_taps(home, monkeypatch, capsys):
    cards = [c.id for c in tagfile.cards_to_tag("intrigue")]
    assert len(cards) == 36 + 7  # character cards and Iron Throne cards
    rc, out = _enroll(monkeypatch, capsys, ["intrigue", "--sim"], "\n" * len(cards))
    assert rc == 0
    saved = json.loads((home / "tags" / "intrigue.json").read_text())["tags"]
    assert sorted(saved.values()) == sorted(cards)
    assert len(set(saved)) == len(cards)
    assert "[43 of 43]" in out and "43 of 43 cards of intrigue bound" in out
    assert not list((home / "tags").glob("*.tmp"))  # the atomic write left nothing behind


def test_a_whole_btwixt_box_is_168_stickers_and_all_bind(home, monkeypatch, capsys):
    # the rulebook's components: 9 leader, 50 ally, 62 standard, 11 event, 36 leader-specific cards;
    # the data knows some of them, simulation filler stands in for the rest (--include-sim)
    cards = [c.id for c in tagfile.cards_to_tag("btwixt", include_sim=True)]
    assert len(cards) == 9 + 50 + 62 + 11 + 36 == len(set(cards))
    rc, out = _enroll(monkeypatch, capsys, ["btwixt", "--sim", "--include-sim"], "\n" * len(cards))
    assert rc == 0 and "168 of 168 cards of btwixt bound" in out
    assert sorted(tagfile.load_tags("btwixt").values()) == sorted(cards)


def test_oathbreaker_stickers_are_its_cards_not_its_character_boards():
    cards = tagfile.cards_to_tag("oathbreaker", include_sim=True)
    assert len(cards) == 75 + 36 + 7 + 33  # influence, decrees, ambitions, missions (rulebook counts)
    assert "Characters" not in {c.group for c in cards}


def test_enroll_only_n_then_resume_where_it_stopped(home, monkeypatch, capsys):
    rc, out = _enroll(monkeypatch, capsys, ["btwixt", "--sim", "--only", "3", "--reader", "seat1"], "\n" * 10)
    assert rc == 0
    first = tagfile.load_tags("btwixt")
    assert sorted(first.values()) == ["leader:cersei", "leader:daenerys", "leader:doran"]
    assert "3 of 43" in out and "still missing 40" in out
    rc, out = _enroll(monkeypatch, capsys, ["btwixt", "--sim", "--only", "2"], "\n" * 5)
    assert "3 of 43 cards already bound" in out
    assert set(tagfile.load_tags("btwixt").values()) == set(first.values()) | {"leader:eddard", "leader:euron"}


def test_enroll_refuses_a_tag_bound_to_another_card_and_undo_frees_it(home, monkeypatch, capsys):
    uid = tagfile.sim_uid("stark#1")
    keys = "\n" + "t %s\n" % uid + "u\n" + "u\n" + "t %s\n" % uid + "q\n"
    rc, out = _enroll(monkeypatch, capsys, ["intrigue", "--sim"], keys)
    assert "refused: tag %s is already bound to House Stark character, copy 1 of 9 (stark#1)" % uid in out
    assert "lift it and tap House Stark character, copy 2 of 9" in out
    # undo freed stark#1 and its tag; tapping the same tag again binds it to stark#1 again
    assert tagfile.load_tags("intrigue") == {uid: "stark#1"}
    assert out.count("bound %s -> House Stark character, copy 1 of 9" % uid) == 2


def test_enroll_pick_mode_binds_the_card_named_after_the_tap(home, monkeypatch, capsys):
    rc, out = _enroll(monkeypatch, capsys, ["intrigue", "--sim", "--pick"], "\nlannister\n\n2\nq\n")
    tags = tagfile.load_tags("intrigue")
    assert sorted(tags.values()) == ["lannister#1", "lannister#2"]
    assert "which card is tag" in out


def test_forget_removes_a_binding(home, monkeypatch, capsys):
    tagfile.save_tags("intrigue", {"04aa": "stark#1", "04bb": "stark#2"})
    rc, out = _enroll(monkeypatch, capsys, ["intrigue", "--forget", "stark#1"], "")
    assert rc == 0 and tagfile.load_tags("intrigue") == {"04bb": "stark#2"}
    rc, out = _enroll(monkeypatch, capsys, ["intrigue", "--missing"], "")
    assert "1 of 43 cards bound" in out and "stark#1" in out


# ---------------------------------------------------------------- hw test

def test_hw_test_lights_each_segment_and_reports_a_tap_on_each_reader(capsys):
    rc = cli.main(["hw", "test", "--sim", "--auto", "0", "--profile", "btwixt-6p"])
    out = capsys.readouterr().out
    prof = profiles.load("btwixt-6p")
    pm = hwconfig.load_pinmap("pico")
    assert rc == 0, out
    for i, r in enumerate(prof["readers"]):
        who = "reader %d %s (CS %s)" % (i, r["name"], hwconfig.label(pm, pm["reader_cs"][i]))
        assert "tap: %s card" % who in out
        # the bring-up checks, done by the simulated board itself: chip, a card, two cards, a power cut
        assert ("ok       %s: MFRC522 v2.0, answers; 1 tap(s); saw two cards at once; came back after a power cut"
                % who) in out
    for seg in prof["segments"]:
        assert "segment %s: pixels %d-%d" % (seg["name"], seg["start"], seg["start"] + seg["length"] - 1) in out
    assert "WRONG" not in out and "simulated strip ..........WWW" in out
    # rp2: the PIO strip costs the loop next to nothing; its frame lasts 30 us a pixel on the wire
    assert re.search(r"full strip: all %d pixels written in 0\.\d ms of the board's loop" % prof["pixels"], out), out


def test_hw_test_names_a_reader_that_holds_the_bus_and_what_to_do(capsys, monkeypatch):
    from maester.link import simboard
    real = simboard.SimBoard.start

    def start(self, cards=None):  # reader 2's module holds MISO low from power-on
        out = real(self, cards)
        self.command({"cmd": "wire", "reader": 2, "holds_miso": True})
        self.command({"cmd": "reset_reader", "reader": 0})  # the others notice at once
        return out
    monkeypatch.setattr(simboard.SimBoard, "start", start)
    rc = cli.main(["hw", "test", "--sim", "--auto", "0", "--profile", "btwixt-4p"])
    out = capsys.readouterr().out
    assert rc == 1
    names = [r["name"] for r in profiles.load("btwixt-4p")["readers"]]
    assert re.search(r"BUS +reader 2 %s .*: MFRC522 v2.0, holds the SPI bus -> reader %s holds the SPI bus: its MISO "
                     r"stays low" % (names[2], names[2]), out), out
    assert re.search(r"FAULT +reader 0 %s .*-> reader %s does not answer: its MISO reads 0x00, and reader %s seems to "
                     r"hold that line low" % (names[0], names[0], names[2]), out), out
