# The add-on's operators, preferences and menu entries (thin: the work is in build.py
# and export.py). The format options are the library's: option_props.py makes one
# property per option from formats.json.

import os

import bpy
from bpy.props import BoolProperty, EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import build, cli, export, formats, import_data
from .option_props import AUTO, add_option_properties, option_values


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


class IMPORT_SCENE_OT_animkit(bpy.types.Operator, ImportHelper):
    """Import a game animation, skeleton or model through animkit"""

    bl_idname = "import_scene.animkit"
    bl_label = "Import Game Animation"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ""
    filter_glob: StringProperty(default=";".join("*" + e for e in formats.import_extensions()), options={"HIDDEN"})

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
    def draw(self, context):
        _draw_groups(self, [(None, ("skeleton_path", "up_axis", "import_meshes"))] + self.option_groups)

    def execute(self, context):
        try:
            exe = executable(context)
            result = build.import_file(context, self.filepath, exe,
                                       skeleton=bpy.path.abspath(self.skeleton_path) if self.skeleton_path else "",
                                       options=formats.option_args(self.option_specs, option_values(self)),
                                       up_axis=self.up_axis,
                                       meshes=self.import_meshes)
        except (cli.AnimkitError, import_data.ImportDataError, OSError) as e:
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
    filter_glob: StringProperty(default=";".join("*" + e for e in formats.export_extensions()), options={"HIDDEN"})

    clips: EnumProperty(
        name="Clips", default="AUTO",
        items=[("AUTO", "Automatic", "Every NLA action when the format holds several clips, else the active action"),
               ("ALL", "All NLA actions", "Every action on the armature's NLA tracks, each a clip "
                                          "(the active action first when it is on no track)"),
               ("ACTIVE", "Active action only", "The armature's active action")],
        description="Which actions become clips")
    output_format: EnumProperty(
        name="Format", default=AUTO,
        items=[(AUTO, "Automatic", "The extension's format; where formats share it, the imported file's")] +
              [(f["id"], f["id"], f["description"]) for f in formats.export_formats()],
        description="The format written (only needed where formats share an extension, e.g. .anm)")
    use_template: BoolProperty(
        name="Keep the source's header", default=True,
        description="Pass the imported file as --template when it still exists and has the output's format: "
                    "what glTF cannot carry (header fields, other entries) is kept from it")

    def draw(self, context):
        _draw_groups(self, [(None, ("clips", "output_format", "use_template"))] + self.option_groups)

    @classmethod
    def poll(cls, context):
        return export.find_armature(context) is not None

    def execute(self, context):
        arm = export.find_armature(context)
        if arm is None:
            self.report({"ERROR"}, "select an armature (imported with animkit) to export")
            return {"CANCELLED"}
        try:
            exe = executable(context)
            result = export.export_file(context, arm, self.filepath, exe, clips=self.clips,
                                        output_format="" if self.output_format == AUTO else self.output_format,
                                        use_template=self.use_template,
                                        options=formats.option_args(self.option_specs, option_values(self)))
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


IMPORT_SCENE_OT_animkit.option_groups = add_option_properties(IMPORT_SCENE_OT_animkit, "read")
EXPORT_SCENE_OT_animkit.option_groups = add_option_properties(EXPORT_SCENE_OT_animkit, "write")

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
