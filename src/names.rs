//! The names by which the library's choices (strategies, kernels, textbook algorithms) are
//! spelled and parsed back, and the error for a name that is none of them.

use std::fmt;

use crate::engine::kernel::Kernel;
use crate::engine::plan::Strategy;

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

impl UnknownName {
    /// The value of `choices` (things of kind `what`) whose `name` is `text`, in any case and
    /// with spaces around it ignored, or the error listing the names: how the library parses
    /// its choices back, for a program's own choices to be parsed the same way.
    ///
    /// # Errors
    ///
    /// The `UnknownName` of `text` when no choice is named so.
    ///
    /// ```
    /// use nqueens::names::UnknownName;
    /// let colours = ["red", "green"];
    /// assert_eq!(UnknownName::find("colour", &colours, |c| c, " Green "), Ok("green"));
    /// let error = UnknownName::find("colour", &colours, |c| c, "blue").unwrap_err();
    /// assert_eq!(error.to_string(), "unknown colour 'blue' (choose from red, green)");
    /// ```
    pub fn find<T: Copy>(
        what: &'static str,
        choices: &[T],
        name: impl Fn(T) -> &'static str,
        text: &str,
    ) -> Result<T, UnknownName> {
        choices
            .iter()
            .copied()
            .find(|&v| name(v).eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownName::new(what, text, choices.iter().map(|&v| name(v)).collect()))
    }

    /// `name`, which is none of the `choices` of `what` (`kernel`, `strategy`, …): for
    /// choices of a program's own, spelled as the library's are.
    ///
    /// ```
    /// use nqueens::names::UnknownName;
    /// let error = UnknownName::new("format", "xml", vec!["table", "json", "csv"]);
    /// assert_eq!(error.to_string(), "unknown format 'xml' (choose from table, json, csv)");
    /// ```
    #[must_use]
    pub fn new(what: &'static str, name: &str, choices: Vec<&'static str>) -> UnknownName {
        UnknownName {
            what,
            name: name.to_string(),
            choices,
        }
    }
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
