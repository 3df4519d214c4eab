//! The GPU behind the `gpu` and `gpu-only` kernels ([`Kernel::Gpu`](crate::Kernel::Gpu),
//! [`Kernel::GpuOnly`](crate::Kernel::GpuOnly); the `gpu` feature): the adapters found, the
//! process's settings (which adapter, threads per dispatch, where the shader's stacks live), and
//! what the open device runs on.
//!
//! The device is opened once per process, on the first GPU count, with the settings of
//! [`configure`] (the defaults when it was never called), and kept for later counts.
//!
//! ```no_run
//! use nqueens::gpu::{self, GpuSettings};
//! use nqueens::{count, CountOptions, Kernel, Strategy};
//!
//! for adapter in gpu::adapters() {
//!     println!("{adapter}");
//! }
//! gpu::configure(GpuSettings::default().with_adapter("llvmpipe"));
//! let options = CountOptions::new(2, Strategy::Symmetric).with_kernel(Kernel::GpuOnly);
//! assert_eq!(count(12, &options)?.total, 14_200);
//! println!("counted on {}", gpu::check()?.name);
//! # Ok::<(), nqueens::Error>(())
//! ```

pub use crate::engine::gpu_run::DeviceShare;
pub use crate::engine::kernel::gpu::auto::{auto_adapter, auto_uses_gpu, gpu_crossover};
pub use crate::engine::kernel::gpu::last_rows::LastRows;
pub use crate::engine::kernel::gpu::stack::Stack;
pub use crate::engine::kernel::gpu::{
    AdapterInfo, GpuError, GpuSettings, Work, adapters, check, chosen_adapter, configure, settings,
    threads,
};
