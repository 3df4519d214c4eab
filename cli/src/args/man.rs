//! The arguments of `nqueens man`.

use clap::Args;

/// Arguments of `nqueens man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write one page per command into this directory (created when missing) instead of
    /// printing the whole manual as one page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}
