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
    /// Reads files written by `scale N --format json`.
    ///
    /// The files may come from any machine and hold one or several series each: a table of every series side by side per thread count,
    /// or JSON, CSV, and with --plot one plot of them all. Runs that differ in n or strategy are
    /// allowed but flagged.
    #[arg(long, value_name = "FILE.json", num_args = 1.., conflicts_with_all = [
        "n", "threads", "repeat", "warmup", "strategy", "kernel", "model_up_to", "max_seconds",
        "pin"])]
    pub compare: Vec<std::path::PathBuf>,
    /// Thread counts to measure, such as 1,2,4,8 or max.
    ///
    /// `max` stands for every logical CPU [default: the powers of two below the logical CPU count, and that count]. One thread is
    /// always measured too: it is the baseline of every speedup and of the model. Each count is
    /// at most 8 per logical CPU, and 64 on any machine.
    #[arg(short = 't', visible_short_alias = 'j', long, value_name = "LIST",
          value_parser = parse_thread_list)]
    pub threads: Option<ThreadList>,
    /// Timed runs per thread count [default: 3, more for a short board].
    ///
    /// They follow the --warmup untimed runs. Without --repeat, a board whose fastest run is
    /// estimated under 250 ms (too short to trust) gets enough runs, up to 15, for the fastest
    /// thread count's timed runs to take a second together.
    #[arg(short = 'r', long, value_name = "K", value_parser = parse_repeat)]
    pub repeat: Option<u32>,
    /// Untimed runs per thread count before the timed ones.
    ///
    /// 0 to 1000. A warm-up brings the caches, the CPU's clock and the pool's threads up before timing;
    /// its CPU time counts towards cpu_share.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_warmup)]
    pub warmup: u32,
    /// How the board is split into tasks (a list measures each).
    ///
    /// A list such as mirror,symmetric measures each strategy.
    ///
    /// The strategies of a list are measured interleaved, as the kernels are.
    #[arg(long, value_name = "NAME[,NAME...]", value_delimiter = ',',
          value_parser = choice::<Strategy>(), default_value = "symmetric")]
    pub strategy: Vec<Strategy>,
    /// Kernels to measure, such as avx512,avx2.
    ///
    /// The kernels of a list are measured interleaved (every kernel and strategy in turn at each thread count and repetition, so that the
    /// machine's other load hits all alike).
    #[arg(long, value_name = "NAME[,NAME...]", value_delimiter = ',',
          value_parser = kernel_parser(), default_value = "auto")]
    pub kernel: Vec<Kernel>,
    /// Output format: table, json or csv.
    ///
    /// table: per kernel and strategy the measured and the modelled counts under a machine
    /// header, then with several a side-by-side table. json: an array of studies, one per kernel
    /// and strategy (scale --compare reads these files back). csv: one row per measured thread
    /// count (kind = measured) and per modelled one (kind = bound or with-losses) of each series.
    /// Every field and column: docs/GUIDE.md, "Thread scaling", "The JSON and CSV fields".
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table, hide_possible_values = true)]
    pub format: Format,
    /// Also plot speedup and efficiency into this SVG file.
    ///
    /// Measured with the range of the timed runs, ideal, model; one series per kernel,
    /// strategy or compared file. The name must end in .svg; a new file, or a regular file that
    /// is replaced.
    #[arg(long, value_name = "FILE.svg", value_parser = svg_path_parser())]
    pub plot: Option<std::path::PathBuf>,
    /// Model up to this many threads (1 to 1048576).
    ///
    /// The plot draws the model's curve that far
    /// [default: 4 times the largest measured thread count], and beyond 256 the model in the
    /// output goes that far too.
    #[arg(long, value_name = "THREADS", value_parser = parse_model_up_to)]
    pub model_up_to: Option<usize>,
    /// Place the threads on chosen CPUs (Linux).
    ///
    /// cores = one per physical core first, then their SMT siblings; siblings = SMT siblings
    /// together, core by core; none = wherever the system puts them. Only the CPUs the process may run on (taskset) are used, and no
    /// more threads than those; recorded in the results ("pin": "cores: 0,1").
    #[arg(long, value_name = "PLACEMENT", value_parser = choice::<crate::placement::Pin>(),
          default_value = "none")]
    pub pin: crate::placement::Pin,

    /// Refuse runs estimated to take longer than this.
    ///
    /// A refusal threshold, checked before starting (exit 2): the estimate is of all the runs together.
    #[arg(long, value_name = "SECONDS", default_value_t = DAY_SECONDS, value_parser = parse_seconds)]
    pub max_seconds: f64,
    #[command(flatten)]
    pub progress: ProgressArgs,
}
