//! How much CPU time the process received, to tell a quiet machine from a busy one.
//!
//! A run with `t` threads on an otherwise idle machine keeps `min(t, logical CPUs)` CPUs busy for
//! its whole wall-clock time. When other programs compete for the CPUs, it receives less, its
//! wall-clock time grows, and its speedups say more about the other programs than about the
//! search. The CPU share — CPU time received ÷ CPU time asked for — makes that visible.

/// CPU time (user + system) this process has used so far, all threads included, in seconds.
/// Read from `/proc/self/stat`, so `None` where there is no such file (outside Linux).
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    parse_stat(&stat)
}

/// Timed runs shorter than this in total get no CPU share: the process clock ticks in 10 ms
/// steps, too coarse to judge them.
pub(crate) const MIN_WALL_SECONDS: f64 = 0.25;

/// `/proc/[pid]/stat` reports times in clock ticks of `USER_HZ`, which is 100 on Linux.
const TICKS_PER_SECOND: f64 = 100.0;

fn parse_stat(stat: &str) -> Option<f64> {
    // The command name (field 2) is in parentheses and may hold spaces; count from after it.
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 (utime) and 15 (stime), numbered from 1; `rest` starts at field 3.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / TICKS_PER_SECOND)
}

/// The share of the CPU time a run asked for that it received: `cpu_seconds ÷ (wall_seconds ×
/// min(threads, logical))`. About 1.0 on a quiet machine.
pub fn cpu_share(cpu_seconds: f64, wall_seconds: f64, threads: usize, logical: usize) -> f64 {
    cpu_seconds / (wall_seconds * threads.min(logical).max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_parse_even_with_odd_command_names() {
        let line = "4242 (my prog) ) R 1 4242 4242 0 -1 4194304 100 0 0 0 1234 56 0 0 20 0 3 0";
        assert_eq!(parse_stat(line), Some(12.9));
        assert_eq!(parse_stat("12 (x) R 1"), None);
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn the_process_clock_moves_forward() {
        let Some(before) = process_cpu_seconds() else {
            return; // not Linux
        };
        let mut x = 0u64;
        let until = std::time::Instant::now() + std::time::Duration::from_millis(60);
        while std::time::Instant::now() < until {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        assert!(process_cpu_seconds().unwrap() >= before);
    }
}

/// The documentation's examples of crate-internal items, as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn process_cpu_seconds_example() {
        if let Some(seconds) = crate::scaling::cpu::process_cpu_seconds() {
            assert!(seconds >= 0.0);
        }
    }

    #[test]
    fn cpu_share_example() {
        use crate::scaling::cpu::cpu_share;
        assert_eq!(cpu_share(3.0, 2.0, 2, 8), 0.75);
        assert_eq!(cpu_share(4.0, 2.0, 4, 2), 1.0); // 4 threads can keep only 2 CPUs busy
    }
}
