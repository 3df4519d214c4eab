//! The lane kernels: the search of a [`Job`] run level by level in vector lanes, written once
//! over a small [`Lanes`] trait and instantiated for each instruction set.
//!
//! A depth-first bitboard search spends most of its time on branches it cannot predict: whether
//! the next square is the last of a row, whether a child survives the lookahead. This driver
//! turns those branches into lane masks. It keeps one buffer of partial boards per number of
//! free rows left (a *level*), each board stored as three `u32` masks (columns and both
//! diagonals, seen from its next row; see [`super::job`] for why 32 bits hold every board up to
//! n = 32), one array per mask. A level is drained by a few streams of lanes (two, or three
//! where the registers allow), some taking boards from the front of its buffer, the others
//! from the back, so that the streams' steps are independent and overlap in the processor.
//! Each step:
//!
//! 1. refills every lane whose board has no free square left with the next untaken board (an
//!    *expand*, so a lane never idles while the level has boards), and computes its free
//!    squares from its masks (cheaper than storing and moving a fourth mask);
//! 2. every lane places a queen on its lowest free square and clears it;
//! 3. the children's masks are shifted by the step to their next free row (the same for every
//!    board of a job, so one scalar shift count serves all lanes);
//! 4. the lookahead of the depth-first kernel, as masks: a child survives if its next free row
//!    has a square and the two free rows after it have one each; each row's squares blocked by
//!    the pre-placed queens are one broadcast word;
//! 5. the survivors are *compressed* to the end of the next level's buffer.
//!
//! When a level's buffer reaches [`CHUNK`] boards it is drained at once, before its parent
//! level goes on (the parent's lanes are parked in its level meanwhile), so the search is
//! depth-first over chunks and the buffers stay small: one set per worker thread, allocated on
//! its first job and reused. Boards with three free rows left are closed the same way, except
//! that each queen of their row adds the completions of the last two rows in the closed form of
//! the depth-first kernel (`depth_first::last_two_rows`), with a lane popcount.
//!
//! The driver is one loop (no recursion) of `#[inline(always)]` functions, so that each
//! instruction set's entry point, compiled with its target features, inlines all of it and the
//! intrinsics behind the trait. The implementations:
//!
//! | module | lanes | expand / compress | popcount |
//! |---|---|---|---|
//! | [`portable`] | 4 × u32, plain Rust | scalar, branch-free | `count_ones` |
//! | `x86_64::avx2` | 8 × u32 in `__m256i` | `vpermd` by 256-entry byte tables | nibble table (`vpshufb`) |
//! | `x86_64::avx512` | 16 × u32 in `__m512i` | `vpexpandd` / `vpcompressd` (register forms) | `vpopcntd` |
//! | `aarch64::neon` | 2 × 4 × u32 in `uint32x4_t` | `tbl` by 16-entry tables | `cnt` + pairwise adds |
//!
//! What limits the speed (measured on a Zen 4 with AVX-512, where no hardware counters were
//! available, so by timing variants): the loop-carried chain of each stream — the zero test of
//! its free squares, the lane mask, the expand, the new free squares — more than the number of
//! instructions. Removing a fourth stored mask (one expand and one compress per step) or folding
//! the three lookahead tests into one mask changed nothing measurable; taking the lane masks
//! straight from the test to the expand (no trip through a scalar register) gained 9 %, and a
//! third stream 3 to 5 % for AVX-512's 32 registers (AVX2's 16 spill with three streams: 1.9×
//! slower). Wider streams (two registers each) and four streams were slower: the second half
//! waits on the first's count, and four streams of 16 lanes spill. On a Zen 5, by CPU time:
//! one zero test of the three lookahead rows' unsigned minimum, instead of a test of each row,
//! gained 2 to 4 % for both x86 kernels. `scripts/roofline.py` sets the measured speed beside
//! what `llvm-mca` allows the two loops (the drain loop in [`drain`], the closing loop in
//! [`close`]) on this CPU and on modelled ones.
//!
//! A value of a [`Lanes`] type exists only where the CPU runs its instructions (only detection
//! builds one), so the safe entry points cannot be called on the wrong CPU.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

use super::job::{Job, MAX_JOB_N, MAX_ROWS};

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

/// Boards gathered on a level before it is drained. Each drain ends with a tail of steps in
/// which lanes run out of boards, and the top levels of a task never fill a chunk: larger
/// chunks spend less of the search there. `nqueens count 17 -t 1` on a Zen 4 (AVX-512 lanes):
/// 0.84 s at 256, 0.76 s at 512, 0.71 s at 1024, 0.70 s at 2048 and 4096; the AVX2 lanes gain
/// alike (1.15 s, 1.13 s, 1.07 s). Buffers of 1024 boards take about 420 KiB per worker.
pub(crate) const CHUNK: usize = 1024;

/// The most lanes an implementation has.
const MAX_WIDTH: usize = 16;

/// The most streams an implementation drains a level with (see [`search`]).
const MAX_STREAMS: usize = 3;

/// Capacity of a level's buffer: it is drained as soon as it holds [`CHUNK`] boards, a step
/// appends at most one register per stream, and every load and store moves a whole register.
const CAPACITY: usize = CHUNK + (MAX_STREAMS + 1) * MAX_WIDTH;

/// Vector operations on `WIDTH` lanes of `u32`, as the driver needs them.
///
/// # Safety
///
/// A value of the implementing type must exist only on a CPU that runs every instruction its
/// methods use: the methods are safe to call given a value.
pub(crate) unsafe trait Lanes: Copy {
    /// Number of `u32` lanes.
    const WIDTH: usize;
    /// A register of `WIDTH` lanes.
    type V: Copy;

    /// Every lane `x`.
    fn splat(self, x: u32) -> Self::V;
    /// `WIDTH` words from the start of `src` (which holds at least that many).
    fn load(self, src: &[u32]) -> Self::V;
    /// Writes the lanes to the start of `dst` (which holds at least `WIDTH` words).
    fn store(self, v: Self::V, dst: &mut [u32]);
    /// Lane-wise `a | b`.
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise `a & b`.
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise `a ^ b`.
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise `a + b` (wrapping).
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise `a − b` (wrapping).
    fn sub(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise low 32 bits of `a × b`.
    fn mul(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise unsigned minimum of `a` and `b`.
    fn min(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise `!(a | b | c | d)`.
    fn nor4(self, a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> Self::V;
    /// Every lane shifted left by `s`, which is below 32: the driver shifts by distances
    /// between rows of one board, of at most [`MAX_JOB_N`] rows (the AVX-512 lanes rely on it;
    /// the others give 0 from 32 on).
    fn shl(self, a: Self::V, s: u32) -> Self::V;
    /// Every lane shifted right by `s`, which is below 32 (as for [`Lanes::shl`]).
    fn shr(self, a: Self::V, s: u32) -> Self::V;
    /// Lane-wise number of set bits.
    fn popcount(self, a: Self::V) -> Self::V;
    /// Bit `i` set for every lane `i` that is zero.
    fn zero_lanes(self, a: Self::V) -> u32;
    /// The lanes of `keep` as they are, the others zero.
    fn select(self, keep: u32, a: Self::V) -> Self::V;
    /// The sum of the lanes.
    fn sum(self, a: Self::V) -> u64;
    /// `old` with the lanes of `take`, in order, replaced by the first words of `src` (which
    /// holds at least `WIDTH` words).
    fn expand(self, old: Self::V, take: u32, src: &[u32]) -> Self::V;
    /// Writes the lanes of `keep`, in order, to the start of `dst` (which holds at least
    /// `WIDTH` words; what follows them there is unspecified).
    fn compress_store(self, keep: u32, v: Self::V, dst: &mut [u32]);
}

/// One level's boards, one array per mask, and the lanes of its drain while a lower level is
/// being drained.
pub(crate) struct Level {
    cols: [u32; CAPACITY],
    ld: [u32; CAPACITY],
    rd: [u32; CAPACITY],
    len: usize,
    parked: [[u32; MAX_WIDTH]; 4 * MAX_STREAMS],
    lo: usize,
    hi: usize,
}

/// A worker's level buffers, indexed by the number of free rows left.
pub(crate) struct Levels(Vec<Box<Level>>);

impl Levels {
    fn new() -> Levels {
        Levels(
            (0..=MAX_ROWS)
                .map(|_| {
                    Box::new(Level {
                        cols: [0; CAPACITY],
                        ld: [0; CAPACITY],
                        rd: [0; CAPACITY],
                        len: 0,
                        parked: [[0; MAX_WIDTH]; 4 * MAX_STREAMS],
                        lo: 0,
                        hi: 0,
                    })
                })
                .collect(),
        )
    }
}

thread_local! {
    /// Each worker's level buffers, allocated on its first job and reused after.
    static LEVELS: RefCell<Option<Levels>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's level buffers.
pub(crate) fn with_levels<R>(f: impl FnOnce(&mut Levels) -> R) -> R {
    LEVELS.with_borrow_mut(|levels| f(levels.get_or_insert_with(Levels::new)))
}

/// The first `r` lanes of `lanes`: all of them when there are no more than `r`, else the `r`
/// lowest, peeled off one at a time (only at the end of a level, where `r` is below the width,
/// and zero once the level is spent, while its last boards drain).
#[inline(always)]
fn first_lanes(lanes: u32, r: usize) -> u32 {
    if lanes.count_ones() as usize <= r {
        return lanes;
    }
    let mut rest = lanes;
    for _ in 0..r {
        rest &= rest - 1;
    }
    lanes ^ rest
}

/// The boards in a stream's lanes: their free squares (of the row being filled), columns and
/// both diagonals. A level's buffer keeps the last three only.
type Boards<V> = [V; 4];

/// `S` streams of lanes draining one level: the first `S / 2` take their boards from the front,
/// the others from the back, so that their steps do not wait on each other.
struct Streams<V, const S: usize> {
    /// Boards `lo..hi` of the level are not taken yet.
    lo: usize,
    hi: usize,
    lanes: [Boards<V>; S],
}

impl<V: Copy, const S: usize> Streams<V, S> {
    /// Streams over the `len` boards of a level, every lane empty.
    #[inline(always)]
    fn new<L: Lanes<V = V>>(l: L, len: usize) -> Streams<V, S> {
        Streams {
            lo: 0,
            hi: len,
            lanes: [[l.splat(0); 4]; S],
        }
    }

    /// The streams parked in `level`.
    #[inline(always)]
    fn unpark<L: Lanes<V = V>>(l: L, level: &Level) -> Streams<V, S> {
        let mut s = Streams::new(l, 0);
        (s.lo, s.hi) = (level.lo, level.hi);
        for (j, lanes) in s.lanes.iter_mut().enumerate() {
            for (i, v) in lanes.iter_mut().enumerate() {
                *v = l.load(&level.parked[4 * j + i]);
            }
        }
        s
    }

    /// Parks the streams in `level`.
    #[inline(always)]
    fn park<L: Lanes<V = V>>(&self, l: L, level: &mut Level) {
        level.lo = self.lo;
        level.hi = self.hi;
        for (j, lanes) in self.lanes.iter().enumerate() {
            for (i, &v) in lanes.iter().enumerate() {
                l.store(v, &mut level.parked[4 * j + i]);
            }
        }
    }
}

/// Fills the empty lanes `take` of `lanes` with the boards of `level` from `at` on: their
/// columns and diagonals from the buffer, their free squares computed from those and the
/// squares `blocked` on the level's row.
#[inline(always)]
fn expand<L: Lanes>(
    l: L,
    lanes: &mut Boards<L::V>,
    take: u32,
    level: &Level,
    at: usize,
    blocked: L::V,
) {
    let cols = l.expand(lanes[1], take, &level.cols[at..]);
    let ld = l.expand(lanes[2], take, &level.ld[at..]);
    let rd = l.expand(lanes[3], take, &level.rd[at..]);
    // The lanes of `take` are empty: their free squares are zero until set here.
    lanes[0] = l.or(lanes[0], l.select(take, l.nor4(cols, ld, rd, blocked)));
    lanes[1] = cols;
    lanes[2] = ld;
    lanes[3] = rd;
}

/// Refills the empty lanes of every stream with untaken boards of `level` (whose row has the
/// squares `blocked` attacked by pre-placed queens): the first `S / 2` streams from the front,
/// the others from the back. Returns the lanes of each stream that hold a board with a free
/// square (none once the level is spent).
#[inline(always)]
fn refill<L: Lanes, const S: usize>(
    l: L,
    s: &mut Streams<L::V, S>,
    level: &Level,
    blocked: L::V,
) -> [u32; S] {
    // While the level holds a board for every lane, every empty lane takes one. Branching once
    // here, not per stream, lets the lane mask go from the zero test straight to the expand,
    // off the loop-carried chain `first_lanes` would sit on (9 % on AVX-512).
    if s.hi - s.lo >= S * L::WIDTH {
        refill_with(l, s, level, blocked, |empty, _| empty)
    } else {
        refill_with(l, s, level, blocked, first_lanes)
    }
}

/// [`refill`], each stream taking the lanes `take(empty, untaken)` of its empty ones.
#[inline(always)]
fn refill_with<L: Lanes, const S: usize>(
    l: L,
    s: &mut Streams<L::V, S>,
    level: &Level,
    blocked: L::V,
    take: impl Fn(u32, usize) -> u32,
) -> [u32; S] {
    let all = u32::MAX >> (32 - L::WIDTH);
    // Every stream's zero test first: testing each stream just before its expand was 4 %
    // slower on AVX2 (n = 18, 2 threads).
    let empty: [u32; S] = std::array::from_fn(|i| l.zero_lanes(s.lanes[i][0]));
    let mut live = [0; S];
    for (i, (live, empty)) in live.iter_mut().zip(empty).enumerate() {
        let taken = take(empty, s.hi - s.lo);
        let count = taken.count_ones() as usize;
        if i < S / 2 {
            expand(l, &mut s.lanes[i], taken, level, s.lo, blocked);
            s.lo += count;
        } else {
            s.hi -= count;
            expand(l, &mut s.lanes[i], taken, level, s.hi, blocked);
        }
        *live = (all & !empty) | taken;
    }
    live
}

/// Places a queen on the lowest free square of every lane and clears that square; returns the
/// children's columns and diagonals, shifted by `step` to their next free row.
#[inline(always)]
fn place_lowest<L: Lanes>(l: L, lanes: &mut Boards<L::V>, step: u32) -> [L::V; 3] {
    let [free, cols, ld, rd] = *lanes;
    let bit = l.and(free, l.sub(l.splat(0), free));
    lanes[0] = l.xor(free, bit);
    [
        l.or(cols, bit),
        l.shl(l.or(ld, bit), step),
        l.shr(l.or(rd, bit), step),
    ]
}

/// Appends the boards in the lanes of `keep` (their columns and diagonals) to the end of
/// `level`.
#[inline(always)]
fn append<L: Lanes>(l: L, level: &mut Level, keep: u32, [cols, ld, rd]: [L::V; 3]) {
    let at = level.len;
    l.compress_store(keep, cols, &mut level.cols[at..]);
    l.compress_store(keep, ld, &mut level.ld[at..]);
    l.compress_store(keep, rd, &mut level.rd[at..]);
    level.len = at + keep.count_ones() as usize;
}

/// The job's tables narrowed to the lanes' 32 bits.
struct Tables {
    steps: [u32; MAX_ROWS + 1],
    blocked: [u32; MAX_ROWS + 1],
}

/// Drains level `k ≥ 4` into level `k − 1` until the level is spent (`false`) or level
/// `k − 1` holds a chunk (`true`).
#[inline(always)]
fn drain<L: Lanes, const S: usize>(
    l: L,
    t: &Tables,
    k: usize,
    s: &mut Streams<L::V, S>,
    levels: &mut [Box<Level>],
) -> bool {
    let (below, here) = levels.split_at_mut(k);
    let (level, child) = (&*here[0], &mut *below[k - 1]);
    let step = t.steps[k];
    let s2 = t.steps[k - 1];
    let s3 = s2 + t.steps[k - 2];
    // Distances between rows of the board: every shift below is by less than 32.
    debug_assert!(step < 32 && s3 < 32, "steps {step}, {s3}");
    let b0 = l.splat(t.blocked[k]);
    let b1 = l.splat(t.blocked[k - 1]);
    let b2 = l.splat(t.blocked[k - 2]);
    let b3 = l.splat(t.blocked[k - 3]);
    loop {
        let live = refill(l, s, level, b0);
        if live == [0; S] {
            return false;
        }
        #[cfg(test)]
        probe::count(false, &live);
        for (lanes, live) in s.lanes.iter_mut().zip(live) {
            let [c, lft, rgt] = place_lowest(l, lanes, step);
            let next = l.nor4(c, lft, rgt, b1);
            let after = l.nor4(c, l.shl(lft, s2), l.shr(rgt, s2), b2);
            let then = l.nor4(c, l.shl(lft, s3), l.shr(rgt, s3), b3);
            // A lane is dead if any of the three rows is empty: if their minimum is zero.
            let dead = l.zero_lanes(l.min(l.min(next, after), then));
            append(l, child, live & !dead, [c, lft, rgt]);
        }
        if child.len >= CHUNK {
            return true;
        }
    }
}

/// The completions of every board of a level with three free rows left: each queen of the
/// first row adds the closed form of the last two.
#[inline(always)]
fn close<L: Lanes, const S: usize>(l: L, t: &Tables, level: &Level) -> u64 {
    let step = t.steps[3];
    let gap = t.steps[2];
    debug_assert!(step < 32 && gap < 32, "steps {step}, {gap}");
    let b3 = l.splat(t.blocked[3]);
    let b2 = l.splat(t.blocked[2]);
    let b1 = l.splat(t.blocked[1]);
    let mut sum = l.splat(0);
    let mut s = Streams::<L::V, S>::new(l, level.len);
    loop {
        let live = refill(l, &mut s, level, b3);
        if live == [0; S] {
            return l.sum(sum);
        }
        #[cfg(test)]
        probe::count(true, &live);
        for (lanes, live) in s.lanes.iter_mut().zip(live) {
            let [c, lft, rgt] = place_lowest(l, lanes, step);
            let upper = l.nor4(c, lft, rgt, b2);
            let lower = l.nor4(c, l.shl(lft, gap), l.shr(rgt, gap), b1);
            let pairs = l.mul(l.popcount(upper), l.popcount(lower));
            let taken = l.add(
                l.popcount(l.and(upper, lower)),
                l.add(
                    l.popcount(l.and(l.shl(upper, gap), lower)),
                    l.popcount(l.and(l.shr(upper, gap), lower)),
                ),
            );
            sum = l.add(sum, l.select(live, l.sub(pairs, taken)));
        }
    }
}

/// Counts the completions of `job` (at most [`MAX_JOB_N`] wide, at least four free rows) in the
/// lanes of `l`, with `levels` as scratch; `None` when `stop` was raised before it finished.
/// The stop flag is read each time a level fills a chunk, so a raised flag ends the search
/// within microseconds. `S` (at most [`MAX_STREAMS`]) streams drain each level: as many as the
/// instruction set's registers hold without spilling (each entry point says its choice).
#[inline(always)]
pub(crate) fn search<L: Lanes, const S: usize>(
    l: L,
    job: &Job,
    levels: &mut Levels,
    stop: Option<&AtomicBool>,
) -> Option<u64> {
    const { assert!(S >= 1 && S <= MAX_STREAMS) };
    debug_assert!(job.n <= MAX_JOB_N && job.rows >= 4);
    let t = Tables {
        steps: job.steps,
        blocked: job.blocked.map(|b| b as u32),
    };
    let levels = &mut levels.0[..];
    for level in levels.iter_mut() {
        level.len = 0;
    }
    let m = job.rows;
    let free = job.first_free() as u32;
    if free == 0 {
        // Every board on a level has a free square: a refilled lane is taken as live.
        return Some(0);
    }
    let root = &mut levels[m];
    root.cols[0] = job.cols as u32;
    root.ld[0] = job.ld as u32;
    root.rd[0] = job.rd as u32;
    root.len = 1;
    let mut total = 0;
    let mut top = m;
    let mut k = m;
    let mut s = Streams::<L::V, S>::new(l, 1);
    loop {
        if k == 3 {
            total += close::<L, S>(l, &t, &levels[3]);
            levels[3].len = 0;
        } else if drain(l, &t, k, &mut s, levels) {
            if stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return None;
            }
            s.park(l, &mut levels[k]);
            k -= 1;
            s = Streams::new(l, levels[k].len);
            continue;
        } else {
            levels[k].len = 0;
        }
        // Level k is spent: go back to the level that was draining into it, or start on the
        // next level down if k was the top of the chain.
        if k == top {
            top -= 1;
            if top < 3 {
                return Some(total);
            }
            k = top;
            s = Streams::new(l, levels[k].len);
        } else {
            k += 1;
            s = Streams::unpark(l, &levels[k]);
        }
    }
}

/// What the driver's two inner loops did on this thread, counted in test builds only (the
/// production loops carry no counter): the iterations and the live lanes of the drain loop
/// ([`drain`], levels with four or more free rows) and of the closing loop ([`close`], three
/// free rows). A live lane places one queen, so the live lanes of both loops are the queens the
/// lanes place, the same for every width; the iterations are what each loop's code runs.
#[cfg(test)]
pub(crate) mod probe {
    use std::cell::Cell;

    /// Iterations and live lanes of each inner loop.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub(crate) struct Loops {
        pub(crate) drain_iterations: u64,
        pub(crate) drain_lanes: u64,
        pub(crate) close_iterations: u64,
        pub(crate) close_lanes: u64,
    }

    thread_local! {
        static LOOPS: Cell<Loops> = const { Cell::new(Loops {
            drain_iterations: 0,
            drain_lanes: 0,
            close_iterations: 0,
            close_lanes: 0,
        }) };
    }

    /// Counts one iteration of the closing loop (`close`) or of the drain loop, whose streams'
    /// live lanes are `live`.
    pub(super) fn count(close: bool, live: &[u32]) {
        let lanes: u64 = live.iter().map(|m| u64::from(m.count_ones())).sum();
        LOOPS.with(|c| {
            let mut l = c.get();
            if close {
                l.close_iterations += 1;
                l.close_lanes += lanes;
            } else {
                l.drain_iterations += 1;
                l.drain_lanes += lanes;
            }
            c.set(l);
        });
    }

    /// This thread's counts since the last call, reset to zero.
    pub(crate) fn take() -> Loops {
        LOOPS.with(|c| c.replace(Loops::default()))
    }
}

#[cfg(test)]
mod loops;
#[cfg(test)]
pub(crate) mod tests;
