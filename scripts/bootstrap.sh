# Shared set-up for start.sh and test.sh: install what is missing, nothing more.
# Sourced, not run. Installs fio (and, for tests, the mkfs tools) from the system's package
# manager, creates .venv and installs diskmark into it when pyproject.toml changed, and
# (start.sh) links the diskmark command into ~/.local/bin, its man page into
# ~/.local/share/man/man1 and puts its desktop entry in ~/.local/share/applications.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${DISKMARK_VENV:-$ROOT/.venv}"

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

# What the PNG pictures are drawn with: DejaVu, and a font for Japanese, Chinese and Korean
# when the user's language is one of those (ensure_fonts cjk: always, for the tests).
ensure_fonts() {
  command -v apt-get >/dev/null 2>&1 || return 0  # other systems: the notice names what is missing
  local missing=() lang="${LANGUAGE:-${LC_ALL:-${LC_MESSAGES:-${LANG:-}}}}"
  [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
  case "${1:-}:$lang" in
    cjk:*|*:ja*|*:zh*|*:ko*)
      if [ ! -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] \
          && ! { command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=ja 2>/dev/null | head -1)" ]; }; then
        missing+=(fonts-wqy-microhei)
      fi ;;
  esac
  [ "${#missing[@]}" -eq 0 ] && return 0
  say "installing fonts for the PNG pictures: ${missing[*]}"
  install_packages "${missing[@]}" || say "no fonts installed; PNG pictures may lack text"
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
  # The stamp lists every set of extras installed for this pyproject.toml, one per line, so
  # start.sh after test.sh (or the other way round) finds its work done: an install with the
  # test extras includes the plain one. A changed pyproject.toml starts the list afresh.
  local extras="$1" stamp="$VENV/.diskmark-installed"
  local hash
  # the catalogs too: installing compiles them (hatch_build.py), so a changed one is compiled
  hash="$(cat "$ROOT/pyproject.toml" "$ROOT/hatch_build.py" "$ROOT"/diskmark/locale/*/LC_MESSAGES/diskmark.po \
    2>/dev/null | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && ! grep -q " $hash\$" "$stamp"; then
    rm -f "$stamp"
  fi
  if [ -f "$stamp" ] && { grep -qxF "$extras $hash" "$stamp" || [ -z "$extras" ]; }; then
    return 0
  fi
  say "installing Python packages into .venv"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT$extras"
  printf '%s\n' "$extras $hash" >> "$stamp"
}

# As root, the system's programs the tests "$@" selects use and this machine lacks (each test
# declares them: tests/support/system_tools.py), installed in one apt transaction (each apt run
# costs seconds of triggers). The table says first what is missing at all: nothing, and pytest
# is not asked; else pytest collects what "$@" selects (-m, -k, paths) and names the packages
# those tests need. Arguments pytest cannot collect with: all that is missing.
ensure_test_tools() {
  [ "$(id -u)" -eq 0 ] || return 0
  local missing asked wanted=() was_active=0 status=0
  missing="$("$VENV/bin/python" "$ROOT/tests/support/system_tools.py")"
  [ -n "$missing" ] || return 0
  asked="$(mktemp -d)"
  (cd "$ROOT" && "$VENV/bin/python" -m pytest -q "$@" --collect-only -n 0 \
    --missing-system-packages "$asked/packages" >/dev/null 2>&1) || status=$?
  if [ -f "$asked/packages" ] && { [ "$status" -eq 0 ] || [ "$status" -eq 5 ]; }; then
    mapfile -t wanted < "$asked/packages"  # (5: no test selected)
  else
    mapfile -t wanted <<< "$missing"
  fi
  rm -rf "$asked"
  [ "${#wanted[@]}" -gt 0 ] || return 0
  say "installing what the tests use: ${wanted[*]}"
  # the fleet tests start their own sshd in namespaces; the system's ssh service stays off
  systemctl is-active --quiet ssh 2>/dev/null && was_active=1
  install_packages "${wanted[@]}" || for package in "${wanted[@]}"; do
    install_packages "$package" || true
  done
  if [ "$was_active" -eq 0 ] && systemctl is-active --quiet ssh 2>/dev/null; then
    systemctl disable --now ssh >/dev/null 2>&1 || true
  fi
}

link_command() {  # put `diskmark` on PATH: a link in ~/.local/bin, said once
  [ -n "${DISKMARK_NO_LINK:-}" ] && return 0
  local bin="$HOME/.local/bin" link
  link="$bin/diskmark"
  if [ -L "$link" ] && [ "$(readlink "$link")" = "$VENV/bin/diskmark" ]; then
    :  # done before
  elif [ -e "$link" ] || [ -L "$link" ]; then
    say "$link exists and is not this checkout's; left alone (this one is $VENV/bin/diskmark)"
    return 0
  elif mkdir -p "$bin" 2>/dev/null && ln -s "$VENV/bin/diskmark" "$link" 2>/dev/null; then
    say "linked the diskmark command: $link -> $VENV/bin/diskmark"
  else
    say "could not link $link; run $VENV/bin/diskmark instead"
    return 0
  fi
  case ":$PATH:" in
    *":$bin:"*) ;;
    *) say "$bin is not on your PATH: add it (e.g. in ~/.profile) to type just diskmark" ;;
  esac
}

link_manual() {  # `man diskmark`: the pages the install wrote into the venv, linked where man looks
  [ -n "${DISKMARK_NO_LINK:-}" ] && return 0
  local man="$VENV/share/man" page sub dir link linked=""
  [ -f "$man/man1/diskmark.1" ] || { say "no man page in $VENV (reinstall: rm $VENV/.diskmark-installed)"; return 0; }
  # the English page, then one per language (man shows the one of the reader's locale)
  for page in "$man/man1/diskmark.1" "$man"/*/man1/diskmark.1; do
    [ -f "$page" ] || continue
    sub="${page#"$man"/}"
    dir="$HOME/.local/share/man/${sub%/diskmark.1}"
    link="$dir/diskmark.1"
    if [ -L "$link" ] && [ "$(readlink "$link")" = "$page" ]; then
      :  # done before
    elif [ -e "$link" ] || [ -L "$link" ]; then
      say "$link exists and is not this checkout's; left alone (this one is $page)"
    elif mkdir -p "$dir" 2>/dev/null && ln -s "$page" "$link" 2>/dev/null; then
      case "$sub" in man1/*) linked="$linked en" ;; *) linked="$linked ${sub%%/*}" ;; esac
    else
      say "could not link $link; read it with: man -l $page"
    fi
  done
  [ -z "$linked" ] || say "linked the man pages into $HOME/.local/share/man (man diskmark):$linked"
}

install_desktop_entry() {  # diskmark in the desktop's application menu, started in a terminal
  [ -n "${DISKMARK_NO_LINK:-}" ] && return 0
  local dir="$HOME/.local/share/applications" entry mark entry_text
  entry="$dir/diskmark.desktop"
  mark="X-Diskmark-Checkout=$ROOT"
  # this checkout's command and icon by their full paths: a desktop session's PATH may lack ~/.local/bin
  entry_text="$(sed -e "s|^Exec=.*|Exec=$VENV/bin/diskmark|" -e "s|^Icon=.*|Icon=$ROOT/data/diskmark.svg|" \
    "$ROOT/data/diskmark.desktop")
$mark"
  if [ -f "$entry" ] && [ "$(cat "$entry")" = "$entry_text" ]; then
    return 0  # done before
  elif [ -e "$entry" ] && ! grep -qxF "$mark" "$entry"; then
    say "$entry exists and is not this checkout's; left alone"
  elif mkdir -p "$dir" 2>/dev/null && printf '%s\n' "$entry_text" > "$entry.tmp.$$" \
      && mv -f "$entry.tmp.$$" "$entry"; then
    say "put diskmark in the desktop's application menu: $entry"
  else
    rm -f "$entry.tmp.$$"
    say "could not write $entry"
  fi
}
