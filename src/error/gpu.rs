//! Why the GPU cannot count ([`GpuError`]).

/// Why the GPU cannot count.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// No Vulkan (Metal, DX12) adapter that runs compute shaders, or no Vulkan loader.
    #[error(
        "no GPU adapter found: the gpu kernels need a Vulkan loader (libvulkan1) and a driver; \
         install the GPU's driver, or Mesa's software one: apt-get install mesa-vulkan-drivers libvulkan1"
    )]
    NoAdapter,
    /// The adapter asked for ([`GpuSettings::with_adapter`](crate::gpu::GpuSettings::with_adapter))
    /// is none of those found.
    #[error("{wanted:?} names no GPU adapter (found: {found})")]
    NoSuchAdapter {
        /// The adapter asked for.
        wanted: String,
        /// The adapters found.
        found: String,
    },
    /// The device failed: it could not be opened, a dispatch failed, or it was lost.
    #[error("the GPU failed: {0}")]
    Device(String),
}
