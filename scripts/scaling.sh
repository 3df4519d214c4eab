#!/usr/bin/env bash
# Thread-scaling study of one board, ready to attach to a report.
#
#   scripts/scaling.sh N [OUTDIR]
#
# Builds the release binary, runs `nqueens scale N` once (default thread counts: the powers of
# two below the logical CPU count, and that count) and writes into OUTDIR (default
# results/scaling-N/):
#   scaling-N.json  the whole study: machine, measured runs, model (`--format json`)
#   scaling-N.svg   speedup against threads: measured points, ideal line, model curve (`--plot`)
#   scaling-N.csv   the same study as `--format csv` prints it: one row per measured thread count
#                   (kind=measured, seconds=median) and per modelled worker count (kind=model,
#                   seconds=prediction), converted from the JSON so that all three files describe
#                   the same runs
# Extra options for `nqueens scale` go in SCALE_ARGS, for example
#   SCALE_ARGS="--threads 1,2,4 --repeat 5" scripts/scaling.sh 16
# Needs cargo and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: scripts/scaling.sh N [OUTDIR]" >&2
    exit 2
fi
n=$1
out=${2:-results/scaling-$n}
if ! [[ $n =~ ^[0-9]+$ ]]; then
    echo "scripts/scaling.sh: '$n' is not a board size" >&2
    exit 2
fi

cargo build --release --quiet
mkdir -p "$out"
json=$out/scaling-$n.json
svg=$out/scaling-$n.svg
csv=$out/scaling-$n.csv

read -r -a extra <<<"${SCALE_ARGS:-}"
target/release/nqueens scale "$n" "${extra[@]}" --format json --plot "$svg" >"$json.part"
mv "$json.part" "$json"

python3 - "$json" "$csv.part" <<'PY'
import csv, json, sys
study = json.load(open(sys.argv[1]))
m = study["machine"]
head = ["kind", "n", "strategy", "logical_cpus", "physical_cores", "threads", "seconds",
        "min_seconds", "max_seconds", "speedup", "efficiency"]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(head)
    base = [study["n"], study["strategy"], m["logical"], m["physical"]]
    for r in study["runs"]:
        w.writerow(["measured", *base, r["threads"], r["median_seconds"], r["min_seconds"],
                    r["max_seconds"], r["speedup"], r["efficiency"]])
    for r in study["model"]:
        w.writerow(["model", *base, r["workers"], r["predicted_seconds"], "", "",
                    r["speedup"], r["efficiency"]])
PY
mv "$csv.part" "$csv"

echo "wrote $json, $svg and $csv"
python3 - "$json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"n = {s['n']}, {s['strategy']}, {s['machine']['logical']} logical CPUs, "
      f"{s['machine']['physical']} physical cores, {s['tasks']} tasks")
for r in s["runs"]:
    print(f"  measured {r['threads']:>4} threads: {r['median_seconds']:9.3f} s  "
          f"speedup {r['speedup']:6.2f}  efficiency {r['efficiency']:6.1%}")
for r in s["model"]:
    print(f"  model    {r['workers']:>4} workers: {r['predicted_seconds']:9.3f} s  "
          f"speedup {r['speedup']:6.2f}  efficiency {r['efficiency']:6.1%}")
PY
