//! The argument groups several commands share: the engine's threads, strategy and kernel, and
//! the interval of the progress lines.

use clap::Args;

use nqueens::{Kernel, Strategy};

use super::parse::{choice, kernel_parser, parse_threads};

/// How often the progress lines are written, shared by the commands that write them (`count`,
/// `verify`, `estimate`, `scale`).
#[derive(Debug, Args)]
pub struct ProgressArgs {
    /// Seconds between progress lines off a terminal [default: 60].
    ///
    /// 0.1 to 31536000 (a year). Without it the NQUEENS_PROGRESS_SECONDS variable sets the
    /// interval; given, it wins over the variable, which is then not read. On a terminal a bar
    /// is drawn instead.
    #[arg(long, value_name = "S", value_parser = nqueens_ui::progress::parse_progress_seconds)]
    pub progress_seconds: Option<std::time::Duration>,
}

impl ProgressArgs {
    /// Makes the interval given the one of this process's progress lines, then checks the
    /// interval in force: a bad NQUEENS_PROGRESS_SECONDS is refused (where no flag overrides
    /// it) before any work.
    pub fn apply(&self) -> Result<(), String> {
        nqueens_ui::progress::set_log_interval(self.progress_seconds);
        nqueens_ui::progress::log_interval().map(|_| ())
    }
}

/// Worker threads and decomposition strategy, shared by the counting commands.
#[derive(Debug, Args)]
pub struct EngineArgs {
    /// Worker threads, or max: one per CPU.
    ///
    /// `max` stands for one thread per logical CPU. More than the CPUs is allowed, up to 8 per
    /// logical CPU and 64 in all. Boards up to n = 10 are counted on one thread whatever this
    /// says (starting more threads would take longer than the count): their results say
    /// "threads": 1.
    #[arg(short = 't', visible_short_alias = 'j', long, value_name = "THREADS",
          value_parser = parse_threads, default_value = "max")]
    pub threads: usize,
    /// How the board is split into tasks.
    #[arg(long, value_parser = choice::<Strategy>(), default_value_t = Strategy::default())]
    pub strategy: Strategy,
    /// Which kernel counts the tasks.
    ///
    /// The counts are the same with each, so a count can be checked by an independent
    /// implementation; `nqueens --version` names the kernels this machine runs.
    ///
    #[cfg_attr(
        feature = "gpu",
        doc = "gpu: the GPU and --threads CPU threads take tasks from one queue (the CPU \
               threads with the fastest CPU kernel); gpu-only: the GPU alone. The GPU is the \
               fastest adapter found (`nqueens --version` lists them; NQUEENS_GPU_ADAPTER=INDEX \
               or part of a name picks another). auto counts with gpu on a discrete adapter \
               when the CPU alone would need about 2 s or more (n = 19 and up on 16 threads, \
               18 on 2; `nqueens --version` gives this machine's board), never on an \
               integrated or software one. NQUEENS_GPU_TRACE=1 writes a line per GPU batch on \
               stderr; NQUEENS_GPU_THREADS, NQUEENS_GPU_STACK (workgroup or private) and \
               NQUEENS_GPU_LAST_ROWS (1 or 2) change how the shader runs, for measurements."
    )]
    #[cfg_attr(
        not(feature = "gpu"),
        doc = "The GPU kernels (gpu, gpu-only) are in builds with the gpu feature: cargo \
               install --locked --path cli --features gpu (from a clone of the repository)."
    )]
    #[arg(long, default_value_t = Kernel::default(), value_parser = kernel_parser())]
    pub kernel: Kernel,
}
