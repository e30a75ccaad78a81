# Renders the add-on's pictures for docs/blender.md (Cycles on the CPU: headless Blender
# has no GPU context for EEVEE or Workbench):
#
#   blender -b --factory-startup --python tests/blender/render_docs.py -- \
#       --cli build/release/tools/animkit/animkit --samples samples --out docs/images \
#       [--fixtures ../shared/fixtures] [--only NAME]
#
# The characters (textured, skinned) are the real models of ../shared/fixtures: their
# pictures are made only when the folder is given (the files never enter the project).
# Each picture imports a sample with the add-on's operator, then adds what a render needs
# and the armature does not show: tubes for the PS1 model's line meshes, and for a
# skeleton without meshes a stick figure (a ball per joint, a rod to its parent) built
# from the bones' posed positions at the chosen frame.

import math
import os
import sys

import addon_utils
import bpy
from mathutils import Vector

HERE = os.path.dirname(os.path.abspath(__file__))
ADDON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "blender"))

SHOTS = [
    # output name, sample, action (None: the first), frames (several: side by side),
    # view direction (from the target)
    ("blender-ps1-figure.png", "psx_tmd/figure.anm", None, [14], (0.9, -1.6, 0.5)),
    ("blender-edf-soldier-walk.png", "edf_canm/soldier5.canm", "walk", [0, 5, 10, 15], (0.25, -1.4, 0.55)),
    # real models (--fixtures), alone: Sora's MDLX, the EDF5 missile
    ("blender-kh2-sora.png", "fixtures:kh2/P_EX100.mdlx", None, [0], (0.35, -1.4, 0.35)),
    ("blender-edf-airtortoise-missile.png", "fixtures:edf/airtortoise_missile.mdb", None, [0], (0.8, -1.4, 0.6)),
]


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    args = {"cli": "", "samples": "", "out": "", "samples-per-pixel": "16", "only": "", "fixtures": ""}
    for k in range(0, len(argv) - 1, 2):
        args[argv[k].lstrip("-")] = argv[k + 1]
    return args


def reset():
    for coll in (bpy.data.objects, bpy.data.armatures, bpy.data.actions, bpy.data.meshes, bpy.data.cameras,
                 bpy.data.materials, bpy.data.curves, bpy.data.lights):
        for item in list(coll):
            coll.remove(item)


def material(name, color, emission=0.0):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = next(n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
    bsdf.inputs["Base Color"].default_value = (color[0], color[1], color[2], 1.0)
    bsdf.inputs["Roughness"].default_value = 0.6
    if emission > 0 and "Emission Strength" in bsdf.inputs:
        key = "Emission Color" if "Emission Color" in bsdf.inputs else "Emission"
        bsdf.inputs[key].default_value = (color[0], color[1], color[2], 1.0)
        bsdf.inputs["Emission Strength"].default_value = emission
    return mat


def average_color(me):
    attr = me.color_attributes[0] if len(me.color_attributes) else None
    if attr is None or not len(attr.data):
        return (0.8, 0.8, 0.8)
    acc = [0.0, 0.0, 0.0]
    for d in attr.data:
        for k in range(3):
            acc[k] += d.color[k]
    return tuple(a / len(attr.data) for a in acc)


def tube_line_meshes(objects, radius):
    """Line-only meshes (PS1 TMD lines) become round tubes; faces keep their mesh."""
    for obj in objects:
        me = obj.data
        if len(me.polygons) or not len(me.edges):
            continue
        color = average_color(me)
        bpy.ops.object.select_all(action="DESELECT")
        bpy.context.view_layer.objects.active = obj
        obj.select_set(True)
        bpy.ops.object.convert(target="CURVE")
        obj.data.bevel_depth = radius
        obj.data.bevel_resolution = 2
        obj.data.materials.clear()
        obj.data.materials.append(material(obj.name + "_mat", color, emission=0.4))


def stick_figure(arm, radius, offset=Vector()):
    """A ball at every bone's head and a rod to its parent's head, at the current frame,
    moved by `offset`."""
    ball_mat = material("joint", (0.95, 0.55, 0.15))
    rod_mat = material("rod", (0.85, 0.85, 0.9))
    heads = {pb.name: arm.matrix_world @ pb.head + offset for pb in arm.pose.bones}
    for pb in arm.pose.bones:
        bpy.ops.mesh.primitive_uv_sphere_add(radius=radius * 1.8, location=heads[pb.name], segments=16,
                                             ring_count=8)
        bpy.context.object.data.materials.append(ball_mat)
        if pb.parent is None:
            continue
        a, b = heads[pb.parent.name], heads[pb.name]
        d = b - a
        if d.length < 1e-6:
            continue
        bpy.ops.mesh.primitive_cylinder_add(radius=radius, depth=d.length, location=(a + b) / 2, vertices=12)
        rod = bpy.context.object
        rod.rotation_mode = "QUATERNION"
        rod.rotation_quaternion = d.to_track_quat("Z", "Y")
        rod.data.materials.append(rod_mat)


def bounds(objects):
    lo = Vector((math.inf,) * 3)
    hi = Vector((-math.inf,) * 3)
    bpy.context.view_layer.update()
    for obj in objects:
        if obj.type not in ("MESH", "CURVE"):
            continue
        for c in obj.bound_box:
            w = obj.matrix_world @ Vector(c)
            lo = Vector(map(min, lo, w))
            hi = Vector(map(max, hi, w))
    return lo, hi


def stage(lo, hi, direction):
    scene = bpy.context.scene
    center = (lo + hi) / 2
    size = max((hi - lo).length, 1e-3)
    # ground
    bpy.ops.mesh.primitive_plane_add(size=size * 8, location=(center.x, center.y, lo.z))
    bpy.context.object.data.materials.append(material("ground", (0.18, 0.2, 0.24)))
    # light
    sun = bpy.data.lights.new("sun", "SUN")
    sun.energy = 3.0
    sun.angle = math.radians(1)
    sun_obj = bpy.data.objects.new("sun", sun)
    scene.collection.objects.link(sun_obj)
    sun_obj.rotation_euler = (math.radians(40), math.radians(10), math.radians(30))
    fill = bpy.data.lights.new("fill", "SUN")
    fill.energy = 1.2
    if hasattr(fill, "cycles") and hasattr(fill.cycles, "cast_shadow"):
        fill.cycles.cast_shadow = False  # Blender 3.x
    else:
        fill.use_shadow = False  # Blender 4.x
    fill_obj = bpy.data.objects.new("fill", fill)
    scene.collection.objects.link(fill_obj)
    fill_obj.rotation_euler = (math.radians(-50), math.radians(0), math.radians(200))
    # camera
    cam = bpy.data.cameras.new("view")
    cam.lens = 35
    cam.sensor_fit = "HORIZONTAL"
    cam_obj = bpy.data.objects.new("view", cam)
    scene.collection.objects.link(cam_obj)
    d = Vector(direction).normalized()
    # far enough for the bounding sphere to fit the picture's width and the height to
    # fit its height (16:9)
    half_h = math.atan(cam.sensor_width / 2 / cam.lens)
    half_v = math.atan(cam.sensor_width * 9 / 16 / 2 / cam.lens)
    dist = max((size / 2) / math.sin(half_h), (hi.z - lo.z) / 2 / math.tan(half_v) + (size / 2)) * 1.05
    cam_obj.location = center + d * dist
    cam_obj.rotation_mode = "QUATERNION"
    cam_obj.rotation_quaternion = (-d).to_track_quat("-Z", "Y")
    cam.clip_start = size * 0.01
    cam.clip_end = size * 100
    scene.camera = cam_obj
    world = bpy.data.worlds.new("sky") if scene.world is None else scene.world
    scene.world = world
    world.use_nodes = True
    bg = world.node_tree.nodes.get("Background")
    if bg is not None:
        bg.inputs["Color"].default_value = (0.55, 0.62, 0.72, 1.0)
        bg.inputs["Strength"].default_value = 1.0
    # The sky is seen but lights nothing: the suns alone light the scene, almost without noise.
    world.cycles_visibility.diffuse = False
    world.cycles_visibility.glossy = False
    world.cycles_visibility.transmission = False
    world.cycles_visibility.scatter = False


def render(path, spp):
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = spp
    # Debian's Blender has no OpenImageDenoise: keep the noise (and the PNG) small with few
    # bounces, clamped samples and a wide pixel filter.
    scene.cycles.use_denoising = False
    scene.cycles.max_bounces = 2
    scene.cycles.sample_clamp_indirect = 1.0
    scene.cycles.filter_width = 2.0
    scene.view_settings.view_transform = "Standard"
    scene.render.dither_intensity = 0.0
    scene.render.resolution_x = 640
    scene.render.resolution_y = 360
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    scene.render.image_settings.compression = 100
    scene.render.filepath = path
    bpy.ops.render.render(write_still=True)


def where(args, rel):
    """A shot's file: under --samples, or "fixtures:..." under --fixtures (None without it)."""
    if rel.startswith("fixtures:"):
        path = os.path.join(args["fixtures"], rel[len("fixtures:"):]) if args["fixtures"] else ""
        return path if path and os.path.isfile(path) else None
    return os.path.join(args["samples"], rel)


def main():
    args = parse_args()
    sys.path.insert(0, ADDON_DIR)
    addon_utils.enable("animkit_io", default_set=True, handle_error=None)
    prefs = bpy.context.preferences.addons["animkit_io"].preferences
    prefs.use_custom_animkit = True
    prefs.animkit_path = args["cli"]
    os.makedirs(args["out"], exist_ok=True)
    for name, rel, action_name, frames, direction, *model in SHOTS:
        path, skeleton = where(args, rel), where(args, model[0]) if model else ""
        if args["only"] not in name or path is None or skeleton is None:
            continue
        reset()
        result = bpy.ops.import_scene.animkit(filepath=path, skeleton_path=skeleton)
        assert result == {"FINISHED"}, result
        arm = next(o for o in bpy.data.objects if o.type == "ARMATURE")
        if action_name:
            from animkit_io.blender import action_api
            action_api.assign(arm.animation_data, bpy.data.actions[action_name])
        bpy.context.scene.frame_set(frames[-1])
        meshes = [o for o in bpy.data.objects if o.type == "MESH" and o.parent == arm]
        bpy.context.view_layer.update()
        lo, hi = bounds(meshes) if meshes else (None, None)
        size = (hi - lo).length if meshes else max(
            ((arm.matrix_world @ a.head) - (arm.matrix_world @ b.head)).length
            for a in arm.pose.bones for b in arm.pose.bones)
        if meshes:
            tube_line_meshes(meshes, size * 0.006)
        else:
            for k, frame in enumerate(frames):  # side by side, like a film strip
                bpy.context.scene.frame_set(frame)
                stick_figure(arm, size * 0.012, Vector((size * 0.8 * k, 0.0, 0.0)))
        arm.hide_render = True
        stage(*bounds([o for o in bpy.data.objects if o.type in ("MESH", "CURVE")]), direction)
        out = os.path.join(os.path.abspath(args["out"]), name)
        render(out, int(args["samples-per-pixel"]))
        print("rendered %s (%d bytes)" % (out, os.path.getsize(out)))


main()
