//! The pseudo-random numbers of the estimator: SplitMix64, one independent stream per sample.
//!
//! SplitMix64 (Steele, Lea and Flood, 2014) steps a 64-bit counter by the odd constant
//! `0x9e3779b97f4a7c15` and scrambles it with two xor-shift-multiply rounds; it passes BigCrush
//! and needs no state beyond the counter. Sample `i` of seed `s` starts its counter at
//! `mix(s) ⊕ mix(i + 0x632be59bd9b4e019)`, so its numbers depend on the seed and its index
//! alone, never on which thread draws them or in which order.

/// A SplitMix64 generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

/// The counter's step: 2⁶⁴ divided by the golden ratio, made odd.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The SplitMix64 output function.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl SplitMix64 {
    /// The stream of sample `index` under `seed`.
    pub fn for_sample(seed: u64, index: u64) -> SplitMix64 {
        SplitMix64 {
            state: mix(seed) ^ mix(index.wrapping_add(0x632b_e59b_d9b4_e019)),
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A uniform number in `[0, 1)` with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `0..bound` (`bound ≥ 1`), without modulo bias (Lemire's method).
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "an empty range");
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_outputs_match_the_reference_generator() {
        // SplitMix64 seeded with 0 (state before the first step): reference values.
        let mut rng = SplitMix64 { state: 0 };
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut rng = SplitMix64::for_sample(42, 0);
        let mut hits = [0u32; 5];
        for _ in 0..50_000 {
            hits[rng.below(5) as usize] += 1;
        }
        assert!(
            hits.iter().all(|&h| (9_500..10_500).contains(&h)),
            "{hits:?}"
        );
    }
}

/// The documentation's examples of crate-internal items, as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn for_sample_example() {
        use crate::estimation::rng::SplitMix64;
        let mut a = SplitMix64::for_sample(7, 3);
        let mut b = SplitMix64::for_sample(7, 3);
        assert_eq!(a.next_u64(), b.next_u64());
        assert_ne!(
            SplitMix64::for_sample(7, 4).next_u64(),
            SplitMix64::for_sample(7, 3).next_u64()
        );
    }

    #[test]
    fn below_example() {
        use crate::estimation::rng::SplitMix64;
        let mut rng = SplitMix64::for_sample(1, 0);
        assert!((0..1000).all(|_| rng.below(3) < 3));
    }
}
