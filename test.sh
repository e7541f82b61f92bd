#!/usr/bin/env bash
# Install what is missing (fio; as root, the system's programs the tests selected use: the mkfs
# tools for the filesystem tests, openssh-server for the fleet tests over SSH (the system's ssh
# service is left off), Chromium for the shared-page tests, man, desktop-file-validate, zsh and
# fish for the man page, desktop entry and completion tests, Xvfb, xclip and xsel for copying,
# fonts for the pictures; each test declares what it uses, tests/support/system_tools.py; the
# Python packages with the test extras), check the layers
# (lint-imports), the code (ruff) and the types (mypy, strict), then run the whole test suite in parallel
# (pytest-xdist): four workers a core by default, as most tests wait on fio's timed passes
# rather than use a core (DISKMARK_TEST_WORKERS sets how many: a number, or auto for one a
# core), with the tests marked serial each alone on the machine. Arguments go to pytest
# (-n 0: one test at a time, in this process), and decide what is installed: -m "not slow"
# installs no Chromium, zsh or mkfs.xfs.
# A broken layer or a lint finding fails the command too, after the tests have run, so one
# run shows everything. Filesystem tests need root and loop devices, the shared-page tests a
# Chromium; elsewhere they skip and say why.
source "$(dirname "$0")/scripts/bootstrap.sh"
ensure_fio
ensure_venv "[test]"
ensure_test_tools "$@"
cd "$ROOT"
status=0
"$VENV/bin/lint-imports" --no-cache >/tmp/diskmark-lint-imports.$$ 2>&1 \
  || { cat /tmp/diskmark-lint-imports.$$; status=1; }
rm -f /tmp/diskmark-lint-imports.$$
"$VENV/bin/ruff" check --quiet . || status=1
"$VENV/bin/mypy" --no-error-summary || status=1
[ "$status" -eq 0 ] || say "lint-imports, ruff or mypy found problems (above); running the tests anyway"
workers="${DISKMARK_TEST_WORKERS:-$(( $(nproc 2>/dev/null || echo 1) * 4 ))}"
"$VENV/bin/python" -m pytest -n "$workers" --dist loadgroup --no-loadscope-reorder "$@" || status=$?
exit "$status"
