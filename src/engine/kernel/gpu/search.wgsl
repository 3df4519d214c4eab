// The depth-first search of many sub-jobs at once, one GPU thread at a time on one sub-job,
// resumable: each thread runs at most `params.budget` steps per dispatch, then saves its stack
// to `state`, and the host dispatches again.
//
// One step places one queen: it takes the lowest free square of the level on top of the
// stack, pops that level in the same step when the square was its last (so no step only backs
// up), and pushes the child row unless it has no free square. The child of the second-to-last
// row is the last row: its free squares are counted by popcount instead of pushed; or, with
// LAST_TWO_ROWS, the last two rows are counted in closed form from the third-to-last row. The
// level's depth is not stored: it is the number of queens in its `cols` less the sub-job's own.
//
// The stacks live in workgroup memory, one `vec4<u32>` (free, cols, ld, rd) per level and
// thread: slot i of thread `lid` at `i * 64 + lid`; or in private arrays instead (`stack.rs`),
// so both can be measured.
//
// A sub-job is a board of a batch's job with a few more rows pre-placed by the host. Its job's
// tables (row steps and blocked squares, indexed by free rows left) are read from global memory
// once per sub-job, into `row_table` (one `vec2<u32>` per depth and thread, beside the stack):
// the loop itself reads no global memory.
//
// Up to four batches can be on the device at once, in the four quarters of `tables`,
// `sub_jobs` and `results` (the places), so that threads done with one batch go on with the
// next while the last sub-jobs of the first are searched. Sub-jobs are numbered across
// batches; a thread claims the next number from `control[0]` and searches that sub-job once
// its batch is on the device (until then it waits, one dispatch at a time). A thread that
// finishes a sub-job writes its 64-bit count (two u32 words) to `results` and counts its
// place's remaining sub-jobs down (`control[4 + place]`): the host reads a batch back once its
// count reaches zero.
//
// The module runs without wgpu's runtime checks (no index clamps, no loop counter). Every index
// is in range by construction, which the host checks on every batch (`Split::check`):
// - a sub-job has 4 to LEVELS + 1 free rows, so depths run 0..=rows-2 < LEVELS, and the slots in
//   use never outnumber the depth of the top level plus one (a pop only removes slots);
// - a placed queen's bit is a free square, below n and in no column taken, so each level's
//   `cols` holds exactly its depth more queens than the sub-job's;
// - a place holds 66 words of `tables` for every job its sub-jobs name, and `results` two
//   words per sub-job; a claim is searched only when it falls in a place's range;
// - every loop ends: each pass of the outer loop and of the search spends `budget` or leaves,
//   and the table copy runs `rows - 1` times.

struct Params {
    // Steps each thread runs in one dispatch at most.
    budget: u32,
    // Threads of a dispatch: the stride of `state`.
    threads: u32,
    // Sub-jobs per place in `sub_jobs` (and pairs of words in `results`), and words per place
    // in `tables`: place p begins at p times these.
    sub_jobs_per_place: u32,
    tables_per_place: u32,
    // The first sub-job number of each place's batch, and how many it holds (0: none).
    start: vec4<u32>,
    count: vec4<u32>,
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
// Whether the last two rows are counted in closed form (set by the host's pipeline).
override LAST_TWO_ROWS: bool = false;
// `state` words of one thread, each stored at `word * threads + thread` (coalesced): the
// sub-job number claimed plus one (FRESH: none yet), the slots in use (or WAITING), the count
// (lo, hi), then free, cols, ld, rd per slot.
const HEADER: u32 = 4u;
// The thread has claimed no sub-job yet (the host clears `state` to zeros before the first
// batch).
const FRESH: u32 = 0u;
// The thread's claim is not on the device yet: it starts it once it is.
const WAITING: u32 = 0xffffffffu;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> tables: array<u32>;
@group(0) @binding(2) var<storage, read> sub_jobs: array<SubJob>;
@group(0) @binding(3) var<storage, read_write> results: array<u32>;
@group(0) @binding(4) var<storage, read_write> state: array<u32>;
// [0]: the next sub-job number to claim; [1], [2]: the steps the threads ran in this dispatch
// (low and high word) and [3] the most one thread ran, for the share of the dispatch the
// threads were busy; [4 + p]: the sub-jobs of place p not counted yet.
@group(0) @binding(5) var<storage, read_write> control: array<atomic<u32>>;

// Words between two slots of one thread: the workgroup's threads (1 for private arrays).
const STRIDE: u32 = 64u;

// The stacks and row tables of a workgroup's threads. (STACK-DECLARATIONS: `stack.rs`
// rewrites from here to the end marker for private arrays.)
var<workgroup> stack: array<vec4<u32>, 1984>;
var<workgroup> row_table: array<vec2<u32>, 1984>;
// (END-STACK-DECLARATIONS)

// Places for batches.
const PLACES: u32 = 4u;

// Where a claimed sub-job is: its place (PLACES when its batch is not on the device yet),
// its index in `sub_jobs` (and pair of words in `results`), where its job's tables begin.
struct Claim {
    place: u32,
    at: u32,
    tables: u32,
}

// Where sub-job number `g` is.
fn locate(g: u32) -> Claim {
    for (var p = 0u; p < PLACES; p++) {
        if g - params.start[p] < params.count[p] {
            let at = p * params.sub_jobs_per_place + g - params.start[p];
            return Claim(p, at, p * params.tables_per_place + sub_jobs[at].job * TABLE);
        }
    }
    return Claim(PLACES, 0u, 0u);
}

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
    // This thread's slot in the stacks. (PRIVATE-STACK)
    let slot = lid;
    var budget = params.budget;
    // The claim plus one; slots in use; the sub-job's own queens (`cols`).
    var cur = state[t];
    var top = state[threads + t];
    var base = 0u;
    // The depth whose child rows are counted, not pushed; with LAST_TWO_ROWS, the last row's
    // step from the one before it and its blocked squares.
    var leaf_depth = 0u;
    var gap = 0u;
    var last_blocked = 0u;
    var lo = state[2u * threads + t];
    var hi = state[3u * threads + t];
    // Where the claim is.
    var claim = Claim(0u, 0u, 0u);
    // Whether the claim is still to be started.
    var waiting = top == WAITING;
    if waiting {
        top = 0u;
    }
    for (var i = 0u; i < top; i++) {
        let w = HEADER + 4u * i;
        stack[i * STRIDE + slot] = vec4<u32>(
            state[w * threads + t],
            state[(w + 1u) * threads + t],
            state[(w + 2u) * threads + t],
            state[(w + 3u) * threads + t],
        );
    }
    // Whether the sub-job's rows must be copied into `row_table` (a resumed one's are not
    // there), and where its result goes (a resumed one's is found again).
    var fill = top != 0u;
    if cur != FRESH && !waiting {
        claim = locate(cur - 1u);
    }
    loop {
        if fill {
            fill = false;
            let s = sub_jobs[claim.at];
            base = countOneBits(s.cols);
            // The depth of the second-to-last row.
            let last = s.rows - 2u;
            leaf_depth = last - select(0u, 1u, LAST_TWO_ROWS);
            gap = tables[claim.tables + 2u];
            last_blocked = tables[claim.tables + BLOCKED + 1u];
            for (var d = 0u; d <= last; d++) {
                let k = s.rows - d;
                row_table[d * STRIDE + slot] = vec2<u32>(
                    tables[claim.tables + k],
                    tables[claim.tables + BLOCKED + k - 1u],
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
            let leaf = depth == leaf_depth;
            var found = countOneBits(free);
            if LAST_TWO_ROWS {
                // The pairs of free squares of the last two rows, less those in one column or
                // on one diagonal (`gap` rows apart).
                let lower = ~(c | (l << gap) | (r >> gap) | last_blocked);
                found = found * countOneBits(lower) - countOneBits(free & lower)
                    - countOneBits((free << gap) & lower) - countOneBits((free >> gap) & lower);
            }
            found = select(0u, found, leaf);
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
        if !waiting {
            // The sub-job is counted (or none was claimed yet): store it, claim the next.
            if cur != FRESH {
                results[2u * claim.at] = lo;
                results[2u * claim.at + 1u] = hi;
                atomicSub(&control[4u + claim.place], 1u);
            }
            cur = atomicAdd(&control[0], 1u) + 1u;
        }
        claim = locate(cur - 1u);
        waiting = claim.place == PLACES;
        if waiting {
            break;
        }
        let s = sub_jobs[claim.at];
        lo = 0u;
        hi = 0u;
        let free = ~(s.cols | s.ld | s.rd | tables[claim.tables + BLOCKED + s.rows]);
        stack[slot] = vec4<u32>(free, s.cols, s.ld, s.rd);
        top = select(0u, 1u, free != 0u);
        fill = top != 0u;
        budget -= 1u;
    }
    // The steps this thread ran, added to the dispatch's 64-bit total.
    let ran = params.budget - budget;
    let before = atomicAdd(&control[1], ran);
    if before + ran < before {
        atomicAdd(&control[2], 1u);
    }
    atomicMax(&control[3], ran);
    // Save the stack (or the claim still to start).
    state[t] = cur;
    state[threads + t] = select(top, WAITING, waiting);
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
}
