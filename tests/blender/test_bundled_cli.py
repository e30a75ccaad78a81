# How the add-on finds animkit (blender/animkit_io/io/cli.py, find_executable), with the
# platform given rather than the running one: the executable each platform's extension
# carries, the custom path only when asked for, the developer fallbacks ($ANIMKIT_CLI,
# PATH) only for an add-on that carries none, and the errors that say what to do.
#
#   python3 tests/blender/test_bundled_cli.py
#
# ctest: BlenderPackage.selection (any Python 3, no Blender).

import os
import stat
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "blender")))

from animkit_io.io import cli  # noqa: E402
import unit_run  # noqa: E402

WINDOWS = ("win32", "AMD64")  # what Blender's Python says on 64-bit Windows
LINUX = ("linux", "x86_64")
MAC_ARM = ("darwin", "arm64")
MAC_INTEL = ("darwin", "x86_64")


def _write(path, mode=0o755):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"#!/bin/sh\necho animkit\n")
    os.chmod(path, mode)
    return path


class Platform(unittest.TestCase):
    def test_blender_names(self):
        self.assertEqual(cli.blender_platform(*WINDOWS), "windows-x64")
        self.assertEqual(cli.blender_platform("win32", "x86_64"), "windows-x64")
        self.assertEqual(cli.blender_platform(*LINUX), "linux-x64")
        self.assertEqual(cli.blender_platform("linux2", "x86_64"), "linux-x64")
        self.assertEqual(cli.blender_platform("linux", "aarch64"), "linux-arm64")
        self.assertEqual(cli.blender_platform(*MAC_ARM), "macos-arm64")
        self.assertEqual(cli.blender_platform(*MAC_INTEL), "macos-x64")
        self.assertEqual(cli.blender_platform("win32", "ARM64"), "windows-arm64")

    def test_bundled_names(self):
        self.assertEqual(cli.bundled_name(*WINDOWS), "bin/animkit.exe")
        self.assertEqual(cli.bundled_name(*LINUX), "bin/animkit")
        for other in (MAC_ARM, MAC_INTEL, ("linux", "aarch64"), ("win32", "ARM64")):
            self.assertIsNone(cli.bundled_name(*other), other)

    def test_every_bundled_platform_is_blenders(self):
        # The names are those of blender_manifest.toml's `platforms` (Blender's list).
        self.assertEqual(set(cli.BUNDLED), {"windows-x64", "linux-x64"})
        for name, rel in cli.BUNDLED.items():
            self.assertTrue(rel.startswith(cli.BUNDLED_DIR + "/"), rel)
            self.assertEqual(rel.endswith(".exe"), name.startswith("windows-"), rel)


class Find(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="animkit-bundled-")
        self.addon = os.path.join(self.tmp.name, "animkit_io")
        os.makedirs(self.addon)
        # Neither developer fallback, unless a test sets one.
        env = {k: v for k, v in os.environ.items() if k != cli.ENV_VAR}
        env["PATH"] = os.path.join(self.tmp.name, "empty-path")
        self.env = mock.patch.dict(os.environ, env, clear=True)
        self.env.start()

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def find(self, plat, **kwargs):
        return cli.find_executable(addon_dir=self.addon, sys_platform=plat[0], machine=plat[1], **kwargs)

    def test_the_running_platforms_executable(self):
        linux = _write(os.path.join(self.addon, "bin", "animkit"))
        windows = _write(os.path.join(self.addon, "bin", "animkit.exe"))
        self.assertEqual(self.find(LINUX), linux)
        self.assertEqual(self.find(WINDOWS), windows)

    def test_windows_extension_on_windows(self):
        exe = _write(os.path.join(self.addon, "bin", "animkit.exe"), 0o644)
        with mock.patch.object(cli.os, "access", lambda path, mode: os.path.isfile(path)):  # Windows' X_OK
            self.assertEqual(self.find(WINDOWS), exe)

    def test_lost_executable_bit_is_given_back(self):
        # Blender's Install from Disk extracts the zip without the files' modes.
        exe = _write(os.path.join(self.addon, "bin", "animkit"), 0o644)
        self.assertEqual(self.find(LINUX), exe)
        self.assertTrue(os.stat(exe).st_mode & stat.S_IXUSR)

    def test_bundled_wins_over_path_and_env(self):
        exe = _write(os.path.join(self.addon, "bin", "animkit"))
        other = _write(os.path.join(self.tmp.name, "elsewhere", "animkit"))
        with mock.patch.dict(os.environ, {cli.ENV_VAR: other, "PATH": os.path.dirname(other)}):
            self.assertEqual(self.find(LINUX), exe)

    def test_custom_only_when_asked(self):
        exe = _write(os.path.join(self.addon, "bin", "animkit"))
        custom = _write(os.path.join(self.tmp.name, "mine", "animkit"))
        self.assertEqual(self.find(LINUX, custom_path=custom), exe)
        self.assertEqual(self.find(LINUX, custom_path=custom, use_custom=True), custom)
        # Asked for on a platform with no extension of its own: that is the way there.
        self.assertEqual(self.find(MAC_ARM, custom_path=custom, use_custom=True), custom)

    def test_custom_errors(self):
        _write(os.path.join(self.addon, "bin", "animkit"))
        with self.assertRaises(cli.AnimkitError) as e:
            self.find(LINUX, custom_path="", use_custom=True)
        self.assertIn("no path is set", str(e.exception))
        missing = os.path.join(self.tmp.name, "nowhere", "animkit")
        with self.assertRaises(cli.AnimkitError) as e:
            self.find(LINUX, custom_path=missing, use_custom=True)
        self.assertIn(missing, str(e.exception))

    def test_no_executable_for_the_platform(self):
        _write(os.path.join(self.addon, "bin", "animkit"))
        _write(os.path.join(self.addon, "bin", "animkit.exe"))
        for plat, name in ((MAC_ARM, "macos-arm64"), (MAC_INTEL, "macos-x64")):
            with self.assertRaises(cli.AnimkitError) as e:
                self.find(plat)
            message = str(e.exception)
            for said in (name, "build animkit from source", "docs/install.md", cli.CUSTOM, "Preferences"):
                self.assertIn(said, message)

    def test_the_other_platforms_extension(self):
        # The Linux extension copied onto Windows: it says which extension to install.
        _write(os.path.join(self.addon, "bin", "animkit"))
        fallback = _write(os.path.join(self.tmp.name, "elsewhere", "animkit.exe"))
        with mock.patch.dict(os.environ, {cli.ENV_VAR: fallback}):
            with self.assertRaises(cli.AnimkitError) as e:
                self.find(WINDOWS)
        message = str(e.exception)
        for said in ("windows-x64", "animkit_io-VERSION-windows_x64.zip", "bin/animkit.exe", cli.CUSTOM):
            self.assertIn(said, message)

    def test_developer_fallbacks_without_a_bundled_executable(self):
        # The legacy zip and the checkout's blender/ folder carry no bin/.
        env_exe = _write(os.path.join(self.tmp.name, "env", "animkit"))
        path_exe = _write(os.path.join(self.tmp.name, "path", "animkit"))
        with mock.patch.dict(os.environ, {cli.ENV_VAR: env_exe, "PATH": os.path.dirname(path_exe)}):
            self.assertEqual(self.find(LINUX), env_exe)
        with mock.patch.dict(os.environ, {"PATH": os.path.dirname(path_exe)}):
            self.assertEqual(self.find(LINUX), path_exe)
        with self.assertRaises(cli.AnimkitError) as e:
            self.find(LINUX)
        message = str(e.exception)
        for said in ("carries no animkit executable", "animkit_io-VERSION-linux_x64.zip", cli.CUSTOM):
            self.assertIn(said, message)

    def test_the_add_on_folder_is_the_package(self):
        self.assertTrue(os.path.isfile(os.path.join(cli.ADDON_DIR, "blender_manifest.toml")), cli.ADDON_DIR)


def run():
    return unit_run.run(sys.modules[__name__])


if __name__ == "__main__":
    unit_run.main(sys.modules[__name__])
