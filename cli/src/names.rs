//! The choices the command offers (strategies, kernels, textbook algorithms, placements of the
//! workers; the output formats' are beside them in `format`): their names, the one line `--help`
//! says of each, and parsing them back.

use nqueens::classic::Algorithm;
use nqueens::names::UnknownName;
use nqueens::{Kernel, Strategy};

use crate::placement::Pin;

/// A choice among a fixed set of named values, as the command's help lists them.
pub trait Named: Copy + Sized + 'static {
    /// What the values are (for messages: `kernel`, `strategy`).
    const WHAT: &'static str;
    /// Every value, in the order they are listed.
    fn all() -> &'static [Self];
    /// The value's name.
    fn name(self) -> &'static str;
    /// One line on what the value means.
    fn description(self) -> &'static str;

    /// The value named `name` (in any case, spaces around it ignored), or an error listing the
    /// names.
    fn parse_name(name: &str) -> Result<Self, UnknownName> {
        UnknownName::find(Self::WHAT, Self::all(), Self::name, name)
    }
}

impl Named for Strategy {
    const WHAT: &'static str = "strategy";
    fn all() -> &'static [Self] {
        &[Strategy::Symmetric, Strategy::Mirror]
    }
    fn name(self) -> &'static str {
        Strategy::name(self)
    }
    fn description(self) -> &'static str {
        match self {
            Strategy::Symmetric => {
                "border queens pre-placed, one constellation per symmetry class (the fastest)"
            }
            Strategy::Mirror => "first-row queen over the left half, mirrored",
            _ => "",
        }
    }
}

impl Named for Kernel {
    const WHAT: &'static str = "kernel";
    fn all() -> &'static [Self] {
        Kernel::ALL
    }
    fn name(self) -> &'static str {
        Kernel::name(self)
    }
    fn description(self) -> &'static str {
        use Kernel::*;
        match self {
            Auto => "the fastest kernel this CPU runs",
            Avx512 => "AVX-512 lanes (x86-64 with AVX-512F and VPOPCNTDQ)",
            Avx2 => "AVX2 lanes (x86-64 with AVX2, POPCNT and BMI2)",
            Neon => "NEON lanes (aarch64)",
            PortableLanes => "lanes in plain Rust, on every CPU",
            DepthFirst => "the depth-first search, on every CPU (the reference)",
            #[cfg(feature = "gpu")]
            Gpu => {
                "the GPU beside the CPU: both take tasks from one queue (--threads CPU threads \
                 with the fastest CPU kernel)"
            }
            #[cfg(feature = "gpu")]
            GpuOnly => "the GPU alone: every task on the GPU (NQUEENS_GPU_ADAPTER picks one)",
            _ => "",
        }
    }
}

impl Named for Algorithm {
    const WHAT: &'static str = "algorithm";
    fn all() -> &'static [Self] {
        &Algorithm::ALL
    }
    fn name(self) -> &'static str {
        Algorithm::name(self)
    }
    fn description(self) -> &'static str {
        use Algorithm::*;
        match self {
            Matrix => "an n x n grid of cells, copied and marked per queen",
            Array => "one column per placed row, checked against every placed queen",
            Attack => "boolean arrays for columns and diagonals: O(1) tests",
            Bitmask => "three bitmasks, a whole row tested at once",
            _ => "",
        }
    }
}

impl Named for Pin {
    const WHAT: &'static str = "placement";
    fn all() -> &'static [Self] {
        &Pin::ALL
    }
    fn name(self) -> &'static str {
        Pin::name(self)
    }
    fn description(self) -> &'static str {
        match self {
            Pin::None => "wherever the system puts the threads",
            Pin::Cores => "one thread per physical core first, then their SMT siblings",
            Pin::Siblings => "SMT siblings together, core by core",
        }
    }
}

impl std::str::FromStr for Pin {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        Pin::parse_name(s)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Every value parses back from its name and has a description; a name of none is refused.
    pub(crate) fn round_trip<T: Named + PartialEq + std::fmt::Debug>() {
        for &v in T::all() {
            assert_eq!(T::parse_name(v.name()).unwrap(), v);
            assert!(!v.description().is_empty(), "{v:?}");
        }
        assert!(T::parse_name("no-such-name").is_err());
    }

    #[test]
    fn every_name_parses_back_to_its_value_and_has_a_description() {
        round_trip::<Strategy>();
        round_trip::<Kernel>();
        round_trip::<Algorithm>();
        round_trip::<Pin>();
        assert_eq!(
            Kernel::parse_name(" Depth-First ").unwrap(),
            Kernel::DepthFirst
        );
        let e = Strategy::parse_name("spiral").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown strategy 'spiral' (choose from symmetric, mirror)"
        );
    }
}
