#!/usr/bin/env bash
# Measures how long after exec a count is unprotected from SIGINT: for REPS launches of
# `nqueens count 14 --checkpoint FILE` under strace (a seccomp filter: only execve and
# rt_sigaction are traced, the rest runs at full speed), the milliseconds from execve to the
# Rust runtime ignoring SIGPIPE (just before main) and to SIGINT's handler being installed.
# A signal before the handler ends the process by its default action. Prints the medians.
#
#   scripts/signal-window.sh [REPS] [BINARY]   defaults: 40 target/release/nqueens (built)
set -euo pipefail
cd "$(dirname "$0")/.."

reps=${1:-40}
binary=${2:-}
if ! [[ $reps =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/signal-window.sh [REPS] [BINARY]   (for example: scripts/signal-window.sh 40)" >&2
    exit 2
fi
command -v strace >/dev/null || { echo "signal-window.sh: strace is needed" >&2; exit 1; }
if [[ -z $binary ]]; then
    cargo build --quiet --release
    binary=target/release/nqueens
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

for i in $(seq "$reps"); do
    strace -f --seccomp-bpf -ttt -e trace=execve,rt_sigaction -o "$dir/trace" \
        "$binary" count 14 --checkpoint "$dir/j$i" >/dev/null 2>&1
    awk '/execve\("/ && !e {e=$2}
         /rt_sigaction\(SIGPIPE, \{sa_handler=SIG_IGN/ && e && !p {p=$2}
         /rt_sigaction\(SIGINT, \{sa_handler=0x/ && e && !s {s=$2}
         END {printf "%.3f %.3f\n", (p-e)*1e3, (s-e)*1e3}' "$dir/trace"
done >"$dir/times"
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
printf 'runs %d, medians: main about to run %.3f ms after execve, handler installed %.3f ms\n' \
    "$reps" "$(cut -d' ' -f1 "$dir/times" | median)" "$(cut -d' ' -f2 "$dir/times" | median)"
