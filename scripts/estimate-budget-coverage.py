#!/usr/bin/env python3
"""How often the 95% interval of a time-budget `nqueens estimate` holds the known total.

    scripts/estimate-budget-coverage.py [--runs-per-cell R] [--bin PATH] [--boards 12 14 16]

Runs `nqueens estimate N --seconds B --threads T --seed S --full-budget --format json` (the
whole budget spent on probes: no exact count, no early stop) for every cell of boards N,
threads T (1 and 2) and load (none, or a process spinning on CPU 0 beside it), R runs a cell
with budgets cycling through 0.2, 0.5, 1 and 2 seconds and seeds 1, 2, ..., and prints a
Markdown table: runs, intervals missing the known total, coverage, and the mean signed error
in half-widths ((estimate - known) / half-width; 0 for an unbiased estimate, within about
+-0.5 / sqrt(runs) for a normal one whose interval is right). Needs the release binary
(`cargo build --release`) and, for the load, `taskset` (util-linux).
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys

BUDGETS = [0.2, 0.5, 1.0, 2.0]


def estimate(binary, n, seconds, threads, seed):
    out = subprocess.run(
        [binary, "estimate", str(n), "--seconds", str(seconds), "--threads", str(threads),
         "--seed", str(seed), "--full-budget", "--format", "json", "--quiet"],
        check=True, capture_output=True, text=True).stdout
    record = json.loads(out)
    if isinstance(record, list):
        record = record[0]
    total = record.get("total", record.get("estimate_total"))
    return total, record["total_low"], record["total_high"], record["known_total"]


def spinner():
    """A process spinning on CPU 0 (the other programs of a busy machine)."""
    spin = ["sh", "-c", "while :; do :; done"]
    if shutil.which("taskset"):
        spin = ["taskset", "-c", "0"] + spin
    return subprocess.Popen(spin)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs-per-cell", type=int, default=40)
    parser.add_argument("--bin", default="target/release/nqueens")
    parser.add_argument("--boards", type=int, nargs="+", default=[12, 14, 16])
    args = parser.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"{args.bin}: not found (run cargo build --release first)")
    print("| n | threads | load | runs | misses | coverage | mean signed error (half-widths) |")
    print("|---|---|---|---|---|---|---|")
    all_runs = all_misses = 0
    worst = 1.0
    for n in args.boards:
        for threads in (1, 2):
            for loaded in (False, True):
                spin = spinner() if loaded else None
                misses, errors = 0, []
                try:
                    for r in range(args.runs_per_cell):
                        seconds = BUDGETS[r % len(BUDGETS)]
                        total, low, high, known = estimate(args.bin, n, seconds, threads, r + 1)
                        misses += not (low <= known <= high)
                        half = (high - low) / 2
                        errors.append((total - known) / half if half > 0 else 0.0)
                finally:
                    if spin:
                        spin.kill()
                        spin.wait()
                runs = len(errors)
                coverage = 1 - misses / runs
                worst = min(worst, coverage)
                all_runs += runs
                all_misses += misses
                mean = sum(errors) / runs
                print(f"| {n} | {threads} | {'a spinning process' if loaded else 'none'} | {runs} "
                      f"| {misses} | {100 * coverage:.1f}% | {mean:+.2f} |", flush=True)
    print()
    print(f"All: {all_runs} runs, {all_misses} misses "
          f"({100 * (1 - all_misses / all_runs):.1f}% coverage); worst cell {100 * worst:.1f}%.")


if __name__ == "__main__":
    main()
