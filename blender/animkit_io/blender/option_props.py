# One Blender property per option of the library's table (formats.py): its type,
# choices, default, range and help make the property, so the operators declare none.

from bpy.props import BoolProperty, EnumProperty, FloatProperty, IntProperty, StringProperty

from ..io import formats

_INT_RANGE = 2 ** 31 - 1
AUTO = "AUTO"  # an enum's "let the library decide" (Blender enums need a non-empty id)


def _option_property(o):
    """The Blender property for one of the library's options (formats.options())."""
    name = o["name"].replace("-", " ").capitalize()
    help_text = "%s (--%s; %s)" % (o["help"], o["name"], o["values"])
    default = o["default"]
    if o["type"] == "flag":
        return BoolProperty(name=name, description=help_text, default=False)
    if o["type"] == "choice":
        items = [(c, c, "") for c in o["choices"]]
        if default is None:  # the library decides from the input
            items.insert(0, (AUTO, "Automatic", "As the library chooses for the input"))
        return EnumProperty(name=name, description=help_text, items=items, default=default or AUTO)
    if o["type"] in ("number", "integer"):
        low = o["min"] if o["min"] is not None else -_INT_RANGE
        high = o["max"] if o["max"] is not None else _INT_RANGE
        if default is None:
            help_text += "; 0: as the library chooses for the input"
        value = float(default) if default is not None else 0.0
        if o["type"] == "integer":
            return IntProperty(name=name, description=help_text, default=int(value),
                               min=int(max(low, -_INT_RANGE)), max=int(min(high, _INT_RANGE)))
        if o["min_exclusive"]:
            low += 1e-3  # the smallest value the field offers above an excluded minimum
        return FloatProperty(name=name, description=help_text, default=value, min=low, max=high, precision=6)
    return StringProperty(name=name, description=help_text, default=default or "")


def add_option_properties(cls, use):
    """Adds one property per option of `use` to an operator class (before registering);
    returns the draw groups: one box per set of formats declaring options."""
    specs = formats.options(use)
    groups = {}
    for o in specs:
        cls.__annotations__[o["keyword"]] = _option_property(o)
        groups.setdefault(", ".join(o["formats"]), []).append(o["keyword"])
    cls.option_specs = specs
    return list(groups.items())


def option_values(op):
    """{keyword: value} of an operator's option properties (\"\" for Automatic)."""
    values = {o["keyword"]: getattr(op, o["keyword"]) for o in op.option_specs}
    return {k: "" if v == AUTO else v for k, v in values.items()}


def add_limit_properties(cls):
    """Adds one integer property per limit of the library's table (max-values, ...),
    defaulting to the library's; returns the draw group ("Limits", names)."""
    names = []
    for limit in formats.limits():
        cls.__annotations__[limit["keyword"]] = IntProperty(
            name=limit["name"].replace("-", " ").capitalize(), default=int(min(limit["default"], _INT_RANGE)),
            min=1, max=_INT_RANGE,
            description="Largest %s animkit accepts (--%s; the library's default: %d)" % (
                limit["help"], limit["name"], limit["default"]))
        names.append(limit["keyword"])
    return ("Limits", names)


def option_args(op):
    """The command-line arguments of an operator's option and limit properties that
    differ from the library's defaults."""
    return formats.option_args(op.option_specs, option_values(op)) + formats.limit_args(
        {limit["keyword"]: getattr(op, limit["keyword"]) for limit in formats.limits()})
