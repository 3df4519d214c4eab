//! Where the shader keeps its threads' stacks: workgroup memory (the default, as
//! ygch/n_queens does in CUDA) or private arrays. `NQUEENS_GPU_STACK=private` picks the second,
//! so both can be timed on one device; the counts are the same.

/// The environment variable that picks the stacks' memory: `workgroup` or `private`.
pub const STACK_VAR: &str = "NQUEENS_GPU_STACK";

/// Where the stacks live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stack {
    /// Workgroup (shared) memory: 30 KiB per workgroup of 64 threads.
    Workgroup,
    /// Private arrays (registers or the device's per-thread memory).
    Private,
}

impl Stack {
    /// The stacks [`STACK_VAR`] asks for (workgroup memory when it is unset or unknown).
    pub fn from_env() -> Stack {
        match std::env::var(STACK_VAR).as_deref().map(str::trim) {
            Ok("private") => Stack::Private,
            _ => Stack::Workgroup,
        }
    }

    /// The name `--version` and the bench script show.
    pub fn name(self) -> &'static str {
        match self {
            Stack::Workgroup => "workgroup",
            Stack::Private => "private",
        }
    }

    /// The shader's source with these stacks.
    pub fn source(self) -> String {
        const SOURCE: &str = include_str!("search.wgsl");
        match self {
            Stack::Workgroup => SOURCE.to_string(),
            Stack::Private => {
                let start = SOURCE
                    .find("var<workgroup> fr")
                    .expect("the shader declares its stacks");
                let end = SOURCE
                    .find("// (END-STACK-DECLARATIONS)")
                    .expect("the shader marks the end of its stacks");
                let mut text = format!("{}{}", &SOURCE[..start], &SOURCE[end..]);
                text = text.replace("const STRIDE: u32 = 64u;", "const STRIDE: u32 = 1u;");
                text.replace(
                    "    let slot = lid;\n",
                    "    var fr: array<u32, LEVELS>;\n    var cl: array<u32, LEVELS>;\n    \
                     var dl: array<u32, LEVELS>;\n    var dr: array<u32, LEVELS>;\n    \
                     let slot = 0u + 0u * lid;\n",
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_private_source_declares_its_arrays_in_the_function() {
        let text = Stack::Private.source();
        assert!(!text.contains("var<workgroup>"));
        assert!(text.contains("var fr: array<u32, LEVELS>;"));
        assert!(text.contains("const STRIDE: u32 = 1u;"));
        assert!(Stack::Workgroup.source().contains("var<workgroup> fr"));
    }
}
