"""Every numbered Core card of the LCG has a test named after its code (issue 13's bar: 208 of 208).

The per-card tests live in tests/test_lcg_cards_<house>.py; a test names every card it is about in
its function name (`test_S5_...`, `test_S29_S30_S31_great_keep_...`). This check reads those names,
so a card left without a test fails the suite by name.
"""

import ast
import json
import re
from pathlib import Path

HERE = Path(__file__).parent
CARDS = json.loads((HERE.parent / "cards_db" / "lcg" / "cards.json").read_text())["cards"]
CODE = re.compile(r"(?<=_)([SLBT]\d{1,3})(?=_|$)")


def codes_with_tests():
    out = {}
    for path in sorted(HERE.glob("test_lcg_cards_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                for code in CODE.findall(node.name):
                    out.setdefault(code, []).append("%s::%s" % (path.name, node.name))
    return out


def test_every_core_card_has_a_test_named_after_its_code():
    tested = codes_with_tests()
    missing = [c["id"] for c in CARDS if c["id"] not in tested]
    assert not missing, "%d of %d Core cards have no test: %s" % (len(missing), len(CARDS), " ".join(missing))


def test_every_card_whose_ability_the_engine_claims_has_a_test():
    from maester.games.lcg import abilities
    tested = codes_with_tests()
    untested = sorted(c for c in abilities.CARD_ABILITIES if c not in tested)
    assert not untested, "implemented without a test: %s" % " ".join(untested)


def test_the_check_reads_codes_out_of_test_names():
    tree = ast.parse("def test_S29_S30_S31_great_keep_x():\n    pass\ndef test_L163_ways():\n    pass\n")
    names = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    assert [CODE.findall(n) for n in names] == [["S29", "S30", "S31"], ["L163"]]
