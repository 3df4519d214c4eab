//! The library's integration tests, in one binary: the public API as another crate uses it, the
//! counts of every kernel and strategy against the known table, counts nested in a caller's
//! rayon pool, the symmetric plan's classes, and the errors as a caller sees them.
//! The command's tests are in `cli/tests`.

mod api;
mod errors;
mod known_counts;
mod nested;
mod readme;
mod symmetric;
