//! The names by which the library's choices (strategies, kernels, textbook algorithms) are
//! spelled and parsed back, and the error for a name that is none of them.

use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;
pub use crate::error::names::UnknownName;

/// A choice among a fixed set of named values, parsed back from its name ([`std::str::FromStr`]
/// on the library's choices).
pub(crate) trait Named: Copy + Sized + 'static {
    /// What the values are (for messages: `kernel`, `strategy`).
    const WHAT: &'static str;
    /// Every value, in the order they are listed.
    fn all() -> &'static [Self];
    /// The value's name.
    fn name(self) -> &'static str;

    /// The value named `name` (in any case, spaces around it ignored), or an error listing the
    /// names.
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
}

impl Named for Kernel {
    const WHAT: &'static str = "kernel";
    fn all() -> &'static [Self] {
        Kernel::ALL
    }
    fn name(self) -> &'static str {
        Kernel::name(self)
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
