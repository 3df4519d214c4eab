//! `nqueens solve`: the first solution, the construction, formats, and bad input.

use nqueens::board::Placement;
use predicates::prelude::*;

use crate::util::nqueens;

fn solve(args: &[&str]) -> assert_cmd::assert::Assert {
    nqueens().arg("solve").args(args).assert()
}

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

fn parse_columns(line: &str) -> Vec<u32> {
    line.split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

#[test]
fn eight_queens_prints_the_first_lexicographic_solution() {
    let a = solve(&["8", "--format", "columns"]).success();
    assert_eq!(stdout(&a), "0 4 7 5 2 6 1 3\n");
    let a = solve(&["8"]).success();
    let text = stdout(&a);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "Q . . . . . . .");
    assert_eq!(lines[2], ". . . . Q . . .");
    assert_eq!(lines[8], ". . . Q . . . .");
    assert_eq!(lines[9], "columns: 0 4 7 5 2 6 1 3");
    assert_eq!(lines.len(), 10);
}

#[test]
fn unicode_and_coordinates_change_the_drawing_only() {
    let a = solve(&["4", "--unicode", "--coordinates"]).success();
    let text = stdout(&a);
    assert!(text.contains("  0 1 2 3\n0 . ♛ . .\n1 . . . ♛\n"), "{text}");
    assert!(text.ends_with("columns: 1 3 0 2\n"));
}

#[test]
fn two_and_three_have_no_solution_and_exit_1() {
    for n in ["2", "3"] {
        solve(&[n])
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("no solution"));
        solve(&[n, "--format", "columns"])
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("no solution"));
        solve(&[n, "--construct", "--format", "json"])
            .code(1)
            .stdout(predicate::str::contains(r#""columns":null"#))
            .stderr(predicate::str::contains("no solution"));
    }
}

#[test]
fn zero_and_one_are_trivial() {
    solve(&["1", "--format", "columns"]).success().stdout("0\n");
    solve(&["0", "--format", "columns"]).success().stdout("\n");
    solve(&["0", "--format", "json"])
        .success()
        .stdout("[\n{\"n\":0,\"method\":\"search\",\"columns\":[]}\n]\n");
}

/// The one record of `solve --format json`: an array of one, as every command writes an array
/// of records that name their n.
fn one_record(text: &str) -> serde_json::Value {
    let records: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
    assert_eq!(records.len(), 1, "{text}");
    assert!(records[0]["n"].is_u64(), "{text}");
    records.into_iter().next().unwrap()
}

#[test]
fn json_names_the_method_and_the_columns() {
    let a = solve(&["8", "--format", "json"]).success();
    let v = one_record(&stdout(&a));
    assert_eq!(v["n"], 8);
    assert_eq!(v["method"], "search");
    assert_eq!(v["columns"], serde_json::json!([0, 4, 7, 5, 2, 6, 1, 3]));
    let a = solve(&["40", "--format", "json"]).success();
    let v = one_record(&stdout(&a));
    assert_eq!(v["method"], "construction");
    let cols: Vec<u32> = serde_json::from_value(v["columns"].clone()).unwrap();
    assert!(Placement::new(cols).is_solution());
}

#[test]
fn all_symmetries_prints_eight_valid_images() {
    let a = solve(&["8", "--all-symmetries", "--format", "columns"]).success();
    let text = stdout(&a);
    let images: Vec<Vec<u32>> = text.lines().map(parse_columns).collect();
    assert_eq!(images.len(), 8);
    assert_eq!(images[0], [0, 4, 7, 5, 2, 6, 1, 3]);
    for image in &images {
        assert!(Placement::new(image.clone()).is_solution());
    }
    let a = solve(&["8", "--all-symmetries", "--format", "json"]).success();
    let v = one_record(&stdout(&a));
    assert_eq!(v["images"].as_array().unwrap().len(), 8);
    assert_eq!(v["images"][1]["symmetry"], "rot90");
    let a = solve(&["8", "--all-symmetries"]).success();
    let text = stdout(&a);
    assert!(text.contains("\nanti-transpose:\n"));
    assert!(text.contains("canonical form"));
}

#[test]
fn the_construction_is_used_above_30_and_on_request() {
    let a = solve(&["12", "--construct", "--format", "columns"]).success();
    assert_eq!(
        parse_columns(&stdout(&a)),
        [1, 3, 5, 7, 9, 11, 0, 2, 4, 6, 8, 10]
    );
    let a = solve(&["31"]).success();
    assert!(stdout(&a).contains("closed-form construction"));
}

#[test]
fn wide_boards_are_not_drawn() {
    let a = solve(&["65"]).success();
    let text = stdout(&a);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(Placement::new(parse_columns(lines[1])).is_solution());
    // Why it is not drawn is said once, on stderr (not under -q).
    let note = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(
        note.starts_with("nqueens: note: a 65 x 65 board is wider than 64"),
        "{note}"
    );
    assert_eq!(note.lines().count(), 1, "{note}");
    let quiet = solve(&["65", "-q"]).success();
    assert!(quiet.get_output().stderr.is_empty());
    assert_eq!(stdout(&quiet), text);
}

#[test]
fn a_million_queens_stream_out_and_pass_the_check() {
    let a = solve(&["1000000", "--format", "columns"]).success();
    let out = &a.get_output().stdout;
    assert_eq!(out.last(), Some(&b'\n'));
    let text = std::str::from_utf8(&out[..out.len() - 1]).unwrap();
    let columns = text.split(' ').map(|c| c.parse::<u32>().unwrap());
    assert_eq!(nqueens::construct::verify(1_000_000, columns), Ok(()));
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for bad in [
        &["abc"][..],
        &["-1"],
        &["100000001"],
        &[],
        &["8", "--format", "png"],
    ] {
        let a = solve(bad).code(2).stdout("");
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        assert!(err.starts_with("nqueens: error:"), "{bad:?}: {err}");
    }
}

/// Each image written is the library's image of the solution under its symmetry, and the
/// canonical form is the symmetry whose image is least, for searched and constructed boards
/// of both parities and every residue the construction treats apart.
#[test]
fn the_images_written_are_the_librarys() {
    use nqueens::board::{Solution, Symmetry};
    for (n, construct) in [(1, false), (5, false), (8, false), (12, false), (31, true)]
        .into_iter()
        .chain((100..112).map(|n| (n, true)))
    {
        let n = n.to_string();
        let mut args = vec![n.as_str(), "--all-symmetries", "--format", "json"];
        if construct {
            args.push("--construct");
        }
        let v = one_record(&stdout(&solve(&args).success()));
        let columns: Vec<u32> = serde_json::from_value(v["columns"].clone()).unwrap();
        let solution: Solution = Placement::new(columns).into_solution().unwrap();
        for (g, image) in Symmetry::ALL.iter().zip(v["images"].as_array().unwrap()) {
            assert_eq!(image["symmetry"], g.to_string(), "n = {n}");
            let written: Vec<u32> = serde_json::from_value(image["columns"].clone()).unwrap();
            assert_eq!(written, solution.image(*g).columns(), "n = {n}, {g}");
        }
        let (least, _) = solution.canonical_with_symmetry();
        assert_eq!(v["canonical"], least.to_string(), "n = {n}");
    }
}

/// The 8 images of a constructed solution of 4 million queens are written with two column lists
/// in memory (the solution and its inverse, 16 MB each), not eight images more: the command
/// runs under a 160 MB address-space limit and writes every image whole.
#[cfg(target_os = "linux")]
#[test]
fn all_symmetries_of_a_large_board_are_written_in_bounded_memory() {
    use std::io::Read;
    let mut command = crate::util::nqueens_process();
    command
        .args(["solve", "4000000", "--all-symmetries", "--format", "json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    crate::util::limit(&mut command, libc::RLIMIT_AS, 160 << 20);
    let mut child = command.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (mut commas, mut bytes, mut tail) = (0u64, 0u64, Vec::new());
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let read = stdout.read(&mut chunk).unwrap();
        if read == 0 {
            break;
        }
        commas += chunk[..read].iter().filter(|&&b| b == b',').count() as u64;
        bytes += read as u64;
        tail.extend_from_slice(&chunk[..read]);
        let keep = tail.len().saturating_sub(100);
        tail.drain(..keep);
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", crate::util::stderr(&out));
    // The columns and 8 images, 3,999,999 commas each, and the commas between the fields:
    // 4 between n, method, columns, images and canonical, one in each image and 7 between them.
    assert_eq!(commas, 9 * 3_999_999 + 4 + 8 + 7, "{bytes} bytes");
    let tail = String::from_utf8_lossy(&tail);
    assert!(tail.contains("]}],\"canonical\":\""), "{tail}");
}
