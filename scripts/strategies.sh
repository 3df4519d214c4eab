#!/usr/bin/env bash
# Times the `mirror` and `symmetric` strategies on one board in one run and prints the speed-up,
# then the symmetric inner kernel's nodes per second, then its two kernels (lanes, depth-first)
# timed on the same tasks with their ratio.
#
#   scripts/strategies.sh N [THREADS]      e.g.  scripts/strategies.sh 17 2
#
# THREADS defaults to every logical CPU. Both strategies run back to back in one process, so a
# busy machine slows both alike; compare the ratio, and repeat a run before trusting it.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: scripts/strategies.sh N [THREADS]   (for example: scripts/strategies.sh 17 2)" >&2
    exit 2
fi

cargo build --quiet --release --example strategies
exec target/release/examples/strategies "$@"
