#!/usr/bin/env bash
# Lints and tests the library for aarch64, where the NEON lane kernel is compiled: on an x86-64
# host it cross-compiles (aarch64-linux-gnu-gcc as linker) and runs the test binary under
# qemu-user; on an aarch64 host it runs natively. Installs what is missing (the Rust target;
# the Debian cross linker and qemu-user, with apt-get, as root or through sudo), then fails
# unless the kernel harness ran the NEON kernel.
#
#   scripts/test-aarch64.sh            the engine's tests and the known counts, less the
#                                      brute-force row search of the widest boards (about 15 s
#                                      under qemu, where every test takes a quarter of an hour)
#   scripts/test-aarch64.sh FILTER...  the tests whose names contain a FILTER; "" runs every
#                                      library test (about 16 min under qemu)
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
log() { printf '=== %s\n' "$*" >&2; }
die() {
    printf 'test-aarch64: %s\n' "$*" >&2
    exit 1
}

if [[ "$(uname -m)" != aarch64 ]]; then
    if ! rustup target list --installed | grep -qx "$target"; then
        log "rustup target add $target"
        rustup target add "$target"
    fi
    qemu=$(command -v qemu-aarch64 || command -v qemu-aarch64-static || true)
    if ! command -v aarch64-linux-gnu-gcc >/dev/null || [[ -z "$qemu" ]]; then
        sudo=()
        if [[ $(id -u) -ne 0 ]]; then
            command -v sudo >/dev/null || die "need root (or sudo) to install gcc-aarch64-linux-gnu and qemu-user"
            sudo=(sudo)
        fi
        log "apt-get install gcc-aarch64-linux-gnu qemu-user"
        "${sudo[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq gcc-aarch64-linux-gnu qemu-user
        qemu=$(command -v qemu-aarch64 || command -v qemu-aarch64-static || true)
    fi
    command -v aarch64-linux-gnu-gcc >/dev/null || die "aarch64-linux-gnu-gcc not found after installing"
    [[ -n "$qemu" ]] || die "qemu-aarch64 not found after installing"
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="$qemu -L /usr/aarch64-linux-gnu"
fi

log "cargo clippy -p nqueens-count --lib --tests --target $target -- -D warnings"
cargo clippy -p nqueens-count --lib --tests --target "$target" -- -D warnings

log "cargo build (tests) for $target"
cargo test -p nqueens-count --lib --target "$target" --no-run

# The kernel harness names every kernel it skips on stderr; the NEON kernel must not be one.
if [[ $# -eq 0 ]]; then
    set -- engine:: known --skip the_widest_boards_count_like_a_row_search
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
log "cargo test -p nqueens-count --lib --target $target -- --nocapture $*"
start=$SECONDS
cargo test -p nqueens-count --lib --target "$target" -- --nocapture "$@" 2>&1 | tee "$out"
if ! grep -q '^test engine::kernel::lanes::' "$out"; then
    log "cargo test -p nqueens-count --lib --target $target -- --nocapture engine::kernel::lanes"
    cargo test -p nqueens-count --lib --target "$target" -- --nocapture engine::kernel::lanes 2>&1 | tee -a "$out"
fi
log "tests took $((SECONDS - start)) s"

if grep -q 'skipped on this CPU: the neon kernel' "$out"; then
    die "the harness skipped the NEON kernel"
fi
# Test names are printed as each test starts; cargo test has already failed on any failure.
grep -q '^test engine::kernel::lanes::tests::every_kernel_agrees' "$out" ||
    die "the kernel harness did not run"
grep -q '^test engine::kernel::lanes::aarch64::neon::tests::' "$out" ||
    die "the NEON lane tests did not run"
skipped=$(grep -oE 'skipped on this CPU: the [a-z0-9-]+ kernel' "$out" | sed 's/.* the //; s/ kernel//' | sort -u)
ran=()
for kernel in avx512 avx2 neon portable-lanes depth-first; do
    grep -qx "$kernel" <<<"$skipped" || ran+=("$kernel")
done
log "kernels compared with the depth-first search: ${ran[*]}"
log "kernels skipped (not available on $target): $(echo $skipped)"
log "aarch64 tests passed, NEON kernel included"
