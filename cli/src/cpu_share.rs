//! The CPU share of a count: the CPU time the process received ÷ the CPU time its workers asked
//! for, the measure `scale` reports for each thread count (the library's studies measure the same
//! share from /proc/self/stat), and the note on stderr when it says the machine was busy.

use std::time::Instant;

use nqueens::scaling::Machine;
use nqueens::scaling::study::Study;

use nqueens_ui::human;

/// Counts shorter than this get no note: the pool's start and the process's own threads weigh
/// too much in them.
const NOTED_FROM_SECONDS: f64 = 1.0;

/// CPU time (user and system) the process has used so far, all its threads included, in
/// seconds: its CPU clock (`CLOCK_PROCESS_CPUTIME_ID`); `None` without one (outside Unix).
fn process_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec; the call writes only into it.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0;
        ok.then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The process's CPU clock and the wall clock, read when a count starts.
pub struct CpuClock {
    cpu: Option<f64>,
    wall: Instant,
}

impl CpuClock {
    /// Both clocks, now.
    pub fn start() -> CpuClock {
        CpuClock {
            cpu: process_cpu_seconds(),
            wall: Instant::now(),
        }
    }

    /// The share of the CPU time `threads` workers asked for since [`CpuClock::start`] that the
    /// process received, at most what the `logical` CPUs can give; with the wall time, in
    /// seconds. `None` without a CPU clock.
    pub fn share(&self, threads: usize, logical: usize) -> Option<(f64, f64)> {
        let wall = self.wall.elapsed().as_secs_f64();
        let used = process_cpu_seconds()? - self.cpu?;
        let asked = threads.min(logical).max(1) as f64;
        (wall > 0.0).then(|| {
            (
                (used / (wall * asked)).min(logical.max(1) as f64 / asked),
                wall,
            )
        })
    }
}

/// The note on a count of `threads` workers that received `share` of the CPU time they asked
/// for during `wall` seconds: `None` on a quiet machine and for a count too short to judge.
pub fn busy_note(share: f64, wall: f64, threads: usize) -> Option<String> {
    (share < Study::BUSY_BELOW && wall >= NOTED_FROM_SECONDS).then(|| {
        format!(
            "nqueens: note: other programs were using the CPUs: the count received {} of the \
             CPU time its {} asked for (CPU share; under {} is a busy machine), so its time is \
             that of this busy machine",
            human::percent(share),
            human::plural(threads, "thread"),
            human::percent(Study::BUSY_BELOW)
        )
    })
}

/// Says on stderr that the count that started at `clock` on `threads` workers ran on a busy
/// machine, where it did.
pub fn note_if_busy(clock: &CpuClock, threads: usize) {
    let logical = Machine::detect().logical;
    if let Some(note) = clock
        .share(threads, logical)
        .and_then(|(share, wall)| busy_note(share, wall, threads))
    {
        nqueens_ui::output::note(note);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_count_is_noted_once_it_is_long_enough() {
        assert_eq!(
            busy_note(0.45, 2.0, 2).as_deref(),
            Some(
                "nqueens: note: other programs were using the CPUs: the count received 45.0 % \
                 of the CPU time its 2 threads asked for (CPU share; under 80.0 % is a busy \
                 machine), so its time is that of this busy machine"
            )
        );
        assert_eq!(busy_note(0.95, 2.0, 2), None);
        assert_eq!(busy_note(0.45, 0.5, 2), None);
    }

    #[test]
    fn the_clock_gives_a_share_within_what_the_cpus_give() {
        let clock = CpuClock::start();
        let until = Instant::now() + std::time::Duration::from_millis(30);
        let mut x = 0u64;
        while Instant::now() < until {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        if let Some((share, wall)) = clock.share(1, 2) {
            assert!((0.0..=2.0).contains(&share) && wall > 0.0, "{share} {wall}");
        }
    }
}
