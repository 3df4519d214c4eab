#!/usr/bin/env bash
# Times the gpu kernels of a binary built with `--features gpu`, on the machine's GPU:
#
#   scripts/gpu-bench.sh BINARY [OUTDIR]      default OUTDIR: gpu-bench-<UTC time>
#
# Prints the adapters the binary finds, then times `count N --kernel gpu-only` for N in
# GPU_NS (default 16..21), and for N in BOTH_NS (default 18..20) the GPU beside the CPU
# (`--kernel gpu`, one CPU worker per logical CPU), the CPU alone (`--kernel auto`) and the GPU
# alone with its stacks in private arrays instead of workgroup memory (NQUEENS_GPU_STACK=private);
# then `count SWEEP_N --kernel gpu-only` (default 20) with NQUEENS_GPU_THREADS set to each of
# THREADS_LIST (default 32768 65536 131072 262144).
# Every count writes its JSON record (total, unique, seconds, the GPU's share) to OUTDIR; the
# summary gives the whole process's wall-clock time too. A count over LIMIT seconds (default
# 300) is stopped and noted.
#
# The NVIDIA driver's Vulkan ICD is used where its manifest exists but the loader does not look
# there (VK_DRIVER_FILES / VK_ICD_FILENAMES are set to it, unless already set). Set
# NQUEENS_GPU_ADAPTER to pick another adapter than the first (`BINARY --version` lists them).
set -uo pipefail

binary=${1:?usage: scripts/gpu-bench.sh BINARY [OUTDIR]}
out=${2:-gpu-bench-$(date -u +%Y%m%dT%H%M%SZ)}
gpu_ns=${GPU_NS:-16 17 18 19 20 21}
both_ns=${BOTH_NS:-18 19 20}
limit=${LIMIT:-300}
mkdir -p "$out"

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

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(hostname)"
    echo "cpus: $(nproc)"
    echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
    ldconfig -p 2>/dev/null | grep -q 'libvulkan.so.1' ||
        echo "warning: no libvulkan.so.1 in the linker cache (the Vulkan loader: apt-get install libvulkan1)"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    "$binary" --version
} 2>&1 | tee "$out/machine.txt"

summary=$out/summary.txt
printf '%-4s %-22s %12s %10s %22s %9s %s\n' n run wall_s count_s total gpu_share stack | tee "$summary"

# time_count LABEL N ARGS... : one count, its JSON in OUTDIR/LABEL-nN.json.
time_count() {
    local label=$1 n=$2
    shift 2
    local file=$out/$label-n$n.json
    local start end rc
    start=$(date +%s.%N)
    timeout "$limit" "$binary" count "$n" --quiet --format json "$@" >"$file" 2>"$out/$label-n$n.err"
    rc=$?
    end=$(date +%s.%N)
    local wall
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    if [[ $rc != 0 ]]; then
        printf '%-4s %-22s %12s %s\n' "$n" "$label" "$wall" "failed (exit $rc; see $label-n$n.err)" | tee -a "$summary"
        return
    fi
    local seconds total share stack
    seconds=$(grep -o '"seconds": [0-9.e-]*' "$file" | head -1 | awk '{ printf "%.2f", $2 }')
    total=$(grep -o '"total": [0-9]*' "$file" | head -1 | awk '{ print $2 }')
    share=$(grep -o '"gpu_share": [0-9.e-]*' "$file" | head -1 | awk '{ printf "%.3f", $2 }')
    stack=$(grep -o '"gpu_stack": "[a-z]*"' "$file" | head -1 | awk -F'"' '{ print $4 }')
    printf '%-4s %-22s %12s %10s %22s %9s %s\n' "$n" "$label" "$wall" "$seconds" "$total" "${share:--}" "${stack:--}" |
        tee -a "$summary"
}

for n in $gpu_ns; do
    time_count gpu-only "$n" --kernel gpu-only
done
for n in $both_ns; do
    time_count gpu+cpu "$n" --kernel gpu
    time_count cpu "$n" --kernel auto
    NQUEENS_GPU_STACK=private time_count gpu-only-private "$n" --kernel gpu-only
done
for threads in ${THREADS_LIST:-32768 65536 131072 262144}; do
    NQUEENS_GPU_THREADS=$threads time_count "gpu-only-t$threads" "${SWEEP_N:-20}" --kernel gpu-only
done
echo "results in $out"
