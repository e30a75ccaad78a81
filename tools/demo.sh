#!/usr/bin/env bash
# The main job on the bundled samples: every sample file to .glb, with a summary line each;
# then a preview gallery of them (index.html, docs/preview.md).
set -euo pipefail
cli=$1
samples=$2
out=$3
mkdir -p "$out"
count=0
while IFS= read -r -d '' f; do
  rel=${f#"$samples"/}
  dest="$out/$rel.glb"  # figure.anm.glb and figure.tmd.glb: two inputs never share an output
  mkdir -p "$(dirname "$dest")"
  # Each file with its companion skeleton or model from the same folder (docs/cli.md).
  "$cli" convert "$f" "$dest" --summary --skeleton auto
  count=$((count + 1))
done < <(find "$samples" -type f ! -name '*.md' ! -name '*.dds' -print0 | sort -z)
echo "demo: $count sample files converted to .glb under $out"
# Last, the samples as pages to look at: one per file, each animation with its skeleton or
# model, and a gallery of them all (docs/preview.md).
"$cli" preview "$samples" -o "$out/preview" >/dev/null
echo "demo: preview gallery of the samples: $out/preview/index.html"
