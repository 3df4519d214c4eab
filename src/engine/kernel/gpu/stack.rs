//! Where the shader keeps its threads' stacks: workgroup memory (the default, as
//! ygch/n_queens does in CUDA) or private arrays. `NQUEENS_GPU_STACK=private` picks the second,
//! so both can be timed on one device; the counts are the same.

/// The environment variable that picks the stacks' memory: `workgroup` or `private`.
pub const STACK_VAR: &str = "NQUEENS_GPU_STACK";

/// Where the stacks live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stack {
    /// Workgroup (shared) memory: 1 KiB per level for a workgroup of 64 threads.
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

    /// The shader's source with these stacks, `levels` deep (1 to 30: the deepest sub-job's
    /// free rows less 2).
    pub fn source(self, levels: u32) -> String {
        assert!((1..=30).contains(&levels), "{levels} stack levels");
        let sized = include_str!("search.wgsl")
            .replace(
                "const LEVELS: u32 = 30u;",
                &format!("const LEVELS: u32 = {levels}u;"),
            )
            .replace("array<u32, 1920>", &format!("array<u32, {}>", levels * 64));
        let source = sized.as_str();
        match self {
            Stack::Workgroup => sized.clone(),
            Stack::Private => {
                let start = source
                    .find("var<workgroup> fr")
                    .expect("the shader declares its stacks");
                let end = source
                    .find("// (END-STACK-DECLARATIONS)")
                    .expect("the shader marks the end of its stacks");
                let mut text = format!("{}{}", &source[..start], &source[end..]);
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
        let text = Stack::Private.source(30);
        assert!(!text.contains("var<workgroup>"));
        assert!(text.contains("var fr: array<u32, LEVELS>;"));
        assert!(text.contains("const STRIDE: u32 = 1u;"));
        let shared = Stack::Workgroup.source(12);
        assert!(shared.contains("var<workgroup> fr: array<u32, 768>;"));
        assert!(shared.contains("const LEVELS: u32 = 12u;"));
    }
}
