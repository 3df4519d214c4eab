//! AVX2 lanes: eight `u32` lanes in a `__m256i`. AVX2 has no compress, expand or lane
//! popcount, so compress and expand permute the lanes (`vpermd`) by an index vector chosen by
//! the lane mask: one byte a lane in a 256-entry table of `u64` (2 KiB each, widened with
//! `vpmovsxbd`; a table of whole vectors takes 8 KiB and was about 6 % slower), and expand
//! keeps the old lanes by the sign bit of their index (`vblendvps`). The popcount looks up each
//! nibble (`vpshufb`) and sums the bytes of a lane with two multiply-adds.

use std::arch::x86_64::*;
use std::sync::atomic::AtomicBool;

use crate::engine::kernel::job::Job;
use crate::engine::kernel::lanes::{Lanes, Levels, search, with_levels};

/// Proof that this CPU runs AVX2 (with POPCNT, BMI1 and BMI2); only [`Avx2::detect`] builds
/// one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2(());

impl Avx2 {
    /// `Some` when this CPU runs AVX2, POPCNT, BMI1 and BMI2.
    pub fn detect() -> Option<Avx2> {
        let here = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2");
        here.then_some(Avx2(()))
    }

    /// Counts the completions of `job` (at least four free rows); `None` when `stop` was raised
    /// first.
    pub(crate) fn count(self, job: &Job, stop: Option<&AtomicBool>) -> Option<u64> {
        // SAFETY: an `Avx2` exists only where `detect` found every feature `run` enables.
        with_levels(|levels| unsafe { run(self, job, levels, stop) })
    }
}

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
fn run(l: Avx2, job: &Job, levels: &mut Levels, stop: Option<&AtomicBool>) -> Option<u64> {
    // Two streams: a third spills the 16 registers (1.9× slower).
    search::<_, 2>(l, job, levels, stop)
}

/// Lane indices for each 8-bit mask, one byte a lane: `COMPRESS[m]` lists the lanes of `m` in
/// order (then zeros); `EXPAND[m]` gives lane `i` of `m` the index of its rank among the lanes
/// of `m`, and every other lane 0x80, whose sign bit (once widened) keeps its old board.
static COMPRESS: [u64; 256] = tables().0;
static EXPAND: [u64; 256] = tables().1;

const fn tables() -> ([u64; 256], [u64; 256]) {
    let mut compress = [0u64; 256];
    let mut expand = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let mut rank = 0;
        let mut i = 0;
        while i < 8 {
            if m & (1 << i) != 0 {
                compress[m] |= (i as u64) << (8 * rank);
                expand[m] |= (rank as u64) << (8 * i);
                rank += 1;
            } else {
                expand[m] |= 0x80 << (8 * i);
            }
            i += 1;
        }
        m += 1;
    }
    (compress, expand)
}

/// The eight byte indices of `word`, each widened to a lane (sign-extended, so 0x80 becomes a
/// lane with its sign bit set).
#[inline(always)]
fn widen(word: u64) -> __m256i {
    // SAFETY: an `Avx2` value proves the CPU runs AVX2 (the callers take one).
    unsafe { _mm256_cvtepi8_epi32(_mm_cvtsi64_si128(word as i64)) }
}

/// `v` as a vector of eight mask lanes: all ones in the lanes of `m`.
#[inline(always)]
fn lane_mask(m: u32) -> __m256i {
    // SAFETY: an `Avx2` value proves the CPU runs AVX2 (the callers take one).
    unsafe {
        let bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(m as i32), bits), bits)
    }
}

// SAFETY: every method uses AVX2 (and SSE2) only, and an `Avx2` exists only where `detect`
// found it. The `unsafe` blocks below rely on that.
unsafe impl Lanes for Avx2 {
    const WIDTH: usize = 8;
    type V = __m256i;

    #[inline(always)]
    fn splat(self, x: u32) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_set1_epi32(x as i32) }
    }

    #[inline(always)]
    fn load(self, src: &[u32]) -> __m256i {
        let src = &src[..8];
        // SAFETY: `src` holds eight words.
        unsafe { _mm256_loadu_si256(src.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, v: __m256i, dst: &mut [u32]) {
        let dst = &mut dst[..8];
        // SAFETY: `dst` holds eight words.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) }
    }

    #[inline(always)]
    fn or(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_or_si256(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_and_si256(a, b) }
    }

    #[inline(always)]
    fn xor(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_xor_si256(a, b) }
    }

    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_add_epi32(a, b) }
    }

    #[inline(always)]
    fn sub(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_sub_epi32(a, b) }
    }

    #[inline(always)]
    fn mul(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_mullo_epi32(a, b) }
    }

    #[inline(always)]
    fn min(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_min_epu32(a, b) }
    }

    #[inline(always)]
    fn nor4(self, a: __m256i, b: __m256i, c: __m256i, d: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe {
            let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
            _mm256_xor_si256(any, _mm256_set1_epi32(-1))
        }
    }

    #[inline(always)]
    fn shl(self, a: __m256i, s: u32) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_sll_epi32(a, _mm_cvtsi32_si128(s as i32)) }
    }

    #[inline(always)]
    fn shr(self, a: __m256i, s: u32) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_srl_epi32(a, _mm_cvtsi32_si128(s as i32)) }
    }

    #[inline(always)]
    fn popcount(self, a: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe {
            let nibbles = _mm256_setr_epi8(
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                2, 3, 3, 4,
            );
            let low = _mm256_set1_epi8(0x0f);
            let lo = _mm256_shuffle_epi8(nibbles, _mm256_and_si256(a, low));
            let hi = _mm256_shuffle_epi8(nibbles, _mm256_and_si256(_mm256_srli_epi16(a, 4), low));
            let bytes = _mm256_add_epi8(lo, hi);
            let pairs = _mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1));
            _mm256_madd_epi16(pairs, _mm256_set1_epi16(1))
        }
    }

    #[inline(always)]
    fn zero_lanes(self, a: __m256i) -> u32 {
        // SAFETY: AVX2 (see the impl).
        unsafe {
            let zero = _mm256_cmpeq_epi32(a, _mm256_setzero_si256());
            _mm256_movemask_ps(_mm256_castsi256_ps(zero)) as u32
        }
    }

    #[inline(always)]
    fn select(self, keep: u32, a: __m256i) -> __m256i {
        // SAFETY: AVX2 (see the impl).
        unsafe { _mm256_and_si256(a, lane_mask(keep)) }
    }

    #[inline(always)]
    fn sum(self, a: __m256i) -> u64 {
        let mut lanes = [0u32; 8];
        self.store(a, &mut lanes);
        lanes.iter().map(|&x| u64::from(x)).sum()
    }

    #[inline(always)]
    fn expand(self, old: __m256i, take: u32, src: &[u32]) -> __m256i {
        let fresh = self.load(src);
        let index = widen(EXPAND[take as usize & 0xff]);
        // SAFETY: AVX2 (see the impl).
        unsafe {
            let moved = _mm256_permutevar8x32_epi32(fresh, index);
            _mm256_castps_si256(_mm256_blendv_ps(
                _mm256_castsi256_ps(moved),
                _mm256_castsi256_ps(old),
                _mm256_castsi256_ps(index),
            ))
        }
    }

    #[inline(always)]
    fn compress_store(self, keep: u32, v: __m256i, dst: &mut [u32]) {
        let index = widen(COMPRESS[keep as usize & 0xff]);
        // SAFETY: AVX2 (see the impl).
        self.store(unsafe { _mm256_permutevar8x32_epi32(v, index) }, dst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(l: Avx2, v: __m256i) -> [u32; 8] {
        let mut out = [0; 8];
        l.store(v, &mut out);
        out
    }

    #[test]
    fn every_operation_matches_its_definition_lane_by_lane() {
        let Some(l) = Avx2::detect() else {
            eprintln!("skipped on this CPU: the avx2 kernel (not available here)");
            return;
        };
        let a = [0u32, 1, 0xffff_ffff, 0x8000_0001, 12345, 0, 7, 0x00f0_0f00];
        let b = [3u32, 0, 5, 0xffff, 0, 0, 9, 1];
        let (va, vb) = (l.load(&a), l.load(&b));
        let each = |f: fn(u32, u32) -> u32| -> [u32; 8] { std::array::from_fn(|i| f(a[i], b[i])) };
        assert_eq!(lanes(l, l.or(va, vb)), each(|x, y| x | y));
        assert_eq!(lanes(l, l.and(va, vb)), each(|x, y| x & y));
        assert_eq!(lanes(l, l.xor(va, vb)), each(|x, y| x ^ y));
        assert_eq!(lanes(l, l.add(va, vb)), each(u32::wrapping_add));
        assert_eq!(lanes(l, l.sub(va, vb)), each(u32::wrapping_sub));
        assert_eq!(lanes(l, l.mul(va, vb)), each(u32::wrapping_mul));
        assert_eq!(lanes(l, l.nor4(va, vb, va, vb)), each(|x, y| !(x | y)));
        assert_eq!(lanes(l, l.min(va, vb)), each(u32::min));
        assert_eq!(lanes(l, l.popcount(va)), a.map(u32::count_ones));
        for s in [0, 1, 5, 31, 32, 40] {
            let shl = a.map(|x| x.checked_shl(s).unwrap_or(0));
            let shr = a.map(|x| x.checked_shr(s).unwrap_or(0));
            assert_eq!(lanes(l, l.shl(va, s)), shl, "s={s}");
            assert_eq!(lanes(l, l.shr(va, s)), shr, "s={s}");
        }
        assert_eq!(l.zero_lanes(va), 0b0010_0001);
        assert_eq!(
            lanes(l, l.select(0b1000_0010, va)),
            [0, 1, 0, 0, 0, 0, 0, 0x00f0_0f00]
        );
        assert_eq!(l.sum(vb), 3 + 5 + 0xffff + 9 + 1);
        let src = [100, 101, 102, 103, 104, 105, 106, 107];
        assert_eq!(
            lanes(l, l.expand(va, 0b0110_0100, &src)),
            [0, 1, 100, 0x8000_0001, 12345, 101, 102, 0x00f0_0f00]
        );
        let mut dst = [0u32; 8];
        l.compress_store(0b1001_0110, va, &mut dst);
        assert_eq!(dst[..4], [1, 0xffff_ffff, 12345, 0x00f0_0f00]);
    }
}
