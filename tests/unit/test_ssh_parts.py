"""What diskmark sends over SSH, checked without a host: every value one shell word, ssh's
forward spelled as ssh reads it, and ssh's own checks left as the user configured them."""

from __future__ import annotations

import os
import shlex
import subprocess

import pytest

from diskmark.engine.fleet.hosts import parse_host
from diskmark.engine.fleet.ssh_remote import SCRIPT, forward_path, remote_command
from diskmark.engine.fleet.ssh_tunnel import SshSetup

HOSTILE = [";touch P;", "$(touch P)", "`touch P`", "'\"q", "-x", "a b\tc",
           os.fsdecode(b"\xff\xfe"), "%d:x\\y"]


@pytest.mark.parametrize("name", HOSTILE)
def test_every_value_is_one_word_for_the_login_shell(name):
    target = f"/mnt/{name}"
    words = shlex.split(remote_command(target, ".diskmark-fleet-0123456789ab", "fio-3.33"))
    assert words == ["sh", "-c", SCRIPT, "diskmark-fleet", target,
                     ".diskmark-fleet-0123456789ab", "fio-3.33"]


def test_a_real_shell_runs_nothing_a_hostile_target_holds(tmp_path):
    """The line as a login shell gets it, up to entering the (missing) target: nothing made."""
    fio = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
    target = os.fsdecode(os.fsencode(tmp_path) + b"/" + "".join(HOSTILE).encode("utf-8",
                                                                               "surrogateescape"))
    out = subprocess.run(["/bin/bash", "-c", remote_command(target, ".diskmark-fleet-x", fio)],
                         cwd=tmp_path, capture_output=True, timeout=30)
    assert out.stdout.decode() == "diskmark:notarget\n", out
    assert list(tmp_path.iterdir()) == [] and not os.path.exists("P")


def test_the_script_is_one_line_without_history_expansion():
    assert "\n" not in SCRIPT and "!" not in SCRIPT  # read alike by csh and fish


def test_forward_paths_are_escaped_as_ssh_reads_them():
    assert forward_path("/a:b\\c%d") == "/a\\:b\\\\c%%d"


def test_the_users_ssh_options_come_first_and_host_keys_are_theirs():
    setup = SshSetup("fleet.conf", ("BatchMode=no",))
    args = setup.base()
    assert args[:5] == ["ssh", "-F", "fleet.conf", "-o", "BatchMode=no"]
    assert args.index("BatchMode=yes") > args.index("BatchMode=no")  # ssh keeps the first
    assert not any("StrictHostKeyChecking" in a or "KnownHosts" in a for a in args)
    assert setup.destination(parse_host("ops@db1:2222")) == ["-p", "2222", "--", "ops@db1"]
    assert setup.destination(parse_host("db1")) == ["--", "db1"]
