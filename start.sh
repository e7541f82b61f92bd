#!/usr/bin/env bash
# Install what is missing (fio, a virtual environment, the Python packages), link the diskmark
# command into ~/.local/bin and its man page into ~/.local/share/man/man1, put its desktop
# entry in ~/.local/share/applications (DISKMARK_NO_LINK=1 skips these three) and start diskmark.
# Arguments go to diskmark: ./start.sh run --target /mnt/usb --size 256MiB
source "$(dirname "$0")/scripts/bootstrap.sh"
ensure_fio
ensure_fonts || true
ensure_venv ""
link_command
link_manual
install_desktop_entry
exec "$VENV/bin/diskmark" "$@"
