"""`maester decks import` (issue 30, item 4): OCTGN .o8d decks and the deck builders' plain-text
exports, read into our deck list (games/lcg/deck_import.py reads the shapes, decks.py matches the
names); unknown names come back with the closest names and nothing is written; `decks check`, `sim`
and `play` take the .o8d itself too; hostile files are refused in one line."""

from pathlib import Path

import pytest

from maester import sim
from maester.games.lcg import decks as D
from maester.games.lcg.cards import card_table
from test_lcg_decks import MY_STARK
from test_play import maester

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py

# An OCTGN deck file as the format is documented: an XML declaration, <deck game="GUID"> (the GUID of
# an OCTGN game definition: this one is made up, and must not matter), <section name="..."> holding
# <card qty="N" id="GUID">Name</card>, and <notes>. The cards are MY_STARK's (62 cards, 7 plots).
MY_STARK_O8D = """\
<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<deck game="9c6ab710-4a08-c720-cede-24428a013fda" sleeveid="0">
  <section name="House" shared="False">
    <card qty="1" id="d3b9c9d9-a754-ac3e-9f33-44d507b07fa3">House Stark</card>
  </section>
  <section name="Plots" shared="False">
    <card qty="2" id="0c68ec55-41dc-e77f-fa17-fea535c3212d">The Power of Arms</card>
    <card qty="1" id="22527dbd-a43e-7740-604d-45f265aec90a">Building Season</card>
    <card qty="1" id="01f282cb-7627-070a-14d1-38affd22bb42">Mutual Enemies</card>
    <card qty="1" id="eeb1c97e-fe19-32a2-85b9-4cdffe55088b">Calm Over Westeros</card>
    <card qty="1" id="fff91e75-1298-deb0-069e-277d3e1ffbe3">Snowed Under</card>
    <card qty="1" id="d0ebe5c2-d786-efe5-e895-dea028ef45e0">Valar Morghulis</card>
  </section>
  <section name="Characters" shared="False">
    <card qty="3" id="66dafd61-eade-d544-87e4-14f8997c6b39">Eddard Stark</card>
    <card qty="3" id="5930c672-a788-51de-d4f6-5eb6f8e0131d">Catelyn Stark</card>
    <card qty="3" id="66c2e6af-1150-446a-e1cf-562f89032e24">Arya Stark</card>
    <card qty="3" id="9014d46e-ce27-c43b-3fa5-6cc20604c16a">Robb Stark</card>
    <card qty="3" id="6dc75f6f-c354-bccb-47a0-fbafac06350a">Winterfell Honor Guard</card>
    <card qty="3" id="47472cf2-ac84-4d26-1871-d30b90ce99be">Direwolf Pup</card>
    <card qty="3" id="f850113d-e52a-3b3b-8ff1-da58a38356b8">Knight of the Tumblestone</card>
    <card qty="3" id="ef09fcb8-7e94-4d69-9d0b-f2411c9ba62a">Hodor</card>
    <card qty="3" id="4f01e6ce-d44f-f2e2-211c-c5a64f27576f">Greatjon Umber</card>
    <card qty="3" id="81ca9067-4085-0c91-4fcd-2bf5e0881e16">Kennel Master</card>
    <card qty="3" id="b30aca6a-3e43-e74f-236a-20591491532c">House Tully Recruiter</card>
    <card qty="2" id="075bc9d4-c506-cd39-1e57-9345508a9bfb">Ser Rodrik Cassel</card>
    <card qty="3" id="817b0c43-bff9-6bff-ea99-502168e3d0ff">Jon Snow</card>
  </section>
  <section name="Attachments" shared="False">
    <card qty="1" id="a49fc06d-8613-fccc-2dd8-e2984d0b5dea">Ice</card>
    <card qty="2" id="54cc5b4d-a537-e7fa-78d6-908a2fb5dbaa">Summer</card>
    <card qty="1" id="a8314724-dcd7-6e4c-7386-14c3835ad745">Nymeria</card>
  </section>
  <section name="Locations" shared="False">
    <card qty="3" id="56706666-851f-edb0-550e-6ab8f2ce75d4">Great Keep</card>
    <card qty="2" id="a7f4b3d2-eff1-00a4-052d-d219117932d9">Northern Fiefdoms</card>
    <card qty="3" id="e0cbc7b8-7968-b260-1a4c-0377f1e1491f">Crossroads</card>
    <card qty="1" id="7a962e3d-eeba-9e7d-42f4-00b07c5398bb">Street of Steel</card>
    <card qty="3" id="e4f4d183-416e-ebb3-94a2-033540f06f63">Winterfell Castle</card>
  </section>
  <section name="Events" shared="False">
    <card qty="2" id="2b83f032-accb-58ea-e0a8-31a2b1fa91f0">Winter is Coming</card>
    <card qty="3" id="2fdb783a-d3f8-8aff-2f6a-b668afa19848">Kings in the North</card>
    <card qty="3" id="aa5917f4-6b8e-8945-48ea-21f3832de040">Distraction</card>
  </section>
  <notes><![CDATA[Three of each Stark lord; two Power of Arms.]]></notes>
</deck>
"""

# The same deck as (section, count, name), for the text exports below.
CARDS = [("Plots", 2, "The Power of Arms"), ("Plots", 1, "Building Season"), ("Plots", 1, "Mutual Enemies"),
         ("Plots", 1, "Calm Over Westeros"), ("Plots", 1, "Snowed Under"), ("Plots", 1, "Valar Morghulis")]
CARDS += [("Characters", n, name) for n, name in (
    (3, "Eddard Stark"), (3, "Catelyn Stark"), (3, "Arya Stark"), (3, "Robb Stark"), (3, "Winterfell Honor Guard"),
    (3, "Direwolf Pup"), (3, "Knight of the Tumblestone"), (3, "Hodor"), (3, "Greatjon Umber"),
    (3, "Kennel Master"), (3, "House Tully Recruiter"), (2, "Ser Rodrik Cassel"), (3, "Jon Snow"))]
CARDS += [("Attachments", 1, "Ice"), ("Attachments", 2, "Summer"), ("Attachments", 1, "Nymeria")]
CARDS += [("Locations", n, name) for n, name in ((3, "Great Keep"), (2, "Northern Fiefdoms"), (3, "Crossroads"),
                                                 (1, "Street of Steel"), (3, "Winterfell Castle"))]
CARDS += [("Events", 2, "Winter is Coming"), ("Events", 3, "Kings in the North"), ("Events", 3, "Distraction")]


def export(header, line, house="House Stark", title="Winter, three times over", extra=("", "Total Cards: (69)",
                                                                                       "Packs: Core Set (3)")):
    """MY_STARK as a deck builder exports it: a title, a blank line, the House, then each section under
    `header`.format(section, its count) with each card as `line`.format(count, name), then `extra` lines."""
    out = [title, "", house, ""]
    for section in ("Plots", "Characters", "Attachments", "Locations", "Events"):
        cards = [(n, name) for s, n, name in CARDS if s == section]
        out.append(header.format(section, sum(n for n, _ in cards)))
        out += [line.format(n, name) for n, name in cards]
        out.append("")
    return "\n".join(out + list(extra)) + "\n"


# The shapes of the common builders' exports: "3x Name (Core Set)" under "Characters (44)"; "3 Name"
# under "Characters:"; "Name x3" under "Characters (44):"; "• 3x Name [Core]" under singular headers.
EXPORTS = {
    "count x, set": export("{0} ({1})", "{0}x {1} (Core Set)"),
    "bare count": export("{0}:", "{0} {1}", extra=()),
    "count after": export("{0} ({1}):", "{1} x{0}", house="House: Stark"),
    "bullets, square set": export("{0} ({1})", "• {0}x {1} [Core]").replace("Plots (", "Plot (")
    .replace("Characters (", "Character ("),
}


@pytest.fixture(scope="module")
def table():
    return card_table(owner=False)


def same_deck(a, b):
    return a["house"] == b["house"] and sorted(a["draw"]) == sorted(b["draw"]) and a["plots"] == b["plots"]


def write(path, data):
    (path.write_bytes if isinstance(data, bytes) else path.write_text)(data)
    return path


# --- OCTGN's .o8d ---------------------------------------------------------------------------------------

def test_an_o8d_deck_is_imported_written_and_then_checked_as_our_own(tmp_path, table):
    src = write(tmp_path / "my_stark.o8d", MY_STARK_O8D)
    r = maester(tmp_path, "decks", "import", str(src))
    assert r.returncode == 0, r.stderr
    out = tmp_path / "my_stark.txt"
    assert r.stdout.splitlines() == [
        "%s: an OCTGN deck (game 9c6ab710-4a08-c720-cede-24428a013fda): its cards read by name" % src,
        "wrote %s: Stark, 62 cards, 7 plots: legal for tournament play" % out,
        "play it: maester play lcg --decks %s,stark" % out]
    text = out.read_text()
    assert text.startswith("# my_stark\n# imported from my_stark.o8d by maester decks import\nHouse: Stark\n")
    assert "3x Eddard Stark\n" in text and "\nPlots:\n2x The Power of Arms\n" in text
    mine, _, problems = D.parse(MY_STARK, "my_stark", table)
    imported, problems = D.check(out, table=table)
    assert problems == [] and same_deck(imported, mine) and imported["name"] == "my_stark"
    r = maester(tmp_path, "decks", "check", str(out))
    assert r.returncode == 0 and "legal for tournament play: Stark, 62 cards, 7 plots" in r.stdout


def test_check_sim_and_play_take_the_o8d_itself(tmp_path, table):
    src = write(tmp_path / "wolves.o8d", MY_STARK_O8D)
    r = maester(tmp_path, "decks", "check", str(src))
    assert r.returncode == 0 and r.stdout == "%s: legal for tournament play: Stark, 62 cards, 7 plots\n" % src
    decks = sim.parse_decks("lcg", "%s,lannister" % src)
    assert same_deck(decks[0], D.parse(MY_STARK, "x", table)[0]) and decks[0]["name"] == "wolves"
    r = maester(tmp_path, "sim", "lcg", "--decks", "%s,%s" % (src, src), "--games", "1", "--json")
    assert r.returncode == 0 and '"wolves"' in r.stdout, r.stderr
    r = maester(tmp_path, "play", "lcg", "--sim", "--no-table", "--no-web", "--plain", "--delay", "0", "--decks",
                "%s,lannister" % src, "--log", str(tmp_path / "game.sqlite"))
    assert r.returncode == 0 and "Seat 0 (Stark)" in r.stdout and "Winner:" in r.stdout, r.stderr


def test_any_game_id_one_line_xml_and_entities_in_names(tmp_path, table):
    # A file written on one line (as OCTGN's own deck editor saves), with no game attribute, an
    # unfamiliar one, a UTF-16 encoding, and an apostrophe written as an entity.
    body = ('<section name="Plots"><card qty="1" id="x">Snowed Under</card></section><section name="Locations">'
            '<card qty="2" id="y">Lord Eddard&apos;s Chambers</card><card qty="1">Great Keep</card></section>')
    for i, head in enumerate(('<deck>', '<deck game="not-a-guid-at-all">', '<deck game="%s">' % ("f" * 500))):
        src = write(tmp_path / ("d%d.o8d" % i), '<?xml version="1.0"?>' + head + body + "</deck>")
        deck, entries, problems, info = D.import_file(src, "stark", table)
        assert problems == [] and info["format"] == "o8d"
        assert [(e["line"], e["name"], e["count"]) for e in entries] == [
            (1, "Snowed Under", 1), (1, "Lord Eddard's Chambers", 2), (1, "Great Keep", 1)]
    utf16 = ('<?xml version="1.0" encoding="utf-16"?><deck><section name="House"><card qty="1">House Lannister'
             '</card></section><section name="Characters"><card qty="2">Tyrion Lannister</card></section></deck>')
    deck, _, problems, _ = D.import_file(write(tmp_path / "u.o8d", utf16.encode("utf-16")), None, table)
    assert problems == [] and deck["house"] == "lannister" and deck["draw"] == ["L38", "L38"]


def test_each_starter_deck_as_octgn_saves_it_imports_as_our_starter(tmp_path, table):
    # OCTGN's deck editor writes the whole file on one line, a section per card type, the House card in
    # its own section: every name of the four Core starter decks must come back as the same deck.
    sections = {"character": "Characters", "location": "Locations", "attachment": "Attachments", "event": "Events"}
    for name, starter in table["decks"].items():
        cards = table["cards"]
        by_section = {"Plots": {}}
        for code in starter["draw"] + starter["plots"]:
            c = cards[code]
            group = by_section.setdefault(sections.get(c["type"], "Plots"), {})
            group[c["name"]] = group.get(c["name"], 0) + 1
        xml = ['<?xml version="1.0" encoding="utf-8" standalone="yes" ?><deck game="%s">' % ("0" * 36),
               '<section name="House"><card qty="1" id="h">House %s</card></section>' % starter["house"].capitalize()]
        for section, counts in by_section.items():
            xml.append('<section name="%s">%s</section>' % (section, "".join(
                '<card qty="%d" id="g%d">%s</card>' % (n, i, card.replace("&", "&amp;").replace("'", "&apos;"))
                for i, (card, n) in enumerate(counts.items()))))
        src = write(tmp_path / ("%s.o8d" % name), "".join(xml + ["</deck>"]))
        deck, _, problems, info = D.import_file(src, None, table)
        assert problems == [] and info["house_from"] == "file", name
        assert deck["house"] == starter["house"] and sorted(deck["draw"]) == sorted(starter["draw"]), name
        assert sorted(deck["plots"]) == sorted(starter["plots"]), name


def test_unknown_names_in_an_o8d_give_their_lines_the_closest_names_and_nothing_written(tmp_path):
    bad = MY_STARK_O8D.replace(">Eddard Stark<", ">Edard Stark<").replace(">Jon Snow<", ">Jon Snoww<") \
        .replace(">Great Keep<", ">Zzyzx Qwerty<").replace('qty="3" id="ef09', 'qty="three" id="ef09')
    src = write(tmp_path / "bad.o8d", bad)
    r = maester(tmp_path, "decks", "import", str(src))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines() == [
        "%s: line 15: unknown card 'Edard Stark'; did you mean Eddard Stark, Arya Stark or Robb Stark?" % src,
        "%s: line 22: Hodor: qty 'three' is not a count" % src,
        "%s: line 27: unknown card 'Jon Snoww'; did you mean Jon Snow?" % src,
        "%s: line 35: unknown card 'Zzyzx Qwerty'" % src,
        "maester: nothing written: 4 problems in %s" % src]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.o8d"]


def test_an_agenda_is_refused_and_the_house_comes_from_the_cards_or_house(tmp_path, table):
    o8d = MY_STARK_O8D.replace('<section name="House" shared="False">\n    <card qty="1" id="d3b9c9d9-a754-ac3e-'
                               '9f33-44d507b07fa3">House Stark</card>\n  </section>',
                               '<section name="Agenda"><card qty="1" id="a">The Lord of the Crossing</card></section>')
    src = write(tmp_path / "agenda.o8d", o8d)
    _, _, problems, _ = D.import_file(src, None, table)
    assert problems == [(3, "the agenda 'The Lord of the Crossing': maester plays the Core Set, which has no "
                            "agendas (take the line out)")]
    # No House line: the one House its cards share (Stark; two neutral-or-Stark/Baratheon cards fit).
    src = write(tmp_path / "houseless.o8d", MY_STARK_O8D.replace(">House Stark<", "><"))
    deck, _, problems, info = D.import_file(src, None, table)
    assert problems == [(4, "a <card> with no name")]
    no_house = MY_STARK_O8D.replace('<card qty="1" id="d3b9c9d9-a754-ac3e-9f33-44d507b07fa3">House Stark</card>',
                                    "")
    src = write(tmp_path / "houseless.o8d", no_house)
    deck, _, problems, info = D.import_file(src, None, table)
    assert problems == [] and deck["house"] == "stark" and info["house_from"] == "cards"
    r = maester(tmp_path, "decks", "import", str(src))
    assert r.returncode == 0 and "House: Stark (the House its cards share: the file names none)" in r.stdout
    # Cards of several Houses: --house decides, and must agree with a House the file names.
    mixed = "3x Eddard Stark\n3x Tyrion Lannister\n"
    src = write(tmp_path / "mixed.txt", mixed)
    assert D.import_file(src, None, table)[2] == [(None, "no House line, and the cards are of no one House: "
                                                         "give one with --house")]
    assert D.import_file(src, "lannister", table)[0]["house"] == "lannister"
    src = write(tmp_path / "neutral.txt", "3x Crossroads\n")
    assert "fit Baratheon, Greyjoy, Lannister, Martell, Stark or Targaryen" in D.import_file(src, None, table)[2][0][1]
    src = write(tmp_path / "stark.txt", "House: Stark\n3x Eddard Stark\n")
    assert D.import_file(src, "baratheon", table)[2] == [(1, "the file's House is Stark, and --house says Baratheon")]
    r = maester(tmp_path, "decks", "import", str(src), "--house", "Dornish")
    assert r.returncode == 2 and r.stderr.startswith("maester: --house 'Dornish': the Houses are baratheon, ")


# --- the deck builders' text exports ------------------------------------------------------------------------

@pytest.mark.parametrize("shape", sorted(EXPORTS))
def test_each_export_shape_reads_as_the_same_deck(tmp_path, table, shape):
    src = write(tmp_path / "export.txt", EXPORTS[shape])
    deck, entries, problems, info = D.import_file(src, None, table)
    assert problems == [], problems
    assert same_deck(deck, D.parse(MY_STARK, "x", table)[0])
    assert info["title"] == "Winter, three times over" and info["house_from"] == "file"
    assert [e["name"] for e in entries][:2] == ["The Power of Arms", "Building Season"]


def test_a_text_export_is_written_next_to_it_and_played(tmp_path, table):
    src = write(tmp_path / "wolves.txt", EXPORTS["count x, set"])
    r = maester(tmp_path, "decks", "import", str(src))
    assert r.returncode == 0, r.stderr
    out = tmp_path / "wolves-maester.txt"
    assert r.stdout.splitlines()[:2] == ["title: Winter, three times over",
                                         "wrote %s: Stark, 62 cards, 7 plots: legal for tournament play" % out]
    assert out.read_text().startswith("# Winter, three times over\n# imported from wolves.txt by maester decks")
    assert same_deck(D.load(out, table=table), D.parse(MY_STARK, "x", table)[0])
    # The export itself is a deck file for check and --decks too.
    assert D.check(src, table=table)[1] == []


def test_a_casual_deck_is_written_and_said_to_be_casual(tmp_path):
    starter = (Path(D.__file__).resolve().parents[4] / "cards_db" / "lcg" / "decks" / "stark.txt").read_text()
    src = write(tmp_path / "core.deck", starter)
    r = maester(tmp_path, "decks", "import", str(src), "--out", str(tmp_path / "mine.txt"))
    assert r.returncode == 0, r.stderr
    assert ("wrote %s: Stark, 45 cards, 7 plots: legal for casual play only (45 cards in the House deck: tournament "
            "play needs at least 60 (casual play allows fewer: --casual))" % (tmp_path / "mine.txt")) in r.stdout
    src = write(tmp_path / "six.deck", starter.replace("1x Snowed Under\n", ""))
    r = maester(tmp_path, "decks", "import", str(src))
    assert r.returncode == 0 and "not legal (6 plots: a plot deck has exactly 7): maester decks check" in r.stdout
    assert "play it" not in r.stdout


def test_a_title_is_never_a_misspelt_card(table):
    deck, entries, problems, title = D.parse_lines(list(enumerate("Edard Stark\n\n3x Hodor\n".splitlines(), 1)),
                                                   "t", table)
    assert title is None and problems[0][0] == 1 and "did you mean Eddard Stark" in problems[0][1]
    deck, entries, problems, title = D.parse_lines(list(enumerate("Grey Wind\n\n3x Hodor\n".splitlines(), 1)),
                                                   "t", table)
    assert title is None and [e["name"] for e in entries] == ["Grey Wind", "Hodor"]
    _, _, problems, title = D.parse_lines(list(enumerate("Ned's wolves\n3x Hodor\n".splitlines(), 1)), "t", table)
    assert title is None and problems[0][0] == 1  # no blank line after it: a card line, unknown


def test_an_agenda_line_in_a_text_export_is_refused(tmp_path, table):
    text = export("{0} ({1})", "{0}x {1} (Core Set)", house="House Stark\nAgenda: The Lord of the Crossing")
    src = write(tmp_path / "a.txt", text)
    assert D.import_file(src, None, table)[2] == [(4, "the agenda 'The Lord of the Crossing': maester plays the Core "
                                                      "Set, which has no agendas (take the line out)")]
    text = export("{0} ({1})", "{0}x {1} (Core Set)", house="House Stark\nAgenda (1)\n1x Fealty (Core Set)")
    src = write(tmp_path / "b.txt", text)
    assert [p[0] for p in D.import_file(src, None, table)[2]] == [5]


# --- where it is written -----------------------------------------------------------------------------------

def test_never_over_a_file_without_force_and_standard_input_and_output(tmp_path):
    src = write(tmp_path / "d.o8d", MY_STARK_O8D)
    there = write(tmp_path / "d.txt", "someone's notes\n")
    r = maester(tmp_path, "decks", "import", str(src))
    assert r.returncode == 2 and r.stderr == ("maester: %s is there already: give --force to write over it, or "
                                              "another --out\n" % there)
    assert there.read_text() == "someone's notes\n"
    r = maester(tmp_path, "decks", "import", str(src), "--force")
    assert r.returncode == 0 and there.read_text().startswith("# d\n")
    r = maester(tmp_path, "decks", "import", str(src), "--out", str(src), "--force")
    assert r.returncode == 2 and "is the file being imported" in r.stderr
    r = maester(tmp_path, "decks", "import", str(src), "--out", str(tmp_path))
    assert r.returncode == 2 and "is a folder" in r.stderr
    r = maester(tmp_path, "decks", "import", str(src), "--out", str(tmp_path / "no" / "such.txt"))
    assert r.returncode == 2 and r.stderr.startswith("maester: cannot write %s: " % (tmp_path / "no" / "such.txt"))
    r = maester(tmp_path, "decks", "import", "-", input=EXPORTS["bare count"])
    assert r.returncode == 0 and r.stdout.startswith("# Winter, three times over\n# imported from standard input")
    assert "wrote standard output: Stark, 62 cards, 7 plots" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.o8d", "d.txt"]  # no temporary file left
    r = maester(tmp_path, "decks", "import", "--help")
    assert r.returncode == 0 and "--force" in r.stdout and ".o8d" in r.stdout


# --- hostile files ------------------------------------------------------------------------------------------

LAUGHS = ('<?xml version="1.0"?><!DOCTYPE deck [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
          '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>'
          '<deck><section name="Characters"><card qty="1">&d;</card></section></deck>')
XXE = ('<?xml version="1.0"?><!DOCTYPE deck [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
       '<deck><section name="Characters"><card qty="1">&x;</card></section></deck>')


@pytest.mark.parametrize("what,data,words", [
    ("binary junk", bytes(range(256)) * 8, "is not text (UTF-8) at byte 128: save it as UTF-8"),
    ("NUL in text", b"3x Hodor\n\0\0\0", "it is binary (a NUL at character 9), not a deck list"),
    ("Latin-1 text", "House: Stark\n3x Lord Eddard’s Chambers\n".encode("cp1252"), "is not text (UTF-8) at byte 27"),
    ("huge", b"3x Hodor\n" * 40000, "it is larger than 256 KB"),
    ("billion laughs", LAUGHS.encode(), "it declares a DOCTYPE (entities are not read in a deck file)"),
    ("external entity", XXE.encode(), "it declares a DOCTYPE"),
    ("broken XML", b'<deck><section name="Plots"><card qty="1">Snowed Under</section></deck>',
     "it is not well-formed XML (line 1: mismatched tag)"),
    ("another root", b"<html><body>3x Hodor</body></html>", "its root element is <html>, not an OCTGN <deck>"),
    ("deep nesting", b"<deck>" + b"<a>" * 5000 + b"</a>" * 5000 + b"</deck>", "its elements nest deeper than 16"),
    ("unknown encoding", b'<?xml version="1.0" encoding="klingon"?><deck/>', "its XML encoding cannot be read"),
    ("empty", b"", "no cards: not a deck list"),
    ("an empty deck", b"<deck></deck>", "no cards: not a deck list"),
])
def test_a_hostile_file_is_refused_in_one_line_and_nothing_is_written(tmp_path, what, data, words):
    src = write(tmp_path / "hostile.o8d", data)
    r = maester(tmp_path, "decks", "import", str(src))
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr, r.stderr[-2000:]
    lines = r.stderr.splitlines()
    assert words in lines[0] and str(src) in lines[0], r.stderr
    assert len(lines) == (2 if what in ("empty", "an empty deck") else 1), r.stderr  # + "nothing written"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostile.o8d"]
