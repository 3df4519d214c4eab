//! The AVX-512 lane kernel: the search of a partial board, run level by level in the eight 64-bit lanes
//! of an AVX-512 register instead of depth-first on one. It counts the tasks of both plans: the
//! `symmetric` plan's inner boards (`Window::of_inner`; rows already holding a queen are
//! stepped over) and the `mirror` plan's row prefixes (`Window::of_rows`; every step is one
//! row).
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
//! When a level's buffer reaches `CHUNK` boards it is drained at once, before its parent level
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
//! It works on absolute masks: column `c` is bit `c + OFFSET` of a 64-bit word, so the
//! diagonals of pre-placed queens below the current row slide onto the board by themselves.
//! That window holds an inner board only up to n = 22 (`MAX_WINDOW_N`); a `Window` is
//! `None` beyond, and the AVX2 lanes (which every AVX-512 CPU also runs) count those boards.
//! On inner boards the kernel visits exactly the placements of the depth-first one. It needs
//! AVX-512F and AVX512_VPOPCNTDQ; only [`Avx512::detect`] builds the value that runs it.

use std::cell::RefCell;
use std::sync::atomic::AtomicBool;

use crate::engine::kernel::{InnerBoard, MAX_N, State, board_mask};

/// Bit of column 0 in the window; room for diagonals of queens below the current row that are
/// still left of the board.
pub(crate) const OFFSET: u32 = 20;

/// The widest inner board whose diagonals always fit the window: seen from row 1, the
/// right-shifting diagonal of a queen on the bottom-right corner sits at bit `OFFSET + 2n − 3`,
/// which must stay below 64.
pub(crate) const MAX_WINDOW_N: u32 = 22;

/// Boards gathered on a level before it is drained.
const CHUNK: usize = 256;

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

/// Proof that this CPU runs AVX-512F, AVX512_VPOPCNTDQ, POPCNT and BMI2; only
/// [`Avx512::detect`] builds one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx512(());

impl Avx512 {
    /// `Some` when this CPU runs AVX-512F, AVX512_VPOPCNTDQ, POPCNT and BMI2.
    pub fn detect() -> Option<Avx512> {
        let here = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vpopcntdq")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi2");
        here.then_some(Avx512(()))
    }

    /// Counts the completions of the board `window` describes; `None` when `stop` was raised
    /// first (read each time a level fills a chunk).
    pub(crate) fn count(self, window: &Window, stop: Option<&AtomicBool>) -> Option<u64> {
        LEVELS.with_borrow_mut(|levels| {
            while levels.len() <= window.rows {
                levels.push(Level::new());
            }
            // A stopped search leaves boards behind.
            for level in levels.iter_mut() {
                level.len = 0;
            }
            let top = &mut levels[window.rows];
            let [free, cols, ld, rd] = window.root;
            top.free[0] = free;
            top.cols[0] = cols;
            top.ld[0] = ld;
            top.rd[0] = rd;
            top.len = 1;
            let mut total = 0;
            for k in (3..=window.rows).rev() {
                // SAFETY: an `Avx512` exists only where `detect` found every feature `drain`
                // enables.
                total += unsafe { x86::drain(levels, k, &window.steps, stop) }?;
            }
            Some(total)
        })
    }
}

/// A board as this kernel sees it: the absolute masks of its first free row, its free rows (at
/// least four) and the steps between them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Window {
    root: [u64; 4],
    rows: usize,
    steps: [u32; MAX_N as usize + 1],
}

impl Window {
    /// The window of an inner board; `None` when a diagonal does not fit the word or fewer than
    /// four rows are free.
    pub(crate) fn of_inner(board: &InnerBoard) -> Option<Window> {
        let n = board.n();
        if n > MAX_WINDOW_N {
            return None;
        }
        let mut rows = board.free_rows();
        let row = rows.trailing_zeros().min(n);
        let mut cols = !(((1u64 << n) - 1) << OFFSET);
        let (mut ld, mut rd) = (0u64, 0u64);
        for (r, c) in board.queens() {
            cols |= 1u64 << (c + OFFSET);
            // Diagonal c − r seen from `row` is at column c − r + row; anti-diagonal c + r at
            // column c + r − row. Both must fit the word.
            let l = (c + OFFSET + row).checked_sub(r).filter(|&b| b < 64)?;
            let d = (c + OFFSET + r).checked_sub(row).filter(|&b| b < 64)?;
            ld |= 1u64 << l;
            rd |= 1u64 << d;
        }
        let m = rows.count_ones() as usize;
        if m < 4 {
            return None;
        }
        let mut steps = [0; MAX_N as usize + 1];
        {
            let mut prev = rows.trailing_zeros();
            rows &= rows - 1;
            let mut k = m;
            while rows != 0 {
                let r = rows.trailing_zeros();
                steps[k] = r - prev;
                prev = r;
                k -= 1;
                rows &= rows - 1;
            }
        }
        Some(Window {
            root: [!(cols | ld | rd), cols, ld, rd],
            rows: m,
            steps,
        })
    }

    /// The window of the rows `state.row..n` of the `n`-board (a task of the `mirror` plan);
    /// `None` above [`MAX_N`] or below four free rows.
    pub(crate) fn of_rows(n: u32, state: State) -> Option<Window> {
        if n > MAX_N || state.row > n {
            return None;
        }
        // Every bit outside the board counts as a taken column, as in an inner board.
        let cols = state.cols | !board_mask(n);
        let rows = (n - state.row) as usize;
        if rows < 4 {
            return None;
        }
        Some(Window {
            root: [!(cols | state.ld | state.rd), cols, state.ld, state.rd],
            rows,
            steps: [1; MAX_N as usize + 1],
        })
    }
}

mod x86 {
    use std::arch::x86_64::*;

    use std::sync::atomic::{AtomicBool, Ordering};

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
    pub(super) fn drain(
        levels: &mut [Level],
        k: usize,
        steps: &[u32],
        stop: Option<&AtomicBool>,
    ) -> Option<u64> {
        if k == 3 {
            let total = close(&levels[3], steps);
            levels[3].len = 0;
            return Some(total);
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
                if stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                    return None;
                }
                total += drain(levels, k - 1, steps, stop)?;
            }
        }
        levels[k].len = 0;
        Some(total)
    }

    /// The completions of every board of a level with three free rows left: each queen of the
    /// first row adds the closed form of the last two (see `depth_first::last_two_rows`).
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
    use crate::engine::kernel::count_job;
    use crate::engine::kernel::lanes::tests::inner_boards;

    /// A window's completions by plain recursion over its absolute masks: the search the
    /// AVX-512 lanes run, without lanes, so that the windows are checked on every CPU.
    fn count_window(w: &Window) -> u64 {
        fn down(cols: u64, ld: u64, rd: u64, k: usize, steps: &[u32]) -> u64 {
            if k == 0 {
                return 1;
            }
            let mut free = !(cols | ld | rd);
            let mut total = 0;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let s = steps[k];
                total += down(cols | bit, (ld | bit) << s, (rd | bit) >> s, k - 1, steps);
            }
            total
        }
        let [_, cols, ld, rd] = w.root;
        down(cols, ld, rd, w.rows, &w.steps)
    }

    #[test]
    fn windows_describe_the_same_boards_as_jobs() {
        let mut compared = 0;
        for b in inner_boards() {
            match Window::of_inner(&b) {
                Some(w) => {
                    assert_eq!(
                        count_window(&w),
                        count_job::<false>(&b.job(), &mut 0),
                        "{b:?}"
                    );
                    compared += 1;
                }
                None => assert!(b.n() > MAX_WINDOW_N || b.free_rows().count_ones() < 4),
            }
        }
        assert!(compared > 5_000, "only {compared} boards compared");
    }

    #[test]
    fn row_windows_describe_the_same_boards_as_the_row_kernel() {
        for n in [5, 8, 11, 23, 40, 64] {
            let columns: Vec<u32> = crate::construct::columns(n).unwrap().collect();
            let mut state = State::EMPTY;
            for &c in &columns[..(n - 5) as usize] {
                state = state.place_col(c);
            }
            let w = Window::of_rows(n, state).unwrap();
            let want = crate::engine::kernel::count_completions(n, state);
            assert!(want >= 1);
            assert_eq!(count_window(&w), want, "n={n}");
        }
        assert!(Window::of_rows(65, State::EMPTY).is_none());
        assert!(Window::of_rows(3, State::EMPTY).is_none());
    }
}
