#!/usr/bin/env bash
# The main job on the bundled samples: the samples folder converted to .glb as a game dump is
# (a folder run, docs/batch.md: each file with its companion, archives of files by member, a
# PAK's characters one glb each), with its summary; then a preview gallery of them
# (index.html, docs/preview.md).
set -euo pipefail
cli=$1
samples=$2
out=$3
mkdir -p "$out"
"$cli" convert "$samples" "$out/glb/" --to glb
echo "demo: the samples converted to .glb under $out/glb"
# Last, the samples as pages to look at: one per file, each animation with its skeleton or
# model, and a gallery of them all (docs/preview.md).
"$cli" preview "$samples" -o "$out/preview" >/dev/null
echo "demo: preview gallery of the samples: $out/preview/index.html"
