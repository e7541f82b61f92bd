#!/usr/bin/env bash
# Install what is missing (fio, the mkfs tools for the filesystem tests, smartctl, openssh-server
# for the fleet tests over SSH (the system's ssh service is left off), Chromium for the
# shared-page tests, man, desktop-file-validate, zsh and fish for the man page, desktop entry
# and completion tests, the Python packages with the test extras), check the layers
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
  # one apt transaction for everything missing (each apt run costs seconds of triggers)
  wanted=()
  for tool in mkfs.xfs:xfsprogs mkfs.btrfs:btrfs-progs mkfs.ext4:e2fsprogs smartctl:smartmontools \
      man:man-db desktop-file-validate:desktop-file-utils zsh:zsh fish:fish \
      Xvfb:xvfb xclip:xclip xsel:xsel; do  # (copying is checked on a virtual X display)
    command -v "${tool%%:*}" >/dev/null 2>&1 || wanted+=("${tool#*:}")
  done
  # the fleet tests start their own sshd in namespaces; the system's ssh service stays off
  [ -x /usr/sbin/sshd ] || wanted+=(openssh-server)
  if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    wanted+=(chromium)  # the shared-page tests render HTML in it
  fi
  if [ "${#wanted[@]}" -gt 0 ]; then
    say "installing what the tests use: ${wanted[*]}"
    was_active=0
    systemctl is-active --quiet ssh 2>/dev/null && was_active=1
    install_packages "${wanted[@]}" || for package in "${wanted[@]}"; do
      install_packages "$package" || true
    done
    if [ "$was_active" -eq 0 ] && systemctl is-active --quiet ssh 2>/dev/null; then
      systemctl disable --now ssh >/dev/null 2>&1 || true
    fi
  fi
  ensure_fonts cjk || true
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
"$VENV/bin/python" -m pytest -n "$workers" --dist loadgroup --no-loadscope-reorder "$@" || status=$?
exit "$status"
