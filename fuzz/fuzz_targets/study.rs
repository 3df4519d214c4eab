//! A saved `scale --format json` result read as `scale --compare` reads it
//! (cli/fuzz_entry/study.rs), built from the command's own files: its reader and the modules it uses.
#![no_main]
#![allow(dead_code)]

#[path = "../../cli/src/scale/saved.rs"]
pub mod saved;
// Where the command keeps its reader (`crate::scale::saved`).
mod scale {
    pub use super::saved;
}

#[path = "../../cli/fuzz_entry/study.rs"]
mod entry;

use std::sync::OnceLock;

static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = DIR.get_or_init(|| tempfile::tempdir().expect("a scratch directory"));
    entry::study(dir.path(), data);
});
