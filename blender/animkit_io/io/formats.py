# What the add-on knows about formats, options and limits: the library's own table
# (`animkit formats --json`), kept at the add-on's top as formats.json. Pure Python (no bpy).
#
# formats.json is generated, never edited: `make blender-formats` (or
# `animkit formats --json > blender/animkit_io/formats.json`) writes it, and the test
# Blender.formats_table fails while it differs from the CLI's. A new format or option
# therefore needs no change here or in the operators.

import json
import os

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "formats.json")


def _load():
    with open(PATH, "r", encoding="utf-8") as f:
        return json.load(f)


DOCUMENT = _load()
FORMATS = DOCUMENT["formats"]
LIMITS = DOCUMENT["limits"]
_BY_ID = {f["id"]: f for f in FORMATS}


def _unique(items):
    out = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def find(format_id):
    return _BY_ID.get(format_id)


def import_extensions():
    """Every extension a format reads as one scene, in table order: an archive of files
    (a Vib-Ribbon PAK) holds files to convert one by one unless it holds scenes made of its
    members (a Metroid PAK's characters), and a part (a model's textures or skin) comes in
    with its model, so both are left out."""
    return tuple(_unique(e for f in FORMATS
                         if (not f.get("archive_of_files") or f.get("scenes_of_members")) and not f.get("part_of")
                         for e in f["extensions"]))


def export_extensions():
    """Every extension a format writes an animation to."""
    return tuple(_unique(e for f in FORMATS for e in f["animation_extensions"]))


def model_extensions():
    """The extensions a writable format writes models to (no animation extension of any
    format): .mdlx, .mdb, .glb..."""
    animation = set(export_extensions())
    return tuple(_unique(e for f in FORMATS if f["writable"] for e in f["extensions"] if e not in animation))


def export_formats():
    """The formats that write an animation, in table order."""
    return [f for f in FORMATS if f["animation_extensions"]]


def model_formats():
    """The other writable formats that write a model extension (a character's meshes: EDF
    MDB, glTF, ...), in table order."""
    models = set(model_extensions())
    return [f for f in FORMATS if f["writable"] and not f["animation_extensions"] and models & set(f["extensions"])]


def output_format(extension, requested="", source_format=""):
    """The format an export to `extension` writes: `requested` when it writes that
    extension, else the imported file's own when it does, else the first that does.
    None when no format writes the extension."""
    writers = [f["id"] for f in FORMATS if extension in f["animation_extensions"]]
    for choice in (requested, source_format):
        if choice in writers:
            return choice
    return writers[0] if writers else None


def shares_extension(format_id):
    """Whether another format writes one of this format's animation extensions (an
    output then names its format: animkit convert --to)."""
    f = find(format_id)
    if f is None:
        return False
    return any(e in o["animation_extensions"] for e in f["animation_extensions"] for o in FORMATS if o is not f)


def up_axis(format_id):
    """The format's up axis, "+Y", "-Y" or "+Z" (unknown formats: "+Y")."""
    f = find(format_id)
    return f["up_axis"] if f else "+Y"


def forward_axis(format_id):
    """The way the format's models face, "+Z" unless the table says otherwise (Metroid: "+Y")."""
    f = find(format_id)
    return f.get("forward_axis", "+Z") if f else "+Z"


def multi_clip(format_id):
    f = find(format_id)
    return bool(f and f["multi_clip"])


def options(use):
    """Every option acting on reading ("read") or writing ("write"), once, in table
    order; each with "formats": the ids of the formats that declare it."""
    out = {}
    for f in FORMATS:
        for o in f["options"]:
            if o["use"] not in (use, "read-write"):
                continue
            if o["name"] not in out:
                out[o["name"]] = dict(o, formats=[])
            out[o["name"]]["formats"].append(f["id"])
    return list(out.values())


def limits():
    """The library's limits (max-values, max-frames, ...): name, keyword, default, help."""
    return list(LIMITS)


def limit_args(values):
    """The command-line arguments for limit values ({keyword: value}) that differ from
    the library's defaults, in table order (e.g. ["--max-values", "5000000"])."""
    args = []
    for limit in LIMITS:
        value = values.get(limit["keyword"])
        if value is not None and int(value) != int(limit["default"]):
            args += ["--" + limit["name"], str(int(value))]
    return args


def describe(format_id):
    """A format's id and description, for messages ("kh2-bar (Kingdom Hearts II ...)")."""
    f = find(format_id)
    return "%s (%s)" % (format_id, f["description"]) if f else format_id


def _same(value, default, kind):
    if kind in ("number", "integer"):
        d = float(default)
        return abs(float(value) - d) <= 1e-6 * max(1.0, abs(d))
    return str(value) == str(default)


def option_args(specs, values):
    """The command-line arguments for option values ({keyword: value}) that differ from
    their option's default. An option without a default (the library decides from the
    input) is passed only when set: a choice other than "", a number other than 0."""
    args = []
    for o in specs:
        if o["keyword"] not in values:
            continue
        value = values[o["keyword"]]
        flag = "--" + o["name"]
        if o["type"] == "flag":
            if value:
                args.append(flag)
            continue
        default = o["default"]
        if default is None:
            unset = value == "" if o["type"] in ("choice", "word") else float(value) == 0.0
            if unset:
                continue
        elif _same(value, default, o["type"]):
            continue
        if o["type"] == "number":
            text = repr(float(value))
        elif o["type"] == "integer":
            text = str(int(value))
        else:
            text = str(value)
        args += [flag, text]
    return args
