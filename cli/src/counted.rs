//! The record of one counted board as every output format reports it (`count`, a shard of
//! one, `verify`): the library's record of the run and beside it what only the command knows.

use serde::Serialize;

use crate::format::table_row;
use nqueens::CountRun;
use nqueens::journal::Spent;
use nqueens_ui::human::{self, grouped};

/// One counted board, as every output format reports it: the library's record of the run
/// ([`CountRun`], each field under its serde name, flat), and beside it what only the command
/// knows, each left out when it does not apply.
#[derive(Debug, Clone, Serialize)]
pub struct Counted {
    /// The run, as the library records it.
    #[serde(flatten)]
    pub run: CountRun,
    /// A shard's record only: always true, `total` is the shard's part of the board's total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial: Option<bool>,
    /// With `--checkpoint` only (absent otherwise): the runs of this count that its journal
    /// timed, this one included when it searched a task (finished or abandoned by a stop);
    /// `null` when the journal was made by an older version, which recorded no time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<Option<u32>>,
    /// With `--checkpoint` only: the wall time of those runs, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_runs_wall_time: Option<Option<f64>>,
    /// With `--checkpoint` only: the core time of those runs, their `core_time` summed (what
    /// the whole count has cost), in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_runs_core_time: Option<Option<f64>>,
    /// Where the workers ran when `--pin` placed them: the placement and the CPUs in worker
    /// order (`cores: 0,1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pin: Option<String>,
    /// GPU kernels only (beside the library's `gpu` object, flat, so that CSV has one column
    /// each): the adapter that counted.
    #[cfg(feature = "gpu")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_adapter: Option<String>,
    /// The GPU's share of the solutions this run counted, from 0 to 1.
    #[cfg(feature = "gpu")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_share: Option<f64>,
    /// How busy the GPU's threads were, from 0 to 1: the steps they ran over the steps the
    /// dispatches offered (the rest is threads left without a sub-job while others search).
    #[cfg(feature = "gpu")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_busy: Option<f64>,
    /// Where the shader kept its stacks: `workgroup` or `private` (NQUEENS_GPU_STACK).
    #[cfg(feature = "gpu")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_stack: Option<&'static str>,
    /// The last rows of a search path the shader counted at once: `1` (by popcount) or `2` (in
    /// closed form) (NQUEENS_GPU_LAST_ROWS).
    #[cfg(feature = "gpu")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_last_rows: Option<&'static str>,
    /// GPU threads per dispatch (NQUEENS_GPU_THREADS).
    #[cfg(feature = "gpu")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_threads: Option<u32>,
}

impl Counted {
    /// The record of `run`.
    pub fn new(run: &CountRun) -> Counted {
        Counted {
            run: *run,
            partial: None,
            runs: None,
            all_runs_wall_time: None,
            all_runs_core_time: None,
            pin: None,
            #[cfg(feature = "gpu")]
            gpu_adapter: run
                .gpu
                .map(|_| nqueens::gpu::check().map(|a| a.name).unwrap_or_default()),
            #[cfg(feature = "gpu")]
            gpu_share: run.gpu.map(|g| g.gpu_fraction()),
            #[cfg(feature = "gpu")]
            gpu_busy: run.gpu.and_then(|g| g.gpu_work.busy()),
            #[cfg(feature = "gpu")]
            gpu_stack: run.gpu.map(|_| nqueens::gpu::settings().stack().name()),
            #[cfg(feature = "gpu")]
            gpu_last_rows: run.gpu.map(|_| nqueens::gpu::settings().last_rows().name()),
            #[cfg(feature = "gpu")]
            gpu_threads: run.gpu.and_then(|_| nqueens::gpu::threads()),
        }
    }

    /// This record with the time of every run of the count that its journal holds, this run
    /// added when it searched a task, finished or abandoned by a stop (a run that searched none
    /// writes no time record).
    pub fn with_all_runs(mut self) -> Counted {
        let run = &self.run;
        let this = if run.searched_tasks > 0 || run.abandoned_tasks > 0 {
            run.spent()
        } else {
            Spent::default()
        };
        let all = run.earlier_runs.map(|earlier| earlier + this);
        self.runs = Some(all.map(|all| all.runs));
        self.all_runs_wall_time = Some(all.map(|all| all.wall_time.as_secs_f64()));
        self.all_runs_core_time = Some(all.map(|all| all.core_time.as_secs_f64()));
        self
    }

    /// The kernel cell of the table: the kernel's name, and for a GPU kernel the GPU's share
    /// of the solutions (`gpu (87 % GPU)`).
    pub fn kernel_cell(&self) -> String {
        #[cfg(feature = "gpu")]
        if let (Some(share), Some(gpu)) = (self.gpu_share, self.run.gpu) {
            let failed = if gpu.gpu_failed { ", failed" } else { "" };
            return format!(
                "{} ({} GPU{failed})",
                self.run.counts.kernel,
                nqueens_ui::human::with_percent_sign(&format!("{:.0}", share * 100.0))
            );
        }
        self.run.counts.kernel.to_string()
    }

    /// The wall time of this run, in seconds.
    pub fn seconds(&self) -> f64 {
        self.run.counts.wall_time.as_secs_f64()
    }
}

table_row!(Counted, |record| {
    "n" => record.run.counts.n,
    "total" => grouped(record.run.counts.total),
    "unique" => record.run.counts.unique.map_or("-".to_string(), grouped),
    "wall time" => human::duration(record.seconds()),
    "solutions/s" => record.searched_rate(),
    "threads" => record.run.counts.threads,
    "strategy" => record.run.counts.strategy,
    "kernel" => record.kernel_cell(),
});

impl Counted {
    /// Solutions per second of the part this run searched (the resumed part took no time), as
    /// the table shows it: `-` when this run searched nothing or was too short to time.
    pub fn searched_rate(&self) -> String {
        let run = &self.run;
        if run.resumed_tasks == run.counts.tasks && run.counts.tasks > 0 {
            return human::NONE.to_string();
        }
        let searched = run.counts.total.saturating_sub(run.resumed_total);
        human::rate_of(searched as f64, self.seconds())
    }
}
