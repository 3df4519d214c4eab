//! The arguments of `nqueens scale`.

use clap::Args;

use crate::format::Format;
use nqueens::{Kernel, Strategy};

use super::common::ProgressArgs;
use super::parse::{
    DAY_SECONDS, ThreadList, choice, kernel_parser, parse_model_up_to, parse_n, parse_repeat,
    parse_seconds, parse_thread_list, parse_warmup, svg_path_parser,
};

/// Arguments of `nqueens scale`.
#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// Board size (0 to 64); not with --compare.
    #[arg(value_name = "N", value_parser = parse_n, required_unless_present = "compare")]
    pub n: Option<u32>,
    /// Compare saved results instead of measuring.
    ///
    /// Reads files written by `scale N --format json`, from any machine, and prints every series
    /// side by side (a table, JSON or CSV; with --plot one plot). Runs that differ in n or
    /// strategy are flagged.
    #[arg(long, value_name = "FILE.json", num_args = 1.., conflicts_with_all = [
        "n", "threads", "repeat", "warmup", "strategy", "kernel", "model_up_to", "max_seconds",
        "pin"])]
    pub compare: Vec<std::path::PathBuf>,
    /// Thread counts to measure, such as 1,2,4,8 or max.
    ///
    /// `max` stands for every logical CPU [default: the powers of two below the logical CPU
    /// count, and that count]. One thread, the baseline, is always measured too. At most 8 per
    /// logical CPU, and 64 on any machine.
    #[arg(short = 't', visible_short_alias = 'j', long, value_name = "LIST",
          value_parser = parse_thread_list)]
    pub threads: Option<ThreadList>,
    /// Timed runs per thread count [default: 3, more for a short board].
    ///
    /// Without it, a board whose fastest run is estimated under 250 ms gets up to 15 runs, so
    /// that the fastest thread count's runs take a second together.
    #[arg(short = 'r', long, value_name = "K", value_parser = parse_repeat)]
    pub repeat: Option<u32>,
    /// Untimed runs per thread count before the timed ones.
    ///
    /// 0 to 1000.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_warmup)]
    pub warmup: u32,
    /// How the board is split into tasks (a list measures each).
    ///
    /// A list measures each, interleaved with the kernels.
    #[arg(long, value_name = "NAME[,NAME...]", value_delimiter = ',',
          value_parser = choice::<Strategy>(), default_value = "symmetric")]
    pub strategy: Vec<Strategy>,
    /// Kernels to measure, such as avx512,avx2.
    ///
    /// A list measures each, interleaved.
    #[arg(long, value_name = "NAME[,NAME...]", value_delimiter = ',',
          value_parser = kernel_parser(), default_value = "auto")]
    pub kernel: Vec<Kernel>,
    /// Output format: table, json or csv.
    ///
    /// json: an array of studies, one per kernel and strategy (--compare reads them back), the
    /// loss parts as measured (one can be slightly negative, timer noise, where the table and
    /// CSV show 0). csv: a row per measured (kind = measured) and modelled (bound, with-losses)
    /// thread count. Every field: docs/GUIDE.md, "The JSON and CSV fields".
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table, hide_possible_values = true)]
    pub format: Format,
    /// Also plot speedup and efficiency into this SVG file.
    ///
    /// One series per kernel, strategy or compared file. The name must end in .svg; a new file,
    /// or a regular file that is replaced.
    #[arg(long, value_name = "FILE.svg", value_parser = svg_path_parser())]
    pub plot: Option<std::path::PathBuf>,
    /// Model up to this many threads (1 to 1048576).
    ///
    /// [default: 4 times the largest measured]
    #[arg(long, value_name = "THREADS", value_parser = parse_model_up_to)]
    pub model_up_to: Option<usize>,
    /// Place the threads on chosen CPUs (Linux).
    ///
    /// Only the CPUs the process may run on (taskset) are used, and no more threads than those;
    /// recorded in the results ("pin": "cores: 0,1").
    #[arg(long, value_name = "PLACEMENT", value_parser = choice::<crate::placement::Pin>(),
          default_value = "none")]
    pub pin: crate::placement::Pin,

    /// Refuse runs estimated to take longer than this.
    ///
    /// All the runs together, checked before starting (exit 2).
    #[arg(long, value_name = "SECONDS", default_value_t = DAY_SECONDS, value_parser = parse_seconds)]
    pub max_seconds: f64,
    #[command(flatten)]
    pub progress: ProgressArgs,
}
