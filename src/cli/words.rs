//! The small words every message is made of, so that all of them read alike: a count with its
//! noun (`1 thread`, `2 threads`), a long path or argument shortened when it is echoed, an
//! argument that is not UTF-8 shown with its odd bytes escaped, and a number in a few digits.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::fmt::Display;

use super::units;

/// The most characters an echoed path or argument keeps whole; a longer one keeps its first
/// and last [`KEPT`] characters.
pub const LONGEST: usize = 100;

/// The characters kept at each end of a shortened path or argument.
pub const KEPT: usize = 40;

/// `count` and `noun`, the noun in the plural unless the count is one: `1 thread`,
/// `2 threads`, `0 seconds`. The count is written as given (`1.5 seconds`); the nouns of the
/// messages all take a plain `s`.
pub fn plural(count: impl Display, noun: &str) -> String {
    let count = count.to_string();
    if count == "1" {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// A path or argument as a message echoes it: whole up to [`LONGEST`] characters, otherwise
/// its first and last [`KEPT`] characters with `…` between them (the end of a path names the
/// file).
pub fn shorten(text: &str) -> Cow<'_, str> {
    let length = text.chars().count();
    if length <= LONGEST {
        return Cow::Borrowed(text);
    }
    let head: String = text.chars().take(KEPT).collect();
    let tail: String = text.chars().skip(length - KEPT).collect();
    Cow::Owned(format!("{head}…{tail}"))
}

/// An argument or path that need not be UTF-8, as a message echoes it: its valid parts as
/// they are, each byte that is not UTF-8 as `\xNN`, shortened like [`shorten`].
pub fn shorten_os(text: &OsStr) -> String {
    let mut shown = String::new();
    for chunk in text.as_encoded_bytes().utf8_chunks() {
        shown.push_str(chunk.valid());
        for byte in chunk.invalid() {
            shown.push_str(&format!("\\x{byte:02X}"));
        }
    }
    shorten(&shown).into_owned()
}

/// `line` with every word (between spaces and quotes) longer than [`LONGEST`] characters
/// shortened like [`shorten`], so that an error never echoes a huge path or argument whole.
pub fn shorten_words(line: &str) -> String {
    let mut shortened = String::with_capacity(line.len().min(4 * LONGEST));
    let mut word = String::new();
    for c in line.chars() {
        if c.is_whitespace() || c == '\'' {
            shortened.push_str(&shorten(&word));
            word.clear();
            shortened.push(c);
        } else {
            word.push(c);
        }
    }
    shortened.push_str(&shorten(&word));
    shortened
}

/// `line` without the system's error numbers that Rust's I/O errors append (`No such file or
/// directory (os error 2)` reads `No such file or directory`): they name nothing a user can act
/// on.
pub fn without_error_numbers(line: &str) -> String {
    const MARK: &str = " (os error ";
    let mut rest = line;
    let mut kept = String::with_capacity(line.len());
    while let Some(at) = rest.find(MARK) {
        let after = &rest[at + MARK.len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        kept.push_str(&rest[..at]);
        if digits > 0 && after[digits..].starts_with(')') {
            rest = &after[digits + 1..];
        } else {
            kept.push_str(MARK);
            rest = after;
        }
    }
    kept.push_str(rest);
    kept
}

/// A number as a message writes it: whole numbers up to 10^15 in full (`86400`), others to
/// three significant digits (`0.5`, `1.25`, `4.57`), and very large or small ones in
/// scientific notation (`1e-300`, `2.5e20`); never more than a dozen characters.
pub fn number(x: f64) -> String {
    let magnitude = x.abs();
    if magnitude == 0.0 {
        return "0".to_string();
    }
    // Three significant digits leave a whole number whole (`86400`); NaN and infinity read as
    // Rust writes them.
    if !x.is_finite() || (1e-3..1e15).contains(&magnitude) {
        return units::significant(x);
    }
    let text = format!("{x:.2e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) => format!("{}e{exponent}", units::trim_zeros(mantissa)),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_of_a_thing_is_singular() {
        assert_eq!(plural(1, "thread"), "1 thread");
        assert_eq!(plural(2usize, "thread"), "2 threads");
        assert_eq!(plural(0u64, "second"), "0 seconds");
        assert_eq!(plural("1.5", "second"), "1.5 seconds");
        assert_eq!(plural(format_args!("{:.0}", 1.2), "second"), "1 second");
    }

    #[test]
    fn a_long_path_keeps_both_ends() {
        assert_eq!(shorten("n16.ckpt"), "n16.ckpt");
        let exact = "x".repeat(LONGEST);
        assert_eq!(shorten(&exact), exact);
        let long = format!("/{}/{}/run.ckpt", "a".repeat(3000), "b".repeat(2000));
        let short = shorten(&long);
        assert_eq!(short.chars().count(), 2 * KEPT + 1);
        assert!(short.starts_with("/aaa"), "{short}");
        assert!(short.ends_with("b/run.ckpt"), "{short}");
        assert!(short.contains('…'), "{short}");
        // Characters, not bytes: a long name in another script is cut between characters.
        let wide = "é".repeat(500);
        assert_eq!(shorten(&wide).chars().count(), 2 * KEPT + 1);
    }

    #[cfg(unix)]
    #[test]
    fn bytes_that_are_not_utf8_are_escaped() {
        use std::os::unix::ffi::OsStrExt;
        assert_eq!(shorten_os(OsStr::from_bytes(b"co\xffunt")), r"co\xFFunt");
        assert_eq!(shorten_os(OsStr::new("count")), "count");
        let long = [b'x'; 5000];
        assert_eq!(
            shorten_os(OsStr::from_bytes(&long)).chars().count(),
            2 * KEPT + 1
        );
    }

    #[test]
    fn only_long_words_of_a_line_are_shortened() {
        assert_eq!(shorten_words("a 'b' c"), "a 'b' c");
        let long = "y".repeat(5000);
        let line = format!("cannot open journal {long}: No such file or directory");
        let short = shorten_words(&line);
        assert!(short.starts_with("cannot open journal yyy"), "{short}");
        assert!(short.contains('…'), "{short}");
        assert!(short.ends_with("y: No such file or directory"), "{short}");
        assert!(short.len() < 150, "{short}");
        let quoted = shorten_words(&format!("invalid value '{long}' for '<N>'"));
        assert!(quoted.ends_with("' for '<N>'"), "{quoted}");
        assert!(quoted.len() < 120, "{quoted}");
    }

    #[test]
    fn error_numbers_are_dropped() {
        assert_eq!(
            without_error_numbers(
                "cannot open journal a/b.ckpt: No such file or directory (os error 2)"
            ),
            "cannot open journal a/b.ckpt: No such file or directory"
        );
        assert_eq!(
            without_error_numbers("x (os error 13) and y (os error 28)"),
            "x and y"
        );
        // Only the exact form goes.
        assert_eq!(without_error_numbers("(os error x)"), "(os error x)");
        assert_eq!(without_error_numbers("a (os error 5"), "a (os error 5");
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(number(86_400.0), "86400");
        assert_eq!(number(60.0), "60");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(1.25), "1.25");
        assert_eq!(number(4.56789), "4.57");
        assert_eq!(number(1234.4), "1234");
        assert_eq!(number(0.001234), "0.00123");
        assert_eq!(number(1e-300), "1e-300");
        assert_eq!(number(2.5e20), "2.5e20");
        assert_eq!(number(f64::MAX), "1.8e308");
        assert_eq!(number(f64::MIN_POSITIVE), "2.23e-308");
        assert_eq!(number(0.0), "0");
        assert!(number(5e-324).len() <= 12, "{}", number(5e-324));
    }
}
