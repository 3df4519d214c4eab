//! The command's own choice of the library's [`Named`] (which names and describes strategies,
//! kernels and textbook algorithms): the placements of the workers, their names, the one line
//! `--help` says of each, and parsing them back (the output formats' are in `format`).

use nqueens::names::{Named, UnknownName};

use crate::placement::Pin;

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
    use nqueens::classic::Algorithm;
    use nqueens::{Kernel, Strategy};

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
