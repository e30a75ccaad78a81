#!/usr/bin/env bash
# The libraries animkit.exe links, for MinGW-w64 (docs/windows.md):
#   build-deps.sh PREFIX
# - libsquish, libimagequant and lzo2: Debian 12's own source packages (apt-get source, with Debian's
#   patches applied), pinned by version and checksum in tools/windows/deps.lock, compiled with
#   the flags Debian's amd64 packages have (SSE, OpenMP), so that the Windows build computes
#   what the Linux one does;
# - zlib: Debian's MinGW package (libz-mingw-w64-dev);
# - the header libraries (nlohmann-json, tinygltf, stb, CLI11): Debian's headers, each linked
#   into PREFIX/include alone, so that no Linux system header reaches the MinGW compiler.
# Writes PREFIX/include and PREFIX/lib; a second run with the same lock file does nothing.
# Exit 77 when the toolchain or the deb-src index is missing (install-deps.sh --windows).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: build-deps.sh PREFIX" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
lock=$here/deps.lock
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
host=x86_64-w64-mingw32
cc=$host-gcc-posix cxx=$host-g++-posix ar=$host-ar
for tool in "$cc" "$cxx" "$ar" dpkg-source apt-get sha256sum; do
  command -v "$tool" >/dev/null || { echo "build-deps.sh: no $tool (make deps installs the MinGW-w64 toolchain)"; exit 77; }
done
stamp=$prefix/.deps-$(sha256sum "$lock" "$0" | sha256sum | cut -c1-16)
if [ -e "$stamp" ]; then exit 0; fi

# The header libraries: one link each, to the file or folder Debian's -dev package installs.
mkdir -p "$prefix/include" "$prefix/lib" "$prefix/src"
for header in nlohmann tiny_gltf.h stb CLI; do
  [ -e "/usr/include/$header" ] || { echo "build-deps.sh: /usr/include/$header is missing (make deps installs it)" >&2; exit 1; }
  ln -sfn "/usr/include/$header" "$prefix/include/$header"
done
[ -e "/usr/$host/lib/libz.a" ] || { echo "build-deps.sh: no /usr/$host/lib/libz.a (Debian's libz-mingw-w64-dev)" >&2; exit 1; }

# fetch PACKAGE VERSION DSC_SHA UPSTREAM_SHA: the unpacked source, patches applied.
fetch() {
  local package=$1 version=$2 dsc_sha=$3 upstream_sha=$4 upstream=${2%-*}
  local dir=$prefix/src/$package-$upstream
  (cd "$prefix/src" &&
    if [ ! -e "${package}_$version.dsc" ]; then
      apt-get source --download-only -q "$package=$version" >/dev/null 2>"$package.log" || {
        echo "build-deps.sh: apt-get source $package=$version failed (a deb-src line for bookworm is needed: install-deps.sh --windows adds it):"
        tail -3 "$package.log"; exit 77; }
    fi
    echo "$dsc_sha  ${package}_$version.dsc" | sha256sum -c --quiet - &&
    echo "$upstream_sha  $(ls "${package}_$upstream".orig.tar.*)" | sha256sum -c --quiet - || {
      echo "build-deps.sh: $package $version does not match its checksum in $lock" >&2; exit 1; }
    rm -rf "$dir" && dpkg-source -q -x "${package}_$version.dsc" "$dir" >/dev/null 2>&1)
}

# compile OUT.a CC FLAGS... -- SOURCES...: a static library of the sources.
compile() {
  local out=$1 compiler=$2 flags=() objects=()
  shift 2
  while [ "$1" != -- ]; do flags+=("$1"); shift; done
  shift
  for source in "$@"; do
    "$compiler" -w "${flags[@]}" -c "$source" -o "$source.o"
    objects+=("$source.o")
  done
  rm -f "$out" && "$ar" rcs "$out" "${objects[@]}"
}

while read -r package version dsc_sha upstream_sha; do
  case $package in ''|'#'*) continue ;; esac
  fetch "$package" "$version" "$dsc_sha" "$upstream_sha"
  dir=$prefix/src/$package-${version%-*}
  case $package in
    libsquish)
      # Debian's build: CMake, SSE2 (SQUISH_USE_SSE=2) and OpenMP (its enable-openmp patch).
      compile "$prefix/lib/libsquish.a" "$cxx" -O2 -msse2 -DSQUISH_USE_SSE=2 -fopenmp -DSQUISH_USE_OPENMP -- \
        "$dir"/{alpha,clusterfit,colourblock,colourfit,colourset,maths,rangefit,singlecolourfit,squish}.cpp
      cp "$dir/squish.h" "$prefix/include/" ;;
    libimagequant)
      # Debian's build: ./configure --with-openmp --enable-sse (its CFLAGS, then -O3).
      compile "$prefix/lib/libimagequant.a" "$cc" -O2 -std=c99 -I"$dir" -O3 -DNDEBUG -DUSE_SSE=1 -msse -mfpmath=sse -fopenmp -- \
        "$dir"/{libimagequant,blur,mediancut,mempool,nearest,pam,kmeans}.c
      cp "$dir/libimagequant.h" "$prefix/include/" ;;
    lzo2)
      # Debian's build: ./configure with -O2. Only what animkit calls: LZO1X's compressor
      # (lzo1x_1_compress), its checked decompressor (lzo1x_decompress_safe) and lzo_init.
      compile "$prefix/lib/liblzo2.a" "$cc" -O2 -I"$dir/include" -I"$dir" -- "$dir"/src/{lzo1x_1,lzo1x_d2,lzo_init}.c
      mkdir -p "$prefix/include/lzo" && cp "$dir"/include/lzo/*.h "$prefix/include/lzo/" ;;
    *) echo "build-deps.sh: $lock names $package, which this script does not build" >&2; exit 1 ;;
  esac
done < "$lock"
rm -f "$prefix"/.deps-*
touch "$stamp"
echo "Windows libraries in $prefix"
