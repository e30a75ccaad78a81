# The add-on's operators, preferences and menu entries: declarations, each handing its work
# to one call (blender/build.py imports, blender/export.py exports). The format options are
# the library's: blender/option_props.py makes one property per option from formats.json.

import bpy
from bpy.props import (BoolProperty, CollectionProperty, EnumProperty, FloatProperty, IntProperty, PointerProperty,
                       StringProperty)
from bpy_extras.io_utils import ExportHelper, ImportHelper

from .blender import build, export, retarget_build
from .blender.option_props import AUTO, add_limit_properties, add_option_properties, option_args
from .io import cli, export_plan, export_run, formats, import_data

_ERRORS = (cli.AnimkitError, import_data.ImportDataError, export_run.ExportError, export_plan.PlanError, OSError)


def _preferences(context):
    addon = context.preferences.addons.get(__package__)
    return addon.preferences if addon is not None else None


def executable(context):
    """The animkit executable: the one the extension carries, or the preferences' path when
    "Use a custom animkit" is ticked (io/cli.py, find_executable)."""
    prefs = _preferences(context)
    if prefs is None:
        return cli.find_executable()
    return cli.find_executable(prefs.animkit_path, use_custom=prefs.use_custom_animkit)


class AnimkitPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    use_custom_animkit: BoolProperty(
        name=cli.CUSTOM,
        description="Run the animkit executable whose path is set beside this instead of the one the extension carries",
        default=False,
    )
    animkit_path: StringProperty(
        name="animkit executable",
        description="Path of the animkit command line, used when 'Use a custom animkit' is ticked",
        subtype="FILE_PATH",
        default="",
    )

    def draw(self, context):
        layout = self.layout
        row = layout.row()
        row.prop(self, "use_custom_animkit")
        path = row.row()
        path.active = self.use_custom_animkit
        path.prop(self, "animkit_path", text="")
        try:
            layout.label(text="Using: " + cli.find_executable(self.animkit_path, use_custom=self.use_custom_animkit))
        except cli.AnimkitError as e:
            layout.label(text=str(e), icon="ERROR")


def _draw_groups(op, groups, notes=()):
    """The file browser's side panel: one box per (title or None, property names), the
    notes (level, text) under the first, the limits folded behind show_limits."""
    layout = op.layout
    layout.use_property_split = True
    layout.use_property_decorate = False
    for k, (title, names) in enumerate(groups + [op.limit_group]):
        box = layout.box()
        if title == op.limit_group[0]:
            box.prop(op, "show_limits")
            if not op.show_limits:
                continue
        elif title:
            box.label(text=title)
        for name in names:
            box.prop(op, name)
        for level, text in notes if k == 0 else ():
            box.label(text=text, icon={"ERROR": "ERROR", "WARNING": "ERROR"}.get(level, "INFO"))


def _hand_off(op, work):
    """Runs the operator's one call; its messages (level, text) become reports, an error
    the operator's error (nothing done)."""
    try:
        result = work()
    except _ERRORS as e:
        op.report({"ERROR"}, str(e))
        return {"CANCELLED"}
    for level, text in result.messages:
        op.report({level}, text)
    return {"FINISHED"}


_SHOW_LIMITS = BoolProperty(name="Limits (advanced)", default=False,
                            description="Show the limits animkit applies to what it reads and makes")


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
                                description="Import the model's meshes: rigid ones (PS1 TMD objects) on their bones, "
                                            "skinned ones (KH2 MDLX, EDF MDB, glTF) on the armature with their materials")
    scale: FloatProperty(
        name="Scale", default=1.0, min=1e-6, soft_min=0.001, soft_max=100.0, precision=4,
        description="Blender metres per file unit, set on the armature object (1: the file's numbers as they are; "
                    "a KH2 character is about 170 units tall, 0.01 makes it 1.7 m). Export reads the rig in the "
                    "armature's own space, so the scale never reaches the written file")
    clip_filter: StringProperty(
        name="Clips", default="",
        description="Only these clips: names or patterns (* any run of characters, ? one), comma-separated, "
                    "e.g. *ATTACK* or A000,A001 (empty: every clip)")
    show_limits: _SHOW_LIMITS

    def draw(self, context):
        _draw_groups(self, [(None, ("skeleton_path", "clip_filter", "up_axis", "scale", "import_meshes"))] +
                     self.option_groups)

    def execute(self, context):
        return _hand_off(self, lambda: build.import_file(
            context, self.filepath, executable(context),
            skeleton=bpy.path.abspath(self.skeleton_path) if self.skeleton_path else "",
            options=option_args(self), up_axis=self.up_axis, meshes=self.import_meshes, clips=self.clip_filter,
            scale=self.scale))


# ---------------------------------------------------------------------------------------
# Export


class EXPORT_SCENE_OT_animkit(bpy.types.Operator, ExportHelper):
    """Export the active armature's animation to a game format through animkit; to a model
    file (.mdlx, .mdb), its character: the meshes with their materials and images"""

    bl_idname = "export_scene.animkit"
    bl_label = "Export Game Animation"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ""  # the default file is the imported one (invoke)
    check_extension = None  # the extension and Format choose the format: keep what the user typed
    filter_glob: StringProperty(default=";".join("*" + e for e in formats.export_extensions() + formats.model_extensions()),
                                options={"HIDDEN"})

    clips: EnumProperty(
        name="Clips", default="AUTO",
        items=[("AUTO", "Automatic", "Every NLA action when the format holds several clips, else the active action"),
               ("ALL", "All NLA actions", "Every action on the armature's NLA tracks, each a clip "
                                          "(the active action first when it is on no track)"),
               ("ACTIVE", "Active action only", "The armature's active action")],
        description="Which actions become clips")
    output_format: EnumProperty(
        name="Format", default=AUTO,
        items=[(AUTO, "Imported file's", "The imported file's format, or one of its family that writes the "
                                         "extension (a rig made in Blender: the extension's format)")] +
              [(f["id"], f["id"], f["description"]) for f in formats.export_formats() + formats.model_formats()],
        description="The format written (a model format: the character's meshes). Another family's format "
                    "than the imported file's must be chosen here; the panel says what it loses")
    use_template: BoolProperty(
        name="Keep the source's header", default=True,
        description="Pass the imported file as --template when it still exists and has the output's format: "
                    "what glTF cannot carry (header fields, other entries) is kept from it")

    show_limits: _SHOW_LIMITS

    def _format(self):
        return "" if self.output_format == AUTO else self.output_format

    def draw(self, context):
        try:
            exe = executable(context)
        except cli.AnimkitError as e:
            notes = [("ERROR", str(e))]
        else:
            notes = export.dialog_notes(exe, export.find_armature(context), self.filepath, self._format(), self.clips)
        _draw_groups(self, [(None, ("clips", "output_format", "use_template"))] + self.option_groups, notes)

    def invoke(self, context, event):
        arm = export.find_armature(context)
        if not self.filepath and arm is not None:  # the imported file's own name and format
            try:
                exe = executable(context)
            except cli.AnimkitError:
                exe = ""  # the dialog's notes say so; no default file
            if exe:
                self.filepath = export.default_file(exe, arm)
        return ExportHelper.invoke(self, context, event)

    def check(self, context):
        """A format chosen explicitly renames the file to an extension it writes."""
        renamed = export_plan.with_extension(self.filepath, self._format())
        changed = renamed != self.filepath
        self.filepath = renamed
        return changed

    @classmethod
    def poll(cls, context):
        return export.find_armature(context) is not None

    def execute(self, context):
        return _hand_off(self, lambda: export.export_file(
            context, export.find_armature(context), self.filepath, executable(context), clips=self.clips,
            output_format=self._format(), use_template=self.use_template, options=option_args(self)))


# ---------------------------------------------------------------------------------------
# Retarget onto the active armature (docs/blender.md, "Retargeting")


class AnimkitRetargetRow(bpy.types.PropertyGroup):
    target: StringProperty(name="Target", description="The armature's joint, as animkit names it")
    bone: StringProperty(name="Bone", description="The armature's bone of that joint")
    source: StringProperty(name="Source",
                           description="The source's joint that drives this bone (empty: it stays at rest)")


class AnimkitRetargetJoint(bpy.types.PropertyGroup):
    name: StringProperty(name="Joint")


class AnimkitRetargetSettings(bpy.types.PropertyGroup):
    source_path: StringProperty(name="Source", subtype="FILE_PATH", default="",
                                description="A file animkit reads whose clips are retargeted onto this armature")
    skeleton_path: StringProperty(name="Source skeleton", subtype="FILE_PATH", default="",
                                  description="The source's skeleton or model (empty: the companion animkit finds)")
    rows: CollectionProperty(type=AnimkitRetargetRow)
    source_joints: CollectionProperty(type=AnimkitRetargetJoint)  # what a row's search offers
    active_row: IntProperty(default=0)
    suggested_from: StringProperty(options={"HIDDEN"}, default="")


def _active_armature(context):
    obj = context.active_object
    return obj if obj is not None and obj.type == "ARMATURE" else None


class ANIMKIT_OT_retarget_suggest(bpy.types.Operator):
    """Ask animkit for the bone map from the source onto the active armature (one row per bone)"""

    bl_idname = "animkit.retarget_suggest"
    bl_label = "Suggest Bone Map"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context):
        return _active_armature(context) is not None

    def execute(self, context):
        return _hand_off(self, lambda: retarget_build.suggest(_active_armature(context), executable(context)))


class ANIMKIT_OT_retarget(bpy.types.Operator):
    """Retarget the source's clips onto the active armature with the rows' bone map, as actions on NLA tracks"""

    bl_idname = "animkit.retarget"
    bl_label = "Retarget"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context):
        return _active_armature(context) is not None

    def execute(self, context):
        return _hand_off(self, lambda: retarget_build.bake(context, _active_armature(context), executable(context)))


class ANIMKIT_UL_retarget_rows(bpy.types.UIList):
    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0):
        row = layout.row(align=True)
        row.label(text=item.bone or item.target, icon="BONE_DATA")
        if data.source_joints:
            row.prop_search(item, "source", data, "source_joints", text="", icon="NONE" if item.source else "ERROR")
        else:
            row.prop(item, "source", text="", icon="NONE" if item.source else "ERROR")


class VIEW3D_PT_animkit_retarget(bpy.types.Panel):
    bl_label = "Retarget (animkit)"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "animkit"

    @classmethod
    def poll(cls, context):
        return _active_armature(context) is not None

    def draw(self, context):
        settings = _active_armature(context).animkit_retarget
        layout = self.layout
        layout.prop(settings, "source_path")
        layout.prop(settings, "skeleton_path")
        layout.operator(ANIMKIT_OT_retarget_suggest.bl_idname, icon="BONE_DATA")
        if settings.rows:
            layout.label(text="%d of %d bones mapped" % (sum(1 for r in settings.rows if r.source), len(settings.rows)))
            layout.template_list("ANIMKIT_UL_retarget_rows", "", settings, "rows", settings, "active_row", rows=8)
        layout.operator(ANIMKIT_OT_retarget.bl_idname, icon="ARMATURE_DATA")


def _menu_import(self, context):
    self.layout.operator(IMPORT_SCENE_OT_animkit.bl_idname, text="Game animation (animkit)")


def _menu_export(self, context):
    self.layout.operator(EXPORT_SCENE_OT_animkit.bl_idname, text="Game animation (animkit)")


for _op, _use in ((IMPORT_SCENE_OT_animkit, "read"), (EXPORT_SCENE_OT_animkit, "write")):
    _op.option_groups = add_option_properties(_op, _use)
    _op.limit_group = add_limit_properties(_op)

_classes = (AnimkitPreferences, IMPORT_SCENE_OT_animkit, EXPORT_SCENE_OT_animkit, AnimkitRetargetRow,
            AnimkitRetargetJoint, AnimkitRetargetSettings, ANIMKIT_OT_retarget_suggest, ANIMKIT_OT_retarget,
            ANIMKIT_UL_retarget_rows, VIEW3D_PT_animkit_retarget)


def register():
    for c in _classes:
        bpy.utils.register_class(c)
    bpy.types.Object.animkit_retarget = PointerProperty(type=AnimkitRetargetSettings)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    del bpy.types.Object.animkit_retarget
    for c in reversed(_classes):
        bpy.utils.unregister_class(c)
