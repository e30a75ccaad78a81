#!/usr/bin/env bash
# Makes the Debian 13 root in which the add-on's tests run under Blender 4 (ctest's
# Blender4.*, `make test-blender-4`; docs/blender.md): debootstrap (minbase) of Debian 13,
# then Debian's blender inside, without recommended packages. The root lives outside any
# checkout, at $ANIMKIT_BLENDER4_ROOT (default /var/cache/animkit/trixie-blender), and is
# shared by every checkout on the machine. Quick when already made (a marker file).
# ANIMKIT_DEBIAN_MIRROR overrides debootstrap's default mirror. Needs root; without it,
# prints what it would do and exits 0 (the tests then skip, saying why).
set -euo pipefail
root=${ANIMKIT_BLENDER4_ROOT:-/var/cache/animkit/trixie-blender}
suite=trixie
ready="$root/.animkit-ready"
here="$(cd "$(dirname "$0")" && pwd)"

[ -f "$ready" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "no Debian 13 root with Blender 4 at $root; as root, tools/setup/install-blender-4.sh makes it" \
       "(the Blender4 tests skip meanwhile)" >&2
  exit 0
fi

# Never delete a folder something is still mounted under.
mounts_under() { awk -v p="$1/" 'index($2 "/", p) == 1 { print $2 }' /proc/self/mounts; }
remove_tree() {
  [ -e "$1" ] || return 0
  if [ -n "$(mounts_under "$1")" ]; then
    echo "install-blender-4.sh: $1 has mounts under it; unmount them first:" >&2
    mounts_under "$1" >&2
    exit 1
  fi
  rm -rf --one-file-system "$1"
}

export DEBIAN_FRONTEND=noninteractive
if ! command -v debootstrap >/dev/null; then
  echo "installing: debootstrap"
  apt-get update -q
  apt-get install -y -q --no-install-recommends debootstrap
fi

# Built beside its final place and moved there when complete: an interrupted run leaves
# only the .partial folder, which the next run starts again.
partial="$root.partial"
remove_tree "$partial"
mkdir -p "$(dirname "$root")"
start=$(date +%s)
echo "debootstrap --variant=minbase $suite $partial (Debian 13, a few minutes)"
debootstrap --variant=minbase "$suite" "$partial" ${ANIMKIT_DEBIAN_MIRROR:+"$ANIMKIT_DEBIAN_MIRROR"} \
  > "$partial.log" 2>&1 || { tail -20 "$partial.log" >&2; exit 1; }
echo "debootstrap: $(( $(date +%s) - start )) s; installing blender inside"
# Blender lists mounted file systems from /etc/mtab, which minbase does not make.
[ -e "$partial/etc/mtab" ] || ln -s ../proc/self/mounts "$partial/etc/mtab"
in_root() { ANIMKIT_BLENDER4_ROOT="$partial" ANIMKIT_BLENDER4_UNREADY=1 bash "$here/../run-blender-4.sh" -- "$@"; }
in_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >> "$partial.log" 2>&1 \
  || { tail -20 "$partial.log" >&2; exit 1; }
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends blender \
  >> "$partial.log" 2>&1 || { tail -20 "$partial.log" >&2; exit 1; }
in_root apt-get clean
version=$(in_root blender -b --factory-startup --version 2>/dev/null | sed -n 's/^Blender \([0-9.]*\).*/\1/p' | head -1)
[ -n "$version" ] || { echo "install-blender-4.sh: blender does not run inside $partial" >&2; exit 1; }
echo "$version" > "$partial/.animkit-ready"
remove_tree "$root"
mv "$partial" "$root"
mv "$partial.log" "$root/.animkit-setup.log"
echo "Blender $version in $root ($(( $(date +%s) - start )) s)"
