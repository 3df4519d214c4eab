//! The arguments of `nqueens estimate`.

use clap::Args;

use crate::format::Format;
use nqueens::Kernel;

use super::common::ProgressArgs;
use super::parse::{
    choice, kernel_parser, parse_budget_seconds, parse_estimate_n, parse_samples, parse_seed,
    parse_threads,
};

/// Arguments of `nqueens estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    /// Board size, 4 to 32.
    #[arg(value_name = "N", value_parser = parse_estimate_n)]
    pub n: u32,
    /// Wall-clock budget in seconds, spent on samples, building the plan included [default: 5
    /// up to n = 16, rising by board to 60 from n = 24: --help gives each].
    ///
    /// A budget: the sample fills it, then the estimate is written. At most 86400 (a day).
    /// Sampling ends at most about a thirtieth of the budget after it runs out, or earlier when
    /// counting exactly is cheaper (then it counts) or the samples have done a full count's
    /// work. The default is 5 up to n = 16, 10 to 19, 20 to 21, 30 to 23 and 60
    /// from 24.
    #[arg(long = "budget-seconds", alias = "seconds", value_name = "S",
          value_parser = parse_budget_seconds, conflicts_with = "samples")]
    pub seconds: Option<f64>,
    /// Draw exactly K samples instead of filling a time budget: reproducible.
    ///
    /// K goes from 2 to 1000000000.
    #[arg(long, value_name = "K", value_parser = parse_samples)]
    pub samples: Option<u64>,
    /// Seed of the samples' random streams.
    #[arg(long, value_name = "X", default_value_t = 1, value_parser = parse_seed)]
    pub seed: u64,
    /// Spend the whole time budget on samples: no exact count, no early end.
    ///
    /// For studies of the estimator itself, such as how often its interval holds the known
    /// total.
    #[arg(long, conflicts_with = "samples")]
    pub full_budget: bool,
    /// Worker threads, or max: one per CPU.
    ///
    /// `max` stands for one thread per logical CPU. More than the CPUs is allowed, up to 8 per
    /// logical CPU and 64 in all; also the thread count whose wall time is modelled.
    #[arg(short = 't', visible_short_alias = 'j', long, value_name = "THREADS",
          value_parser = parse_threads, default_value = "max")]
    pub threads: usize,
    /// Which kernel counts the samples (and whose cost is estimated).
    #[arg(long, default_value_t = Kernel::default(), value_parser = kernel_parser())]
    pub kernel: Kernel,
    /// Output format.
    ///
    /// The table rounds the estimates to three significant digits (3.68 x 10^5); JSON and CSV
    /// give each as the estimator made it, rounded to an integer ("total": 367901), which is
    /// no more exact than the table's: total_low and total_high bound its 95 % interval, and
    /// total_relative_half_width is that interval's half-width over the total. A sample that
    /// counted the board exactly gives an interval of width 0.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
    #[command(flatten)]
    pub progress: ProgressArgs,
}
