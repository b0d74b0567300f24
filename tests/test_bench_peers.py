"""`maester bench peers`: our games beside OpenSpiel's, in one run (host/maester/bench/peers.py)."""

import json
import subprocess
import sys

import pytest

from maester.bench import peers as bench_peers
from maester.cli import main


def test_a_short_run_reports_every_side_and_ratios_computed_from_its_rates(capsys, tmp_path, monkeypatch):
    pytest.importorskip("pyspiel", reason="OpenSpiel (the `peers` extra) is not installed")
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    assert main(["bench", "peers", "--seconds", "0.05", "--rounds", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rounds"] == 2 and out["seconds"] == 0.05
    peers = out["peers"]
    assert set(peers) == {"python_block_dominoes", "hearts"}
    for f in peers.values():
        assert len(f["rates"]) == 2 and f["decisions"] > 0 and f["games"] > 0
        assert f["rate"] == pytest.approx(sorted(f["rates"])[0] / 2 + sorted(f["rates"])[1] / 2, abs=0.1)
    assert list(out["builds"]) == ["pure"]  # the compiled build only when asked for
    pure = out["builds"]["pure"]
    assert pure["describe"].startswith("pure Python")
    assert set(pure["games"]) == {"btwixt", "intrigue", "oathbreaker", "lcg", "floor"}
    # The engine's floor, a game with no rules, bounds every game from above.
    assert pure["games"]["floor"]["rate"] > pure["games"]["btwixt"]["rate"]
    assert pure["games"]["btwixt"]["players"] == 4  # the measure
    for f in pure["games"].values():
        assert f["rate"] > 0 and f["decisions"] > 0 and len(f["rates"]) == 2
        assert f["vs_dominoes"] == pytest.approx(f["rate"] / peers["python_block_dominoes"]["rate"], abs=1e-3)
        assert f["vs_hearts"] == pytest.approx(f["rate"] / peers["hearts"]["rate"], abs=1e-3)
    bt = pure["games"]["btwixt"]
    assert out["targets"] == {"game": "btwixt", "players": 4, "vs_dominoes": 5.0, "vs_hearts": 0.5}
    assert out["pass"]["pure"] == {"vs_dominoes": bt["vs_dominoes"] >= 5.0, "vs_hearts": bt["vs_hearts"] >= 0.5}

    text = bench_peers.report(out)  # what the command prints without --json
    assert "OpenSpiel hearts (C++)" in text and "B'Twixt 4p" in text and "engine floor" in text
    assert "%.2fx dominoes" % bt["vs_dominoes"] in text
    verdict = "PASS" if out["pass"]["pure"]["vs_hearts"] else "FAIL"
    assert ">= 0.5x hearts: %s" % verdict in text


def test_without_openspiel_it_says_how_to_install_it():
    # pyspiel hidden as if the extra were not installed: None in sys.modules makes its import fail.
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "from maester.cli import main; sys.exit(main(['bench', 'peers', '--seconds', '0.05']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "maester's `peers` extra (pip install" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert proc.stdout == ""
