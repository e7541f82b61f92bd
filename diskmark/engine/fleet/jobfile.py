"""fio job files for hosts measured through fio's client/server mode, rendered from the very
arguments :mod:`diskmark.engine.plan` builds for a local run (never a second copy of the rules).

fio in client mode runs job *files* only: given jobs on its command line it exits 1 and runs
nothing. A job file is text fio's server parses again on the remote host, where a value ends
at a newline and a ``;`` or ``#`` starts a comment, and ``directory`` takes several
directories separated by ``:``. So nothing reaches a job file unchecked: the target path may
hold only the characters of :data:`PATH_CHARS`, and every value is refused if it could end
early or start a new line (:class:`JobFileError`).

The test file's name on the remote host is fio's: a server on a TCP port puts the client's
address in front of a relative file name (``127.0.0.1..diskmark-fleet-….tmp``), so several
controllers sharing a directory cannot collide; diskmark only ever names it through
``filename`` and lets fio lay it out, measure it and remove it (``unlink``). Over SSH a job
has no ``directory`` (``None`` here): the file is named relative to the server's working
directory, diskmark's private directory on the host (:mod:`diskmark.engine.fleet.ssh_remote`).
"""

from __future__ import annotations

import re
import secrets

from diskmark.engine.errors import TargetError
from diskmark.engine.plan import Plan, PlannedTest, job_name, prepare_args, run_args
from diskmark.locale import _
from diskmark.model.settings import Settings

#: What a remote target path may contain: letters, digits and ``/ . _ - +``.
PATH_CHARS = re.compile(r"^/[A-Za-z0-9._/+-]*$")
_BAD_VALUE = re.compile(r"[\n\r;#\x00]")
#: Options of a local run that are the client's business, not a job's.
_OUTPUT_OPTIONS = ("--output-format", "--status-interval")
REMOTE_IOENGINE = "libaio"  # the remote kernel cannot be asked about io_uring beforehand
PROBE_BYTES = 4096
NOBODY = 65534  # the user and group "nobody" / "nogroup": another user than fio's server's


class JobFileError(TargetError):
    """A value that cannot be written into a job file safely; nothing was started."""


def check_remote_target(path: str) -> str:
    """The target directory as it will be written into the job file, or a clear refusal."""
    if not path.startswith("/"):
        raise JobFileError(_("the target {path} must be an absolute path on every host (e.g. "
                             "/mnt/data): relative paths mean nothing to a remote fio.").format(
                                 path=repr(path)))
    if not PATH_CHARS.match(path) or "/../" in f"{path}/":
        raise JobFileError(_("the target {path} has characters diskmark does not send to remote "
                             "hosts: use letters, digits and / . _ - + only (fio's job files "
                             "end a value at ; or # and split it at :).").format(
                                 path=repr(path)))
    return path.rstrip("/") or "/"


def fresh_file_name() -> str:
    """A fresh, safe name for one session's test file (fio prefixes the client's address)."""
    return f".diskmark-fleet-{secrets.token_hex(6)}.tmp"


def _where(directory: str | None, filename: str) -> list[str]:
    """Where a job's file is: ``filename`` in ``directory``, or in the server's working
    directory when there is none."""
    head = [] if directory is None else [f"directory={_value(directory)}"]
    return [*head, f"filename={_value(filename)}"]


def section(name: str, args: list[str], directory: str | None, filename: str,
            extra: tuple[str, ...] = ()) -> list[str]:
    """One job of a job file from fio command-line arguments (``--key=value``, ``--flag``):
    the file named by the plan is replaced by ``filename`` in ``directory``."""
    lines = [f"[{_value(name)}]", *_where(directory, filename)]
    for arg in args:
        if not arg.startswith("--"):
            raise JobFileError(_("not a fio option: {argument}").format(argument=repr(arg)))
        key, _eq, value = arg[2:].partition("=")
        if key in ("name", "filename", "directory") or f"--{key}" in _OUTPUT_OPTIONS:
            continue
        lines.append(f"{_value(key)}={_value(value)}" if value else _value(key))
    lines.extend(_value(x) for x in extra)
    return lines


def _value(text: str) -> str:
    if _BAD_VALUE.search(text) or not text.isprintable():
        raise JobFileError(_("{text} cannot be written into a fio job file safely.").format(
            text=repr(text)))
    return text


def render(sections: list[list[str]]) -> str:
    return "\n".join("\n".join(s) for s in sections) + "\n"


def probe_job(directory: str | None, filename: str, direct: bool) -> str:
    """A tiny job run on every host before anything starts: it fails with fio's own words
    when the target is missing or not writable, or refuses O_DIRECT; it removes its file."""
    return render([["[diskmark-probe]", *_where(directory, filename), "rw=write", f"bs={PROBE_BYTES}",
                    f"size={PROBE_BYTES}", f"direct={1 if direct else 0}", "thread",
                    "unlink=1"]])


def others_probe_job(directory: str | None, filename: str) -> str:
    """A tiny job that tries to make a file in the target as user nobody (fio's ``uid`` and
    ``gid``; the file is made after the job has changed its user only with
    ``create_serialize=0``): whether another user can write there
    (:mod:`diskmark.engine.fleet.privacy`). Buffered: O_DIRECT was the first probe's
    question. It removes its file when it could make one."""
    return render([["[diskmark-others]", *_where(directory, filename), "rw=write", f"bs={PROBE_BYTES}",
                    f"size={PROBE_BYTES}", "direct=0", f"uid={NOBODY}", f"gid={NOBODY}",
                    "create_serialize=0", "unlink=1"]])


def prepare_job(settings: Settings, directory: str | None, filename: str) -> str:
    """The whole test file written once before any read, as a local run does."""
    args = prepare_args("fio", settings, REMOTE_IOENGINE)[1:]
    return render([section("diskmark-prepare", args, directory, filename)])


def pass_name(test: PlannedTest, n: int) -> str:
    return f"{job_name(test)}.{n}"


def passes_job(plan: Plan, test: PlannedTest, directory: str | None, filename: str,
               passes: range | None = None) -> str:
    """The warm-up (pass 0) and every pass of one test (or the ``passes`` given) as
    stonewalled jobs of one file, each its own reporting group: fio's client prints no
    status objects while it runs (only the final JSON), so passes cannot be windows of one
    continuous job as locally. A test with a start delay or ramp time runs a file per pass,
    as locally a process per pass (fio counts ``startdelay`` from its own start)."""
    args = run_args("fio", plan, test, REMOTE_IOENGINE)[1:]
    wanted = passes if passes is not None else range(plan.settings.count + 1)
    return render([section(pass_name(test, n), args, directory, filename, ("stonewall",))
                   for n in wanted])


def cleanup_job(directory: str | None, filename: str) -> str:
    """Remove the test file: fio's setup phase only (an existing file is kept as it is, a
    missing one made 1 MiB), then ``unlink``. Run after every session, whatever happened."""
    return render([["[diskmark-cleanup]", *_where(directory, filename), "rw=read", "size=1m", "create_only=1",
                    "unlink=1"]])
