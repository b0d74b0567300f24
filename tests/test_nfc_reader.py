"""A USB NFC reader at the desk (nfcpy): enroll, tags write, and the table taking a sticker by its own record.

No mock: nfcpy's `udp` driver carries real NFC frames over loopback between two processes. The other
process (nfc_tag_emulator.py) emulates the tag with nfcpy's tag emulation, which exists for NFC Forum
Type 3 (FeliCa) tags only: there is no Type 2 (NTAG) emulation in nfcpy, so the NDEF record is written
and read here on a Type 3 tag, through the same nfcpy calls (`tag.ndef`) an NTAG goes through. Taking a
sticker off the reader is ending the emulator's process.
"""

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from maester import cli
from maester.nfc import tags as tagfile
from maester.nfc import reader as nfcreader, record as tagrecord
from maester.engine import new_game
from maester.engine.session import Session
from maester.table import profile as P
from maester.table.runner import TableRunner
from maester.table.taps import command_for_tap

EMULATOR = Path(__file__).with_name("nfc_tag_emulator.py")
TAG_A, TAG_B = "03feffe011220001", "03feffe011220002"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    return tmp_path


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def port():
    return free_udp_port()


@contextlib.contextmanager
def tag_on_reader(port, idm, ndef=b"", dump=None):
    """A tag lying on the reader at udp:127.0.0.1:PORT until the block ends (the emulator is killed)."""
    argv = [sys.executable, str(EMULATOR), str(port), idm, ndef.hex()]
    if dump:
        argv += ["--dump", str(dump)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 10)
        assert ready and proc.stdout.readline().strip() == "listening", proc.stderr.read() if proc.poll() else ""
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=5)
        proc.stdout.close()
        proc.stderr.close()


def desk(port):
    return "udp:127.0.0.1:%d" % port


def read_one(port, timeout=8):
    """The first placed tap the desk reader sees."""
    got = []
    seen = threading.Event()
    reader = nfcreader.DeskReader(desk(port), lambda t: t.kind == "placed" and (got.append(t), seen.set()))
    reader.start()
    try:
        assert seen.wait(timeout), "the desk reader saw no tag"
    finally:
        reader.close()
    return got[0]


@contextlib.contextmanager
def keyboard(monkeypatch):
    """stdin as a pipe kept open, so the command waits for taps instead of reading end-of-file."""
    r, w = os.pipe()
    monkeypatch.setattr(sys, "stdin", os.fdopen(r))
    keys = os.fdopen(w, "w")
    try:
        yield keys
    finally:
        keys.close()


def wait_until(predicate, timeout):
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


# ---------------------------------------------------------------- enroll on the desk reader

def test_enroll_on_the_desk_reader_binds_the_tapped_tag_to_the_prompted_card_once_while_it_is_held(
        home, port, monkeypatch, capsys):
    first, second = [c.id for c in tagfile.cards_to_tag("btwixt")[:2]]
    result = {}
    with keyboard(monkeypatch):
        run = threading.Thread(target=lambda: result.setdefault(
            "rc", cli.main(["enroll", "btwixt", "--reader", desk(port), "--only", "2"])))
        with tag_on_reader(port, TAG_A):
            run.start()
            assert wait_until(lambda: tagfile.load_tags("btwixt"), 10), "the tapped tag was never bound"
            time.sleep(1.0)  # held on the reader: presence checks see it, and it is still one tap
            assert tagfile.load_tags("btwixt") == {TAG_A: first}
        with tag_on_reader(port, TAG_B):  # lifted, and the next sticker tapped
            run.join(timeout=10)
    assert not run.is_alive() and result["rc"] == 0
    assert tagfile.load_tags("btwixt") == {TAG_A: first, TAG_B: second}
    out = capsys.readouterr().out
    assert "on the reader at %s" % desk(port) in out and out.count("bound 03feffe0112200") == 2
    assert "that tag is already bound" not in out  # the held tag was never taken for a second tap


def test_enroll_refuses_a_sticker_whose_record_names_another_card_and_q_leaves_the_file_whole(
        home, port, monkeypatch, capsys):
    first, second = [c.id for c in tagfile.cards_to_tag("btwixt")[:2]]
    tagfile.save_tags("btwixt", {"04aabbccddeeff": "leader:dummy"})
    said = []

    def quit_once_refused():  # the keyboard: q as soon as the refusal is on the screen
        wait_until(lambda: said.append(capsys.readouterr().out) or "refused" in "".join(said), 10)
        keys.write("q\n")
        keys.flush()

    with keyboard(monkeypatch) as keys:
        with tag_on_reader(port, TAG_A, tagrecord.encode("btwixt", second)):
            typist = threading.Thread(target=quit_once_refused)
            typist.start()
            rc = cli.main(["enroll", "btwixt", "--reader", desk(port)])
            typist.join(timeout=10)
    out = "".join(said) + capsys.readouterr().out
    assert rc == 0
    assert "refused: this sticker's record says it is" in out and "(%s)" % second in out
    assert tagfile.load_tags("btwixt") == {"04aabbccddeeff": "leader:dummy"}  # whole, and nothing bound


def test_ctrl_c_stops_enroll_on_the_desk_reader_with_the_tags_file_whole(home, port):
    maester = Path(sys.executable).with_name("maester")
    env = dict(os.environ, MAESTER_HOME=str(home), PYTHONUNBUFFERED="1")
    with tag_on_reader(port, TAG_A):
        proc = subprocess.Popen([str(maester), "enroll", "btwixt", "--reader", desk(port)], env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert wait_until(lambda: (home / "tags" / "btwixt.json").exists(), 15), "the tag was never bound"
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=10)
        finally:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130 and "interrupted" in err
    assert tagfile.load_tags("btwixt") == {TAG_A: tagfile.cards_to_tag("btwixt")[0].id}


def test_enroll_says_which_extra_to_install_when_nfcpy_is_missing(home, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "nfc", None)  # `import nfc` raises ImportError
    assert cli.main(["enroll", "btwixt", "--reader", "usb"]) == 2
    err = capsys.readouterr().err
    assert "nfcpy" in err and "maester's `nfc` extra (pip install" in err and len(err.splitlines()) == 1


def test_a_missing_usb_reader_is_said_with_what_nfcpy_said_and_the_permissions_hint(home, capsys):
    # No USB reader is plugged into this machine (a 0000:0000 device never exists).
    assert cli.main(["tags", "write", "btwixt", "leader:eddard", "--reader", "usb:0000:0000"]) == 2
    err = capsys.readouterr().err
    assert "no NFC reader at usb:0000:0000" in err and "no reader available" in err
    assert "udev" in err and "python -m nfc" in err
    assert not (home / "tags").exists()


def test_a_board_reader_name_still_means_the_board_reader():
    assert nfcreader.is_device_path("usb") and nfcreader.is_device_path("tty:USB0:pn532")
    assert nfcreader.is_device_path("udp:127.0.0.1:5000") and nfcreader.is_device_path("usb:072f:2200")
    for name in ("seat0", "deck", "mission1", "throne", "usbish"):
        assert not nfcreader.is_device_path(name)


# ---------------------------------------------------------------- tags write

def test_tags_write_puts_the_record_on_a_blank_tag_reads_it_back_and_binds_it(home, port, tmp_path, capsys):
    dump = tmp_path / "on-the-tag.hex"
    with tag_on_reader(port, TAG_A, dump=dump):
        rc = cli.main(["tags", "write", "btwixt", "leader:eddard", "--reader", desk(port), "--wait", "10"])
        out = capsys.readouterr().out
        assert rc == 0, out
        assert "wrote the record of leader:eddard and read it back" in out
        assert bytes.fromhex(dump.read_text()) == tagrecord.encode("btwixt", "leader:eddard")
        again = read_one(port)  # a second reader session finds it on the tag
    assert tagrecord.decode(again.ndef) == ("btwixt", "leader:eddard")
    assert tagfile.load_tags("btwixt") == {TAG_A: "leader:eddard"}


def test_tags_write_refuses_a_tag_carrying_another_cards_record_unless_forced(home, port, tmp_path, capsys):
    dump = tmp_path / "on-the-tag.hex"
    with tag_on_reader(port, TAG_A, tagrecord.encode("btwixt", "leader:euron"), dump=dump):
        argv = ["tags", "write", "btwixt", "leader:eddard", "--reader", desk(port), "--wait", "10"]
        assert cli.main(argv) == 1
        out = capsys.readouterr().out
        assert "refused: this sticker carries the record of btwixt (leader:euron)" in out and "--force" in out
        assert not dump.exists() and tagfile.load_tags("btwixt") == {}
        assert cli.main(argv + ["--force"]) == 0
        assert bytes.fromhex(dump.read_text()) == tagrecord.encode("btwixt", "leader:eddard")


def test_tags_write_without_a_card_walks_the_cards_not_bound_yet_and_writes_each(home, port, tmp_path,
                                                                                   monkeypatch, capsys):
    first, second = [c.id for c in tagfile.cards_to_tag("btwixt")[:2]]
    tagfile.save_tags("btwixt", {"04aabbccddeeff": first})  # bound already: the walk starts at the next card
    dump = tmp_path / "on-the-tag.hex"
    with keyboard(monkeypatch), tag_on_reader(port, TAG_B, dump=dump):
        rc = cli.main(["tags", "write", "btwixt", "--reader", desk(port), "--only", "1"])
    out = capsys.readouterr().out
    assert rc == 0 and "writing the stickers of btwixt" in out
    assert "wrote the record of %s and read it back; bound %s" % (second, TAG_B) in out
    assert bytes.fromhex(dump.read_text()) == tagrecord.encode("btwixt", second)
    assert tagfile.load_tags("btwixt") == {"04aabbccddeeff": first, TAG_B: second}


# ---------------------------------------------------------------- the table takes a sticker by its record

def _table():
    """A B'Twixt game at four seats and a card a seat may tap now: (runner, said, seat, card)."""
    state, _ = new_game("btwixt", {"players": 4}, 3)
    said = []
    runner = TableRunner(Session(state), P.for_game("btwixt", 4), {}, report=said.append)
    ask = state["asks"][0]
    cards = sorted({x for c in ask["choices"] for x in c if isinstance(x, str) and "#" in x})
    cards += ["leader:%s" % l for l in state["g"]["leaders"]]
    card = next(c for c in cards if command_for_tap(state, ask["seat"], c)[0] is not None)
    return runner, said, ask["seat"], card


def _reader_of(seat):
    return [r["name"] for r in P.for_game("btwixt", 4)["readers"]].index("seat%d" % seat)


def _at_seat(tap, seat):
    return nfcreader.DeskTap("placed", tap.uid, tap.ndef, reader=_reader_of(seat))


def test_the_table_takes_an_unenrolled_sticker_as_the_card_its_record_names(port):
    runner, said, seat, card = _table()
    with tag_on_reader(port, TAG_A, tagrecord.encode("btwixt", card)):
        tap = read_one(port)
    seq = runner.session.state["seq"]
    runner.on_tap(_at_seat(tap, seat))
    assert not [s for s in said if "refused" in s], said
    assert runner.session.state["seq"] > seq  # the tap became the seat's move


@pytest.mark.parametrize("ndef,reason", [
    (lambda card: tagrecord.encode("oathbreaker", "missions#1"), "a card of Oathbreaker on seat%d: it is not part of this game"),
    (lambda card: bytes.fromhex("d10203") + b"\xff" * 9, "a sticker on seat%d: its NDEF data cannot be decoded"),
    (lambda card: tagrecord.encode("btwixt", card + "9"), "a sticker on seat%d: it names a card this game does not have"),
])
def test_the_table_refuses_a_sticker_naming_another_games_card_or_garbage_and_says_why(port, ndef, reason):
    runner, said, seat, card = _table()
    with tag_on_reader(port, TAG_A, ndef(card)):
        tap = read_one(port)
    seq = runner.session.state["seq"]
    runner.on_tap(_at_seat(tap, seat))
    assert runner.session.state["seq"] == seq
    assert said and said[-1].startswith("refused: " + reason % seat), said
    assert card not in said[-1]  # the public log never names the card a sticker claims


def test_a_sticker_enrolled_by_uid_is_its_bound_card_whatever_its_record_says():
    runner, said, seat, card = _table()
    runner.tags = {TAG_A: card}
    seq = runner.session.state["seq"]
    runner.on_tap(nfcreader.DeskTap("placed", bytes.fromhex(TAG_A), tagrecord.encode("oathbreaker", "x#1"),
                                            reader=_reader_of(seat)))
    assert runner.session.state["seq"] > seq and not said
