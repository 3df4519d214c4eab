//! The integration tests, in one binary (one link instead of one per file): the command line,
//! long runs, shards, the estimator, the known counts and the checked examples of the docs.

mod checkpoint;
mod cli;
mod cli_busy;
mod cli_compare;
mod cli_completions;
mod cli_files;
mod cli_flags;
mod cli_hardening;
mod cli_list;
mod cli_memory;
mod cli_newcomer;
mod cli_numbers;
mod cli_pin;
mod cli_quiet;
mod cli_scale;
mod cli_scale_compare;
mod cli_signals;
mod cli_solve;
mod cli_terminal;
mod cli_unique;
mod cli_values;
mod cli_watch;
mod cli_watch_cast;
mod cli_watch_html;
mod cli_watch_screen;
mod cli_words;
mod diagonals;
mod doc_examples;
mod estimate;
mod foreign_records;
#[cfg(feature = "gpu")]
mod gpu;
mod library;
mod shards;
mod util;
