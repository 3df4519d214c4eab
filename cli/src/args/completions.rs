//! The arguments of `nqueens completions`.

use clap::Args;

use super::parse::shell_parser;

/// Arguments of `nqueens completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_name = "SHELL", value_parser = shell_parser())]
    pub shell: clap_complete::Shell,
}
