"""How the LCG heuristic bot picks the targets it weighs when it judges an ability: a long target ask
is cut to MAX_TARGETS, half on each side of the table (a choice that is no card, "none", does not
trip it up), and the targets are tried in turns from both sides."""

from maester.games.lcg.bot import MAX_TARGETS, HeuristicBot


def _table():
    """Seat 0 and seat 1 with six characters each in play (no printed facts: all weigh the same)."""
    cards = {"A%d#0" % i: {"ctrl": 0} for i in range(6)}
    cards.update({"B%d#1" % i: {"ctrl": 1} for i in range(6)})
    return {"g": {"cards": cards}}


def test_a_long_target_ask_is_cut_to_max_targets_even_with_a_choice_that_is_no_card():
    s = _table()
    choices = [["target", inst] for inst in sorted(s["g"]["cards"])] + [["none"]]
    picked = HeuristicBot()._some_targets(s, 0, choices)
    assert len(picked) == MAX_TARGETS and all(c in choices for c in picked)
    sides = [s["g"]["cards"][c[1]]["ctrl"] for c in picked if len(c) > 1]
    assert sides.count(0) == MAX_TARGETS // 2  # half its own, half the others'


def test_targets_are_tried_in_turns_from_both_sides_of_the_table():
    s = _table()
    targets = [["target", "A0#0"], ["target", "A1#0"], ["target", "B0#1"], ["target", "B1#1"], ["none"]]
    order, both = HeuristicBot._both_sides(s, 0, targets)
    assert both and sorted(map(str, order)) == sorted(map(str, targets))
    assert [c[1] for c in order[:4]] == ["B0#1", "A0#0", "B1#1", "A1#0"]  # the others' first, then its own


def test_targets_on_one_side_only_are_not_two_sides():
    s = _table()
    order, both = HeuristicBot._both_sides(s, 0, [["target", "A0#0"], ["target", "A1#0"]])
    assert not both and [c[1] for c in order] == ["A0#0", "A1#0"]
