"""The house's rules, read from the source with ast (tests/import_graph.py; ARCHITECTURE.md says them
in words): no import circle inside host/maester, no room importing a floor above its own, and no
import hidden in a function without a comment saying why (start-up time or an optional dependency)."""

import pytest

import import_graph as G

REASONS = ("start-up", "extra", "optional")  # the words a comment gives for an import inside a function


@pytest.fixture(scope="module")
def imported():
    return G.graph()  # {module: [Import]} of every module of host/maester, read once


def test_no_import_circle(imported):
    found = G.circles(G.edges(imported))
    assert found == [], "import circles: %s" % "; ".join(" <-> ".join(map(G.short, c)) for c in found)


def test_the_circle_finder_finds_circles():
    # The check can fail: a circle of three, a module importing itself, and a chain that is no circle.
    links = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert G.circles(links) == [["a", "b", "c"]]


def test_each_room_imports_only_its_own_and_the_floors_below(imported):
    found = G.upward(imported)
    assert found == [], "\n".join("%s:%d imports %s, a floor above (tests/import_graph.py FLOORS)"
                                  % (G.short(m), i.line, G.short(i.target)) for m, i in found)


def test_a_command_is_imported_by_the_cli_alone(imported):
    # cli.py names each command's module as a string and imports it when the command is run.
    found = [(m, i.target) for m, imports in imported.items() for i in imports
             if i.target.startswith("maester.commands.") and not m.startswith("maester.commands.")]
    assert found == []


def test_an_import_inside_a_function_says_why(imported):
    unexplained = [(m, i) for m, i in G.inside_functions(imported)
                   if not any(word in i.comment for word in REASONS)]
    assert unexplained == [], "\n".join("%s:%d imports %s inside a function with no reason given (%s)"
                                        % (G.short(m), i.line, i.target, " or ".join(REASONS))
                                        for m, i in unexplained)


def test_the_reader_sees_imports_in_functions_and_lazy_modules(tmp_path):
    # A circle dodged by an import inside a function, or by a lazy.Module, is still a circle.
    pkg = tmp_path / "maester"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import lazy\nb = lazy.Module('maester.b')\n")
    (pkg / "b.py").write_text("def f():\n    from . import a  # start-up\n    return a\n")
    (pkg / "lazy.py").write_text("")
    found = G.graph(tmp_path)
    assert G.circles(G.edges(found)) == [["maester.a", "maester.b"]]
    inside = G.inside_functions(found)
    assert [(m, i.target, i.comment) for m, i in inside] == [("maester.b", "maester.a", "start-up")]
