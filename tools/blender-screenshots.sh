#!/usr/bin/env bash
# Takes docs/blender.md's screenshots of Blender 5 (tests/blender/screenshot_docs.py): in
# the Debian unstable root, an X server (Xvfb, software OpenGL) and Blender with its
# window, the add-on importing a file as a user does, the screen grabbed with xwd.
#
#   tools/blender-screenshots.sh CLI OUT_DIR SHOT FILE [MODEL [CLIP [BONE [FRAME]]]]
#
# The root needs xvfb, x11-apps, netpbm and Mesa's drivers (tools/setup/ installs them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
checkout="$(cd "$here/.." && pwd)"
cli=$(realpath "$1"); out=$(realpath -m "$2"); shot=$3; file=$(realpath "$4")
model=${5:+$(realpath "$5")}; clip=${6:-}; bone=${7:-}; frame=${8:-0}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/inside.sh" <<INSIDE
set +e
# Blender's user folders (preferences, installed extensions) in the run's own folder.
export BLENDER_USER_RESOURCES=$work/user BLENDER_USER_CONFIG=$work/user/config \
       BLENDER_USER_SCRIPTS=$work/user/scripts BLENDER_USER_DATAFILES=$work/user/datafiles
Xvfb :77 -screen 0 1600x900x24 >/dev/null 2>&1 &
xpid=\$!
trap 'kill \$xpid 2>/dev/null' EXIT
blender -b --factory-startup --python-expr "import bpy; bpy.ops.wm.save_as_mainfile(filepath='$work/empty.blend'); bpy.ops.wm.save_userpref()" >/dev/null
DISPLAY=:77 timeout 300 blender --factory-startup "$work/empty.blend" --python "$checkout/tests/blender/screenshot_docs.py" -- \
  --cli "$cli" --out "$out" --shot "$shot" --file "$file" ${model:+--model "$model"} ${clip:+--clip "$clip"} \
  ${bone:+--bone "$bone"} --frame "$frame"; echo "ui rc=\$?"
INSIDE
dirs=(--ro "$checkout" --ro "$(dirname "$cli")" --ro "$(dirname "$file")" --rw "$work" --rw "$out")
[ -n "$model" ] && dirs+=(--ro "$(dirname "$model")")
bash "$here/run-blender.sh" --root "${ANIMKIT_BLENDER_ROOT:-sid}" "${dirs[@]}" --host-libs "$cli" -- bash "$work/inside.sh"
