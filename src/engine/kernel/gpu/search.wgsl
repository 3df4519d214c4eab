// The depth-first search of many sub-jobs at once, one GPU thread at a time on one sub-job,
// resumable: each thread runs at most `params.budget` steps per dispatch, then saves its stack
// to `state` and the host dispatches again until every thread is done.
//
// One step places one queen: it takes the lowest free square of the level on top of the
// stack, pops that level in the same step when the square was its last (so no step only backs
// up), and pushes the child row unless it has no free square. The child of the second-to-last
// row is the last row: its free squares are counted by popcount instead of pushed. The level's
// depth is not stored: it is the number of queens in its `cols` less the sub-job's own.
//
// The stacks live in workgroup memory, one `vec4<u32>` (free, cols, ld, rd) per level and
// thread: slot i of thread `lid` at `i * 64 + lid`; or in private arrays instead (`stack.rs`),
// so both can be measured.
//
// A sub-job is a board of a batch's job with a few more rows pre-placed by the host. Its job's
// tables (row steps and blocked squares, indexed by free rows left) are read from global memory
// once per sub-job, into `row_table` (one `vec2<u32>` per depth and thread, beside the stack): the
// loop itself reads no global memory. Threads are persistent: a thread that finishes a sub-job
// writes its 64-bit count (two u32 words) to `results` and takes the next sub-job from
// `control[0]`, so a dispatch stays full until the batch runs dry.
//
// The module runs without wgpu's runtime checks (no index clamps, no loop counter). Every index
// is in range by construction, which the host checks on every batch (`Split::check`):
// - a sub-job has 4 to LEVELS + 1 free rows, so depths run 0..=rows-2 < LEVELS, and the slots in
//   use never outnumber the depth of the top level plus one (a pop only removes slots);
// - a placed queen's bit is a free square, below n and in no column taken, so each level's
//   `cols` holds exactly its depth more queens than the sub-job's;
// - `tables` holds 66 words for every job a sub-job names, and `results` two per sub-job;
// - every loop ends: the search loop counts down `budget`, and the table copy runs `rows - 1`
//   times.

struct Params {
    // Sub-jobs in the batch.
    sub_jobs: u32,
    // Steps each thread runs in one dispatch at most.
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
// Stack slots per thread: the deepest sub-job's free rows less one (set by the host).
const LEVELS: u32 = 31u;
// `state` words of one thread, each stored at `word * threads + thread` (coalesced): the
// sub-job (or one of the two marks below), the slots in use, the count (lo, hi), then free,
// cols, ld, rd per slot.
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
// [0]: the next sub-job to take; [1]: threads not done after this dispatch; [2], [3]: the
// steps the threads ran in this dispatch (low and high word) and [4] the most one thread ran,
// for the share of the dispatch the threads were busy.
@group(0) @binding(5) var<storage, read_write> control: array<atomic<u32>>;

// Words between two slots of one thread: the workgroup's threads (1 for private arrays).
const STRIDE: u32 = 64u;

// The stacks and row tables of a workgroup's threads. (STACK-DECLARATIONS: `stack.rs`
// rewrites from here to the end marker for private arrays.)
var<workgroup> stack: array<vec4<u32>, 1984>;
var<workgroup> row_table: array<vec2<u32>, 1984>;
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
    var budget = params.budget;
    // Slots in use; the sub-job's own queens (`cols`), and the depth of its second-to-last row.
    var top = 0u;
    var base = 0u;
    var last = 0u;
    var lo = 0u;
    var hi = 0u;
    if cur != FRESH {
        top = state[threads + t];
        lo = state[2u * threads + t];
        hi = state[3u * threads + t];
        for (var i = 0u; i < top; i++) {
            let w = HEADER + 4u * i;
            stack[i * STRIDE + slot] = vec4<u32>(
                state[w * threads + t],
                state[(w + 1u) * threads + t],
                state[(w + 2u) * threads + t],
                state[(w + 3u) * threads + t],
            );
        }
    }
    // Whether the sub-job's rows must be copied into `row_table` (a resumed one's are not there).
    var fill = top != 0u;
    loop {
        if fill {
            fill = false;
            let s = sub_jobs[cur - 1u];
            base = countOneBits(s.cols);
            last = s.rows - 2u;
            for (var d = 0u; d <= last; d++) {
                let k = s.rows - d;
                row_table[d * STRIDE + slot] = vec2<u32>(
                    tables[s.job * TABLE + k],
                    tables[s.job * TABLE + BLOCKED + k - 1u],
                );
            }
            budget -= min(budget, s.rows);
        }
        // The search: one queen placed per step.
        loop {
            if budget == 0u || top == 0u {
                break;
            }
            budget -= 1u;
            let at = (top - 1u) * STRIDE + slot;
            let level = stack[at];
            let depth = countOneBits(level.y) - base;
            // (row step, blocked squares of the child row)
            let row = row_table[depth * STRIDE + slot];
            let bit = level.x & (0u - level.x);
            let rest = level.x ^ bit;
            stack[at].x = rest;
            // The last free square taken: the level is done, and the child takes its slot.
            top -= select(0u, 1u, rest == 0u);
            let c = level.y | bit;
            let l = (level.z | bit) << row.x;
            let r = (level.w | bit) >> row.x;
            let free = ~(c | l | r | row.y);
            let leaf = depth == last;
            let found = select(0u, countOneBits(free), leaf);
            lo += found;
            hi += select(0u, 1u, lo < found);
            if !leaf && free != 0u {
                stack[top * STRIDE + slot] = vec4<u32>(free, c, l, r);
                top += 1u;
            }
        }
        if budget == 0u {
            break;
        }
        // The sub-job is counted (or none was taken yet): store it, take the next.
        if cur != FRESH {
            results[2u * (cur - 1u)] = lo;
            results[2u * (cur - 1u) + 1u] = hi;
        }
        let taken = atomicAdd(&control[0], 1u);
        if taken >= params.sub_jobs {
            cur = DONE;
            break;
        }
        cur = taken + 1u;
        let s = sub_jobs[taken];
        lo = 0u;
        hi = 0u;
        let free = ~(s.cols | s.ld | s.rd | tables[s.job * TABLE + BLOCKED + s.rows]);
        stack[slot] = vec4<u32>(free, s.cols, s.ld, s.rd);
        top = select(0u, 1u, free != 0u);
        fill = top != 0u;
        budget -= 1u;
    }
    // The steps this thread ran, added to the dispatch's 64-bit total.
    let ran = params.budget - budget;
    let before = atomicAdd(&control[2], ran);
    if before + ran < before {
        atomicAdd(&control[3], 1u);
    }
    atomicMax(&control[4], ran);
    if cur == DONE {
        state[t] = DONE;
        return;
    }
    // Out of steps for this dispatch: save the stack.
    state[t] = cur;
    state[threads + t] = top;
    state[2u * threads + t] = lo;
    state[3u * threads + t] = hi;
    for (var i = 0u; i < top; i++) {
        let w = HEADER + 4u * i;
        let level = stack[i * STRIDE + slot];
        state[w * threads + t] = level.x;
        state[(w + 1u) * threads + t] = level.y;
        state[(w + 2u) * threads + t] = level.z;
        state[(w + 3u) * threads + t] = level.w;
    }
    atomicAdd(&control[1], 1u);
}
