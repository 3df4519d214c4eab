#!/usr/bin/env bash
# Validation of `nqueens estimate` against the known totals and against measured counts.
#
#   scripts/estimate-validation.sh [SECONDS] [THREADS]
#
# Builds the release binary, then
#   * for n = 16..=27 runs `nqueens estimate n --seconds SECONDS --threads THREADS` (default
#     60 s on every logical CPU) and compares the estimated total with the known one: relative
#     error and whether the 95% interval holds it;
#   * for n = 16..=19 estimates again on one thread (`--threads 1`, the same budget) and counts
#     the board in full on one thread (`nqueens count n --threads 1`), alternately, and compares
#     the estimated core-seconds with the measured time.
# Prints both tables as Markdown (the validation tables of docs/PERFORMANCE.md) and keeps the
# raw CSV in results/estimate-validation/. Seeds are the default (1). Needs cargo and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
threads=${2:-$(nproc)}
out=results/estimate-validation
mkdir -p "$out"
cargo build --release --quiet
bin=target/release/nqueens

: >"$out/estimates.csv"
for n in $(seq 16 27); do
    "$bin" estimate "$n" --seconds "$seconds" --threads "$threads" --format csv >"$out/estimate-$n.csv"
    if [[ $n == 16 ]]; then head -1 "$out/estimate-$n.csv" >"$out/estimates.csv"; fi
    tail -n +2 "$out/estimate-$n.csv" >>"$out/estimates.csv"
done
: >"$out/counts.csv"
: >"$out/costs.csv"
for n in $(seq 16 19); do
    "$bin" estimate "$n" --seconds "$seconds" --threads 1 --format csv | tail -n +2 >>"$out/costs.csv"
    "$bin" count "$n" --threads 1 --format csv --quiet | tail -n +2 >>"$out/counts.csv"
done

python3 - "$out" "$seconds" "$threads" <<'PY'
import csv, sys
out, seconds, threads = sys.argv[1:]
rows = list(csv.DictReader(open(f"{out}/estimates.csv")))
print(f"Estimates with `--seconds {seconds} --threads {threads}` (seed 1):\n")
print("| n | estimate | 95% interval | ± (half-width) | known total | error | interval holds it | probes |")
print("|---|---|---|---|---|---|---|---|")
held = 0
for r in rows:
    est, lo, hi, known = (float(r[k]) for k in ("estimate_total", "total_low", "total_high", "known_total"))
    ok = lo <= known <= hi
    held += ok
    print(f"| {r['n']} | {est:.5e} | {lo:.4e} – {hi:.4e} | {100*float(r['total_relative_half_width']):.2f}% "
          f"| {int(r['known_total'])} | {100*(est/known-1):+.2f}% | {'yes' if ok else '**no**'} | {r['samples']} |")
print(f"\nThe interval holds the known total for {held} of {len(rows)} boards.\n")
counts = {int(c[0]): float(c[3]) for c in csv.reader(open(f"{out}/counts.csv"))}
header = open(f"{out}/estimates.csv").readline().strip().split(",")
costs = [dict(zip(header, c)) for c in csv.reader(open(f"{out}/costs.csv"))]
print(f"Core-seconds estimated with `--seconds {seconds} --threads 1`, against a full count with `--threads 1`:\n")
print("| n | estimated core-seconds (95%) | measured, 1 thread | error |")
print("|---|---|---|---|")
for r in costs:
    n = int(r["n"])
    if n in counts:
        c, lo, hi = (float(r[k]) for k in ("core_seconds", "core_seconds_low", "core_seconds_high"))
        print(f"| {n} | {c:.2f} s ({lo:.2f} – {hi:.2f}) | {counts[n]:.2f} s | {100*(c/counts[n]-1):+.1f}% |")
PY
