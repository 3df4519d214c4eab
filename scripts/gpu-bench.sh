#!/usr/bin/env bash
# Times the gpu kernels of a binary built with `--features gpu` on the machine's GPU, side by
# side with the CUDA counter ygch/n_queens (the anchor) in the same run, and writes one table:
#
#   ANCHOR=DIR scripts/gpu-bench.sh BINARY [OUTDIR]      default OUTDIR: gpu-bench-<UTC time>
#
# ANCHOR: a folder holding the anchor's binary `ygch-c2` (built outside this repository from a
# snapshot of the public ygch/n_queens by its own build script; run as `ygch-c2 N 6`: 6
# pre-placed rows, its published configuration 2; it prints "cuda N queens result TOTAL, calc
# time: [MS ms]"); without ANCHOR the table says that no anchor ran.
#
# For each n in NS (default 19 20 21), REPEAT times (default 1), alternating: the anchor,
# `count N --kernel gpu-only` (not for n in ALONE_SKIP, default 21: it takes the longest) and
# `count N --kernel gpu` (the GPU beside one CPU worker per logical CPU); for n in CPU_NS
# (default 18 19) the CPU alone too, its fastest kernel named so that `auto` cannot add the
# GPU, so that the crossover can be read off. Then one traced count
# (`NQUEENS_GPU_TRACE=1 count TRACE_N --kernel gpu-only`, default 20), its stderr in
# OUTDIR/trace-nN.txt, and for n in VARIANT_NS (default 20) `gpu-only` with the last two rows
# in closed form (NQUEENS_GPU_LAST_ROWS=2) and with private stacks (NQUEENS_GPU_STACK=private).
# An empty ALONE_SKIP, CPU_NS, TRACE_N or VARIANT_NS runs none. Every time is the whole
# process's wall-clock time; every total is checked against the known table (`BINARY known`),
# a wrong one marked WRONG and the exit status made 1. A run over LIMIT seconds (default 300)
# is stopped and noted.
#
# The defaults are sized for about 3 minutes on one H100 with the anchor (from earlier
# figures). OUTDIR keeps every count's JSON, the anchor's output, machine.txt, runs.tsv (one
# line per run) and summary.md (the table, ready for docs/PERFORMANCE.md).
#
# The NVIDIA driver's Vulkan ICD is used where its manifest exists but the loader does not look
# there (VK_DRIVER_FILES / VK_ICD_FILENAMES are set to it, unless already set). Set
# NQUEENS_GPU_ADAPTER to pick another adapter than the first (`BINARY --version` lists them).
set -uo pipefail

binary=${1:?usage: ANCHOR=DIR scripts/gpu-bench.sh BINARY [OUTDIR]}
out=${2:-gpu-bench-$(date -u +%Y%m%dT%H%M%SZ)}
ns=${NS:-19 20 21}
alone_skip=${ALONE_SKIP-21}
cpu_ns=${CPU_NS-18 19}
trace_n=${TRACE_N-20}
variant_ns=${VARIANT_NS-20}
repeat=${REPEAT:-1}
limit=${LIMIT:-300}
anchor=${ANCHOR:-}
mkdir -p "$out"
status=0

if [[ -z ${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-} ]]; then
    for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
        /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
        if [[ -f $icd ]]; then
            export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
            break
        fi
    done
fi
# The driver's libraries, where the ICD manifest names them without a path.
if [[ -d /usr/local/nvidia/lib64 ]]; then
    export LD_LIBRARY_PATH=/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
# Mesa's drivers complain on stderr without it.
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
if [[ -n $anchor ]]; then
    if [[ ! -x $anchor/ygch-c2 ]]; then
        echo "ANCHOR=$anchor holds no executable ygch-c2" >&2
        exit 2
    fi
    # The anchor's OpenMP runtime, where the machine lacks it.
    export LD_LIBRARY_PATH=$anchor${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

# The CPU kernel `auto` picks: named for the CPU-alone runs.
cpu_kernel=$("$binary" --version | sed -n 's/.*(auto picks \([a-z0-9-]*\)).*/\1/p')
cpu_kernel=${cpu_kernel:-depth-first}

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(hostname)"
    echo "cpus: $(nproc) ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
    echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
    ldconfig -p 2>/dev/null | grep -q 'libvulkan.so.1' ||
        echo "warning: no libvulkan.so.1 in the linker cache (the Vulkan loader: apt-get install libvulkan1)"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    "$binary" --version
    echo "anchor: ${anchor:-none}"
} 2>&1 | tee "$out/machine.txt"

# The known total of the n-board.
known() {
    "$binary" known "$1" --format json | grep -o '"total": [0-9]*' | awk '{ print $2 }'
}

runs=$out/runs.tsv
printf 'n\trun\tseconds\ttotal\tcheck\tgpu_share\tgpu_busy\n' >"$runs"

# record N LABEL SECONDS TOTAL [SHARE BUSY]: one line of runs.tsv, the total checked.
record() {
    local n=$1 label=$2 seconds=$3 total=$4 check
    if [[ $total == "$(known "$n")" ]]; then
        check=ok
    else
        check=WRONG
        status=1
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$label" "$seconds" "$total" "$check" "${5:--}" "${6:--}" |
        tee -a "$runs"
}

# elapsed START: seconds since START (from `date +%s.%N`), two decimals.
elapsed() {
    awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'
}

# time_count LABEL N [ENV=VALUE...] -- ARGS...: one nqueens count, its JSON in OUTDIR.
time_count() {
    local label=$1 n=$2
    shift 2
    local envs=()
    while [[ $1 != -- ]]; do
        envs+=("$1")
        shift
    done
    shift
    local file=$out/$label-n$n.json start rc seconds
    start=$(date +%s.%N)
    env "${envs[@]}" timeout "$limit" "$binary" count "$n" --quiet --format json "$@" \
        >"$file" 2>"$out/$label-n$n.err"
    rc=$?
    seconds=$(elapsed "$start")
    if [[ $rc != 0 ]]; then
        record "$n" "$label" "$seconds" "failed (exit $rc, see $label-n$n.err)"
        return
    fi
    local total share busy
    total=$(grep -o '"total": [0-9]*' "$file" | head -1 | awk '{ print $2 }')
    share=$(grep -o '"gpu_share": [0-9.e-]*' "$file" | head -1 | awk '{ printf "%.3f", $2 }')
    busy=$(grep -o '"gpu_busy": [0-9.e-]*' "$file" | head -1 | awk '{ printf "%.3f", $2 }')
    record "$n" "$label" "$seconds" "$total" "$share" "$busy"
}

# time_anchor N: the anchor's whole process.
time_anchor() {
    local n=$1 file=$out/ygch-n$1.txt start rc seconds total
    start=$(date +%s.%N)
    timeout "$limit" "$anchor/ygch-c2" "$n" 6 >"$file" 2>&1
    rc=$?
    seconds=$(elapsed "$start")
    if [[ $rc != 0 ]]; then
        record "$n" ygch "$seconds" "failed (exit $rc, see ygch-n$n.txt)"
        return
    fi
    total=$(sed -n 's/.*cuda [0-9]* queens result \([0-9]*\).*/\1/p' "$file" | tail -1)
    record "$n" ygch "$seconds" "${total:-none}"
}

for ((r = 1; r <= repeat; r++)); do
    for n in $ns; do
        [[ -n $anchor ]] && time_anchor "$n"
        [[ " $alone_skip " == *" $n "* ]] || time_count gpu-only "$n" -- --kernel gpu-only
        time_count gpu "$n" -- --kernel gpu
        [[ " $cpu_ns " == *" $n "* ]] && time_count cpu "$n" -- --kernel "$cpu_kernel"
    done
    for n in $cpu_ns; do
        [[ " $ns " == *" $n "* ]] || time_count cpu "$n" -- --kernel "$cpu_kernel"
    done
done
if [[ -n $trace_n ]]; then
    start=$(date +%s.%N)
    NQUEENS_GPU_TRACE=1 timeout "$limit" "$binary" count "$trace_n" --kernel gpu-only --quiet \
        --format json >"$out/trace-n$trace_n.json" 2>"$out/trace-n$trace_n.txt"
    echo "traced count of n = $trace_n: $(elapsed "$start") s, $(grep -c '^nqueens: gpu batch' \
        "$out/trace-n$trace_n.txt") batches; $(grep '^nqueens: gpu stream' "$out/trace-n$trace_n.txt")"
fi
for n in $variant_ns; do
    time_count gpu-only-last-two "$n" NQUEENS_GPU_LAST_ROWS=2 -- --kernel gpu-only
    time_count gpu-only-private "$n" NQUEENS_GPU_STACK=private -- --kernel gpu-only
done

# median N LABEL: the median seconds of a run's repeats (empty when none succeeded).
median() {
    awk -F'\t' -v n="$1" -v l="$2" '$1 == n && $2 == l && $5 == "ok" { print $3 }' "$runs" |
        sort -g | awk '{ a[NR] = $1 } END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}

# ratio A B: A / B with two decimals, or "-".
ratio() {
    if [[ -n $1 && -n $2 ]]; then
        awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
    else
        echo -
    fi
}

summary=$out/summary.md
{
    card=$(command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
    echo "**${card:-the GPU of $(hostname)}, $(nproc) CPUs, $(date -u +%Y-%m-%d)**: \`scripts/gpu-bench.sh\`, whole process, median of $repeat; ratios are the anchor's time over ours (above 1: we lead)."
    echo
    echo "| n | ygch (CUDA) | gpu-only | gpu | ygch / gpu-only | ygch / gpu | CPU alone ($cpu_kernel) |"
    echo "|---|---|---|---|---|---|---|"
    seen=" "
    for n in $ns $cpu_ns; do
        [[ $seen == *" $n "* ]] && continue
        seen="$seen$n "
        y=$(median "$n" ygch)
        a=$(median "$n" gpu-only)
        g=$(median "$n" gpu)
        c=$(median "$n" cpu)
        if [[ -z $anchor ]]; then
            ycell="no anchor"
        elif [[ " $ns " != *" $n "* ]]; then
            ycell=-
        else
            ycell=${y:+$y s}
        fi
        echo "| $n | ${ycell:-failed} | ${a:+$a s} | ${g:+$g s} | $(ratio "$y" "$a") | $(ratio "$y" "$g") | ${c:+$c s} |" |
            sed 's/|  |/| - |/g; s/|  |/| - |/g'
    done
    for n in $variant_ns; do
        base=$(median "$n" gpu-only)
        echo
        echo "n = $n, \`gpu-only\`: last two rows in closed form $(median "$n" gpu-only-last-two) s, private stacks $(median "$n" gpu-only-private) s${base:+ (as built: $base s)}."
    done
    if grep -q WRONG "$runs"; then
        echo
        echo "**A total was wrong**: see runs.tsv."
    fi
} >"$summary"
echo
cat "$summary"
echo "results in $out"
exit "$status"
