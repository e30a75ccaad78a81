# Takes the Blender screenshots of docs/blender.md: Blender with its window (under Xvfb),
# a file imported with the add-on's operator as a user does, then the window grabbed
# with xwd. Run by tools/blender-screenshots.sh, which starts the X server and opens
# Blender on an empty .blend (no splash screen):
#
#   blender EMPTY.blend --python tests/blender/screenshot_docs.py -- --cli ANIMKIT \
#       --out docs/images --shot NAME --file FILE [--model MODEL] [--clip CLIP] \
#       [--bone BONE] [--frame N]
#
# Shots: "graph" (the Animation workspace: the clip's F-curves of one bone in the
# Graph Editor, the posed character in the viewport), "import" (File > Import's dialog
# with the format's options); docs/install.md's: "install-menu" (Preferences > Get
# Extensions with its menu open on Install from Disk), "installed" (FILE, the extension,
# installed as Install from Disk does, in the Add-ons list with its preferences open).

import os
import subprocess
import sys

import addon_utils
import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
ADDON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "blender"))


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    args = {"cli": "", "out": "", "shot": "graph", "file": "", "model": "", "clip": "", "bone": "", "frame": "0"}
    for k in range(0, len(argv) - 1, 2):
        args[argv[k].lstrip("-")] = argv[k + 1]
    return args


ARGS = parse_args()


def grab(name, box=None):
    """The whole X screen as docs/images/NAME (xwd, then netpbm's converters), or only the
    part BOX (an area of the main window) covers."""
    out = os.path.join(ARGS["out"], name)
    tmp = out + ".part"
    with open(tmp, "wb") as f:
        xwd = subprocess.Popen(["xwd", "-root", "-silent"], stdout=subprocess.PIPE)
        pnm = subprocess.Popen(["xwdtopnm"], stdin=xwd.stdout, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if box is not None:
            screen = bpy.context.window_manager.windows[0]  # the main window fills the screen
            top = screen.height - box.y - box.height  # Blender counts y from the bottom
            pnm = subprocess.Popen(["pnmcut", "-left", str(box.x), "-top", str(top),
                                    "-width", str(box.width), "-height", str(box.height)],
                                   stdin=pnm.stdout, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        subprocess.run(["pnmtopng"], stdin=pnm.stdout, stdout=f, check=True)
    os.replace(tmp, out)
    print("screenshot:", out, flush=True)


def area(kind):
    return next((a for a in bpy.context.window.screen.areas if a.type == kind), None)


def import_file():
    os.environ["ANIMKIT_CLI"] = ARGS["cli"]
    if ADDON_DIR not in sys.path:
        sys.path.insert(0, ADDON_DIR)
    addon_utils.enable("animkit_io", default_set=True, handle_error=None)
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    kwargs = {"filepath": ARGS["file"]}
    if ARGS["model"]:
        kwargs["skeleton_path"] = ARGS["model"]
    if ARGS["clip"]:
        kwargs["clip_filter"] = ARGS["clip"]
    result = bpy.ops.import_scene.animkit(**kwargs)
    if "FINISHED" not in result:
        raise RuntimeError("import of %s: %s" % (ARGS["file"], result))
    return next(o for o in bpy.data.objects if o.type == "ARMATURE")


def action_api():
    import importlib
    return importlib.import_module("animkit_io.blender.action_api")


def busiest_bone(arm):
    """The control bone whose stored rotation curves (the file's own, not baked) swing the
    most with a readable number of keys in the active action; else the second bone."""
    import json
    action = arm.animation_data.action
    stored = json.loads(action.get("animkit_curves", "{}") or "{}").get("curves", [])
    rig = json.loads(arm["animkit_rig"])
    wanted = {(rig["nodes"][n].get("control"), k) for n, p, k in stored if p == "rotation_euler"}
    best, name = 0.0, ""
    for fc in action_api().fcurves(action):
        if '"' not in fc.data_path or not fc.data_path.endswith("rotation_euler"):
            continue
        bone = fc.data_path.split('"')[1]
        values = [p.co[1] for p in fc.keyframe_points]
        if (bone, fc.array_index) in wanted and 4 <= len(values) <= 40 and max(values) - min(values) > best:
            best, name = max(values) - min(values), bone
    return name or arm.pose.bones[min(1, len(arm.pose.bones) - 1)].name


def show_curves(arm):
    """Animation workspace (switched to a step before: it takes effect between steps): the
    bone's F-curves alone in the Graph Editor, framed."""
    window = bpy.context.window
    screen = window.screen
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)
    bpy.ops.object.mode_set(mode="POSE")
    if ARGS["clip"] and ARGS["clip"] in bpy.data.actions:
        action_api().assign(arm.animation_data, bpy.data.actions[ARGS["clip"]])
    bone = ARGS["bone"] or busiest_bone(arm)
    for pb in arm.pose.bones:  # Blender 5 selects pose bones, earlier Blenders bones
        (pb if hasattr(pb, "select") else pb.bone).select = pb.name == bone
    arm.data.bones.active = arm.data.bones[bone]
    for space in (a.spaces.active for a in screen.areas if a.type == "VIEW_3D"):
        space.shading.type = "SOLID"
        space.shading.color_type = "TEXTURE"
    bpy.context.scene.frame_set(int(ARGS["frame"]))
    # The dope sheet at the bottom of the Animation workspace becomes the Graph Editor.
    editor = area("DOPESHEET_EDITOR")
    editor.type = "GRAPH_EDITOR"
    editor.spaces.active.dopesheet.show_only_selected = True
    editor.spaces.active.use_normalization = True  # location, rotation and scale on one scale
    for a in screen.areas:
        if a.type == "VIEW_3D":
            with bpy.context.temp_override(window=window, area=a, region=a.regions[-1]):
                bpy.ops.view3d.view_all(center=False)
    region = next(r for r in editor.regions if r.type == "WINDOW")
    with bpy.context.temp_override(window=window, area=editor, region=region):
        bpy.ops.graph.select_all(action="SELECT")
        bpy.ops.graph.view_all()


def step(work, then=None, wait=1.0):
    """Runs `work` from a timer, then `then` `wait` seconds later (the UI updates in between);
    any error ends Blender with status 1."""
    def call():
        try:
            work()
            if then is not None:
                bpy.app.timers.register(then, first_interval=wait)
        except Exception:  # noqa: BLE001: the driver reads the exit status
            import traceback
            traceback.print_exc()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(1)
        return None
    return call


STATE = {}


def preferences():
    """The main window and its Preferences area."""
    window = bpy.context.window_manager.windows[0]
    found = next((a for a in window.screen.areas if a.type == "PREFERENCES"), None)
    if found is None:
        raise RuntimeError("no Preferences area")
    return window, found


def run_preferences():
    """Edit > Preferences > Get Extensions as offline (the choice a fresh Blender asks for
    first: "Continue Offline"), the online repository off (offline it only shows an alert).
    Shown in the main window's largest area (the Preferences window's own content: Edit >
    Preferences opens it in a window Blender places partly off an X screen without a
    window manager)."""
    extensions = bpy.context.preferences.extensions
    extensions.use_online_access_handled = True
    for repo in extensions.repos:
        if repo.use_remote_url:
            repo.enabled = False
    bpy.context.preferences.active_section = "EXTENSIONS"
    biggest = max(bpy.context.window.screen.areas, key=lambda a: a.width * a.height)
    biggest.type = "PREFERENCES"


def open_install_menu():
    """The Extensions menu (the arrow at the header's right) opened beside its button (so
    that the button and the whole menu are in the picture)."""
    window, prefs = preferences()
    region = next(r for r in prefs.regions if r.type == "WINDOW")
    STATE["button"] = (region.x + region.width - 120, region.y + region.height - 45)
    window.cursor_warp(*STATE["button"])
    with bpy.context.temp_override(window=window, area=prefs, region=region):
        bpy.ops.wm.call_menu(name="USERPREF_MT_extensions_settings")


def point_at_install():
    """The pointer on the menu's Install from Disk item (the last: the menu's first item
    opens under the pointer, the items a row apart)."""
    window, _ = preferences()
    x, y = STATE["button"]
    window.cursor_warp(x, y - int(INSTALL_ITEM_ROWS * 20 * bpy.context.preferences.system.ui_scale))


# Install from Disk's row in USERPREF_MT_extensions_settings below its first (Blender 5.2):
# Visit Extensions Platform, a separator, Check for Updates, Refresh Local, a separator,
# Install Available Updates, Install from Disk.
INSTALL_ITEM_ROWS = 5


def show_installed():
    """FILE installed into the user repository (what Install from Disk runs), then the
    Add-ons section searched for it, its entry expanded."""
    window, prefs = preferences()
    region = next(r for r in prefs.regions if r.type == "WINDOW")
    with bpy.context.temp_override(window=window, area=prefs, region=region):
        result = bpy.ops.extensions.package_install_files(filepath=ARGS["file"], repo="user_default",
                                                          enable_on_install=True)
    if "FINISHED" not in result:
        raise RuntimeError("Install from Disk of %s: %s" % (ARGS["file"], result))
    module = "bl_ext.user_default.animkit_io"
    if module not in bpy.context.preferences.addons:
        raise RuntimeError("%s is not enabled after the install" % module)
    bpy.context.preferences.active_section = "ADDONS"
    bpy.context.window_manager.addon_search = "animkit"
    with bpy.context.temp_override(window=window, area=prefs, region=region):
        bpy.ops.preferences.addon_expand(module=module)


def run_import():
    STATE["arm"] = import_file()
    if ARGS["shot"] == "graph":
        bpy.context.window.workspace = bpy.data.workspaces["Animation"]


def run_layout():
    if ARGS["shot"] == "graph":
        show_curves(STATE["arm"])



def chain(works, last):
    """Runs WORKS one after the other (a second apart), then LAST two seconds on."""
    then = step(lambda: None, last, 2.0)
    for work in reversed(works):
        then = step(work, then)
    return then


INSTALL_SHOTS = {"install-menu": [open_install_menu, point_at_install], "installed": [show_installed]}


def run():
    shot = ARGS["shot"]
    if shot in INSTALL_SHOTS:
        chain([run_preferences] + INSTALL_SHOTS[shot], lambda: finish(shot))()
    else:
        chain([run_import, run_layout], lambda: finish(shot))()
    return None


def finish(shot):
    bpy.ops.wm.redraw_timer(type="DRAW_WIN_SWAP", iterations=2)
    grab("blender5-%s.png" % shot, preferences()[1] if shot in INSTALL_SHOTS else None)
    os._exit(0)


bpy.app.timers.register(run, first_interval=1.0)
