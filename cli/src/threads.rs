//! What the counting commands say about a thread count before they start.

use nqueens_ui::{human, output};

/// Warns on stderr when `threads` exceeds the logical CPUs: the extra threads time-slice and
/// add nothing but overhead (`scale` says the same of each thread count it times).
pub fn warn_if_oversubscribed(threads: usize) {
    let logical = num_cpus::get().max(1);
    if threads > logical {
        output::warning(format_args!(
            "{} exceed the {} (oversubscribed): the system time-slices them, so the count \
             is no faster than on {logical}",
            human::plural(threads, "thread"),
            human::plural(logical, "logical CPU")
        ));
    }
}
