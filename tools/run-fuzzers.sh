#!/usr/bin/env bash
# Runs every libFuzzer target in $1 for $2 seconds, seeded with the samples.
set -euo pipefail
dir=$1
seconds=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
status=0
for target in "$dir"/*_fuzz; do
  [ -x "$target" ] || continue
  name=$(basename "$target" _fuzz)
  corpus=$(mktemp -d)
  # Seeds: the format's samples and test data, when there are any.
  for seed_dir in "$root/samples/$name" "$root/tests/data/$name"; do
    [ -d "$seed_dir" ] && cp -r "$seed_dir"/. "$corpus"/ 2>/dev/null || true
  done
  echo "== $name: ${seconds}s"
  # A fixed seed keeps a CI smoke run reproducible.
  if ! "$target" -seed=1 -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
       -print_final_stats=1 "$corpus" 2>"$corpus.log"; then
    tail -50 "$corpus.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$corpus.log" | sed "s/^/   /"
  fi
  rm -rf "$corpus" "$corpus.log"
done
exit $status
