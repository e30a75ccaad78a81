"""animkit: read, write, sample and convert game animation formats and glTF 2.0.

A thin layer over the animkit C++ library (the one the `animkit` command runs):

    import animkit
    f = animkit.load("p_ex00.mset")   # with the .mdlx beside it (skeleton="none": without)
    scene = f.decode()
    trs, visible = scene.clips[0].sample()   # float32 (frames, joints, 10), bool (frames, joints)

Time is in seconds, rotations are quaternions x, y, z, w, transforms are local
(parent-relative) unless a clip's space is 'model'. Reference: docs/python.md.

Licence: GPL-3.0-or-later (the LICENSE file of animkit).
"""

__license__ = "GPL-3.0-or-later"

from ._animkit import (
    Clip,
    Error,
    File,
    FileNotFoundError,
    Scene,
    Skeleton,
    __version__,
    bone_map,
    convert,
    convert_folder,
    curves,
    curves_replace,
    encode,
    export_plan,
    formats,
    import_data,
    limits,
    load,
    retarget,
    save,
)

# The public names live in this package: repr() and help() say animkit.X.
for _cls in (Clip, Error, File, Scene, Skeleton):
    _cls.__module__ = __name__
del _cls

__all__ = [
    "Clip",
    "Error",
    "File",
    "FileNotFoundError",
    "Scene",
    "Skeleton",
    "__version__",
    "bone_map",
    "convert",
    "convert_folder",
    "curves",
    "curves_replace",
    "encode",
    "export_plan",
    "formats",
    "import_data",
    "limits",
    "load",
    "retarget",
    "save",
]
