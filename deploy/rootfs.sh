#!/usr/bin/env bash
# Lays out the file tree of torite's container image in DIR: the binary at /usr/bin/torite, the
# shared libraries it loads at the paths the dynamic loader looks for them, the unprivileged user
# (10001) it runs as, and name lookup through /etc/hosts and DNS (part of glibc's libc.so.6
# since 2.34), for a database named by host. DIR/data becomes the volume /data.
#
#   deploy/rootfs.sh BINARY DIR
set -euo pipefail
binary="${1:?usage: deploy/rootfs.sh BINARY DIR}"
dir="${2:?usage: deploy/rootfs.sh BINARY DIR}"
command -v ldd >/dev/null 2>&1 || { echo "rootfs.sh: ldd is needed to find the libraries torite links" >&2; exit 1; }

root="$dir/root"
mkdir -p "$root/usr/bin" "$root/etc" "$root/tmp" "$dir/data"
chmod 1777 "$root/tmp"
cp "$binary" "$root/usr/bin/torite"
# A release build is stripped already; a debug build loses its debug information here.
if command -v strip >/dev/null 2>&1; then strip "$root/usr/bin/torite"; fi

while read -r lib; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')

printf 'root:x:0:0:root:/:/usr/bin/torite\ntorite:x:10001:10001:torite:/data:/usr/bin/torite\n' >"$root/etc/passwd"
printf 'root:x:0:\ntorite:x:10001:\n' >"$root/etc/group"
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
