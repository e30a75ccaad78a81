# Import: runs animkit once on a file and builds the Blender data (armature, actions, NLA
# tracks, markers, meshes, camera) from the import file it writes (import_data.py):
#   animkit import-data FILE -o F [--skeleton S|auto] [--clip PATTERN]...   one decode:
#       the companion skeleton, the nodes of the glTF animkit writes for it (hierarchy,
#       rest pose, meshes, cameras, clip extras) and each chosen clip's channels as stored
#
# Bones. Bone i stands for glTF node i (animkit_root is left out). Its rest matrix B_i is
# rigid: the joint's model-space rest translation and rotation (Blender bones cannot hold
# a rest scale). With L_i = B_parent^-1 B_i (B of no parent = identity) and the joint's
# parent-relative transform A_i at a frame, the pose basis is L_i^-1 A_i; Blender then
# composes pose_i = pose_parent L_i basis_i = the joint's model-space transform exactly,
# scale included (inherit_scale FULL, no connected bones). L_i is rigid, so the basis
# keeps A_i's scale and only translation and rotation are transformed.
#
# Clips with their own curves (import file version 3) get a control rig instead: one
# control bone per node with the identity rest at the origin, keyed 1:1 with the file's
# curves, the bones above copying them (actions_build.py, docs/blender.md "The control rig").
#
# Frames: clip frame k (time k / frame_rate) is Blender frame k; every clip starts at 0.
# Keys: the glTF's keys as stored (keys.py). The bottom NLA track plays the rest-pose
# action (one constant key of the rest per property some imported clip keys) under the
# active action, so that switching actions never leaves a bone where the previous action
# put it; each clip's action is on a muted track of its own above.

import math
import os
import tempfile

import bpy
from mathutils import Matrix, Quaternion, Vector

from ..io import cli, curves as curvesmod, formats, import_data, rig as rigmod, root_motion as rootmod, slots
from . import action_api, actions_build, mesh_build

UP_AXES = {
    # id: (label, description)
    "AUTO": ("Automatic", "The format's own up axis (animkit formats --json): -Y for the PS1 formats, "
                          "whose Y points down; +Z for Metroid Prime's, Blender's own; +Y for the others"),
    "Y_UP": ("Y up -> Z up", "The source's +Y becomes Blender's +Z (armature object rotated 90 degrees about X)"),
    "Y_DOWN": ("-Y up -> Z up", "The source's -Y becomes Blender's +Z (armature object rotated -90 degrees about X)"),
    "KEEP": ("Keep source axes", "No rotation: the source's axes are Blender's"),
}

def up_axis_matrix(up_axis, fmt, root_rotation=None):
    """The armature object's turn and its id. `root_rotation`: the glTF scene root's rest
    (x, y, z, w); a glb of a Z-up source carries a quarter turn there taking +Z to +Y
    (docs/gltf.md), which the poses do not include: Automatic keeps such a glb's axes."""
    if up_axis == "AUTO":
        up_axis = {"-Y": "Y_DOWN", "+Z": "KEEP"}.get(formats.up_axis(fmt), "Y_UP")
        if up_axis == "Y_UP" and root_rotation is not None and _turns_z_to_y(root_rotation):
            up_axis = "KEEP"
    if up_axis == "Y_UP":
        return Matrix.Rotation(math.pi / 2, 4, "X"), up_axis
    if up_axis == "Y_DOWN":
        return Matrix.Rotation(-math.pi / 2, 4, "X"), up_axis
    return Matrix.Identity(4), "KEEP"


def _turns_z_to_y(xyzw):
    up = _quat(xyzw) @ Vector((0.0, 0.0, 1.0))
    return (up - Vector((0.0, 1.0, 0.0))).length < 1e-4


class ImportResult:
    def __init__(self):
        self.armature = None
        self.actions = []
        self.objects = []
        self.messages = []  # (level, text) for the operator to report
        self.skeleton = ""


# ---------------------------------------------------------------------------------------
# Small math on (translation Vector, rotation Quaternion) pairs


def _quat(xyzw):
    return Quaternion((xyzw[3], xyzw[0], xyzw[1], xyzw[2]))


def _trs_matrix(t, q, s):
    return Matrix.LocRotScale(Vector(t), q, Vector(s))


def _rigid(m):
    """A matrix's translation and rotation (scale and shear dropped)."""
    loc, rot, _scale = m.decompose()
    rot.normalize()
    return loc, rot


def _model_size(rig, rest_model, scene):
    pts = [rest_model[i].translation for i, n in enumerate(rig["nodes"]) if rigmod.is_bone(n)]
    for mesh in scene.meshes:
        for prim in mesh.primitives:
            pts.extend(Vector(p) for p in prim.positions)
    if not pts:
        return 1.0
    extent = max(max(p[k] for p in pts) - min(p[k] for p in pts) for k in range(3))
    return extent if extent > 0 else 1.0


# ---------------------------------------------------------------------------------------


def clip_patterns(text):
    """The dialog's clip filter ("*ATTACK*", "A000, A001") as import-data's --clip patterns."""
    return [p.strip() for p in (text or "").split(",") if p.strip()]


class _Progress:
    """window_manager.progress_* over the import's steps (a no-op without a window manager)."""

    def __init__(self, context, total):
        self.wm = getattr(context, "window_manager", None)
        self.total = max(1, total)
        if self.wm is not None:
            self.wm.progress_begin(0, self.total)

    def update(self, done):
        if self.wm is not None:
            self.wm.progress_update(min(done, self.total))

    def end(self):
        if self.wm is not None:
            self.wm.progress_end()


def import_file(context, filepath, exe, skeleton="", options=(), up_axis="AUTO", meshes=True, clips="", scale=1.0):
    """Imports `filepath` (only the clips `clips` selects: names or globs, comma-separated;
    empty: every clip); returns an ImportResult. Raises cli.AnimkitError. `scale`: Blender
    metres per file unit, the armature object's scale (see scale_armature)."""
    if not (math.isfinite(scale) and scale > 0):
        raise cli.AnimkitError("the import scale must be a positive number (%r)" % scale)
    result = ImportResult()
    filepath = os.path.abspath(filepath)
    options = list(options)
    skeleton = os.path.abspath(skeleton) if skeleton else ""
    clip_args = [a for p in clip_patterns(clips) for a in ("--clip", p)]
    progress = _Progress(context, 100)
    try:
        with tempfile.TemporaryDirectory(prefix="animkit_import_") as tmp:
            path = os.path.join(tmp, "import.akd")
            warnings = cli.import_data(exe, filepath, path, skeleton or "auto", options + clip_args)
            progress.update(10)
            data = import_data.read(path)
        progress.update(15)
        _import_data(context, result, filepath, skeleton, options, (up_axis, scale), meshes, data, warnings,
                     progress)
    finally:
        progress.end()
    scale_armature(result, scale)
    return result


def scale_armature(result, scale):
    """The import's scale, on the armature object only (as the up axis): bones, actions and
    meshes stay in the file's units, in the armature's space, which is what export reads,
    so a scaled rig exports the same numbers (docs/blender.md, "Units")."""
    arm = result.armature
    arm.matrix_world = arm.matrix_world @ Matrix.Scale(scale, 4)
    arm["animkit_scale"] = scale
    bpy.context.view_layer.update()
    zs = [(o.matrix_world @ Vector(c)).z for o in result.objects if o.type == "MESH" for c in o.bound_box]
    size = " (its meshes span %.4g m in height)" % (max(zs) - min(zs)) if zs and max(zs) > min(zs) else ""
    result.messages.append(("INFO", "scale %g: 1 file unit is %g m in Blender%s; the file keeps its own units "
                            "(docs/conventions.md)" % (scale, scale, size)))


def _import_data(context, result, filepath, skeleton, options, placement, meshes, data, warnings, progress):
    if skeleton:
        note = "skeleton %s (given)" % os.path.basename(skeleton)
    else:
        skeleton = os.path.abspath(data.skeleton_file) if data.skeleton_file else ""
        note = data.skeleton_note or ("skeleton: %s" % skeleton if skeleton else "no skeleton")
    result.skeleton = skeleton
    result.messages.append(("INFO", note))
    # the header's warnings are folded by animkit as its stderr is (one line per kind and joint)
    for w in warnings + list(data.header.get("warnings", [])):
        result.messages.append(("WARNING", w))
    _build(context, result, filepath, data, skeleton, options, placement, meshes, progress)
    chosen = "" if len(data.clips) == len(data.file_clips) else " of %d" % len(data.file_clips)
    bones = result.armature.data.bones
    controls = sum(1 for b in bones if b.name.startswith(curvesmod.CONTROL_PREFIX) and not b.use_deform and
                   any(c.type == "COPY_TRANSFORMS" and c.subtarget == b.name
                       for pb in result.armature.pose.bones for c in pb.constraints))
    result.messages.append(("INFO", "%s: %d bones%s, %d clips%s (%d actions)" % (
        os.path.basename(filepath), len(bones) - controls, " (and %d control bones)" % controls if controls else "",
        len(data.clips), chosen, len(result.actions))))


def _build(context, result, filepath, data, skeleton, options, placement, want_meshes, progress):
    """`placement`: the import's (up axis, scale) of the armature object."""
    fmt, scene, clips = data.format, data.scene, data.clips
    up_axis, scale = placement
    skinned = {n.index for n in scene.nodes if n.mesh is not None and n.skin is not None}
    rig = rigmod.rig_from_scene(scene, skinned)
    nodes = rig["nodes"]
    # The clips' root-motion joint (extras: docs/blender.md "Root motion") is no bone: the object moves.
    motion_node = rootmod.find_node(rig, [c.extras for c in clips]) if _control_rig(clips) is None else None
    if motion_node is not None:
        nodes[motion_node][rootmod.FLAG] = True
    _rest_local, rest_model = _rest_matrices(nodes)
    order = rigmod.bone_order(rig)
    parents = {i: rigmod.bone_parent(rig, i) for i in order}
    controls = _control_rig(clips)
    obj, axis_id = _build_armature(context, os.path.basename(filepath), fmt, up_axis, nodes, order, parents,
                                   rest_model, _model_size(rig, rest_model, scene), controls)
    offsets = _rest_offsets(obj, nodes, order, parents)
    if controls is not None:
        _follow_controls(obj, nodes, order, controls)

    # --- properties
    obj["animkit_source"] = filepath
    obj["animkit_format"] = fmt
    obj["animkit_skeleton"] = skeleton
    # The file's clip names (export asks how many clips the source holds); not `info`.
    obj["animkit_info"] = rigmod.dumps({"clips": [{"name": n} for n in data.file_clips]})
    obj["animkit_options"] = rigmod.dumps(options)
    obj["animkit_up_axis"] = axis_id
    obj["animkit_rig"] = rigmod.dumps(rig)
    result.armature = obj
    result.objects.append(obj)

    shared = _shared_clips(clips)
    counts = actions_build.KeyCounts()
    motion = None
    if motion_node is not None:
        motion = actions_build.ObjectMotion(motion_node, axis_id, scale)
        obj.rotation_mode = "QUATERNION"
        result.messages.append(("INFO", "root motion: joint %s's keys are the armature object's location and "
                                "rotation (no bone)" % rootmod.JOINT_NAME))
    result.actions = _build_clips(context, obj, rig, order, parents, offsets, clips, shared, progress, controls,
                                  counts, motion)
    if controls is not None:
        result.messages.append(("INFO", "control rig (%s, %s scale): %d keys of curve-moved joints (file stores %d), "
                                "%d constant keys of their other axes, %d keys of their properties no curve keys, "
                                "%d baked keys of driven joints" % (
                                    controls.rotation_mode, "per-axis" if controls.per_axis else "matrix",
                                    counts.curve_keys, counts.stored_keys, counts.constant_keys, counts.other_keys,
                                    counts.baked_keys)))
        if counts.unmatched:
            result.messages.append(("WARNING", "%d curves of joints the scene has no node for were left out" %
                                    counts.unmatched))
        mirrored = [nodes[i]["name"] for i in sorted(counts.mirrored) if any(parents[c] == i for c in order)]
        if mirrored and controls.per_axis:
            # Blender's Aligned inheritance is the per-axis rule for scales >= 0 only
            result.messages.append(("WARNING", "joints scaled negatively (mirrored) with children: %s; Blender puts "
                                    "the mirror on the children's rotation, so their pose is not the game's there" %
                                    ", ".join(mirrored[:10])))
    for action in result.actions:
        linked = rigmod.loads(action.get("animkit_linked_slots", ""), [])
        if linked:
            result.messages.append(("INFO", "one action for linked slots: " + slots.shared_note(action.name, linked)))
    scene_ctx = context.scene
    scene_ctx.frame_set(scene_ctx.frame_start if result.actions else scene_ctx.frame_current)
    _attach_objects(context, result, obj, nodes, scene, want_meshes, skinned)
    context.view_layer.update()


def clips_onto(context, obj, rig, clips):
    """Clips (import_data.Clip, channels on `rig`'s nodes) as actions on the existing armature
    `obj` whose rig is `rig`, on NLA tracks as an import makes them (retargeting)."""
    order = [i for i in rigmod.bone_order(rig) if rig["nodes"][i].get("bone") in obj.data.bones]
    parents = {i: rigmod.bone_parent(rig, i) for i in order}
    offsets = _rest_offsets(obj, rig["nodes"], order, parents)
    progress = _Progress(context, 100)
    try:
        actions = _build_clips(context, obj, rig, order, parents, offsets, clips, {}, progress)
    finally:
        progress.end()
    context.scene.frame_set(context.scene.frame_start)
    context.view_layer.update()
    return actions


def _rest_matrices(nodes):
    """Rest matrices, parent-relative and model space, with scale (for composing). animkit_root
    counts as the identity: its turn (a Z-up source's quarter turn to glTF's +Y, docs/gltf.md)
    is for glTF viewers, the poses are below it, and the armature object holds Blender's turn."""
    rest_local = [Matrix.Identity(4) if n["kind"] == rigmod.KIND_ROOT else _trs_matrix(n["t"], _quat(n["r"]), n["s"])
                  for n in nodes]
    rest_model = [None] * len(nodes)

    def model(i, depth=0):
        if rest_model[i] is None:
            p = nodes[i]["parent"]
            rest_model[i] = rest_local[i] if p < 0 or depth > len(nodes) else model(p, depth + 1) @ rest_local[i]
        return rest_model[i]

    for i in range(len(nodes)):
        model(i)
    return rest_local, rest_model


class ControlRig:
    """Whether the import builds control bones (some clip carries its own curves), their
    rotation mode and scale rule (per-axis: inherit scale Aligned, which is that rule)."""

    def __init__(self, rotation_mode, per_axis):
        self.rotation_mode = rotation_mode
        self.per_axis = per_axis


def _control_rig(clips):
    with_curves = [c for c in clips if c.curves is not None]
    if not with_curves:
        return None
    modes = {c.curves.rotation_mode for c in with_curves}
    if len(modes) > 1:
        raise cli.AnimkitError("the clips' curves use rotation modes %s: one armature holds one" % sorted(modes))
    per_axis = any(c.extras.get("scale_inheritance") == "per_axis" for c in clips)
    return ControlRig(modes.pop(), per_axis)


def _build_armature(context, name, fmt, up_axis, nodes, order, parents, rest_model, size, controls=None):
    """The armature object with one bone per node (rigid rest matrices) and, for a
    control rig, one control bone per node (identity rest at the origin); returns it and
    the up axis applied."""
    children = {}
    for i in order:
        children.setdefault(parents[i], []).append(i)
    if context.view_layer.objects.active is not None and context.view_layer.objects.active.mode != "OBJECT":
        bpy.ops.object.mode_set(mode="OBJECT")
    arm = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, arm)
    context.collection.objects.link(obj)
    for o in context.view_layer.objects:
        o.select_set(False)
    context.view_layer.objects.active = obj
    obj.select_set(True)
    root = next((n for n in nodes if n["kind"] == rigmod.KIND_ROOT), None)
    axis, axis_id = up_axis_matrix(up_axis, fmt, root["r"] if root is not None else None)
    obj.matrix_world = axis
    obj.show_in_front = True

    bpy.ops.object.mode_set(mode="EDIT")
    edit_bones = {}
    for i in order:
        n = nodes[i]
        eb = arm.edit_bones.new(n["name"][:63] or "node_%d" % i)
        head = rest_model[i].translation
        length = 0.0
        for c in children.get(i, []):
            d = (rest_model[c].translation - head).length
            if d > 1e-4 * size:
                length = d
                break
        if length <= 0.0:
            length = 0.1 * size
        eb.head = (0.0, 0.0, 0.0)
        eb.tail = (0.0, length, 0.0)
        loc, rot = _rigid(rest_model[i])
        eb.matrix = Matrix.Translation(loc) @ rot.to_matrix().to_4x4()
        eb.use_connect = False
        eb.inherit_scale = "FULL"
        eb.use_deform = n["kind"] == rigmod.KIND_JOINT
        edit_bones[i] = eb
        n["bone"] = eb.name
    for i in order:
        if parents[i] >= 0:
            edit_bones[i].parent = edit_bones[parents[i]]
    if controls is not None:
        # Identity rest at the origin: the pose basis is the local transform itself.
        control_bones = {}
        for i in order:
            eb = arm.edit_bones.new(curvesmod.control_name(nodes[i]["bone"]))
            eb.head = (0.0, 0.0, 0.0)
            eb.tail = (0.0, edit_bones[i].length, 0.0)
            eb.roll = 0.0
            eb.use_connect = False
            eb.inherit_scale = "ALIGNED" if controls.per_axis else "FULL"
            eb.use_deform = False
            control_bones[i] = eb
            nodes[i]["control"] = eb.name
        for i in order:
            if parents[i] >= 0:
                control_bones[i].parent = control_bones[parents[i]]
    bpy.ops.object.mode_set(mode="OBJECT")
    return obj, axis_id


CONTROL_CONSTRAINT = "animkit control"


def _follow_controls(obj, nodes, order, controls):
    """Each deform bone copies its control bone's pose (armature space: the joint's model
    transform); control bones rotate in the curves' Euler mode."""
    for i in order:
        pb = obj.pose.bones[nodes[i]["bone"]]
        con = pb.constraints.new("COPY_TRANSFORMS")
        con.name = CONTROL_CONSTRAINT
        con.target = obj
        con.subtarget = nodes[i]["control"]
        con.target_space = "WORLD"
        con.owner_space = "WORLD"
        obj.pose.bones[nodes[i]["control"]].rotation_mode = controls.rotation_mode
        # both stand at the same pose: show the ones a modder edits (H / Alt+H in pose mode)
        obj.data.bones[nodes[i]["bone"]].hide = True


def _rest_offsets(obj, nodes, order, parents):
    """Per bone (Lt, Lq^-1) from the actual rest matrices (Blender stores head, tail and
    roll in float32): basis = Lq^-1 (A - Lt)."""
    arm = obj.data
    bones = {i: arm.bones[nodes[i]["bone"]] for i in order}
    offsets = {}
    for i in order:
        b = bones[i].matrix_local
        p = parents[i]
        lm = b if p < 0 else bones[p].matrix_local.inverted() @ b
        lt, lq = _rigid(lm)
        offsets[i] = (lt, lq.inverted())
    for i in order:
        obj.pose.bones[nodes[i]["bone"]].rotation_mode = "QUATERNION"
    return offsets


def _shared_clips(clips):
    """{index of a link slot's clip: index of the clip holding its data} for the link
    entries the library lists whose channels and events are those of their target."""
    index = {c.name: k for k, c in enumerate(clips)}
    out = {}
    listed = {"clips": [{"name": c.name, "shares_data_with": c.shares_data_with} for c in clips]}
    for linked, target in slots.linked_clips(listed, [c.name for c in clips]).items():
        a, b = clips[index[linked]], clips[index[target]]
        if a.same_data(b) and a.events == b.events:
            out[index[linked]] = index[target]
    return out


def _build_clips(context, obj, rig, order, parents, offsets, clips, shared, progress, controls=None, counts=None,
                 motion=None):
    """One action per clip on its own muted NLA track, the first active; the scene's
    rate and range from the first. A link slot's clip (`shared`) is its target's action,
    the linked slots' names recorded on it. Without clips: the rest pose."""
    nodes = rig["nodes"]
    actions = []
    by_clip = {}
    # A control rig's rest-pose action holds the value most clips hold all clip long.
    defaults = actions_build.control_defaults([c for k, c in enumerate(clips) if k not in shared], nodes, order,
                                              controls.rotation_mode) if controls is not None else None
    for k, clip in enumerate(clips):
        progress.update(15 + 80 * k // max(1, len(clips)))
        if k in shared:
            target = by_clip[shared[k]]
            target["animkit_linked_slots"] = rigmod.dumps(rigmod.loads(target.get("animkit_linked_slots", ""), []) +
                                                          [clip.name])
            continue
        if controls is not None:
            by_clip[k] = actions_build.build_control_action(rig, order, parents, clip, controls.rotation_mode, counts,
                                                            defaults)
        else:
            by_clip[k] = actions_build.build_action(rig, order, parents, offsets, clip, motion)
        actions.append(by_clip[k])
    for i in order:  # the rest pose for what no action keys (and without clips)
        pb = obj.pose.bones[nodes[i]["bone"]]
        lt, lqi = offsets[i]
        t, q, s = Vector(nodes[i]["t"]), _quat(nodes[i]["r"]), Vector(nodes[i]["s"])
        pb.location = lqi @ (t - lt)
        pb.rotation_quaternion = lqi @ q
        pb.scale = s
        if controls is not None:
            cb = obj.pose.bones[nodes[i]["control"]]
            cb.location, cb.scale = t, s
            cb.rotation_euler = q.to_euler(controls.rotation_mode)
    if not actions:
        return actions
    ad = obj.animation_data_create()
    keyed = actions_build.keyed_paths(clips, set(order)) if controls is None else True
    if keyed:
        if controls is not None:
            rest = actions_build.build_control_rest_action(rig, order, controls.rotation_mode, obj.name + " rest pose",
                                                           defaults)
        else:
            rest = actions_build.build_rest_action(rig, order, offsets, keyed, obj.name + " rest pose")
            if motion is not None:
                actions_build.write_object_rest(rest, nodes[motion.node], motion)
        track = ad.nla_tracks.new()
        track.name = rest.name
        strip = track.strips.new(rest.name, 0, rest)
        strip.name = rest.name
        strip.extrapolation = "HOLD"
        action_api.strip_slot(strip, rest)
    additive = set() if controls is not None else {
        id(by_clip[k]) for k, c in enumerate(clips) if k in by_clip and actions_build.additive_of(c) is not None}
    for action in actions:
        track = ad.nla_tracks.new()
        track.name = action.name
        strip = track.strips.new(action.name, 0, action)
        strip.name = action.name
        # An additive clip's deltas go over what is below: Combine multiplies quaternions
        # (base @ delta, the game's rule) and adds locations; Add would sum quaternion components.
        if id(action) in additive:
            strip.blend_type = "COMBINE"
        action_api.strip_slot(strip, action)
        track.mute = True
    action_api.assign(ad, actions[0])
    if id(actions[0]) in additive:
        ad.action_blend_type = "COMBINE"
    first = clips[0]
    rate = first.frame_rate or 30.0
    fps = max(1, int(round(rate)))
    scene_ctx = context.scene
    scene_ctx.render.fps = fps
    scene_ctx.render.fps_base = fps / rate
    scene_ctx.frame_start = 0
    scene_ctx.frame_end = max(0, first.frame_count - 1)
    return actions


def _attach_objects(context, result, obj, nodes, scene, want_meshes, skinned):
    """Meshes and cameras: a skinned mesh on the armature (mesh_build.py), a rigid one
    (with its materials) and a camera on its node's bone."""
    if want_meshes:
        cache = mesh_build.MaterialCache(scene)
        bone_of_node = {i: n["bone"] for i, n in enumerate(nodes) if n["bone"]}
        for i, n in enumerate(nodes):
            if i in skinned and want_meshes:
                mobj = mesh_build.build_gltf_mesh(scene.meshes[n["mesh"]].name, scene.meshes[n["mesh"]].primitives,
                                                  True, bone_of_node, obj, cache, scene.meshes[n["mesh"]])
                context.collection.objects.link(mobj)
                _hide_if_marked(mobj, scene.meshes[n["mesh"]])
                result.objects.append(mobj)
                continue
            if n["mesh"] is None or n["kind"] == rigmod.KIND_ROOT or not n["bone"]:
                continue
            # materials, UVs and normals as a skinned mesh has them; on its bone
            mobj = mesh_build.build_gltf_mesh(scene.meshes[n["mesh"]].name, scene.meshes[n["mesh"]].primitives,
                                              False, bone_of_node, obj, cache, scene.meshes[n["mesh"]])
            context.collection.objects.link(mobj)
            _hide_if_marked(mobj, scene.meshes[n["mesh"]])
            _parent_to_bone(mobj, obj, n["bone"])
            result.objects.append(mobj)
        obj["animkit_materials"] = cache.every_material()
    for n in nodes:
        if n["camera"] is None or not n["bone"] or n["camera"] >= len(scene.cameras):
            continue
        cobj = _build_camera(scene.cameras[n["camera"]], n["name"])
        context.collection.objects.link(cobj)
        _parent_to_bone(cobj, obj, n["bone"])
        result.objects.append(cobj)
        if context.scene.camera is None:
            context.scene.camera = cobj


def _hide_if_marked(mobj, mesh):
    """A mesh its file marks hidden (KH2's shadow model) starts hidden in the viewport and
    in renders; the eye icon (or Alt+H) shows it."""
    if not mesh.hidden:
        return
    mobj["animkit_hidden"] = True
    mobj.hide_render = True
    try:
        mobj.hide_set(True)
    except RuntimeError:  # not in the active view layer
        mobj.hide_viewport = True


def _parent_to_bone(child, arm_obj, bone_name):
    """Parents `child` to the bone so its world matrix is the bone's pose matrix (Blender
    places a bone's children at the bone's tail: the parent inverse moves them back)."""
    child.parent = arm_obj
    child.parent_type = "BONE"
    child.parent_bone = bone_name
    length = arm_obj.data.bones[bone_name].length
    child.matrix_parent_inverse = Matrix.Translation((0.0, -length, 0.0))
    child.matrix_basis = Matrix.Identity(4)


def _build_camera(cam, name):
    data = bpy.data.cameras.new(cam.get("name", name))
    if cam.get("type") == "orthographic":
        o = cam.get("orthographic", {})
        data.type = "ORTHO"
        data.ortho_scale = 2.0 * max(o.get("xmag", 1.0), o.get("ymag", 1.0))
        data.clip_start = o.get("znear", 0.1)
        data.clip_end = o.get("zfar", 100.0)
    else:
        p = cam.get("perspective", {})
        data.sensor_fit = "VERTICAL"
        data.angle_y = p.get("yfov", 0.8)
        data.clip_start = p.get("znear", 0.1)
        data.clip_end = p.get("zfar", 1000.0) if p.get("zfar") else 1e6
    return bpy.data.objects.new(name, data)
