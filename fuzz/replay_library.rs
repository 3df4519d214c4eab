//! The fuzz targets on the library's readers (fuzz/), run on their committed inputs: the
//! corpus seeded from real journals and every input that once failed a target
//! (fuzz/regressions/), so that `cargo test` runs them without cargo-fuzz.

use std::path::Path;

#[path = "../cli/fuzz_entry/inputs.rs"]
mod committed;
#[path = "entry/library.rs"]
mod entry;

use committed::replay;

#[test]
fn the_journal_targets_inputs_are_resumed_or_refused() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    replay(&fuzz, "journal", 4, |data| {
        let dir = tempfile::tempdir().unwrap();
        entry::journal(dir.path(), data);
    });
}

#[test]
fn the_merge_targets_inputs_are_merged_or_refused() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    replay(&fuzz, "merge", 3, |data| {
        let dir = tempfile::tempdir().unwrap();
        entry::merge(dir.path(), data);
    });
}
