//! When `auto` counts on the GPU beside the CPU ([`Kernel::Gpu`](crate::Kernel::Gpu)): on a
//! discrete adapter, for a board whose count would take the CPU alone at least
//! [`WORTH_SECONDS`].
//!
//! The rule rests on one measurement: an NVIDIA H100 beside a 16-core Intel Xeon, 2026-11-25
//! (docs/PERFORMANCE.md, "Measured on a GPU"). There the CPU alone counted n = 18 in 0.63 s and
//! the GPU with the CPU in 0.71 s; n = 19 in 4.13 s against 1.72 s; n = 20 in 30.8 s against
//! 9.12 s. The GPU's fixed cost (opening the device, the first batches) is 0.5 to 1 s, so it
//! pays once the CPU alone needs about 2 s. The CPU's time is predicted from the same machine:
//! 52.8 s for n = 19 on one thread, about 7.9 times more per board, divided by the threads
//! (its `scale 19` study found 97 to 102 % efficiency up to 16 threads). That puts the
//! crossover at n = 19 for 16 threads, as measured, n = 18 for 2 and n = 20 for 64. Integrated
//! GPUs were never measured, and a software adapter (llvmpipe) runs on the CPU itself: `auto`
//! never picks either. Boards above 32 stay on the CPU (their tasks are too wide for the GPU).

use super::AdapterInfo;
use crate::engine::kernel::job::MAX_JOB_N;

/// Seconds the CPU alone takes for n = 19 on one thread (16-core Xeon, 2026-11-25).
pub(crate) const CPU_SECONDS_N19: f64 = 52.8;
/// How much longer each next board takes (n = 18 to 21 on that machine: 7.3 to 7.9).
pub(crate) const GROWTH_PER_BOARD: f64 = 7.9;
/// The CPU time from which the GPU pays for its fixed cost.
pub(crate) const WORTH_SECONDS: f64 = 2.0;

/// The seconds the CPU alone would take for the `n`-board on `threads` threads, by the rule's
/// measurement (zero threads count as one): the rule's own figure, behind [`gpu_crossover`].
#[must_use]
pub(crate) fn predicted_cpu_seconds(n: u32, threads: usize) -> f64 {
    CPU_SECONDS_N19 * GROWTH_PER_BOARD.powi(n as i32 - 19) / threads.max(1) as f64
}

/// The smallest board for which `auto` adds a discrete GPU, on `threads` CPU threads.
///
/// ```
/// use nqueens::gpu::gpu_crossover;
/// assert_eq!((gpu_crossover(2), gpu_crossover(16), gpu_crossover(64)), (18, 19, 20));
/// ```
#[must_use]
pub fn gpu_crossover(threads: usize) -> u32 {
    (1..=64)
        .find(|&n| predicted_cpu_seconds(n, threads) >= WORTH_SECONDS)
        .unwrap_or(64)
}

/// Whether `auto` counts the `n`-board on an adapter of `kind` (an [`AdapterInfo::kind`]) beside
/// `threads` CPU threads: a discrete adapter, at or above [`gpu_crossover`], up to n = 32.
///
/// ```
/// use nqueens::gpu::auto_uses_gpu;
/// assert!(auto_uses_gpu("discrete", 19, 16));
/// assert!(!auto_uses_gpu("discrete", 18, 16));
/// assert!(!auto_uses_gpu("software", 32, 16)); // llvmpipe: never
/// ```
#[must_use]
pub fn auto_uses_gpu(kind: &str, n: u32, threads: usize) -> bool {
    kind == "discrete" && n >= gpu_crossover(threads) && n <= MAX_JOB_N
}

/// The adapter `auto` counts the `n`-board on beside `threads` CPU threads, if any: the one
/// the process's settings pick, when [`auto_uses_gpu`] says so. The adapters are looked for
/// only at or above the crossover, and no device is opened.
#[must_use]
pub fn auto_adapter(n: u32, threads: usize) -> Option<AdapterInfo> {
    // The adapters are looked for only where a discrete one would be used.
    if !auto_uses_gpu("discrete", n, threads) {
        return None;
    }
    super::chosen_adapter().filter(|adapter| adapter.kind == "discrete")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rule_s_cpu_time_grows_by_its_factor_per_board() {
        use super::predicted_cpu_seconds;
        assert_eq!(predicted_cpu_seconds(19, 1), 52.8);
        assert!((predicted_cpu_seconds(20, 16) - 52.8 * 7.9 / 16.0).abs() < 1e-9);
        assert_eq!(predicted_cpu_seconds(19, 0), 52.8);
    }

    use super::*;

    #[test]
    fn the_crossover_is_the_measured_one_and_moves_with_the_threads() {
        assert_eq!(gpu_crossover(16), 19);
        assert!(!auto_uses_gpu("discrete", 18, 16));
        assert!(auto_uses_gpu("discrete", 19, 16));
        assert!(auto_uses_gpu("discrete", 32, 16));
        assert!(!auto_uses_gpu("discrete", 33, 16));
        assert!(!auto_uses_gpu("discrete", u32::MAX, 16));
        assert_eq!(gpu_crossover(1), 18);
        assert_eq!(gpu_crossover(2), 18);
        assert_eq!(gpu_crossover(64), 20);
        assert_eq!(gpu_crossover(0), gpu_crossover(1));
        assert!(gpu_crossover(usize::MAX) <= 64);
        let crossovers: Vec<u32> = [1, 2, 4, 8, 16, 32, 64, 128, 1024]
            .iter()
            .map(|&t| gpu_crossover(t))
            .collect();
        assert!(
            crossovers.windows(2).all(|w| w[0] <= w[1]),
            "{crossovers:?}"
        );
    }

    #[test]
    fn only_a_discrete_adapter_is_ever_chosen() {
        for kind in ["integrated", "virtual", "software", "other", ""] {
            for n in 1..=32 {
                for threads in [1, 2, 16, 256] {
                    assert!(!auto_uses_gpu(kind, n, threads), "{kind} {n} {threads}");
                }
            }
        }
    }
}
