//! The mean of a stratified sample with one draw per stratum, and its 95% interval.
//!
//! With `K` strata of equal probability and one draw `xᵢ` from each, `x̄ = Σ xᵢ / K` is unbiased
//! and `Var x̄ = Σ Var xᵢ / K²`. One draw per stratum says nothing about its own variance, so
//! neighbouring strata are grouped (pairs, and one triple when `K` is odd) and each group `g`
//! of size `m` estimates `Σ_{i∈g} Var xᵢ` by `m/(m−1) · Σ_{i∈g} (xᵢ − x̄_g)²` (for a pair:
//! `(x₁ − x₂)²`). This "collapsed strata" estimator is biased only upwards — by the spread of
//! the strata means within a group — so the interval `x̄ ± 1.96 √V̂` errs on the wide side.

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A mean with its estimated variance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanEstimate {
    /// The stratified mean.
    pub mean: f64,
    /// The estimated variance of the mean.
    pub variance: f64,
}

impl MeanEstimate {
    /// The standard error of the mean.
    pub fn std_error(&self) -> f64 {
        self.variance.max(0.0).sqrt()
    }

    /// The 95% interval `(low, high)`.
    pub fn interval(&self) -> (f64, f64) {
        let half = Z95 * self.std_error();
        (self.mean - half, self.mean + half)
    }
}

/// The stratified mean of `draws` (one per stratum, strata in order) and its collapsed-strata
/// variance; `None` with fewer than two draws.
pub fn stratified_mean(draws: &[f64]) -> Option<MeanEstimate> {
    let k = draws.len();
    if k < 2 {
        return None;
    }
    let mean = draws.iter().sum::<f64>() / k as f64;
    let pairs = k / 2;
    let mut spread = 0.0;
    for g in 0..pairs {
        let group = if g + 1 == pairs {
            &draws[2 * g..]
        } else {
            &draws[2 * g..2 * g + 2]
        };
        let m = group.len() as f64;
        let centre = group.iter().sum::<f64>() / m;
        let squares: f64 = group.iter().map(|x| (x - centre).powi(2)).sum();
        spread += m / (m - 1.0) * squares;
    }
    Some(MeanEstimate {
        mean,
        variance: spread / (k as f64 * k as f64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_odd_count_closes_with_a_triple() {
        let m = stratified_mean(&[1.0, 1.0, 2.0, 4.0, 6.0]).unwrap();
        assert_eq!(m.mean, 14.0 / 5.0);
        // Pair (1, 1): 0. Triple (2, 4, 6): 3/2 · 8 = 12.
        assert_eq!(m.variance, 12.0 / 25.0);
        let (lo, hi) = m.interval();
        assert!(lo < m.mean && m.mean < hi);
    }

    #[test]
    fn equal_draws_have_no_spread() {
        let m = stratified_mean(&[2.0; 6]).unwrap();
        assert_eq!((m.mean, m.variance), (2.0, 0.0));
    }
}

/// The documentation's examples of crate-internal items, as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn stratified_mean_example() {
        use crate::estimate::stats::stratified_mean;
        let m = stratified_mean(&[1.0, 3.0, 5.0, 5.0]).unwrap();
        assert_eq!(m.mean, 3.5);
        assert_eq!(m.variance, ((1.0f64 - 3.0).powi(2) + 0.0) / 16.0);
        assert!(stratified_mean(&[1.0]).is_none());
    }
}
