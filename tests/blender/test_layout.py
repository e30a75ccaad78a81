# The add-on's layout, read from its sources: io/ is pure Python (no Blender module, nothing
# of blender/), Blender modules only in blender/ and operators.py, no import cycle, and
# register() reloads every module after those it imports.
#
#   python3 tests/blender/test_layout.py
#
# addon_import.py runs it inside Blender too (Blender's Python).

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "blender")))
sys.path.insert(0, HERE)
import unit_run  # noqa: E402

ADDON = os.path.normpath(os.path.join(HERE, "..", "..", "blender", "animkit_io"))
BLENDER_MODULES = ("bpy", "bpy_extras", "mathutils", "addon_utils", "bmesh", "gpu")


def _imports(path, package):
    """The add-on modules (dotted, under animkit_io) and the top-level outside modules one
    source file imports, anywhere in it (functions too)."""
    import ast
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    inside, outside = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            outside |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            outside.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
            target = base + (node.module.split(".") if node.module else [])
            names = [".".join(target + [a.name]) for a in node.names]
            inside |= {n for n in names if os.path.isfile(_source(n))} or {".".join(target)}
    return inside, outside


def _source(module):
    """The file of an add-on module (animkit_io.io.cli -> io/cli.py; a package: its __init__)."""
    rel = os.path.join(ADDON, *module.split(".")[1:])
    return os.path.join(rel, "__init__.py") if os.path.isdir(rel) else rel + ".py"


def addon_modules():
    """{module: (the add-on modules it imports, the outside ones)} of every add-on source."""
    out = {}
    for folder, dirs, files in os.walk(ADDON):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name), ADDON)[:-3].split(os.sep)
                module = ".".join(["animkit_io"] + [r for r in rel if r != "__init__"])
                package = module if name == "__init__.py" else module.rpartition(".")[0]
                out[module] = _imports(os.path.join(folder, name), package)
    return out


class Layout(unittest.TestCase):
    """The add-on's two packages: io/ is pure Python (no Blender module, nothing of
    blender/), and no module imports itself through others (no import cycle)."""

    def test_io_calls_no_blender(self):
        modules = addon_modules()
        io = {m: v for m, v in modules.items() if m.startswith("animkit_io.io")}
        self.assertIn("animkit_io.io.cli", io)
        for module, (inside, outside) in io.items():
            self.assertFalse(outside & set(BLENDER_MODULES), "%s imports %s" % (module, outside & set(BLENDER_MODULES)))
            self.assertFalse({m for m in inside if not m.startswith("animkit_io.io")},
                             "%s imports outside io/: %s" % (module, inside))

    def test_blender_modules_in_blender(self):
        for module, (_inside, outside) in addon_modules().items():
            if outside & set(BLENDER_MODULES):
                self.assertTrue(module.startswith("animkit_io.blender.") or module == "animkit_io.operators", module)

    def test_no_import_cycle(self):
        modules = addon_modules()
        graph = {m: {d for d in inside if d in modules and d != m} for m, (inside, _) in modules.items()}
        done, path = set(), []

        def visit(m):
            if m in path:
                self.fail("import cycle: " + " -> ".join(path[path.index(m):] + [m]))
            if m in done:
                return
            path.append(m)
            for d in sorted(graph[m]):
                visit(d)
            path.pop()
            done.add(m)

        for m in sorted(graph):
            visit(m)
        self.assertIn("animkit_io.blender.export_curves", graph["animkit_io.blender.export"])

    def test_reload_lists_every_module(self):
        # register() reloads the add-on's modules (a re-enable in one session): every one, each
        # after the ones it imports
        import ast
        with open(os.path.join(ADDON, "__init__.py"), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        listed = next(["animkit_io." + e.value for e in node.iter.elts] for node in ast.walk(tree)
                      if isinstance(node, ast.For) and isinstance(node.iter, ast.Tuple))
        modules = addon_modules()
        packages = {m for m in modules if os.path.basename(_source(m)) == "__init__.py"}
        self.assertEqual(sorted(listed), sorted(set(modules) - packages))
        for k, m in enumerate(listed):
            later = set(listed[k + 1:])
            self.assertFalse(modules[m][0] & later, "%s is reloaded before %s" % (m, modules[m][0] & later))

    def test_io_imports_without_blender(self):
        import importlib
        for module in sorted(m for m in addon_modules() if m.startswith("animkit_io.io")):
            importlib.import_module(module)


def run():
    return unit_run.run(sys.modules[__name__])


if __name__ == "__main__":
    unit_run.main(sys.modules[__name__])
