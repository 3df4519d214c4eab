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

/// The running sums of a stratified sample, one group of neighbouring strata at a time: what
/// [`stratified_mean`] needs, in a few numbers however many draws there are.
///
/// Sums of disjoint groups add up ([`StratifiedSums::merge`]), in any grouping of the groups;
/// added in one fixed order they give the same bits on any thread count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StratifiedSums {
    /// Draws summed.
    pub draws: u64,
    /// Their sum.
    pub sum: f64,
    /// `Σ_g m/(m−1) · Σ_{i∈g} (xᵢ − x̄_g)²` over the groups `g` of `m` draws.
    pub spread: f64,
}

impl StratifiedSums {
    /// Adds one group of neighbouring strata, one draw each (two, or three for the last group of
    /// an odd count).
    pub fn add_group(&mut self, group: &[f64]) {
        let m = group.len() as f64;
        let sum: f64 = group.iter().sum();
        let centre = sum / m;
        let squares: f64 = group.iter().map(|x| (x - centre).powi(2)).sum();
        self.draws += group.len() as u64;
        self.sum += sum;
        if group.len() > 1 {
            self.spread += m / (m - 1.0) * squares;
        }
    }

    /// Adds the sums of other groups.
    pub fn merge(&mut self, other: &StratifiedSums) {
        self.draws += other.draws;
        self.sum += other.sum;
        self.spread += other.spread;
    }

    /// These sums with every draw multiplied by `factor`.
    pub fn scaled(self, factor: f64) -> StratifiedSums {
        StratifiedSums {
            draws: self.draws,
            sum: self.sum * factor,
            spread: self.spread * factor * factor,
        }
    }

    /// The stratified mean and its collapsed-strata variance; `None` with fewer than two draws.
    pub fn estimate(&self) -> Option<MeanEstimate> {
        if self.draws < 2 {
            return None;
        }
        let k = self.draws as f64;
        Some(MeanEstimate {
            mean: self.sum / k,
            variance: self.spread / (k * k),
        })
    }
}

/// The draws of group `g` of a sample of `k` draws cut into `k / 2` groups: pairs, the last
/// group a triple when `k` is odd.
pub fn group_bounds(g: u64, k: u64) -> std::ops::Range<u64> {
    let start = 2 * g;
    if g + 1 == k / 2 {
        start..k
    } else {
        start..start + 2
    }
}

/// The stratified mean of `draws` (one per stratum, strata in order) and its collapsed-strata
/// variance; `None` with fewer than two draws (the definition the sums are tested against).
#[cfg(test)]
pub fn stratified_mean(draws: &[f64]) -> Option<MeanEstimate> {
    let k = draws.len() as u64;
    let mut sums = StratifiedSums::default();
    for g in 0..k / 2 {
        let range = group_bounds(g, k);
        sums.add_group(&draws[range.start as usize..range.end as usize]);
    }
    sums.estimate()
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
    fn sums_of_groups_in_any_grouping_give_the_mean_of_the_whole() {
        let draws: Vec<f64> = (0..101).map(|i| f64::from(i * i % 17) + 0.25).collect();
        let whole = stratified_mean(&draws).unwrap();
        let k = draws.len() as u64;
        // Even groups first, then odd ones, in two partial sums.
        let (mut even, mut odd) = (StratifiedSums::default(), StratifiedSums::default());
        for g in 0..k / 2 {
            let r = group_bounds(g, k);
            let group = &draws[r.start as usize..r.end as usize];
            if g % 2 == 0 {
                even.add_group(group)
            } else {
                odd.add_group(group)
            }
        }
        even.merge(&odd);
        let split = even.estimate().unwrap();
        assert_eq!(even.draws, k);
        assert!((split.mean - whole.mean).abs() <= 1e-12 * whole.mean);
        assert!((split.variance - whole.variance).abs() <= 1e-12 * whole.variance);
        let doubled = even.scaled(2.0).estimate().unwrap();
        assert!((doubled.mean - 2.0 * split.mean).abs() <= 1e-12 * split.mean);
        assert!((doubled.variance - 4.0 * split.variance).abs() <= 1e-12 * split.variance);
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
        use crate::estimation::stats::stratified_mean;
        let m = stratified_mean(&[1.0, 3.0, 5.0, 5.0]).unwrap();
        assert_eq!(m.mean, 3.5);
        assert_eq!(m.variance, ((1.0f64 - 3.0).powi(2) + 0.0) / 16.0);
        assert!(stratified_mean(&[1.0]).is_none());
    }
}
