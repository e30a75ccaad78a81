# What an export writes: the library decides (`animkit export-plan`, docs/cli.md) from its
# format table before anything runs: the default file (the imported one), the format (the
# imported file's own, or one of its family, unless another is chosen explicitly), the
# template and what writing another family's format loses. `animkit convert` follows the same
# rule. Pure Python (no bpy): the export dialog and export.py ask it through the CLI; what is
# left here is the dialog's own renaming of the file.

import os

from . import cli, formats


class PlanError(Exception):
    """The export cannot be planned; str() is animkit's message (how to go on)."""


class Plan:
    """format: the format written; to: whether animkit needs --to (formats share the
    extension); template: the source when it can serve as one ("" = none); notes:
    [(level, text)] with levels "INFO" / "WARNING"; output: the file; family: the source
    format's family (format ids)."""

    def __init__(self, document):
        self.format = document["format"]
        self.to = bool(document["to"])
        self.template = document["template"] or ""
        self.notes = [(n["level"].upper(), n["text"]) for n in document["notes"]]
        self.output = document["output"]
        self.family = list(document["family"])


# The dialog redraws often and asks each time: plans by arguments (a few, the latest kept).
_CACHE = {}
_CACHE_SIZE = 32


def plan(exe, filepath, requested, source, source_format, use_template=True, model=False):
    """The Plan for an export of a rig read from `source` (a `source_format` file) to
    `filepath` ("" = the default file), `requested` the format chosen explicitly ("" = none);
    `model`: of the character (meshes), which model formats also write. PlanError when the
    format must be chosen (or animkit cannot be run)."""
    key = (exe, filepath, requested, source, source_format, bool(use_template),
           os.path.isfile(source) if source else False, bool(model))
    if key not in _CACHE:
        try:
            _CACHE[key] = Plan(cli.export_plan(exe, filepath, source, source_format, requested, use_template, model))
        except cli.AnimkitError as e:
            _CACHE[key] = PlanError(str(e))
        while len(_CACHE) > _CACHE_SIZE:
            del _CACHE[next(iter(_CACHE))]
    found = _CACHE[key]
    if isinstance(found, PlanError):
        raise found
    return found


def default_path(exe, source, source_format, model=False):
    """The export dialog's default file: the imported file itself when its format writes
    an animation to its extension (`model`, a character with meshes: any file its format
    writes), else its name with the first extension its format's family writes; "" without
    a source or when there is none."""
    if not source:
        return ""
    if model:
        try:
            return plan(exe, source, "", source, source_format, model=True).output
        except PlanError:
            pass
    try:
        return plan(exe, "", "", source, source_format).output
    except PlanError:
        return ""


def writes_model(plan, filepath):
    """Whether the planned export (a Plan made with model=True) writes `filepath` as a
    model: its format writes no animation to its extension (.mdlx, .mdb, .glb)."""
    f = formats.find(plan.format)
    return f is not None and os.path.splitext(filepath)[1].lower() not in f["animation_extensions"]


def with_extension(filepath, fmt):
    """`filepath` with an extension `fmt` writes: kept when it has one, else the format's
    first (the dialog renames the file when another format is chosen)."""
    f = formats.find(fmt)
    ext = os.path.splitext(filepath)[1].lower()
    if not filepath or f is None or not f["animation_extensions"] or ext in f["animation_extensions"]:
        return filepath
    return os.path.splitext(filepath)[0] + f["animation_extensions"][0]
