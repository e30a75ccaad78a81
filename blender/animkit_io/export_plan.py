# What an export writes, decided from the library's format table before anything runs:
# the default file (the imported one), the format (the imported file's own, or one of its
# family, unless another is chosen explicitly) and what writing another family's format
# loses. Pure Python (no bpy): the export dialog and export.py both ask it.
#
# A format's family is read from the table, not kept here: two formats are of one family
# when one is the other, or one reads the other's files as its companion (PS1 ANM and TMD,
# KH2 BAR and motion over an MDLX, text ANM and glTF, ...).

import os

from . import formats


class PlanError(Exception):
    pass


def _extension(path):
    return os.path.splitext(path)[1].lower()


def same_family(a, b):
    """Whether formats a and b are one family: equal, or one is the other's companion,
    or both pair with the same companion (the library's `companions`)."""
    fa, fb = formats.find(a), formats.find(b)
    if fa is None or fb is None:
        return False
    if a == b:
        return True
    ea, eb = set(fa["extensions"]), set(fb["extensions"])
    ca, cb = set(fa["companions"]), set(fb["companions"])
    return bool(ea & cb or eb & ca or (ca & cb))


def default_path(source, source_format):
    """The export dialog's default file: the imported file itself when its format writes
    an animation to its extension, else its name with the first extension its format (or
    one of its family) writes; "" without a source."""
    if not source:
        return ""
    ext = _extension(source)
    own = formats.find(source_format)
    if own is not None and ext in own["animation_extensions"]:
        return source
    for f in formats.export_formats():
        if same_family(source_format, f["id"]):
            return os.path.splitext(source)[0] + f["animation_extensions"][0]
    return ""


def with_extension(filepath, fmt):
    """`filepath` with an extension `fmt` writes: kept when it has one, else the format's
    first (the dialog renames the file when another format is chosen)."""
    f = formats.find(fmt)
    if not filepath or f is None or not f["animation_extensions"] or _extension(filepath) in f["animation_extensions"]:
        return filepath
    return os.path.splitext(filepath)[0] + f["animation_extensions"][0]


def family_formats(extension, source_format):
    """The formats writing `extension` that are of the source's family, its own first."""
    writers = [f["id"] for f in formats.FORMATS if extension in f["animation_extensions"]]
    return sorted((w for w in writers if same_family(source_format, w)), key=lambda w: w != source_format)


def choose_format(filepath, requested="", source_format=""):
    """The format an export to `filepath` writes. `requested` (the dialog's explicit
    choice) must write the extension. Otherwise: the imported file's format, or one of
    its family, that writes the extension; without a source, the extension's first format.
    A rig written into another family's format must be asked for: PlanError says how."""
    ext = _extension(filepath)
    writers = [f["id"] for f in formats.FORMATS if ext in f["animation_extensions"]]
    if not writers:
        raise PlanError("%s: the extension names no format animkit writes an animation to (%s)" % (
            filepath, ", ".join(formats.export_extensions())))
    if requested:
        if requested not in writers:
            raise PlanError("%s writes %s, not %s: give the file one of those extensions" % (
                requested, " ".join(formats.find(requested)["animation_extensions"]) or "no animation", ext))
        return requested
    if not formats.find(source_format):
        return writers[0]
    family = family_formats(ext, source_format)
    if family:
        return family[0]
    own = formats.find(source_format)["animation_extensions"]
    raise PlanError("%s: this rig was imported from a %s file%s; %s is another family's format. To write it, "
                    "choose Format %s explicitly (%s)" % (
                        os.path.basename(filepath), source_format,
                        " (its own extensions: %s)" % " ".join(own) if own else "",
                        ext, " or ".join(writers), "; ".join(losses(source_format, writers[0]))))


def losses(source_format, fmt):
    """What writing a rig imported from `source_format` as `fmt` loses, in sentences
    ([] for the source's own format)."""
    if not source_format or source_format == fmt or not formats.find(source_format):
        return []
    out = ["what the %s file holds beyond its clips (its header, other entries, the format's own fields) "
           "is not kept: it cannot serve as template" % source_format]
    target = formats.find(fmt)
    if not same_family(source_format, fmt):
        if target["companions"]:
            out.append("%s files take their skeleton from a companion (%s) and this rig's %s skeleton is not one: "
                       "read back without it, the joints lose their hierarchy and rest pose" % (
                           fmt, " ".join(target["companions"]), source_format))
        else:
            out.append("%s holds no skeleton: the rig's hierarchy and rest pose are not written" % fmt)
    return out


class Plan:
    """format: the format written; to: whether animkit needs --to (formats share the
    extension); template: the source when it can serve as one; notes: [(level, text)]."""

    def __init__(self, fmt, to, template, notes):
        self.format = fmt
        self.to = to
        self.template = template
        self.notes = notes


def plan(filepath, requested, source, source_format, use_template=True):
    """The Plan for an export (PlanError when the format must be chosen)."""
    fmt = choose_format(filepath, requested, source_format)
    template = ""
    if use_template and source and os.path.isfile(source) and source_format == fmt and \
            _extension(source) == _extension(filepath):
        template = source
    notes = [("WARNING", "writing %s: %s" % (fmt, text)) for text in losses(source_format, fmt)]
    return Plan(fmt, formats.shares_extension(fmt), template, notes)
