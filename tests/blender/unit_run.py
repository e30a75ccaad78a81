# Runs one module of the add-on's bpy-free checks (test_modules.py, test_mesh_export.py,
# test_export_keys.py): from the command line with any Python 3, or inside Blender from
# test_addon.py's parts.

import sys
import unittest


def run(module, **settings):
    """Runs the module's TestCases, its globals set from `settings` (e.g. CLI="animkit":
    those given, not None or empty); whether they passed."""
    for name, value in settings.items():
        if value:
            setattr(module, name, value)
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    return unittest.TextTestRunner(stream=sys.stdout, verbosity=1).run(suite).wasSuccessful()


def main(module, flags=()):
    """The command line: each of `flags` ({"--cli": "CLI"}) sets its global; exits 0 when
    the checks passed, else 1."""
    settings = {name: sys.argv[sys.argv.index(flag) + 1] for flag, name in dict(flags).items() if flag in sys.argv}
    sys.exit(0 if run(module, **settings) else 1)
