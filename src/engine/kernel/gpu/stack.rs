//! Where the shader keeps its threads' stacks: workgroup memory (the default) or private
//! arrays ([`GpuSettings::with_stack`](super::GpuSettings::with_stack)), so that both can be
//! timed on one device; the counts are the same.

/// Where the stacks live.
///
/// ```
/// use nqueens::gpu::Stack;
/// assert_eq!("private".parse::<Stack>(), Ok(Stack::Private));
/// assert_eq!(Stack::Workgroup.name(), "workgroup");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stack {
    /// Workgroup (shared) memory: 1.5 KiB per level for a workgroup of 64 threads (a
    /// `vec4<u32>` of the level and a `vec2<u32>` of its row's step and blocked squares each).
    #[default]
    Workgroup,
    /// Private arrays (registers or the device's per-thread memory).
    Private,
}

impl Stack {
    /// Every place the stacks can live.
    pub const ALL: &'static [Stack] = &[Stack::Workgroup, Stack::Private];

    /// The stacks' name: `workgroup` or `private`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Stack::Workgroup => "workgroup",
            Stack::Private => "private",
        }
    }

    /// The shader's source with these stacks, `levels` deep (1 to [`MAX_LEVELS`]: the deepest
    /// sub-job's free rows less one).
    pub(crate) fn source(self, levels: u32) -> String {
        assert!((1..=MAX_LEVELS).contains(&levels), "{levels} stack levels");
        let sized = include_str!("search.wgsl")
            .replace(
                "const LEVELS: u32 = 31u;",
                &format!("const LEVELS: u32 = {levels}u;"),
            )
            .replace(", 1984>", &format!(", {}>", levels * 64));
        let source = sized.as_str();
        match self {
            Stack::Workgroup => sized.clone(),
            Stack::Private => {
                let start = source
                    .find("var<workgroup> stack")
                    .expect("the shader declares its stacks");
                let end = source
                    .find("// (END-STACK-DECLARATIONS)")
                    .expect("the shader marks the end of its stacks");
                let mut text = format!("{}{}", &source[..start], &source[end..]);
                text = text.replace("const STRIDE: u32 = 64u;", "const STRIDE: u32 = 1u;");
                text.replace(
                    "    let slot = lid;\n",
                    "    var stack: array<vec4<u32>, LEVELS>;\n    \
                     var row_table: array<vec2<u32>, LEVELS>;\n    \
                     let slot = 0u + 0u * lid;\n",
                )
            }
        }
    }

    /// Bytes of workgroup memory a workgroup of 64 threads takes with stacks `levels` deep.
    pub(crate) fn workgroup_bytes(self, levels: u32) -> u32 {
        match self {
            Stack::Workgroup => levels * 64 * (16 + 8),
            Stack::Private => 0,
        }
    }
}

/// The most stack levels a thread can need: a sub-job of 32 free rows places queens on 31.
pub(crate) const MAX_LEVELS: u32 = 31;

impl std::str::FromStr for Stack {
    type Err = String;

    /// A name of [`Stack::name`], case-insensitive.
    fn from_str(s: &str) -> Result<Stack, String> {
        Stack::ALL
            .iter()
            .copied()
            .find(|stack| stack.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("{s:?} is not a place for the stacks: workgroup or private"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_private_source_declares_its_arrays_in_the_function() {
        let text = Stack::Private.source(31);
        assert!(!text.contains("var<workgroup>"));
        assert!(text.contains("var stack: array<vec4<u32>, LEVELS>;"));
        assert!(text.contains("const STRIDE: u32 = 1u;"));
        let shared = Stack::Workgroup.source(12);
        assert!(shared.contains("var<workgroup> stack: array<vec4<u32>, 768>;"));
        assert!(shared.contains("var<workgroup> row_table: array<vec2<u32>, 768>;"));
        assert!(shared.contains("const LEVELS: u32 = 12u;"));
        assert_eq!(Stack::Workgroup.workgroup_bytes(31), 47_616);
    }
}
