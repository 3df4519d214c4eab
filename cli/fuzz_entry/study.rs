//! What the fuzz target `study` does with one input: a saved `scale --format json` result read
//! as `scale --compare` reads it. Built from the command's own files: by the target
//! (fuzz_targets/study.rs), and by the command's tests, which replay the target's committed
//! inputs (the tests below).

use std::path::Path;

/// `scale --compare FILE`'s reading of a saved result: the file read as the command reads it
/// (in `dir`), its series labelled for tables and legends.
pub fn study(dir: &Path, data: &[u8]) {
    use crate::scale::saved;
    use nqueens_ui::series::Labels;
    let path = dir.join("study.json");
    std::fs::write(&path, data).expect("the scratch file is written");
    match saved::read(&path) {
        Ok(series) => {
            assert!(!series.is_empty(), "a saved result of no study");
            for one in &series {
                assert!(!one.label().is_empty());
            }
        }
        Err(why) => assert!(!why.0.contains('\n'), "a refusal in more than one line"),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::fuzz_inputs::replay;

    #[test]
    fn the_study_targets_inputs_are_refused_or_read() {
        let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
        let dir = tempfile::tempdir().unwrap();
        replay(&fuzz, "study", 3, |data| study(dir.path(), data));
    }
}
