#!/usr/bin/env bash
# Runs the README's test command several times in a row while CPU hogs keep the machine's cores busy, to show the
# suite is deterministic on a loaded machine. Usage: scripts/test-busy.sh [runs=5] [hogs=2]
# Prints one line per run (result and duration) and exits non-zero at the first failed run.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
hogs=${2:-2}

hog_pids=()
stop_hogs() { [ ${#hog_pids[@]} -eq 0 ] || kill "${hog_pids[@]}" 2>/dev/null; }
trap stop_hogs EXIT
for _ in $(seq 1 "$hogs"); do
  node -e 'for (;;) {}' &
  hog_pids+=($!)
done
echo "== $hogs CPU hogs running (pids ${hog_pids[*]}) on $(nproc) cores"

npx -y pnpm@10 install >/dev/null || exit 1
for run in $(seq 1 "$runs"); do
  log=$(mktemp -t vigie-busy-run-XXXX.log)
  started=$(date +%s)
  if npx -y pnpm@10 test >"$log" 2>&1; then
    # vitest colours its summary: strip the escape codes before looking for the counts.
    counts=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +(Test Files|Tests) ' | tr -s ' ' | paste -sd ';' -)
    echo "run $run/$runs: green in $(( $(date +%s) - started )) s ($counts)"
  else
    echo "run $run/$runs: RED after $(( $(date +%s) - started )) s; log: $log"
    grep -E 'FAIL|✗|×' "$log" | sed 's/\x1b\[[0-9;]*m//g' | head -20
    exit 1
  fi
done
echo "== $runs runs green in a row with $hogs CPU hogs"
