//! The counting engine: bitboard kernel, decomposition into weighted tasks, and the parallel run.
//!
//! Data flows one way: [`plan::Plan::new`] splits a board into tasks, [`run::run`] counts them on
//! a thread pool, and [`crate::count`] wraps both for callers who want a number.

pub mod inner_kernel;
pub mod kernel;
pub mod lane_kernel;
pub mod plan;
pub mod run;
pub mod symmetric;
pub mod unique;
