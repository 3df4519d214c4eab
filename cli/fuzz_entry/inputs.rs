//! The committed inputs of the fuzz targets, for the tests that replay them without cargo-fuzz
//! (the library's `tests/library/fuzz_inputs.rs` and the command's unit tests).

use std::path::{Path, PathBuf};

/// The committed inputs of `target` under the fuzz directory `fuzz`: its corpus
/// (`corpus/TARGET`) and the inputs that once failed it (`regressions/TARGET`), sorted.
pub fn inputs(fuzz: &Path, target: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["corpus", "regressions"]
        .iter()
        .filter_map(|dir| std::fs::read_dir(fuzz.join(dir).join(target)).ok())
        .flatten()
        .map(|entry| entry.expect("a listed input").path())
        .collect();
    files.sort();
    files
}

/// `run` on each committed input of `target` ([`inputs`]), read whole, once there are at least
/// `at_least` of them (so that a corpus left out of the repository is noticed). In a package
/// unpacked from its tarball (under `target/package/`), which leaves the repository's fuzz/
/// behind, nothing runs and stderr says so.
pub fn replay(fuzz: &Path, target: &str, at_least: usize, mut run: impl FnMut(&[u8])) {
    let packaged = fuzz.ancestors().any(|a| a.ends_with("target/package"));
    if packaged && !fuzz.is_dir() {
        eprintln!(
            "skipped: no fuzz directory at {} (a packaged copy) to replay {target}'s inputs from",
            fuzz.display()
        );
        return;
    }
    let files = inputs(fuzz, target);
    assert!(files.len() >= at_least, "the {target} corpus is committed");
    for file in files {
        run(&std::fs::read(&file).unwrap());
    }
}
