//! The names by which the command line and the output formats spell the library's choices
//! (strategies, kernels, textbook algorithms, placements of the workers), and parsing them back.

use std::fmt;

use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;
use crate::placement::Pin;

/// A choice among a fixed set of named values.
///
/// ```
/// use nqueens::names::Named;
/// use nqueens::{classic::Algorithm, Kernel, Strategy};
///
/// // One line per value, as a help text lists them.
/// fn choices<T: Named>() -> Vec<String> {
///     T::all().iter().map(|v| format!("{}: {}", v.name(), v.description())).collect()
/// }
///
/// assert_eq!(choices::<Strategy>().len(), 2);
/// assert_eq!(choices::<Kernel>()[0], "auto: the fastest kernel this CPU runs");
/// assert_eq!(Algorithm::WHAT, "algorithm");
/// assert_eq!(Algorithm::parse_name(" bitmask ").unwrap(), Algorithm::Bitmask);
/// ```
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
    ///
    /// ```
    /// use nqueens::names::Named;
    /// assert_eq!(nqueens::Strategy::parse_name("mirror").unwrap(), nqueens::Strategy::Mirror);
    /// assert_eq!(nqueens::Kernel::parse_name(" Depth-First ").unwrap(), nqueens::Kernel::DepthFirst);
    /// let e = nqueens::Strategy::parse_name("spiral").unwrap_err();
    /// assert_eq!(e.to_string(), "unknown strategy 'spiral' (choose from symmetric, mirror)");
    /// ```
    fn parse_name(name: &str) -> Result<Self, UnknownName> {
        Self::all()
            .iter()
            .copied()
            .find(|v| v.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| UnknownName {
                what: Self::WHAT,
                name: name.to_string(),
                choices: Self::all().iter().map(|v| v.name()).collect(),
            })
    }
}

/// A name that is none of a choice's values.
///
/// ```
/// use nqueens::names::UnknownName;
/// use nqueens::Kernel;
/// let error: UnknownName = "avx".parse::<Kernel>().unwrap_err();
/// assert_eq!((error.what, error.name.as_str()), ("kernel", "avx"));
/// assert!(error.choices.contains(&"avx2"));
/// assert!(error.to_string().starts_with(
///     "unknown kernel 'avx' (choose from auto, avx512, avx2, neon, portable-lanes, depth-first"
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownName {
    /// What was being named.
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names there are.
    pub choices: Vec<&'static str>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} '{}' (choose from {})",
            self.what,
            self.name,
            self.choices.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

/// `FromStr` by [`Named::parse_name`] (in any case).
macro_rules! from_str_by_name {
    ($($t:ty),*) => {$(
        impl std::str::FromStr for $t {
            type Err = $crate::names::UnknownName;
            fn from_str(s: &str) -> Result<Self, $crate::names::UnknownName> {
                <$t as $crate::names::Named>::parse_name(s)
            }
        }
    )*};
}
pub(crate) use from_str_by_name;

from_str_by_name!(Strategy, Kernel, Pin);
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
            Pin::None => "wherever the system puts the workers",
            Pin::Cores => "one worker per physical core first, then their SMT siblings",
            Pin::Siblings => "SMT siblings together, core by core",
        }
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
                "the GPU beside the CPU: both take tasks from one queue (--threads CPU workers \
                 with the fastest CPU kernel)"
            }
            #[cfg(feature = "gpu")]
            GpuOnly => "the GPU alone: every task on the GPU (NQUEENS_GPU_ADAPTER picks one)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::Algorithm;

    fn round_trip<T: Named + PartialEq + std::fmt::Debug + std::str::FromStr>() {
        for &v in T::all() {
            assert_eq!(T::parse_name(v.name()).unwrap(), v);
            assert!(!v.description().is_empty());
        }
        assert!(T::parse_name("no-such-name").is_err());
    }

    #[test]
    fn every_name_parses_back_to_its_value() {
        round_trip::<Strategy>();
        round_trip::<Kernel>();
        round_trip::<Algorithm>();
    }
}
