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

/// Writes the page of `args`' search to `path` (through the tool's safe replace).
pub fn write(args: &WatchArgs, path: &Path) -> Result<Outcome, Failure> {
    output::check_replaceable(path, "the page")?;
    let (steps, complete) = super::json_steps(args)?;
    let page = page(args, &steps, complete);
    output::replace_files(&[(path, page.as_bytes())], "the page")?;
    if !complete {
        output::message(format_args!(
            "nqueens: the page stops after {} steps (--max-steps; 0 keeps every step)",
            args.max_steps
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
