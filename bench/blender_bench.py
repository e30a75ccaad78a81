# What the add-on's benchmarks (blender_import.py, blender_export.py) share, inside
# Blender: their arguments after Blender's "--", and the add-on loaded from a folder (this
# checkout's, or --addon another checkout's, whose flat layout is read too).

import importlib
import os
import sys

import addon_utils
import bpy

ADDON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blender")


def arguments(valued):
    """(Blender's arguments after "--", {option: value} of the `valued` options given,
    the files: the other arguments)."""
    argv = sys.argv[sys.argv.index("--") + 1:]
    options = {o: argv[argv.index(o) + 1] for o in valued if o in argv}
    files = [a for k, a in enumerate(argv) if not a.startswith("--") and argv[k - 1] not in valued]
    return argv, options, files


def enable_addon(addon, cli):
    """Enables the add-on of the folder `addon` (None: this checkout's) with animkit at
    `cli`; returns its action_api (F-curves on any Blender, layered actions from 4.4)."""
    sys.path.insert(0, os.path.abspath(addon or ADDON))
    addon_utils.enable("animkit_io", default_set=True, handle_error=None)
    prefs = bpy.context.preferences.addons["animkit_io"].preferences
    if hasattr(prefs, "use_custom_animkit"):  # an add-on that carries its own animkit
        prefs.use_custom_animkit = True
    prefs.animkit_path = os.path.abspath(cli)
    try:
        return importlib.import_module("animkit_io.blender.action_api")
    except ImportError:  # an add-on of one flat folder
        return importlib.import_module("animkit_io.action_api")
