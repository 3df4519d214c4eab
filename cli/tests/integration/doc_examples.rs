//! The examples in README.md and docs/*.md print what the docs say, and their links lead somewhere.
//!
//! Every fenced block marked ```` ```console ```` is run: each `$ nqueens ARGS…` line is run with
//! the built binary (ARGS split on whitespace; a 'single-quoted' part keeps its spaces) and its
//! stdout is compared line by line with the lines that follow, up to the next `$` line or the end
//! of the block. In the expected lines, `...` alone on a line matches any number of lines and
//! `[..]` matches any text within a line; trailing whitespace and trailing blank lines are
//! ignored. The commands of one block run in order in one fresh directory, so a block can write a
//! file and read it back. Only `console` blocks are run: long or timing-dependent examples go in
//! `text` blocks, which are not checked.
//!
//! Every relative link (`[text](path)` or `[text](path#heading)`) must name a file or directory
//! that exists, and a heading that the linked Markdown file has.

use std::path::{Path, PathBuf};

/// The repository root.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// README.md and every Markdown file in docs/, in a fixed order; `None`, said on stderr, for a
/// packaged copy of the command, which has no repository around it.
fn doc_files() -> Option<Vec<PathBuf>> {
    // Unpacked from its tarball under `target/package/`, as CI tests a package.
    let packaged = root().ancestors().any(|a| a.ends_with("target/package"));
    if packaged && !root().join("docs").is_dir() {
        eprintln!("skipped: a packaged copy of the command has no repository docs to check");
        return None;
    }
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    let mut files = vec![root().join("README.md")];
    files.extend(docs);
    Some(files)
}

/// A fenced code block: its info string, the 1-based line of its first content line, and its
/// content lines.
struct Block {
    info: String,
    first_line: usize,
    lines: Vec<String>,
}

/// The fenced code blocks of a Markdown text (fences of three or more backticks or tildes).
fn fenced_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    // The open fence, its indentation (removed from the content lines, as in a list item) and
    // the block.
    let mut open: Option<(String, usize, Block)> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut open {
            None => {
                if let Some(fence) = fence_of(trimmed) {
                    let info = trimmed[fence.len()..].trim().to_string();
                    let block = Block {
                        info,
                        first_line: index + 2,
                        lines: Vec::new(),
                    };
                    open = Some((fence, indent, block));
                }
            }
            Some((fence, fence_indent, block)) => {
                if closes(fence, trimmed) {
                    blocks.push(open.take().unwrap().2);
                } else {
                    block
                        .lines
                        .push(line[indent.min(*fence_indent)..].to_string());
                }
            }
        }
    }
    if let Some((_, _, block)) = open {
        blocks.push(block); // an unclosed fence runs to the end of the document
    }
    blocks
}

/// The opening fence of `line` (already trimmed at the start), if it is one.
fn fence_of(line: &str) -> Option<String> {
    let first = line.chars().next().filter(|&c| c == '`' || c == '~')?;
    let fence: String = line.chars().take_while(|&c| c == first).collect();
    (fence.len() >= 3).then_some(fence)
}

/// Whether `line` (already trimmed at the start) closes a block opened by `fence`: the same
/// character, at least as many times, and nothing else.
fn closes(fence: &str, line: &str) -> bool {
    let line = line.trim_end();
    line.len() >= fence.len() && line.chars().all(|c| fence.starts_with(c))
}

/// One `$ nqueens …` line of a console block and the output it must print.
#[derive(Debug)]
struct Example {
    /// `file:line` of the `$` line.
    place: String,
    args: Vec<String>,
    expected: Vec<String>,
}

/// The examples of one console block, in order; an error names what the block does wrong.
fn examples_of(file: &str, block: &Block) -> Result<Vec<Example>, String> {
    let mut examples: Vec<Example> = Vec::new();
    for (offset, line) in block.lines.iter().enumerate() {
        let place = format!("{file}:{}", block.first_line + offset);
        if let Some(command) = line.strip_prefix("$ ") {
            let words = split_args(command).map_err(|e| format!("{place}: {e}"))?;
            let Some((program, args)) = words.split_first() else {
                return Err(format!("{place}: an empty command"));
            };
            if program != "nqueens" {
                return Err(format!(
                    "{place}: console blocks run only `nqueens …` commands, not {program:?}; \
                     put other shell lines in a text block"
                ));
            }
            examples.push(Example {
                place,
                args: args.to_vec(),
                expected: Vec::new(),
            });
        } else if let Some(example) = examples.last_mut() {
            example.expected.push(line.to_string());
        } else if !line.trim().is_empty() {
            return Err(format!(
                "{place}: output before the block's first `$ nqueens` line"
            ));
        }
    }
    Ok(examples)
}

/// Splits a command line on whitespace; a single-quoted part keeps its spaces. Anything a shell
/// would treat specially (pipes, redirections, substitutions, double quotes) is refused, so that
/// a console example means the same here as at a prompt.
fn split_args(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(q) => word.push(q),
                        None => return Err(format!("an unclosed quote in {command:?}")),
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '|' | '>' | '<' | ';' | '&' | '$' | '`' | '"' | '\\' | '*' | '?' => {
                return Err(format!(
                    "{c:?} in {command:?}: console examples are run without a shell; \
                     put shell lines in a text block"
                ));
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Whether one line matches its expected form, where `[..]` matches any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split("[..]").collect();
    let (first, rest) = parts.split_first().unwrap();
    let Some(mut remaining) = actual.strip_prefix(first) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        return remaining.is_empty();
    };
    for part in middle {
        match remaining.find(part) {
            Some(at) => remaining = &remaining[at + part.len()..],
            None => return false,
        }
    }
    remaining.ends_with(last)
}

/// Whether the actual lines match the expected ones, where a line `...` matches any number of
/// lines (none included).
fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    // matches[i][j]: expected[i..] matches actual[j..].
    let mut matches = vec![vec![false; actual.len() + 1]; expected.len() + 1];
    matches[expected.len()][actual.len()] = true;
    for i in (0..expected.len()).rev() {
        for j in (0..=actual.len()).rev() {
            matches[i][j] = if expected[i].trim() == "..." {
                matches[i + 1][j] || (j < actual.len() && matches[i][j + 1])
            } else {
                j < actual.len() && line_matches(expected[i], actual[j]) && matches[i + 1][j + 1]
            };
        }
    }
    matches[0][0]
}

/// Lines without trailing whitespace, without trailing blank lines.
fn normalized<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut lines: Vec<&str> = lines.into_iter().map(str::trim_end).collect();
    while lines.last().is_some_and(|line| line.is_empty()) {
        lines.pop();
    }
    lines
}

/// Runs one example in `dir`; an error shows what differs.
fn check(example: &Example, dir: &Path) -> Result<(), String> {
    let out = crate::util::nqueens_process()
        .args(&example.args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("{}: cannot run nqueens: {e}", example.place))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let command = format!("nqueens {}", example.args.join(" "));
    if out.status.code().is_none() || stderr.contains("panicked") {
        return Err(format!(
            "{}: `{command}` crashed ({}):\n{stderr}",
            example.place, out.status
        ));
    }
    let expected = normalized(example.expected.iter().map(String::as_str));
    let actual = normalized(stdout.lines());
    if lines_match(&expected, &actual) {
        Ok(())
    } else {
        Err(format!(
            "{}: `{command}` printed something else.\n--- expected\n{}\n--- printed\n{}\n--- stderr\n{stderr}",
            example.place,
            expected.join("\n"),
            actual.join("\n"),
        ))
    }
}

#[test]
fn console_examples_print_what_the_docs_show() {
    let mut failures = Vec::new();
    let mut run = 0;
    let Some(files) = doc_files() else { return };
    for path in files {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for block in fenced_blocks(&text).iter().filter(|b| b.info == "console") {
            let examples = match examples_of(&name, block) {
                Ok(examples) => examples,
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            };
            if examples.is_empty() {
                failures.push(format!(
                    "{name}:{}: a console block without `$ nqueens`",
                    block.first_line
                ));
            }
            let dir = tempfile::tempdir().unwrap();
            for example in &examples {
                run += 1;
                if let Err(e) = check(example, dir.path()) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(
        run >= 20,
        "only {run} console examples found: is the parser broken?"
    );
    assert!(
        failures.is_empty(),
        "{} of {run} examples failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The targets of the inline links `[text](target)` of a Markdown text, outside code.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    let mut fence: Option<String> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(open) = &fence {
            if closes(open, trimmed) {
                fence = None;
            }
            continue;
        }
        if let Some(open) = fence_of(trimmed) {
            fence = Some(open);
            continue;
        }
        if line.starts_with("    ") {
            continue; // an indented code block (or a continuation; links there are rare)
        }
        // Drop inline code spans, then look for `](`.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or("");
            targets.push((index + 1, target.to_string()));
            rest = &after[end..];
        }
    }
    targets
}

/// The anchors GitHub gives the headings of a Markdown text: lower case, punctuation dropped
/// (but `-` and `_`), spaces as `-`.
fn heading_anchors(text: &str) -> Vec<String> {
    let mut anchors = Vec::new();
    let mut fence: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(open) = &fence {
            if closes(open, trimmed) {
                fence = None;
            }
            continue;
        }
        if let Some(open) = fence_of(trimmed) {
            fence = Some(open);
            continue;
        }
        if let Some(heading) = line.strip_prefix('#') {
            let title = heading.trim_start_matches('#').trim();
            let anchor: String = title
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            anchors.push(anchor);
        }
    }
    anchors
}

#[test]
fn relative_links_point_to_existing_files_and_headings() {
    let mut broken = Vec::new();
    let mut checked = 0;
    let Some(files) = doc_files() else { return };
    for path in files {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for (line, target) in link_targets(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if file.is_empty() {
                path.clone()
            } else {
                path.parent().unwrap().join(file)
            };
            if !linked.exists() {
                broken.push(format!("{name}:{line}: {target}: no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let is_markdown = linked.extension().is_some_and(|ext| ext == "md");
            let headings = std::fs::read_to_string(&linked)
                .map(|linked_text| heading_anchors(&linked_text))
                .unwrap_or_default();
            if is_markdown && !headings.iter().any(|h| h == anchor) {
                broken.push(format!("{name}:{line}: {target}: no such heading"));
            }
        }
    }
    assert!(
        checked >= 4,
        "only {checked} relative links found: is the parser broken?"
    );
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_matcher_knows_its_wildcards() {
    assert!(line_matches("n = 8", "n = 8"));
    assert!(!line_matches("n = 8", "n = 80"));
    assert!(line_matches("time [..] s", "time 0.003 s"));
    assert!(line_matches("[..]", ""));
    assert!(line_matches("a[..]b[..]c", "a-b-b-c"));
    assert!(!line_matches("a[..]b[..]c", "a-c-b"));
    assert!(!line_matches("ab[..]ba", "aba"));
    assert!(lines_match(&["a", "...", "d"], &["a", "b", "c", "d"]));
    assert!(lines_match(&["a", "...", "b"], &["a", "b"]));
    assert!(lines_match(&["..."], &[]));
    assert!(!lines_match(&["a", "...", "d"], &["a", "b", "c"]));
    assert!(!lines_match(&["a", "b"], &["a", "b", "c"]));
    assert!(!lines_match(&["a", "b", "c"], &["a", "b"]));
    assert_eq!(
        split_args("count 8 --format csv").unwrap(),
        ["count", "8", "--format", "csv"]
    );
    assert_eq!(split_args("  a 'b c'd  ''").unwrap(), ["a", "b cd", ""]);
    assert!(split_args("list 8 | wc -l").is_err());
    assert!(split_args("a 'b").is_err());
    assert_eq!(
        heading_anchors("# A\n## Kernels: `--kernel`\n```\n# not a heading\n```\n### Q(28) ≈ 2.5"),
        ["a", "kernels---kernel", "q28--25"]
    );
}
