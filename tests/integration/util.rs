//! Helpers shared by the command-line test binaries.

use assert_cmd::Command;

/// Runs `command`, expects exit code 2, and returns stderr, checked to be one line without a
/// panic.
pub fn usage_error_of(command: &mut Command, args: &[&str]) -> String {
    let out = command.args(args).assert().code(2).get_output().clone();
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("nqueens: error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}
