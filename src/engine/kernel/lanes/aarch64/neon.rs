//! NEON lanes: eight `u32` lanes in two `uint32x4_t` registers (a `uint32x4x2_t`), so that
//! each step of a stream is two independent instruction chains. NEON has no compress, expand or
//! lane mask, so compress and expand move bytes with a table lookup (`tbl`) by one of 16 index
//! vectors chosen by each half's four mask bits, the high half stored after (or loaded after)
//! the low half's boards; the popcount counts each byte (`cnt`) and sums the bytes of a lane
//! with two pairwise widening adds; a lane mask is a compare with zero, one bit per lane and an
//! add across the register.

use std::arch::aarch64::*;
use std::sync::atomic::AtomicBool;

use crate::engine::kernel::job::Job;
use crate::engine::kernel::lanes::{Lanes, Levels, search, with_levels};

/// Proof that this CPU runs NEON (every aarch64 CPU does); only [`Neon::detect`] builds one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Neon(());

impl Neon {
    /// `Some` when this CPU runs NEON (Advanced SIMD).
    pub fn detect() -> Option<Neon> {
        std::arch::is_aarch64_feature_detected!("neon").then_some(Neon(()))
    }

    /// Counts the completions of `job` (at least four free rows); `None` when `stop` was raised
    /// first.
    pub(crate) fn count(self, job: &Job, stop: Option<&AtomicBool>) -> Option<u64> {
        // SAFETY: a `Neon` exists only where `detect` found the feature `run` enables.
        with_levels(|levels| unsafe { run(self, job, levels, stop) })
    }
}

// Not inlined, so the loops keep a symbol of their own (`scripts/roofline.py` reads them).
#[target_feature(enable = "neon")]
#[inline(never)]
fn run(l: Neon, job: &Job, levels: &mut Levels, stop: Option<&AtomicBool>) -> Option<u64> {
    search::<_, 2>(l, job, levels, stop)
}

/// Byte indices for `tbl`, one per 4-bit mask of a half: `COMPRESS[m]` gathers the lanes of
/// `m` in order to the front (then zeros); `EXPAND[m]` gives lane `i` of `m` the bytes of the
/// fresh word of its rank among the lanes of `m` (table bytes 0..16), and every other lane its
/// own old bytes (table bytes 16..32).
static COMPRESS: [[u8; 16]; 16] = tables().0;
static EXPAND: [[u8; 16]; 16] = tables().1;

const fn tables() -> ([[u8; 16]; 16], [[u8; 16]; 16]) {
    let mut compress = [[0xff_u8; 16]; 16];
    let mut expand = [[0u8; 16]; 16];
    let mut m = 0;
    while m < 16 {
        let mut rank = 0;
        let mut i = 0;
        while i < 4 {
            let mut b = 0;
            while b < 4 {
                if m & (1 << i) != 0 {
                    compress[m][4 * rank + b] = (4 * i + b) as u8;
                    expand[m][4 * i + b] = (4 * rank + b) as u8;
                } else {
                    expand[m][4 * i + b] = (16 + 4 * i + b) as u8;
                }
                b += 1;
            }
            if m & (1 << i) != 0 {
                rank += 1;
            }
            i += 1;
        }
        m += 1;
    }
    (compress, expand)
}

/// The number of lanes in the 4-bit mask `m & 15`: nibble `m` of a constant, a shift and a
/// mask (cheaper than a scalar popcount, which goes through the vector unit).
#[inline(always)]
fn count4(m: u32) -> usize {
    const COUNTS: u64 = {
        let mut c = 0u64;
        let mut m = 0;
        while m < 16 {
            c |= ((m as u64).count_ones() as u64) << (4 * m);
            m += 1;
        }
        c
    };
    ((COUNTS >> (4 * (m & 15))) & 15) as usize
}

/// `f` applied to both halves.
#[inline(always)]
fn zip(
    a: uint32x4x2_t,
    b: uint32x4x2_t,
    f: impl Fn(uint32x4_t, uint32x4_t) -> uint32x4_t,
) -> uint32x4x2_t {
    uint32x4x2_t(f(a.0, b.0), f(a.1, b.1))
}

/// Each lane's bit of an 8-bit lane mask: `[1, 2, 4, 8]` for the low half, `[16, 32, 64, 128]`
/// for the high half.
#[inline(always)]
fn lane_bits() -> uint32x4x2_t {
    static BITS: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
    // SAFETY: `BITS` holds eight words; NEON is part of every aarch64 target (and the callers
    // hold a `Neon`).
    unsafe { vld1q_u32_x2(BITS.as_ptr()) }
}

/// The lanes of the 8-bit mask `m` as all ones, the others zero.
#[inline(always)]
fn lane_mask(m: u32) -> uint32x4x2_t {
    let bits = lane_bits();
    // SAFETY: NEON only (see `lane_bits`).
    unsafe {
        let m = vdupq_n_u32(m);
        uint32x4x2_t(vtstq_u32(m, bits.0), vtstq_u32(m, bits.1))
    }
}

/// The 16 bytes of `table`'s row `m & 15`, as `tbl` indices.
#[inline(always)]
fn indices(table: &[[u8; 16]; 16], m: u32) -> uint8x16_t {
    // SAFETY: a row holds 16 bytes; NEON only (see `lane_bits`).
    unsafe { vld1q_u8(table[(m & 15) as usize].as_ptr()) }
}

/// One half of a compress: the lanes of the 4-bit mask `m` moved to the front, in order.
#[inline(always)]
fn compress_half(x: uint32x4_t, m: u32) -> uint32x4_t {
    // SAFETY: NEON only (see `lane_bits`).
    unsafe {
        let bytes = vqtbl1q_u8(vreinterpretq_u8_u32(x), indices(&COMPRESS, m));
        vreinterpretq_u32_u8(bytes)
    }
}

/// One half of an expand: the lanes of the 4-bit mask `m` replaced by the first words of
/// `fresh`, in order, the others those of `old`; one two-register lookup (indices 0..16 read
/// `fresh`, 16..32 read `old`).
#[inline(always)]
fn expand_half(fresh: uint32x4_t, old: uint32x4_t, m: u32) -> uint32x4_t {
    // SAFETY: NEON only (see `lane_bits`).
    unsafe {
        let table = uint8x16x2_t(vreinterpretq_u8_u32(fresh), vreinterpretq_u8_u32(old));
        vreinterpretq_u32_u8(vqtbl2q_u8(table, indices(&EXPAND, m)))
    }
}

// SAFETY: every method uses NEON only, and a `Neon` exists only where `detect` found it (NEON
// is also part of every aarch64 target). The `unsafe` blocks below rely on that.
unsafe impl Lanes for Neon {
    const WIDTH: usize = 8;
    type V = uint32x4x2_t;

    #[inline(always)]
    fn splat(self, x: u32) -> uint32x4x2_t {
        // SAFETY: NEON only.
        unsafe { uint32x4x2_t(vdupq_n_u32(x), vdupq_n_u32(x)) }
    }

    #[inline(always)]
    fn load(self, src: &[u32]) -> uint32x4x2_t {
        let src = &src[..8];
        // SAFETY: `src` holds eight words.
        unsafe { vld1q_u32_x2(src.as_ptr()) }
    }

    #[inline(always)]
    fn store(self, v: uint32x4x2_t, dst: &mut [u32]) {
        let dst = &mut dst[..8];
        // SAFETY: `dst` holds eight words.
        unsafe { vst1q_u32_x2(dst.as_mut_ptr(), v) }
    }

    #[inline(always)]
    fn or(self, a: uint32x4x2_t, b: uint32x4x2_t) -> uint32x4x2_t {
        // SAFETY: NEON only.
        zip(a, b, |x, y| unsafe { vorrq_u32(x, y) })
    }

    #[inline(always)]
    fn and(self, a: uint32x4x2_t, b: uint32x4x2_t) -> uint32x4x2_t {
        // SAFETY: NEON only.
        zip(a, b, |x, y| unsafe { vandq_u32(x, y) })
    }

    #[inline(always)]
    fn xor(self, a: uint32x4x2_t, b: uint32x4x2_t) -> uint32x4x2_t {
        // SAFETY: NEON only.
        zip(a, b, |x, y| unsafe { veorq_u32(x, y) })
    }

    #[inline(always)]
    fn add(self, a: uint32x4x2_t, b: uint32x4x2_t) -> uint32x4x2_t {
        // SAFETY: NEON only.
        zip(a, b, |x, y| unsafe { vaddq_u32(x, y) })
    }

    #[inline(always)]
    fn sub(self, a: uint32x4x2_t, b: uint32x4x2_t) -> uint32x4x2_t {
        // SAFETY: NEON only.
        zip(a, b, |x, y| unsafe { vsubq_u32(x, y) })
    }

    #[inline(always)]
    fn mul(self, a: uint32x4x2_t, b: uint32x4x2_t) -> uint32x4x2_t {
        // SAFETY: NEON only.
        zip(a, b, |x, y| unsafe { vmulq_u32(x, y) })
    }

    #[inline(always)]
    fn min(self, a: uint32x4x2_t, b: uint32x4x2_t) -> uint32x4x2_t {
        // SAFETY: NEON only.
        unsafe { uint32x4x2_t(vminq_u32(a.0, b.0), vminq_u32(a.1, b.1)) }
    }

    #[inline(always)]
    fn nor4(
        self,
        a: uint32x4x2_t,
        b: uint32x4x2_t,
        c: uint32x4x2_t,
        d: uint32x4x2_t,
    ) -> uint32x4x2_t {
        let any = self.or(self.or(a, b), self.or(c, d));
        // SAFETY: NEON only.
        unsafe { uint32x4x2_t(vmvnq_u32(any.0), vmvnq_u32(any.1)) }
    }

    #[inline(always)]
    fn shl(self, a: uint32x4x2_t, s: u32) -> uint32x4x2_t {
        // `ushl` shifts by the signed low byte of each count lane and gives 0 for a count of 32
        // or more; the clamp keeps a count above 127 from wrapping to a negative byte.
        // SAFETY: NEON only.
        unsafe {
            let s = vdupq_n_s32(s.min(32) as i32);
            uint32x4x2_t(vshlq_u32(a.0, s), vshlq_u32(a.1, s))
        }
    }

    #[inline(always)]
    fn shr(self, a: uint32x4x2_t, s: u32) -> uint32x4x2_t {
        // A negative count shifts right, and gives 0 from −32 down (see `shl`).
        // SAFETY: NEON only.
        unsafe {
            let s = vdupq_n_s32(-(s.min(32) as i32));
            uint32x4x2_t(vshlq_u32(a.0, s), vshlq_u32(a.1, s))
        }
    }

    #[inline(always)]
    fn popcount(self, a: uint32x4x2_t) -> uint32x4x2_t {
        // SAFETY: NEON only.
        unsafe {
            let half = |x| vpaddlq_u16(vpaddlq_u8(vcntq_u8(vreinterpretq_u8_u32(x))));
            uint32x4x2_t(half(a.0), half(a.1))
        }
    }

    #[inline(always)]
    fn zero_lanes(self, a: uint32x4x2_t) -> u32 {
        let bits = lane_bits();
        // Each zero lane keeps its own bit, so one add across the register gathers the mask.
        // SAFETY: NEON only.
        unsafe {
            let lo = vandq_u32(vceqzq_u32(a.0), bits.0);
            let hi = vandq_u32(vceqzq_u32(a.1), bits.1);
            vaddvq_u32(vorrq_u32(lo, hi))
        }
    }

    #[inline(always)]
    fn select(self, keep: u32, a: uint32x4x2_t) -> uint32x4x2_t {
        self.and(a, lane_mask(keep))
    }

    #[inline(always)]
    fn sum(self, a: uint32x4x2_t) -> u64 {
        // SAFETY: NEON only.
        unsafe { vaddlvq_u32(a.0) + vaddlvq_u32(a.1) }
    }

    #[inline(always)]
    fn expand(self, old: uint32x4x2_t, take: u32, src: &[u32]) -> uint32x4x2_t {
        let src = &src[..8];
        let (lo, hi) = (take & 15, (take >> 4) & 15);
        // SAFETY: `src` holds eight words and `count4(lo) ≤ 4`, so both loads of four words
        // stay inside it. The high half's boards follow the low half's.
        let (fresh_lo, fresh_hi) = unsafe {
            (
                vld1q_u32(src.as_ptr()),
                vld1q_u32(src.as_ptr().add(count4(lo))),
            )
        };
        uint32x4x2_t(
            expand_half(fresh_lo, old.0, lo),
            expand_half(fresh_hi, old.1, hi),
        )
    }

    #[inline(always)]
    fn compress_store(self, keep: u32, v: uint32x4x2_t, dst: &mut [u32]) {
        let dst = &mut dst[..8];
        let (lo, hi) = (keep & 15, (keep >> 4) & 15);
        let (lo_kept, hi_kept) = (compress_half(v.0, lo), compress_half(v.1, hi));
        // SAFETY: `dst` holds eight words and `count4(lo) ≤ 4`, so both stores of four words
        // stay inside it. The high half's store comes second: it overwrites the low half's
        // words past its kept lanes.
        unsafe {
            vst1q_u32(dst.as_mut_ptr(), lo_kept);
            vst1q_u32(dst.as_mut_ptr().add(count4(lo)), hi_kept);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(v: uint32x4x2_t) -> [u32; 8] {
        let mut out = [0; 8];
        Neon::detect().unwrap().store(v, &mut out);
        out
    }

    #[test]
    fn count4_counts_the_bits_of_a_nibble() {
        for m in 0..64 {
            assert_eq!(count4(m), (m & 15).count_ones() as usize);
        }
    }

    /// Every operation agrees with its lane-by-lane definition on every 8-bit mask and on
    /// shift counts in and out of range.
    #[test]
    fn every_operation_matches_its_definition_lane_by_lane() {
        let l = Neon::detect().expect("NEON on every aarch64 CPU");
        let a: [u32; 8] = [
            0,
            1,
            0x8000_0000,
            0xdead_beef,
            u32::MAX,
            0x0f0f_0f0f,
            12345,
            0x7fff_ffff,
        ];
        let b = a.map(|x| x.rotate_left(7) ^ 0x5555_5555);
        let (va, vb) = (l.load(&a), l.load(&b));
        assert_eq!(lanes(va), a);
        let each = |f: fn(u32, u32) -> u32| -> [u32; 8] { std::array::from_fn(|i| f(a[i], b[i])) };
        assert_eq!(lanes(l.or(va, vb)), each(|x, y| x | y));
        assert_eq!(lanes(l.and(va, vb)), each(|x, y| x & y));
        assert_eq!(lanes(l.xor(va, vb)), each(|x, y| x ^ y));
        assert_eq!(lanes(l.add(va, vb)), each(u32::wrapping_add));
        assert_eq!(lanes(l.sub(va, vb)), each(u32::wrapping_sub));
        assert_eq!(lanes(l.mul(va, vb)), each(u32::wrapping_mul));
        assert_eq!(lanes(l.nor4(va, vb, va, vb)), each(|x, y| !(x | y)));
        assert_eq!(lanes(l.min(va, vb)), each(u32::min));
        assert_eq!(lanes(l.splat(0xabcd)), [0xabcd; 8]);
        assert_eq!(lanes(l.popcount(va)), a.map(u32::count_ones));
        assert_eq!(l.zero_lanes(va), 0b0000_0001);
        assert_eq!(l.sum(va), a.iter().map(|&x| u64::from(x)).sum::<u64>());
        for s in [0, 1, 5, 31, 32, 33, 63, 64, 127, 128, 200, u32::MAX] {
            let shl = a.map(|x| x.checked_shl(s).unwrap_or(0));
            let shr = a.map(|x| x.checked_shr(s).unwrap_or(0));
            assert_eq!(lanes(l.shl(va, s)), shl, "shl {s}");
            assert_eq!(lanes(l.shr(va, s)), shr, "shr {s}");
        }
        let src: Vec<u32> = (100..116).collect();
        for m in 0..256u32 {
            let kept: Vec<u32> = (0..8).filter(|i| m >> i & 1 == 1).map(|i| a[i]).collect();
            let selected: [u32; 8] =
                std::array::from_fn(|i| if m >> i & 1 == 1 { a[i] } else { 0 });
            assert_eq!(lanes(l.select(m, va)), selected, "select {m:#x}");
            let mut next = src.iter();
            let expanded: [u32; 8] = std::array::from_fn(|i| {
                if m >> i & 1 == 1 {
                    *next.next().unwrap()
                } else {
                    a[i]
                }
            });
            assert_eq!(lanes(l.expand(va, m, &src)), expanded, "expand {m:#x}");
            let mut got = [0u32; 8];
            l.compress_store(m, va, &mut got);
            assert_eq!(got[..kept.len()], kept[..], "compress {m:#x}");
            let zero = l.zero_lanes(l.select(m, l.splat(1)));
            assert_eq!(zero, !m & 0xff, "zero lanes {m:#x}");
        }
    }
}
