//! The kernels that count one task's completions, and the one place that chooses between them.
//!
//! | kernel | where it runs | how |
//! |---|---|---|
//! | [`Kernel::Avx512`] | x86-64 with AVX-512F and VPOPCNTDQ | 16 × u32 lanes (`lanes/x86_64/avx512.rs`) |
//! | [`Kernel::Avx2`] | x86-64 with AVX2 | 8 × u32 lanes (`lanes/x86_64/avx2.rs`) |
//! | [`Kernel::Neon`] | aarch64 | 2 × 4 × u32 lanes (`lanes::aarch64::neon`) |
//! | [`Kernel::PortableLanes`] | everywhere | 4 × u32 lanes in plain Rust (`lanes/portable.rs`) |
//! | [`Kernel::DepthFirst`] | everywhere | one placement at a time ([`depth_first`], [`rows`]) |
//! | `Kernel::Gpu`, `Kernel::GpuOnly` | a GPU adapter (feature `gpu`) | batches of tasks on the GPU (`gpu`) |
//!
//! Every kernel gives the same count for every task; they differ only in speed. A choice is
//! turned into a [`Selected`] kernel once per count by [`Kernel::select`], which checks the CPU:
//! a `Selected` value is proof that the CPU runs it, so counting with it is safe. Tasks reach the
//! kernels as an [`InnerBoard`] (pre-placed queens on any rows) or a [`State`] (a row prefix);
//! both become a [`Job`] (see [`job`]), which every kernel counts. Row prefixes wider than
//! [`MAX_JOB_N`] (n = 33..=64, `mirror` only) are counted by the row kernel
//! ([`rows::count_completions`]) whatever the choice.

use std::fmt;
use std::sync::atomic::AtomicBool;

pub mod depth_first;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod job;
pub(crate) mod lanes;
pub mod rows;
mod select;

pub use crate::ids::Kernel;
pub use depth_first::count_job;
pub use job::{InnerBoard, Job, MAX_JOB_N};
pub(crate) use rows::Frame;
#[cfg(test)]
pub(crate) use rows::count_completions_recursive;
pub use rows::{MAX_N, State, board_mask, count_completions, count_completions_until};

/// How a GPU kernel shares a run with the CPU.
#[cfg(feature = "gpu")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GpuUse {
    /// The GPU and the run's CPU threads take tasks from one queue ([`Kernel::Gpu`]).
    WithCpu,
    /// The GPU counts every task ([`Kernel::GpuOnly`]).
    Alone,
}

impl Kernel {
    /// Every kernel a user can name, `auto` first (the GPU kernels last, when built, whether or
    /// not this machine has a GPU adapter: [`Kernel::available`] tells).
    ///
    /// A slice, so that code written against it compiles whichever features are on: the `gpu`
    /// feature adds kernels to it, as it adds variants to [`Kernel`] (which is why a `match`
    /// on a kernel needs a `_` arm).
    ///
    /// ```
    /// use nqueens::Kernel;
    /// let all: &[Kernel] = Kernel::ALL;
    /// assert_eq!(all[0], Kernel::Auto);
    /// assert!(all.contains(&Kernel::DepthFirst));
    /// assert!(Kernel::available().iter().all(|k| all.contains(k)));
    /// ```
    pub const ALL: &'static [Kernel] = &[
        Kernel::Auto,
        Kernel::Avx512,
        Kernel::Avx2,
        Kernel::Neon,
        Kernel::PortableLanes,
        Kernel::DepthFirst,
        #[cfg(feature = "gpu")]
        Kernel::Gpu,
        #[cfg(feature = "gpu")]
        Kernel::GpuOnly,
    ];

    /// The kernel's name as the command line and the output formats spell it.
    ///
    /// ```
    /// assert_eq!(nqueens::Kernel::DepthFirst.name(), "depth-first");
    /// assert_eq!(nqueens::Kernel::PortableLanes.name(), "portable-lanes");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Auto => "auto",
            Kernel::Avx512 => "avx512",
            Kernel::Avx2 => "avx2",
            Kernel::Neon => "neon",
            Kernel::PortableLanes => "portable-lanes",
            Kernel::DepthFirst => "depth-first",
            #[cfg(feature = "gpu")]
            Kernel::Gpu => "gpu",
            #[cfg(feature = "gpu")]
            Kernel::GpuOnly => "gpu-only",
        }
    }

    /// The fastest CPU kernel this CPU runs: what `auto` selects on the CPU (the depth-first
    /// kernel runs everywhere, so there always is one).
    pub(crate) fn fastest_cpu() -> Selected {
        [Kernel::Avx512, Kernel::Avx2, Kernel::Neon]
            .into_iter()
            .find_map(|k| k.detect())
            .unwrap_or(Selected::cpu(Impl::DepthFirst))
    }

    /// The kernel this choice runs on this CPU, if the CPU runs it.
    fn detect(self) -> Option<Selected> {
        match self {
            Kernel::Auto => Some(Kernel::fastest_cpu()),
            Kernel::PortableLanes => Some(Selected::cpu(Impl::Portable)),
            Kernel::DepthFirst => Some(Selected::cpu(Impl::DepthFirst)),
            #[cfg(feature = "gpu")]
            Kernel::Gpu | Kernel::GpuOnly => {
                let cpu = Kernel::fastest_cpu();
                Some(Selected {
                    gpu: Some(if self == Kernel::Gpu {
                        GpuUse::WithCpu
                    } else {
                        GpuUse::Alone
                    }),
                    ..cpu
                })
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                lanes::x86_64::avx512::Avx512::detect().map(|l| Selected::cpu(Impl::Avx512(l)))
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                lanes::x86_64::avx2::Avx2::detect().map(|l| Selected::cpu(Impl::Avx2(l)))
            }
            #[cfg(target_arch = "aarch64")]
            Kernel::Neon => {
                lanes::aarch64::neon::Neon::detect().map(|l| Selected::cpu(Impl::Neon(l)))
            }
            _ => None,
        }
    }

    /// Whether this CPU runs the kernel (for a GPU kernel: whether this machine has a GPU
    /// adapter, looked for once per process; [`Kernel::resolve`] opens its device).
    ///
    /// ```
    /// assert!(nqueens::Kernel::PortableLanes.is_available());
    /// ```
    #[must_use]
    pub fn is_available(self) -> bool {
        #[cfg(feature = "gpu")]
        if self.uses_gpu() && !gpu::has_adapter() {
            return false;
        }
        self.detect().is_some()
    }

    /// The kernels this CPU runs, fastest first (`auto` and the depth-first search left out).
    ///
    /// ```
    /// assert!(nqueens::Kernel::available_lanes().contains(&nqueens::Kernel::PortableLanes));
    /// ```
    #[must_use]
    pub fn available_lanes() -> Vec<Kernel> {
        [
            Kernel::Avx512,
            Kernel::Avx2,
            Kernel::Neon,
            Kernel::PortableLanes,
        ]
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
    }

    /// Every kernel this machine runs: the lane kernels of [`Kernel::available_lanes`] (fastest
    /// first), then the depth-first search, then, with the `gpu` feature and where a GPU adapter
    /// is found (looked for once per process), the GPU kernels (`auto` left out). Without an
    /// adapter the list is the same as without the feature.
    ///
    /// ```
    /// let kernels = nqueens::Kernel::available();
    /// let cpu: Vec<_> = kernels.iter().filter(|k| !k.uses_gpu()).collect();
    /// assert_eq!(cpu.last(), Some(&&nqueens::Kernel::DepthFirst));
    /// assert!(kernels.contains(&nqueens::Kernel::PortableLanes));
    /// #[cfg(feature = "gpu")]
    /// if nqueens::gpu::adapters().is_empty() {
    ///     assert!(kernels.iter().all(|k| !k.uses_gpu())); // as without the feature
    /// }
    /// ```
    #[must_use]
    pub fn available() -> Vec<Kernel> {
        let mut kernels = Kernel::available_lanes();
        kernels.push(Kernel::DepthFirst);
        #[cfg(feature = "gpu")]
        if gpu::has_adapter() {
            kernels.extend([Kernel::Gpu, Kernel::GpuOnly]);
        }
        kernels
    }

    /// Whether this is a GPU kernel.
    ///
    /// ```
    /// assert!(!nqueens::Kernel::Auto.uses_gpu());
    /// ```
    #[must_use]
    pub fn uses_gpu(self) -> bool {
        #[cfg(feature = "gpu")]
        if matches!(self, Kernel::Gpu | Kernel::GpuOnly) {
            return true;
        }
        false
    }
}

impl fmt::Display for Kernel {
    /// The name, padded to the formatter's width (`{:>8}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

// Written as its name, read back as `FromStr` reads it (in any case).
#[cfg(feature = "serde")]
crate::serde_util::as_text!(Kernel);

/// A kernel this CPU runs; only [`Kernel::select`] builds one. A GPU kernel's value also
/// holds the CPU kernel that counts single tasks and the CPU's share of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Selected {
    cpu: Impl,
    #[cfg(feature = "gpu")]
    gpu: Option<GpuUse>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Impl {
    DepthFirst,
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2(lanes::x86_64::avx2::Avx2),
    #[cfg(target_arch = "x86_64")]
    Avx512(lanes::x86_64::avx512::Avx512),
    #[cfg(target_arch = "aarch64")]
    Neon(lanes::aarch64::neon::Neon),
}

impl Selected {
    /// The CPU kernel `cpu`.
    fn cpu(cpu: Impl) -> Selected {
        Selected {
            cpu,
            #[cfg(feature = "gpu")]
            gpu: None,
        }
    }

    /// How a GPU kernel shares a run with the CPU; `None` for a CPU kernel.
    #[cfg(feature = "gpu")]
    pub(crate) fn gpu(self) -> Option<GpuUse> {
        self.gpu
    }

    /// The CPU kernel of this choice: the kernel itself for a CPU kernel, the fastest one this
    /// CPU runs for a GPU kernel (what counts single tasks, and a run's CPU share).
    pub(crate) fn cpu_kernel(self) -> Selected {
        Selected::cpu(self.cpu)
    }

    /// The kernel that runs (never [`Kernel::Auto`]).
    pub(crate) fn kernel(self) -> Kernel {
        #[cfg(feature = "gpu")]
        match self.gpu {
            Some(GpuUse::WithCpu) => return Kernel::Gpu,
            Some(GpuUse::Alone) => return Kernel::GpuOnly,
            None => {}
        }
        match self.cpu {
            Impl::DepthFirst => Kernel::DepthFirst,
            Impl::Portable => Kernel::PortableLanes,
            #[cfg(target_arch = "x86_64")]
            Impl::Avx2(_) => Kernel::Avx2,
            #[cfg(target_arch = "x86_64")]
            Impl::Avx512(..) => Kernel::Avx512,
            #[cfg(target_arch = "aarch64")]
            Impl::Neon(_) => Kernel::Neon,
        }
    }

    /// Counts the completions of `board`; `None` when `stop` was raised first. (A GPU kernel
    /// counts one task on its CPU kernel: the GPU counts whole runs, in batches.)
    pub(crate) fn count_inner(self, board: &InnerBoard, stop: Option<&AtomicBool>) -> Option<u64> {
        self.count_job(&board.job(), stop)
    }

    /// Counts the completions of the `n`-board whose first `state.row` rows hold the queens of
    /// `state`; `None` when `stop` was raised first, or when there is no such board (`n` above
    /// [`MAX_N`], or `state.row` above `n`).
    pub(crate) fn count_rows(self, n: u32, state: State, stop: Option<&AtomicBool>) -> Option<u64> {
        match Job::from_rows(n, state) {
            Some(job) if self.cpu != Impl::DepthFirst => self.count_job(&job, stop),
            _ => match stop {
                Some(stop) => count_completions_until(n, state, stop),
                None => count_completions(n, state),
            },
        }
    }

    /// Counts the completions of `job`; `None` when `stop` was raised first.
    fn count_job(self, job: &Job, stop: Option<&AtomicBool>) -> Option<u64> {
        if job.rows < 4 {
            return Some(count_job::<false>(job, &mut 0));
        }
        match self.cpu {
            Impl::DepthFirst => match stop {
                Some(stop) => depth_first::count_job_until(job, stop),
                None => Some(count_job::<false>(job, &mut 0)),
            },
            Impl::Portable => lanes::portable::Portable.count(job, stop),
            #[cfg(target_arch = "x86_64")]
            Impl::Avx2(l) => l.count(job, stop),
            #[cfg(target_arch = "x86_64")]
            Impl::Avx512(l) => l.count(job, stop),
            #[cfg(target_arch = "aarch64")]
            Impl::Neon(l) => l.count(job, stop),
        }
    }
}
