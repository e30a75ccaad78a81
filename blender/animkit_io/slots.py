# Slots that share another slot's data (KH2 MSET link entries): the add-on imports them as
# one Blender action, since an edit of the data changes every slot that uses it. Pure
# Python (no bpy).
#
# The facts are the library's: `info --json` lists each archive entry ("entries", in
# "fields") with "link_to" (the earlier entry whose data it uses), and decoding names a
# slot's clips after the slot, "NNN_NAME" (docs/formats/kh2.md, as --template matches them).


def _slot_name(index, entry):
    name = entry.get("name", "")
    return "%03d_%s" % (index, name) if name else "%03d" % index


def _clips_of(slot, clip_names):
    """The clips decoded from a slot: named as the slot, or the slot then "_k"."""
    return [c for c in clip_names if c == slot or c.startswith(slot + "_")]


def linked_clips(info, clip_names):
    """{clip of a link entry: the clip of the entry it links to} for the clips in
    `clip_names` (in the file's order); {} when the file has no link entries."""
    fields = (info or {}).get("fields") or {}
    entries = fields.get("entries") or []
    out = {}
    for i, entry in enumerate(entries):
        target = entry.get("link_to") if isinstance(entry, dict) else None
        if not isinstance(target, int) or not 0 <= target < len(entries):
            continue
        mine = _clips_of(_slot_name(i, entry), clip_names)
        theirs = _clips_of(_slot_name(target, entries[target]), clip_names)
        if len(mine) != len(theirs):
            continue  # not the same data after all: kept as separate actions
        for a, b in zip(mine, theirs):
            out[a] = out.get(b, b)  # a link to a link: the first slot holding the data
    return out


def shared_note(action_name, linked):
    """The sentence export and the dialog show for an action several slots share."""
    return "%s is shared with %s (linked slots use its data): editing it changes %s too" % (
        action_name, ", ".join(linked), "them" if len(linked) > 1 else "that slot")
