"""The package's imports read one way: no module needs, however indirectly, a module that
needs it (type-only imports included), no folder a folder that needs it, in the app nothing
imports the app's own module (its screens and its palette reach it through a protocol), and
neither the engine's folders (its core and its fleet) nor the app's (the app, its screens,
its widgets, its core) import each other, at any depth. Read with grimp, which the layer
checks (import-linter) use."""

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


def folder_of(graph: grimp.ImportGraph, module: str) -> str:
    """The folder ``module`` lives in: its package (a package's own ``__init__`` is its
    folder's). The modules at the package's root (``diskmark`` itself, the command's entry
    ``launch`` and ``__main__``) are no folder's: each stands alone, so the entry above
    everything and the version every layer reads are not one node, which would make a
    circle of every folder; a circle through them is still found."""
    if graph.find_children(module):
        return module
    parent = module.rpartition(".")[0]
    return parent if parent.count(".") >= 1 else module


def folders(graph: grimp.ImportGraph) -> tuple[grimp.ImportGraph, dict[tuple[str, str], str]]:
    """The graph of the package's folders: one folder imports another when any module in
    it imports any module in the other; with one such import per pair, to name it."""
    made = grimp.ImportGraph()
    example: dict[tuple[str, str], str] = {}
    for module in sorted(graph.modules):
        made.add_module(folder_of(graph, module))
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in graph.modules:
                continue
            a, b = folder_of(graph, module), folder_of(graph, imported)
            if a != b:
                made.add_import(importer=a, imported=b)
                example.setdefault((a, b), f"{module} -> {imported}")
    return made, example


def test_no_two_folders_import_each_other_in_the_whole_package(graph):
    """Folder by folder, the package's imports read one way too: no subpackage needs,
    directly or through others, a subpackage that needs it (``app`` and ``app/screens``
    included: a folder and a folder inside it are two folders)."""
    made, example = folders(graph)
    found = circles(made)
    named = [[f"{a} -> {b} ({example[(a, b)]})" for a in circle for b in circle
              if (a, b) in example] for circle in found]
    assert found == [], f"folders that import each other: {named}"


def test_nothing_in_the_app_imports_the_app_module(graph):
    importers = {m for m in graph.find_downstream_modules("diskmark.app.app")
                 if m.startswith("diskmark.app.")}
    assert importers == set(), "the app's screens and palette type the app by its protocol"


def folders_within(graph: grimp.ImportGraph, package: str) -> grimp.ImportGraph:
    """The folders of ``package`` (itself, for its own modules, and each package in it) and
    which imports which: a module's folder is the package it is in, a package's itself."""
    inside = {m for m in graph.modules if m == package or m.startswith(package + ".")}
    packages = {m.rpartition(".")[0] for m in inside if m != package} | {package}

    def folder(module: str) -> str:
        return module if module in packages else module.rpartition(".")[0]

    made = grimp.ImportGraph()
    for name in packages:
        made.add_module(name)
    for module in inside:
        for other in graph.find_modules_directly_imported_by(module) & inside:
            if folder(module) != folder(other):
                made.add_import(importer=folder(module), imported=folder(other))
    return made


def test_the_engines_folders_import_one_way_and_only_the_cli_and_the_app_import_the_fleet(graph):
    """The engine's core and its fleet (``engine/fleet/``): the fleet imports the core, never
    the other way (a killed fleet run's job files are swept by what their register entry
    says), and outside the fleet only the command line and the app import it (the fleet's
    result is the model's). lint-imports keeps the second too; this keeps the folders from
    importing each other, at any depth of folders the engine grows."""
    engine = folders_within(graph, "diskmark.engine")
    assert "diskmark.engine.fleet" in engine.modules, "the fleet is a folder of the engine"
    assert circles(engine) == [], "the engine's folders import each other"
    importers = {m for m in graph.find_modules_that_directly_import("diskmark.engine.fleet", as_package=True)
                 if not m.startswith(("diskmark.engine.fleet.", "diskmark.cli.", "diskmark.app."))}
    assert importers == set(), "only the command line and the app import the fleet"


def test_no_two_folders_of_the_app_import_each_other(graph):
    """The app's folders read one way: the app and what acts for it (the run controller,
    the comparison, the reports) over the screens, over the widgets, over the core (the
    state, the keys, the protocol, what the app announces); no folder imports one that
    imports it, directly or through others (before, the screens imported app/comparing.py
    and app/reporting.py the screens' dialogs)."""
    app = folders_within(graph, "diskmark.app")
    assert {"diskmark.app", "diskmark.app.screens", "diskmark.app.widgets"} <= app.modules
    found = circles(app)
    through: dict[tuple[str, str], str] = {}  # one import that makes each arrow of a circle
    for circle in found:
        for module in sorted(graph.modules):
            for other in sorted(graph.find_modules_directly_imported_by(module)):
                arrow = (module.rpartition(".")[0], other.rpartition(".")[0])
                if arrow[0] != arrow[1] and set(arrow) <= set(circle):
                    through.setdefault(arrow, f"{module} -> {other}")
    assert found == [], f"the app's folders import each other: {found}, through {sorted(through.values())}"


def test_the_circle_finder_finds_a_circle():
    """The check above can fail: a graph with one circle gives it back."""
    made = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        made.add_module(module)
    made.add_import(importer="pkg.a", imported="pkg.b")
    made.add_import(importer="pkg.b", imported="pkg.a")
    made.add_import(importer="pkg.c", imported="pkg.a")
    assert circles(made) == [["pkg.a", "pkg.b"]]


def test_the_folder_finder_finds_a_circle_no_module_is_in():
    """Two folders that import each other through different modules: no module circle,
    one folder circle, named by an import each way."""
    made = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.a.x", "pkg.a.w", "pkg.b", "pkg.b.y", "pkg.b.z",
                   "pkg.entry"):
        made.add_module(module)
    made.add_import(importer="pkg.a.x", imported="pkg.b.y")
    made.add_import(importer="pkg.b.z", imported="pkg.a.w")
    made.add_import(importer="pkg.entry", imported="pkg.a.x")
    made.add_import(importer="pkg.b.y", imported="pkg")
    assert circles(made) == []
    found, example = folders(made)
    assert circles(found) == [["pkg.a", "pkg.b"]]
    assert example[("pkg.a", "pkg.b")] == "pkg.a.x -> pkg.b.y"
    assert example[("pkg.b", "pkg.a")] == "pkg.b.z -> pkg.a.w"


def test_the_folder_finder_finds_two_folders_that_import_each_other():
    """The engine's check can fail: a core module importing the fleet, which imports
    the core, is a circle of folders though no module imports back the one that imports it."""
    made = grimp.ImportGraph()
    for module in ("pkg", "pkg.core", "pkg.room", "pkg.room.a", "pkg.room.b"):
        made.add_module(module)
    made.add_import(importer="pkg.room.a", imported="pkg.core")
    made.add_import(importer="pkg.core", imported="pkg.room.b")
    assert circles(made) == []
    assert circles(folders_within(made, "pkg")) == [["pkg", "pkg.room"]]
