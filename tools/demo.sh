#!/usr/bin/env bash
# The main job on the bundled samples: every sample file to .glb, with a summary line each.
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
done < <(find "$samples" -type f ! -name '*.md' -print0 | sort -z)
echo "demo: $count sample files converted to .glb under $out"
