//! Why an estimate is refused before it samples.

/// Why an estimate is refused before it samples; [`Error::Estimate`](crate::Error::Estimate)
/// holds it.
///
/// ```
/// use nqueens::estimation::{estimate, Budget, EstimateError, EstimateOptions, Estimator};
/// use nqueens::Error;
/// let options = EstimateOptions::new(Budget::Samples(64));
/// let Err(Error::Estimate(refused)) = estimate(3, &options) else { panic!() };
/// let (min, max) = (Estimator::MIN_N, Estimator::MAX_N);
/// assert_eq!(refused, EstimateError::Board { n: 3, min, max });
/// let message = "n = 3 cannot be estimated (the estimate samples boards 4 to 32)";
/// assert_eq!(refused.to_string(), message);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EstimateError {
    /// A board the estimator does not sample.
    #[error("n = {n} cannot be estimated (the estimate samples boards {min} to {max})")]
    Board {
        /// The board asked for.
        n: u32,
        /// The smallest board sampled ([`Estimator::MIN_N`](crate::estimation::Estimator::MIN_N)).
        min: u32,
        /// The largest board sampled ([`Estimator::MAX_N`](crate::estimation::Estimator::MAX_N)).
        max: u32,
    },
    /// Too few samples for an interval.
    #[error("at least {min} samples are needed for an interval")]
    TooFewSamples {
        /// The samples asked for.
        samples: u64,
        /// The fewest that give an interval.
        min: u64,
    },
    /// A time budget of zero ([`Budget::Time`](crate::estimation::Budget::Time)).
    #[error("0 is not a positive number of seconds")]
    NoTime,
}
