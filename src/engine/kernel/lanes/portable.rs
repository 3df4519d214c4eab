//! Plain-Rust lanes: four `u32` lanes as an array, for every CPU. The compiler turns most of
//! the lane-wise operations into whatever vector instructions the target has; expand and
//! compress are branch-free scalar loops. This is the reference the other lane kernels are
//! tested against.

use std::sync::atomic::AtomicBool;

use super::{Lanes, Levels, search, with_levels};
use crate::engine::kernel::job::Job;

/// Number of lanes.
const W: usize = 4;

/// The portable lanes; available on every CPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

impl Portable {
    /// Counts the completions of `job` (at least four free rows); `None` when `stop` was raised
    /// first.
    pub(crate) fn count(self, job: &Job, stop: Option<&AtomicBool>) -> Option<u64> {
        with_levels(|levels| run(self, job, levels, stop))
    }
}

#[inline(never)]
fn run(l: Portable, job: &Job, levels: &mut Levels, stop: Option<&AtomicBool>) -> Option<u64> {
    search::<_, 2>(l, job, levels, stop)
}

/// `f` applied lane by lane.
#[inline(always)]
fn zip(a: [u32; W], b: [u32; W], f: impl Fn(u32, u32) -> u32) -> [u32; W] {
    let mut out = [0; W];
    for i in 0..W {
        out[i] = f(a[i], b[i]);
    }
    out
}

// SAFETY: plain Rust; runs everywhere.
unsafe impl Lanes for Portable {
    const WIDTH: usize = W;
    type V = [u32; W];

    #[inline(always)]
    fn splat(self, x: u32) -> [u32; W] {
        [x; W]
    }

    #[inline(always)]
    fn load(self, src: &[u32]) -> [u32; W] {
        src[..W].try_into().expect("W words")
    }

    #[inline(always)]
    fn store(self, v: [u32; W], dst: &mut [u32]) {
        dst[..W].copy_from_slice(&v);
    }

    #[inline(always)]
    fn or(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, |x, y| x | y)
    }

    #[inline(always)]
    fn and(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, |x, y| x & y)
    }

    #[inline(always)]
    fn xor(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, |x, y| x ^ y)
    }

    #[inline(always)]
    fn add(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, u32::wrapping_add)
    }

    #[inline(always)]
    fn sub(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, u32::wrapping_sub)
    }

    #[inline(always)]
    fn mul(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, u32::wrapping_mul)
    }

    #[inline(always)]
    fn min(self, a: [u32; W], b: [u32; W]) -> [u32; W] {
        zip(a, b, u32::min)
    }

    #[inline(always)]
    fn nor4(self, a: [u32; W], b: [u32; W], c: [u32; W], d: [u32; W]) -> [u32; W] {
        let mut out = [0; W];
        for i in 0..W {
            out[i] = !(a[i] | b[i] | c[i] | d[i]);
        }
        out
    }

    #[inline(always)]
    fn shl(self, a: [u32; W], s: u32) -> [u32; W] {
        // One well-predicted branch per call (the count is the same for a whole job), so the
        // lanes shift together.
        if s >= 32 { [0; W] } else { a.map(|x| x << s) }
    }

    #[inline(always)]
    fn shr(self, a: [u32; W], s: u32) -> [u32; W] {
        if s >= 32 { [0; W] } else { a.map(|x| x >> s) }
    }

    #[inline(always)]
    fn popcount(self, a: [u32; W]) -> [u32; W] {
        a.map(u32::count_ones)
    }

    #[inline(always)]
    fn zero_lanes(self, a: [u32; W]) -> u32 {
        let mut m = 0;
        for (i, x) in a.iter().enumerate() {
            m |= u32::from(*x == 0) << i;
        }
        m
    }

    #[inline(always)]
    fn select(self, keep: u32, a: [u32; W]) -> [u32; W] {
        let mut out = a;
        for (i, x) in out.iter_mut().enumerate() {
            *x &= 0u32.wrapping_sub((keep >> i) & 1);
        }
        out
    }

    #[inline(always)]
    fn sum(self, a: [u32; W]) -> u64 {
        a.iter().map(|&x| u64::from(x)).sum()
    }

    #[inline(always)]
    fn expand(self, old: [u32; W], take: u32, src: &[u32]) -> [u32; W] {
        let src = &src[..W];
        let mut out = old;
        let mut j = 0;
        for (i, x) in out.iter_mut().enumerate() {
            let t = (take >> i) & 1;
            *x = if t != 0 { src[j] } else { *x };
            j += t as usize;
        }
        out
    }

    #[inline(always)]
    fn compress_store(self, keep: u32, v: [u32; W], dst: &mut [u32]) {
        let dst = &mut dst[..W];
        let mut j = 0;
        for (i, x) in v.iter().enumerate() {
            dst[j] = *x;
            j += ((keep >> i) & 1) as usize;
        }
    }
}
