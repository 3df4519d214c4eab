//! # nqueens
//!
//! Counts the solutions of the N-Queens puzzle — place `n` queens on an `n × n` board so that no
//! two share a row, column or diagonal — as fast as a CPU allows.
//!
//! The engine keeps the columns and both diagonals of a partial board as shifting bit masks,
//! many boards at once in the `u32` lanes of a vector register ([`Kernel`]), splits the search
//! into independent weighted subtrees ([`Plan`], [`Strategy`]), and counts them on a pool of
//! worker threads ([`count`], [`count_with`]).
//!
//! ```
//! use nqueens::{count, CountOptions, Strategy};
//! let options = CountOptions::new(2, Strategy::Mirror);
//! let counts = count(10, &options).unwrap();
//! assert_eq!(counts.total, 724);
//! assert_eq!(Some(counts.total), nqueens::known::Known::of(10).map(|k| k.total));
//! ```
//!
//! # Threads, the rayon way
//!
//! A count (or an estimate) runs on the rayon pool it is called from: on a worker of a pool
//! (inside `rayon::ThreadPool::install`, a parallel iterator, a scope) its work goes to that
//! pool as jobs the calling worker takes part in, on at most [`CountOptions::threads`] of its
//! workers, all of them for `0` (the default, as rayon reads `0` for a pool's size); given a
//! pool ([`RunControl::pool`]), it runs on that one, the caller waiting as
//! `install` waits, taking its own pool's jobs meanwhile. Outside
//! every pool, `0` threads run on rayon's global pool, one on the calling thread, and any other
//! count on the process's pool of exactly that many workers, built on first use and kept
//! (a few are kept at most; [`release_pools`] drops them). No pool is built larger than
//! [`max_threads`]. So parallel iterators over counts, nested pools and pools whose workers
//! count on each other all finish, and a count inside a pool uses all of that pool.
//!
//! # Modules
//!
//! * The count: [`count`], [`count_with`] under a [`RunControl`] (a journal to resume from, a
//!   stop flag, a [`Watcher`], one shard, a pool of your own), [`Prepared`] to look at a count
//!   before it runs; [`journal`] for journals, shards and merges; [`known`] for the OEIS table.
//! * [`search`]: the plan's subproblems and the kernels that count them, for benchmarks and
//!   counters of your own; `gpu` (feature `gpu`): the adapters and the GPU's settings.
//! * [`estimation`] ([`estimate()`]): a board's total and the cost of counting it,
//!   predicted by sampling; [`scaling`]: thread-scaling studies, the load-balance model, saved
//!   studies read back.
//! * For learning: [`board`], [`construct`], [`enumerate`], [`classic`]; [`names`] for the
//!   error of a name that is none of the choices. Journals are opened by the rules of the
//!   workspace's `nqueens-files` crate.
//!
//! # Features
//!
//! * `serde`: `Serialize` and `Deserialize` on the options and results ([`CountOptions`],
//!   [`Counts`], [`CountRun`], [`journal::Merged`], [`TaskOutcome`], [`estimation::Estimate`],
//!   [`scaling::study::Study`], …): durations in seconds, plan fingerprints ([`Fingerprint`]) as 16 hex digits,
//!   shards as `K/M`, kernels and strategies by name; options read with defaults for what they
//!   leave out, refusing a field they do not know (a typo). Saved studies, also those of earlier versions, deserialize as
//!   [`scaling::series::Series`], checked by [`Series::validated`](scaling::series::Series::validated),
//!   whose errors name the field that is wrong.
//! * `gpu`: the [`Kernel::Gpu`](crate::Kernel) and `GpuOnly` kernels, on any Vulkan, Metal or
//!   DX12 adapter through wgpu, and the `gpu` module. Additive: every public enum that can
//!   grow is `#[non_exhaustive]`, so code that matches on [`Kernel`] builds with and without
//!   it.
//!
//! Without features the library depends on rayon, num_cpus, thiserror, crc32fast, libc and the
//! workspace's `nqueens-files` (the rules the files a user names are opened by) and theirs alone.
//!
//! ```toml
//! [dependencies]
//! nqueens = { package = "nqueens-count", version = "0.1", features = ["serde"] }
//! ```

// docs.rs labels every feature-gated item with its feature, the `Serialize` and `Deserialize`
// that `#[cfg_attr(feature = "serde", derive(…))]` makes included (rustdoc reads the `cfg_attr`
// around a derive since rust-lang/rust#159722, in the nightlies from 2026-07 that docs.rs runs).
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(
    clippy::missing_errors_doc,
    clippy::missing_panics_doc,
    clippy::must_use_candidate,
    clippy::return_self_not_must_use
)]

pub mod board;
pub mod classic;
pub mod construct;
mod count;
mod engine;
pub mod enumerate;
mod error;
pub mod estimation;
#[cfg(feature = "gpu")]
#[cfg_attr(docsrs, doc(cfg(feature = "gpu")))]
pub mod gpu;
mod ids;
pub mod journal;
pub mod known;
pub mod names;
pub mod scaling;
pub mod search;
#[cfg(feature = "serde")]
mod serde_util;

pub use count::{
    CountOptions, CountRun, Counts, Prepared, RunControl, Watcher, count, count_with,
    unique_from_total,
};
pub use engine::kernel::Kernel;
pub use engine::plan::{Fingerprint, Plan, Strategy, Task, TaskId};
pub use engine::pool::{max_threads, release_pools};
pub use engine::run::TaskOutcome;
pub use error::Error;
pub use estimation::estimate;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
