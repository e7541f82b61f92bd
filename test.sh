#!/usr/bin/env bash
# Install what is missing (fio, the mkfs tools for the filesystem tests, Chromium for the
# shared-page tests, the Python packages with the test extras) and run the whole test suite.
# Arguments go to pytest. Filesystem tests need root and loop devices, the shared-page tests
# a Chromium; elsewhere they skip and say why.
source "$(dirname "$0")/scripts/bootstrap.sh"
ensure_fio
if [ "$(id -u)" -eq 0 ]; then
  for tool in mkfs.xfs:xfsprogs mkfs.btrfs:btrfs-progs mkfs.ext4:e2fsprogs; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || install_packages "${tool#*:}" || true
  done
  if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    say "installing chromium (the shared-page tests render HTML in it)"
    install_packages chromium || true
  fi
fi
ensure_venv "[test]"
cd "$ROOT"
exec "$VENV/bin/python" -m pytest "$@"
