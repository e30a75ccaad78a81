#!/usr/bin/env bash
# Runs a command inside the Debian 13 root that holds Blender 4 (made by
# tools/setup/install-blender-4.sh), with the given folders visible at the same paths:
#
#   tools/run-blender-4.sh [--ro DIR]... [--rw DIR]... -- blender -b ...
#
# --ro DIR is bind-mounted read-only, --rw DIR read-write, made when missing (e.g. the
# checkout and the test's output folder). --host-libs PROGRAM: the shared libraries that
# PROGRAM (a host-built binary, e.g. animkit) needs and the root lacks (Debian 12's
# libtinygltf.so.2d: Debian 13 has another soname) are copied from the host into the run's
# /tmp and put on LD_LIBRARY_PATH; glibc and libstdc++ stay the root's (newer, compatible).
# The mounts (/proc, /dev, a fresh /tmp and the folders) are made in a private mount
# namespace of this run, so they vanish with it however it ends, and the host never sees
# them. Exit 77 (a skip, with the reason) without root or without the root folder.
# ANIMKIT_BLENDER4_ROOT overrides the root's place.
set -euo pipefail
root=${ANIMKIT_BLENDER4_ROOT:-/var/cache/animkit/trixie-blender}
skip=77

if [ "${ANIMKIT_BLENDER4_NS:-}" != 1 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "Blender 4 tests need root (chroot): skipped"
    exit $skip
  fi
  if [ ! -f "$root/.animkit-ready" ] && [ "${ANIMKIT_BLENDER4_UNREADY:-}" != 1 ]; then
    echo "no Debian 13 root with Blender 4 at $root (tools/setup/install-blender-4.sh makes it; make deps does as root): skipped"
    exit $skip
  fi
  ANIMKIT_BLENDER4_NS=1 exec unshare --mount --propagation private -- bash "$0" "$@"
fi

ro=()
rw=()
host_programs=()
while [ $# -gt 0 ]; do
  case $1 in
    --ro) ro+=("$(realpath "$2")"); shift 2 ;;
    --rw) mkdir -p "$2"; rw+=("$(realpath "$2")"); shift 2 ;;
    --host-libs) host_programs+=("$(realpath "$2")"); shift 2 ;;
    --) shift; break ;;
    *) echo "run-blender-4.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "run-blender-4.sh: no command after --" >&2; exit 2; }

mounted=()
unmount_all() {
  local k
  for ((k = ${#mounted[@]} - 1; k >= 0; k--)); do
    umount -l "${mounted[k]}" 2>/dev/null || true
  done
}
trap unmount_all EXIT

bind() {  # bind SRC ro|rw: SRC at the same path inside the root
  local target="$root$1"
  [ -d "$target" ] || mkdir -p "$target"
  mount --bind "$1" "$target"
  mounted+=("$target")
  [ "$2" = rw ] || mount -o remount,bind,ro "$target"
}

mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount --rbind /dev "$root/dev" && mounted+=("$root/dev")
mount -t tmpfs tmpfs "$root/tmp" && mounted+=("$root/tmp")
# Shorter paths first, so that a build folder inside the checkout is mounted over it.
while IFS=$'\t' read -r mode dir; do
  [ -n "$dir" ] && bind "$dir" "$mode"
done < <( { for d in "${ro[@]+"${ro[@]}"}"; do printf 'ro\t%s\n' "$d"; done
            for d in "${rw[@]+"${rw[@]}"}"; do printf 'rw\t%s\n' "$d"; done; } |
          awk -F'\t' '{ print length($2) "\t" $0 }' | sort -n | cut -f2-)

# Libraries a host program needs that the root lacks: the host's copies, by soname.
host_lib_dir=/tmp/animkit-host-libs
copy_missing_libs() {  # prints how many it copied
  local program=$1 soname path copied=0
  [ -x "$root$program" ] || { echo 0; return 0; }
  mkdir -p "$root$host_lib_dir"
  for soname in $(chroot "$root" /usr/bin/env LD_LIBRARY_PATH="$host_lib_dir" ldd "$program" |
                  awk '$2 == "=>" && $3 == "not" { print $1 }'); do
    path=$(ldd "$program" | awk -v n="$soname" '$1 == n && $2 == "=>" { print $3 }')
    [ -n "$path" ] || { echo "run-blender-4.sh: $program needs $soname, found neither in the root nor on the host" >&2; exit 1; }
    cp -L "$path" "$root$host_lib_dir/$soname"
    copied=$((copied + 1))
  done
  echo $copied
}
# Until none is missing: a copied library may need one the root lacks (libtinygltf: libstb).
for p in "${host_programs[@]+"${host_programs[@]}"}"; do
  for _ in 1 2 3 4 5 6 7 8; do
    copied=$(copy_missing_libs "$p")  # its failure ends the run (set -e)
    [ "$copied" -gt 0 ] || break
  done
done

status=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  PYTHONDONTWRITEBYTECODE=1 ${host_programs[0]:+LD_LIBRARY_PATH=$host_lib_dir} "$@" || status=$?
exit $status
