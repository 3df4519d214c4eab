//! A journal resumed by a count: `count N --checkpoint FILE [--shard K/M]` on the input's file
//! (entry/library.rs).
#![no_main]
#![allow(dead_code)]

#[path = "../entry/library.rs"]
mod entry;

use std::sync::OnceLock;

static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = DIR.get_or_init(|| tempfile::tempdir().expect("a scratch directory"));
    entry::journal(dir.path(), data);
});
