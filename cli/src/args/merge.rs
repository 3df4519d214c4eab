//! The arguments of `nqueens merge`.

use clap::Args;

use crate::format::Format;

use super::parse::choice;

/// Arguments of `nqueens merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard journals (every shard of the count is needed, each journal once).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// Output format.
    #[arg(short, long, value_parser = choice::<Format>(), default_value_t = Format::Table)]
    pub format: Format,
}
