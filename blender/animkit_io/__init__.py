# animkit for Blender: imports and exports game animation formats through the animkit
# command line. The operators are thin; the work is in build.py (import), mesh_build.py
# (mesh objects, skins and materials), export.py (export), cli.py (running animkit),
# formats.py (the library's format and option table), import_data.py (the file one
# import run writes), gltf_mesh.py (primitives' triangles, edges and influences),
# gltf_write.py (the clips handed back to animkit), rig.py (the stored skeleton and clip
# records), slots.py (slots sharing data), export_plan.py (the format and template an
# export uses, as `animkit export-plan` decides them) and action_api.py (actions' F-curves
# in every Blender).

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

# Outside Blender (no bpy) only the pure modules are usable: cli, formats, import_data,
# gltf_mesh, gltf_write, rig, slots and export_plan import without bpy, so they can be
# tested with any Python 3.


def _reload():
    import importlib
    import sys
    for name in ("cli", "formats", "import_data", "gltf_mesh", "gltf_write", "option_props", "rig", "slots", "export_plan",
                 "action_api", "mesh_build", "build", "export", "operators"):
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
