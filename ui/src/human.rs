//! How every number and echoed word reads for people, the same in every table, bar and message:
//!
//! - counts with their digits grouped in threes (`14,772,512`) and with their noun
//!   (`1 thread`, `4,319 tasks`);
//! - measured figures to three significant digits, trailing zeros kept so that a column reads
//!   alike: durations in the unit that reads best (`812 µs`, `5.60 ms`, `12.3 s`,
//!   `12 min 05 s`, `1 h 02 min`, `3 days 4 h`, `65.7 years`, `39.6 million years`), rates
//!   (`3.21 G/s`), speedups (`1.00x`, `12.3x`), percentages SI's way, a space before the
//!   sign (`97.0 %`, shares to three digits `0.0153 %`), estimated counts as powers
//!   of ten, never padded with zeros (`3.97 × 10¹⁰`), and a running clock to the second (`34 s`,
//!   `2 min 34 s`);
//! - signed percentages that never read `-0.00 %`;
//! - numbers the user gave, echoed short (`0.5`, `86400`), and paths or arguments shortened to
//!   their two ends, with an argument that is not UTF-8 shown with its odd bytes escaped.
//!
//! Machine output (JSON, CSV) never goes through here: it keeps plain numbers.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::fmt::Display;

/// The most characters an echoed path or argument keeps whole; a longer one is cut to
/// [`SHORTENED`] characters by [`shorten`].
pub const LONGEST: usize = 100;

/// The characters an echoed path or argument longer than [`LONGEST`] is cut to: its first and
/// last 40 characters with `…` between them.
pub const SHORTENED: usize = 81;

/// Runs shorter than this are too short to time: their duration reads `< 1 µs`, and no rate or
/// speedup is computed from them.
pub const MEASURABLE_SECONDS: f64 = 1e-6;

/// Rates are shown only for runs at least this long; a shorter one reads `-` (its time is
/// mostly start-up, and a rate from it says nothing about the search).
pub const RATE_MIN_SECONDS: f64 = 1e-3;

/// Shown where there is no number to show (an unmeasurable speedup, a rate of no work).
pub const NONE: &str = "-";

/// `count` and `noun`, the noun in the plural unless the count is one: `1 thread`,
/// `4,319 tasks`, `0 seconds`. A whole count has its digits grouped ([`grouped`]); any other is
/// written as given (`1.5 seconds`); the nouns of the messages all take a plain `s`.
pub fn plural(count: impl Display, noun: &str) -> String {
    let count = grouped(count);
    if count == "1" {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// A whole number with its digits grouped in threes by commas: `14,772,512`, `999`, `-1,000`;
/// anything else as it is written.
pub fn grouped(x: impl Display) -> String {
    let text = x.to_string();
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + digits.len() / 3);
    out.push_str(sign);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `x` to three significant digits, its trailing zeros kept so that figures of one column read
/// alike: `12.3`, `5.60`, `1.00`, `123`, `4567` (whole numbers of four digits or more are
/// rounded to whole).
pub fn significant(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let decimals = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{x:.decimals$}");
    // Rounding may reach the next power of ten (9.996 to 10.00): one decimal fewer.
    match text.parse::<f64>() {
        Ok(rounded) if decimals > 0 && rounded.abs() >= 10f64.powi(3 - decimals as i32) => {
            let decimals = decimals - 1;
            format!("{x:.decimals$}")
        }
        _ => text,
    }
}

/// A decimal without the zeros (and the point) that end its fraction.
fn trim_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// A number the user gave or a limit, as a message echoes it: whole numbers up to 10^15 in
/// full (`86400`), others to three significant digits without trailing zeros (`0.5`, `1.25`,
/// `4.57`), and very large or small ones in scientific notation (`1e-300`, `2.5e20`); never
/// more than a dozen characters.
pub fn number(x: f64) -> String {
    let magnitude = x.abs();
    if magnitude == 0.0 {
        return "0".to_string();
    }
    if !x.is_finite() || (1e-3..1e15).contains(&magnitude) {
        return trim_zeros(&significant(x)).to_string();
    }
    let text = format!("{x:.2e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) => format!("{}e{exponent}", trim_zeros(mantissa)),
        None => text,
    }
}

/// The one way a percentage is written for people: the number, a space and `%` (`11.1 %`), as
/// SI writes it; every percentage of the command's output goes through here.
pub fn with_percent_sign(number: &str) -> String {
    format!("{number} %")
}

/// A fraction (1 is the whole) as a percentage with one decimal: `97.0 %`, `111.5 %`; `-` when
/// it is not a number.
pub fn percent(fraction: f64) -> String {
    if !fraction.is_finite() {
        return NONE.to_string();
    }
    with_percent_sign(&format!("{:.1}", fraction * 100.0))
}

/// `percent` (a number of percent) with a sign and `decimals` decimals, `+0.12 %`, `-3.40 %`;
/// a value that rounds to zero reads `0.00 %`, never `-0.00 %`.
pub fn signed_percent(percent: f64, decimals: usize) -> String {
    if !percent.is_finite() {
        return NONE.to_string();
    }
    let text = format!("{percent:+.decimals$}");
    if text[1..].bytes().all(|b| b == b'0' || b == b'.') {
        with_percent_sign(&text[1..])
    } else {
        with_percent_sign(&text)
    }
}

/// Seconds in a year (365.25 days).
const YEAR: f64 = 365.25 * DAY;
/// Seconds in a day.
const DAY: f64 = 86_400.0;

/// A duration for people, in the unit that reads best: `< 1 µs`, `412 µs`, `5.60 ms`, `12.3 s`,
/// `12 min 05 s`, `1 h 02 min`, `3 days 4 h`, `65.7 years`, `1,047 years`, `24.1 million years`
/// (then billion and trillion years; beyond a thousand trillion, whole trillions grouped);
/// `-` when it is not a number of seconds.
pub fn duration(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return NONE.to_string();
    }
    if secs < MEASURABLE_SECONDS {
        return "< 1 µs".to_string();
    }
    if secs < 1e-3 {
        return small(secs * 1e6, 1e3, "µs", "ms");
    }
    if secs < 1.0 {
        return small(secs * 1e3, 1e3, "ms", "s");
    }
    if secs < 59.95 {
        return format!("{} s", significant(secs));
    }
    long(secs)
}

/// The one unit a column of durations is written in, named in its heading (`time (ms)`), so
/// that the column's figures compare at a glance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// Milliseconds: for a column whose durations are all under a second.
    Milliseconds,
    /// Seconds.
    Seconds,
}

impl TimeUnit {
    /// The unit for a column of these durations (in seconds): milliseconds when every one is
    /// under a second, else seconds.
    pub fn for_column(secs: impl IntoIterator<Item = f64>) -> TimeUnit {
        if secs.into_iter().all(|s| s < 0.9995) {
            TimeUnit::Milliseconds
        } else {
            TimeUnit::Seconds
        }
    }

    /// What a number of seconds is multiplied by to be in this unit.
    fn scale(self) -> f64 {
        match self {
            TimeUnit::Milliseconds => 1e3,
            TimeUnit::Seconds => 1.0,
        }
    }

    /// The unit's symbol, as a heading names it: `ms`, `s`.
    pub fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Milliseconds => "ms",
            TimeUnit::Seconds => "s",
        }
    }

    /// `secs` in this unit to three significant digits, without the unit: `0.0628`, `412`,
    /// `12.3`; below [`MEASURABLE_SECONDS`], `< 0.001` (ms) or `< 0.000001` (s); `-` when it
    /// is not a number of seconds.
    pub fn cell(self, secs: f64) -> String {
        let scale = self.scale();
        if !secs.is_finite() || secs < 0.0 {
            return NONE.to_string();
        }
        if secs < MEASURABLE_SECONDS {
            return format!("< {}", decimal_of(MEASURABLE_SECONDS * scale));
        }
        significant(secs * scale)
    }

    /// A column of durations (in seconds) in this unit, every figure with the same number of
    /// decimals, enough for three significant digits of the smallest one it times (at most
    /// six), so that the decimal points line up and the figures compare at a glance: `1.570`,
    /// `0.139`, `15.500`. Cells as [`TimeUnit::cell`] writes them where a figure is too small to
    /// time or not a number of seconds.
    pub fn column(self, secs: &[f64]) -> Vec<String> {
        let scale = self.scale();
        let timed = |s: &f64| s.is_finite() && *s >= MEASURABLE_SECONDS;
        let smallest = secs
            .iter()
            .filter(|s| timed(s))
            .map(|s| s * scale)
            .fold(f64::INFINITY, f64::min);
        let decimals = if smallest.is_finite() {
            (2 - smallest.log10().floor() as i64).clamp(0, 6) as usize
        } else {
            0
        };
        secs.iter()
            .map(|&s| {
                if timed(&s) {
                    format!("{:.decimals$}", s * scale)
                } else {
                    self.cell(s)
                }
            })
            .collect()
    }
}

/// A small power of ten in plain decimals: `0.001`, `0.000001`.
fn decimal_of(x: f64) -> String {
    trim_zeros(&format!("{x:.9}")).to_string()
}

/// A running clock (the elapsed time and the ETA of a progress bar), to the whole second so
/// that it does not flicker: `0 s`, `34 s`, `2 min 34 s`, then like [`duration`]
/// (`1 h 02 min`).
pub fn clock(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return NONE.to_string();
    }
    if secs < 59.5 {
        return format!("{} s", secs.round() as u64);
    }
    long(secs)
}

/// A duration of a minute or more: `12 min 05 s`, `1 h 02 min`, `3 days 4 h`, `65.7 years`.
fn long(secs: f64) -> String {
    let whole = secs.round() as u64;
    if whole < 3600 {
        return format!("{} min {:02} s", whole / 60, whole % 60);
    }
    let minutes = (secs / 60.0).round() as u64;
    if minutes < 24 * 60 {
        return format!("{} h {:02} min", minutes / 60, minutes % 60);
    }
    let hours = (secs / 3600.0).round() as u64;
    if (hours as f64) * 3600.0 < YEAR {
        let days = hours / 24;
        return format!("{} {} h", plural(days, "day"), hours % 24);
    }
    let years = secs / YEAR;
    if years < 1000.0 {
        return format!("{} years", significant(years));
    }
    if years < 999_999.5 {
        return format!("{} years", grouped(years.round() as u64));
    }
    format!("{} years", large(years))
}

/// The names of large numbers, each a thousand times the one before.
const LARGE: [(f64, &str); 3] = [(1e6, "million"), (1e9, "billion"), (1e12, "trillion")];

/// A number of a million or more in words, to three significant digits: `39.6 million`,
/// `1.00 billion`, `412 trillion`; beyond a thousand trillion, whole trillions grouped
/// (`12,345 trillion`).
fn large(x: f64) -> String {
    for (i, &(scale, name)) in LARGE.iter().enumerate() {
        let text = significant(x / scale);
        let reaches_next = text.parse::<f64>().is_ok_and(|v| v >= 1000.0);
        if !reaches_next || i + 1 == LARGE.len() {
            if reaches_next {
                return format!("{} {name}", grouped((x / scale).round() as u128));
            }
            return format!("{text} {name}");
        }
    }
    unreachable!("the last name is always returned")
}

/// An estimated count for people, to three significant digits, never padded with zeros that
/// would read as exact digits: from a thousand on, a power of ten (`3.97 × 10¹⁰` beside the
/// known `39,029,188,884`); below, the digits after the point that three significant digits
/// need (`92.0`, `0.500`); `-` when it is not a number.
pub fn approximately(x: f64) -> String {
    if !x.is_finite() {
        return NONE.to_string();
    }
    if x.abs() < 999.5 {
        return significant(x);
    }
    let mut exponent = x.abs().log10().floor() as i32;
    // Three digits, rounded as text would round them; 9.995 becomes 1.00 of the next power.
    let mut hundredths = (x.abs() / 10f64.powi(exponent - 2)).round() as u64;
    if hundredths >= 1000 {
        hundredths = (hundredths + 5) / 10;
        exponent += 1;
    }
    let sign = if x < 0.0 { "-" } else { "" };
    format!(
        "{sign}{}.{:02} × 10{}",
        hundredths / 100,
        hundredths % 100,
        superscript(exponent)
    )
}

/// `exponent` in superscript digits (`¹⁰`, `⁻³`).
fn superscript(exponent: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let sign = if exponent < 0 { "⁻" } else { "" };
    let digits: String = exponent
        .unsigned_abs()
        .to_string()
        .bytes()
        .map(|b| DIGITS[usize::from(b - b'0')])
        .collect();
    format!("{sign}{digits}")
}

/// A share of a whole (a fraction from 0 to 1) as a percentage to three significant digits:
/// `0.0153 %`, `3.17 %`, `100 %`, `0 %`; `-` when it is not a number.
pub fn share(fraction: f64) -> String {
    if !fraction.is_finite() {
        return NONE.to_string();
    }
    if fraction == 0.0 {
        return with_percent_sign("0");
    }
    with_percent_sign(&significant(100.0 * fraction))
}

/// `x` in `unit` to three significant digits, or in `next` when rounding reaches `limit`
/// (`999.7 µs` is `1.00 ms`).
fn small(x: f64, limit: f64, unit: &str, next: &str) -> String {
    let text = significant(x);
    if text.parse::<f64>().is_ok_and(|v| v >= limit) {
        return format!("{} {next}", significant(x / limit));
    }
    format!("{text} {unit}")
}

/// A rate for people, items per second to three significant digits with a metric prefix:
/// `3.21 G/s`, `12.3 M/s`, `450 /s`; `-` when it is not a number.
pub fn rate(per_second: f64) -> String {
    const PREFIXES: [(f64, &str); 5] =
        [(1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    if !per_second.is_finite() || per_second < 0.0 {
        return NONE.to_string();
    }
    for (scale, prefix) in PREFIXES {
        // 999.96 k/s reads as 1.00 M/s, not 1000 k/s.
        if per_second >= scale * 0.9995 {
            return format!("{} {prefix}/s", significant(per_second / scale));
        }
    }
    format!("{} /s", significant(per_second))
}

/// The rate of `items` done in `secs`, or `-` when the run was too short to time
/// ([`RATE_MIN_SECONDS`]) or found nothing (a rate of nothing says nothing).
pub fn rate_of(items: f64, secs: f64) -> String {
    if secs < RATE_MIN_SECONDS || items == 0.0 {
        return NONE.to_string();
    }
    rate(items / secs)
}

/// A speedup for people, to three significant digits: `1.00x`, `1.95x`, `12.3x`, `126x`, or
/// `-` when it is not a number.
pub fn speedup(factor: f64) -> String {
    if factor.is_finite() {
        format!("{}x", significant(factor))
    } else {
        NONE.to_string()
    }
}

/// A path or argument as a message echoes it: whole up to [`LONGEST`] characters, otherwise
/// cut to [`SHORTENED`] by [`shorten_to`] (the end of a path names the file).
pub fn shorten(text: &str) -> Cow<'_, str> {
    if text.chars().count() <= LONGEST {
        Cow::Borrowed(text)
    } else {
        shorten_to(text, SHORTENED)
    }
}

/// `text` in at most `width` characters (at least 3): whole when it fits, otherwise its first
/// and last characters with `…` between them, the end getting the odd one. A label in a plot
/// or a path in a message is cut alike.
pub fn shorten_to(text: &str, width: usize) -> Cow<'_, str> {
    let length = text.chars().count();
    if length <= width {
        return Cow::Borrowed(text);
    }
    let kept = width.max(3) - 1;
    let (head, tail) = (kept / 2, kept - kept / 2);
    let head: String = text.chars().take(head).collect();
    let tail: String = text.chars().skip(length - tail).collect();
    Cow::Owned(format!("{head}…{tail}"))
}

/// An argument or path that need not be UTF-8, as a message echoes it: its valid parts as
/// [`crate::escape::text`] shows them (a newline as `\n`, so the message stays one line), each byte
/// that is not UTF-8 as `\xNN`, shortened like [`shorten`].
pub fn shorten_os(text: &OsStr) -> String {
    shorten(&crate::escape::os(text)).into_owned()
}

/// `text` quoted as Rust's `{:?}` quotes it (a newline as `\n`, so the message stays one line),
/// shortened like [`shorten`]: a value a one-line message echoes and refuses.
pub fn quoted(text: &str) -> String {
    format!("{:?}", shorten(text))
}

/// An environment variable's value as the command reads it: `None` when unset or blank; trimmed,
/// with `�` for each byte that is not UTF-8 (so that such a value is refused or matches nothing).
pub fn variable_text(value: Option<&OsStr>) -> Option<String> {
    value
        .map(|v| v.to_string_lossy().trim().to_owned())
        .filter(|v| !v.is_empty())
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

/// An error and every error below it ([`source`](std::error::Error::source)) on one line, each
/// one's message joined by `: ` (as `anyhow` prints `{:#}`): the library's errors keep their
/// own words and leave the reason below to their source, so the line reads
/// `cannot open journal a.ckpt: No such file or directory (os error 2)`. An error whose message
/// is its source's (rayon's, around the system's reason) is read once.
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut last = error.to_string();
    let mut line = last.clone();
    let mut below = error.source();
    while let Some(error) = below {
        let message = error.to_string();
        if message != last {
            line.push_str(": ");
            line.push_str(&message);
        }
        last = message;
        below = error.source();
    }
    line
}

/// `line` without the system's error numbers that Rust's I/O errors append (`No such file or
/// directory (os error 2)` reads `No such file or directory`): they name nothing a user can act
/// on.
pub(crate) fn without_error_numbers(line: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An error that says its source's message, as rayon's `ThreadPoolBuildError` does.
    #[derive(Debug)]
    struct Wrapper(std::io::Error);

    impl std::fmt::Display for Wrapper {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.0.fmt(f)
        }
    }

    impl std::error::Error for Wrapper {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn an_error_chain_reads_each_message_once() {
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        let error = nqueens::journal::JournalError::Open {
            path: "a/b.ckpt".into(),
            source: missing,
        };
        assert_eq!(
            error_chain(&error),
            "cannot open journal a/b.ckpt: entity not found"
        );
        let library = nqueens::Error::from(error);
        assert_eq!(
            error_chain(&library),
            "cannot open journal a/b.ckpt: entity not found"
        );
        // A source whose message is the one above it (rayon's error around the system's) is
        // read once.
        let reason = std::io::Error::from(std::io::ErrorKind::OutOfMemory);
        let pool = nqueens::Error::ThreadPool(Box::new(Wrapper(reason)));
        assert_eq!(
            error_chain(&pool),
            "could not start the worker threads: out of memory"
        );
        assert_eq!(
            error_chain(&nqueens::Error::ZeroThreads),
            "the thread count must be at least 1"
        );
    }

    #[test]
    fn one_of_a_thing_is_singular_and_counts_are_grouped() {
        assert_eq!(plural(1, "thread"), "1 thread");
        assert_eq!(plural(2usize, "thread"), "2 threads");
        assert_eq!(plural(0u64, "second"), "0 seconds");
        assert_eq!(plural("1.5", "second"), "1.5 seconds");
        assert_eq!(plural(4319, "task"), "4,319 tasks");
        assert_eq!(plural(grouped(4319), "task"), "4,319 tasks");
        assert_eq!(plural(format_args!("{:.0}", 1.2), "second"), "1 second");
    }

    #[test]
    fn digits_are_grouped_in_threes() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(95_815_104u64), "95,815,104");
        assert_eq!(
            grouped(234_907_967_154_122_528u128),
            "234,907,967,154,122,528"
        );
        assert_eq!(grouped(-1234i64), "-1,234");
        assert_eq!(grouped("n/a"), "n/a");
        assert_eq!(grouped("1,234"), "1,234");
        assert_eq!(grouped(""), "");
    }

    #[test]
    fn figures_keep_three_significant_digits() {
        assert_eq!(significant(12.34), "12.3");
        assert_eq!(significant(5.6), "5.60");
        assert_eq!(significant(1.0), "1.00");
        assert_eq!(significant(99.96), "100");
        assert_eq!(significant(9.996), "10.0");
        assert_eq!(significant(0.1234), "0.123");
        assert_eq!(significant(123_456.0), "123456");
    }

    #[test]
    fn durations_pick_the_unit_that_reads_best_with_three_digits() {
        assert_eq!(duration(0.0), "< 1 µs");
        assert_eq!(duration(4e-7), "< 1 µs");
        assert_eq!(duration(0.000_412), "412 µs");
        assert_eq!(duration(0.000_999_9), "1.00 ms");
        assert_eq!(duration(0.0008), "800 µs");
        assert_eq!(duration(0.0056), "5.60 ms");
        assert_eq!(duration(0.007_76), "7.76 ms");
        assert_eq!(duration(0.012_34), "12.3 ms");
        assert_eq!(duration(0.999_9), "1.00 s");
        assert_eq!(duration(1.2345), "1.23 s");
        assert_eq!(duration(2.0), "2.00 s");
        assert_eq!(duration(12.34), "12.3 s");
        assert_eq!(duration(59.94), "59.9 s");
        assert_eq!(duration(59.99), "1 min 00 s");
        assert_eq!(duration(725.0), "12 min 05 s");
        assert_eq!(duration(3599.7), "1 h 00 min");
        assert_eq!(duration(3720.0), "1 h 02 min");
        assert_eq!(duration(46_800.0), "13 h 00 min");
        assert_eq!(duration(3.0 * DAY + 4.0 * 3600.0), "3 days 4 h");
        assert_eq!(duration(DAY), "1 day 0 h");
        assert_eq!(duration(65.7 * YEAR), "65.7 years");
        assert_eq!(duration(YEAR), "1.00 years");
        assert_eq!(duration(1047.4 * YEAR), "1,047 years");
        assert_eq!(duration(999_999.0 * YEAR), "999,999 years");
        assert_eq!(duration(2.41e7 * YEAR), "24.1 million years");
        assert_eq!(duration(3.96e7 * YEAR), "39.6 million years");
        assert_eq!(duration(999.99e6 * YEAR), "1.00 billion years");
        assert_eq!(duration(4.12e14 * YEAR), "412 trillion years");
        assert_eq!(duration(1.2345e16 * YEAR), "12,345 trillion years");
        assert_eq!(duration(f64::NAN), "-");
        assert_eq!(duration(f64::INFINITY), "-");
    }

    #[test]
    fn a_column_of_times_has_one_unit() {
        let small = TimeUnit::for_column([0.000_062_8, 0.000_007_68, 0.42]);
        assert_eq!(small, TimeUnit::Milliseconds);
        assert_eq!(small.symbol(), "ms");
        assert_eq!(small.cell(0.000_062_8), "0.0628");
        assert_eq!(small.cell(0.000_007_68), "0.00768");
        assert_eq!(small.cell(0.42), "420");
        assert_eq!(small.cell(4e-7), "< 0.001");
        let large = TimeUnit::for_column([0.0012, 12.34]);
        assert_eq!(large, TimeUnit::Seconds);
        assert_eq!(large.cell(12.34), "12.3");
        assert_eq!(large.cell(0.0012), "0.00120");
        assert_eq!(large.cell(4e-7), "< 0.000001");
        assert_eq!(large.cell(f64::NAN), "-");
        assert_eq!(TimeUnit::for_column([]), TimeUnit::Milliseconds);
    }

    #[test]
    fn estimated_counts_read_like_counts_to_three_digits() {
        assert_eq!(approximately(3.8976e10), "3.90 × 10¹⁰");
        assert_eq!(approximately(3.9651e10), "3.97 × 10¹⁰");
        assert_eq!(approximately(2.276842983607485e17), "2.28 × 10¹⁷");
        assert_eq!(approximately(1.23e25), "1.23 × 10²⁵");
        assert_eq!(approximately(-4.567e6), "-4.57 × 10⁶");
        assert_eq!(approximately(999.4), "999");
        assert_eq!(approximately(999.6), "1.00 × 10³");
        assert_eq!(approximately(9_996.0), "1.00 × 10⁴");
        assert_eq!(approximately(14_234.0), "1.42 × 10⁴");
        assert_eq!(superscript(-12), "⁻¹²");
        assert_eq!(approximately(92.04), "92.0");
        assert_eq!(approximately(0.5), "0.500");
        assert_eq!(approximately(0.0), "0");
        assert_eq!(approximately(f64::NAN), "-");
    }

    #[test]
    fn shares_are_percentages_to_three_digits() {
        assert_eq!(share(0.000_152_7), "0.0153 %");
        assert_eq!(share(0.031_72), "3.17 %");
        assert_eq!(share(1.0), "100 %");
        assert_eq!(share(1.444e-10), "0.0000000144 %");
        assert_eq!(share(0.0), "0 %");
        assert_eq!(percent(0.111_5), "11.2 %");
        assert_eq!(percent(f64::NAN), "-");
        assert_eq!(share(f64::NAN), "-");
    }

    #[test]
    fn a_clock_reads_whole_seconds_and_minutes_like_a_duration() {
        assert_eq!(clock(0.0), "0 s");
        assert_eq!(clock(34.4), "34 s");
        assert_eq!(clock(59.6), "1 min 00 s");
        assert_eq!(clock(154.0), "2 min 34 s");
        assert_eq!(clock(3720.0), "1 h 02 min");
        assert_eq!(clock(154.0), duration(154.0));
        assert_eq!(clock(f64::NAN), "-");
    }

    #[test]
    fn rates_have_a_metric_prefix_and_three_digits() {
        assert_eq!(rate(3.214e9), "3.21 G/s");
        assert_eq!(rate(2_500_000.0), "2.50 M/s");
        assert_eq!(rate(999_960.0), "1.00 M/s");
        assert_eq!(rate(12.0), "12.0 /s");
        assert_eq!(rate(0.0), "0 /s");
        assert_eq!(rate(f64::NAN), "-");
        assert_eq!(rate_of(92.0, 1e-5), "-");
        assert_eq!(rate_of(0.0, 1e-6), "-");
        assert_eq!(rate_of(0.0, 0.004), "-");
        assert_eq!(rate_of(1e6, 0.5), "2.00 M/s");
    }

    #[test]
    fn speedups_always_have_three_digits() {
        assert_eq!(speedup(1.0), "1.00x");
        assert_eq!(speedup(2.0), "2.00x");
        assert_eq!(speedup(1.234), "1.23x");
        assert_eq!(speedup(12.34), "12.3x");
        assert_eq!(speedup(126.0), "126x");
        assert_eq!(speedup(f64::INFINITY), "-");
        assert_eq!(speedup(f64::NAN), "-");
    }

    #[test]
    fn signed_percentages_never_read_minus_zero() {
        assert_eq!(signed_percent(-0.001, 2), "0.00 %");
        assert_eq!(signed_percent(0.001, 2), "0.00 %");
        assert_eq!(signed_percent(-0.0, 2), "0.00 %");
        assert_eq!(signed_percent(0.126, 2), "+0.13 %");
        assert_eq!(signed_percent(-3.4, 2), "-3.40 %");
        assert_eq!(signed_percent(f64::NAN, 2), "-");
    }

    #[test]
    fn a_long_path_keeps_both_ends() {
        assert_eq!(shorten("n16.ckpt"), "n16.ckpt");
        let exact = "x".repeat(LONGEST);
        assert_eq!(shorten(&exact), exact);
        let long = format!("/{}/{}/run.ckpt", "a".repeat(3000), "b".repeat(2000));
        let short = shorten(&long);
        assert_eq!(short.chars().count(), SHORTENED);
        assert!(short.starts_with("/aaa"), "{short}");
        assert!(short.ends_with("b/run.ckpt"), "{short}");
        assert!(short.contains('…'), "{short}");
        // Characters, not bytes: a long name in another script is cut between characters.
        let wide = "é".repeat(500);
        assert_eq!(shorten(&wide).chars().count(), SHORTENED);
    }

    #[test]
    fn shortening_to_a_width_keeps_both_ends_in_that_width() {
        assert_eq!(shorten_to("abcdef", 6), "abcdef");
        assert_eq!(shorten_to("abcdefgh", 6), "ab…fgh");
        assert_eq!(shorten_to("abcdefgh", 5), "ab…gh");
        assert_eq!(shorten_to("abcdefgh", 0), "a…h");
        for width in 3..20 {
            let cut = shorten_to("the machine: AMD EPYC, 2 logical CPUs", width);
            assert_eq!(cut.chars().count(), width, "{cut}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn bytes_that_are_not_utf8_are_escaped() {
        use std::os::unix::ffi::OsStrExt;
        assert_eq!(shorten_os(OsStr::from_bytes(b"co\xffunt")), r"co\xFFunt");
        assert_eq!(shorten_os(OsStr::new("count")), "count");
        // A newline (or another control) beside the odd bytes is written out too: one line.
        assert_eq!(shorten_os(OsStr::from_bytes(b"coun\n\x89")), r"coun\n\x89");
        assert_eq!(
            shorten_os(OsStr::from_bytes(b"\x1b]2;x\x07\xff")),
            r"\e]2;x\x07\xFF"
        );
        let long = [b'x'; 5000];
        assert_eq!(
            shorten_os(OsStr::from_bytes(&long)).chars().count(),
            SHORTENED
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
    fn numbers_the_user_gave_are_short() {
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
