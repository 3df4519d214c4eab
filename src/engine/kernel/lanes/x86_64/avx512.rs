//! AVX-512 lanes: sixteen `u32` lanes in a `__m512i`, through the shared driver. AVX-512 has
//! what AVX2 lacks: lane masks in mask registers (`zero_lanes` is one `vptestnmd`, `select` a
//! zero-masking move), expand and compress in one instruction each (`vpexpandd`,
//! `vpcompressd`), a lane popcount (`vpopcntd`, AVX512_VPOPCNTDQ) and a three-input logic
//! instruction (`vpternlogd`) for the four-way NOR of the lookahead.
//!
//! Both expand and compress work register to register: the boards are loaded and stored with
//! plain unaligned moves. The memory-destination form of `vpcompressd` is microcoded on Zen 4
//! (about 75 cycles a store measured there, against 1.6 for the register form and 2 for the
//! store), and storing a whole register past the survivors costs nothing, since the driver's
//! buffers have room for it.
//!
//! The shifts are by a count in a vector (`vpsllvd`, `vpsrlvd`), not by one in an `xmm`
//! register (`vpslld zmm, zmm, xmm`): on Intel the latter is two µops, one of them on port 5,
//! the port every expand, compress and lane test needs; the former one µop on port 0. That
//! takes nine of the drain loop's 79 port-5 cycles a step off on Sapphire Rapids (`llvm-mca`:
//! 79.3 → 70.4 cycles a step, the closing loop 75.4 → 67.0), and Zen 4 runs it no slower
//! (0.95× to 1.00× of the time measured; docs/PERFORMANCE.md, "The AVX-512 loop on Intel's
//! ports").

use std::arch::x86_64::*;
use std::sync::atomic::AtomicBool;

use crate::engine::kernel::job::Job;
use crate::engine::kernel::lanes::{Lanes, Levels, search, with_levels};

/// Proof that this CPU runs AVX-512F and AVX512_VPOPCNTDQ (with POPCNT, BMI1 and BMI2); only
/// [`Avx512::detect`] builds one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx512(());

impl Avx512 {
    /// `Some` when this CPU runs AVX-512F, AVX512_VPOPCNTDQ, POPCNT, BMI1 and BMI2.
    pub fn detect() -> Option<Avx512> {
        let here = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vpopcntdq")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2");
        here.then_some(Avx512(()))
    }

    /// Counts the completions of `job` (at least four free rows); `None` when `stop` was raised
    /// first.
    pub(crate) fn count(self, job: &Job, stop: Option<&AtomicBool>) -> Option<u64> {
        // SAFETY: an `Avx512` exists only where `detect` found every feature `run` enables.
        with_levels(|levels| unsafe { run(self, job, levels, stop) })
    }
}

#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi1,bmi2")]
fn run(l: Avx512, job: &Job, levels: &mut Levels, stop: Option<&AtomicBool>) -> Option<u64> {
    // Three streams: 32 registers hold them (two: 3 to 5 % slower).
    search::<_, 3>(l, job, levels, stop)
}

// SAFETY: every method uses AVX-512F and AVX512_VPOPCNTDQ (and SSE2) only, and an `Avx512`
// exists only where `detect` found them. The `unsafe` blocks below rely on that, and on the
// slice bounds each states.
unsafe impl Lanes for Avx512 {
    const WIDTH: usize = 16;
    type V = __m512i;

    #[inline(always)]
    fn splat(self, x: u32) -> __m512i {
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_set1_epi32(x as i32) }
    }

    #[inline(always)]
    fn load(self, src: &[u32]) -> __m512i {
        let src = &src[..16];
        // SAFETY: `src` holds sixteen words; AVX-512F (see the impl).
        unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, v: __m512i, dst: &mut [u32]) {
        let dst = &mut dst[..16];
        // SAFETY: `dst` holds sixteen words; AVX-512F (see the impl).
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) }
    }

    #[inline(always)]
    fn or(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_or_si512(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_and_si512(a, b) }
    }

    #[inline(always)]
    fn xor(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_xor_si512(a, b) }
    }

    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_add_epi32(a, b) }
    }

    #[inline(always)]
    fn sub(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_sub_epi32(a, b) }
    }

    #[inline(always)]
    fn mul(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_mullo_epi32(a, b) }
    }

    #[inline(always)]
    fn min(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_min_epu32(a, b) }
    }

    #[inline(always)]
    fn nor4(self, a: __m512i, b: __m512i, c: __m512i, d: __m512i) -> __m512i {
        // SAFETY: AVX-512F (see the impl). 0x01 is the truth table of !(x | y | z).
        unsafe { _mm512_ternarylogic_epi32::<0x01>(_mm512_or_si512(a, b), c, d) }
    }

    #[inline(always)]
    fn shl(self, a: __m512i, s: u32) -> __m512i {
        // SAFETY: AVX-512F (see the impl). The count is below 32 (`Lanes::shl`; the driver asserts
        // it): `s & 31` tells the compiler so, and it emits `vpsllvd` alone.
        unsafe { _mm512_sllv_epi32(a, _mm512_set1_epi32((s & 31) as i32)) }
    }

    #[inline(always)]
    fn shr(self, a: __m512i, s: u32) -> __m512i {
        // SAFETY: AVX-512F (see the impl); `vpsrlvd` alone, as for `shl`.
        unsafe { _mm512_srlv_epi32(a, _mm512_set1_epi32((s & 31) as i32)) }
    }

    #[inline(always)]
    fn popcount(self, a: __m512i) -> __m512i {
        // SAFETY: AVX512_VPOPCNTDQ (see the impl).
        unsafe { _mm512_popcnt_epi32(a) }
    }

    #[inline(always)]
    fn zero_lanes(self, a: __m512i) -> u32 {
        // SAFETY: AVX-512F (see the impl).
        u32::from(unsafe { _mm512_testn_epi32_mask(a, a) })
    }

    #[inline(always)]
    fn select(self, keep: u32, a: __m512i) -> __m512i {
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_maskz_mov_epi32(keep as __mmask16, a) }
    }

    #[inline(always)]
    fn sum(self, a: __m512i) -> u64 {
        // SAFETY: AVX-512F (see the impl). Each half is widened to u64 lanes first, so the
        // sum of sixteen full lanes cannot wrap.
        unsafe {
            let low = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(a));
            let high = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64::<1>(a));
            _mm512_reduce_add_epi64(_mm512_add_epi64(low, high)) as u64
        }
    }

    #[inline(always)]
    fn expand(self, old: __m512i, take: u32, src: &[u32]) -> __m512i {
        let fresh = self.load(src);
        // SAFETY: AVX-512F (see the impl).
        unsafe { _mm512_mask_expand_epi32(old, take as __mmask16, fresh) }
    }

    #[inline(always)]
    fn compress_store(self, keep: u32, v: __m512i, dst: &mut [u32]) {
        // SAFETY: AVX-512F (see the impl). The register form, then a plain store.
        let packed = unsafe { _mm512_maskz_compress_epi32(keep as __mmask16, v) };
        self.store(packed, dst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(l: Avx512, v: __m512i) -> [u32; 16] {
        let mut out = [0; 16];
        l.store(v, &mut out);
        out
    }

    #[test]
    fn every_operation_matches_its_definition_lane_by_lane() {
        let Some(l) = Avx512::detect() else {
            eprintln!("skipped on this CPU: the avx512 kernel (not available here)");
            return;
        };
        let a: [u32; 16] = [
            0,
            1,
            0xffff_ffff,
            0x8000_0001,
            12345,
            0,
            7,
            0x00f0_0f00,
            0xdead_beef,
            2,
            0,
            0x7fff_ffff,
            0x0101_0101,
            9,
            0x8000_0000,
            3,
        ];
        let b: [u32; 16] = [
            3,
            0,
            5,
            0xffff,
            0,
            0,
            9,
            1,
            0xffff_ffff,
            0xffff_ffff,
            6,
            2,
            0x1000,
            9,
            0x8000_0000,
            0xffff_fff0,
        ];
        let (va, vb) = (l.load(&a), l.load(&b));
        let each = |f: fn(u32, u32) -> u32| -> [u32; 16] { std::array::from_fn(|i| f(a[i], b[i])) };
        assert_eq!(lanes(l, l.splat(0x1234_5678)), [0x1234_5678; 16]);
        assert_eq!(lanes(l, va), a);
        assert_eq!(lanes(l, l.or(va, vb)), each(|x, y| x | y));
        assert_eq!(lanes(l, l.and(va, vb)), each(|x, y| x & y));
        assert_eq!(lanes(l, l.xor(va, vb)), each(|x, y| x ^ y));
        assert_eq!(lanes(l, l.add(va, vb)), each(u32::wrapping_add));
        assert_eq!(lanes(l, l.sub(va, vb)), each(u32::wrapping_sub));
        assert_eq!(lanes(l, l.mul(va, vb)), each(u32::wrapping_mul));
        assert_eq!(lanes(l, l.nor4(va, vb, va, vb)), each(|x, y| !(x | y)));
        assert_eq!(lanes(l, l.min(va, vb)), each(u32::min));
        let c = l.splat(0x0f0f_0000);
        let d = l.splat(0x0000_0001);
        let nor4: [u32; 16] = std::array::from_fn(|i| !(a[i] | b[i] | 0x0f0f_0000 | 1));
        assert_eq!(lanes(l, l.nor4(va, vb, c, d)), nor4);
        assert_eq!(lanes(l, l.popcount(va)), a.map(u32::count_ones));
        assert_eq!(lanes(l, l.popcount(vb)), b.map(u32::count_ones));
        // Counts below 32 only (see `Lanes::shl`).
        for s in [0, 1, 5, 17, 31] {
            let shl = a.map(|x| x.checked_shl(s).unwrap_or(0));
            let shr = a.map(|x| x.checked_shr(s).unwrap_or(0));
            assert_eq!(lanes(l, l.shl(va, s)), shl, "s={s}");
            assert_eq!(lanes(l, l.shr(va, s)), shr, "s={s}");
        }
        assert_eq!(l.zero_lanes(va), 0b0000_0100_0010_0001);
        assert_eq!(l.zero_lanes(l.splat(0)), 0xffff);
        let keep = 0b1000_0001_1000_0010;
        let selected: [u32; 16] =
            std::array::from_fn(|i| if keep >> i & 1 == 1 { a[i] } else { 0 });
        assert_eq!(lanes(l, l.select(keep, va)), selected);
        let wide = [0xffff_ffffu32; 16];
        assert_eq!(l.sum(l.load(&wide)), 16 * 0xffff_ffff);
        assert_eq!(l.sum(vb), b.iter().map(|&x| u64::from(x)).sum::<u64>());
        // Expand: the lanes of `take`, in order, get the first words of `src`.
        let src: [u32; 16] = std::array::from_fn(|i| 100 + i as u32);
        for take in [0u32, 0b0110_0100, 0xffff, 0x8001, 0b1010_1010_0101_0101] {
            let mut want = a;
            let mut next = 0;
            for (i, lane) in want.iter_mut().enumerate() {
                if take >> i & 1 == 1 {
                    *lane = src[next];
                    next += 1;
                }
            }
            assert_eq!(lanes(l, l.expand(va, take, &src)), want, "take={take:#x}");
        }
        // Compress: the lanes of `keep`, in order, at the start of `dst`.
        for keep in [0u32, 0b1001_0110, 0xffff, 0x8001, 0b0101_0101_1010_1010] {
            let mut dst = [0u32; 16];
            l.compress_store(keep, va, &mut dst);
            let want: Vec<u32> = (0..16)
                .filter(|i| keep >> i & 1 == 1)
                .map(|i| a[i])
                .collect();
            assert_eq!(dst[..want.len()], want[..], "keep={keep:#x}");
        }
    }
}
