#!/usr/bin/env bash
# How often the 95% interval of `nqueens estimate` holds the known total, over many seeds.
#
#   scripts/estimate-coverage.sh [SEEDS] [SAMPLES] [N...]
#
# Builds the release binary and, for each board N (default 16 20 22), runs
# `nqueens estimate N --samples SAMPLES --seed s` for s = 1..=SEEDS (default 100 seeds of 2000
# probes) and prints, as a Markdown table, the share of intervals that hold the known total,
# the mean relative error and the mean relative half-width. Needs cargo and python3.
#
#   scripts/estimate-coverage.sh --budgets [RUNS_PER_CELL]
#
# The same under time budgets (0.2 to 2 s, 1 and 2 threads, with and without a process spinning
# beside it, n = 12, 14, 16; RUNS_PER_CELL runs a cell, default 40): see
# scripts/estimate-budget-coverage.py.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ${1:-} == --budgets ]]; then
    cargo build --release --quiet
    exec python3 scripts/estimate-budget-coverage.py --runs-per-cell "${2:-40}"
fi

seeds=${1:-100}
samples=${2:-2000}
shift $(($# < 2 ? $# : 2))
if [[ $# -gt 0 ]]; then boards=("$@"); else boards=(16 20 22); fi
cargo build --release --quiet
bin=target/release/nqueens

echo "Coverage over $seeds seeds with \`--samples $samples\`:"
echo
echo "| n | intervals holding the known total | mean error | mean ± (half-width) |"
echo "|---|---|---|---|"
for n in "${boards[@]}"; do
    for s in $(seq 1 "$seeds"); do
        "$bin" estimate "$n" --samples "$samples" --seed "$s" --format csv | tail -n +2
    done | python3 -c '
import csv, sys
held = err = half = k = 0
for r in csv.reader(sys.stdin):
    est, lo, hi, rel, known = float(r[8]), float(r[9]), float(r[10]), float(r[11]), float(r[-1])
    held += lo <= known <= hi
    err += est / known - 1
    half += rel
    k += 1
print(f"| {sys.argv[1]} | {held} of {k} ({100 * held / k:.0f}%) | {100 * err / k:+.3f}% | {100 * half / k:.2f}% |")
' "$n"
done
