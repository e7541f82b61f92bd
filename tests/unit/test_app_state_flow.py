"""The app's state flows one way: a screen asks the app, the app (with the run controller and
the comparison it owns) changes :class:`~diskmark.app.core.state.AppState` and announces the
change, the screens listen and draw. Read from the syntax tree of every module of
``diskmark/app``, so that a new shortcut either way fails here: before, the app called
``self.main.settings_changed`` (and the unit's, the baseline's, the running state's) on the
screen that had just asked it, and the main screen wrote ``state.comment``, the facts and a
run's result itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import diskmark

APP = Path(diskmark.__file__).parent / "app"
#: Where only drawing happens: the state is read there, never written.
DRAWING = (APP / "screens", APP / "widgets")
#: What changes a container in place.
MUTATORS = {"add", "append", "extend", "insert", "update", "clear", "pop", "popitem", "remove",
            "discard", "setdefault"}


def chain(node: ast.expr) -> list[str]:
    """The names along an attribute or subscript chain, outermost last: ``a.b[c].d`` gives
    ``["a", "b", "d"]``."""
    names = []
    while True:
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        else:
            break
    if isinstance(node, ast.Name):
        names.append(node.id)
    return list(reversed(names))


def reaches_into_the_main_screen(source: str, name: str) -> list[str]:
    """Where ``source`` goes through the app's main screen to its methods or widgets
    (``self.main.status``, ``app.main.grid``, ``self._main.adapt``): the app tells it,
    never calls it."""
    return [f"{name}:{node.lineno}: {'.'.join(chain(node))}"
            for node in ast.walk(ast.parse(source, name))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
            and node.value.attr in ("main", "_main")]


def state_writers() -> set[str]:
    """The methods of AppState that change it (they assign to ``self``'s attributes)."""
    tree = ast.parse((APP / "core" / "state.py").read_text())
    state = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "AppState")
    writers = set()
    for method in state.body:
        if isinstance(method, ast.FunctionDef):
            for node in ast.walk(method):
                targets = (node.targets if isinstance(node, ast.Assign)
                           else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign))
                           else [])
                if any(chain(t)[:1] == ["self"] for t in targets):
                    writers.add(method.name)
    return writers


def writes_the_state(source: str, name: str, writers: set[str]) -> list[str]:
    """Where ``source`` changes the app's state: assigns to anything reached through a
    ``state`` (``self.dm.state.comment = …``, ``state.facts = …``), changes a container of
    it in place, or calls one of AppState's ``writers``."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            names = chain(target)
            if "state" in names[:-1]:
                found.append(f"{name}:{node.lineno}: {'.'.join(names)} = …")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            names = chain(node.func)
            if "state" in names[:-1] and (names[-1] in writers or (
                    names[-1] in MUTATORS and names.index("state") < len(names) - 2)):
                found.append(f"{name}:{node.lineno}: {'.'.join(names)}(…)")
    return found


def modules(*folders: Path) -> list[tuple[str, str]]:
    return [(str(path.relative_to(APP.parent.parent)), path.read_text())
            for folder in folders for path in sorted(folder.rglob("*.py"))]


def test_nothing_in_the_app_calls_into_the_main_screen():
    found = [hit for name, source in modules(APP)
             for hit in reaches_into_the_main_screen(source, name)]
    assert found == [], "the app announces (app.signals); the main screen listens and draws"


def test_no_screen_or_widget_writes_the_state():
    writers = state_writers()
    assert {"begin_run", "test_finished", "run_returned", "result_on_tiles"} <= writers
    found = [hit for name, source in modules(*DRAWING)
             for hit in writes_the_state(source, name, writers)]
    assert found == [], "a screen asks the app (AppLike); only the app changes its state"


def test_the_app_class_file_stays_under_400_lines():
    """Split by idea: the run controller (runs.py), the comparison (comparing.py) and the
    keys' actions (keys.py) are rooms of their own."""
    lines = len((APP / "app.py").read_text().splitlines())
    assert lines < 400, f"app/app.py has {lines} lines"


def test_the_checks_find_what_they_look_for():
    """The checks above can fail: the calls and writes the app and its main screen made
    before are found."""
    app = ("def change_settings(self):\n"
           "    self.main.settings_changed(old)\n"
           "    self._main.adapt(1, 2)\n"
           "    self.main.status.show('Stopping')\n"
           "    self.main.query_one('#comment').focus()\n")
    assert sorted(reaches_into_the_main_screen(app, "app.py")) == [
        "app.py:2: self.main.settings_changed", "app.py:3: self._main.adapt",
        "app.py:4: self.main.status", "app.py:5: self.main.query_one"]
    screen = ("def f(self, event, app, facts, key, session):\n"
              "    self.dm.state.comment = event.value\n"
              "    state = self.dm.state\n"
              "    state.facts = facts\n"
              "    state.advised.add(key)\n"
              "    app.state.sweep_session = session\n"
              "    state.run_returned(session)\n"
              "    state.on_tiles[(0, 1)] = session\n"
              "    state.settings.target\n"
              "    state.session_of(session)\n")
    found = sorted(writes_the_state(screen, "main.py", state_writers()))
    assert found == [
        "main.py:2: self.dm.state.comment = …", "main.py:4: state.facts = …",
        "main.py:5: state.advised.add(…)", "main.py:6: app.state.sweep_session = …",
        "main.py:7: state.run_returned(…)", "main.py:8: state.on_tiles = …"], found
