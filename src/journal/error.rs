//! What a journal's error says of itself: whether it is a refusal, and how a journal made for
//! another count differs from this one (by the header's fields).

use super::format::FORMAT_VERSION;
pub use crate::error::journal::{Access, Damage, JournalError};

impl JournalError {
    /// Whether the journal was refused before any work started (as opposed to failing while
    /// writing): the user can fix these by choosing or repairing the file.
    #[must_use]
    pub fn is_refusal(&self) -> bool {
        !matches!(self, JournalError::Write { .. })
    }

    /// How a journal made for another count or format differs from this count: one
    /// `(in the file, here)` pair per differing part, each as a header's description writes
    /// it; empty for every other error.
    ///
    /// ```
    /// use nqueens::journal::{Header, JournalError};
    /// use nqueens::{Plan, Strategy};
    /// let here = Header::for_plan(&Plan::new(8, Strategy::Mirror, 16).unwrap());
    /// let mut found = here.clone();
    /// found.n = 9;
    /// let error = JournalError::Mismatch {
    ///     path: "n8.ckpt".into(),
    ///     found: Box::new(found),
    ///     expected: Box::new(here),
    /// };
    /// assert_eq!(error.differences(), [("n = 9".to_string(), "n = 8".to_string())]);
    /// ```
    #[must_use]
    pub fn differences(&self) -> Vec<(String, String)> {
        match self {
            JournalError::Mismatch {
                found, expected, ..
            } => found
                .differing_fields(expected)
                .into_iter()
                .map(|field| (found.describe(field), expected.describe(field)))
                .collect(),
            JournalError::OtherFormat { found, .. } => vec![(
                format!("journal format {found}"),
                format!("journal format {FORMAT_VERSION}"),
            )],
            _ => Vec::new(),
        }
    }
}
