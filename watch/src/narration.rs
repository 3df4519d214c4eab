//! The words of the narration, the one sentence under the board on every step: each sentence
//! here once, with blanks in braces (`{row}`), filled by [`say`] for the terminal view, the
//! frames and the JSON lines, and handed to the `--html` page (in its data), whose script fills
//! the same blanks from its steps. Which sentence a step says is the model's
//! (`Model::narration`) and the page's choice alike; the words are only here.

use nqueens::classic::Line;

/// Every sentence and phrase of the narration, by name.
pub const SENTENCES: [(&str, &str); 28] = [
    (
        "done",
        "done: every column of row 0 was tried, {found} found",
    ),
    (
        "start",
        "row 0: the search starts on an empty {n} x {n} board",
    ),
    (
        "reject",
        "row {row}: column {col} is attacked {along} by the queen on row {by} ({how})",
    ),
    ("along_column", "along its ↓ column"),
    (
        "along_line",
        "along a {arrow} {line} ({equation} = {constant})",
    ),
    ("how_matrix", "its cell is marked attacked"),
    ("how_array", "queens[{by}] = {by_col} is on it"),
    ("how_attack_column", "cols[{col}] is set"),
    ("how_attack_diagonal", "diffs[{index}] is set"),
    ("how_attack_anti_diagonal", "sums[{index}] is set"),
    ("how_bitmask", "bit {col} of {mask} is set"),
    ("how_other", "the queen at ({by}, {by_col}) attacks it"),
    (
        "place_bitmask",
        "row {row}: free = ~(cols | ld | rd) has {columns} {listed}{tried}; the lowest bit \
         left, column {col}, gets the queen: {then}",
    ),
    ("tried_before", ", {tried} tried before"),
    ("one_column", "column"),
    ("columns", "columns"),
    ("bit", "bit"),
    ("then_last", "the last queen"),
    ("then_next", "on to row {next}"),
    (
        "place_last",
        "row {row}: column {col} is free: the last queen",
    ),
    (
        "place",
        "row {row}: column {col} is free: queen placed, on to row {next}",
    ),
    (
        "solution",
        "solution {solutions}: every row has a queen ({queens})",
    ),
    (
        "remove_last",
        "row {row}: queen taken back from column {col}, {next}",
    ),
    ("next_bit", "the next free bit"),
    ("next_column", "next column"),
    (
        "remove",
        "row {below} {empty}: back to row {row}, queen taken back from column {col}",
    ),
    ("no_bit", "has no free bit left"),
    ("no_square", "has no free square left"),
];

/// The sentence named `name` ([`SENTENCES`]).
fn sentence(name: &str) -> &'static str {
    SENTENCES
        .iter()
        .find(|(key, _)| *key == name)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("no sentence {name}"))
}

/// The sentence named `name` with each of its blanks (`{key}`) filled with the value given.
pub fn say(name: &str, blanks: &[(&str, &dyn std::fmt::Display)]) -> String {
    let text = sentence(name);
    let mut said = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        said.push_str(&rest[..open]);
        let close = open + rest[open..].find('}').expect("a closed blank");
        let key = &rest[open + 1..close];
        let (_, value) = blanks
            .iter()
            .find(|(name, _)| *name == key)
            .unwrap_or_else(|| panic!("no value for {{{key}}}"));
        said.push_str(&value.to_string());
        rest = &rest[close + 1..];
    }
    said.push_str(rest);
    said
}

/// How a rejected square is attacked: `along its ↓ column`, `along a ↘ diagonal (row −
/// column = 2)`.
pub fn along(line: Line, square: (usize, usize)) -> String {
    match line {
        Line::Column => say("along_column", &[]),
        Line::Diagonal | Line::AntiDiagonal => say(
            "along_line",
            &[
                ("arrow", &line.arrow()),
                ("line", &line),
                ("equation", &line.equation()),
                ("constant", &line.constant(square)),
            ],
        ),
    }
}

/// The lines as the page names them: per line (column, diagonal, anti-diagonal), its name,
/// arrow and equation.
pub fn lines() -> [[String; 3]; 3] {
    [Line::Column, Line::Diagonal, Line::AntiDiagonal].map(|line| {
        [
            line.to_string(),
            line.arrow().into(),
            line.equation().into(),
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_blank_is_filled_once_and_names_are_unique() {
        assert_eq!(
            say("start", &[("n", &8)]),
            "row 0: the search starts on an empty 8 x 8 board"
        );
        let mut names: Vec<&str> = SENTENCES.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SENTENCES.len());
    }
}
