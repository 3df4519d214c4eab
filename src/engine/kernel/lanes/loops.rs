//! The driver's inner loops counted (test builds only): the iterations and live lanes of the
//! drain and closing loops for each kernel's width and number of streams, which a roofline of
//! the loops needs (`scripts/roofline.py`). The counts depend only on the width and the
//! streams, not on the instruction set, so they are taken with plain-Rust lanes of each width
//! ([`Wide`]), on every CPU.

use super::probe::{self, Loops};
use super::{Lanes, search, with_levels};
use crate::engine::kernel::{Job, count_job};
use crate::engine::plan::{Plan, Strategy, Subproblem};

/// `W` lanes of `u32` in plain Rust (the portable lanes at any width).
#[derive(Clone, Copy)]
struct Wide<const W: usize>;

fn zip<const W: usize>(a: [u32; W], b: [u32; W], f: impl Fn(u32, u32) -> u32) -> [u32; W] {
    std::array::from_fn(|i| f(a[i], b[i]))
}

// SAFETY: plain Rust; runs everywhere.
unsafe impl<const W: usize> Lanes for Wide<W> {
    const WIDTH: usize = W;
    type V = [u32; W];

    fn splat(self, x: u32) -> [u32; W] {
        [x; W]
    }
    fn load(self, src: &[u32]) -> [u32; W] {
        src[..W].try_into().unwrap()
    }
    fn store(self, v: [u32; W], dst: &mut [u32]) {
        dst[..W].copy_from_slice(&v);
    }
    fn or(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, |x, y| x | y)
    }
    fn and(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, |x, y| x & y)
    }
    fn xor(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, |x, y| x ^ y)
    }
    fn add(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, u32::wrapping_add)
    }
    fn sub(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, u32::wrapping_sub)
    }
    fn mul(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, u32::wrapping_mul)
    }
    fn min(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, u32::min)
    }
    fn nor4(self, a: [u32; W], b: [u32; W], c: [u32; W], d: [u32; W]) -> [u32; W] {
        std::array::from_fn(|i| !(a[i] | b[i] | c[i] | d[i]))
    }
    fn shl(self, a: [u32; W], s: u32) -> [u32; W] {
        a.map(|x| x.checked_shl(s).unwrap_or(0))
    }
    fn shr(self, a: [u32; W], s: u32) -> [u32; W] {
        a.map(|x| x.checked_shr(s).unwrap_or(0))
    }
    fn popcount(self, a: [u32; W]) -> [u32; W] {
        a.map(u32::count_ones)
    }
    fn zero_lanes(self, a: [u32; W]) -> u32 {
        (0..W).map(|i| u32::from(a[i] == 0) << i).sum()
    }
    fn select(self, keep: u32, a: [u32; W]) -> [u32; W] {
        std::array::from_fn(|i| if keep >> i & 1 == 1 { a[i] } else { 0 })
    }
    fn sum(self, a: [u32; W]) -> u64 {
        a.iter().map(|&x| u64::from(x)).sum()
    }
    fn expand(self, old: [u32; W], take: u32, src: &[u32]) -> [u32; W] {
        let mut next = src.iter();
        std::array::from_fn(|i| {
            if take >> i & 1 == 1 {
                *next.next().unwrap()
            } else {
                old[i]
            }
        })
    }
    fn compress_store(self, keep: u32, v: [u32; W], dst: &mut [u32]) {
        let mut at = 0;
        for (i, &x) in v.iter().enumerate() {
            if keep >> i & 1 == 1 {
                dst[at] = x;
                at += 1;
            }
        }
    }
}

/// The shapes the lane kernels instantiate the driver with: name, lanes, streams (as each
/// kernel's `run` does).
const SHAPES: [(&str, usize, usize); 4] = [
    ("avx512", 16, 3),
    ("avx2", 8, 2),
    ("neon", 8, 2),
    ("portable-lanes", 4, 2),
];

/// Counts `jobs` with `W` lanes in `S` streams: the total (unweighted) and the loops' counts.
fn loops<const W: usize, const S: usize>(jobs: &[Job]) -> (u64, Loops) {
    probe::take();
    let mut total = 0;
    for job in jobs {
        total += if job.rows < 4 {
            count_job::<false>(job, &mut 0)
        } else {
            with_levels(|levels| search::<_, S>(Wide::<W>, job, levels, None)).unwrap()
        };
    }
    (total, probe::take())
}

/// The loops' counts for each shape of [`SHAPES`], in its order.
fn every_shape(jobs: &[Job]) -> Vec<(u64, Loops)> {
    vec![
        loops::<16, 3>(jobs),
        loops::<8, 2>(jobs),
        loops::<8, 2>(jobs),
        loops::<4, 2>(jobs),
    ]
}

/// The jobs of the tasks of `n`'s symmetric plan (the plan `nqueens count n` searches).
fn plan_jobs(n: u32) -> Vec<Job> {
    let plan = Plan::new(n, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS).unwrap();
    plan.tasks()
        .map(|t| match t.subproblem {
            Subproblem::Rows(state) => Job::from_rows(n, state).unwrap(),
            Subproblem::Inner(board) => board.job(),
        })
        .collect()
}

#[test]
fn every_width_counts_alike_and_places_the_same_queens() {
    for n in [8, 11, 13] {
        let jobs = plan_jobs(n);
        let want: u64 = jobs.iter().map(|j| count_job::<false>(j, &mut 0)).sum();
        let shapes = every_shape(&jobs);
        for ((name, ..), (total, l)) in SHAPES.iter().zip(&shapes) {
            assert_eq!(*total, want, "{name} n={n}");
            // Every live lane places a queen: the same queens whatever the width.
            assert_eq!(l.drain_lanes, shapes[0].1.drain_lanes, "{name} n={n}");
            assert_eq!(l.close_lanes, shapes[0].1.close_lanes, "{name} n={n}");
            assert!(l.drain_iterations * 16 >= l.drain_lanes, "{name} n={n}");
        }
        let (w16, w4) = (shapes[0].1, shapes[3].1);
        assert!(w16.drain_iterations <= w4.drain_iterations, "n={n}");
    }
}

/// Prints the loops' counts of every kernel's shape on the symmetric plan of n =
/// `NQUEENS_ROOFLINE_N` (default 17), and the depth-first search's nodes, one line each
/// (`scripts/roofline.py` reads them): run with `--ignored --nocapture`, in a release build.
#[test]
#[ignore = "a measurement for scripts/roofline.py"]
fn roofline_loop_counts() {
    let n = std::env::var("NQUEENS_ROOFLINE_N").map_or(17, |v| v.parse().unwrap());
    let jobs = plan_jobs(n);
    let mut nodes = 0;
    let want: u64 = jobs.iter().map(|j| count_job::<true>(j, &mut nodes)).sum();
    println!("roofline n={n} tasks={} nodes={nodes}", jobs.len());
    if let Some(ghz) = clock_ghz() {
        println!("roofline clock ghz={ghz:.3}");
    }
    for ((name, width, streams), (total, l)) in SHAPES.iter().zip(every_shape(&jobs)) {
        assert_eq!(total, want, "{name}");
        println!(
            "roofline kernel={name} width={width} streams={streams} drain_iterations={} \
             drain_lanes={} close_iterations={} close_lanes={}",
            l.drain_iterations, l.drain_lanes, l.close_iterations, l.close_lanes
        );
    }
}

/// The core's clock in GHz, from the best of many short runs of a chain of dependent adds (one
/// cycle each), so that a busy machine only lowers the runs it interrupts; `None` where no chain
/// is written for the architecture.
fn clock_ghz() -> Option<f64> {
    const ADDS: u64 = 100_000 * 10;
    let mut best = f64::MAX;
    for _ in 0..300 {
        let started = std::time::Instant::now();
        let mut x = 0u64;
        let mut left = ADDS / 10;
        // SAFETY: register arithmetic only.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            std::arch::asm!(
                "2:",
                "add {x}, 1", "add {x}, 1", "add {x}, 1", "add {x}, 1", "add {x}, 1",
                "add {x}, 1", "add {x}, 1", "add {x}, 1", "add {x}, 1", "add {x}, 1",
                "dec {n}",
                "jnz 2b",
                x = inout(reg) x,
                n = inout(reg) left,
                options(nomem, nostack),
            );
        }
        // SAFETY: register arithmetic only.
        #[cfg(target_arch = "aarch64")]
        unsafe {
            std::arch::asm!(
                "2:",
                "add {x}, {x}, 1", "add {x}, {x}, 1", "add {x}, {x}, 1", "add {x}, {x}, 1",
                "add {x}, {x}, 1", "add {x}, {x}, 1", "add {x}, {x}, 1", "add {x}, {x}, 1",
                "add {x}, {x}, 1", "add {x}, {x}, 1",
                "subs {n}, {n}, 1",
                "b.ne 2b",
                x = inout(reg) x,
                n = inout(reg) left,
                options(nomem, nostack),
            );
        }
        if !cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            return None;
        }
        assert_eq!((x, left), (ADDS, 0));
        best = best.min(started.elapsed().as_secs_f64());
    }
    Some(ADDS as f64 / best / 1e9)
}
