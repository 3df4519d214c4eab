//! A refused command line, as clap words it, on one line: what clap cannot do itself.
//!
//! Clap writes its message, a tip or two, the usage and a pointer to `--help` on several lines;
//! every error of nqueens is one line (`nqueens: error: …`). [`one_line`] keeps clap's message and
//! tips, and points to the help of the subcommand the usage names. Before that, [`hint`] puts
//! right the tips clap gets wrong for this command line: a board given without a subcommand
//! (`nqueens 16`), `--unique` where the unique count is printed already, and the `-- -x` tip
//! (no value of nqueens starts with a hyphen).

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};

use nqueens_ui::human;

/// The line that refuses `e` (without the `nqueens: error:` prefix), with the hints of [`hint`]
/// (`args`: the arguments parsed, the program's name first): clap's message and tips, made from
/// the error's kind and context as clap words them, each line of them joined into one, then the
/// help to read.
pub fn one_line(mut e: clap::Error, args: &[OsString]) -> String {
    if e.kind() == ErrorKind::InvalidUtf8 || names_a_word_that_is_not_utf8(&e, args) {
        return not_utf8(args);
    }
    let help = match e.remove(ContextKind::Usage) {
        Some(usage) => help_in_usage(&usage.to_string()),
        None => help_for(args),
    };
    hint(&mut e, &help);
    let mut lines = message(&e);
    lines.extend(tips(&e));
    let mut message = String::new();
    for line in lines.iter().map(|line| line.trim()) {
        if line.is_empty() {
            continue;
        }
        if !message.is_empty() {
            let glue = message.ends_with(':') || line.starts_with('[');
            message.push_str(if glue { " " } else { "; " });
        }
        message.push_str(line);
    }
    if message.is_empty() {
        message.push_str("invalid arguments");
    }
    format!("{message} (see '{help}')")
}

/// The message of `e` as clap words it for its kind and context, a line at a time (an
/// argument's possible values, the arguments missing, on lines of their own): the command's
/// own words (`args::parse::refusal`) where it has them.
fn message(e: &clap::Error) -> Vec<String> {
    if let Some(ContextValue::String(why)) = e.get(ContextKind::Custom) {
        return vec![why.clone()];
    }
    let arg = text(e, ContextKind::InvalidArg);
    let mut lines = match e.kind() {
        ErrorKind::ArgumentConflict => conflict(e),
        ErrorKind::NoEquals => arg
            .map(|arg| format!("equal sign is needed when assigning values to '{arg}'"))
            .into_iter()
            .collect(),
        ErrorKind::InvalidSubcommand => text(e, ContextKind::InvalidSubcommand)
            .map(|sub| format!("unrecognized subcommand '{sub}'"))
            .into_iter()
            .collect(),
        ErrorKind::MissingRequiredArgument => match e.get(ContextKind::InvalidArg) {
            Some(ContextValue::Strings(missing)) => {
                let mut lines =
                    vec!["the following required arguments were not provided:".to_string()];
                lines.extend(missing.iter().cloned());
                lines
            }
            _ => Vec::new(),
        },
        ErrorKind::MissingSubcommand => match text(e, ContextKind::InvalidSubcommand) {
            Some(sub) => {
                let mut lines = vec![format!(
                    "'{sub}' requires a subcommand but one was not provided"
                )];
                lines.extend(listed("subcommands", e.get(ContextKind::ValidSubcommand)));
                lines
            }
            None => Vec::new(),
        },
        ErrorKind::UnknownArgument => arg
            .map(|arg| format!("unexpected argument '{arg}' found"))
            .into_iter()
            .collect(),
        _ => about_values(e),
    };
    if lines.is_empty() {
        lines.push(match (e.kind().as_str(), std::error::Error::source(e)) {
            (Some(kind), _) => kind.to_string(),
            (None, Some(source)) => source.to_string(),
            (None, None) => "unknown cause".to_string(),
        });
    }
    lines
}

/// The text `e` holds as `kind`, if any.
fn text(e: &clap::Error, kind: ContextKind) -> Option<&str> {
    match e.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    }
}

/// The number `e` holds as `kind`, if any.
fn number(e: &clap::Error, kind: ContextKind) -> Option<isize> {
    match e.get(kind) {
        Some(ContextValue::Number(n)) => Some(*n),
        _ => None,
    }
}

/// Clap's message for a value refused (of the kinds about values; none for the others): the
/// value and the argument, why, and the possible values.
fn about_values(e: &clap::Error) -> Vec<String> {
    let were_provided = |n: isize| match n > 1 {
        true => "were provided",
        false => "was provided",
    };
    let arg = text(e, ContextKind::InvalidArg);
    let value = text(e, ContextKind::InvalidValue);
    let actual = number(e, ContextKind::ActualNumValues);
    match (e.kind(), arg) {
        (ErrorKind::InvalidValue, Some(arg)) => {
            let first = match value {
                Some("") => format!("a value is required for '{arg}' but none was supplied"),
                Some(value) => format!("invalid value '{value}' for '{arg}'"),
                None => return Vec::new(),
            };
            let mut lines = vec![first];
            lines.extend(listed("possible values", e.get(ContextKind::ValidValue)));
            lines
        }
        (ErrorKind::TooManyValues, Some(arg)) => value
            .map(|value| {
                format!("unexpected value '{value}' for '{arg}' found; no more were expected")
            })
            .into_iter()
            .collect(),
        (ErrorKind::TooFewValues, Some(arg)) => match (actual, number(e, ContextKind::MinValues)) {
            (Some(actual), Some(min)) => vec![format!(
                "{min} values required by '{arg}'; only {actual} {}",
                were_provided(actual)
            )],
            _ => Vec::new(),
        },
        (ErrorKind::ValueValidation, Some(arg)) => value
            .map(|value| {
                let mut line = format!("invalid value '{value}' for '{arg}'");
                if let Some(source) = std::error::Error::source(e) {
                    line += &format!(": {source}");
                }
                line
            })
            .into_iter()
            .collect(),
        (ErrorKind::WrongNumberOfValues, Some(arg)) => {
            match (actual, number(e, ContextKind::ExpectedNumValues)) {
                (Some(actual), Some(expected)) => vec![format!(
                    "{expected} values required for '{arg}' but {actual} {}",
                    were_provided(actual)
                )],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// Clap's message for two arguments that cannot go together, or one given twice.
fn conflict(e: &clap::Error) -> Vec<String> {
    let mut prior = e.get(ContextKind::PriorArg);
    let mut line = match (
        text(e, ContextKind::InvalidArg),
        text(e, ContextKind::InvalidSubcommand),
    ) {
        (Some(arg), _) => {
            if text(e, ContextKind::PriorArg) == Some(arg) {
                prior = None;
                format!("the argument '{arg}' cannot be used multiple times")
            } else {
                format!("the argument '{arg}' cannot be used with")
            }
        }
        (_, Some(sub)) => {
            format!("the subcommand '{sub}' cannot be used with")
        }
        _ => e.kind().as_str().unwrap_or_default().to_string(),
    };
    match prior {
        Some(ContextValue::Strings(priors)) => {
            line.push(':');
            std::iter::once(line)
                .chain(priors.iter().cloned())
                .collect()
        }
        Some(ContextValue::String(prior)) => vec![format!("{line} '{prior}'")],
        Some(_) => vec![format!(
            "{line} one or more of the other specified arguments"
        )],
        None => vec![line],
    }
}

/// `[possible values: auto, always, never]`: the values in `values` (a value with a space in
/// it, or none, quoted), none when there are none.
fn listed(name: &str, values: Option<&ContextValue>) -> Option<String> {
    let Some(ContextValue::Strings(values)) = values else {
        return None;
    };
    if values.is_empty() {
        return None;
    }
    let quoted: Vec<String> = values
        .iter()
        .map(|v| match v.is_empty() || v.contains(char::is_whitespace) {
            true => format!("{v:?}"),
            false => v.clone(),
        })
        .collect();
    Some(format!("[{name}: {}]", quoted.join(", ")))
}

/// The tips of `e` as clap words them: a similar subcommand, argument or value, then the rest.
fn tips(e: &clap::Error) -> Vec<String> {
    let mut tips = Vec::new();
    for (kind, what) in [
        (ContextKind::SuggestedSubcommand, "subcommand"),
        (ContextKind::SuggestedArg, "argument"),
        (ContextKind::SuggestedValue, "value"),
    ] {
        match e.get(kind) {
            Some(ContextValue::String(similar)) => {
                tips.push(format!("tip: a similar {what} exists: '{similar}'"));
            }
            Some(ContextValue::Strings(similar)) => {
                let quoted: Vec<String> = similar.iter().map(|s| format!("'{s}'")).collect();
                let exist = match similar.len() {
                    1 => format!("a similar {what} exists"),
                    _ => format!("some similar {what}s exist"),
                };
                tips.push(format!("tip: {exist}: {}", quoted.join(", ")));
            }
            _ => {}
        }
    }
    if let Some(ContextValue::StyledStrs(suggested)) = e.get(ContextKind::Suggested) {
        tips.extend(suggested.iter().map(|tip| format!("tip: {tip}")));
    }
    tips
}

/// Puts right the tips of `e`, refused by the command whose help is `help`
/// (`nqueens count --help`): a subcommand that is a board (`nqueens 16`: `nqueens count 16`),
/// `--unique` to the commands that print the unique count already (`count`, `known`, `verify`,
/// `merge`), and clap's `-- -x` tip, which no argument of nqueens needs.
pub fn hint(e: &mut clap::Error, help: &str) {
    const PRINT_UNIQUE: [&str; 4] = ["count", "known", "verify", "merge"];
    let command = help.split_whitespace().nth(1).unwrap_or_default();
    let mut tips = Vec::new();
    match e.kind() {
        ErrorKind::InvalidSubcommand => {
            if let Some(word) = text(e, ContextKind::InvalidSubcommand)
                && super::args::parse_boards(word).is_ok()
            {
                let word = human::shorten(word).into_owned();
                e.remove(ContextKind::SuggestedSubcommand);
                tips.push(format!(
                    "boards are counted by a subcommand: nqueens count {word}"
                ));
            }
        }
        ErrorKind::UnknownArgument => {
            if let Some(arg) = text(e, ContextKind::InvalidArg)
                && arg.split('=').next() == Some("--unique")
                && PRINT_UNIQUE.contains(&command)
            {
                e.remove(ContextKind::SuggestedArg);
                tips.push(
                    "the unique count is printed already (the unique column); `nqueens list N \
                     --unique` lists one solution per symmetry class"
                        .to_string(),
                );
            }
            // `to pass '-x' as a value, use '-- -x'`: no value of nqueens starts with a hyphen
            // (a negative number is refused by its parser, which says why).
            if let Some(ContextValue::StyledStrs(suggested)) = e.get(ContextKind::Suggested) {
                let kept: Vec<_> = suggested
                    .iter()
                    .filter(|tip| !tip.to_string().contains("as a value, use '--"))
                    .cloned()
                    .collect();
                e.insert(ContextKind::Suggested, ContextValue::StyledStrs(kept));
            }
        }
        _ => {}
    }
    if tips.is_empty() {
        return;
    }
    if let Some(ContextValue::StyledStrs(suggested)) = e.remove(ContextKind::Suggested) {
        tips.extend(suggested.iter().map(ToString::to_string));
    }
    let tips = tips.into_iter().map(Into::into).collect();
    e.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
}

/// `nqueens count --help` from the usage `Usage: nqueens count [OPTIONS] <N>`: its words up to
/// the first option or value.
fn help_in_usage(usage: &str) -> String {
    let usage = usage.trim();
    let usage = usage.strip_prefix("Usage:").unwrap_or(usage);
    let words: Vec<&str> = usage
        .split_whitespace()
        .take_while(|w| !w.starts_with(['[', '<', '-']))
        .collect();
    format!("{} --help", words.join(" "))
}

/// Whether clap took a word that is not UTF-8 for a subcommand (it names no such word itself).
fn names_a_word_that_is_not_utf8(e: &clap::Error, args: &[OsString]) -> bool {
    e.kind() == ErrorKind::InvalidSubcommand
        && first_word(args).is_some_and(|a| a.to_str().is_none())
}

/// Clap's refusal of an argument that is not UTF-8, as one line naming the first such
/// argument (its odd bytes escaped) and the help to read.
fn not_utf8(args: &[OsString]) -> String {
    let help = help_for(args);
    match args.iter().skip(1).find(|a| a.to_str().is_none()) {
        Some(arg) => format!(
            "the argument '{}' is not valid UTF-8 (see '{help}')",
            human::shorten_os(arg)
        ),
        None => format!("an argument is not valid UTF-8 (see '{help}')"),
    }
}

/// The help to read for the arguments: the subcommand's they name, else the program's.
fn help_for(args: &[OsString]) -> String {
    let named = first_word(args)
        .and_then(|word| word.to_str())
        .filter(|word| super::args::command().find_subcommand(word).is_some());
    match named {
        Some(name) => format!("nqueens {name} --help"),
        None => "nqueens --help".to_string(),
    }
}

/// The first argument that is not an option (`args`: the program's name first): the
/// subcommand, when there is one.
fn first_word(args: &[OsString]) -> Option<&OsString> {
    args.iter()
        .skip(1)
        .find(|a| !a.as_encoded_bytes().starts_with(b"-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(args: &[&str]) -> String {
        let args: Vec<OsString> = std::iter::once("nqueens")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        let e = super::super::args::parse(&args).unwrap_err();
        one_line(e, &args)
    }

    #[test]
    fn a_board_without_a_subcommand_points_to_count() {
        let line = refusal(&["16"]);
        assert!(line.contains("nqueens count 16"), "{line}");
        assert!(line.ends_with("(see 'nqueens --help')"), "{line}");
        assert!(refusal(&["8..=12"]).contains("nqueens count 8..=12"));
        assert!(!refusal(&["cuont", "8"]).contains("nqueens count cuont"));
    }

    #[test]
    fn unique_is_said_to_be_printed_already_not_to_be_quiet() {
        for command in ["count", "known", "verify", "merge"] {
            let line = refusal(&[command, "8", "--unique"]);
            assert!(line.contains("the unique column"), "{line}");
            assert!(!line.contains("--quiet"), "{line}");
            assert!(
                line.contains(&format!("(see 'nqueens {command} --help')")),
                "{line}"
            );
        }
    }

    #[test]
    fn an_unknown_flag_gets_no_tip_to_pass_it_as_a_value() {
        let line = refusal(&["solve", "8", "-x"]);
        assert!(!line.contains("-- -x"), "{line}");
        assert!(line.contains("'-x'"), "{line}");
        let solve = refusal(&["solve", "8", "--unique"]);
        assert!(!solve.contains("unique column"), "{solve}");
    }

    #[cfg(not(feature = "gpu"))]
    #[test]
    fn a_value_parser_s_own_error_loses_its_usage_line_too() {
        let line = refusal(&["count", "8", "--kernel", "gpu"]);
        assert!(!line.contains("Usage"), "{line}");
        assert!(line.contains("--features gpu"), "{line}");
        // The README's install line: the command is the `cli` package.
        assert!(line.contains(gpu_install!()), "{line}");
        assert!(line.ends_with("(see 'nqueens count --help')"), "{line}");
        let help = <crate::args::Cli as clap::CommandFactory>::command()
            .find_subcommand_mut("count")
            .map(|count| count.render_long_help().to_string())
            .unwrap();
        assert!(
            help.replace('\n', " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(gpu_install!()),
            "{help}"
        );
        let readme = include_str!("../README.md");
        assert!(
            readme.contains(gpu_install!()),
            "the README installs the GPU build otherwise"
        );
    }

    #[test]
    fn the_help_named_is_the_usage_s_subcommand() {
        assert_eq!(
            help_in_usage("Usage: nqueens count [OPTIONS] <N>"),
            "nqueens count --help"
        );
        assert_eq!(help_in_usage("nqueens <COMMAND>"), "nqueens --help");
    }
}
