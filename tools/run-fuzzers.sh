#!/usr/bin/env bash
# Runs every libFuzzer target in $1 for $2 seconds each and prints one summary line per
# target (executions, exec/s, coverage, peak memory).
# Seeds: fuzz/corpus/<target>/ (committed), samples/<target>/, tests/data/<target>/ and,
# with FUZZ_FIXTURES=1, the real files under ../shared/fixtures chosen by extension.
# FUZZ_TARGETS="a b" runs only those targets; FUZZ_RUNS=N stops a target after N
# executions when that comes before the time limit (the campaign: 1,000,000 or 30 min);
# FUZZ_PARALLEL=N runs N targets at a time. New inputs go to a temporary directory:
# the committed corpus is never changed. A crash input is kept in fuzz-crashes/<target>/.
set -euo pipefail
dir=$1
seconds=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
fixtures="$root/../shared/fixtures"
status=0

# Fixture files for a target, by extension.
fixture_files() {
  local name=$1 pattern
  case "$name" in
    kh2_bar) pattern='.*\.\(anb\|mset\|bar\|mdlx\)' ;;
    kh2_motion | kh2_evaluate) pattern='.*\.motion' ;;
    metroid_anim) pattern='.*\.anim' ;;
    metroid_cinf) pattern='.*\.cinf' ;;
    psx_tmd) pattern='.*\.tmd' ;;
    psx_anc) pattern='.*\.anc' ;;
    psx_anm | text_anm) pattern='.*\.anm' ;;
    edf_canm) pattern='.*\.canm' ;;
    edf_mdb) pattern='.*\.mdb' ;;
    gltf | gltf_mesh) pattern='.*\.\(glb\|gltf\)' ;;
    *) return 0 ;;
  esac
  find "$fixtures" -type f -iregex "$pattern" -size -64k 2>/dev/null | sort
}

# Runs one target; prints its summary line (or FAILED and the log's tail) and returns 1 on
# a crash, leak, timeout or sanitizer report.
run_one() {
  local target=$1 name work seeds runs started
  name=$(basename "$target" _fuzz)
  work=$(mktemp -d)
  seeds=()
  # The glTF-to-mesh target starts from the glTF reader's seeds.
  local corpus=$name extra=""
  [ "$name" = gltf_mesh ] && corpus=gltf
  # The bundled character PAK: a PAK whose members make a character.
  [ "$name" = metroid_pak ] && extra="$root/samples/metroid_character"
  for seed_dir in "$root/fuzz/corpus/$corpus" "$root/samples/$corpus" "$root/tests/data/$corpus" $extra; do
    [ -d "$seed_dir" ] && seeds+=("$seed_dir")
  done
  if [ "${FUZZ_FIXTURES:-0}" = 1 ] && [ -d "$fixtures" ]; then
    mkdir -p "$work/fixtures"
    while IFS= read -r f; do cp "$f" "$work/fixtures/"; done < <(fixture_files "$name")
    [ -n "$(ls -A "$work/fixtures")" ] && seeds+=("$work/fixtures")
  fi
  mkdir -p "$work/new"
  started=$SECONDS
  # A fixed seed keeps a run reproducible; the first directory receives new inputs.
  runs=()
  [ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
  if ! "$target" -seed=1 -max_total_time="$seconds" "${runs[@]}" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
       -print_final_stats=1 -artifact_prefix="$work/" "$work/new" "${seeds[@]}" >"$work/log" 2>&1; then
    echo "== $name: FAILED"
    tail -60 "$work/log"
    mkdir -p "$root/fuzz-crashes/$name"
    find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) \
      -exec cp {} "$root/fuzz-crashes/$name/" \;
    echo "   inputs kept in fuzz-crashes/$name/"
    rm -rf "$work"
    return 1
  fi
  local execs rate rss done_line cov ft
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$work/log")
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")
  printf '%-14s %12s %8s %6s %6s %8s %8s\n' "$name" "$execs" "$rate" "${cov:--}" "${ft:--}" "$rss" "$((SECONDS - started))"
  rm -rf "$work"
}

# FUZZ_PARALLEL=N runs N targets at a time (a campaign on N cores); each target's output
# is printed when the run ends, in target order.
parallel=${FUZZ_PARALLEL:-1}
out=$(mktemp -d)
printf '%-14s %12s %8s %6s %6s %8s %8s\n' target executions exec/s cov ft rss_mb seconds
names=()
for target in "$dir"/*_fuzz; do
  [ -x "$target" ] || continue
  name=$(basename "$target" _fuzz)
  if [ -n "${FUZZ_TARGETS:-}" ] && [[ " $FUZZ_TARGETS " != *" $name "* ]]; then continue; fi
  names+=("$name")
  if [ "$parallel" -le 1 ]; then
    run_one "$target" || status=1
  else
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
    (run_one "$target" >"$out/$name" 2>&1 || touch "$out/$name.failed") &
  fi
done
if [ "$parallel" -gt 1 ]; then
  wait
  for name in "${names[@]}"; do
    cat "$out/$name"
    [ -e "$out/$name.failed" ] && status=1
  done
fi
rm -rf "$out"
exit $status
