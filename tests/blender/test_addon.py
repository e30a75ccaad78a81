# Tests of the Blender add-on (blender/animkit_io), run inside Blender:
#
#   blender -b --factory-startup --python-exit-code 1 --python tests/blender/test_addon.py -- \
#       --cli build/release/tools/animkit/animkit --samples samples --out /tmp/out --part import
#
# --part import   every sample file: import with the operator, then every bone at every frame
#                 of every action against the pose composed here from `animkit sample`,
#                 meshes and cameras on their bones, markers against events.
# --part export   round trips (import, export unchanged, `animkit sample` of the new file
#                 against the original's within the format's bound), an edit (one bone
#                 rotated at one frame), a malformed file.
# --part moveset  a 24-clip KH2 moveset with a link slot: one bone edited in one action,
#                 exported with the source as template: only that slot (and its link)
#                 changes, triggers keep their order; the format choice; the limits.
# --part skin     skinned, textured meshes (addon_skin.py): a glb written by the test and
#                 the real models, the evaluated mesh at several frames against the
#                 skinning of the layout and `animkit sample --skin`.
# --part curves   the control rig of clips with their own curves (addon_curves.py): import
#                 files with curves written by the test, every deform bone at every frame,
#                 each curve 1:1 on its control F-curve, Blender's inherit-scale modes
#                 against KH2's per-axis rule.
# --part mesh     the model export (addon_mesh.py): real models imported, their glTF for
#                 animkit against the import's (1:1), exported unedited (the file's bytes)
#                 and with one mesh moved (read back moved, the others unchanged); a file
#                 with nothing to edit (a placeholder ANB, an MDLX without a model entry)
#                 exported unedited: its bytes.
# --part additive additive clips (addon_additive.py): a glTF written by the test with additive
#                 clips imports as actions on Combine NLA strips keying the deltas only, and
#                 plays them over the rest or another clip as `animkit sample --space model` does.
# --part retarget retargeting onto an imported armature (addon_retarget.py): the EDF soldier's
#                 clips onto its own armature through the operators, every joint against
#                 `animkit sample --space model`; one bone unmapped stays at rest.
# --part rootmotion root motion on the armature object (addon_rootmotion.py): a Metroid character
#                 converted with --root-motion extract imports with no root_motion bone, the
#                 object moving as the joint; exported back, the joint keeps the motion.
# --only TEXT     only the sample paths that contain TEXT.
#
# The expected poses are composed here from animkit's own output (sample JSON, glTF node
# hierarchy), independently of the add-on's code. Exit 0: passed; 1: a check failed;
# 77: skipped (no animkit executable).

import os
import sys
import tempfile
import time
import traceback

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from addon_additive import part_additive  # noqa: E402
from addon_common import ARGS, CLI, SKIP, Failure, enable_addon  # noqa: E402
from addon_curves import part_curves  # noqa: E402
from addon_export import part_export  # noqa: E402
from addon_import import part_import  # noqa: E402
from addon_mesh import part_mesh  # noqa: E402
from addon_moveset import part_moveset  # noqa: E402
from addon_retarget import part_retarget  # noqa: E402
from addon_rootmotion import part_rootmotion  # noqa: E402
from addon_skin import part_skin  # noqa: E402

PARTS = (("import", part_import), ("export", part_export), ("moveset", part_moveset), ("skin", part_skin),
         ("curves", part_curves), ("mesh", part_mesh), ("additive", part_additive), ("retarget", part_retarget),
         ("rootmotion", part_rootmotion))
# ---------------------------------------------------------------------------------------


def main():
    if not CLI or not os.path.isfile(CLI):
        print("animkit executable not found (%r): skipped" % CLI)
        sys.stdout.flush()
        os._exit(SKIP)
    os.makedirs(ARGS["out"] or tempfile.gettempdir(), exist_ok=True)
    enable_addon()
    t0 = time.time()
    count = 0
    try:
        for name, part in PARTS:
            if ARGS["part"] in (name, "all"):
                count += part()
    except Failure as e:
        print("FAILED: %s" % e)
        sys.stdout.flush()
        os._exit(1)
    except Exception:
        traceback.print_exc()
        sys.stdout.flush()
        os._exit(1)
    print("OK: %d checks in %.1f s (Blender %s)" % (count, time.time() - t0, bpy.app.version_string))
    sys.stdout.flush()


main()