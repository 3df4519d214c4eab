//! The text of `nqueens --version`: the version, the kernels this machine runs and, with the
//! `gpu` feature, the GPU adapters found.

use std::ffi::OsString;

use nqueens::Kernel;

/// Whether the arguments ask for `--version` (only then is its text made, and the GPU adapters
/// looked for).
pub(super) fn asks_version(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--version" || a == "-V")
}

/// The text `nqueens --version` prints after the name: the version, the kernels this machine
/// runs (and the one `--kernel auto` picks), the kernels its CPU cannot run, and with the `gpu`
/// feature the GPU adapters found, the one the GPU kernels use first (without any, the GPU
/// kernels are named apart, as needing one).
pub fn long_version() -> String {
    fn names(kernels: impl Iterator<Item = Kernel>) -> String {
        kernels.map(Kernel::name).collect::<Vec<_>>().join(" ")
    }
    let available = Kernel::available();
    let mut text = format!(
        "{}\nkernels: {}",
        env!("CARGO_PKG_VERSION"),
        names(available.iter().copied())
    );
    if let Ok(auto) = Kernel::Auto.resolve() {
        text.push_str(&format!(" (auto picks {auto})"));
    }
    let missing = |gpu: bool| {
        names(
            Kernel::ALL
                .iter()
                .copied()
                .filter(|k| *k != Kernel::Auto && k.uses_gpu() == gpu && !available.contains(k)),
        )
    };
    let cpu = missing(false);
    if !cpu.is_empty() {
        text.push_str(&format!("\nnot on this CPU: {cpu}"));
    }
    let gpu = missing(true);
    if !gpu.is_empty() {
        text.push_str(&format!("\nno GPU adapter for: {gpu}"));
    }
    #[cfg(feature = "gpu")]
    text.push_str(&gpu_adapters());
    #[cfg(not(feature = "gpu"))]
    text.push_str(concat!(
        "\ngpu: not in this build (",
        gpu_install!(),
        " builds the GPU kernels)"
    ));
    text
}

/// The `--version` lines of the GPU adapters: the one the GPU kernels use first.
#[cfg(feature = "gpu")]
fn gpu_adapters() -> String {
    use nqueens::gpu;
    let found = gpu::adapters();
    if found.is_empty() {
        return format!("\ngpu adapters: none ({})", gpu::GpuError::NoAdapter);
    }
    let mut text =
        String::from("\ngpu adapters (the first is used; NQUEENS_GPU_ADAPTER picks another):");
    let first = found[0].kind;
    for adapter in found {
        text.push_str(&format!("\n  {adapter}"));
    }
    let threads = num_cpus::get();
    let from = gpu::gpu_crossover(threads);
    if first == "discrete" {
        text.push_str(&format!(
            "\nauto counts on it beside the CPU from n = {from} on ({threads} threads)"
        ));
    } else {
        text.push_str(&format!(
            "\nauto counts on the CPU alone: it adds only a discrete adapter, from n = {from} on \
             ({threads} threads)"
        ));
    }
    text
}
