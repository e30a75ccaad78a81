# animkit for Blender: imports and exports game animation formats through the animkit
# command line, laid out as glTF-Blender-IO is:
#   operators.py  the operators, preferences and menu entries (declarations, one hand-off each)
#   blender/      what calls Blender: build.py (import), mesh_build.py (mesh objects, skins,
#                 materials), actions_build.py (actions), export.py (export: clips),
#                 export_model.py and mesh_read.py (the character's meshes), export_curves.py
#                 (a control rig's curves), export_root_motion.py (the armature object's motion
#                 as the root_motion joint's keys), action_api.py (F-curves in every Blender),
#                 option_props.py (one property per library option),
#                 retarget_build.py (retargeting onto an armature)
#   io/           pure Python, no bpy (tested with any Python 3): cli.py (running animkit),
#                 formats.py (the library's table, formats.json), import_data.py (the file one
#                 import run writes), export_plan.py (`animkit export-plan`), rig.py (the
#                 stored skeleton and clip records), slots.py, curves.py and keys.py (curves
#                 and keys as F-curves), root_motion.py (a root-motion joint as the armature
#                 object's motion), export_keys.py (F-curve keys as glTF channels),
#                 mesh_gltf.py (Blender's corners as glTF vertices), gltf_mesh.py (the
#                 import's primitives' topology), gltf_write.py (the glb handed to animkit),
#                 export_run.py (an export run's result and error), retarget.py (the rig as
#                 a glb for `animkit retarget`, its bone map file)
# io/ imports nothing of blender/; the import graph has no cycle (tests/blender/test_modules.py).

bl_info = {
    "name": "animkit: game animation formats",
    "author": "animkit",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export > Game animation (animkit)",
    "description": "PS1 ANM/TMD/ANC, text ANM, Metroid Prime ANIM/CINF, Kingdom Hearts II "
                   "ANB/MSET/MDLX/motion, EDF CANM/MDB through the animkit command line",
    "category": "Import-Export",
}


def _reload():
    import importlib
    import sys
    # io first, then blender in dependency order, then the operators
    for name in ("io.cli", "io.formats", "io.curves", "io.keys", "io.rig", "io.root_motion", "io.slots", "io.import_data",
                 "io.export_plan", "io.export_run", "io.export_keys", "io.gltf_mesh", "io.mesh_gltf", "io.gltf_write",
                 "io.retarget",
                 "blender.option_props", "blender.action_api", "blender.actions_build", "blender.mesh_build",
                 "blender.build", "blender.mesh_read", "blender.export_model", "blender.export_curves",
                 "blender.export_root_motion", "blender.export", "blender.retarget_build", "operators"):
        module = sys.modules.get(__name__ + "." + name)
        if module is not None:
            importlib.reload(module)


def register():
    _reload()
    from . import operators
    operators.register()


def unregister():
    from . import operators
    operators.unregister()
