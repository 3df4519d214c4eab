//! One strategy and kernel measured on one machine, as a comparison lines it up beside others:
//! made from a study ([`Series::of`]) or, with the `serde` feature, read back from a saved one
//! (the `saved` module).

use crate::scaling::Machine;
use crate::scaling::info::Headline;
use crate::scaling::model::ModelPoint;
use crate::scaling::study::{MeasuredPoint, Study, StudyWarning, warnings_of};

/// One strategy and kernel measured on one machine: what a comparison of studies shows of each.
///
/// The strategy and kernel are kept as their names, so that a series saved by another version
/// (one that knew other kernels, say) is compared all the same.
///
/// ```
/// use nqueens::scaling::series::Series;
/// use nqueens::scaling::Machine;
/// let mut series = Series::new(12, "mirror", "depth-first", Machine::new(4, 2));
/// series.cpu = Some("Some CPU".into());
/// assert_eq!((series.logical, series.physical, series.repeat), (4, 2, 1));
/// assert!(series.runs.is_empty() && series.headline.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Series {
    /// Where the series was read from, as its reader names it (a file, say); `None` for a series
    /// made here ([`Series::of`], [`Series::new`]) until its owner names one.
    pub source: Option<String>,
    /// Board side.
    pub n: u32,
    /// The strategy's name.
    pub strategy: String,
    /// The name of the kernel that ran.
    pub kernel: String,
    /// The CPU's model name, where it was recorded.
    pub cpu: Option<String>,
    /// Logical CPUs of the machine.
    pub logical: usize,
    /// Physical cores of the machine.
    pub physical: usize,
    /// Timed runs per thread count.
    pub repeat: usize,
    /// The measured thread counts, ascending.
    pub runs: Vec<MeasuredPoint>,
    /// The model's predictions, ascending.
    pub model: Vec<ModelPoint>,
    /// The best measured throughput.
    pub headline: Option<Headline>,
    /// When it was measured (RFC 3339), where it was recorded.
    pub date: Option<String>,
    /// The version of this crate that measured it, where it was recorded.
    pub version: Option<String>,
}

impl Series {
    /// A series of board `n` with the strategy and kernel of these names on `machine`: one timed
    /// run per thread count, nothing measured or modelled yet, nothing else recorded.
    ///
    /// ```
    /// use nqueens::scaling::series::Series;
    /// use nqueens::scaling::Machine;
    /// let series = Series::new(8, "symmetric", "avx2", Machine::new(2, 2));
    /// assert_eq!((series.n, series.strategy.as_str(), series.kernel.as_str()), (8, "symmetric", "avx2"));
    /// assert_eq!((series.source, series.cpu, series.date), (None, None, None));
    /// ```
    pub fn new(
        n: u32,
        strategy: impl Into<String>,
        kernel: impl Into<String>,
        machine: Machine,
    ) -> Series {
        Series {
            source: None,
            n,
            strategy: strategy.into(),
            kernel: kernel.into(),
            cpu: None,
            logical: machine.logical,
            physical: machine.physical,
            repeat: 1,
            runs: Vec::new(),
            model: Vec::new(),
            headline: None,
            date: None,
            version: None,
        }
    }

    /// What the series' runs say about their own worth, as [`Study::warnings`] says of a study:
    /// a busy machine, runs too short to mean much. A saved study carries what its runs knew.
    ///
    /// ```
    /// use nqueens::scaling::series::Series;
    /// use nqueens::scaling::study::{MeasuredPoint, StudyWarning};
    /// use nqueens::scaling::Machine;
    /// let mut series = Series::new(16, "mirror", "avx2", Machine::new(2, 2));
    /// let mut one = MeasuredPoint::new(1, 2.0, 2.0, 2.0, 1.0);
    /// one.cpu_share = Some(0.393);
    /// series.runs.push(one);
    /// assert_eq!(series.warnings(), [StudyWarning::BusyMachine { starved: vec![(1, 0.393)] }]);
    /// ```
    pub fn warnings(&self) -> Vec<StudyWarning> {
        warnings_of(&self.runs)
    }

    /// The series of a study just measured.
    ///
    /// ```
    /// use nqueens::scaling::series::Series;
    /// use nqueens::scaling::study::{measure, StudyOptions};
    /// use nqueens::Strategy;
    /// let options = StudyOptions::new(vec![2]).with_strategy(Strategy::Mirror).with_repeat(1);
    /// let study = measure(8, &options, &mut |_| {}).unwrap();
    /// let series = Series::of(&study);
    /// assert_eq!((series.n, series.strategy.as_str()), (8, "mirror"));
    /// assert_eq!(series.kernel, study.kernel.to_string());
    /// assert_eq!((series.runs, series.headline), (study.runs, study.headline));
    /// assert_eq!(series.date, Some(study.run.date));
    /// ```
    pub fn of(study: &Study) -> Series {
        Series {
            cpu: study.run.cpu.clone(),
            repeat: study.repeat,
            runs: study.runs.clone(),
            model: study.model.clone(),
            headline: study.headline,
            date: Some(study.run.date.clone()),
            version: Some(study.run.version.clone()),
            ..Series::new(
                study.n,
                study.strategy.to_string(),
                study.kernel.to_string(),
                study.machine,
            )
        }
    }
}
