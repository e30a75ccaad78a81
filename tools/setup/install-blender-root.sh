#!/usr/bin/env bash
# Makes a Debian root holding that Debian's Blender, in which the add-on's tests run under
# another Blender than the host's (docs/blender.md):
#
#   install-blender-root.sh trixie   Debian 13, Blender 4.3 (ctest's Blender4.*, make test-blender-4)
#   install-blender-root.sh sid      Debian unstable, Blender 5.2 (Blender5.*, make test-blender-5)
#
# debootstrap (minbase) of the suite, then Debian's blender inside, without recommended
# packages. The root lives outside any checkout, at /var/cache/animkit/SUITE-blender
# ($ANIMKIT_BLENDER_ROOTS overrides the folder), and is shared by every checkout on the
# machine. Quick when already made (a marker file). ANIMKIT_DEBIAN_MIRROR overrides the
# mirror (e.g. a snapshot: apt inside accepts an expired Release file). Without root or
# without the mirror, says why and exits 0 (the tests then skip, saying why).
set -euo pipefail
suite=${1:-}
case $suite in
  trixie) what="Debian 13's Blender 4" ;;
  sid) what="Debian unstable's Blender 5" ;;
  *) echo "usage: install-blender-root.sh trixie|sid" >&2; exit 2 ;;
esac
root="${ANIMKIT_BLENDER_ROOTS:-/var/cache/animkit}/$suite-blender"
ready="$root/.animkit-ready"
here="$(cd "$(dirname "$0")" && pwd)"
mirror=${ANIMKIT_DEBIAN_MIRROR:-http://deb.debian.org/debian}

[ -f "$ready" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "no root with $what at $root; as root, tools/setup/install-blender-root.sh $suite makes it" \
       "(those tests skip meanwhile)" >&2
  exit 0
fi
reachable() {  # the suite's Release file answers (wget: debootstrap needs it anyway)
  local url="$mirror/dists/$suite/Release"
  if command -v wget >/dev/null; then wget -q -T 20 -t 2 --spider "$url"
  elif command -v python3 >/dev/null; then
    python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=20)' "$url" 2>/dev/null
  else true; fi
}
if ! reachable; then
  echo "no root with $what at $root: the mirror $mirror does not answer (no network?);" \
       "tools/setup/install-blender-root.sh $suite makes it later (those tests skip meanwhile)" >&2
  exit 0
fi

# Never delete a folder something is still mounted under.
mounts_under() { awk -v p="$1/" 'index($2 "/", p) == 1 { print $2 }' /proc/self/mounts; }
remove_tree() {
  [ -e "$1" ] || return 0
  if [ -n "$(mounts_under "$1")" ]; then
    echo "install-blender-root.sh: $1 has mounts under it; unmount them first:" >&2
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
echo "debootstrap --variant=minbase $suite $partial (a few minutes)"
debootstrap --variant=minbase "$suite" "$partial" "$mirror" \
  > "$partial.log" 2>&1 || { tail -20 "$partial.log" >&2; exit 1; }
echo "debootstrap: $(( $(date +%s) - start )) s; installing blender inside"
# Blender lists mounted file systems from /etc/mtab, which minbase does not make.
[ -e "$partial/etc/mtab" ] || ln -s ../proc/self/mounts "$partial/etc/mtab"
in_root() { ANIMKIT_BLENDER_UNREADY=1 bash "$here/../run-blender.sh" --root "$partial" -- "$@"; }
# A mirror snapshot's Release file is past its Valid-Until date.
apt_in_root() { in_root env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Check-Valid-Until=false "$@"; }
apt_in_root update -q >> "$partial.log" 2>&1 || { tail -20 "$partial.log" >&2; exit 1; }
# Beside Blender: what its Extensions add-on imports (Debian only recommends them; without
# them Blender 5 prints a traceback at every start), and an X server with software OpenGL
# and xwd for the screenshots of Blender's window (tools/blender-screenshots.sh).
apt_in_root install -y -q --no-install-recommends blender python3-cattr python3-requests \
  xvfb xauth x11-apps netpbm libgl1-mesa-dri libglx-mesa0 libegl-mesa0 >> "$partial.log" 2>&1 \
  || { tail -20 "$partial.log" >&2; exit 1; }
in_root apt-get clean
version=$(in_root blender -b --factory-startup --version 2>/dev/null | sed -n 's/^Blender \([0-9.]*\).*/\1/p' | head -1)
[ -n "$version" ] || { echo "install-blender-root.sh: blender does not run inside $partial" >&2; exit 1; }
echo "$version" > "$partial/.animkit-ready"
remove_tree "$root"
mv "$partial" "$root"
mv "$partial.log" "$root/.animkit-setup.log"
echo "Blender $version in $root ($(( $(date +%s) - start )) s)"
