#!/usr/bin/env bash
# Installs the Debian 12 packages animkit needs, when missing. As root it runs apt-get;
# otherwise it prints the one command to run.
#   install-deps.sh          everything `make test` needs: the build, the tests' libraries,
#                            clang for the fuzzers, Python, Blender, Chromium and (as root)
#                            the Debian roots with Blender 4.3 and 5.2
#   install-deps.sh --build  only what the library and the CLI build with (`make demo`)
#   install-deps.sh --windows  the MinGW-w64 toolchain, Wine, and (as root) a deb-src line for
#                            bookworm, from which tools/windows/build-deps.sh takes its sources
# ANIMKIT_SKIP_TEST_APPS=1 leaves out the applications the tests drive (Blender, Chromium,
# Node) and the roots: CI installs them beside the builds (.ci/run).
set -euo pipefail
windows=0
case "${1:-}" in
  "") full=1 ;;
  --build) full=0 ;;
  --windows) full=0 windows=1 ;;
  *) echo "usage: install-deps.sh [--build|--windows]" >&2; exit 2 ;;
esac
if [ "$windows" = 1 ]; then
  # g++ 12 for Windows with POSIX threads, zlib for it, Wine to run what it builds, dpkg-dev to unpack sources.
  packages=(g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 libz-mingw-w64-dev
            wine wine64 dpkg-dev)
  sources=/etc/apt/sources.list.d/animkit-src.sources
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  need_sources=0
  grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/ || need_sources=1
  [ ${#missing[@]} -eq 0 ] && [ "$need_sources" = 0 ] && exit 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing for the Windows build; run as root:" >&2
    [ ${#missing[@]} -gt 0 ] && echo "  sudo apt-get install -y ${missing[*]}" >&2
    [ "$need_sources" = 1 ] && echo "  and add a deb-src line for bookworm (see $0)" >&2
    exit 1
  fi
  if [ "$need_sources" = 1 ]; then
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$sources"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  [ ${#missing[@]} -eq 0 ] || apt-get install -y -q --no-install-recommends "${missing[@]}"
  exit 0
fi
# The library and the CLI (libjs-three: the preview pages embed three.js).
packages=(cmake make ninja-build g++ pkg-config libtinygltf-dev nlohmann-json3-dev libstb-dev libsquish-dev libcli11-dev
          libjs-three zlib1g-dev libimagequant-dev liblzo2-dev)
if [ "$full" = 1 ]; then
  packages+=(git debootstrap libgtest-dev libgmock-dev libbenchmark-dev clang-14 libclang-rt-14-dev lld-14
             python3-pybind11 pybind11-dev python3-numpy python3-pytest python3-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
apps=$full
[ "${ANIMKIT_SKIP_TEST_APPS:-}" = 1 ] && apps=0
if [ "$apps" = 1 ]; then
  # node and npm run the glTF validator; a machine may already have them from elsewhere.
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
  # Blender runs the add-on's tests (tests/blender); a big package, so any Blender on PATH counts.
  command -v blender >/dev/null || missing+=(blender)
  # Chromium opens the preview pages in the preview tests (tests/preview); any Chromium on PATH counts.
  command -v chromium >/dev/null || missing+=(chromium)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    echo "missing Debian packages; run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
# Debian 13's Blender 4.3 and Debian unstable's Blender 5.2, each in a root of its own, for the
# add-on's Blender4 and Blender5 tests (1.4 GB and 1.0 GB, a few minutes each, once;
# ANIMKIT_SKIP_BLENDER4=1 / ANIMKIT_SKIP_BLENDER5=1 leave one out, and its tests skip).
if [ "$apps" = 1 ]; then
  [ "${ANIMKIT_SKIP_BLENDER4:-}" = 1 ] || bash "$(dirname "$0")/install-blender-root.sh" trixie
  [ "${ANIMKIT_SKIP_BLENDER5:-}" = 1 ] || bash "$(dirname "$0")/install-blender-root.sh" sid
fi
