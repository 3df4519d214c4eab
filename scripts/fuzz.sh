#!/usr/bin/env bash
# Runs the fuzz targets (fuzz/, libFuzzer through cargo-fuzz) one after the other, each for
# SECONDS (default 600), and prints per target its executions and what it found.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     targets: journal merge study args (default: all)
#
# journal: a journal resumed by a count; merge: shard journals merged; study: a saved `scale`
# result read by `scale --compare`; args: a command line and the variables the command reads
# (NQUEENS_PROGRESS_SECONDS, the gpu build's NQUEENS_GPU_*, Slurm's SLURM_ARRAY_*).
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`, about two minutes). cargo-fuzz passes
# nightly-only flags (-Zsanitizer=address, -Cpasses=sancov-module): the script builds with the
# stable toolchain and RUSTC_BOOTSTRAP=1, which lets stable rustc take them, the address
# sanitizer included (no `--sanitizer none` needed). FUZZ_TOOLCHAIN=nightly uses a nightly.
#
# Each target starts from its committed corpus (fuzz/corpus/TARGET) and the inputs that once
# failed it (fuzz/regressions/TARGET); what it adds goes to target/fuzz-corpus/TARGET (not
# committed), a failing input to fuzz/artifacts/TARGET. Logs: target/fuzz-logs/TARGET.log.
# Runs under `nice -n 10`, one target at a time, on one core. FUZZ_ARGS adds libFuzzer options
# (FUZZ_ARGS=-max_len=4096 keeps `merge` to its n = 8 journals: 40 times the executions).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || {
    echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2
    exit 2
}
shift || true
targets=("$@")
(( ${#targets[@]} )) || targets=(journal merge study args)

cargo fuzz --version >/dev/null 2>&1 || {
    echo "scripts/fuzz.sh: needs cargo-fuzz: cargo install cargo-fuzz" >&2
    exit 1
}
toolchain=${FUZZ_TOOLCHAIN:-stable}
export RUSTC_BOOTSTRAP=1

mkdir -p target/fuzz-logs
echo "building the targets (cargo +$toolchain fuzz build, RUSTC_BOOTSTRAP=1)"
for target in "${targets[@]}"; do cargo "+$toolchain" fuzz build -O "$target"; done

failed=0
printf '\n%-8s %12s %8s %10s %s\n' target executions seconds corpus findings
for target in "${targets[@]}"; do
    work=target/fuzz-corpus/$target
    mkdir -p "$work" "fuzz/artifacts/$target"
    seeds=(fuzz/corpus/"$target")
    [[ -d fuzz/regressions/$target ]] && seeds+=(fuzz/regressions/"$target")
    log=target/fuzz-logs/$target.log
    stamp=target/fuzz-logs/$target.start
    touch "$stamp"
    status=0
    nice -n 10 cargo "+$toolchain" fuzz run -O "$target" "$work" "${seeds[@]}" -- \
        -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 ${FUZZ_ARGS:-} \
        >"$log" 2>&1 || status=$?
    execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
    took=$(grep -oE '^#[0-9]+[[:space:]]+DONE.*' "$log" | tail -1)
    findings=$(find "fuzz/artifacts/$target" -type f -newer "$stamp" 2>/dev/null | wc -l)
    corpus=$(find "$work" -type f | wc -l)
    if (( status != 0 )); then
        failed=1
        findings="$findings (exit $status: see $log)"
    fi
    printf '%-8s %12s %8s %10s %s\n' "$target" "${execs:-?}" "$seconds" "$corpus" "$findings"
    [[ -n $took ]] && echo "         $took"
done
exit "$failed"
