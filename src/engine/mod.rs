//! The counting engine: kernels, decomposition into weighted tasks, and the parallel run.
//!
//! Data flows one way: [`plan::Plan::new`] splits a board into tasks, [`run::run`] counts them
//! on a thread pool with the kernel [`kernel::Kernel::select`] chose, and [`crate::count`] wraps
//! both for callers who want a number. The kernels know nothing of plans, and plans nothing of
//! runs.

#[cfg(feature = "gpu")]
pub mod gpu_run;
pub mod kernel;
mod outcome;
pub mod plan;
pub mod pool;
pub mod run;
pub mod unique;
