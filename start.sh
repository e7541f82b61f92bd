#!/usr/bin/env bash
# Install what is missing (fio, a virtual environment, the Python packages) and start diskmark.
# Arguments go to diskmark: ./start.sh run --target /mnt/usb --size 256MiB
source "$(dirname "$0")/scripts/bootstrap.sh"
ensure_fio
ensure_venv ""
exec "$VENV/bin/diskmark" "$@"
