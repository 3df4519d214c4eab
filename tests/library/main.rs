//! The library's integration tests, in one binary: the counts of every kernel and strategy against
//! the known table, counts nested in a caller's rayon pool, the symmetric plan's classes, and the
//! errors as a caller sees them.
//! The command's tests are in `cli/tests`.

mod errors;
mod known_counts;
mod nested;
mod symmetric;
