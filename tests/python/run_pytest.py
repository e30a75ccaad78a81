"""Runs pytest files of tests/python/ for ctest (tests/CMakeLists.txt).

Exits 77, which ctest counts as skipped, with the reason on stdout when numpy, pytest or
the animkit module cannot be imported.
"""

import sys


def main() -> int:
    missing = []
    for module, package in (("numpy", "python3-numpy"), ("pytest", "python3-pytest")):
        try:
            __import__(module)
        except ImportError:
            missing.append(package)
    if missing:
        print(f"skipped: {sys.executable} lacks {', '.join(missing)} (make deps installs them)")
        return 77
    try:
        import animkit  # noqa: F401
    except ImportError as e:
        print(f"skipped: the animkit module does not import ({e}); `make python` builds it, "
              "PYTHONPATH=build/release/python finds it")
        return 77
    import pytest

    return int(pytest.main(["-q", "-rs", "-p", "no:cacheprovider", *sys.argv[1:]]))


if __name__ == "__main__":
    sys.exit(main())
