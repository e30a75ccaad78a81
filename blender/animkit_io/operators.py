# The add-on's operators, preferences and menu entries (thin: the work is in build.py
# and export.py).

import os

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import build, cli, export, gltf_read


def _preferences(context):
    addon = context.preferences.addons.get(__package__)
    return addon.preferences if addon is not None else None


def executable(context):
    """The animkit executable: the preferences' path, else PATH, else $ANIMKIT_CLI."""
    prefs = _preferences(context)
    return cli.find_executable(prefs.animkit_path if prefs is not None else "")


class AnimkitPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    animkit_path: StringProperty(
        name="animkit executable",
        description="Path of the animkit command line (empty: animkit on PATH, else $ANIMKIT_CLI)",
        subtype="FILE_PATH",
        default="",
    )

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "animkit_path")
        try:
            layout.label(text="Using: " + cli.find_executable(self.animkit_path))
        except cli.AnimkitError as e:
            layout.label(text=str(e), icon="ERROR")


def _draw_groups(op, groups):
    """The file browser's side panel: one box per (title or None, property names)."""
    layout = op.layout
    layout.use_property_split = True
    layout.use_property_decorate = False
    for title, names in groups:
        box = layout.box()
        if title:
            box.label(text=title)
        for name in names:
            box.prop(op, name)


# ---------------------------------------------------------------------------------------
# Import


def _import_options(op):
    """The animkit format options the import operator's settings ask for (defaults left out)."""
    args = []
    if op.euler != "xyz":
        args += ["--euler", op.euler]
    if op.psx_missing != "hold":
        args += ["--psx-missing", op.psx_missing]
    if op.psx_rate > 0:
        args += ["--psx-rate", "%g" % op.psx_rate]
    if op.psx_anc_twist != "angle":
        args += ["--psx-anc-twist", op.psx_anc_twist]
    if op.psx_anc_fov != "raw":
        args += ["--psx-anc-fov", op.psx_anc_fov]
    if op.cinf_rest != "relative":
        args += ["--cinf-rest", op.cinf_rest]
    if op.kh2_raw_space != "auto":
        args += ["--kh2-raw-space", op.kh2_raw_space]
    if op.kh2_trigger_rate != "motion":
        args += ["--kh2-trigger-rate", op.kh2_trigger_rate]
    if abs(op.canm_fps - 60.0) > 1e-9:
        args += ["--canm-fps", "%g" % op.canm_fps]
    return args


class IMPORT_SCENE_OT_animkit(bpy.types.Operator, ImportHelper):
    """Import a game animation, skeleton or model through animkit"""

    bl_idname = "import_scene.animkit"
    bl_label = "Import Game Animation"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ""
    filter_glob: StringProperty(default=";".join("*" + e for e in cli.IMPORT_EXTENSIONS), options={"HIDDEN"})

    skeleton_path: StringProperty(
        name="Skeleton / model",
        description="Skeleton or model file for the animation (empty: the companion file animkit "
                    "finds next to it, e.g. the MDB of a CANM, the CINF of an ANIM)",
        subtype="FILE_PATH", default="")
    up_axis: EnumProperty(
        name="Up axis", default="AUTO",
        items=[(k, v[0], v[1]) for k, v in build.UP_AXES.items()],
        description="How the source's axes map to Blender's (only the armature object is rotated)")
    import_meshes: BoolProperty(name="Meshes", default=True,
                                description="Import the model's meshes (PS1 TMD objects), each on its bone")
    euler: EnumProperty(
        name="Euler order", default="xyz",
        items=[("xyz", "XYZ", "X applied first: R = Rz Ry Rx"), ("zyx", "ZYX", "Z applied first: R = Rx Ry Rz")],
        description="Euler order of PS1 ANM rotations (--euler)")
    psx_missing: EnumProperty(
        name="Missing keys", default="hold",
        items=[("hold", "Hold", "Hold the last value"), ("interpolate", "Interpolate", "Interpolate")],
        description="PS1 ANM keyframes without rotation/position (--psx-missing)")
    psx_rate: FloatProperty(name="PS1 frame rate", default=0.0, min=0.0, max=1000.0,
                            description="PS1 ANM/ANC frames per second; 0: the header's (--psx-rate)")
    psx_anc_twist: EnumProperty(
        name="ANC twist", default="angle",
        items=[("angle", "Angle", "4096 per turn"), ("ignore", "Ignore", "No roll")],
        description="PS1 ANC twist (--psx-anc-twist)")
    psx_anc_fov: EnumProperty(
        name="ANC field of view", default="raw",
        items=[("raw", "Raw", "Kept as a raw value (yfov 0.8)"), ("angle", "Angle", "4096 per turn"),
               ("projection", "Projection", "Projection distance for a 240-line screen")],
        description="PS1 ANC field of view (--psx-anc-fov)")
    cinf_rest: EnumProperty(
        name="CINF rest", default="relative",
        items=[("relative", "Relative", "Origin minus the parent's"), ("absolute", "Absolute", "As stored")],
        description="Metroid Prime CINF rest translation (--cinf-rest)")
    kh2_raw_space: EnumProperty(
        name="KH2 raw space", default="auto",
        items=[("auto", "Auto", "Local when a skeleton is known, else model"), ("model", "Model", ""),
               ("local", "Local", "")],
        description="Kingdom Hearts II raw motion matrices (--kh2-raw-space)")
    kh2_trigger_rate: EnumProperty(
        name="KH2 trigger frames", default="motion",
        items=[("motion", "Motion", "The motion's own frames"), ("engine", "Engine", "1/60 s")],
        description="What Kingdom Hearts II trigger frames count (--kh2-trigger-rate)")
    canm_fps: FloatProperty(name="CANM engine fps", default=60.0, min=0.001, max=1000.0,
                            description="EDF CANM engine frames per second (--canm-fps)")

    def draw(self, context):
        _draw_groups(self, [
            (None, ("skeleton_path", "up_axis", "import_meshes")),
            ("PS1", ("euler", "psx_missing", "psx_rate", "psx_anc_twist", "psx_anc_fov")),
            ("Metroid Prime / Kingdom Hearts II / EDF", ("cinf_rest", "kh2_raw_space", "kh2_trigger_rate", "canm_fps")),
        ])

    def execute(self, context):
        try:
            exe = executable(context)
            result = build.import_file(context, self.filepath, exe,
                                       skeleton=bpy.path.abspath(self.skeleton_path) if self.skeleton_path else "",
                                       options=_import_options(self), up_axis=self.up_axis,
                                       meshes=self.import_meshes)
        except (cli.AnimkitError, gltf_read.GltfError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        for level, text in result.messages:
            self.report({level}, text)
        self.report({"INFO"}, "%s: %d bones, %d clips" % (
            os.path.basename(self.filepath), len(result.armature.data.bones), len(result.actions)))
        return {"FINISHED"}


# ---------------------------------------------------------------------------------------
# Export


class EXPORT_SCENE_OT_animkit(bpy.types.Operator, ExportHelper):
    """Export the active armature's animation to a game format through animkit"""

    bl_idname = "export_scene.animkit"
    bl_label = "Export Game Animation"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".anm"
    check_extension = None  # the extension chooses the format: keep what the user typed
    filter_glob: StringProperty(default=";".join("*" + e for e in cli.EXPORT_EXTENSIONS), options={"HIDDEN"})

    clips: EnumProperty(
        name="Clips", default="AUTO",
        items=[("AUTO", "Automatic", "Every NLA action for .mset/.anb (and text .anm), else the active action"),
               ("ALL", "All NLA actions", "Every action on the armature's NLA tracks, each a clip "
                                          "(the active action first when it is on no track)"),
               ("ACTIVE", "Active action only", "The armature's active action")],
        description="Which actions become clips")
    anm_kind: EnumProperty(
        name=".anm kind", default="AUTO",
        items=[("AUTO", "Automatic", "As the imported file (PS1 ANM unless it was a text ANM)"),
               ("psx-anm", "PS1 ANM", "Vib-Ribbon object animation"),
               ("text-anm", "Text ANM", "Animation sets over a new timeline (writes OUT.anm.timeline.glb too)")],
        description="What an .anm output is")
    use_template: BoolProperty(
        name="Keep the source's header", default=True,
        description="Pass the imported file as --template when it still exists and has the output's format: "
                    "what glTF cannot carry (header fields, other entries) is kept from it")
    anim_version: EnumProperty(
        name="ANIM version", default="AUTO",
        items=[("AUTO", "Automatic", "The imported ANIM's version, else 2"), ("2", "2", "Bit-packed"),
               ("0", "0", "Float arrays")],
        description="Metroid Prime ANIM version (--anim-version)")
    max_error_rot: FloatProperty(name="Max rotation error", default=0.001, min=0.0, precision=5,
                                 description="ANIM v2 encoder: largest rotation error in radians (--max-error-rot)")
    max_error_pos: FloatProperty(name="Max position error", default=0.0, min=0.0, precision=5,
                                 description="ANIM v2 encoder: largest translation error in units; 0: 0.001 x "
                                             "the clip's translation range (--max-error-pos)")
    canm_version: EnumProperty(
        name="CANM version", default="AUTO",
        items=[("AUTO", "Automatic", "The imported CANM's version, else 512"),
               ("512", "512", "EDF 4.1 / EDF 5"), ("768", "768", "EDF 6")],
        description="EDF CANM version (--canm-version)")
    canm_fps: FloatProperty(name="CANM engine fps", default=0.0, min=0.0, max=1000.0,
                            description="EDF CANM engine frames per second; 0: as imported, else 60 (--canm-fps)")
    kh2_raw: BoolProperty(name="KH2 raw", default=False,
                          description="Kingdom Hearts II: write raw matrices instead of an interpolated motion (--raw)")
    kh2_tolerance: FloatProperty(name="KH2 tolerance", default=1e-4, min=0.0, max=1.0, precision=6,
                                 description="KH2 interpolated encoder: largest error at any frame (--kh2-tolerance)")

    def draw(self, context):
        _draw_groups(self, [
            (None, ("clips", "anm_kind", "use_template")),
            ("Metroid Prime ANIM", ("anim_version", "max_error_rot", "max_error_pos")),
            ("EDF CANM", ("canm_version", "canm_fps")),
            ("Kingdom Hearts II", ("kh2_raw", "kh2_tolerance")),
        ])

    @classmethod
    def poll(cls, context):
        return export.find_armature(context) is not None

    def encoder_options(self):
        args = []
        if self.anim_version != "AUTO":
            args += ["--anim-version", self.anim_version]
        if abs(self.max_error_rot - 0.001) > 1e-12:
            args += ["--max-error-rot", "%r" % self.max_error_rot]
        if self.max_error_pos > 0:
            args += ["--max-error-pos", "%r" % self.max_error_pos]
        if self.canm_version != "AUTO":
            args += ["--canm-version", self.canm_version]
        if self.canm_fps > 0:
            args += ["--canm-fps", "%g" % self.canm_fps]
        if self.kh2_raw:
            args.append("--raw")
        if abs(self.kh2_tolerance - 1e-4) > 1e-12:
            args += ["--kh2-tolerance", "%r" % self.kh2_tolerance]
        return args

    def execute(self, context):
        arm = export.find_armature(context)
        if arm is None:
            self.report({"ERROR"}, "select an armature (imported with animkit) to export")
            return {"CANCELLED"}
        try:
            exe = executable(context)
            result = export.export_file(context, arm, self.filepath, exe, clips=self.clips,
                                        anm_kind=self.anm_kind, use_template=self.use_template,
                                        options=self.encoder_options())
        except (cli.AnimkitError, export.ExportError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        for level, text in result.messages:
            self.report({level}, text)
        return {"FINISHED"}


def _menu_import(self, context):
    self.layout.operator(IMPORT_SCENE_OT_animkit.bl_idname, text="Game animation (animkit)")


def _menu_export(self, context):
    self.layout.operator(EXPORT_SCENE_OT_animkit.bl_idname, text="Game animation (animkit)")


_classes = (AnimkitPreferences, IMPORT_SCENE_OT_animkit, EXPORT_SCENE_OT_animkit)


def register():
    for c in _classes:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    for c in reversed(_classes):
        bpy.utils.unregister_class(c)
