//! Checking a kernel choice against this CPU: the fallible half of [`Kernel`], apart from the
//! kernel itself, which the library's error ([`Error`]) names.

#[cfg(feature = "gpu")]
use super::gpu;
use super::{Kernel, Selected};
use crate::error::Error;

impl Kernel {
    /// The kernel this choice runs on this CPU (`Auto` resolved to the fastest), or
    /// [`Error::KernelUnavailable`] when the CPU lacks its instructions. `Auto` always succeeds.
    /// A GPU kernel opens the process's GPU device here (once per process), so that a machine
    /// without one is refused before any work.
    ///
    /// ```
    /// use nqueens::Kernel;
    /// assert_eq!(Kernel::DepthFirst.resolve().unwrap(), Kernel::DepthFirst);
    /// let fastest = Kernel::Auto.resolve().unwrap();
    /// assert!(fastest != Kernel::Auto && Kernel::available().contains(&fastest));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::KernelUnavailable`] when this CPU lacks the kernel's instructions; with the `gpu`
    /// feature, `Error::Gpu` for a GPU kernel and no GPU that can count.
    pub fn resolve(self) -> Result<Kernel, Error> {
        self.select().map(|selected| selected.kernel())
    }

    /// The kernel this choice runs on this CPU, as the engine's one dispatch point (what
    /// [`Kernel::resolve`] names): proof that this CPU runs it.
    pub(crate) fn select(self) -> Result<Selected, Error> {
        let selected = self.detect().ok_or_else(|| Error::KernelUnavailable {
            kernel: self,
            available: Kernel::available(),
        })?;
        #[cfg(feature = "gpu")]
        if selected.gpu.is_some() {
            gpu::check()?;
        }
        Ok(selected)
    }

    /// The kernel this choice names for a count of the `n`-board on `threads` CPU threads,
    /// found without opening a GPU device: itself, or for `auto` the fastest CPU kernel, or with
    /// the `gpu` feature [`Kernel::Gpu`](crate::Kernel) where `gpu::auto_uses_gpu` says the GPU
    /// wins (a discrete adapter, a board at or above `gpu::gpu_crossover(threads)`; the adapter's
    /// kind is looked up only for such a board).
    ///
    /// ```
    /// use nqueens::Kernel;
    /// assert_eq!(Kernel::Auto.for_board(12, 2), Kernel::Auto.resolve().unwrap());
    /// assert_eq!(Kernel::DepthFirst.for_board(20, 2), Kernel::DepthFirst);
    /// ```
    #[must_use]
    pub fn for_board(self, n: u32, threads: usize) -> Kernel {
        if self != Kernel::Auto {
            return self;
        }
        #[cfg(feature = "gpu")]
        if gpu::auto::auto_adapter(n, threads).is_some() {
            return Kernel::Gpu;
        }
        #[cfg(not(feature = "gpu"))]
        let _ = (n, threads);
        Kernel::fastest_cpu().kernel()
    }

    /// The kernel this choice runs for a count of the `n`-board on `threads` CPU threads: what
    /// `select` gives, except that `auto` runs what [`Kernel::for_board`] names: the
    /// GPU beside the CPU where it wins. A device that fails to open leaves `auto` on the CPU.
    pub(crate) fn select_for(self, n: u32, threads: usize) -> Result<Selected, Error> {
        let named = self.for_board(n, threads);
        if self == Kernel::Auto
            && named.uses_gpu()
            && let Ok(selected) = named.select()
        {
            return Ok(selected);
        }
        self.select()
    }
}
