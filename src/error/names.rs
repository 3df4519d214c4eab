//! A name that is none of a choice's values ([`UnknownName`]).

use std::fmt;

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
