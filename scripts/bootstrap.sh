# Shared set-up for start.sh and test.sh: install what is missing, nothing more.
# Sourced, not run. Installs fio (and, for tests, the mkfs tools) from the system's package
# manager, creates .venv and installs diskmark into it when pyproject.toml changed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

say() { printf 'diskmark setup: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else say "need root to run: $*"; return 1
  fi
}

APT_UPDATED=0
install_packages() {  # install_packages pkg... (Debian/Ubuntu names; mapped for others)
  if command -v apt-get >/dev/null 2>&1; then
    if [ "$APT_UPDATED" -eq 0 ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  elif command -v dnf >/dev/null 2>&1; then as_root dnf install -y "$@"
  elif command -v pacman >/dev/null 2>&1; then as_root pacman -S --noconfirm --needed "$@"
  elif command -v zypper >/dev/null 2>&1; then as_root zypper --non-interactive install "$@"
  else say "please install: $*"; return 1
  fi
}

ensure_fio() {
  if ! command -v fio >/dev/null 2>&1 && [ -z "${DISKMARK_FIO:-}" ]; then
    say "installing fio"
    install_packages fio
  fi
}

ensure_venv() {
  local py="${PYTHON:-python3}"
  if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    say "diskmark needs Python 3.11 or newer ($py is $("$py" --version 2>&1))"; return 1
  fi
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    if ! "$py" -m venv "$VENV" 2>/dev/null; then
      rm -rf "$VENV"
      install_packages python3-venv
      "$py" -m venv "$VENV"
    fi
  fi
  local extras="$1" stamp="$VENV/.diskmark-installed"
  local want
  want="$extras $(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || ! grep -qxF "$want" "$stamp"; then
    say "installing Python packages into .venv"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT$extras"
    printf '%s\n' "$want" > "$stamp"
  fi
}
