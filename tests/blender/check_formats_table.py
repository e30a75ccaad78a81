# blender/animkit_io/formats.json is `animkit formats --json` of this build: the add-on's
# formats, options and limits are the library's. Fails (with the command that rewrites
# the file) while they differ.
#
#   python3 tests/blender/check_formats_table.py --cli build/release/tools/animkit/animkit

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.normpath(os.path.join(HERE, "..", "..", "blender", "animkit_io", "formats.json"))


def main():
    cli = sys.argv[sys.argv.index("--cli") + 1]
    printed = subprocess.run([cli, "formats", "--json"], check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
    with open(TABLE, "r", encoding="utf-8") as f:
        kept = f.read()
    if kept != printed:
        print("%s differs from `animkit formats --json`: run `make blender-formats`" % TABLE)
        return 1
    doc = json.loads(kept)
    ids = [f["id"] for f in doc["formats"]]
    listed = subprocess.run([cli, "formats"], check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
    if ids != [line.split()[0] for line in listed.splitlines() if line.strip()]:
        print("the formats of `animkit formats --json` are not those of `animkit formats`: %s" % ids)
        return 1
    print("formats.json: %d formats, %d options, %d limits, as `animkit formats --json` prints them" % (
        len(ids), sum(len(f["options"]) for f in doc["formats"]), len(doc["limits"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
