//! How the shader ends a search path: the last row counted by popcount (the default), or the
//! last two rows in closed form ([`GpuSettings::with_last_rows`](super::GpuSettings::with_last_rows)),
//! so that both can be timed on one device; the counts are the same.

/// How the last rows of a search path are counted.
///
/// ```
/// use nqueens::gpu::LastRows;
/// assert_eq!("2".parse::<LastRows>(), Ok(LastRows::Two));
/// assert_eq!(LastRows::One.name(), "1");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum LastRows {
    /// The last row: its free squares counted by popcount, one step per queen on the row
    /// before it.
    #[default]
    One,
    /// The last two rows in closed form, from the free squares of both: one step fewer per
    /// queen on the second-to-last row, a few more instructions on every step.
    Two,
}

impl LastRows {
    /// Every way of counting the last rows.
    pub const ALL: &'static [LastRows] = &[LastRows::One, LastRows::Two];

    /// The rows counted at the end of a path: `1` or `2`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            LastRows::One => "1",
            LastRows::Two => "2",
        }
    }

    /// The shader's pipeline constant `LAST_TWO_ROWS` for this choice.
    pub(crate) fn constant(self) -> f64 {
        match self {
            LastRows::One => 0.0,
            LastRows::Two => 1.0,
        }
    }
}

impl std::str::FromStr for LastRows {
    type Err = String;

    /// `1` or `2`.
    fn from_str(s: &str) -> Result<LastRows, String> {
        LastRows::ALL
            .iter()
            .copied()
            .find(|rows| rows.name() == s.trim())
            .ok_or_else(|| format!("{s:?} is not a number of last rows: 1 or 2"))
    }
}
