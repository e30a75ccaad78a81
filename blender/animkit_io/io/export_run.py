# What every export run shares, whichever way it writes (clips through glTF, the control
# rig's curves, the character's meshes): its result, its error, the copy kept of what it
# hands to animkit and the template it reads. Pure Python (no bpy).

import os
import shutil

# Where export keeps a copy of the file it hands to animkit (for debugging), when set.
KEEP_ENV = "ANIMKIT_BLENDER_KEEP_GLTF"


class ExportError(Exception):
    pass


class ExportResult:
    def __init__(self):
        self.messages = []
        self.clips = []
        self.command = []


def keep_copy(path, suffix=""):
    """Copies `path` to $ANIMKIT_BLENDER_KEEP_GLTF (plus `suffix`) when it is set."""
    keep = os.environ.get(KEEP_ENV)
    if keep:
        shutil.copyfile(path, keep + suffix)


def readable_template(template, filepath, tmp):
    """The template to read: a copy in `tmp` when it is the file written (animkit never
    writes over a file the conversion reads)."""
    if template and os.path.abspath(template) == os.path.abspath(filepath):
        copy = os.path.join(tmp, "template" + os.path.splitext(template)[1])
        shutil.copyfile(template, copy)
        return copy
    return template
