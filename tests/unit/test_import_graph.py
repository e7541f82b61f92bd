"""The package's imports read one way: no module needs, however indirectly, a module that
needs it (type-only imports included), and in the app nothing imports the app's own
module: its screens and its palette reach it through a protocol. Read with grimp, which the
layer checks (import-linter) use."""

from __future__ import annotations

import grimp
import pytest


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("diskmark", cache_dir=None)


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in graph.modules:
                    continue
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(graph.find_modules_directly_imported_by(other)))))
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_module_imports_back_a_module_that_imports_it(graph):
    assert circles(graph) == [], "import circles (each list: modules that import each other)"


def test_nothing_in_the_app_imports_the_app_module(graph):
    importers = {m for m in graph.find_downstream_modules("diskmark.app.app")
                 if m.startswith("diskmark.app.")}
    assert importers == set(), "the app's screens and palette type the app by its protocol"


def test_the_circle_finder_finds_a_circle():
    """The check above can fail: a graph with one circle gives it back."""
    made = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        made.add_module(module)
    made.add_import(importer="pkg.a", imported="pkg.b")
    made.add_import(importer="pkg.b", imported="pkg.a")
    made.add_import(importer="pkg.c", imported="pkg.a")
    assert circles(made) == [["pkg.a", "pkg.b"]]
