//! Numbers with their units, the same way in every table, bar and message: whole numbers with
//! their digits grouped in threes (`14,772,512`), durations in the unit that reads best
//! (`812 µs`, `12.3 s`, `1 h 02 min`, `3 days 4 h`, `65.7 years`), rates (`3.21 G/s`) and
//! speedups (`12.3x`). Machine output (JSON, CSV) never goes through here: it keeps plain
//! numbers.

use std::fmt::Display;

use super::words;

/// Runs shorter than this are too short to time: their duration reads `< 1 µs`, and no rate or
/// speedup is computed from them.
pub const MEASURABLE_SECONDS: f64 = 1e-6;

/// Rates are shown only for runs at least this long; a shorter one reads `-` (its time is
/// mostly start-up, and a rate from it says nothing about the search).
pub const RATE_MIN_SECONDS: f64 = 1e-3;

/// Shown where there is no number to show (an unmeasurable speedup, a rate of no work).
pub const NONE: &str = "-";

/// A whole number with its digits grouped in threes by commas: `14,772,512`, `999`, `-1,000`.
pub fn grouped(x: impl Display) -> String {
    let text = x.to_string();
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
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

/// `x` to three significant digits, without trailing zeros after the point: `12.3`, `123`,
/// `1.5`, `4` (rounding up to a power of ten, `99.96`, reads `100`: its zeros are trimmed).
pub(super) fn significant(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let decimals = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    trim_zeros(&format!("{x:.decimals$}")).to_string()
}

/// A decimal without the zeros (and the point) that end its fraction.
pub(super) fn trim_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// Seconds in a year (365.25 days).
const YEAR: f64 = 365.25 * DAY;
/// Seconds in a day.
const DAY: f64 = 86_400.0;

/// A duration for people, in the unit that reads best: `< 1 µs`, `412 µs`, `12.3 ms`, `12.3 s`,
/// `12 min 05 s`, `1 h 02 min`, `3 days 4 h`, `65.7 years`, `2.41e7 years`; `-` when it is not
/// a number of seconds.
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
    if secs < 60.0 {
        return small(secs, 60.0, "s", "");
    }
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
        return format!("{} {} h", words::plural(days, "day"), hours % 24);
    }
    let years = secs / YEAR;
    if years < 1e6 {
        let text = if years >= 1000.0 {
            grouped(years.round() as u64)
        } else {
            significant(years)
        };
        words::plural(text, "year")
    } else {
        format!("{years:.2e} years")
    }
}

/// `x` in `unit` to three significant digits, or in `next` when rounding reaches `limit`
/// (`999.7 µs` is `1 ms`); `next` empty: the caller's next range takes over (seconds below a
/// minute never round up to one).
fn small(x: f64, limit: f64, unit: &str, next: &str) -> String {
    let text = significant(x);
    if text.parse::<f64>().is_ok_and(|v| v >= limit) && !next.is_empty() {
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
        // 999.96 k/s reads as 1 M/s, not 1000 k/s.
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

/// A speedup for people, to three significant digits: `1.95x`, `12.3x`, or `-` when it is not
/// a number.
pub fn speedup(factor: f64) -> String {
    if factor.is_finite() {
        format!("{}x", significant(factor))
    } else {
        NONE.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_in_threes() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(14_772_512u64), "14,772,512");
        assert_eq!(
            grouped(234_907_967_154_122_528u128),
            "234,907,967,154,122,528"
        );
        assert_eq!(grouped(-1234i64), "-1,234");
        assert_eq!(grouped("n/a"), "n/a");
    }

    #[test]
    fn durations_pick_the_unit_that_reads_best() {
        assert_eq!(duration(0.0), "< 1 µs");
        assert_eq!(duration(4e-7), "< 1 µs");
        assert_eq!(duration(0.000_412), "412 µs");
        assert_eq!(duration(0.000_999_9), "1 ms");
        assert_eq!(duration(0.0008), "800 µs");
        assert_eq!(duration(0.012_34), "12.3 ms");
        assert_eq!(duration(1.2345), "1.23 s");
        assert_eq!(duration(12.34), "12.3 s");
        assert_eq!(duration(59.99), "60 s");
        assert_eq!(duration(725.0), "12 min 05 s");
        assert_eq!(duration(3599.7), "1 h 00 min");
        assert_eq!(duration(3720.0), "1 h 02 min");
        assert_eq!(duration(46_800.0), "13 h 00 min");
        assert_eq!(duration(3.0 * DAY + 4.0 * 3600.0), "3 days 4 h");
        assert_eq!(duration(DAY), "1 day 0 h");
        assert_eq!(duration(65.7 * YEAR), "65.7 years");
        assert_eq!(duration(YEAR), "1 year");
        assert_eq!(duration(1047.4 * YEAR), "1,047 years");
        assert_eq!(duration(2.41e7 * YEAR), "2.41e7 years");
        assert_eq!(duration(f64::NAN), "-");
        assert_eq!(duration(f64::INFINITY), "-");
    }

    #[test]
    fn rates_have_a_metric_prefix_and_three_digits() {
        assert_eq!(rate(3.214e9), "3.21 G/s");
        assert_eq!(rate(2_500_000.0), "2.5 M/s");
        assert_eq!(rate(999_960.0), "1 M/s");
        assert_eq!(rate(12.0), "12 /s");
        assert_eq!(rate(0.0), "0 /s");
        assert_eq!(rate(f64::NAN), "-");
        assert_eq!(rate_of(92.0, 1e-5), "-");
        assert_eq!(rate_of(0.0, 1e-6), "-");
        assert_eq!(rate_of(0.0, 0.004), "-");
        assert_eq!(rate_of(1e6, 0.5), "2 M/s");
    }

    #[test]
    fn speedups_have_one_decimal() {
        assert_eq!(speedup(12.34), "12.3x");
        assert_eq!(speedup(f64::INFINITY), "-");
        assert_eq!(speedup(f64::NAN), "-");
    }

    #[test]
    fn three_significant_digits() {
        assert_eq!(significant(12.34), "12.3");
        assert_eq!(significant(99.96), "100");
        assert_eq!(significant(1.0), "1");
        assert_eq!(significant(0.1234), "0.123");
        assert_eq!(significant(123_456.0), "123456");
    }
}
