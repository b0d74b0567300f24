"""`maester bench chaos`: table games of every game through a fault proxy, board reboots, cable
pulls and a killed host, each ending as the fault-free game (a short run; the long one is in the
issue 16 report)."""

import json
import subprocess

from maester.link.faultproxy import KINDS
from board_driver import maester_cmd


def test_a_short_chaos_run_loses_no_tap_and_ends_every_game_as_the_fault_free_one(tmp_path):
    r = subprocess.run(maester_cmd("bench", "chaos", "--games", "4", "--moves", "15", "--fault-rate", "0.15",
                                   "--seed", "3", "--json"),
                       capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
                       env={**__import__("os").environ, "MAESTER_HOME": str(tmp_path)})
    out = json.loads(r.stdout)
    assert r.returncode == 0, (out["failures"], out["notes"], r.stderr[-2000:])
    assert out["per_game"] == {"btwixt": 1, "intrigue": 1, "oathbreaker": 1, "lcg": 1}
    assert out["moves"] == 60 and out["frames"] > 200
    for kind in KINDS + ("reboot", "unplug", "kill", "laid_while_dead"):
        assert out["faults"][kind] > 0, kind
    assert (out["taps_lost"], out["taps_doubled"], out["resumes_failed"]) == (0, 0, 0)
    assert out["states_equal"] == 4


def test_bad_options_are_refused(tmp_path):
    r = subprocess.run(maester_cmd("bench", "chaos", "--fault-rate", "0.9"), capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "not a chance from 0 to 0.5" in r.stderr
