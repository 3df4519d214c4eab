//! Finding the GPU adapters and choosing one: the fastest kind first (discrete, integrated,
//! virtual, other, software), or the one the settings name (an index into the list, or part of
//! a name: [`GpuSettings::with_adapter`](super::GpuSettings::with_adapter)).

use std::fmt;
use std::sync::OnceLock;

use super::GpuError;

/// One adapter found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterInfo {
    /// Position in [`adapters`] (what
    /// [`GpuSettings::with_adapter`](super::GpuSettings::with_adapter) takes).
    pub index: usize,
    /// The device's name, e.g. `NVIDIA H100 80GB HBM3` or `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// `discrete`, `integrated`, `virtual`, `software` or `other`.
    pub kind: &'static str,
    /// The graphics API: `vulkan`, `metal` or `dx12`.
    pub backend: String,
    /// The driver and its version, when the driver tells.
    pub driver: String,
}

impl fmt::Display for AdapterInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{}] {} ({}, {}",
            self.index, self.name, self.kind, self.backend
        )?;
        if !self.driver.is_empty() {
            write!(f, ", {}", self.driver)?;
        }
        f.write_str(")")
    }
}

/// The rank of an adapter kind: lower is tried first.
fn rank(kind: wgpu::DeviceType) -> u8 {
    match kind {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

fn kind_name(kind: wgpu::DeviceType) -> &'static str {
    match kind {
        wgpu::DeviceType::DiscreteGpu => "discrete",
        wgpu::DeviceType::IntegratedGpu => "integrated",
        wgpu::DeviceType::VirtualGpu => "virtual",
        wgpu::DeviceType::Other => "other",
        wgpu::DeviceType::Cpu => "software",
    }
}

/// The wgpu instance: the native backends only (no GL), without validation layers.
pub(super) fn instance() -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = instance_backends();
    desc.flags = wgpu::InstanceFlags::empty();
    wgpu::Instance::new(desc)
}

/// Every adapter that runs compute shaders, fastest kind first (the order [`ADAPTER_VAR`]'s
/// index refers to).
pub(super) fn list(instance: &wgpu::Instance) -> Vec<(wgpu::Adapter, AdapterInfo)> {
    let mut adapters: Vec<wgpu::Adapter> =
        pollster::block_on(instance.enumerate_adapters(instance_backends()))
            .into_iter()
            .filter(|a| {
                a.get_downlevel_capabilities()
                    .flags
                    .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
            })
            .collect();
    adapters.sort_by_key(|a| rank(a.get_info().device_type));
    adapters
        .into_iter()
        .enumerate()
        .map(|(index, adapter)| {
            let info = adapter.get_info();
            let driver = [info.driver.as_str(), info.driver_info.as_str()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let summary = AdapterInfo {
                index,
                name: info.name.clone(),
                kind: kind_name(info.device_type),
                backend: info.backend.to_string().to_lowercase(),
                driver,
            };
            (adapter, summary)
        })
        .collect()
}

/// The backends searched: the native ones (a GL adapter lacks what the search needs).
fn instance_backends() -> wgpu::Backends {
    wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12
}

/// The adapters found by the first look of the process (a machine's adapters do not change
/// while it runs; opening the device looks again).
static FOUND: OnceLock<Vec<AdapterInfo>> = OnceLock::new();

/// The adapters this machine has, fastest kind first (empty when there is none, or no Vulkan
/// loader). They are looked for once per process, on the first call.
///
/// ```no_run
/// for adapter in nqueens::gpu::adapters() {
///     println!("{adapter}");
/// }
/// ```
#[must_use]
pub fn adapters() -> Vec<AdapterInfo> {
    found().to_vec()
}

/// The adapters of [`adapters`], looked for on the first call only.
pub(super) fn found() -> &'static [AdapterInfo] {
    FOUND.get_or_init(|| {
        list(&instance())
            .into_iter()
            .map(|(_, info)| info)
            .collect()
    })
}

/// The adapter to count on: the one `wanted` names (an index or part of a name), else the first
/// (fastest kind).
pub(super) fn choose(
    instance: &wgpu::Instance,
    wanted: Option<&str>,
) -> Result<(wgpu::Adapter, AdapterInfo), GpuError> {
    let mut found = list(instance);
    let infos: Vec<AdapterInfo> = found.iter().map(|(_, info)| info.clone()).collect();
    let picked = pick(&infos, wanted)?;
    Ok(found.swap_remove(picked))
}

/// The position in `found` of the adapter `wanted` names (an index or part of a name), else
/// of the first (fastest kind).
pub(super) fn pick(found: &[AdapterInfo], wanted: Option<&str>) -> Result<usize, GpuError> {
    if found.is_empty() {
        return Err(GpuError::NoAdapter);
    }
    let Some(wanted) = wanted.map(str::to_owned) else {
        return Ok(0);
    };
    let picked = match wanted.trim().parse::<usize>() {
        Ok(index) => found.iter().position(|info| info.index == index),
        Err(_) => {
            let lower = wanted.to_lowercase();
            found
                .iter()
                .position(|info| info.name.to_lowercase().contains(&lower))
        }
    };
    picked.ok_or_else(|| GpuError::NoSuchAdapter {
        wanted,
        found: found
            .iter()
            .map(AdapterInfo::to_string)
            .collect::<Vec<_>>()
            .join("; "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(index: usize, name: &str) -> AdapterInfo {
        AdapterInfo {
            index,
            name: name.into(),
            kind: "software",
            backend: "vulkan".into(),
            driver: String::new(),
        }
    }

    #[test]
    fn an_adapter_is_picked_by_index_or_part_of_its_name_else_the_first() {
        assert_eq!(pick(&[], None), Err(GpuError::NoAdapter));
        assert_eq!(pick(&[], Some("0")), Err(GpuError::NoAdapter));
        let found = [info(0, "NVIDIA H100"), info(1, "llvmpipe (LLVM 15)")];
        assert_eq!(pick(&found, None), Ok(0));
        assert_eq!(pick(&found, Some(" 1 ")), Ok(1));
        assert_eq!(pick(&found, Some("LLVMPIPE")), Ok(1));
        let Err(GpuError::NoSuchAdapter { wanted, found }) = pick(&found, Some("2")) else {
            panic!("index 2 picked");
        };
        assert_eq!(wanted, "2");
        assert!(found.contains("[0] NVIDIA H100") && found.contains("[1] llvmpipe"));
    }
}
