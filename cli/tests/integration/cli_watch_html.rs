//! `nqueens watch --html FILE`: the page replays the search in a real browser. Headless
//! Chromium loads it at a step (`#step=K`) or plays it for a while, and the counters, the
//! narration and the data panel it shows are those of `watch --format json` at that step; it
//! also takes a screenshot.
//!
//! Chromium must be installed (`.ci/run` installs Debian's `chromium`). Without it the tests
//! say on stderr that they skipped, unless `NQUEENS_REQUIRE_CHROMIUM=1` (set by `.ci/run`)
//! makes that a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{grouped, nqueens};

/// The Chromium binary, if installed; without it the test says on stderr that it skipped,
/// unless `NQUEENS_REQUIRE_CHROMIUM=1` makes that a failure.
fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser"].into_iter().find(|name| {
        Command::new(name)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if found.is_none() {
        assert!(
            !std::env::var("NQUEENS_REQUIRE_CHROMIUM").is_ok_and(|v| v == "1"),
            "chromium is not installed, and NQUEENS_REQUIRE_CHROMIUM=1 requires the browser \
             tests of watch --html: install it (apt-get install chromium)"
        );
        eprintln!(
            "skipped: the browser tests of watch --html need chromium, which is not installed \
             (NQUEENS_REQUIRE_CHROMIUM=1 makes this a failure)"
        );
    }
    found
}

/// The page's DOM at step `k` (`page#step=K`), as headless Chromium dumps it.
fn dom_at_step(browser: &str, dir: &Path, page: &Path, k: usize) -> String {
    headless(browser, dir, page, &format!("step={k}"), &["--dump-dom"])
}

/// Runs headless Chromium on `page#hash` with `args`, its profile in `dir`, for at most a
/// minute; its standard output.
fn headless(browser: &str, dir: &Path, page: &Path, hash: &str, args: &[&str]) -> String {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .args(args)
        .arg(format!("file://{}#{hash}", page.display()))
        .env("HOME", dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = crate::util::read_rest_on_a_thread(child.stdout.take().unwrap());
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("chromium did not end within a minute");
        }
        sleep(Duration::from_millis(50));
    }
    out.recv_timeout(Duration::from_secs(10)).unwrap()
}

/// The text of the element with `id` in a dumped DOM (no nested elements), unescaped.
fn text_of(dom: &str, id: &str) -> String {
    let marker = format!("id=\"{id}\">");
    let at = dom
        .find(&marker)
        .unwrap_or_else(|| panic!("no #{id} in the page:\n{dom}"));
    let rest = &dom[at + marker.len()..];
    rest[..rest.find('<').unwrap()]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The page of `watch ARGS --html` in `dir`, and the JSON steps of `watch ARGS`.
fn page_and_steps(dir: &Path, args: &[&str]) -> (PathBuf, Vec<Value>) {
    let page = dir.join("watch.html");
    let output = nqueens()
        .arg("watch")
        .args(args)
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let output = nqueens()
        .arg("watch")
        .args(args)
        .args(["--format", "json", "--max-steps", "0"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let steps = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (page, steps)
}

/// The page at its step shows the counters and the narration of that JSON step.
fn assert_shows(dom: &str, step: &Value) {
    for key in [
        "step",
        "nodes",
        "candidates",
        "diagonal_checks",
        "solutions",
    ] {
        assert_eq!(text_of(dom, key), step[key].to_string(), "{key} at {step}");
    }
    if let Some(narration) = step["narration"].as_str() {
        assert_eq!(text_of(dom, "narration"), narration);
    }
}

#[test]
fn the_page_shows_each_step_as_the_json_events_and_plays_and_takes_a_screenshot() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (page, steps) = page_and_steps(dir.path(), &["6"]);
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: no file or address is loaded from anywhere.
    for outside in ["src=", "href=", "http:", "https:", "@import", "url("] {
        assert!(!html.contains(outside), "the page loads {outside}");
    }
    let done = steps.last().unwrap();
    assert_eq!(done["event"], "done");
    let last = steps.len() - 1; // the steps before "done"
    for k in [1, 2, 3, 40, last / 2, last] {
        let dom = dom_at_step(browser, dir.path(), &page, k);
        assert_shows(&dom, &steps[k - 1]);
    }
    // Step 3 rejects (1,1) along the ↘ diagonal of the queen on (0,0): the page marks them.
    let dom = dom_at_step(browser, dir.path(), &page, 3);
    assert!(
        dom.contains("row 1: column 1 is attacked along a ↘ diagonal"),
        "{dom}"
    );
    assert!(
        text_of(&dom, "data").contains("queens  0 - - - - -"),
        "{dom}"
    );
    // Past the last step: the end, with the final counters.
    let dom = dom_at_step(browser, dir.path(), &page, last + 1);
    assert_eq!(text_of(&dom, "solutions"), "4");
    assert!(text_of(&dom, "narration").starts_with("done:"), "{dom}");
    // Played at 50 steps per second for 2 s of the page's time: it moved on, and shows the
    // step it reached as the JSON does.
    let dom = headless(
        browser,
        dir.path(),
        &page,
        "speed=50&play",
        &["--virtual-time-budget=2000", "--dump-dom"],
    );
    let reached: usize = text_of(&dom, "step").parse().unwrap();
    assert!(reached > 10 && reached < last, "reached step {reached}");
    assert_shows(&dom, &steps[reached - 1]);
    // A screenshot of a step.
    let png = dir.path().join("watch.png");
    headless(
        browser,
        dir.path(),
        &page,
        "step=45",
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1100,720",
            "--hide-scrollbars",
        ],
    );
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(
        bytes.len() > 10_000,
        "{} bytes: an empty page?",
        bytes.len()
    );
}

#[test]
fn the_bitmask_page_steps_by_queen_with_the_rejected_squares() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (page, steps) = page_and_steps(dir.path(), &["5", "-a", "bitmask"]);
    let k = steps
        .iter()
        .position(|s| s["rejected"].as_array().is_some_and(|r| r.len() >= 2))
        .unwrap()
        + 1;
    let dom = dom_at_step(browser, dir.path(), &page, k);
    assert_shows(&dom, &steps[k - 1]);
    assert!(text_of(&dom, "data").contains("free     "), "{dom}");
    // Each rejected square is drawn as one.
    let rejected =
        dom.matches("cell light rejected").count() + dom.matches("cell dark rejected").count();
    assert_eq!(
        rejected,
        steps[k - 1]["rejected"].as_array().unwrap().len(),
        "{dom}"
    );
}

/// The data panel of each step of `watch ARGS --frames`, from step 0 (the lines after the
/// counters, up to the next frame).
fn panels_of_frames(args: &[&str]) -> Vec<String> {
    let output = nqueens()
        .arg("watch")
        .args(args)
        .args(["--frames", "--max-steps", "0"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    // The end's narration and counters follow the last frame.
    let text = &text[..text.rfind("\ndone: ").unwrap() + 1];
    text.split("--- step ")
        .skip(1)
        .map(|frame| {
            let lines: Vec<&str> = frame.lines().collect();
            let counters = lines.iter().position(|l| l.starts_with("nodes ")).unwrap();
            lines[counters + 1..].join("\n")
        })
        .collect()
}

#[test]
fn every_algorithms_page_shows_the_narration_panel_and_counters_of_its_steps() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for algorithm in ["matrix", "array", "attack", "bitmask"] {
        // 6: the attack flags' ruler has a line of tens.
        let args = ["6", "-a", algorithm];
        let (page, steps) = page_and_steps(dir.path(), &args);
        let panels = panels_of_frames(&args);
        let last = steps.len() - 1;
        // A rejection on each line, a backtrack, a solution, and the last step.
        let first = |want: &dyn Fn(&Value) -> bool| steps.iter().position(want).map(|i| i + 1);
        let mut at: Vec<usize> = [
            first(&|s| s["line"] == "diagonal"),
            first(&|s| s["line"] == "anti-diagonal"),
            first(&|s| s["event"] == "backtrack"),
            first(&|s| s["event"] == "solution"),
            first(&|s| s["rejected"].as_array().is_some_and(|r| r.len() > 2)),
            Some(last),
        ]
        .into_iter()
        .flatten()
        .collect();
        at.dedup();
        for k in at {
            let dom = dom_at_step(browser, dir.path(), &page, k);
            assert_shows(&dom, &steps[k - 1]);
            assert_eq!(text_of(&dom, "data"), panels[k], "{algorithm} step {k}");
            assert_eq!(text_of(&dom, "where"), format!("step {k} of {last}"));
        }
        // The start and the end: the steps counted as the help counts them.
        let dom = dom_at_step(browser, dir.path(), &page, 0);
        assert_eq!(text_of(&dom, "where"), format!("step 0 of {last}"));
        let dom = dom_at_step(browser, dir.path(), &page, last + 1);
        assert_eq!(
            text_of(&dom, "where"),
            format!("step {last} of {last}, done")
        );
        assert_eq!(text_of(&dom, "step"), last.to_string());
        assert_eq!(text_of(&dom, "solutions"), "4");
    }
}

#[test]
fn the_page_counts_the_steps_the_help_promises() {
    let Some(browser) = chromium() else {
        return;
    };
    let help = nqueens().args(["watch", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("4204 with bitmask"), "{help}");
    let dir = tempfile::tempdir().unwrap();
    let (page, _) = page_and_steps(dir.path(), &["8", "-a", "bitmask"]);
    let dom = dom_at_step(browser, dir.path(), &page, 0);
    assert_eq!(text_of(&dom, "where"), "step 0 of 4204");
    let dom = dom_at_step(browser, dir.path(), &page, 4205);
    assert_eq!(text_of(&dom, "where"), "step 4204 of 4204, done");
}

#[test]
fn a_page_that_cannot_be_written_is_a_one_line_error_and_nothing_is_left() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/watch.html");
    let output = nqueens()
        .args(["watch", "5", "--html"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot write the page"), "{stderr}");
    // --html and --cast are one or the other.
    let output = nqueens()
        .args(["watch", "5", "--cast"])
        .arg(dir.path().join("w.cast"))
        .arg("--html")
        .arg(dir.path().join("w.html"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(!dir.path().join("w.cast").exists());
    assert!(!dir.path().join("w.html").exists());
}

/// Runs `nqueens ARGS` under a memory limit and waits for it (a minute at most, a guard
/// against a run without end, not a measurement): its output.
fn bounded_run(args: &[&str]) -> std::process::Output {
    let mut command = crate::util::nqueens_process();
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    crate::util::limit(&mut command, libc::RLIMIT_AS, 4 << 30);
    let mut child = command.spawn().unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nqueens {args:?} did not end within a minute");
        }
        sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_page_of_every_step_stops_at_the_most_a_page_holds_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("big.html");
    let page_arg = page.to_str().unwrap();
    let output = bounded_run(&["watch", "20", "--html", page_arg, "--max-steps", "0"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(
        stderr.contains("the page stops after 1000000 steps") && stderr.contains("at most 1000000"),
        "{stderr}"
    );
    assert!(stderr.contains("(1,000,000 steps, "), "{stderr}");
    // A few bytes a step.
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 10 << 20, "a page of {size} bytes");
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(
        text.contains("\"complete\":false"),
        "the page does not say it stops"
    );

    // A small board's page still holds every step with --max-steps 0.
    let output = bounded_run(&["watch", "5", "--html", page_arg, "--max-steps", "0"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("big.html (283 steps, "), "{stderr}");
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(text.contains("\"complete\":true"));
}

#[test]
fn a_page_asked_for_more_steps_than_it_holds_is_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("big.html");
    let page_arg = page.to_str().unwrap();
    for steps in ["1000001", "18446744073709551615"] {
        let output = bounded_run(&["watch", "20", "--html", page_arg, "--max-steps", steps]);
        let err = crate::util::usage_error_in(&output);
        assert!(err.starts_with("nqueens: error: --html: "), "{err}");
        assert!(err.contains("at most 1000000 steps"), "{err}");
        assert!(!page.exists());
    }
    // The most a page holds is taken as it is.
    let output = bounded_run(&["watch", "4", "--html", page_arg, "--max-steps", "1000000"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(page.exists());
}

#[test]
fn the_page_says_where_it_went_and_how_big_it_is_and_stays_small() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("w12.html");
    let page_arg = page.to_str().unwrap();
    // The 12 x 12 board's first 100000 steps (the default --max-steps).
    let output = bounded_run(&["watch", "12", "--html", page_arg]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 2_000_000, "a page of {size} bytes");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let wrote = stderr.lines().last().unwrap();
    assert_eq!(
        wrote,
        format!(
            "nqueens: wrote {page_arg} (100,000 steps, {} bytes)",
            grouped(size)
        )
    );
    // The bitmask's steps carry the squares its masks rejected, and stay small too.
    let output = bounded_run(&["watch", "12", "-a", "bitmask", "--html", page_arg]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 2_000_000, "a bitmask page of {size} bytes");
    // --quiet: nothing on stderr, the page all the same.
    std::fs::remove_file(&page).unwrap();
    let output = bounded_run(&["-q", "watch", "6", "--html", page_arg]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
    assert!(page.exists());
}
