"""What each module of host/maester imports, read from its source with `ast` (nothing is imported).

    .venv/bin/python tests/import_graph.py            # the circles, the imports of a floor above, the counts
    .venv/bin/python tests/import_graph.py --inside   # also every import made inside a function

A circle is a set of modules each of which reaches every other by imports (a strongly connected
component of the import graph): the graph counts every import of a maester module, at a file's head
or inside a function, and a `lazy.Module("maester...")` stand-in, since an import moved into a
function to dodge a circle is still the circle. Imports of a module chosen by name at run time (a
game's `table` module by the game's name) are not read: those are the games plugging in.

tests/test_architecture.py fails the suite on any circle, on an import of a floor above (FLOORS
below), and on an import inside a function that does not say why (start-up time or an optional
dependency) in a comment.
"""

import argparse
import ast
import os
import sys
from collections import Counter

HOST = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "host")
PACKAGE = "maester"


def modules(root=HOST, package=PACKAGE):
    """{dotted module name: its file} for every .py file of the package."""
    found = {}
    for folder, dirs, files in os.walk(os.path.join(root, package)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
                found[dotted[:-len(".__init__")] if dotted.endswith(".__init__") else dotted] = path
    return found


class Import:
    """One import in a module: the module it names, its line, whether it sits inside a function,
    and the comment on its line (or the line above), which says why when it is inside one."""

    def __init__(self, target, line, inside, comment):
        self.target, self.line, self.inside, self.comment = target, line, inside, comment

    def __repr__(self):
        return "Import(%r, line %d%s)" % (self.target, self.line, ", inside a function" if self.inside else "")


def _comment(lines, line):
    """The comment that says why `line` (1-based) imports: on the line itself, on the comment-only
    lines just above it, or on the `try:` that opens the imports it belongs to."""
    text = lines[line - 1]
    if "#" in text:
        return text.split("#", 1)[1].strip()
    above = []
    for previous in reversed(lines[:line - 1]):
        stripped = previous.strip()
        if stripped.startswith("#"):
            above.insert(0, stripped.lstrip("#").strip())
        elif not above and stripped.startswith(("import ", "from ")):
            continue  # a sibling import of the same block: its comment speaks for both
        elif not above and stripped.startswith("try:") and "#" in stripped:
            return stripped.split("#", 1)[1].strip()
        else:
            break
    return " ".join(above)


def _absolute(module, level, name, is_package):
    """The absolute name of `from <level dots><name> import ...` written in `module`."""
    if not level:
        return name
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imports(module, path, known):
    """[Import] of every module `module` (at `path`) imports. `from a import b` names a.b when that is
    a module of `known`, else a."""
    source = open(path, encoding="utf-8").read()
    lines = source.splitlines()
    tree = ast.parse(source, path)
    is_package = path.endswith("__init__.py")
    found = []

    def visit(node, inside):
        for child in ast.iter_child_nodes(node):
            inner = inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(alias.name, child.lineno, inside, _comment(lines, child.lineno)))
            elif isinstance(child, ast.ImportFrom):
                base = _absolute(module, child.level, child.module, is_package)
                for alias in child.names:
                    sub = base + "." + alias.name
                    found.append(Import(sub if sub in known else base, child.lineno, inside,
                                        _comment(lines, child.lineno)))
            elif (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                  and child.func.attr in ("Module", "import_module") and child.args
                  and isinstance(child.args[0], ast.Constant) and isinstance(child.args[0].value, str)):
                # lazy.Module("x") and importlib.import_module("x") with a fixed name: an import too
                found.append(Import(child.args[0].value, child.lineno, inside, _comment(lines, child.lineno)))
            visit(child, inner)

    visit(tree, False)
    return found


def graph(root=HOST, package=PACKAGE):
    """{module: [Import]} for every module of the package (all its imports, of maester or not)."""
    known = modules(root, package)
    return {module: imports(module, path, known) for module, path in known.items()}


def edges(imported, package=PACKAGE):
    """{module: set of the package's modules it imports}."""
    return {module: {i.target for i in found if (i.target == package or i.target.startswith(package + "."))
                     and i.target != module and i.target in imported}
            for module, found in imported.items()}


def circles(links):
    """The import circles of `links` ({module: set of modules}): each a sorted list of the modules
    that all reach one another, the circles sorted. Tarjan's strongly connected components, written
    without recursion."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(links):
        if start in index:
            continue
        work = [(start, iter(sorted(links[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(links.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
    return sorted(found)


# The floors of the house, lowest first (ARCHITECTURE.md): a module imports only modules of its own
# room and of the floors below. A room is a package of maester (`table`) or a module at the top
# (`sim`, `paths`; `maester` is the package itself, its version); the games are one room, apart from
# maester/games/__init__.py, the list of the games that every floor may read. The kits a game draws
# with sit low, beside the engine, though their rooms stand higher: the table's LED words, the pages'
# blocks, the terminal's shared drawing.
FLOORS = (
    ("maester", "paths", "files", "lazy", "argtypes", "parallel", "games/__init__"),
    ("jsoncheck",),
    ("engine", "cards", "link", "table.lights", "web.blocks", "terminal.draw"),
    ("nfc", "compiled"),
    ("games", "cluster"),
    ("sim", "table"),
    ("web",),
    ("terminal",),
    ("bench",),
    ("commands",),
    ("cli",),
)


def room_of(module, known):
    """The room a module belongs to, as FLOORS names it: "table.lights" for a kit, "games/__init__"
    for the list of the games, else the package under maester ("table") or the top module ("sim")."""
    name = short(module)
    kits = {k for floor in FLOORS for k in floor if "." in k}
    if name in kits:
        return name
    if name == "games":
        return "games/__init__"
    return name.split(".")[0]


def floor_of(room):
    for level, rooms in enumerate(FLOORS):
        if room in rooms:
            return level
    return None


def upward(imported):
    """[(module, Import)] of every import of a maester module on a higher floor than the importer's
    (or in a room FLOORS does not place)."""
    found, seen = [], set()
    for module in sorted(imported):
        here = room_of(module, imported)
        level = floor_of(here)
        for i in imported[module]:
            if i.target not in imported or i.target == module or (module, i.line, i.target) in seen:
                continue
            seen.add((module, i.line, i.target))
            there = room_of(i.target, imported)
            if there == here:
                continue
            target_level = floor_of(there)
            if level is None or target_level is None or target_level >= level:
                found.append((module, i))
    return found


def inside_functions(imported):
    """[(module, Import)] of every import statement made inside a function, in module order (a
    statement naming several modules counted once)."""
    found, seen = [], set()
    for module in sorted(imported):
        for i in imported[module]:
            if i.inside and (module, i.line) not in seen:
                seen.add((module, i.line))
                found.append((module, i))
    return found


def package_of(module, known):
    """The room a module lives in: maester.games.lcg.flow -> maester.games.lcg, maester.table.runner ->
    maester.table, a package -> itself, a module at the top -> maester."""
    if any(other.startswith(module + ".") for other in known):
        return module
    parts = module.split(".")
    return ".".join(parts[:3] if parts[1] == "games" and len(parts) > 3 else parts[:-1])


def short(module):
    return module[len(PACKAGE) + 1:] if module.startswith(PACKAGE + ".") else module


def main(argv=None):
    parser = argparse.ArgumentParser(description="The import circles inside host/maester, and the imports made "
                                                 "inside functions, read with ast.")
    parser.add_argument("--inside", action="store_true", help="list every import made inside a function")
    args = parser.parse_args(argv)
    imported = graph()
    found = circles(edges(imported))
    print("%d import circle%s" % (len(found), "" if len(found) == 1 else "s"))
    for members in found:
        print("  " + " <-> ".join(short(m) for m in members))
    up = upward(imported)
    print("%d import%s of a floor above (FLOORS)" % (len(up), "" if len(up) == 1 else "s"))
    for module, i in up:
        print("  %s:%d imports %s" % (short(module), i.line, short(i.target)))
    inside = inside_functions(imported)
    ours = [(m, i) for m, i in inside if i.target.startswith(PACKAGE + ".") or i.target == PACKAGE]
    print("%d imports inside functions (%d of maester modules)" % (len(inside), len(ours)))
    for room, count in sorted(Counter(package_of(m, imported) for m, _ in inside).items()):
        print("  %-28s %3d" % (room, count))
    if args.inside:
        for module, i in inside:
            print("  %s:%d %s%s" % (short(module), i.line, i.target, ("  # " + i.comment) if i.comment else ""))
    return 1 if found or up else 0


if __name__ == "__main__":
    sys.exit(main())
