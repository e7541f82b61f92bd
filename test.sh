#!/usr/bin/env bash
# Install what is missing (fio, the mkfs tools for the filesystem tests, smartctl, Chromium for the
# shared-page tests, man, desktop-file-validate, zsh and fish for the man page, desktop entry and
# completion tests, the Python packages with the test extras), check the layers
# (lint-imports), the code (ruff) and the types (mypy, strict), then run the whole test suite in parallel
# (pytest-xdist): four workers a core by default, as most tests wait on fio's timed passes
# rather than use a core (DISKMARK_TEST_WORKERS sets how many: a number, or auto for one a
# core), with the tests marked serial each alone on the machine. Arguments go to pytest
# (-n 0: one test at a time, in this process).
# A broken layer or a lint finding fails the command too, after the tests have run, so one
# run shows everything. Filesystem tests need root and loop devices, the shared-page tests a
# Chromium; elsewhere they skip and say why.
source "$(dirname "$0")/scripts/bootstrap.sh"
ensure_fio
if [ "$(id -u)" -eq 0 ]; then
  for tool in mkfs.xfs:xfsprogs mkfs.btrfs:btrfs-progs mkfs.ext4:e2fsprogs smartctl:smartmontools \
      man:man-db desktop-file-validate:desktop-file-utils zsh:zsh fish:fish; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || install_packages "${tool#*:}" || true
  done
  if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    say "installing chromium (the shared-page tests render HTML in it)"
    install_packages chromium || true
  fi
fi
ensure_venv "[test]"
cd "$ROOT"
status=0
"$VENV/bin/lint-imports" --no-cache >/tmp/diskmark-lint-imports.$$ 2>&1 \
  || { cat /tmp/diskmark-lint-imports.$$; status=1; }
rm -f /tmp/diskmark-lint-imports.$$
"$VENV/bin/ruff" check --quiet . || status=1
"$VENV/bin/mypy" --no-error-summary || status=1
[ "$status" -eq 0 ] || say "lint-imports, ruff or mypy found problems (above); running the tests anyway"
workers="${DISKMARK_TEST_WORKERS:-$(( $(nproc 2>/dev/null || echo 1) * 4 ))}"
"$VENV/bin/python" -m pytest -n "$workers" --dist loadgroup "$@" || status=$?
exit "$status"
