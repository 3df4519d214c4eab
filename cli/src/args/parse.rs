//! The value parsers of the arguments: board sizes and lists, thread counts and lists, seconds,
//! whole numbers within a range, library choices and paths, each refused with a one-line reason.

use std::ffi::OsStr;

use nqueens::classic::Algorithm;
use nqueens::journal::{ShardError, ShardSpec};
use nqueens::known::Known;
use nqueens::names::Named;
use nqueens::{Kernel, Plan};
use nqueens_ui::human;

/// Whether `arg` starts like a negative value (`-5..=3`, `-1/4`): no option of nqueens is a
/// digit, so it can only be a value.
pub(super) fn looks_negative(arg: impl AsRef<OsStr>) -> bool {
    matches!(arg.as_ref().as_encoded_bytes(), [b'-', digit, ..] if digit.is_ascii_digit())
}

/// The parser of `completions SHELL`: a shell that has a script, or a refusal naming those
/// that have one (rather than a shell of a similar name: tcsh is not zsh).
pub(super) fn shell_parser() -> impl clap::builder::TypedValueParser<Value = clap_complete::Shell> {
    Refusing {
        parser: clap::builder::EnumValueParser::<clap_complete::Shell>::new(),
        refuse: no_script_for,
    }
}

/// Why `value` gets no completion script: it names none of the shells that have one.
fn no_script_for(value: &str) -> Option<String> {
    use clap::ValueEnum;
    use clap_complete::Shell;
    let known = <Shell as ValueEnum>::from_str(value.trim(), true).is_ok();
    (!known).then(|| {
        let shells: Vec<String> = Shell::value_variants()
            .iter()
            .filter_map(ValueEnum::to_possible_value)
            .map(|v| v.get_name().to_string())
            .collect();
        let (last, others) = shells.split_last().expect("clap_complete has shells");
        format!(
            "there is no completion script for '{}': there are scripts for {} and {last}",
            human::shorten(value),
            others.join(", ")
        )
    })
}

/// Parses a board size for `estimate`: 4 to 32, the boards the symmetric plan samples.
pub fn parse_estimate_n(text: &str) -> Result<u32, String> {
    use nqueens::estimation::Estimator;
    const LO: u32 = Estimator::MIN_N;
    const HI: u32 = Estimator::MAX_N;
    let n = parse_side(text, LO..=HI, u32::MAX, "")?;
    if !(LO..=HI).contains(&n) {
        // A number too large for a board size is read as u32::MAX: not shown.
        let shown = if n == u32::MAX {
            "n".to_string()
        } else {
            format!("n = {n}")
        };
        return Err(format!("{shown} cannot be estimated (boards {LO} to {HI})"));
    }
    Ok(n)
}

/// Parses `--shard`: `K/M`, `slurm` or `slurm/M`.
pub fn parse_shard_spec(text: &str) -> Result<ShardSpec, String> {
    if looks_negative(text) || text.contains("/-") {
        return Err(format!(
            "'{}' is not a shard: K and M cannot be negative (expected K/M with 0 <= K < M, for \
             example 3/8)",
            human::shorten(text)
        ));
    }
    text.parse().map_err(|e: ShardError| e.to_string())
}

/// The default `--max-seconds` of the commands whose work cannot have been meant when it is
/// longer: one day.
pub const DAY_SECONDS: f64 = 86_400.0;

/// A list of board sizes, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Boards(pub Vec<u32>);

/// Parses `16`, `4..=16` or `8,10,12` (items may mix: `4..=8,12`).
pub fn parse_boards(text: &str) -> Result<Boards, String> {
    let mut boards = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if let Some((lo, hi)) = item.split_once("..=") {
            let (lo, hi) = (parse_n(lo)?, parse_n(hi)?);
            if lo > hi {
                return Err(format!("the range {item} is reversed (write {hi}..={lo})"));
            }
            boards.extend(lo..=hi);
        } else if item.contains("..") {
            return Err(format!(
                "'{item}' is not an inclusive range: write it as A..=B (for example 4..=16)"
            ));
        } else if let Some(hint) = range_hint(item) {
            return Err(hint);
        } else {
            boards.push(parse_n(item)?);
        }
    }
    Ok(Boards(boards))
}

/// Parses the boards of `known` and `verify` as [`parse_boards`] does, each within the known
/// table (0 to [`Known::MAX_N`]).
pub fn parse_known_boards(text: &str) -> Result<Boards, String> {
    let boards = parse_boards(text)?;
    match boards.0.iter().find(|&&n| n > Known::MAX_N) {
        Some(&n) => Err(beyond_known(n)),
        None => Ok(boards),
    }
}

/// The refusal of `n`, a board beyond the known table: it names how far the table goes.
pub fn beyond_known(n: u32) -> String {
    format!(
        "no known count for n = {n}: the table goes from 0 to {}",
        Known::MAX_N
    )
}

/// The refusal of a range written as other tools write one (`8-12`, `8:12`), pointing to the
/// inclusive range nqueens reads (`8..=12`); `None` for anything else.
fn range_hint(item: &str) -> Option<String> {
    let (lo, hi) = item.split_once(['-', ':'])?;
    let (lo, hi) = (
        lo.trim().parse::<u32>().ok()?,
        hi.trim().parse::<u32>().ok()?,
    );
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    Some(format!(
        "'{}' is not a board size: the boards {lo} to {hi} are written {lo}..={hi}",
        human::shorten(item)
    ))
}

pub(super) fn parse_n(text: &str) -> Result<u32, String> {
    parse_side(
        text,
        0..=Plan::MAX_N,
        Plan::MAX_N,
        &format!("the largest board is {n} x {n}", n = Plan::MAX_N),
    )
}

/// Parses a board size from 0 to `max`; `limit` says why a larger one is refused, `expected`
/// is the range named when the text is no number at all.
fn parse_side(
    text: &str,
    expected: std::ops::RangeInclusive<u32>,
    max: u32,
    limit: &str,
) -> Result<u32, String> {
    let text = text.trim();
    if looks_negative(text) {
        return Err("a board size cannot be negative".to_string());
    }
    let Some(n) = parse_saturating(text, u32::MAX) else {
        return Err(format!(
            "'{}' is not a board size (expected a whole number from {} to {})",
            human::shorten(text),
            expected.start(),
            expected.end()
        ));
    };
    if n > max {
        let shown = if n == u32::MAX {
            "n".to_string()
        } else {
            format!("n = {n}")
        };
        return Err(format!("{shown} is too large: {limit}"));
    }
    Ok(n)
}

/// `text` as a whole number, one too large for `T` read as `largest` (so that it is refused as
/// too large, not as no number); `None` when it is no whole number.
fn parse_saturating<T>(text: &str, largest: T) -> Option<T>
where
    T: std::str::FromStr<Err = std::num::ParseIntError>,
{
    match text.parse::<T>() {
        Ok(value) => Some(value),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Some(largest),
        Err(_) => None,
    }
}

/// The most worker threads any command may ask for on a machine with `logical` CPUs: the
/// library's own limit ([`Machine::max_threads`](nqueens::scaling::Machine::max_threads); on this
/// machine [`nqueens::max_threads`]). More only slow a count down (and take long to start).
pub fn max_threads_for(logical: usize) -> usize {
    nqueens::scaling::Machine::new(logical, logical).max_threads()
}

/// Parses a worker-thread count from 1 to [`max_threads_for`] this machine's logical CPUs.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    parse_threads_for(text, num_cpus::get())
}

fn parse_threads_for(text: &str, logical: usize) -> Result<usize, String> {
    let text = text.trim();
    if looks_negative(text) {
        return Err("a thread count cannot be negative".to_string());
    }
    if text == "max" {
        return Ok(logical.max(1));
    }
    match parse_saturating(text, usize::MAX) {
        Some(t) => check_threads(t, logical),
        None => Err(format!(
            "'{}' is not a thread count (expected max or a whole number 1 to {})",
            human::shorten(text),
            max_threads_for(logical)
        )),
    }
}

/// Refuses zero threads and more than [`max_threads_for`] `logical` CPUs.
fn check_threads(threads: usize, logical: usize) -> Result<usize, String> {
    let max = max_threads_for(logical);
    match threads {
        0 => Err("the thread count must be at least 1".to_string()),
        t if t > max => Err(format!(
            "too many threads: at most {max} on this machine ({}; the default is one thread \
             per CPU)",
            human::plural(logical, "logical CPU")
        )),
        t => Ok(t),
    }
}

/// The `--kernel` parser: a kernel name, refused when this CPU cannot run it. In a build
/// without the `gpu` feature the GPU kernels' names are refused with how to get them.
pub(super) fn kernel_parser() -> impl clap::builder::TypedValueParser<Value = Kernel> {
    use clap::builder::TypedValueParser;
    Refusing {
        parser: choice::<Kernel>().try_map(|kernel: Kernel| {
            // A GPU kernel without an adapter is refused when the count opens the device, with
            // how to get one.
            if kernel.is_available() || kernel.uses_gpu() {
                return Ok(kernel);
            }
            let available = Kernel::available();
            Err(nqueens::Error::KernelUnavailable { kernel, available }.to_string())
        }),
        refuse: gpu_missing,
    }
}

/// Why `value` names no kernel of this build: a GPU kernel without the `gpu` feature.
fn gpu_missing(value: &str) -> Option<String> {
    let value = value.trim();
    let gpu = value.eq_ignore_ascii_case("gpu") || value.eq_ignore_ascii_case("gpu-only");
    (!cfg!(feature = "gpu") && gpu).then(|| {
        concat!(
            "the gpu kernels are in builds with the gpu feature, and this one has none: ",
            gpu_install!(),
            " (from a clone of the repository)"
        )
        .to_string()
    })
}

/// The parser of `count --algorithm`: one algorithm's name; a list is refused with the command
/// that runs several.
pub(super) fn one_algorithm_parser() -> impl clap::builder::TypedValueParser<Value = Algorithm> {
    Refusing {
        parser: choice::<Algorithm>(),
        refuse: several_algorithms,
    }
}

/// Why `value` is no algorithm for `count`: a list of them, which `compare` runs.
fn several_algorithms(value: &str) -> Option<String> {
    value.contains(',').then(|| {
        format!(
            "count runs one algorithm at a time; `nqueens compare N --algorithm {}` runs \
             several side by side",
            human::shorten(value)
        )
    })
}

/// A refusal of the command's own (a value refused before clap parses it, values that do not
/// go together), of `kind`, in the words `why`: a clap error with `why` as its message.
pub(crate) fn refusal(kind: clap::error::ErrorKind, why: String) -> clap::Error {
    let mut e = clap::Error::new(kind);
    e.insert(
        clap::error::ContextKind::Custom,
        clap::error::ContextValue::String(why),
    );
    e
}

/// A value parser that first refuses some values with a reason of its own (`refuse` returns
/// it), then parses the rest with `parser`, whose possible values it keeps (for the help and
/// the completions).
#[derive(Clone)]
struct Refusing<P> {
    parser: P,
    refuse: fn(&str) -> Option<String>,
}

impl<P: clap::builder::TypedValueParser> clap::builder::TypedValueParser for Refusing<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<P::Value, clap::Error> {
        if let Some(reason) = value.to_str().and_then(self.refuse) {
            return Err(refusal(clap::error::ErrorKind::InvalidValue, reason));
        }
        self.parser.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        self.parser.possible_values()
    }
}

/// The parser of a library choice: its names as clap's possible values (listed in help, with
/// their descriptions, and suggested on a typo).
pub(super) fn choice<T: Named + Send + Sync>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(
        T::all()
            .iter()
            .map(|&v| PossibleValue::new(v.name()).help(v.description())),
    )
    .map(|name: String| T::parse_name(&name).expect("clap checked the name"))
}

/// Parses a positive number of seconds.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    if looks_negative(text.trim()) {
        return Err("a number of seconds cannot be negative".to_string());
    }
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!(
            "'{}' is not a positive number of seconds",
            human::shorten(text)
        )),
    }
}

/// Parses the time budget of `estimate --budget-seconds`: positive, and at most a day
/// ([`DAY_SECONDS`]): the work of a sample grows with its budget, and a day's sample already
/// narrows the interval far below what a count's plan needs.
pub fn parse_budget_seconds(text: &str) -> Result<f64, String> {
    match parse_seconds(text)? {
        s if s > DAY_SECONDS => Err(format!(
            "the budget must be at most {DAY_SECONDS} seconds (a day); --samples K draws a \
             fixed number of samples instead"
        )),
        s => Ok(s),
    }
}

/// Parses a board size for `watch`: 1 to 64.
pub(super) fn parse_watch_n(text: &str) -> Result<u32, String> {
    match parse_n(text)? {
        0 => Err("the 0 x 0 board has no square to watch (give 1 to 64)".to_string()),
        n => Ok(n),
    }
}

/// Parses the size of an off-screen view, `COLSxROWS`: 80 to 1000 columns (the narrowest view
/// to the widest drawn) and 24 to 400 lines.
pub(super) fn parse_cast_size(text: &str) -> Result<(u16, u16), String> {
    let wrong = || {
        format!(
            "'{text}' is not a size COLSxROWS of 80 to 1000 columns and 24 to 400 lines (such \
             as 100x30)"
        )
    };
    let (cols, rows) = text.trim().split_once(['x', 'X']).ok_or_else(wrong)?;
    let number = |part: &str| part.trim().parse::<u16>().map_err(|_| wrong());
    let (cols, rows) = (number(cols)?, number(rows)?);
    if (80..=1000).contains(&cols) && (24..=400).contains(&rows) {
        Ok((cols, rows))
    } else {
        Err(wrong())
    }
}

/// Parses a number of steps per second, 0.1 to 1000.
pub(super) fn parse_speed(text: &str) -> Result<f64, String> {
    if looks_negative(text.trim()) {
        return Err("a speed cannot be negative (give 0.1 to 1000 steps per second)".to_string());
    }
    match text.trim().parse::<f64>() {
        Ok(s) if (0.1..=1000.0).contains(&s) => Ok(s),
        _ => Err(format!(
            "'{text}' is not a speed from 0.1 to 1000 steps per second"
        )),
    }
}

/// Parses a plot path: any path whose name ends in `.svg` (any case), the only format drawn.
pub(super) fn svg_path_parser() -> impl clap::builder::TypedValueParser<Value = std::path::PathBuf>
{
    use clap::builder::TypedValueParser;
    clap::builder::OsStringValueParser::new().try_map(|text| parse_svg_path(&text))
}

fn parse_svg_path(text: &OsStr) -> Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(text);
    let is_svg = path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("svg"));
    if is_svg {
        Ok(path)
    } else {
        Err(
            "the name does not end in .svg: the plot is drawn as SVG only; name it e.g. \
             plot.svg (and for a PNG: rsvg-convert plot.svg -o plot.png)"
                .to_string(),
        )
    }
}

/// A list of distinct worker-thread counts, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadList(pub Vec<usize>);

/// Parses `1,2,4,8` (`max` = every logical CPU, and may coincide with a listed count); refuses
/// zero, a count written twice, and anything else.
pub fn parse_thread_list(text: &str) -> Result<ThreadList, String> {
    parse_thread_list_for(text, num_cpus::get())
}

fn parse_thread_list_for(text: &str, logical: usize) -> Result<ThreadList, String> {
    let mut list: Vec<usize> = Vec::new();
    let mut written: Vec<usize> = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if looks_negative(item) {
            return Err("a thread count cannot be negative".to_string());
        }
        let threads = match item {
            "max" => logical.max(1),
            _ => {
                let Some(t) = parse_saturating(item, usize::MAX) else {
                    return Err(format!(
                        "'{}' is not a thread count (expected a list such as 1,2,4 or max)",
                        human::shorten(item)
                    ));
                };
                // A count written out twice is a typo; `max` may equal a written count
                // (1,2,max on two CPUs).
                if written.contains(&t) {
                    return Err(format!("the thread count {t} is listed twice"));
                }
                written.push(t);
                t
            }
        };
        let threads = check_threads(threads, logical)?;
        if !list.contains(&threads) {
            list.push(threads);
        }
    }
    Ok(ThreadList(list))
}

/// The largest board `nqueens solve` accepts.
pub const SOLVE_MAX_N: u32 = 100_000_000;

/// The largest board `nqueens list` prints in full; larger boards need `--limit`.
pub const LIST_UNLIMITED_MAX_N: u32 = 20;

/// Parses a whole number from `min` to `max`; `what` names it in the reason for a refusal.
fn parse_whole(text: &str, min: u64, max: u64, what: &str) -> Result<u64, String> {
    let text = text.trim();
    if looks_negative(text) {
        return Err(format!("{what} cannot be negative"));
    }
    // No upper end worth writing: `at least 2`, not `from 2 to 18446744073709551615`.
    let range = if max == u64::MAX && min > 0 {
        format!("at least {min}")
    } else {
        format!("from {min} to {max}")
    };
    match text.parse::<u64>() {
        Ok(k) if (min..=max).contains(&k) => Ok(k),
        Ok(_) => Err(format!("{what} must be {range}")),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow && max == u64::MAX => {
            Err(format!("{what} must be at most {max}"))
        }
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("{what} must be {range}"))
        }
        Err(_) => Err(format!(
            "'{}' is not a whole number ({what} {range})",
            human::shorten(text)
        )),
    }
}

/// The most samples `estimate --samples` draws. The interval narrows only with the square root
/// of their number: a billion samples already take over half an hour of a core on the smallest
/// board (days on the largest), and a larger count would run for years before it printed.
pub const MAX_SAMPLES: u64 = 1_000_000_000;

/// Parses `--samples K` of `estimate`: at least 2, since a spread needs two samples, and at most
/// [`MAX_SAMPLES`].
pub fn parse_samples(text: &str) -> Result<u64, String> {
    parse_whole(text, 2, MAX_SAMPLES, "the number of samples")
}

/// Parses `--seed X` of `estimate`: any whole number from 0 to 2^64 - 1.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    parse_whole(text, 0, u64::MAX, "the seed")
}

/// Parses `--limit STEPS` of `watch`: any whole number (0: never stop).
pub fn parse_steps(text: &str) -> Result<u64, String> {
    parse_whole(text, 0, u64::MAX, "the number of steps")
}

/// Parses `--max MAX` of `known` and `verify`: 0 to the largest n of the known table.
pub fn parse_max_known(text: &str) -> Result<u32, String> {
    parse_whole(text, 0, u64::from(Known::MAX_N), "the largest n").map(|n| n as u32)
}

/// Parses `--limit K` of `list`: at least 1.
pub fn parse_limit(text: &str) -> Result<u64, String> {
    parse_whole(text, 1, u64::MAX, "the limit")
}

/// Parses `--repeat K` of `scale`: 1 to 1000, what a saved result may hold.
pub fn parse_repeat(text: &str) -> Result<u32, String> {
    let most = nqueens::scaling::series::Series::MAX_REPEAT as u64;
    parse_whole(text, 1, most, "the number of timed runs").map(|k| k as u32)
}

/// Parses `--warmup N` of `scale`: 0 to the most timed runs a saved result may name.
pub fn parse_warmup(text: &str) -> Result<u32, String> {
    let most = nqueens::scaling::series::Series::MAX_REPEAT as u64;
    parse_whole(text, 0, most, "the number of warm-up runs").map(|k| k as u32)
}

/// The most threads `scale --model-up-to` models: what a saved result may name, so that every
/// result made is read back.
pub const MODEL_UP_TO_MAX: u64 = nqueens::scaling::series::Series::MAX_COUNT as u64;

/// Parses `--model-up-to THREADS` of `scale`: 1 to [`MODEL_UP_TO_MAX`].
pub fn parse_model_up_to(text: &str) -> Result<usize, String> {
    parse_whole(text, 1, MODEL_UP_TO_MAX, "the number of modelled threads").map(|k| k as usize)
}

/// Parses a board size for `solve`: 0 to [`SOLVE_MAX_N`].
pub fn parse_solve_n(text: &str) -> Result<u32, String> {
    let limit = format!("solve prints boards up to {SOLVE_MAX_N} x {SOLVE_MAX_N}");
    parse_side(text, 0..=SOLVE_MAX_N, SOLVE_MAX_N, &limit)
}

/// Parses a board size for `list`: 0 to 64, the widest board the search handles.
pub fn parse_list_n(text: &str) -> Result<u32, String> {
    parse_n(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, command};
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
        command().debug_assert();
    }

    #[test]
    fn known_boards_stay_within_the_table() {
        assert_eq!(parse_known_boards("4..=6").unwrap().0, vec![4, 5, 6]);
        assert_eq!(
            parse_known_boards("8,30").unwrap_err(),
            format!(
                "no known count for n = 30: the table goes from 0 to {}",
                Known::MAX_N
            )
        );
    }

    #[test]
    fn board_lists_ranges_and_singles_parse() {
        assert_eq!(parse_boards("16").unwrap().0, vec![16]);
        assert_eq!(parse_boards("4..=7").unwrap().0, vec![4, 5, 6, 7]);
        assert_eq!(parse_boards("8,10,12").unwrap().0, vec![8, 10, 12]);
        assert_eq!(parse_boards("1..=2, 9").unwrap().0, vec![1, 2, 9]);
        assert_eq!(parse_boards("0").unwrap().0, vec![0]);
        assert_eq!(parse_boards("64").unwrap().0, vec![64]);
    }

    #[test]
    fn bad_board_lists_are_refused_with_a_reason() {
        for (bad, why) in [
            ("65", "too large"),
            ("abc", "not a board size"),
            ("9..=4", "reversed"),
            ("4..9", "inclusive"),
            ("", "not a board size"),
            ("8,,9", "not a board size"),
            ("-1", "cannot be negative"),
            ("8-12", "the boards 8 to 12 are written 8..=12"),
            ("1-8", "written 1..=8"),
            ("4:8", "written 4..=8"),
            ("4,12 - 8", "written 8..=12"),
        ] {
            let err = parse_boards(bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn solve_and_list_sizes_are_bounded() {
        assert_eq!(parse_solve_n("1000000"), Ok(1_000_000));
        assert!(
            parse_solve_n("100000001")
                .unwrap_err()
                .contains("too large")
        );
        assert!(parse_solve_n("x").unwrap_err().contains("not a board size"));
        assert_eq!(parse_list_n("64"), Ok(64));
        assert!(parse_list_n("65").unwrap_err().contains("too large"));
    }

    #[test]
    fn thread_counts_are_bounded_in_one_place() {
        assert_eq!(max_threads_for(2), 64);
        assert_eq!(max_threads_for(32), 256);
        assert_eq!(max_threads_for(10_000), 4096);
        // The library refuses no count the command lets through.
        assert_eq!(max_threads_for(num_cpus::get()), nqueens::max_threads());
        assert_eq!(parse_threads_for("64", 2), Ok(64));
        for (bad, why) in [
            ("65", "too many threads: at most 64"),
            ("100000", "at most 64"),
            ("99999999999999999999999", "at most 64"),
            ("-1", "cannot be negative"),
        ] {
            let err = parse_threads_for(bad, 2).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
        assert!(
            parse_thread_list_for("1,65", 2)
                .unwrap_err()
                .contains("at most 64")
        );
    }

    #[test]
    fn negative_and_huge_board_sizes_get_a_reason_in_a_short_line() {
        assert!(
            parse_boards("-1")
                .unwrap_err()
                .contains("cannot be negative")
        );
        let huge = "9".repeat(100_000);
        let err = parse_boards(&huge).unwrap_err();
        assert!(
            err.contains("too large") && err.len() < 100,
            "{}",
            err.len()
        );
        let junk = "x".repeat(100_000);
        assert!(parse_boards(&junk).unwrap_err().len() < 200);
    }

    #[test]
    fn values_that_start_like_a_negative_number_are_named_negative() {
        for (bad, why) in [
            ("-5..=3", "a board size cannot be negative"),
            ("-x", "is not a board size"),
            ("-", "is not a board size"),
        ] {
            let err = parse_boards(bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
        for bad in ["-1/4", "1/-4", "-0/1"] {
            let err = parse_shard_spec(bad).unwrap_err();
            assert!(err.contains("cannot be negative"), "{bad}: {err}");
        }
        assert!(parse_shard_spec("1/4").is_ok());
        assert!(looks_negative("-5..=3") && looks_negative("-1"));
        assert!(!looks_negative("--bogus") && !looks_negative("-x") && !looks_negative("5"));
    }

    #[test]
    fn a_board_size_that_is_no_number_names_the_range_of_its_command() {
        let err = parse_estimate_n("abc").unwrap_err();
        assert!(err.contains("from 4 to 32"), "{err}");
        assert!(!err.contains("4294967295"), "{err}");
        assert!(parse_boards("abc").unwrap_err().contains("from 0 to 64"));
    }

    #[test]
    fn limits_and_repeats_give_a_reason() {
        assert_eq!(parse_limit("5"), Ok(5));
        assert_eq!(
            parse_limit("0").unwrap_err(),
            "the limit must be at least 1"
        );
        assert!(
            parse_limit("-1")
                .unwrap_err()
                .contains("cannot be negative")
        );
        assert!(parse_limit("x").unwrap_err().contains("not a whole number"));
        assert_eq!(parse_repeat("1000"), Ok(1000));
        assert!(parse_repeat("1001").unwrap_err().contains("1 to 1000"));
        assert_eq!(
            parse_samples("1").unwrap_err(),
            "the number of samples must be from 2 to 1000000000"
        );
        assert_eq!(parse_samples("2"), Ok(2));
        assert!(
            parse_repeat("-2")
                .unwrap_err()
                .contains("cannot be negative")
        );
    }

    #[test]
    fn every_size_that_reaches_a_loop_is_bounded() {
        assert_eq!(parse_samples("1000000000"), Ok(MAX_SAMPLES));
        for huge in [
            "1000000001",
            "10000000000",
            "18446744073709551615",
            "18446744073709551616",
        ] {
            assert_eq!(
                parse_samples(huge).unwrap_err(),
                "the number of samples must be from 2 to 1000000000",
                "{huge}"
            );
        }
        assert_eq!(parse_budget_seconds("86400"), Ok(DAY_SECONDS));
        for huge in ["86401", "1e300", "18446744073709551616"] {
            assert!(
                parse_budget_seconds(huge)
                    .unwrap_err()
                    .starts_with("the budget must be at most 86400 seconds (a day)"),
                "{huge}"
            );
        }
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_steps("0"), Ok(0));
        assert_eq!(parse_max_known("27"), Ok(27));
        assert_eq!(
            parse_max_known("28").unwrap_err(),
            "the largest n must be from 0 to 27"
        );
        assert_eq!(
            parse_max_known("99999999999999999999").unwrap_err(),
            "the largest n must be from 0 to 27"
        );
    }

    #[test]
    fn every_count_given_a_negative_says_it_cannot_be_negative() {
        for (parse, what) in [
            (
                parse_samples as fn(&str) -> Result<u64, String>,
                "the number of samples",
            ),
            (parse_seed, "the seed"),
            (parse_steps, "the number of steps"),
            (parse_limit, "the limit"),
        ] {
            for negative in ["-1", "-18446744073709551615", " -0"] {
                assert_eq!(
                    parse(negative).unwrap_err(),
                    format!("{what} cannot be negative")
                );
            }
        }
        assert_eq!(
            parse_max_known("-1").unwrap_err(),
            "the largest n cannot be negative"
        );
        assert!(
            parse_repeat("-1")
                .unwrap_err()
                .ends_with("cannot be negative")
        );
        assert!(
            parse_model_up_to("-1")
                .unwrap_err()
                .ends_with("cannot be negative")
        );
        for parse in [parse_seconds, parse_budget_seconds] {
            assert_eq!(
                parse("-1").unwrap_err(),
                "a number of seconds cannot be negative"
            );
        }
    }

    #[test]
    fn a_value_that_is_no_number_is_named_as_such() {
        for (bad, expected) in [
            (
                parse_seed("x"),
                "'x' is not a whole number (the seed from 0 to 18446744073709551615)",
            ),
            (
                parse_steps("1.5").map(|_| 0),
                "'1.5' is not a whole number (the number of steps from 0 to 18446744073709551615)",
            ),
            (
                parse_max_known("x").map(u64::from),
                "'x' is not a whole number (the largest n from 0 to 27)",
            ),
        ] {
            assert_eq!(bad.unwrap_err(), expected);
        }
        assert_eq!(
            parse_estimate_n("10000000000").unwrap_err(),
            "n cannot be estimated (boards 4 to 32)"
        );
    }

    #[test]
    fn thread_counts_start_at_one() {
        assert_eq!(parse_threads("3"), Ok(3));
        assert!(parse_threads("0").unwrap_err().contains("at least 1"));
        assert!(parse_threads("x").is_err());
    }
}

#[cfg(test)]
mod scale_tests {
    use super::*;

    #[test]
    fn thread_lists_parse_with_max_standing_for_the_logical_cpus() {
        assert_eq!(parse_thread_list_for("1,2,4,8", 2).unwrap().0, [1, 2, 4, 8]);
        assert_eq!(parse_thread_list_for("max", 6).unwrap().0, [6]);
        assert_eq!(parse_thread_list_for(" 4 , max", 16).unwrap().0, [4, 16]);
        assert_eq!(parse_thread_list_for("3", 2).unwrap().0, [3]);
        assert_eq!(parse_thread_list_for("1,2,max", 2).unwrap().0, [1, 2]);
        assert_eq!(parse_thread_list_for("max,2", 2).unwrap().0, [2]);
    }

    #[test]
    fn zero_duplicate_and_garbage_thread_lists_are_refused_in_one_line() {
        for (bad, why) in [
            ("0", "at least 1"),
            ("1,0,2", "at least 1"),
            ("2,2", "listed twice"),
            ("4,2,4", "listed twice"),
            ("x", "not a thread count"),
            ("1,,2", "not a thread count"),
            ("", "not a thread count"),
            ("-1", "a thread count cannot be negative"),
            ("1,-2", "a thread count cannot be negative"),
            ("1.5", "not a thread count"),
            ("99999", "too many"),
        ] {
            let err = parse_thread_list_for(bad, 2).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
            assert!(!err.contains('\n'), "{bad}: {err}");
        }
    }
}
