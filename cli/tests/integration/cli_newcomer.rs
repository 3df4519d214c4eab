//! What a newcomer asks of the help, answered where it is asked.

use crate::util::{help_words as help, stdout_of};

#[test]
fn the_short_help_of_every_command_with_progress_lines_gives_their_interval() {
    for command in ["count", "verify", "estimate", "scale"] {
        let text = help(&[command, "-h"]);
        assert!(text.contains("--progress-seconds"), "{command} -h: {text}");
    }
}

#[test]
fn the_threads_help_says_why_small_boards_run_on_one_thread() {
    let text = help(&["count", "--help"]);
    assert!(
        text.contains("Boards up to n = 10 are counted on one thread"),
        "{text}"
    );
}

#[test]
fn the_symmetries_help_reads_as_a_sentence() {
    let text = help(&["solve", "--help"]);
    let at = text.find("--all-symmetries").unwrap();
    let paragraph = &text[at..at + 400];
    assert_eq!(
        paragraph.matches('(').count(),
        paragraph.matches(')').count(),
        "{paragraph}"
    );
    assert!(paragraph.contains("anti-transpose (one line each with --format columns)"));
}

#[test]
fn the_budget_help_says_when_sampling_ends() {
    let text = help(&["estimate", "--help"]);
    assert!(
        !text.contains("thirty-second of it after the end"),
        "{text}"
    );
    assert!(
        text.contains("at most about a thirtieth of the budget after it runs out"),
        "{text}"
    );
}

#[test]
fn the_estimate_s_format_help_says_how_exact_a_json_total_is() {
    let text = help(&["estimate", "--help"]);
    assert!(
        text.contains("which is no more exact than the table's: total_low and total_high bound its 95 % interval"),
        "{text}"
    );
}

#[test]
fn the_scale_help_is_no_longer_than_the_count_help() {
    // The details of the models and fields are in the GUIDE; --help says what each option is.
    let lines = |command: &str| stdout_of(&[command, "--help"]).lines().count();
    let (scale, count) = (lines("scale"), lines("count"));
    assert!(
        scale <= count,
        "scale --help is {scale} lines, count --help {count}"
    );
    assert!(help(&["scale", "--help"]).contains("docs/GUIDE.md, \"Thread scaling\""));
}

#[test]
fn the_scale_format_help_says_a_json_loss_part_can_be_below_the_table_s_zero() {
    let text = help(&["scale", "--help"]);
    assert!(
        text.contains("one can be slightly negative, timer noise, where the table and CSV show 0"),
        "{text}"
    );
}
