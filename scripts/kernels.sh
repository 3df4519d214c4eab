#!/usr/bin/env bash
# Times `nqueens count N -t THREADS` (the whole process: plan, search, unique) with `auto` and
# every kernel this CPU runs, ROUNDS times, alternating the kernels within each round so a busy machine slows
# them alike; prints each run, then each kernel's best time and its speed-up over the
# depth-first search.
#
#   scripts/kernels.sh [N] [THREADS] [ROUNDS] [BINARY]   defaults: 17 2 3 target/release/nqueens
#
# BINARY times another build (for example an older one); KERNELS="avx2 depth-first" fixes the
# kernels to time (by default, every kernel the binary accepts on this CPU).
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-17}
threads=${2:-2}
rounds=${3:-3}
binary=${4:-target/release/nqueens}
if [[ $# -gt 4 ]] || ! [[ $n =~ ^[0-9]+$ && $threads =~ ^[0-9]+$ && $rounds =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/kernels.sh [N] [THREADS] [ROUNDS] [BINARY]   (for example: scripts/kernels.sh 17 2 3)" >&2
    exit 2
fi
if [[ $binary == target/release/nqueens ]]; then
    cargo build --quiet --release
fi

kernels=${KERNELS:-}
if [[ -z $kernels ]]; then
    kernels="auto "
    for k in avx512 avx2 neon portable-lanes depth-first; do
        if "$binary" count 4 --kernel "$k" --format csv >/dev/null 2>&1; then
            kernels+="$k "
        else
            echo "skipped: the $k kernel is not available on this CPU" >&2
        fi
    done
fi

declare -A best
for ((r = 1; r <= rounds; r++)); do
    for k in $kernels; do
        start=$(date +%s.%N)
        line=$("$binary" count "$n" -t "$threads" --kernel "$k" --format csv | tail -n 1)
        end=$(date +%s.%N)
        secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
        printf 'round %d  %-15s %8.3f s   %s\n' "$r" "$k" "$secs" "$line"
        if [[ -z ${best[$k]:-} ]] || awk -v a="$secs" -v b="${best[$k]}" 'BEGIN { exit !(a < b) }'; then
            best[$k]=$secs
        fi
    done
done

echo
echo "n = $n, $threads thread(s), best of $rounds whole-process runs:"
reference=${best[depth-first]:-}
for k in $kernels; do
    if [[ -n $reference ]]; then
        printf '  %-15s %8.3f s   %5.2fx the depth-first search\n' "$k" "${best[$k]}" \
            "$(awk -v a="$reference" -v b="${best[$k]}" 'BEGIN { print a / b }')"
    else
        printf '  %-15s %8.3f s\n' "$k" "${best[$k]}"
    fi
done
