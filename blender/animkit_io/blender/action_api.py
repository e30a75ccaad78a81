# Actions' F-curves across Blender versions. Up to 4.3 an action holds its F-curves
# directly (action.fcurves). Blender 4.4 made actions layered: layers of keyframe strips
# holding one channel bag of F-curves per slot, the object animated through one slot
# (4.4 and 4.5 keep action.fcurves as a proxy; 5.0 removed it). The layered path is taken
# where the API has it (feature-detected): tested on Blender 5.2, the direct one on 4.3 and
# 3.4 (docs/blender.md). The add-on and its tests reach F-curves, the active action and NLA
# strips' actions only through this module.

import bpy

SLOT_ID_TYPE = "OBJECT"


def layered(action):
    return hasattr(action, "layers") and hasattr(action, "slots")


def _object_slot(action, create=False):
    for slot in action.slots:
        if getattr(slot, "target_id_type", SLOT_ID_TYPE) in (SLOT_ID_TYPE, "UNSPECIFIED"):
            return slot
    return action.slots.new(id_type=SLOT_ID_TYPE, name=action.name) if create else None


def _channelbag(action, create=False):
    slot = _object_slot(action, create)
    if slot is None:
        return None
    for layer in action.layers:
        for strip in layer.strips:
            bag = strip.channelbag(slot) if hasattr(strip, "channelbag") else None
            if bag is not None:
                return bag
    if not create:
        return None
    layer = action.layers[0] if len(action.layers) else action.layers.new("Layer")
    strip = layer.strips[0] if len(layer.strips) else layer.strips.new(type="KEYFRAME")
    return strip.channelbags.new(slot)


def fcurves(action):
    """The F-curves that animate the armature object (any Blender)."""
    if layered(action):
        bag = _channelbag(action)
        return list(bag.fcurves) if bag is not None else []
    return list(action.fcurves)


def new_fcurve(action, data_path, index, group):
    if layered(action):
        return _channelbag(action, create=True).fcurves.new(data_path, index=index, group_name=group)
    return action.fcurves.new(data_path, index=index, action_group=group)


def remove_fcurve(action, fcurve):
    if layered(action):
        bag = _channelbag(action)
        if bag is not None:
            bag.fcurves.remove(fcurve)
        return
    action.fcurves.remove(fcurve)


# Keys closer than this (frames) are one key to FCurve.update() from Blender 4 on.
CLOSE_KEYS = 0.01
_MERGES_CLOSE_KEYS = None


def update_merges_close_keys():
    """Whether FCurve.update() merges keys less than CLOSE_KEYS apart, keeping the later
    one with a left handle of its own (4.3 and 5.2 do; 3.4 keeps both). Probed once."""
    global _MERGES_CLOSE_KEYS
    if _MERGES_CLOSE_KEYS is None:
        import bpy
        probe = bpy.data.actions.new("animkit probe")
        try:
            fc = new_fcurve(probe, "location", 0, "probe")
            fc.keyframe_points.add(2)
            fc.keyframe_points.foreach_set("co", [0.0, 0.0, CLOSE_KEYS / 10, 0.0])
            fc.update()
            _MERGES_CLOSE_KEYS = len(fc.keyframe_points) < 2
        finally:
            bpy.data.actions.remove(probe)
    return _MERGES_CLOSE_KEYS


def _slot_for(owner, action):
    """The action's object slot, named after `owner` as Blender names the slot it keys:
    Blender 4.4+ picks a slot on assignment by the name of the slot played before, so with
    every action's slot named after the armature, choosing another action in the Action
    Editor plays it (named after the action, it played nothing)."""
    slot = _object_slot(action)
    if slot is not None and hasattr(slot, "name_display") and owner is not None and slot.name_display != owner.name:
        slot.name_display = owner.name
    return slot


def assign(anim_data, action):
    """Makes `action` the active action (and, layered, its object slot the one used)."""
    anim_data.action = action
    if layered(action) and hasattr(anim_data, "action_slot"):
        slot = _slot_for(anim_data.id_data, action)
        if slot is not None:
            anim_data.action_slot = slot


def strip_slot(strip, action):
    """Layered actions: an NLA strip plays the action's object slot."""
    if layered(action) and hasattr(strip, "action_slot"):
        slot = _slot_for(strip.id_data, action)
        if slot is not None:
            strip.action_slot = slot


_BONES_PREFIX = 'pose.bones["'


def curves_by_bone(arm_obj, action):
    """{bone name: {(property, index): fcurve}} of the action's unmuted F-curves, read in
    one pass."""
    names = {bpy.utils.escape_identifier(b.name): b.name for b in arm_obj.data.bones}
    out = {}
    for fc in fcurves(action):
        path = fc.data_path
        end = path.rfind('"].')
        if fc.mute or end < 0 or not path.startswith(_BONES_PREFIX):
            continue
        name = names.get(path[len(_BONES_PREFIX):end])
        if name is not None:
            out.setdefault(name, {})[(path[end + 3:], fc.array_index)] = fc
    return out
