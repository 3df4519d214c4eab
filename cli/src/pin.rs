//! `--pin`: the library's placements of the worker threads ([`crate::placement`]), refused in
//! the words of the flag.

use std::sync::Arc;

use crate::placement::{Pin, PinError, Placement};

use nqueens_ui::failure::Failure;
use nqueens_ui::human;

/// The placement `pin` asks for on this machine, for up to `most` threads; `None` for
/// [`Pin::None`]; refused (a usage error) where it cannot be done.
pub fn placement(pin: Pin, most: usize) -> Result<Option<Placement>, Failure> {
    Placement::new(pin, most).map_err(|e| failure(pin, e))
}

/// The pinned pool of `threads` workers of `placement` (built once per thread count).
pub fn pool(placement: &Placement, threads: usize) -> Result<Arc<rayon::ThreadPool>, Failure> {
    placement
        .pool(threads)
        .map_err(|e| failure(placement.pin(), e))
}

/// A refused placement `pin`, in the words of the flag.
fn failure(pin: Pin, error: PinError) -> Failure {
    Failure::Usage(match error {
        PinError::Unsupported => {
            "--pin needs Linux: this system does not place threads on chosen CPUs".to_string()
        }
        PinError::TooManyThreads { threads, cpus, .. } => format!(
            "--pin {pin}: {threads} threads, but this process may run on only {} to place them \
             on; choose at most {cpus} threads, or --pin none",
            human::plural(cpus, "CPU"),
        ),
        PinError::ThreadPool(error) => {
            return Failure::Engine(nqueens::Error::ThreadPool(Box::new(error)));
        }
        PinError::Refused { placement } => {
            format!("--pin {pin}: the system refused to place the threads on CPUs {placement}")
        }
        other => format!("--pin: {other}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_threads_than_cpus_are_refused() {
        let cpus = crate::placement::allowed_cpus().map_or(0, |c| c.len());
        let err = placement(Pin::Siblings, cpus + 1).unwrap_err();
        assert!(matches!(err, Failure::Usage(_)));
        let message = err.to_string();
        assert!(
            message.starts_with("--pin siblings: ") || message.starts_with("--pin needs Linux"),
            "{message}"
        );
        assert_eq!(placement(Pin::None, 1000).unwrap(), None);
    }

    #[test]
    fn refusals_name_the_flag() {
        let too_many = PinError::TooManyThreads {
            pin: Pin::Cores,
            threads: 3,
            cpus: 2,
        };
        assert_eq!(
            failure(Pin::Cores, too_many).to_string(),
            "--pin cores: 3 threads, but this process may run on only 2 CPUs to place them \
             on; choose at most 2 threads, or --pin none"
        );
        let refused = Placement::with_order(Pin::Siblings, vec![0, 1]);
        let refused = PinError::Refused {
            placement: refused.describe(2),
        };
        assert_eq!(
            failure(Pin::Siblings, refused).to_string(),
            "--pin siblings: the system refused to place the threads on CPUs siblings: 0,1"
        );
    }
}
