#!/usr/bin/env bash
# Measures what --checkpoint and the progress bar cost a count, in one run, as ratios.
#
# Usage: scripts/checkpoint-overhead.sh [N] [ROUNDS] [THREADS]   (defaults: 16 5 all CPUs)
#
# Each round counts the N-board three ways, in turn: plain (--quiet, stderr not a terminal),
# with --checkpoint to a fresh file, and with the progress bar drawn on a pseudo-terminal
# (needs `script` from util-linux). It prints each way's median of the `wall_time` the count
# itself reports, and its ratio to the plain median. Build first: cargo build --release.
set -euo pipefail
n=${1:-16}
rounds=${2:-5}
threads=${3:-$(nproc)}
bin=${NQUEENS:-target/release/nqueens}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

seconds_of() { # CSV on stdin -> the wall_time column of its one record
    awk -F, 'NR==1 { for (i = 1; i <= NF; i++) if ($i == "wall_time") c = i } NR==2 { print $c }'
}

plain=() checkpoint=() progress=()
for ((r = 1; r <= rounds; r++)); do
    plain+=("$("$bin" count "$n" -t "$threads" -q --format csv 2>/dev/null | seconds_of)")
    rm -f "$dir/ckpt"
    checkpoint+=("$("$bin" count "$n" -t "$threads" -q --format csv --checkpoint "$dir/ckpt" | seconds_of)")
    if command -v script >/dev/null; then
        script -qec "$bin count $n -t $threads --format csv > $dir/out.csv" /dev/null >/dev/null
        progress+=("$(seconds_of < "$dir/out.csv")")
    fi
done
echo "samples (s): plain ${plain[*]}; checkpoint ${checkpoint[*]}; progress ${progress[*]:-}"

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
base=$(median "${plain[@]}")
echo "n = $n, $threads threads, $rounds rounds, median seconds (ratio to plain):"
printf '  %-12s %8.3f s\n' plain "$base"
for way in checkpoint progress; do
    declare -n runs=$way
    [ ${#runs[@]} -eq 0 ] && continue
    m=$(median "${runs[@]}")
    printf '  %-12s %8.3f s  (%.3f)\n' "$way" "$m" "$(echo "$m / $base" | bc -l)"
done
