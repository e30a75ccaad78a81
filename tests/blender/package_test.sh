#!/usr/bin/env bash
# The add-on's package as a user gets it (ctest's BlenderPackage.legacy, Blender4.package,
# Blender5.package, Blender4.package_legacy, Blender5.package_legacy; docs/blender.md):
#
#   package_test.sh --kind legacy|extension [--blender EXE] --source CHECKOUT --cli ANIMKIT --out DIR [--licences DIR]
#
# builds the package with tools/blender-addon.py (the legacy zip, or the extension with the
# `blender` on PATH: run it inside a root with tools/run-blender.sh), installs it into a
# fresh user folder DIR/user (Blender's user folders pointed there) the way a user does
# (the legacy zip: Preferences > Add-ons > Install... and enable on 3.4, Install from Disk
# on 4.2+; the extension: `blender --command extension install-file --enable`), then starts
# a new Blender that loads it from there and imports a sample (package_check.py): the legacy
# zip with the animkit path set in the add-on's preferences ("Use a custom animkit"); the
# extension, built for linux-x64 with ANIMKIT as its executable, with nothing set at all:
# it runs the animkit it carries. With the host's libraries on LD_LIBRARY_PATH
# (run-blender.sh --host-libs) the extension's run drops them when ANIMKIT runs in this
# root without them (a self-contained build), and says so when it does not.
# Exit 77: skipped (no Blender of the kind).
set -euo pipefail
kind="" source="" cli="" out="" licences="" blender=blender
while [ $# -gt 0 ]; do
  case $1 in
    --kind) kind=$2; shift 2 ;;
    --blender) blender=$2; shift 2 ;;
    --source) source=$(realpath "$2"); shift 2 ;;
    --cli) cli=$(realpath "$2"); shift 2 ;;
    --licences) licences=$(realpath "$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "package_test.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$kind" ] && [ -n "$source" ] && [ -n "$cli" ] && [ -n "$out" ] || { echo "package_test.sh: --kind, --source, --cli and --out are needed" >&2; exit 2; }
command -v "$blender" >/dev/null || { echo "no $blender: skipped"; exit 77; }

rm -rf "$out/pkg" "$out/user"
mkdir -p "$out/pkg" "$out/user"
out=$(realpath "$out")
user=$out/user
check=$source/tests/blender/package_check.py
sample=$source/samples/edf_canm/soldier5.canm

# A user's Blender: its own user folders (all of them here), nothing of the checkout on
# the Python path, animkit found only through the add-on's preferences.
export BLENDER_USER_RESOURCES=$user BLENDER_USER_CONFIG=$user/config BLENDER_USER_SCRIPTS=$user/scripts \
       BLENDER_USER_DATAFILES=$user/datafiles
unset PYTHONPATH ANIMKIT_CLI BLENDER_SYSTEM_SCRIPTS
export PYTHONDONTWRITEBYTECODE=1
cd "$out"

case $kind in
  legacy)
    python3 "$source/tools/blender-addon.py" "$out/pkg" --only legacy
    package=$out/pkg/animkit_io.zip
    module=animkit_io
    "$blender" -b --python-exit-code 1 --python "$check" -- --step install-legacy --zip "$package" --user "$user"
    ;;
  extension)
    version=$("$blender" --version 2>/dev/null | sed -n 's/^Blender \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -n 1)
    read -r major minor <<< "${version:-0 0}"
    [ "$major" -gt 4 ] || { [ "$major" -eq 4 ] && [ "$minor" -ge 2 ]; } ||
      { echo "$blender is Blender $major.$minor: extensions need 4.2 or later: skipped"; exit 77; }
    ANIMKIT_BLENDER=$(command -v "$blender") python3 "$source/tools/blender-addon.py" "$out/pkg" --only extension \
      --linux-cli "$cli" --windows-cli "" ${licences:+--linux-licences "$licences"}
    package=$(ls "$out"/pkg/animkit_io-*-linux_x64.zip)
    module=bl_ext.user_default.animkit_io
    "$blender" --command extension install-file -r user_default --enable "$package"
    installed=$user/extensions/user_default/animkit_io
    [ -f "$installed/blender_manifest.toml" ] ||
      { echo "FAIL: the extension is not in $user/extensions/user_default"; exit 1; }
    cmp -s "$cli" "$installed/bin/animkit" || { echo "FAIL: the extension's bin/animkit is not $cli"; exit 1; }
    echo "ok    the extension carries $cli as bin/animkit"
    # Blender extracts the files without their modes; the add-on gives the bit back.
    [ -x "$installed/bin/animkit" ] && echo "note: installed bin/animkit is executable" ||
      echo "note: installed bin/animkit lost its executable bit (the add-on sets it again)"
    if [ -n "${LD_LIBRARY_PATH:-}" ]; then
      if env -u LD_LIBRARY_PATH "$cli" --version >/dev/null 2>&1; then
        echo "note: $cli runs in this root without the host's libraries: LD_LIBRARY_PATH dropped"
        unset LD_LIBRARY_PATH
      else
        echo "note: $cli needs the host's libraries in this root (not self-contained):" \
             "kept on LD_LIBRARY_PATH for the add-on's runs"
      fi
    fi
    ;;
  *) echo "package_test.sh: --kind legacy or extension" >&2; exit 2 ;;
esac
[ -f "$user/config/userpref.blend" ] || { echo "FAIL: no preferences saved in $user/config"; exit 1; }

"$blender" -b --python-exit-code 1 --python "$check" -- --step use --kind "$kind" --module "$module" --user "$user" \
  --source "$source" --cli "$cli" --sample "$sample"
