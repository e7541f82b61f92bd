"""One way to start a program: only :mod:`diskmark.files.program` starts one (with its output
bounded, a time limit, and its whole process group ended) or signals a process group. Read
from every module's syntax tree, so that a new ``subprocess.run`` anywhere else fails here:
before, ``fio --version`` and ``fio --enghelp`` were read whole (2.5 GB from a fio that
flooded them), and the clipboard's programs were killed without the children they started.
"""

from __future__ import annotations

import ast
from pathlib import Path

import diskmark

PACKAGE = Path(diskmark.__file__).parent
THE_ONE_WAY = PACKAGE / "files" / "program.py"

#: Modules whose only use is to start programs (or processes).
MODULES = {"subprocess", "asyncio.subprocess", "multiprocessing", "pty", "pexpect", "sh",
           "plumbum"}
#: Calls that start a program, or end or signal one, by their dotted name.
CALLS = {"asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "os.system",
         "os.popen", "os.fork", "os.forkpty", "os.killpg", "os.kill", "os.posix_spawn",
         "os.posix_spawnp", "concurrent.futures.ProcessPoolExecutor", "ProcessPoolExecutor"}
CALL_PREFIXES = ("os.exec", "os.spawn", "subprocess.", "asyncio.subprocess.")


def dotted(node: ast.expr) -> str:
    """``a.b.c`` for an attribute chain or a name, else ""."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def offences(source: str, name: str) -> list[str]:
    """Where ``source`` (the module ``name``) starts or signals a program by itself."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            found += [f"{where}: import {a.name}" for a in node.names
                      if a.name in MODULES or a.name.split(".")[0] in MODULES]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = {a.name for a in node.names}
            if module in MODULES or module.split(".")[0] in MODULES:
                found.append(f"{where}: from {module} import …")
            elif module in ("asyncio", "os", "concurrent.futures") and names & {
                    call.rsplit(".", 1)[-1] for call in CALLS} | {"subprocess"}:
                found.append(f"{where}: from {module} import {', '.join(sorted(names))}")
        elif isinstance(node, ast.Call):
            called = dotted(node.func)
            if called in CALLS or called.startswith(CALL_PREFIXES):
                found.append(f"{where}: {called}(…)")
    return found


def test_only_the_one_way_starts_a_program():
    modules = sorted(p for p in PACKAGE.rglob("*.py") if p != THE_ONE_WAY)
    assert len(modules) > 100, "the package's modules were not found"
    found = [o for path in modules
             for o in offences(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))]
    assert found == [], ("start programs with diskmark.files.program (bounded output, a "
                         "time limit, the process group ended):\n" + "\n".join(found))


def test_the_check_sees_what_it_looks_for():
    """The reader finds each way of starting a program it is meant to refuse, and passes
    over a type named in an annotation."""
    sample = ("import subprocess\nimport asyncio\nimport os\n"
              "from asyncio import create_subprocess_exec\n"
              "proc: asyncio.subprocess.Process | None = None\n"
              "subprocess.run(['true'])\nasyncio.create_subprocess_exec('true')\n"
              "os.execvp('true', ['true'])\nos.killpg(1, 9)\n")
    assert sorted(f.split(": ", 1)[1] for f in offences(sample, "sample.py")) == sorted([
        "import subprocess", "from asyncio import create_subprocess_exec", "subprocess.run(…)",
        "asyncio.create_subprocess_exec(…)", "os.execvp(…)", "os.killpg(…)"])


async def test_a_line_without_end_is_read_but_not_kept():
    """ssh's stream of the host's lines, read with the one way's reader: a line of 10 MiB
    without a break is cut to what is kept, and the lines after it still come (before,
    ``readline`` raised on a line longer than 64 KiB, and the tunnel's reader died)."""
    import asyncio

    from diskmark.files.program import read_lines

    reader = asyncio.StreamReader(limit=65536)
    reader.feed_data(b"first\n" + b"x" * (10 << 20) + b"\ndiskmark:ready\nlast")
    reader.feed_eof()
    lines = [line async for line in read_lines(reader, 4096)]
    assert lines == [b"first", b"x" * 4096, b"diskmark:ready", b"last"]
