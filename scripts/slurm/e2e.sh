#!/usr/bin/env bash
# End-to-end test of a sharded count on a real (single-node) Slurm cluster.
#
#   scripts/slurm/e2e.sh        as root on Debian; exit 0 only when every check passed
#
# 1. builds the release binary (cargo build --release; nothing to do when it is fresh) and
#    starts the cluster with local-cluster.sh (installing munge and slurm-wlm when missing);
# 2. submits count.sbatch for n = 16 as an 8-task array (--array=0-7, one CPU each);
# 3. cancels array task 5 while it is running, waits for the other seven, and checks that
#    `nqueens merge` refuses (exit 1) and names shard 5/8 as incomplete;
# 4. requeues the cancelled task (scontrol requeue: it keeps its array environment, so
#    --shard slurm gives the same shard and journal), waits for it, merges, and checks the total
#    and unique counts against `nqueens known`;
# 5. deletes that task's journal and submits it again on its own (sbatch --array=5, whose
#    environment is an array of one task): without the shard count the task must fail, naming
#    SLURM_ARRAY_TASK_COUNT; with it (count.sbatch N DIR M: --shard slurm/M) it must count shard
#    5/8 again, and the merge must give the known counts again.
#
# Cancelling "mid-run" reliably: a shard of n = 16 counts in well under a second, too fast to
# hit. So the job is submitted with count.sbatch's test hook (NQUEENS_TEST_DELAY_SHARD=5):
# array task 5 sleeps before counting on its first run only. The cancel therefore hits a task
# that Slurm reports RUNNING but that has recorded nothing; step 3 checks exactly that, and the
# requeued run (SLURM_RESTART_COUNT=1, no sleep) must complete the count. Resuming a journal
# that holds part of a shard is tested by tests/integration/shards.rs and tests/integration/checkpoint.rs.
#
# On exit, pass or fail, the job is cancelled, the cluster stopped and the work directory
# removed (set NQUEENS_E2E_KEEP=1 to keep the directory and its logs).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$(pwd)

N=16
M=8
VICTIM=5
TIMEOUT=300

say() { echo "e2e: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

[ "$(id -u)" = 0 ] || fail "must run as root (it starts munged, slurmctld and slurmd)"

work=""
job=""
cleanup() {
    local rc=$?
    [ -n "$job" ] && scancel "$job" 2>/dev/null || true
    "$here/scripts/slurm/local-cluster.sh" stop || true
    if [ -n "$work" ]; then
        if [ "${NQUEENS_E2E_KEEP:-}" = 1 ] || [ "$rc" != 0 ]; then
            say "logs and journals kept in $work"
        else
            rm -rf "$work"
        fi
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "building the release binary"
cargo build --release --quiet
bin="$here/target/release/nqueens"

"$here/scripts/slurm/local-cluster.sh" start

work=$(mktemp -d /tmp/nqueens-e2e.XXXXXX)
chmod 755 "$work"

# state TASK: the Slurm state of one array task (empty while Slurm has no record of it).
state() { squeue -h -t all -j "$1" -o %T 2>/dev/null | head -n1; }

# wait_for WHAT COMMAND...: retries COMMAND every 0.2 s until it succeeds or TIMEOUT passes.
wait_for() {
    local what=$1
    shift
    local deadline=$((SECONDS + TIMEOUT))
    until "$@"; do
        [ "$SECONDS" -lt "$deadline" ] || fail "timed out waiting for $what"
        sleep 0.2
    done
}

is_state() { [ "$(state "$1")" = "$2" ]; }

# only_left TASK...: no array task is pending or running except those named.
only_left() {
    local active
    active=$(squeue -h -j "$job" -t PENDING,RUNNING,COMPLETING,CONFIGURING -r -o %i 2>/dev/null)
    for t in "$@"; do active=$(grep -vx "$t" <<<"$active" || true); done
    [ -z "$active" ]
}

say "submitting n = $N as a $M-task array (task $VICTIM sleeps before counting)"
job=$(sbatch --parsable --array=0-$((M - 1)) --cpus-per-task=1 \
    --output="$work/task-%a.log" \
    --export=ALL,NQUEENS="$bin",NQUEENS_TEST_DELAY_SHARD=$VICTIM,NQUEENS_TEST_DELAY_SECONDS=600 \
    scripts/slurm/count.sbatch "$N" "$work")
job=${job%%;*}
victim="${job}_${VICTIM}"

wait_for "task $VICTIM to run" is_state "$victim" RUNNING
say "cancelling $victim while it runs"
scancel "$victim"
wait_for "task $VICTIM to be cancelled" is_state "$victim" CANCELLED
wait_for "the other tasks to finish" only_left
for k in $(seq 0 $((M - 1))); do
    [ "$k" = "$VICTIM" ] && continue
    [ "$(state "${job}_$k")" = COMPLETED ] || fail "task $k is $(state "${job}_$k") (see $work/task-$k.log)"
done

say "merging with shard $VICTIM cancelled: must be refused"
set +e
refusal=$("$bin" merge "$work"/n$N-shard-*.ckpt 2>&1 >/dev/null)
rc=$?
set -e
say "merge said: $refusal"
[ "$rc" = 1 ] || fail "merge without shard $VICTIM exited $rc, expected 1"
grep -q "shard $VICTIM/$M" <<<"$refusal" || fail "merge did not name shard $VICTIM/$M"

say "requeueing $victim"
scontrol requeue "$victim"
# A requeued job waits a while before it may start again; let it start now.
scontrol update JobId="$victim" StartTime=now
wait_for "task $VICTIM to finish again" is_state "$victim" COMPLETED
grep -q "restart 1" "$work/task-$VICTIM.log" || fail "task $VICTIM did not run again"

say "merging all $M shards"
"$bin" merge "$work"/n$N-shard-*.ckpt
got=$("$bin" merge --format csv "$work"/n$N-shard-*.ckpt | awk -F, 'NR == 2 { print $2 "," $3 }')
want=$("$bin" known --max "$N" --format csv | awk -F, -v n="$N" '$1 == n { print $2 "," $3 }')
[ -n "$want" ] || fail "no known count for n = $N"
[ "$got" = "$want" ] || fail "merged total,unique $got, known $want"

say "submitting task $VICTIM again on its own, without the shard count: must be refused"
rm "$work/n$N-shard-$VICTIM.ckpt"
# rerun [M]: submits array task VICTIM alone; prints the Slurm id of the task.
rerun() {
    local id
    id=$(sbatch --parsable --array="$VICTIM" --cpus-per-task=1 \
        --output="$work/rerun-%A-%a.log" --export=ALL,NQUEENS="$bin" \
        scripts/slurm/count.sbatch "$N" "$work" "$@")
    echo "${id%%;*}_$VICTIM"
}
finished() { case $(state "$1") in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL) true ;; *) false ;; esac; }
alone=$(rerun)
wait_for "the task run alone to end" finished "$alone"
[ "$(state "$alone")" = FAILED ] || fail "task $VICTIM run alone with --shard slurm ended $(state "$alone"), expected FAILED"
log="$work/rerun-${alone%_*}-$VICTIM.log"
grep -q "SLURM_ARRAY_TASK_COUNT is 1" "$log" || fail "the refusal does not name SLURM_ARRAY_TASK_COUNT (see $log)"
[ ! -e "$work/n$N-shard-$VICTIM.ckpt" ] || fail "the refused task wrote a journal"

say "submitting it again with the shard count (--shard slurm/$M)"
alone=$(rerun "$M")
wait_for "the task run alone to finish" finished "$alone"
log="$work/rerun-${alone%_*}-$VICTIM.log"
[ "$(state "$alone")" = COMPLETED ] || fail "task $VICTIM run alone with --shard slurm/$M ended $(state "$alone") (see $log)"
grep -q "shard $VICTIM/$M" "$log" || fail "the log does not name shard $VICTIM/$M (see $log)"
got=$("$bin" merge --format csv "$work"/n$N-shard-*.ckpt | awk -F, 'NR == 2 { print $2 "," $3 }')
[ "$got" = "$want" ] || fail "merged total,unique $got after the re-run, known $want"
say "PASSED: n = $N total,unique = $got from $M shards, one cancelled and requeued, then re-run alone"
