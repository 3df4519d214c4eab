//! `watch --html FILE`: one self-contained page that replays the search in a browser.
//!
//! The page holds the steps exactly as `--format json` writes them (the same events, counters
//! and narration as the terminal view) and, per step, the data panel's text, in one inline
//! JSON block; its inline script rebuilds the board from the events and shows each step, with
//! play/pause, step, back, a position slider and the speed ladder of the terminal view. No
//! server, no network, nothing to build: the file opens as it is. `#step=K` in the address
//! opens it paused at step K, `#speed=S` sets the speed (one of the ladder's) and `#play`
//! starts it (for links from a course page, and for the tests).

use std::collections::HashMap;
use std::path::Path;

use serde_json::json;

use super::model::Model;
use super::screen::SPEEDS;
use crate::args::WatchArgs;
use crate::{Failure, Outcome, output};

/// The most steps one page holds (about 30 MB of page, and some 600 MB of memory while it is
/// written): `--max-steps 0` keeps the steps up to this many, and a larger `--max-steps` is
/// refused before the search starts (`--frames` and `--format json` write any number).
pub const PAGE_MAX_STEPS: u64 = 100_000;

/// The steps the page of `args` keeps at most: `--max-steps`, where 0 means [`PAGE_MAX_STEPS`];
/// a usage error where `--max-steps` asks for more than a page holds.
pub fn page_steps(max_steps: u64) -> Result<u64, Failure> {
    match max_steps {
        0 => Ok(PAGE_MAX_STEPS),
        m if m > PAGE_MAX_STEPS => Err(Failure::Usage(format!(
            "--html: a page holds at most {PAGE_MAX_STEPS} steps, not --max-steps {m} (give \
             --max-steps {PAGE_MAX_STEPS} or less, or write the steps with --format json)"
        ))),
        m => Ok(m),
    }
}

/// Writes the page of `args`' search to `path` (through the tool's safe replace).
pub fn write(args: &WatchArgs, path: &Path) -> Result<Outcome, Failure> {
    let max_steps = page_steps(args.max_steps)?;
    output::check_replaceable(path, "the page")?;
    let (steps, complete) = super::json_steps(args, max_steps)?;
    let page = page(args, &steps, complete);
    output::replace_files(&[(path, page.as_bytes())], "the page")?;
    if !complete {
        output::message(format_args!(
            "nqueens: the page stops after {max_steps} steps (--max-steps; a page holds at most \
             {PAGE_MAX_STEPS}, --format json writes every step)"
        ));
    }
    Ok(Outcome::Success)
}

/// The data panel's text at each step, as a table of distinct texts and an index per step
/// (many steps share one), rebuilt by replaying the same search.
fn structures(args: &WatchArgs, steps: usize) -> (Vec<String>, Vec<usize>, String) {
    struct Panels {
        model: Model,
        texts: Vec<String>,
        seen: HashMap<String, usize>,
        index: Vec<usize>,
        wanted: usize,
    }
    impl Panels {
        fn keep(&mut self) {
            let text = self.model.structure().join("\n");
            let next = self.texts.len();
            let i = *self.seen.entry(text.clone()).or_insert(next);
            if i == next {
                self.texts.push(text);
            }
            self.index.push(i);
        }
    }
    impl nqueens::classic::Observer for Panels {
        fn event(&mut self, event: nqueens::classic::Event) {
            if self.index.len() <= self.wanted && self.model.apply(event) {
                self.keep();
            }
        }
        fn stop(&self) -> bool {
            self.index.len() > self.wanted
        }
    }
    let mut panels = Panels {
        model: Model::new(args.n, args.algorithm),
        texts: Vec::new(),
        seen: HashMap::new(),
        index: Vec::new(),
        wanted: steps,
    };
    panels.keep(); // step 0, the empty board
    // The search is the one that gave the steps; it cannot fail now.
    let _ = args.algorithm.watch(args.n, &mut panels);
    // The end: the search is over.
    panels.model.finished = true;
    panels.keep();
    (panels.texts, panels.index, panels.model.narration())
}

/// The whole page.
fn page(args: &WatchArgs, steps: &[serde_json::Value], complete: bool) -> String {
    let (texts, index, end) = structures(args, steps.len());
    let model = Model::new(args.n, args.algorithm);
    let data = json!({
        "n": args.n,
        "algorithm": args.algorithm.to_string(),
        "total": model.total.map(|t| t.to_string()),
        "complete": complete,
        "start": model.narration(),
        "end": end,
        "steps": steps,
        "panels": texts,
        "panel": index,
        "speeds": SPEEDS,
        "speed": args.speed.unwrap_or(super::DEFAULT_SPEED),
    });
    // `<` only occurs inside the JSON's strings, where \u003c means the same: no `</script>`.
    let data = data.to_string().replace('<', "\\u003c");
    let title = format!("nqueens watch {} -a {}", args.n, args.algorithm);
    TEMPLATE
        .replace("{{TITLE}}", &title)
        .replace("{{DATA}}", &data)
}

/// The page, with `{{TITLE}}` and `{{DATA}}` to fill.
const TEMPLATE: &str = include_str!("page.html");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watch_page_steps_are_bounded_by_the_most_a_page_holds() {
        assert_eq!(page_steps(0).unwrap(), PAGE_MAX_STEPS);
        assert_eq!(page_steps(17).unwrap(), 17);
        assert_eq!(page_steps(PAGE_MAX_STEPS).unwrap(), PAGE_MAX_STEPS);
        for asked in [PAGE_MAX_STEPS + 1, u64::MAX] {
            match page_steps(asked) {
                Err(Failure::Usage(text)) => {
                    assert!(text.contains(&PAGE_MAX_STEPS.to_string()), "{text}");
                    assert!(!text.contains('\n'), "{text}");
                }
                other => panic!("{asked}: {other:?}"),
            }
        }
    }
}
