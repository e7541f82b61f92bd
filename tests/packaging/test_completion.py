"""``diskmark completion SHELL`` run in the real shells: bash's completion function called as
bash calls it (COMP_WORDS), fish's ``complete -C``, zsh's arrays and its baseline helper;
subcommands, options, the choices argparse does not list itself (presets, profiles, units)
and the names of saved baselines, asked of a real diskmark on PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("zsh", "fish")

ROOT = Path(__file__).parents[2]
CDM = ROOT / "tests" / "fixtures" / "cdm" / "cdm8_0_1_default.txt"


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory) -> dict[str, str]:
    """A diskmark on PATH (this checkout's), with two baselines saved, one with a space."""
    base = tmp_path_factory.mktemp("completion")
    bin_dir = base / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "diskmark"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m diskmark "$@"\n')
    wrapper.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISKMARK_", "PYTEST_"))}
    env |= {"PATH": f"{bin_dir}:{env['PATH']}", "DISKMARK_HOME": str(base / "home"),
            "HOME": str(base)}
    for name in ("my base", "other"):
        done = subprocess.run([str(wrapper), "baselines", "import", str(CDM), "--name", name],
                              env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    return env


def script(shell: str, env: dict[str, str], directory: Path) -> Path:
    made = subprocess.run(["diskmark", "completion", shell], env=env, capture_output=True,
                          text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    path = directory / f"diskmark.{shell}"
    path.write_text(made.stdout)
    return path


#: What a Tab after each line offers (bash), by the words typed.
EXPECTED = {
    ("diskmark", ""): {"run", "presets", "baselines", "history", "keys", "completion"},
    ("diskmark", "ba"): {"baselines"},
    ("diskmark", "run", "--pr"): {"--preset", "--profile"},
    ("diskmark", "run", "--preset", ""): {"default", "nvme", "flash"},
    ("diskmark", "run", "--profile", ""): {"default", "peak", "real", "demo", "stable", "sustained"},
    ("diskmark", "run", "--unit", ""): {"MB/s", "GB/s", "IOPS", "us"},
    ("diskmark", "run", "--mode", ""): {"rw", "read", "write"},
    ("diskmark", "run", "--compare", ""): {"my base", "other"},
    ("diskmark", "baselines", "show", ""): {"my base", "other"},
    ("diskmark", "baselines", "compare", "my base", ""): {"my base", "other"},
    ("diskmark", "history", "trend", "--kind", ""): {"read", "write", "mix"},
    ("diskmark", "completion", ""): {"bash", "zsh", "fish"},
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
