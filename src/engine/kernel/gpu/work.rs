//! How busy a device's threads were: the steps they ran against the steps their dispatches
//! offered.

/// The steps a device's threads ran and were offered: how busy they were.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Work {
    /// Dispatches run.
    pub dispatches: u64,
    /// Steps the threads ran: queens placed, plus a step per sub-job taken and one per free row
    /// of its table copied.
    pub steps: u64,
    /// Steps the dispatches offered: threads × the most steps one thread ran, in each dispatch
    /// (a dispatch lasts as long as its longest thread).
    pub offered: u64,
}

impl Work {
    /// The share of the offered steps the threads ran (`None` before any dispatch): what is
    /// left is threads with no sub-job left while others search (a batch's tail) or with less
    /// to do than the dispatch's longest.
    ///
    /// ```
    /// use nqueens::gpu::Work;
    /// assert_eq!(Work::default().busy(), None);
    /// ```
    #[must_use]
    pub fn busy(&self) -> Option<f64> {
        (self.offered > 0).then(|| self.steps as f64 / self.offered as f64)
    }

    /// Adds one dispatch of `threads` threads that ran `steps` in all, `longest` the most of
    /// one thread.
    pub(super) fn add(&mut self, steps: u64, longest: u32, threads: u32) {
        self.dispatches += 1;
        self.steps += steps;
        self.offered += u64::from(longest) * u64::from(threads);
    }

    /// The dispatches and steps since `earlier` (a reading of the same device).
    #[must_use]
    pub fn since(&self, earlier: Work) -> Work {
        Work {
            dispatches: self.dispatches.saturating_sub(earlier.dispatches),
            steps: self.steps.saturating_sub(earlier.steps),
            offered: self.offered.saturating_sub(earlier.offered),
        }
    }

    /// Adds another's dispatches and steps.
    pub(crate) fn add_work(&mut self, other: Work) {
        self.dispatches += other.dispatches;
        self.steps += other.steps;
        self.offered += other.offered;
    }
}

#[cfg(test)]
mod tests {
    use super::Work;

    #[test]
    fn busy_is_the_share_of_the_offered_steps_run() {
        let mut work = Work::default();
        work.add(450, 250, 2);
        assert_eq!((work.dispatches, work.busy()), (1, Some(0.9)));
    }
}
