#!/usr/bin/env bash
# Times `nqueens count N --threads 1 --strategy mirror` against a plain C bitmask counter with the
# same mirror halving (scripts/reference/bitmask.c, gcc -O3 -march=native), alternating the two
# REPEAT times, and prints the best CPU (user) seconds of each and their ratio (Rust / C; below 1
# means the engine is faster). Also prints the 2-thread speedup of the engine over 1 thread.
# On a CPU with AVX-512 the engine counts the mirror tasks with its lane kernel; elsewhere with
# the depth-first row kernel, the like-for-like match for the C program.
#
# Usage: scripts/compare-c.sh [N=16] [REPEAT=3]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-16}
repeat=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet
gcc -O3 -march=native -o "$work/bitmask" scripts/reference/bitmask.c
bin=target/release/nqueens

# best_of CMD...: the least user time (and wall time) over $repeat runs, as "user wall".
best_of() {
    local best_user=inf best_wall=inf
    for _ in $(seq "$repeat"); do
        local t
        t=$( { /usr/bin/time -f "%U %e" "$@" >/dev/null; } 2>&1 | tail -n 1)
        best_user=$(python3 -c "print(min(float('$best_user'), ${t% *}))")
        best_wall=$(python3 -c "print(min(float('$best_wall'), ${t#* }))")
    done
    echo "$best_user $best_wall"
}

want=$("$work/bitmask" "$n")
got=$("$bin" count "$n" --threads 1 --strategy mirror --format csv | tail -n 1 | cut -d, -f2)
[ "$want" = "$got" ] || { echo "totals differ: C $want, nqueens $got" >&2; exit 1; }

read -r c_user c_wall < <(best_of "$work/bitmask" "$n")
read -r r1_user r1_wall < <(best_of "$bin" count "$n" --threads 1 --strategy mirror)
read -r r2_user r2_wall < <(best_of "$bin" count "$n" --threads 2 --strategy mirror)

python3 - "$n" "$repeat" "$c_user" "$c_wall" "$r1_user" "$r1_wall" "$r2_wall" <<'PY'
import sys
n, rep = sys.argv[1], sys.argv[2]
c_user, c_wall, r1_user, r1_wall, r2_wall = map(float, sys.argv[3:])
print(f"n = {n}, best of {rep} runs each")
print(f"{'C bitmask (gcc -O3 -march=native)':40} user {c_user:7.2f} s   wall {c_wall:7.2f} s")
print(f"{'nqueens --threads 1 --strategy mirror':40} user {r1_user:7.2f} s   wall {r1_wall:7.2f} s")
print(f"{'nqueens --threads 2 --strategy mirror':40} {'':18}wall {r2_wall:7.2f} s")
print(f"ratio nqueens/C (user time, 1 thread): {r1_user / c_user:.3f}")
print(f"speedup 2 threads vs 1 (wall time):    {r1_wall / r2_wall:.3f}")
PY
