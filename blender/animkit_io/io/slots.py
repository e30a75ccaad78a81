# Slots that share another slot's data (KH2 MSET link entries): the add-on imports them as
# one Blender action, since an edit of the data changes every slot that uses it. Pure
# Python (no bpy).
#
# The facts are the library's: `info --json` gives a clip decoded from a link entry
# "shares_data_with", the name of the clip whose data it uses. An action records the slots
# that share it as its "animkit_linked_slots" (a JSON list of clip names).

from . import rig as rigmod


def linked_clips(info, clip_names):
    """{clip of a link entry: the clip holding its data} for the clips in `clip_names`;
    {} when no clip shares another's data."""
    names = set(clip_names)
    out = {}
    for clip in (info or {}).get("clips") or []:
        target = clip.get("shares_data_with") if isinstance(clip, dict) else None
        if isinstance(target, str) and clip.get("name") in names and target in names:
            out[clip["name"]] = out.get(target, target)  # a link to a link: the first clip holding the data
    return out


def shared_note(action_name, linked):
    """The sentence export and the dialog show for an action several slots share."""
    return "%s is shared with %s (linked slots use its data): editing it changes %s too" % (
        action_name, ", ".join(linked), "them" if len(linked) > 1 else "that slot")


def link_notes(actions):
    """One note per action that linked slots share (imported from an MSET's link entries)."""
    out = []
    for action in actions:
        linked = rigmod.loads(action.get("animkit_linked_slots", ""), [])
        if linked:
            out.append(("INFO", shared_note(action.name, linked)))
    return out


def linked_copies(actions, clip_data):
    """The clips of the slots that share an action, each the action's clip renamed."""
    out = []
    for action, clip in zip(actions, clip_data):
        for name in rigmod.loads(action.get("animkit_linked_slots", ""), []):
            out.append(dict(clip, name=name))
    return out
