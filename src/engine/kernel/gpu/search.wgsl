// The depth-first search of many sub-jobs at once, one GPU thread at a time on one sub-job,
// resumable: each thread runs at most `params.budget` node steps per dispatch, then saves its
// stack to `state` and the host dispatches again until every thread is done.
//
// The stacks (free squares and the three masks per level) live in workgroup memory, level i
// of thread `lid` at `i * 64 + lid` (ygch/n_queens keeps its stacks in shared memory too); the
// host sizes them to the batch's deepest sub-job (LEVELS), or turns them into private arrays
// instead (`stack.rs`), so both can be measured.
//
// A sub-job is a board of a batch's job with a few more rows pre-placed by the host: the job's
// tables (row steps and blocked squares, indexed by free rows left) and the masks of the
// sub-job's first free row. Threads are persistent: a thread that finishes a sub-job writes its
// 64-bit count (two u32 words) to `results` and takes the next sub-job from `control[0]`, so a
// dispatch stays full until the batch runs dry.
//
// The search is the depth-first kernel's (`depth_first.rs`): u32 masks (every board up to
// n = 32 fits), a lookahead of the next three free rows, and the last two rows in closed form.

struct Params {
    // Sub-jobs in the batch.
    sub_jobs: u32,
    // Node steps each thread runs in one dispatch at most.
    budget: u32,
    // Threads of a dispatch: the stride of `state`.
    threads: u32,
    _pad: u32,
}

struct SubJob {
    job: u32,
    rows: u32,
    cols: u32,
    ld: u32,
    rd: u32,
}

// Words per job in `tables`: steps[0..=32] then blocked[0..=32].
const TABLE: u32 = 66u;
const BLOCKED: u32 = 33u;
// Stack levels: k free rows left, k = 3..=32, at index k - 3.
const LEVELS: u32 = 30u;
// `state` words of one thread, each stored at `word * threads + thread` (coalesced): the
// sub-job (or one of the two marks below), k, the count (lo, hi), then free, cols, ld, rd per
// level.
const HEADER: u32 = 4u;
// The thread has no sub-job yet (the host clears `state` to zeros before a batch).
const FRESH: u32 = 0u;
// The thread found no sub-job left: done for the batch.
const DONE: u32 = 0xffffffffu;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> tables: array<u32>;
@group(0) @binding(2) var<storage, read> sub_jobs: array<SubJob>;
@group(0) @binding(3) var<storage, read_write> results: array<u32>;
@group(0) @binding(4) var<storage, read_write> state: array<u32>;
// [0]: the next sub-job to take; [1]: threads not done after this dispatch.
@group(0) @binding(5) var<storage, read_write> control: array<atomic<u32>>;

fn steps(job: u32, k: u32) -> u32 {
    return tables[job * TABLE + k];
}

fn blocked(job: u32, k: u32) -> u32 {
    return tables[job * TABLE + BLOCKED + k];
}

// Completions of the last two free rows, `gap` rows apart, with free squares `upper`, `lower`.
fn last_two_rows(upper: u32, lower: u32, gap: u32) -> u32 {
    let pairs = countOneBits(upper) * countOneBits(lower);
    let taken = countOneBits(upper & lower) + countOneBits((upper << gap) & lower)
        + countOneBits((upper >> gap) & lower);
    return pairs - taken;
}

// Words between two levels of one thread's stack: the workgroup's threads (1 for private
// arrays).
const STRIDE: u32 = 64u;

// The stacks of a workgroup's threads. (STACK-DECLARATIONS: `stack.rs` rewrites from here to
// the end marker for private arrays.)
var<workgroup> fr: array<u32, 1920>;
var<workgroup> cl: array<u32, 1920>;
var<workgroup> dl: array<u32, 1920>;
var<workgroup> dr: array<u32, 1920>;
// (END-STACK-DECLARATIONS)

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let t = gid.x;
    let threads = params.threads;
    if t >= threads {
        return;
    }
    // The sub-job is stored plus one, so that a cleared state reads FRESH.
    var cur = state[t];
    if cur == DONE {
        return;
    }
    // This thread's slot in the stacks. (PRIVATE-STACK)
    let slot = lid;
    var k = 0u;
    var rows = 0u;
    var job = 0u;
    var lo = 0u;
    var hi = 0u;
    // Whether the thread needs its next sub-job: the one place sub-jobs are taken.
    var fresh = cur == FRESH;
    if !fresh {
        let s = sub_jobs[cur - 1u];
        job = s.job;
        rows = s.rows;
        k = state[threads + t];
        lo = state[2u * threads + t];
        hi = state[3u * threads + t];
        for (var i = k - 3u; i <= rows - 3u; i++) {
            let w = HEADER + 4u * i;
            fr[i * STRIDE + slot] = state[w * threads + t];
            cl[i * STRIDE + slot] = state[(w + 1u) * threads + t];
            dl[i * STRIDE + slot] = state[(w + 2u) * threads + t];
            dr[i * STRIDE + slot] = state[(w + 3u) * threads + t];
        }
    }
    var budget = params.budget;
    loop {
        if fresh {
            let taken = atomicAdd(&control[0], 1u);
            if taken >= params.sub_jobs {
                cur = DONE;
                break;
            }
            fresh = false;
            cur = taken + 1u;
            let s = sub_jobs[taken];
            job = s.job;
            rows = s.rows;
            k = rows;
            lo = 0u;
            hi = 0u;
            let top = (k - 3u) * STRIDE + slot;
            cl[top] = s.cols;
            dl[top] = s.ld;
            dr[top] = s.rd;
            fr[top] = ~(s.cols | s.ld | s.rd | blocked(job, k));
        }
        if budget == 0u {
            break;
        }
        budget -= 1u;
        let at = (k - 3u) * STRIDE + slot;
        let f = fr[at];
        if f == 0u {
            // This row is exhausted: back up one row.
            k += 1u;
            if k > rows {
                // The sub-job is counted: store it; the next one is taken above.
                results[2u * (cur - 1u)] = lo;
                results[2u * (cur - 1u) + 1u] = hi;
                fresh = true;
            }
            continue;
        }
        let bit = f & (0u - f);
        fr[at] = f ^ bit;
        let s = steps(job, k);
        let c = cl[at] | bit;
        let l = (dl[at] | bit) << s;
        let r = (dr[at] | bit) >> s;
        if k == 3u {
            // The last two rows in closed form.
            let g = steps(job, 2u);
            let upper = ~(c | l | r | blocked(job, 2u));
            let lower = ~(c | (l << g) | (r >> g) | blocked(job, 1u));
            let sum = lo + last_two_rows(upper, lower, g);
            if sum < lo {
                hi += 1u;
            }
            lo = sum;
            continue;
        }
        let below = ~(c | l | r | blocked(job, k - 1u));
        if below == 0u {
            continue;
        }
        // Lookahead: the two free rows after the next need a free square each, even before
        // the next queen is placed.
        let s2 = steps(job, k - 1u);
        let s3 = s2 + steps(job, k - 2u);
        let after = ~(c | (l << s2) | (r >> s2) | blocked(job, k - 2u));
        let later = ~(c | (l << s3) | (r >> s3) | blocked(job, k - 3u));
        if after == 0u || later == 0u {
            continue;
        }
        k -= 1u;
        let child = at - STRIDE;
        fr[child] = below;
        cl[child] = c;
        dl[child] = l;
        dr[child] = r;
    }
    if cur == DONE {
        state[t] = DONE;
        return;
    }
    // Out of steps for this dispatch: save the stack.
    state[t] = cur;
    state[threads + t] = k;
    state[2u * threads + t] = lo;
    state[3u * threads + t] = hi;
    for (var i = k - 3u; i <= rows - 3u; i++) {
        let w = HEADER + 4u * i;
        state[w * threads + t] = fr[i * STRIDE + slot];
        state[(w + 1u) * threads + t] = cl[i * STRIDE + slot];
        state[(w + 2u) * threads + t] = dl[i * STRIDE + slot];
        state[(w + 3u) * threads + t] = dr[i * STRIDE + slot];
    }
    atomicAdd(&control[1], 1u);
}
