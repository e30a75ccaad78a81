#!/usr/bin/env bash
# Runs a command inside a Debian root that holds another Blender than the host's (made by
# tools/setup/install-blender-root.sh), with the given folders visible at the same paths:
#
#   tools/run-blender.sh --root trixie|sid|DIR [--ro DIR]... [--rw DIR]... -- blender -b ...
#
# --root: trixie (Debian 13, Blender 4.3), sid (Debian unstable, Blender 5.2), i.e. the
# root /var/cache/animkit/NAME-blender ($ANIMKIT_BLENDER_ROOTS overrides the folder), or a
# root's path; without it $ANIMKIT_BLENDER_ROOT (a name or a path), else trixie.
# --ro DIR is bind-mounted read-only, --rw DIR read-write, made when missing (e.g. the
# checkout and the test's output folder); a DIR reached through a symbolic link is also
# mounted at the path given (../shared beside a worktree). --host-libs PROGRAM: the shared
# libraries that PROGRAM (a host-built binary, e.g. animkit) needs and the root lacks
# (Debian 12's libtinygltf.so.2d: Debian 13 has another soname) are copied from the host
# into the run's /tmp and put on LD_LIBRARY_PATH; glibc and libstdc++ stay the root's
# (newer, compatible). The mounts (/proc, /dev, a fresh /tmp and the folders) are made in a
# private mount namespace of this run, so they vanish with it however it ends, and the host
# never sees them. Exit 77 (a skip, with the reason) without root or without the root folder.
set -euo pipefail
skip=77

root_of() {  # a root's name or path -> its path
  case $1 in
    */*) printf '%s\n' "$1" ;;
    *) printf '%s/%s-blender\n' "${ANIMKIT_BLENDER_ROOTS:-/var/cache/animkit}" "$1" ;;
  esac
}
root=$(root_of "${ANIMKIT_BLENDER_ROOT:-trixie}")
for ((k = 1; k <= $#; k++)); do
  [ "${!k}" != -- ] || break
  if [ "${!k}" = --root ]; then
    next=$((k + 1))
    [ $next -le $# ] || { echo "run-blender.sh: --root needs a name or a path" >&2; exit 2; }
    root=$(root_of "${!next}")
  fi
done

if [ "${ANIMKIT_BLENDER_NS:-}" != 1 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "Blender in a Debian root needs root (chroot): skipped"
    exit $skip
  fi
  if [ ! -f "$root/.animkit-ready" ] && [ "${ANIMKIT_BLENDER_UNREADY:-}" != 1 ]; then
    echo "no Debian root with Blender at $root (tools/setup/install-blender-root.sh" \
         "$(basename "$root" -blender) makes it; make deps does as root): skipped"
    exit $skip
  fi
  ANIMKIT_BLENDER_NS=1 exec unshare --mount --propagation private -- bash "$0" "$@"
fi

ro=()
rw=()
host_programs=()
add_dir() {  # add_dir ro|rw DIR: the real folder, and the path given when a link leads there
  local -n list=$1
  local real given
  real=$(realpath "$2")
  given=$(realpath -s "$2")
  list+=("$real")
  [ "$given" = "$real" ] || list+=("$given")
}
while [ $# -gt 0 ]; do
  case $1 in
    --root) shift 2 ;;
    --ro) add_dir ro "$2"; shift 2 ;;
    --rw) mkdir -p "$2"; add_dir rw "$2"; shift 2 ;;
    --host-libs) host_programs+=("$(realpath "$2")"); shift 2 ;;
    --) shift; break ;;
    *) echo "run-blender.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "run-blender.sh: no command after --" >&2; exit 2; }

mounted=()
unmount_all() {
  local k
  for ((k = ${#mounted[@]} - 1; k >= 0; k--)); do
    umount -l "${mounted[k]}" 2>/dev/null || true
  done
}
trap unmount_all EXIT

bind() {  # bind SRC ro|rw [AT]: SRC at AT (default: the same path) inside the root
  local target="$root${3:-$1}"
  [ -d "$target" ] || mkdir -p "$target"
  mount --bind "$1" "$target"
  mounted+=("$target")
  [ "$2" = rw ] || mount -o remount,bind,ro "$target"
}

mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount --rbind /dev "$root/dev" && mounted+=("$root/dev")
mount -t tmpfs tmpfs "$root/tmp" && mounted+=("$root/tmp")
# Shorter paths first, so that a build folder inside the checkout is mounted over it. A
# path given through a link is mounted from the folder it leads to.
while IFS=$'\t' read -r mode dir; do
  [ -n "$dir" ] && bind "$(realpath "$dir")" "$mode" "$dir"
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
    [ -n "$path" ] || { echo "run-blender.sh: $program needs $soname, found neither in the root nor on the host" >&2; exit 1; }
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
