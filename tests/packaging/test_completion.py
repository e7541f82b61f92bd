"""``diskmark completion SHELL`` run in the real shells: bash's completion function called as
bash calls it (COMP_WORDS), fish's ``complete -C``, zsh's arrays and its baseline helper;
subcommands, options, the choices argparse does not list itself (presets, profiles, units)
and the names of saved baselines, asked of a real diskmark on PATH. Then names a file can
give (an imported baseline's, a user preset's): each shell on a terminal of its own, a name
completed with Tab and the line run, each word must arrive as itself and nothing may run."""

from __future__ import annotations

import os
import pty
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("zsh", "fish")

ROOT = Path(__file__).parents[2]
CDM = ROOT / "tests" / "fixtures" / "cdm" / "cdm8_0_1_default.txt"


def diskmark_on_path(base: Path) -> dict[str, str]:
    """An environment with this checkout's diskmark on PATH, its home and HOME in ``base``
    (no XDG directory of the user running the tests: fish reads them)."""
    bin_dir = base / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "diskmark"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m diskmark "$@"\n')
    wrapper.chmod(0o755)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISKMARK_", "PYTEST_", "XDG_"))}
    return env | {"PATH": f"{bin_dir}:{env['PATH']}", "DISKMARK_HOME": str(base / "home"),
                  "HOME": str(base)}


def import_baselines(env: dict[str, str], names: list[str]) -> None:
    for name in names:
        done = subprocess.run(["diskmark", "baselines", "import", str(CDM), f"--name={name}"],
                              env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory) -> dict[str, str]:
    """A diskmark on PATH (this checkout's), with two baselines saved, one with a space."""
    env = diskmark_on_path(tmp_path_factory.mktemp("completion"))
    import_baselines(env, ["my base", "other"])
    return env


def script(shell: str, env: dict[str, str], directory: Path) -> Path:
    made = subprocess.run(["diskmark", "completion", shell], env=env, capture_output=True,
                          text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    path = directory / f"diskmark.{shell}"
    path.write_text(made.stdout)
    return path


#: What a Tab after each line offers (bash), by the words typed: as it goes on the line
#: (``my\\ base``, one word).
EXPECTED = {
    ("diskmark", ""): {"run", "check", "checks", "why", "presets", "baselines", "history",
                       "keys", "completion"},
    ("diskmark", "why", "--format", ""): {"text", "json"},
    ("diskmark", "ba"): {"baselines"},
    ("diskmark", "run", "--pr"): {"--preset", "--profile"},
    ("diskmark", "run", "--preset", ""): {"default", "nvme", "flash"},
    ("diskmark", "run", "--profile", ""): {"default", "peak", "real", "demo", "stable", "sustained"},
    ("diskmark", "run", "--unit", ""): {"MB/s", "GB/s", "IOPS", "us"},
    ("diskmark", "run", "--mode", ""): {"rw", "read", "write"},
    ("diskmark", "run", "--compare", ""): {"my\\ base", "other"},
    ("diskmark", "baselines", "show", ""): {"my\\ base", "other"},
    ("diskmark", "baselines", "compare", "my base", ""): {"my\\ base", "other"},
    ("diskmark", "history", "share", "--baseline", "o"): {"other"},
    ("diskmark", "history", "trend", "--kind", ""): {"read", "write", "mix"},
    ("diskmark", "completion", ""): {"bash", "zsh", "fish"},
    ("diskmark", "check", "sd-v"): {"sd-v6", "sd-v10", "sd-v30", "sd-v60", "sd-v90"},
}


def test_bash_completes_commands_options_choices_and_baselines(shell_env, tmp_path):
    path = script("bash", shell_env, tmp_path)
    lines = [f"source {path}", "complete -p diskmark"]
    for words in EXPECTED:
        quoted = " ".join(f"'{w}'" for w in words)
        lines.append(f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; "
                     f"COMP_LINE={' '.join(words)!r}; COMP_POINT=${{#COMP_LINE}}; COMPREPLY=(); "
                     f"_shtab_diskmark diskmark '{words[-1]}' '{words[-2]}'; "
                     "printf '%s\\t' \"${COMPREPLY[@]}\"; echo")
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", "\n".join(lines)],
                          env=shell_env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0].endswith(" diskmark") and "-F _shtab_diskmark" in out[0], out[0]
    for words, reply in zip(EXPECTED, out[1:], strict=True):
        offered = set(reply.rstrip("\t").split("\t")) - {""}
        assert offered == EXPECTED[words], f"{' '.join(words)!r} offered {sorted(offered)}"


def test_fish_completes_commands_choices_and_baselines(shell_env, tmp_path):
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed (apt-get install fish)")
    path = script("fish", shell_env, tmp_path)
    asked = ["diskmark ba", "diskmark run --preset ", "diskmark run --unit ",
             "diskmark baselines show "]
    cmd = f"source {path}; " + "; ".join(f"complete -C {line!r}; echo ---" for line in asked)
    done = subprocess.run(["fish", "--no-config", "-c", cmd], env=shell_env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    replies = [{line.split("\t")[0] for line in block.strip().splitlines()}
               for block in done.stdout.split("---\n")[:len(asked)]]
    assert replies == [{"baselines"}, {"default", "nvme", "flash"}, {"MB/s", "GB/s", "IOPS", "us"},
                       {"my base", "other"}], replies


def test_zsh_registers_the_completion_with_its_choices_and_baselines(shell_env, tmp_path):
    if shutil.which("zsh") is None:
        pytest.skip("zsh is not installed (apt-get install zsh)")
    path = script("zsh", shell_env, tmp_path)
    # sourced in eval (as in ~/.zshrc: eval "$(diskmark completion zsh)"), the script registers
    # itself with compdef; its baseline helper's compadd is caught to print what it offers
    cmd = (f'autoload -U compinit; compinit -u -d {tmp_path}/zcompdump; eval "$(<{path})"; '
           'print -r -- "comps=$_comps[diskmark]"; print -rl -- $_shtab_diskmark_run_options; '
           'compadd() { for n in "${(@P)2}"; do print -r -- "baseline=$n"; done }; '
           '_diskmark_baselines')
    done = subprocess.run(["zsh", "-f", "-c", cmd], env=shell_env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == "comps=_shtab_diskmark", out[0]
    assert any(line.startswith("--unit[") and line.endswith(":UNIT:(MB/s GB/s IOPS us)")
               for line in out), out
    assert any(line.startswith("--preset[") and "(default flash nvme)" in line for line in out)
    assert [line for line in out if line.startswith("baseline=")] == \
        ["baseline=my base", "baseline=other"]


# --- names from files: offered as themselves, never run ---------------------------------

#: Baseline names a file can bring (``baselines import --name``, a colleague's export), each
#: with its own first letters to be completed from; {marks} is where one that runs leaves a file.
HOSTILE = ["new NVMe", "c1 $(touch {marks}/c1)", "c2 `touch {marks}/c2`",
           "c3 ${{HOME}} $HOME \"dq\" 'sq' \\ back *?[ab] ~ # ! & | ; < > ( ) {{a,b}} : = @ % é 漢字",
           "-dash"]
#: User presets: an id and a profile id that would run, refused where they are read; a good one.
PRESETS = {"hostile.toml": 'id = "$(touch {marks}/p1)"\n[profiles.default]\n',
           "hostile_profile.toml": 'id = "evil"\n[profiles."`touch {marks}/p2`"]\n',
           "mine.toml": 'id = "mine"\n[profiles.fast]\n'}
TESTS = 'tests = [{ pattern = "SEQ", block = "1MiB", queues = 1, threads = 1 }]\n'


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> tuple[dict[str, str], list[str], Path]:
    """A diskmark on PATH whose home holds the HOSTILE baselines, the PRESETS, and two
    damaged baseline files whose names hold a tab and a line break; an empty directory of
    marks. Returns the environment, the baselines' names and the marks' directory."""
    base = tmp_path_factory.mktemp("completion-hostile")
    env = diskmark_on_path(base)
    marks = base / "marks"
    marks.mkdir()
    names = [name.format(marks=marks) for name in HOSTILE]
    import_baselines(env, names)
    presets = base / "home" / "config" / "presets"
    presets.mkdir(parents=True)
    for file, text in PRESETS.items():
        (presets / file).write_text(text.format(marks=marks) + TESTS)
    kept = base / "home" / "data" / "baselines"  # where earlier versions kept baselines
    kept.mkdir(parents=True, exist_ok=True)
    for damaged in ("tab\there.json", "line\nbreak.json"):
        (kept / damaged).write_text("not a baseline")
    return env, names, marks


def test_names_lists_each_name_on_one_line_and_no_name_a_line_cannot_hold(hostile):
    env, names, _ = hostile
    listed = subprocess.run(["diskmark", "baselines", "list", "--names"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert sorted(listed.stdout.splitlines()) == sorted(names)
    shown = subprocess.run(["diskmark", "baselines", "list"], env=env, capture_output=True,
                           text=True, timeout=60)
    assert "tab\\there" in shown.stdout + shown.stderr  # still listed, damaged, with the reason


def test_a_user_preset_whose_id_a_shell_would_not_read_as_itself_is_refused(hostile):
    env, _, marks = hostile
    made = subprocess.run(["diskmark", "completion", "bash"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    problems = made.stderr.splitlines()
    assert len(problems) == 2, problems
    assert "hostile.toml:1: id '$(touch" in problems[0] and "cannot be typed in a shell" in problems[0]
    assert ("hostile_profile.toml:2: profile id '`touch" in problems[1]
            and "cannot be typed in a shell" in problems[1])
    assert "_shtab_diskmark_run___preset_choices=(default flash nvme mine)" in made.stdout
    assert "touch" not in made.stdout


def parsed_by_bash(line: str, cwd: Path) -> list[str]:
    """The words bash reads in ``line``, as it runs it after Enter."""
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", f"printf '%s\\0' {line}"],
                          capture_output=True, text=True, timeout=30, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\0")[:-1]


def test_bash_offers_each_name_quoted_as_the_line_needs_it(hostile, tmp_path):
    """COMPREPLY is what readline puts in place of the word, as it is: each reply, put on the
    line as readline would (in an open quote: after it, the quote then closed), must read as
    the name, whatever quote or backslash the word was typed with."""
    env, names, marks = hostile
    c3 = next(name for name in names if name.startswith("c3"))
    cases = [  # (the words typed, what stands before the reply, after it, the names offered)
        (("baselines", "show", ""), "", "", names),
        (("run", "--compare", "n"), "", "", ["new NVMe"]),
        (("baselines", "show", "c3\\ \\$\\{"), "", "", [c3]),
        (("baselines", "show", "'c3 ${HOME"), "'", "'", [c3]),
        (("baselines", "show", '"c3 \\${'), '"', '"', [c3]),
        (("baselines", "show", "c3' $'\\{HOM"), "", "", [c3]),
        (("run", "--compare", "-d"), "", "", ["-dash"]),
        (("history", "share", "--baseline", "c1"), "", "", [names[1]]),
        (("run", "--preset", ""), "", "", ["default", "flash", "nvme", "mine"]),
        (("run", "--profile", ""), "", "", ["default", "peak", "real", "demo", "stable",
                                             "sustained", "fast"]),
    ]
    path = script("bash", env, tmp_path)
    lines = [f"source {path}"]
    for typed, _, _, _ in cases:
        words = " ".join(shlex.quote(w) for w in ("diskmark", *typed))
        lines.append(f"COMP_WORDS=({words}); COMP_CWORD={len(typed)}; COMP_LINE=${{COMP_WORDS[*]}}; "
                     "COMP_POINT=${#COMP_LINE}; COMPREPLY=(); "
                     '_shtab_diskmark diskmark "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"; '
                     "printf '%s\\0' \"${COMPREPLY[@]}\"; printf '\\n'")
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", "\n".join(lines)], env=env,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    replies = done.stdout.split("\n")[:len(cases)]
    for (typed, before, after, offered), reply in zip(cases, replies, strict=True):
        words = reply.split("\0")[:-1]
        read = [parsed_by_bash(before + word + after, tmp_path) for word in words]
        assert sorted(read) == sorted([name] for name in offered), (typed, words)
    assert list(marks.iterdir()) == []


def test_fish_offers_each_name_as_itself(hostile, tmp_path):
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed (apt-get install fish)")
    env, names, marks = hostile
    path = script("fish", env, tmp_path)
    asked = ["diskmark baselines show ", "diskmark run --compare c", "diskmark run --preset ",
             "diskmark run --profile f"]
    cmd = f"source {path}; " + "; ".join(f"complete -C {fish_quote(line)}; echo ---"
                                         for line in asked)
    done = subprocess.run(["fish", "--no-config", "-c", cmd], env=env, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    replies = [{line.split("\t")[0] for line in block.strip("\n").split("\n") if line}
               for block in done.stdout.split("---\n")[:len(asked)]]
    assert replies == [set(names), {name for name in names if name.startswith("c")},
                       {"default", "flash", "nvme", "mine"}, {"fast"}], replies
    assert list(marks.iterdir()) == []


def fish_quote(text: str) -> str:
    """``text`` in fish's single quotes (where only ``\\'`` and ``\\\\`` are escapes)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


class Prompt:
    """An interactive shell on a pseudo-terminal of its own, as a user's terminal runs it,
    whose ``diskmark`` is a function writing the words it is given to ``out/args``: a line is
    typed, Tab and all, and the words the shell ran it with are read back."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, out: Path, setup: str):
        self.out = out
        pid, fd = pty.fork()
        if pid == 0:  # the child: become the shell
            try:
                os.chdir(cwd)
                os.execvpe(argv[0], argv, env | {"TERM": "xterm"})
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.screen = bytearray()
        self.type(setup + f"; touch {out}/ready\r")
        if not self._wait_for(out / "ready", 60):
            self.close()
            raise AssertionError(f"{argv[0]} did not start: {self.screen.decode(errors='replace')}")

    def _wait_for(self, path: Path, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.05)[0]:
                try:
                    self.screen += os.read(self.fd, 65536)
                except OSError:
                    return path.exists()
            if path.exists():
                return True
        return False

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def run(self, line: str) -> list[str] | None:
        """The words ``diskmark`` got from ``line`` (None if it did not run)."""
        args = self.out / "args"
        args.unlink(missing_ok=True)
        self.type(line + "\r")
        if not self._wait_for(args, 60):
            return None
        return args.read_bytes().decode().split("\0")[:-1]

    def close(self) -> None:
        """Exit the shell; end it if it does not within 5 s."""
        self.type("exit\r")
        deadline = time.monotonic() + 5
        while os.waitpid(self.pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                break
            self._wait_for(self.out / "never", 0.1)  # reading what it prints meanwhile
        os.close(self.fd)


#: Each shell as a user starts it, its completion installed where ``completion --help`` says.
SHELLS = {
    "bash": (["bash", "--norc", "--noprofile", "-i"], "source {script}"),
    "zsh": (["zsh", "-f", "-i"], "fpath+=({dir}); autoload -U compinit; compinit -u -D"),
    "fish": (["fish", "--no-config", "-i"], "source {script}"),
}
#: The function each shell's ``diskmark`` is for the test, {out} the directory it writes in.
RECORDER = {
    "bash": "diskmark() {{ printf '%s\\0' \"$@\" > {out}/a && mv {out}/a {out}/args; }}",
    "zsh": "diskmark() {{ printf '%s\\0' \"$@\" > {out}/a && mv {out}/a {out}/args; }}",
    "fish": "function diskmark; printf '%s\\0' $argv > {out}/a; and mv {out}/a {out}/args; end",
}


@pytest.mark.parametrize("shell", SHELLS)
def test_a_name_completed_with_tab_reaches_the_command_as_one_word_and_nothing_runs(
        shell, hostile, tmp_path):
    """The user's view: Tab puts the name on the line, Enter runs it; the words the command
    gets are the name, one word, and what the name holds ran nowhere (nor as the script was
    loaded). Presets and profiles from the user's files complete too, the refused ones not."""
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed (apt-get install {shell})")
    env, names, marks = hostile
    c1, c3 = names[1], names[3]
    made = script(shell, env, tmp_path)
    installed = tmp_path / "functions" / ("_diskmark" if shell == "zsh" else made.name)
    installed.parent.mkdir()
    made.rename(installed)
    out = tmp_path / "out"
    out.mkdir()
    argv, setup = SHELLS[shell]
    setup = (setup.format(script=installed, dir=installed.parent) + "; "
             + RECORDER[shell].format(out=out))
    lines = {"diskmark baselines show c1\t": ["baselines", "show", c1],
             "diskmark run --compare new\t": ["run", "--compare", "new NVMe"],
             "diskmark baselines show c3\t": ["baselines", "show", c3],
             "diskmark run --preset mi\t --profile f\t": ["run", "--preset", "mine", "--profile", "fast"]}
    if shell == "bash":  # a quote left open: readline closes it
        lines |= {"diskmark baselines show 'c3\t": ["baselines", "show", c3],
                  'diskmark baselines show "c3\t': ["baselines", "show", c3]}
    prompt = Prompt(argv, env, tmp_path, out, setup)
    try:
        got = {line: prompt.run(line) for line in lines}
    finally:
        prompt.close()
    assert got == lines, prompt.screen.decode(errors="replace")[-3000:]
    assert list(marks.iterdir()) == []


def test_the_install_lines_of_completion_help_work_on_a_fresh_account(shell_env, tmp_path):
    """A fresh account has none of the directories the shells look in: each line of
    ``completion --help`` run as printed, in order, installs the three scripts; and every
    language's help prints the same lines."""
    from diskmark.cli.completion import EPILOG, INSTALL_PATHS
    from diskmark.locale import LANGUAGES, _, language, set_language

    def commands(text: str) -> list[str]:
        return [line.strip() for line in text.splitlines()
                if line.strip().startswith(("mkdir ", "diskmark completion "))]

    shown = subprocess.run(["diskmark", "completion", "--help"], env=shell_env,
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    lines = commands(shown.stdout)
    assert len(lines) == 6, shown.stdout
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    for line in lines:
        done = subprocess.run(["sh", "-c", line], env=shell_env | {"HOME": str(fresh)},
                              capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert done.returncode == 0, f"{line}: {done.stderr}"
    for path in INSTALL_PATHS.values():
        assert "_shtab_diskmark" in (fresh / path.removeprefix("~/")).read_text()
    was = language()
    try:
        for lang in LANGUAGES:
            set_language(lang)
            assert commands(_(EPILOG)) == lines, lang
    finally:
        set_language(was)
