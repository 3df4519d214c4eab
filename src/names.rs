//! The names by which the library's choices (strategies, kernels, textbook algorithms) are
//! spelled, described and parsed back ([`Named`]), and the error for a name that is none of them.

use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;
pub use crate::error::names::UnknownName;

/// A choice among a fixed set of named values: each value's name and the one line a listing of
/// the choices (a command's help) says of it, parsed back from its name ([`std::str::FromStr`]
/// on the library's choices is [`Named::parse_name`]). The library's [`Strategy`], [`Kernel`] and
/// [`Algorithm`](crate::classic::Algorithm) implement it; a program implements it for choices
/// of its own, to list and parse them the same way.
///
/// ```
/// use nqueens::names::Named;
/// use nqueens::Strategy;
/// let names: Vec<&str> = Strategy::all().iter().map(|s| s.name()).collect();
/// assert_eq!(names, ["symmetric", "mirror"]);
/// assert_eq!(Strategy::parse_name(" Mirror ").unwrap(), Strategy::Mirror);
/// assert_eq!(Strategy::Mirror.description(), "first-row queen over the left half, mirrored");
///
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// enum Colour {
///     Red,
///     Green,
/// }
/// impl Named for Colour {
///     const WHAT: &'static str = "colour";
///     fn all() -> &'static [Colour] {
///         &[Colour::Red, Colour::Green]
///     }
///     fn name(self) -> &'static str {
///         match self {
///             Colour::Red => "red",
///             Colour::Green => "green",
///         }
///     }
///     fn description(self) -> &'static str {
///         "a colour"
///     }
/// }
/// assert_eq!(Colour::parse_name("GREEN").unwrap(), Colour::Green);
/// let error = Colour::parse_name("blue").unwrap_err();
/// assert_eq!(error.to_string(), "unknown colour 'blue' (choose from red, green)");
/// ```
pub trait Named: Copy + Sized + 'static {
    /// What the values are (for messages: `kernel`, `strategy`).
    const WHAT: &'static str;
    /// Every value, in the order they are listed.
    fn all() -> &'static [Self];
    /// The value's name.
    fn name(self) -> &'static str;
    /// One line on what the value means (the command's help lists it beside the name).
    fn description(self) -> &'static str;

    /// The value named `name` (in any case, spaces around it ignored), or an error listing the
    /// names.
    ///
    /// # Errors
    ///
    /// The [`UnknownName`] of `name` when no value is named so.
    fn parse_name(name: &str) -> Result<Self, UnknownName> {
        UnknownName::find(Self::WHAT, Self::all(), Self::name, name)
    }
}

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

from_str_by_name!(Strategy, Kernel);
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
                "the GPU beside the CPU: both take tasks from one queue (--threads CPU threads \
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

    /// Every value's name reads back as the value through `FromStr`, in upper case too.
    fn round_trip<T>()
    where
        T: Named + PartialEq + std::fmt::Debug + std::str::FromStr<Err = UnknownName>,
    {
        assert!(T::all().iter().all(|v| !v.description().is_empty()));
        let names: Vec<String> = T::all().iter().map(|v| v.name().to_uppercase()).collect();
        let parsed: Vec<T> = names.iter().map(|n| n.parse().unwrap()).collect();
        assert_eq!(parsed, T::all());
        assert_eq!("no-such-name".parse::<T>().unwrap_err().what, T::WHAT);
    }

    #[test]
    fn every_name_parses_back_to_its_value() {
        round_trip::<Strategy>();
        round_trip::<Kernel>();
        round_trip::<Algorithm>();
    }
}
