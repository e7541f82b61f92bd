#!/usr/bin/env bash
# A memory-backed ext4 for benchmarks: the standard target where the tool, not the disk, is
# the bottleneck (O_DIRECT works, unlike ramfs; diskspd accepts it, unlike tmpfs).
#
#   sudo benchmarks/memdisk.sh up DIR [SIZE]   # SIZE for the filesystem, default 4G
#   sudo benchmarks/memdisk.sh down DIR        # unmount, detach, remove everything
#   benchmarks/memdisk.sh status DIR
#
# Layers: a tmpfs at DIR/../.memdisk-<name> holds one image file, attached to a loop device
# with direct I/O (--direct-io=on: the loop driver bypasses the tmpfs page cache, so data is
# not cached twice), formatted ext4 without lazy init (nothing runs in the background
# afterwards) and mounted at DIR. Both commands are idempotent: `up` on a mounted memdisk
# and `down` on nothing succeed without change. Needs root; takes SIZE of memory at once
# (the image is allocated up front) until `down`.
set -euo pipefail

usage() { echo "usage: $0 up DIR [SIZE] | down DIR | status DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1
dir=$(realpath -m -- "$2")
size=${3:-4G}
base=$(dirname -- "$dir")/.memdisk-$(basename -- "$dir")
img=$base/disk.img

need_root() { [ "$(id -u)" -eq 0 ] || { echo "$0: needs root" >&2; exit 1; }; }
is_mount() { mountpoint -q -- "$1"; }
loops() { [ -e "$img" ] && losetup -j "$img" -O NAME -n 2>/dev/null || true; }

up() {
  need_root
  if is_mount "$dir" && [ -n "$(loops)" ]; then
    echo "memdisk already up at $dir ($(loops))"
    return 0
  fi
  down quiet  # a half-built one from an interrupted run
  mkdir -p -- "$dir" "$base"
  # The tmpfs gets a little more room than the image needs.
  local bytes
  bytes=$(numfmt --from=iec "$size")
  mount -t tmpfs -o "size=$((bytes + 64 * 1024 * 1024)),mode=0700" memdisk-backing "$base"
  # Allocate (and so touch) every page now: the first touch of guest memory is slow on a VM
  # (about 250 MB/s here, against 3-5 GB/s once touched), and would land in the first test.
  fallocate -l "$bytes" "$img"
  local dev
  dev=$(losetup --find --show --direct-io=on "$img")
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard -L memdisk "$dev"
  mount -o noatime "$dev" "$dir"
  chmod 1777 "$dir"
  echo "memdisk up at $dir: ext4 on $dev on tmpfs $base ($size)"
}

down() {
  need_root
  if is_mount "$dir"; then umount -- "$dir"; fi
  local dev
  for dev in $(loops); do losetup -d "$dev"; done
  rm -f -- "$img"
  if is_mount "$base"; then umount -- "$base"; fi
  [ -d "$base" ] && rmdir -- "$base"
  [ -d "$dir" ] && rmdir -- "$dir" 2>/dev/null || true  # only if we left it empty
  [ "${1:-}" = quiet ] || echo "memdisk down at $dir"
}

status() {
  if is_mount "$dir"; then
    echo "up: $dir $(findmnt -n -o SOURCE,FSTYPE -- "$dir") backed by $img ($(loops))"
  else
    echo "down: $dir"
    [ -z "$(loops)" ] || echo "  but a loop device still holds $img: $(loops)"
    ! is_mount "$base" || echo "  but the tmpfs $base is still mounted"
  fi
}

case $cmd in
  up) up ;;
  down) down ;;
  status) status ;;
  *) usage ;;
esac
