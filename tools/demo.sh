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
  dest="$out/${rel%.*}.glb"
  mkdir -p "$(dirname "$dest")"
  skeleton=()
  # A sample may name the skeleton it needs in a sidecar file "<name>.skeleton".
  if [ -f "${f%.*}.skeleton" ]; then skeleton=(--skeleton "$samples/$(dirname "$rel")/$(cat "${f%.*}.skeleton")"); fi
  "$cli" convert "$f" "$dest" --summary "${skeleton[@]}"
  count=$((count + 1))
done < <(find "$samples" -type f ! -name '*.skeleton' ! -name '*.md' -print0 | sort -z)
echo "demo: $count sample files converted to .glb under $out"
