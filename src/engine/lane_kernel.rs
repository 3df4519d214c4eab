//! The lane kernel: the search of a partial board, run level by level in the eight 64-bit lanes
//! of an AVX-512 register instead of depth-first on one. It counts the tasks of both plans: the
//! `symmetric` plan's inner boards ([`count_lanes`]; rows already holding a queen are stepped
//! over) and the `mirror` plan's row prefixes ([`count_lanes_rows`]; every step is one row).
//!
//! A depth-first bitboard search spends most of its time on branches it cannot predict: whether
//! the next square is the last of a row, whether a child survives the lookahead. This kernel
//! turns those branches into lane masks. It keeps one buffer of partial boards per number of
//! free rows left (a *level*), each board stored as its four masks (free squares of its next
//! row, columns, both diagonals), one array per mask. A level is drained by two streams of
//! eight lanes, one taking boards from the front of its buffer, one from the back, so that the
//! two streams' steps are independent and overlap in the processor. Each step:
//!
//! 1. refills every lane whose board has no free square left with the next untaken board
//!    (`vpexpandq`, so a lane never idles while the level has boards);
//! 2. every lane places a queen on its lowest free square and clears it;
//! 3. the children's masks are shifted by the step to their next free row (the same for every
//!    board of a task, so one broadcast shift serves all lanes);
//! 4. the lookahead of the depth-first kernel, as masks: a child survives if its next free row
//!    has a square and the two free rows after it have one each;
//! 5. the survivors are compressed (`vpcompressq`) to the end of the next level's buffer.
//!
//! When a level's buffer reaches [`CHUNK`] boards it is drained at once, before its parent level
//! goes on, so the search is depth-first over chunks and the buffers stay small (a step appends
//! at most 16 boards, so a level never holds more than `CHUNK + 16` boards of 32 bytes, about
//! 9 KiB; one set per worker thread, allocated once and reused across tasks). Boards with three
//! free rows left are closed the same way, except that each queen of their row adds the
//! completions of the last two rows in the closed form of the depth-first kernel, with the
//! vector popcount (`vpopcntq`).
//!
//! Measured against one group of eight boards at a time, each run until all eight were spent
//! (lanes idle about 38% of the steps, and the end of every group is a mispredicted branch), the
//! two refilled streams are about 1.2× faster (n = 17, one thread: 1.50 s against 1.80 s).
//!
//! On inner boards the kernel visits exactly the placements of the depth-first one. It needs
//! AVX-512F and AVX512_VPOPCNTDQ, checked at run time; elsewhere [`count_lanes`] and
//! [`count_lanes_rows`] return `None` and the depth-first kernels run
//! ([`super::inner_kernel::count_inner_dfs`], [`super::kernel::count_completions`]). It does not
//! count nodes: the statistics of `count_inner_dfs` describe the same tree.

use std::cell::RefCell;

use super::inner_kernel::{InnerBoard, Start};
use super::kernel::{MAX_N, State, board_mask};

/// Boards gathered on a level before it is drained.
pub const CHUNK: usize = 256;

/// Capacity of a level's buffer: a level is drained as soon as it holds [`CHUNK`] boards, and a
/// step appends at most eight boards per stream, so it never holds more than `CHUNK + 16`; plus
/// eight words of slack, because every load and store moves eight lanes.
const CAPACITY: usize = CHUNK + 2 * 8 + 8;

/// One level's boards, one array per mask.
struct Level {
    free: Box<[u64; CAPACITY]>,
    cols: Box<[u64; CAPACITY]>,
    ld: Box<[u64; CAPACITY]>,
    rd: Box<[u64; CAPACITY]>,
    len: usize,
}

impl Level {
    fn new() -> Level {
        Level {
            free: Box::new([0; CAPACITY]),
            cols: Box::new([0; CAPACITY]),
            ld: Box::new([0; CAPACITY]),
            rd: Box::new([0; CAPACITY]),
            len: 0,
        }
    }
}

thread_local! {
    /// Each worker's level buffers, allocated on its first task and reused after.
    static LEVELS: RefCell<Vec<Level>> = const { RefCell::new(Vec::new()) };
}

/// Whether this CPU runs the lane kernel (AVX-512F, AVX512_VPOPCNTDQ, POPCNT and BMI2).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Counts the completions of `board` in vector lanes; `None` when the CPU lacks the
/// instructions (see [`available`]) or the board has fewer than four free rows (the
/// depth-first kernel's closed forms settle those at once).
///
/// ```
/// use nqueens::engine::inner_kernel::InnerBoard;
/// use nqueens::engine::lane_kernel::{available, count_lanes};
/// let empty = InnerBoard::new(10, &[]).unwrap();
/// assert_eq!(count_lanes(&empty), available().then_some(724));
/// ```
pub fn count_lanes(board: &InnerBoard) -> Option<u64> {
    if !available() {
        return None;
    }
    let start = Start::of(board);
    search(
        [start.free, start.cols, start.ld, start.rd],
        start.rows,
        &start.steps,
    )
}

/// Counts the completions of the `n`-board whose first `state.row` rows hold queens (a task of
/// the `mirror` plan) in vector lanes; `None` as for [`count_lanes`].
///
/// ```
/// use nqueens::engine::kernel::State;
/// use nqueens::engine::lane_kernel::{available, count_lanes_rows};
/// assert_eq!(count_lanes_rows(10, State::EMPTY), available().then_some(724));
/// assert_eq!(count_lanes_rows(8, State::EMPTY.place_col(0)), available().then_some(4));
/// ```
pub fn count_lanes_rows(n: u32, state: State) -> Option<u64> {
    if !available() || n > MAX_N || state.row > n {
        return None;
    }
    // Every bit outside the board counts as a taken column, as in an `InnerBoard`.
    let cols = state.cols | !board_mask(n);
    let free = !(cols | state.ld | state.rd);
    search(
        [free, cols, state.ld, state.rd],
        (n - state.row) as usize,
        &[1; MAX_N as usize + 1],
    )
}

/// Counts the completions of a board whose first free row has the masks `root`, with `rows`
/// free rows; `steps[k]` is the step from the free row with `k` free rows left to the next
/// (indexed as in `inner_kernel`). `None` below four free rows.
fn search(root: [u64; 4], rows: usize, steps: &[u32]) -> Option<u64> {
    if rows < 4 {
        return None;
    }
    Some(LEVELS.with_borrow_mut(|levels| {
        while levels.len() <= rows {
            levels.push(Level::new());
        }
        // Every search drains every level it filled.
        debug_assert!(levels.iter().all(|level| level.len == 0));
        let top = &mut levels[rows];
        let [free, cols, ld, rd] = root;
        top.free[0] = free;
        top.cols[0] = cols;
        top.ld[0] = ld;
        top.rd[0] = rd;
        top.len = 1;
        let mut total = 0;
        for k in (3..=rows).rev() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the callers have checked `available`, every feature `drain` enables.
            {
                total += unsafe { x86::drain(levels, k, steps) };
            }
        }
        total
    }))
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{CHUNK, Level};

    /// `!(a | b | c)` in one instruction (truth table 0x01).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn nor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        _mm512_ternarylogic_epi64::<0x01>(a, b, c)
    }

    /// Two streams of eight lanes draining one level: `a` takes its boards from the front,
    /// `b` from the back, so their steps do not wait on each other.
    struct Streams {
        /// Boards `lo..hi` of the level are not taken yet.
        lo: usize,
        hi: usize,
        a: [__m512i; 4],
        b: [__m512i; 4],
    }

    impl Streams {
        /// Streams over the `len` boards of a level, every lane empty.
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn new(len: usize) -> Streams {
            let empty = [_mm512_setzero_si512(); 4];
            Streams {
                lo: 0,
                hi: len,
                a: empty,
                b: empty,
            }
        }

        /// Refills the empty lanes of both streams with untaken boards of `level`; returns the
        /// lanes of each that hold a board with a free square, `None` once none does (the level
        /// is spent).
        #[inline]
        #[target_feature(enable = "avx512f,bmi2")]
        fn refill(&mut self, level: &Level) -> Option<[__mmask8; 2]> {
            let empty = _mm512_testn_epi64_mask(self.a[0], self.a[0]);
            let r = (empty.count_ones() as usize).min(self.hi - self.lo);
            self.a = expand(level, self.lo, first_lanes(r, empty), self.a);
            self.lo += r;
            let empty = _mm512_testn_epi64_mask(self.b[0], self.b[0]);
            let r = (empty.count_ones() as usize).min(self.hi - self.lo);
            self.hi -= r;
            self.b = expand(level, self.hi, first_lanes(r, empty), self.b);
            let live = [
                _mm512_test_epi64_mask(self.a[0], self.a[0]),
                _mm512_test_epi64_mask(self.b[0], self.b[0]),
            ];
            (live != [0, 0]).then_some(live)
        }
    }

    /// The lowest `r` lanes of `empty`.
    #[inline]
    #[target_feature(enable = "bmi2")]
    fn first_lanes(r: usize, empty: __mmask8) -> __mmask8 {
        _pdep_u32((1 << r) - 1, u32::from(empty)) as __mmask8
    }

    /// Places a queen on the lowest free square of every lane of `lanes` and clears that square;
    /// returns the children's columns and diagonals, shifted by `step` to their next free row.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn place_lowest(lanes: &mut [__m512i; 4], step: __m512i) -> [__m512i; 3] {
        let [free, cols, ld, rd] = *lanes;
        let bit = _mm512_and_si512(free, _mm512_sub_epi64(_mm512_setzero_si512(), free));
        lanes[0] = _mm512_xor_si512(free, bit);
        [
            _mm512_or_si512(cols, bit),
            _mm512_sllv_epi64(_mm512_or_si512(ld, bit), step),
            _mm512_srlv_epi64(_mm512_or_si512(rd, bit), step),
        ]
    }

    /// The free squares of the row `step` rows below the one the masks are seen from.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn free_at(c: __m512i, l: __m512i, r: __m512i, step: __m512i) -> __m512i {
        nor3(c, _mm512_sllv_epi64(l, step), _mm512_srlv_epi64(r, step))
    }

    /// `lanes` with the lanes of `take` replaced by the boards of `level` from `at` on, in order
    /// (as many boards as `take` has lanes).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn expand(level: &Level, at: usize, take: __mmask8, lanes: [__m512i; 4]) -> [__m512i; 4] {
        let get = |a: &[u64], old: __m512i| {
            let a = &a[at..at + 8];
            // SAFETY: `a` holds eight words, of which only the first popcount(take) are read.
            unsafe { _mm512_mask_expandloadu_epi64(old, take, a.as_ptr().cast()) }
        };
        [
            get(&level.free[..], lanes[0]),
            get(&level.cols[..], lanes[1]),
            get(&level.ld[..], lanes[2]),
            get(&level.rd[..], lanes[3]),
        ]
    }

    /// Appends the lanes of `keep` to the end of `level`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn append(level: &mut Level, keep: __mmask8, [free, cols, ld, rd]: [__m512i; 4]) {
        let at = level.len;
        let put = |a: &mut [u64], v: __m512i| {
            let a = &mut a[at..at + 8];
            // SAFETY: `a` holds eight words.
            unsafe {
                _mm512_storeu_si512(a.as_mut_ptr().cast(), _mm512_maskz_compress_epi64(keep, v))
            }
        };
        put(&mut level.free[..], free);
        put(&mut level.cols[..], cols);
        put(&mut level.ld[..], ld);
        put(&mut level.rd[..], rd);
        level.len = at + keep.count_ones() as usize;
    }

    /// Searches every board of level `k` (at least 3), draining lower levels as they fill, and
    /// empties it; returns the completions found on the way.
    #[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi2")]
    pub(super) fn drain(levels: &mut [Level], k: usize, steps: &[u32]) -> u64 {
        if k == 3 {
            let total = close(&levels[3], steps);
            levels[3].len = 0;
            return total;
        }
        let s = _mm512_set1_epi64(i64::from(steps[k]));
        let s2 = _mm512_set1_epi64(i64::from(steps[k - 1]));
        let s3 = _mm512_set1_epi64(i64::from(steps[k - 1] + steps[k - 2]));
        let mut total = 0;
        let mut streams = Streams::new(levels[k].len);
        while let Some([live_a, live_b]) = streams.refill(&levels[k]) {
            for (lanes, live) in [(&mut streams.a, live_a), (&mut streams.b, live_b)] {
                let [c, l, r] = place_lowest(lanes, s);
                let next = nor3(c, l, r);
                let after = free_at(c, l, r, s2);
                let then = free_at(c, l, r, s3);
                let keep = live
                    & _mm512_test_epi64_mask(next, next)
                    & _mm512_test_epi64_mask(after, after)
                    & _mm512_test_epi64_mask(then, then);
                append(&mut levels[k - 1], keep, [next, c, l, r]);
            }
            if levels[k - 1].len >= CHUNK {
                total += drain(levels, k - 1, steps);
            }
        }
        levels[k].len = 0;
        total
    }

    /// The completions of every board of a level with three free rows left: each queen of the
    /// first row adds the closed form of the last two (see `inner_kernel::last_two_rows`).
    #[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi2")]
    fn close(level: &Level, steps: &[u32]) -> u64 {
        let s = _mm512_set1_epi64(i64::from(steps[3]));
        let s2 = _mm512_set1_epi64(i64::from(steps[2]));
        let mut sum = _mm512_setzero_si512();
        let mut streams = Streams::new(level.len);
        while let Some([live_a, live_b]) = streams.refill(level) {
            for (lanes, live) in [(&mut streams.a, live_a), (&mut streams.b, live_b)] {
                let [c, l, r] = place_lowest(lanes, s);
                let upper = nor3(c, l, r);
                let lower = free_at(c, l, r, s2);
                let count = |x: __m512i| _mm512_popcnt_epi64(_mm512_and_si512(x, lower));
                let pairs =
                    _mm512_mul_epu32(_mm512_popcnt_epi64(upper), _mm512_popcnt_epi64(lower));
                let taken = _mm512_add_epi64(
                    count(upper),
                    _mm512_add_epi64(
                        count(_mm512_sllv_epi64(upper, s2)),
                        count(_mm512_srlv_epi64(upper, s2)),
                    ),
                );
                sum = _mm512_mask_add_epi64(sum, live, sum, _mm512_sub_epi64(pairs, taken));
            }
        }
        _mm512_reduce_add_epi64(sum) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::inner_kernel::{MAX_INNER_N, count_inner_dfs};
    use crate::engine::kernel::count_completions;
    use crate::engine::plan::{Plan, Strategy, Subproblem};
    use crate::engine::symmetric::constellations;

    /// Whether this CPU runs the lane kernel; says so on stderr when it does not, since the
    /// comparisons that need it are then skipped.
    fn lanes_run_here() -> bool {
        let here = available();
        if !here {
            eprintln!(
                "skipped: this CPU lacks AVX-512F/VPOPCNTDQ; the lane kernel never runs here"
            );
        }
        here
    }

    /// Every board below `board` down to `depth` more queens, `board` included.
    fn descendants(board: InnerBoard, depth: u32, out: &mut Vec<InnerBoard>) {
        out.push(board);
        if depth == 0 {
            return;
        }
        if let Some((_, mut free)) = board.first_free_row() {
            while free != 0 {
                let col = free.trailing_zeros();
                free &= free - 1;
                descendants(board.place(col), depth - 1, out);
            }
        }
    }

    #[test]
    fn lanes_agree_with_the_depth_first_search_on_every_class_and_its_children() {
        if !lanes_run_here() {
            return;
        }
        let mut compared = 0;
        for n in 4..=12 {
            for (c, _) in constellations(n) {
                let mut boards = Vec::new();
                descendants(InnerBoard::new(n, &c.queens(n)).unwrap(), 2, &mut boards);
                for b in boards {
                    let dfs = count_inner_dfs::<false>(&b, &mut 0);
                    match count_lanes(&b) {
                        Some(lanes) => {
                            assert_eq!(lanes, dfs, "n={n} {b:?}");
                            compared += 1;
                        }
                        None => assert!(b.free_rows().count_ones() < 4, "{b:?}"),
                    }
                }
            }
        }
        assert!(compared > 10_000, "only {compared} boards compared");
    }

    #[test]
    fn lanes_agree_on_empty_boards_and_on_the_widest_ones() {
        if !lanes_run_here() {
            return;
        }
        for n in 4..=13 {
            let b = InnerBoard::new(n, &[]).unwrap();
            assert_eq!(
                count_lanes(&b),
                Some(count_inner_dfs::<false>(&b, &mut 0)),
                "n={n}"
            );
        }
        // The widest boards: a known solution of the 22-board, turned each of the 8 ways, with
        // its border queens and the queens of every other row kept, so that queens sit near
        // every edge of the word; the 10 rows left have at least that one completion.
        let m = MAX_INNER_N;
        let solution: Vec<(u32, u32)> = crate::construct::columns(m)
            .unwrap()
            .enumerate()
            .map(|(r, c)| (r as u32, c))
            .collect();
        for turn in crate::board::Symmetry::ALL {
            let image: Vec<(u32, u32)> = solution.iter().map(|&q| turn.map_square(m, q)).collect();
            let kept: Vec<(u32, u32)> = image
                .into_iter()
                .filter(|&(r, c)| r % 2 == 0 || r == m - 1 || c == 0 || c == m - 1)
                .collect();
            let b = InnerBoard::new(m, &kept).unwrap();
            let dfs = count_inner_dfs::<false>(&b, &mut 0);
            assert!(dfs >= 1, "turn {turn}");
            assert_eq!(count_lanes(&b), Some(dfs), "turn {turn}: {b:?}");
        }
    }

    #[test]
    fn lanes_agree_with_the_row_kernel_on_every_mirror_task() {
        if !lanes_run_here() {
            return;
        }
        let mut compared = 0;
        for n in 4..=13 {
            for task in Plan::new(n, Strategy::Mirror, 64).unwrap().tasks {
                let Subproblem::Rows(state) = task.subproblem else {
                    panic!("a mirror task is a row prefix");
                };
                let rows = count_completions(n, state);
                match count_lanes_rows(n, state) {
                    Some(lanes) => {
                        assert_eq!(lanes, rows, "n={n} {state:?}");
                        compared += 1;
                    }
                    None => assert!(n - state.row < 4, "n={n} {state:?}"),
                }
            }
        }
        assert!(compared > 1_000, "only {compared} tasks compared");
    }

    #[test]
    fn lanes_agree_with_the_row_kernel_on_the_widest_boards() {
        if !lanes_run_here() {
            return;
        }
        // The constructed solution's first rows, leaving 8 or 10 rows to count both ways (so
        // at least that solution's completion); 64 fills the whole word.
        for n in [23, 31, 47, 63, 64] {
            let columns: Vec<u32> = crate::construct::columns(n).unwrap().collect();
            for keep_free in [8, 10] {
                let mut state = State::EMPTY;
                for &c in &columns[..(n - keep_free) as usize] {
                    state = state.place_col(c);
                }
                let rows = count_completions(n, state);
                assert!(rows >= 1, "n={n}");
                assert_eq!(
                    count_lanes_rows(n, state),
                    Some(rows),
                    "n={n} free={keep_free}"
                );
            }
        }
    }

    #[test]
    fn small_boards_are_left_to_the_depth_first_search() {
        assert_eq!(count_lanes_rows(3, State::EMPTY), None);
        assert_eq!(count_lanes_rows(65, State::EMPTY), None);
        let b = InnerBoard::new(3, &[]).unwrap();
        assert_eq!(count_lanes(&b), None);
        let full = InnerBoard::new(5, &[(0, 0), (1, 2), (2, 4), (3, 1), (4, 3)]).unwrap();
        assert_eq!(count_lanes(&full), None);
    }
}
