# The add-on as a user has it: run inside Blender by package_test.sh, with Blender's user
# folders in the test's output folder and the source tree nowhere on sys.path.
#
#   --step install-legacy --zip Z   the legacy zip: Preferences > Add-ons > Install... and
#                                   enable (3.4), Get Extensions > Install from Disk (4.2+;
#                                   the operators the buttons run), preferences saved
#   --step use --module M --kind K  a new Blender session: the add-on M is enabled from the
#                                   saved preferences and loaded from the user folder; its
#                                   operators exist; animkit is neither on PATH nor in
#                                   $ANIMKIT_CLI; K legacy: the animkit path is set in its
#                                   preferences ("Use a custom animkit"); K extension:
#                                   nothing is set, the add-on runs the animkit it carries
#                                   (bin/animkit in the installed extension); importing
#                                   --sample makes an armature with the file's joints and one
#                                   keyed action per clip (compared with `animkit info --json`).
# Exit 1 (--python-exit-code 1) on the first failed check.

import importlib
import json
import os
import shutil
import subprocess
import sys

import bpy


def argument(name, default=None):
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    return argv[argv.index(name) + 1] if name in argv else default


def check(condition, message):
    if not condition:
        raise SystemExit("FAIL: " + message)
    print("ok    " + message)


def inside(path, folder):
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([path, folder]) == folder


def install_legacy(zip_path, user):
    if bpy.app.version >= (4, 2, 0):
        # Get Extensions > Install from Disk given the legacy zip: Blender installs it as a
        # legacy add-on (its addon_install) and enables it, then reports CANCELLED since the
        # zip held no extension, so the result is what is checked, not the return value.
        bpy.ops.extensions.package_install_files(filepath=zip_path, repo="user_default", enable_on_install=True)
        check("animkit_io" in bpy.context.preferences.addons, "Install from Disk enabled animkit_io")
    else:
        result = bpy.ops.preferences.addon_install(filepath=zip_path)
        check(result == {"FINISHED"}, "addon_install(%s) returned %s" % (os.path.basename(zip_path), result))
        result = bpy.ops.preferences.addon_enable(module="animkit_io")
        check(result == {"FINISHED"}, "addon_enable(animkit_io) returned %s" % result)
    check(os.path.isfile(os.path.join(user, "scripts", "addons", "animkit_io", "__init__.py")),
          "installed into the user's scripts/addons")
    check(bpy.ops.wm.save_userpref() == {"FINISHED"}, "preferences saved")


def fcurve_count(action):
    """F-curves with keys, in the action however it holds them (layered since Blender 4.4)."""
    if hasattr(action, "layers"):
        curves = [c for layer in action.layers for strip in layer.strips
                  for bag in getattr(strip, "channelbags", ()) for c in bag.fcurves]
        if curves or not hasattr(action, "fcurves"):
            return sum(1 for c in curves if len(c.keyframe_points))
    return sum(1 for c in action.fcurves if len(c.keyframe_points))


class TextLayout:
    """Stands in for a UILayout in the preferences' draw(): keeps the labels and props."""
    def __init__(self, texts):
        self.texts = texts
        self.active = True

    def row(self, **_):
        return TextLayout(self.texts)

    def prop(self, data, name, text=None, **_):
        self.texts.append("[%s=%r]" % (name, getattr(data, name)))

    def label(self, text="", **_):
        self.texts.append(text)


def preferences_text(prefs):
    """What the add-on's preferences draw (background Blender draws no UI): its draw() run
    with a layout that records the texts."""
    texts = []

    class Drawn:
        layout = TextLayout(texts)
    for name in ("use_custom_animkit", "animkit_path"):
        setattr(Drawn, name, getattr(prefs, name))
    type(prefs).draw(Drawn(), bpy.context)
    return texts


def use(kind, module, user, source, cli, sample):
    addon = bpy.context.preferences.addons.get(module)
    check(addon is not None, "%s is enabled from the saved preferences (enabled: %s)"
          % (module, sorted(a.module for a in bpy.context.preferences.addons)))
    loaded = sys.modules[module]
    check(inside(loaded.__file__, user), "%s is loaded from the user folder (%s)" % (module, loaded.__file__))
    addon_source = os.path.join(source, "blender")
    in_source = [p for p in sys.path if p and os.path.isdir(p) and inside(p, addon_source)]
    check(not in_source, "no sys.path entry in the checkout's blender/ (%s)" % in_source)
    from_source = sorted(name for name, m in list(sys.modules.items())
                         if getattr(m, "__file__", None) and inside(m.__file__, addon_source))
    check(not from_source, "no module loaded from the checkout's blender/ (%s)" % from_source)
    if module != "animkit_io":
        check("animkit_io" not in sys.modules, "the extension is only %s, no top-level animkit_io" % module)
    for op in ("IMPORT_SCENE_OT_animkit", "EXPORT_SCENE_OT_animkit"):
        check(hasattr(bpy.types, op), "operator %s is registered" % op)
    for menu in (bpy.types.TOPBAR_MT_file_import, bpy.types.TOPBAR_MT_file_export):
        entries = [f for f in menu._dyn_ui_initialize() if getattr(f, "__module__", "").startswith(module + ".")]
        check(len(entries) == 1, "%s has the add-on's entry" % menu.__name__)

    check(shutil.which("animkit") is None and "ANIMKIT_CLI" not in os.environ,
          "animkit is neither on PATH nor in $ANIMKIT_CLI")
    prefs = addon.preferences
    found = importlib.import_module(module + ".io.cli").find_executable
    if kind == "extension":
        # As a user does: install, enable, import; nothing set in the preferences.
        check(not prefs.use_custom_animkit and prefs.animkit_path == "",
              "nothing is set in the add-on's preferences (custom: %s, path: %r)"
              % (prefs.use_custom_animkit, prefs.animkit_path))
        bundled = os.path.join(os.path.dirname(loaded.__file__), "bin", "animkit")
        exe = found()
        check(exe == bundled and inside(exe, user), "the add-on runs the animkit it carries (%s)" % exe)
        check(os.access(exe, os.X_OK), "the installed bin/animkit is executable")
    else:
        # The legacy zip carries none: the animkit path in the add-on's preferences.
        prefs.use_custom_animkit = True
        prefs.animkit_path = cli
        check(bpy.ops.wm.save_userpref() == {"FINISHED"}, "preferences saved with the animkit path")
        exe = found(prefs.animkit_path, use_custom=prefs.use_custom_animkit)
        check(exe == cli, "the add-on runs the animkit set in its preferences (%s)" % exe)

    shown = preferences_text(prefs)
    check("Using: " + exe in shown, "the preferences show the animkit used (%s)" % shown)

    info = json.loads(subprocess.run([exe, "info", "--json", sample], stdout=subprocess.PIPE, check=True).stdout)
    before = set(bpy.data.objects)
    result = bpy.ops.import_scene.animkit(filepath=sample)
    check(result == {"FINISHED"}, "import %s returned %s" % (os.path.basename(sample), result))
    arms = [o for o in bpy.data.objects if o not in before and o.type == "ARMATURE"]
    check(len(arms) == 1, "one armature made (%d)" % len(arms))
    bones = {b.name for b in arms[0].data.bones}
    joints = {j["name"] if isinstance(j, dict) else j for j in info["joints"]}
    check(joints <= bones, "the armature has the file's %d joints (missing: %s)" % (len(joints), sorted(joints - bones)))
    actions = {a.name: a for a in bpy.data.actions}
    for clip in info["clips"]:
        action = actions.get(clip["name"])
        check(action is not None, "clip %s has its action (actions: %s)" % (clip["name"], sorted(actions)))
        check(fcurve_count(action) > 0, "action %s has keyed F-curves (%d)" % (clip["name"], fcurve_count(action)))
    meshes = [o for o in bpy.data.objects if o not in before and o.type == "MESH"]
    expected = sum(m["meshes"] for m in info["models"])
    check(len(meshes) == expected, "the model's %d meshes are imported (%d)" % (expected, len(meshes)))


def main():
    step = argument("--step")
    print("Blender %s, step %s" % (bpy.app.version_string, step))
    if step == "install-legacy":
        install_legacy(argument("--zip"), argument("--user"))
    elif step == "use":
        use(argument("--kind"), argument("--module"), argument("--user"), argument("--source"), argument("--cli"),
            argument("--sample"))
    else:
        raise SystemExit("FAIL: unknown --step %s" % step)


main()
