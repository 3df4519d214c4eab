//! The processor time of the calling thread: what a probe costs a core, whatever else runs.
//!
//! A probe's wall-clock time also counts the time its thread waited for a core while other
//! threads (other probes, other programs) ran; on a loaded machine that doubles it. The
//! estimator times probes with the thread's own CPU clock (`CLOCK_THREAD_CPUTIME_ID`) instead,
//! where the platform has one, and with the wall clock elsewhere.

/// Seconds of processor time the calling thread has used, from an arbitrary origin.
#[cfg(unix)]
pub(crate) fn thread_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant the C library
    // defines. On failure `ts` stays zero, which reads as no time spent.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts);
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Seconds of wall-clock time since the first call (no thread clock on this platform).
#[cfg(not(unix))]
pub(crate) fn thread_seconds() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_moves_forward_with_work() {
        let start = thread_seconds();
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(thread_seconds() > start, "{x}");
    }
}
