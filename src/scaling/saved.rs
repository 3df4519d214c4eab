//! Studies read back: what [`Study`](crate::scaling::study::Study) serializes to (one study, or
//! several under `"series"`), also as saved by earlier versions, deserialized and then checked
//! into [`Series`].
//!
//! Deserializing a [`Saved`] takes any value, so that what is wrong in it is told by
//! [`Saved::series`] as a [`SavedError`] naming the field (`runs[1].speedup`) and what it holds,
//! rather than by the format's parser. Older results lack fields that later versions added (the
//! loss breakdown, the CPU's name, the model with losses): those are optional. The format must
//! describe itself (JSON does).

use std::fmt;
use std::marker::PhantomData;
use std::ops::RangeInclusive;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::engine::kernel::MAX_N;
use crate::known;
use crate::scaling::info::Headline;
use crate::scaling::loss::Loss;
use crate::scaling::measured::split_other_programs;
use crate::scaling::model::ModelPoint;
use crate::scaling::series::Series;
use crate::scaling::study::MeasuredPoint;

/// The most CPUs, threads and workers a saved study may name.
///
/// ```
/// assert_eq!(nqueens::scaling::saved::MAX_COUNT, 1 << 20);
/// ```
pub const MAX_COUNT: usize = 1 << 20;

/// The most timed runs per thread count a saved study may name.
///
/// ```
/// assert_eq!(nqueens::scaling::saved::MAX_REPEAT, 1000);
/// ```
pub const MAX_REPEAT: usize = 1000;

/// The range of every time (seconds) and speedup read back: a nanosecond to 31 years, and a
/// speedup as far either side of 1.
///
/// ```
/// use nqueens::scaling::saved::TIME_RANGE;
/// assert!(TIME_RANGE.contains(&1e-9) && !TIME_RANGE.contains(&0.0));
/// ```
pub const TIME_RANGE: RangeInclusive<f64> = 1e-9..=1e9;

/// The range of an efficiency, a CPU share and a part of the loss breakdown read back (a part
/// of the breakdown can be slightly negative).
///
/// ```
/// use nqueens::scaling::saved::SHARE_RANGE;
/// assert!(SHARE_RANGE.contains(&-0.01) && SHARE_RANGE.contains(&1.0));
/// ```
pub const SHARE_RANGE: RangeInclusive<f64> = -1e9..=1e9;

/// One saved study, or several under `"series"` (`{"series": [...]}`), as deserialized: not yet
/// checked. [`Saved::series`] checks it.
///
/// ```
/// use nqueens::scaling::saved::{Saved, SavedError};
/// let saved: Saved = serde_json::from_str(r#"{"n": 8, "machine": {"logical": 2}}"#).unwrap();
/// let error = saved.series().unwrap_err();
/// assert_eq!(error, SavedError::Missing { field: "machine.physical".into() });
/// assert_eq!(error.to_string(), r#"no "machine.physical""#);
/// ```
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(transparent)]
pub struct Saved {
    found: Found<SavedStudy>,
}

impl Saved {
    /// The series saved: one, or one per study of `"series"`, each checked: every field that a
    /// series needs present, every number of the right kind and in its range ([`MAX_COUNT`],
    /// [`MAX_REPEAT`], [`TIME_RANGE`], [`SHARE_RANGE`], boards up to [`MAX_N`]).
    /// A saved total, or else the known table, gives the headline. The series' `source` is
    /// `None`.
    ///
    /// ```
    /// use nqueens::scaling::saved::{Saved, SavedError};
    /// let json = r#"{
    ///     "n": 10, "strategy": "mirror", "kernel": "depth-first",
    ///     "machine": {"logical": 2, "physical": 2},
    ///     "runs": [{"threads": 1, "median_seconds": 0.5, "min_seconds": 0.4,
    ///               "max_seconds": 0.6, "speedup": 1.0, "efficiency": 1.0}]
    /// }"#;
    /// let saved: Saved = serde_json::from_str(json).unwrap();
    /// let series = saved.series().unwrap();
    /// assert_eq!((series[0].n, series[0].repeat, series[0].runs.len()), (10, 1, 1));
    /// assert_eq!(series[0].headline.unwrap().solutions, 724); // from the known table
    ///
    /// let saved: Saved = serde_json::from_str(&json.replace("0.4", "-0.4")).unwrap();
    /// let error = saved.series().unwrap_err();
    /// assert!(matches!(&error, SavedError::OutOfRange { field, .. } if field == "runs[0].min_seconds"));
    /// assert_eq!(error.to_string(), "runs[0].min_seconds is -0.4, outside 1e-9 to 1e9");
    /// ```
    pub fn series(&self) -> Result<Vec<Series>, SavedError> {
        let study = match &self.found {
            Found::Is(study) => study,
            other => {
                return Err(SavedError::NotAnObject {
                    found: other.kind(),
                });
            }
        };
        let studies = match &study.series {
            Found::Absent => return Ok(vec![study.series_of()?]),
            Found::Is(items) if !items.is_empty() => items,
            other => {
                return Err(SavedError::NoStudies {
                    found: other.kind(),
                });
            }
        };
        let several = studies.len() > 1;
        studies
            .iter()
            .enumerate()
            .map(|(i, found)| {
                let series = match found {
                    Found::Is(study) => study.series_of(),
                    other => Err(SavedError::NotAnObject {
                        found: other.kind(),
                    }),
                };
                series.map_err(|error| {
                    if several {
                        SavedError::InSeries {
                            index: i + 1,
                            error: Box::new(error),
                        }
                    } else {
                        error
                    }
                })
            })
            .collect()
    }
}

/// What is wrong with a saved study: which field, and what it holds instead. Fields are named
/// by their path (`machine.logical`, `runs[0].median_seconds`, from 0).
///
/// ```
/// use nqueens::scaling::saved::{Saved, SavedError};
/// let saved: Saved = serde_json::from_str(r#"{"n": 12.5}"#).unwrap();
/// let error = saved.series().unwrap_err();
/// assert_eq!(error, SavedError::NotWhole { field: "n".into(), found: 12.5 });
/// assert_eq!(error.to_string(), "n must be a whole number, found 12.5");
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SavedError {
    /// The saved value (or one study of `"series"`) is not an object of fields.
    #[error("not an object (found {found})")]
    NotAnObject {
        /// What it is instead: `a list`, `a string`, …
        found: &'static str,
    },
    /// `"series"` is there but is not a list of studies, or an empty one.
    #[error("\"series\" is not a list of studies")]
    NoStudies {
        /// What it is instead (`a list` for an empty one).
        found: &'static str,
    },
    /// A field that a series needs is absent.
    #[error("no \"{field}\"")]
    Missing {
        /// The field's path.
        field: String,
    },
    /// A field holds another kind of value than it should.
    #[error("{field} must be {expected}, found {found}")]
    Kind {
        /// The field's path.
        field: String,
        /// What it should be: `a whole number`, `a number`, `a string`, `a list`, `an object`.
        expected: &'static str,
        /// What it is: `a string`, `null`, `true or false`, …
        found: &'static str,
    },
    /// A whole number is negative.
    #[error("{field} cannot be negative (found {})", shown(*found))]
    Negative {
        /// The field's path.
        field: String,
        /// The number found.
        found: f64,
    },
    /// A whole number has a fraction.
    #[error("{field} must be a whole number, found {}", shown(*found))]
    NotWhole {
        /// The field's path.
        field: String,
        /// The number found.
        found: f64,
    },
    /// A whole number is outside its range.
    #[error("{field} is {found}, outside {min} to {max}")]
    WholeOutOfRange {
        /// The field's path.
        field: String,
        /// The number found.
        found: u64,
        /// The smallest allowed.
        min: u64,
        /// The largest allowed.
        max: u64,
    },
    /// A number is outside its range.
    #[error("{field} is {}, outside {} to {}", shown(*found), shown(*min), shown(*max))]
    OutOfRange {
        /// The field's path.
        field: String,
        /// The number found.
        found: f64,
        /// The smallest allowed.
        min: f64,
        /// The largest allowed.
        max: f64,
    },
    /// `runs` is an empty list.
    #[error("no measured runs")]
    NoRuns,
    /// Values that cannot all be true of one study: a thread count not above the one before
    /// it, or a run's fastest time above its median (or its median above its slowest).
    #[error("{field} {why}")]
    Inconsistent {
        /// The field's path.
        field: String,
        /// What is wrong with it, after the field's path.
        why: String,
    },
    /// One of several studies of `"series"` is wrong.
    #[error("series {index}: {error}")]
    InSeries {
        /// Which, from 1.
        index: usize,
        /// What is wrong with it.
        error: Box<SavedError>,
    },
}

/// Checks what a measured study always is: thread counts rising, each run's times in order.
fn consistent(runs: &[MeasuredPoint]) -> Result<(), SavedError> {
    let wrong = |field: String, why: String| Err(SavedError::Inconsistent { field, why });
    for (i, run) in runs.iter().enumerate() {
        if let Some(before) = i.checked_sub(1).map(|b| runs[b].threads)
            && run.threads <= before
        {
            return wrong(
                format!("runs[{i}].threads"),
                format!("is {}, not above {before} before it", run.threads),
            );
        }
        if !(run.min_seconds <= run.median_seconds && run.median_seconds <= run.max_seconds) {
            return wrong(
                format!("runs[{i}]"),
                format!(
                    "has its times out of order: fastest {}, median {}, slowest {}",
                    shown(run.min_seconds),
                    shown(run.median_seconds),
                    shown(run.max_seconds)
                ),
            );
        }
    }
    Ok(())
}

/// A number as a message shows it: plain, or in exponent form where it is very large or small.
fn shown(x: f64) -> String {
    if x != 0.0 && !(1e-4..1e9).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// What was found where one value is expected: the value of the expected shape (an object or a
/// list), nothing, or something else.
#[derive(Clone, Debug, Default)]
enum Found<T> {
    /// The field is not there.
    #[default]
    Absent,
    /// `null`.
    Null,
    /// The value, of the expected shape.
    Is(T),
    /// Something else: what (`a string`, `a list`, …).
    Not(&'static str),
}

impl<T: Shape> Found<T> {
    /// What was found, for a message.
    fn kind(&self) -> &'static str {
        match self {
            Found::Absent => "nothing",
            Found::Null => "null",
            Found::Is(_) if T::LIST => "a list",
            Found::Is(_) => "an object",
            Found::Not(kind) => kind,
        }
    }
}

/// The shape a value is read from: an object of fields, or a list.
trait Shape {
    /// Read from a list (otherwise from an object).
    const LIST: bool = false;
}

impl<T> Shape for Vec<T> {
    const LIST: bool = true;
}

impl<'de, T: Deserialize<'de> + Shape> Deserialize<'de> for Found<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Of<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de> + Shape> Visitor<'de> for Of<T> {
            type Value = Found<T>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Found<T>, A::Error> {
                if T::LIST {
                    IgnoredAny.visit_map(map)?;
                    return Ok(Found::Not("an object"));
                }
                T::deserialize(MapAccessDeserializer::new(map)).map(Found::Is)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Found<T>, A::Error> {
                if !T::LIST {
                    IgnoredAny.visit_seq(seq)?;
                    return Ok(Found::Not("a list"));
                }
                T::deserialize(SeqAccessDeserializer::new(seq)).map(Found::Is)
            }

            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Found<T>, D::Error> {
                Found::deserialize(d)
            }

            fn visit_none<E>(self) -> Result<Found<T>, E> {
                Ok(Found::Null)
            }

            fn visit_unit<E>(self) -> Result<Found<T>, E> {
                Ok(Found::Null)
            }

            fn visit_bool<E>(self, _: bool) -> Result<Found<T>, E> {
                Ok(Found::Not("true or false"))
            }

            fn visit_i64<E>(self, _: i64) -> Result<Found<T>, E> {
                Ok(Found::Not("a number"))
            }

            fn visit_u64<E>(self, _: u64) -> Result<Found<T>, E> {
                Ok(Found::Not("a number"))
            }

            fn visit_f64<E>(self, _: f64) -> Result<Found<T>, E> {
                Ok(Found::Not("a number"))
            }

            fn visit_str<E>(self, _: &str) -> Result<Found<T>, E> {
                Ok(Found::Not("a string"))
            }
        }

        d.deserialize_any(Of(PhantomData))
    }
}

/// A single value where one is expected: a number, a string, or what else was found.
#[derive(Clone, Debug, Default, PartialEq)]
enum Leaf {
    /// The field is not there.
    #[default]
    Absent,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A whole number, zero or more.
    Whole(u64),
    /// A negative whole number.
    Negative(i64),
    /// Any other number.
    Real(f64),
    /// A string.
    Text(String),
    /// A list.
    List,
    /// An object.
    Object,
}

impl Leaf {
    /// What it is, for a message.
    fn kind(&self) -> &'static str {
        match self {
            Leaf::Absent => "nothing",
            Leaf::Null => "null",
            Leaf::Bool => "true or false",
            Leaf::Whole(_) | Leaf::Negative(_) | Leaf::Real(_) => "a number",
            Leaf::Text(_) => "a string",
            Leaf::List => "a list",
            Leaf::Object => "an object",
        }
    }

    /// The number, if it is one.
    fn number(&self) -> Option<f64> {
        match *self {
            Leaf::Whole(u) => Some(u as f64),
            Leaf::Negative(i) => Some(i as f64),
            Leaf::Real(x) => Some(x),
            _ => None,
        }
    }

    /// The string, if it is one.
    fn text(&self) -> Option<String> {
        match self {
            Leaf::Text(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// The whole number in `range` (named `field` in errors); `None` where it is absent.
    fn whole(&self, field: &str, range: RangeInclusive<u64>) -> Result<Option<u64>, SavedError> {
        let field = field.to_string();
        match *self {
            Leaf::Absent => Ok(None),
            Leaf::Whole(u) if range.contains(&u) => Ok(Some(u)),
            Leaf::Whole(found) => Err(SavedError::WholeOutOfRange {
                field,
                found,
                min: *range.start(),
                max: *range.end(),
            }),
            Leaf::Negative(i) => Err(SavedError::Negative {
                field,
                found: i as f64,
            }),
            Leaf::Real(found) if found < 0.0 => Err(SavedError::Negative { field, found }),
            Leaf::Real(found) => Err(SavedError::NotWhole { field, found }),
            ref other => Err(SavedError::Kind {
                field,
                expected: "a whole number",
                found: other.kind(),
            }),
        }
    }

    /// The number in `range` (named `field` in errors); `None` where it is absent or null.
    fn number_in(
        &self,
        field: &str,
        range: &RangeInclusive<f64>,
    ) -> Result<Option<f64>, SavedError> {
        match self.number() {
            Some(x) if range.contains(&x) => Ok(Some(x)),
            Some(found) => Err(SavedError::OutOfRange {
                field: field.to_string(),
                found,
                min: *range.start(),
                max: *range.end(),
            }),
            None if matches!(self, Leaf::Absent | Leaf::Null) => Ok(None),
            None => Err(SavedError::Kind {
                field: field.to_string(),
                expected: "a number",
                found: self.kind(),
            }),
        }
    }
}

impl<'de> Deserialize<'de> for Leaf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Any;

        impl<'de> Visitor<'de> for Any {
            type Value = Leaf;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }

            fn visit_none<E>(self) -> Result<Leaf, E> {
                Ok(Leaf::Null)
            }

            fn visit_unit<E>(self) -> Result<Leaf, E> {
                Ok(Leaf::Null)
            }

            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Leaf, D::Error> {
                Leaf::deserialize(d)
            }

            fn visit_bool<E>(self, _: bool) -> Result<Leaf, E> {
                Ok(Leaf::Bool)
            }

            fn visit_u64<E>(self, u: u64) -> Result<Leaf, E> {
                Ok(Leaf::Whole(u))
            }

            fn visit_i64<E>(self, i: i64) -> Result<Leaf, E> {
                Ok(u64::try_from(i).map_or(Leaf::Negative(i), Leaf::Whole))
            }

            fn visit_f64<E>(self, x: f64) -> Result<Leaf, E> {
                Ok(Leaf::Real(x))
            }

            fn visit_str<E>(self, s: &str) -> Result<Leaf, E> {
                Ok(Leaf::Text(s.to_string()))
            }

            fn visit_string<E>(self, s: String) -> Result<Leaf, E> {
                Ok(Leaf::Text(s))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Leaf, A::Error> {
                IgnoredAny.visit_seq(seq)?;
                Ok(Leaf::List)
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Leaf, A::Error> {
                IgnoredAny.visit_map(map)?;
                Ok(Leaf::Object)
            }
        }

        d.deserialize_any(Any)
    }
}

/// The fields of a saved study that a series reads, as found; `series` only at the top, where
/// it holds the studies of a file of several.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
struct SavedStudy {
    series: Found<Vec<Found<SavedStudy>>>,
    n: Leaf,
    strategy: Leaf,
    kernel: Leaf,
    machine: Found<SavedMachine>,
    repeat: Leaf,
    runs: Found<Vec<Found<SavedPoint>>>,
    model: Found<Vec<Found<SavedModelPoint>>>,
    total: Leaf,
    run: Found<SavedRun>,
}

/// A saved [`Machine`](crate::scaling::Machine).
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
struct SavedMachine {
    logical: Leaf,
    physical: Leaf,
}

/// A saved [`MeasuredPoint`].
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
struct SavedPoint {
    threads: Leaf,
    median_seconds: Leaf,
    min_seconds: Leaf,
    max_seconds: Leaf,
    speedup: Leaf,
    efficiency: Leaf,
    cpu_share: Leaf,
    loss: Found<SavedLoss>,
}

/// A saved [`Loss`].
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
struct SavedLoss {
    serial: Leaf,
    imbalance: Leaf,
    other_programs: Leaf,
    slowdown: Leaf,
    unexplained: Leaf,
}

/// A saved [`ModelPoint`].
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
struct SavedModelPoint {
    workers: Leaf,
    predicted_seconds: Leaf,
    speedup: Leaf,
    efficiency: Leaf,
    with_losses_seconds: Leaf,
    with_losses_speedup: Leaf,
    losses_from_threads: Leaf,
}

/// What a series reads of a saved [`RunInfo`](crate::scaling::RunInfo); older results have none.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
struct SavedRun {
    cpu: Leaf,
    date: Leaf,
    version: Leaf,
}

impl Shape for SavedStudy {}
impl Shape for SavedMachine {}
impl Shape for SavedPoint {}
impl Shape for SavedLoss {}
impl Shape for SavedModelPoint {}
impl Shape for SavedRun {}

/// The error of an absent field.
fn missing(field: &str) -> SavedError {
    SavedError::Missing {
        field: field.to_string(),
    }
}

/// A required count from 1 to [`MAX_COUNT`].
fn count(leaf: &Leaf, field: &str) -> Result<usize, SavedError> {
    let whole = leaf.whole(field, 1..=MAX_COUNT as u64)?;
    Ok(whole.ok_or_else(|| missing(field))? as usize)
}

/// A required number in `range`.
fn number(leaf: &Leaf, field: &str, range: &RangeInclusive<f64>) -> Result<f64, SavedError> {
    leaf.number_in(field, range)?.ok_or_else(|| missing(field))
}

/// A required string.
fn text(leaf: &Leaf, field: &str) -> Result<String, SavedError> {
    match leaf {
        Leaf::Absent => Err(missing(field)),
        Leaf::Text(s) => Ok(s.clone()),
        other => Err(SavedError::Kind {
            field: field.to_string(),
            expected: "a string",
            found: other.kind(),
        }),
    }
}

/// The error of a value at `field` of another shape than `T`'s.
fn not_shaped<T: Shape>(found: &Found<T>, field: String) -> SavedError {
    SavedError::Kind {
        field,
        expected: if T::LIST { "a list" } else { "an object" },
        found: found.kind(),
    }
}

/// The value at `field`; `None` where it is absent, or null when `nullable`.
fn shaped<'a, T: Shape>(
    found: &'a Found<T>,
    field: &str,
    nullable: bool,
) -> Result<Option<&'a T>, SavedError> {
    match found {
        Found::Absent => Ok(None),
        Found::Null if nullable => Ok(None),
        Found::Is(value) => Ok(Some(value)),
        other => Err(not_shaped(other, field.to_string())),
    }
}

/// The list at `field`, each item an object; `None` where it is absent, or null when
/// `nullable`.
fn list<'a, T: Shape>(
    found: &'a Found<Vec<Found<T>>>,
    field: &str,
    nullable: bool,
) -> Result<Option<Vec<&'a T>>, SavedError> {
    let Some(items) = shaped(found, field, nullable)? else {
        return Ok(None);
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Found::Is(item) => Ok(item),
            other => Err(not_shaped(other, format!("{field}[{i}]"))),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

impl SavedStudy {
    /// The series of this study, checked.
    fn series_of(&self) -> Result<Series, SavedError> {
        let whole_n = self.n.whole("n", 0..=u64::from(MAX_N))?;
        let n = whole_n.ok_or_else(|| missing("n"))? as u32;
        let machine = shaped(&self.machine, "machine", false)?.ok_or_else(|| missing("machine"))?;
        let logical = count(&machine.logical, "machine.logical")?;
        let physical = count(&machine.physical, "machine.physical")?;
        let saved_runs = list(&self.runs, "runs", false)?.ok_or_else(|| missing("runs"))?;
        let mut runs = saved_runs
            .iter()
            .enumerate()
            .map(|(i, point)| point.checked(&format!("runs[{i}]"), physical))
            .collect::<Result<Vec<_>, _>>()?;
        if runs.is_empty() {
            return Err(SavedError::NoRuns);
        }
        consistent(&runs)?;
        // Saved before the CPU time other programs took was a part of its own: split it off
        // the slowdown as a study does now.
        let older = |i: usize| matches!(&saved_runs[i].loss, Found::Is(loss) if matches!(loss.other_programs, Leaf::Absent));
        split_other_programs(&mut runs, logical, older);
        let model = list(&self.model, "model", true)?
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .map(|(i, point)| point.checked(&format!("model[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let total = match self.total {
            Leaf::Whole(total) => Some(u128::from(total)),
            _ => known::total(n),
        };
        let headline = total.and_then(|total| {
            Headline::best(
                total,
                runs.iter().map(|p| (p.threads, p.median_seconds)),
                physical,
            )
        });
        let run = |pick: fn(&SavedRun) -> &Leaf| match &self.run {
            Found::Is(run) => pick(run).text(),
            _ => None,
        };
        let strategy = text(&self.strategy, "strategy")?;
        let kernel = text(&self.kernel, "kernel")?;
        let repeat = self.repeat.whole("repeat", 1..=MAX_REPEAT as u64)?;
        Ok(Series {
            source: None,
            n,
            strategy,
            kernel,
            cpu: run(|r| &r.cpu),
            logical,
            physical,
            repeat: repeat.unwrap_or(1) as usize,
            runs,
            model,
            headline,
            date: run(|r| &r.date),
            version: run(|r| &r.version),
        })
    }
}

impl SavedPoint {
    /// The measured point at `field` on a machine of `physical` cores, checked.
    fn checked(&self, field: &str, physical: usize) -> Result<MeasuredPoint, SavedError> {
        let at = |key: &str| format!("{field}.{key}");
        let time = |leaf: &Leaf, key: &str| number(leaf, &at(key), &TIME_RANGE);
        let threads = count(&self.threads, &at("threads"))?;
        Ok(MeasuredPoint {
            threads,
            median_seconds: time(&self.median_seconds, "median_seconds")?,
            min_seconds: time(&self.min_seconds, "min_seconds")?,
            max_seconds: time(&self.max_seconds, "max_seconds")?,
            speedup: time(&self.speedup, "speedup")?,
            efficiency: number(&self.efficiency, &at("efficiency"), &SHARE_RANGE)?,
            cpu_share: self.cpu_share.number_in(&at("cpu_share"), &SHARE_RANGE)?,
            shares_core: threads > physical,
            // Older results have no breakdown.
            loss: shaped(&self.loss, &at("loss"), true)?
                .map(|loss| loss.checked(&at("loss")))
                .transpose()?,
        })
    }
}

impl SavedLoss {
    /// The loss breakdown at `field`, checked.
    fn checked(&self, field: &str) -> Result<Loss, SavedError> {
        let part = |leaf: &Leaf, key: &str| number(leaf, &format!("{field}.{key}"), &SHARE_RANGE);
        Ok(Loss {
            serial: part(&self.serial, "serial")?,
            imbalance: part(&self.imbalance, "imbalance")?,
            // Older results have it in the slowdown: the series splits it off.
            other_programs: self
                .other_programs
                .number_in(&format!("{field}.other_programs"), &SHARE_RANGE)?
                .unwrap_or(0.0),
            slowdown: part(&self.slowdown, "slowdown")?,
            unexplained: part(&self.unexplained, "unexplained")?,
        })
    }
}

impl SavedModelPoint {
    /// The model's point at `field`, checked.
    fn checked(&self, field: &str) -> Result<ModelPoint, SavedError> {
        let at = |key: &str| format!("{field}.{key}");
        let time = |leaf: &Leaf, key: &str| leaf.number_in(&at(key), &TIME_RANGE);
        Ok(ModelPoint {
            workers: count(&self.workers, &at("workers"))?,
            predicted_seconds: time(&self.predicted_seconds, "predicted_seconds")?
                .ok_or_else(|| missing(&at("predicted_seconds")))?,
            speedup: time(&self.speedup, "speedup")?.ok_or_else(|| missing(&at("speedup")))?,
            efficiency: number(&self.efficiency, &at("efficiency"), &SHARE_RANGE)?,
            with_losses_seconds: time(&self.with_losses_seconds, "with_losses_seconds")?,
            with_losses_speedup: time(&self.with_losses_speedup, "with_losses_speedup")?,
            losses_from_threads: self
                .losses_from_threads
                .whole(&at("losses_from_threads"), 1..=MAX_COUNT as u64)?
                .map(|t| t as usize),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The series of `value`, or the message of what is wrong with it.
    fn read(value: serde_json::Value) -> Result<Vec<Series>, String> {
        let saved: Saved = serde_json::from_value(value).map_err(|e| e.to_string())?;
        saved.series().map_err(|e| e.to_string())
    }

    #[test]
    fn runs_that_cannot_be_of_one_study_are_refused() {
        let mut twice = crafted();
        twice["runs"][1]["threads"] = serde_json::json!(1);
        assert_eq!(
            read(twice).unwrap_err(),
            "runs[1].threads is 1, not above 1 before it"
        );
        let mut falling = crafted();
        falling["runs"][0]["threads"] = serde_json::json!(4);
        assert_eq!(
            read(falling).unwrap_err(),
            "runs[1].threads is 2, not above 4 before it"
        );
        let mut slow_fastest = crafted();
        slow_fastest["runs"][0]["min_seconds"] = serde_json::json!(1.05);
        assert_eq!(
            read(slow_fastest).unwrap_err(),
            "runs[0] has its times out of order: fastest 1.05, median 1, slowest 1.1"
        );
    }

    /// A small valid saved study: n = 12, measured on 1 and 2 threads.
    fn crafted() -> serde_json::Value {
        serde_json::json!({
            "n": 12, "strategy": "symmetric", "kernel": "avx512", "repeat": 3,
            "machine": {"logical": 2, "physical": 2},
            "runs": [
                {"threads": 1, "median_seconds": 1.0, "min_seconds": 0.9, "max_seconds": 1.1,
                 "speedup": 1.0, "efficiency": 1.0, "cpu_share": 0.99},
                {"threads": 2, "median_seconds": 0.55, "min_seconds": 0.5, "max_seconds": 0.6,
                 "speedup": 1.82, "efficiency": 0.91, "cpu_share": 0.98}
            ],
            "model": [
                {"workers": 1, "predicted_seconds": 1.0, "speedup": 1.0, "efficiency": 1.0},
                {"workers": 2, "predicted_seconds": 0.5, "speedup": 2.0, "efficiency": 1.0}
            ]
        })
    }

    /// What is wrong with [`crafted`] once `pointer` holds `value` (its last key added where
    /// absent).
    fn refused(pointer: &str, value: serde_json::Value) -> String {
        let mut v = crafted();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        match v.pointer_mut(parent).unwrap() {
            serde_json::Value::Array(items) => items[key.parse::<usize>().unwrap()] = value,
            object => {
                object.as_object_mut().unwrap().insert(key.into(), value);
            }
        }
        read(v).unwrap_err()
    }

    #[test]
    fn a_saved_study_is_read_back() {
        let series = read(crafted()).unwrap();
        assert_eq!(series.len(), 1);
        let s = &series[0];
        assert_eq!(
            (s.n, s.strategy.as_str(), s.kernel.as_str()),
            (12, "symmetric", "avx512")
        );
        assert_eq!((s.logical, s.physical, s.repeat), (2, 2, 3));
        assert_eq!(
            (s.source.as_ref(), s.cpu.as_ref(), s.date.as_ref()),
            (None, None, None)
        );
        assert_eq!(s.runs[1].cpu_share, Some(0.98));
        assert!(s.runs.iter().all(|p| !p.shares_core && p.loss.is_none()));
        assert_eq!(s.model[1].with_losses_seconds, None);
        // The total of the known table, at the fastest median.
        let headline = s.headline.unwrap();
        assert_eq!((headline.solutions, headline.threads), (14_200, 2));
    }

    #[test]
    fn an_older_busy_result_has_the_cpu_time_of_other_programs_split_off_its_slowdown() {
        let point = |threads, efficiency, cpu_share, slowdown| {
            serde_json::json!({
                "threads": threads, "median_seconds": 1.0, "min_seconds": 1.0,
                "max_seconds": 1.0, "speedup": 1.0, "efficiency": efficiency,
                "cpu_share": cpu_share,
                "loss": {"serial": 0.0, "imbalance": 0.0, "slowdown": slowdown, "unexplained": 0.0}
            })
        };
        let value = serde_json::json!({
            "n": 17, "strategy": "symmetric", "kernel": "avx2",
            "machine": {"logical": 2, "physical": 2},
            "runs": [point(1, 1.0, 1.0, 0.0), point(2, 0.5, 0.505, 0.5)]
        });
        let series = read(value.clone()).unwrap();
        let loss = series[0].runs[1].loss.unwrap();
        assert!((loss.other_programs - 0.495).abs() < 1e-12, "{loss:?}");
        assert!((loss.slowdown - 0.005).abs() < 1e-12, "{loss:?}");
        assert!((loss.total() - 0.5).abs() < 1e-12, "{loss:?}");
        // A result that has the part keeps it as saved.
        let mut newer = value;
        newer["runs"][1]["loss"]["other_programs"] = serde_json::json!(0.1);
        newer["runs"][1]["loss"]["slowdown"] = serde_json::json!(0.4);
        let loss = read(newer).unwrap()[0].runs[1].loss.unwrap();
        assert_eq!((loss.other_programs, loss.slowdown), (0.1, 0.4));
    }

    #[test]
    fn a_saved_loss_breakdown_is_read_back() {
        let value = serde_json::json!({
            "n": 12, "strategy": "symmetric", "kernel": "avx512",
            "machine": {"logical": 2, "physical": 2},
            "runs": [{
                "threads": 2, "median_seconds": 1.0, "min_seconds": 1.0, "max_seconds": 1.0,
                "speedup": 1.8, "efficiency": 0.9,
                "loss": {"serial": 0.02, "imbalance": 0.03, "slowdown": 0.04, "unexplained": 0.01}
            }]
        });
        let series = read(value).unwrap();
        let loss = series[0].runs[0].loss.unwrap();
        assert_eq!((loss.serial, loss.imbalance), (0.02, 0.03));
        assert_eq!((loss.slowdown, loss.unexplained), (0.04, 0.01));
        assert_eq!(
            refused("/runs/0/efficiency", serde_json::json!(null)),
            r#"no "runs[0].efficiency""#
        );
        let mut v = crafted();
        v["runs"][0]["loss"] = serde_json::json!({"serial": 0.0});
        assert_eq!(read(v).unwrap_err(), r#"no "runs[0].loss.imbalance""#);
        let mut v = crafted();
        v["runs"][0]["loss"] = serde_json::json!([1]);
        assert_eq!(
            read(v).unwrap_err(),
            "runs[0].loss must be an object, found a list"
        );
    }

    #[test]
    fn foreign_values_are_refused_with_the_key_they_lack() {
        assert_eq!(read(serde_json::json!({"a": 1})).unwrap_err(), r#"no "n""#);
        assert_eq!(
            read(serde_json::json!([1, 2])).unwrap_err(),
            "not an object (found a list)"
        );
        for series in [serde_json::json!(3), serde_json::json!([])] {
            assert_eq!(
                read(serde_json::json!({ "series": series })).unwrap_err(),
                r#""series" is not a list of studies"#
            );
        }
        let mut v = crafted();
        v.as_object_mut().unwrap().remove("machine");
        assert_eq!(read(v).unwrap_err(), r#"no "machine""#);
        let mut v = crafted();
        v["runs"] = serde_json::json!([]);
        assert_eq!(read(v).unwrap_err(), "no measured runs");
        assert_eq!(
            refused("/runs", serde_json::json!({})),
            "runs must be a list, found an object"
        );
        assert_eq!(
            refused("/runs/1", serde_json::json!(7)),
            "runs[1] must be an object, found a number"
        );
        assert_eq!(
            refused("/machine", serde_json::json!("big")),
            "machine must be an object, found a string"
        );
        assert_eq!(
            refused("/kernel", serde_json::json!(true)),
            "kernel must be a string, found true or false"
        );
    }

    #[test]
    fn wrong_kinds_signs_and_ranges_name_the_field() {
        for (pointer, value, wanted) in [
            (
                "/n",
                serde_json::json!("12"),
                "n must be a whole number, found a string",
            ),
            (
                "/n",
                serde_json::json!(null),
                "n must be a whole number, found null",
            ),
            (
                "/n",
                serde_json::json!(-1),
                "n cannot be negative (found -1)",
            ),
            (
                "/n",
                serde_json::json!(12.5),
                "n must be a whole number, found 12.5",
            ),
            ("/n", serde_json::json!(65), "n is 65, outside 0 to 64"),
            (
                "/repeat",
                serde_json::json!(0),
                "repeat is 0, outside 1 to 1000",
            ),
            (
                "/machine/logical",
                serde_json::json!(-2.5),
                "machine.logical cannot be negative (found -2.5)",
            ),
            (
                "/runs/1/threads",
                serde_json::json!(0),
                "runs[1].threads is 0, outside 1 to 1048576",
            ),
            (
                "/runs/1/speedup",
                serde_json::json!(1e-310),
                "runs[1].speedup is 1e-310, outside 1e-9 to 1e9",
            ),
            (
                "/runs/0/cpu_share",
                serde_json::json!(-2e9),
                "runs[0].cpu_share is -2e9, outside -1e9 to 1e9",
            ),
            (
                "/runs/1/efficiency",
                serde_json::json!("high"),
                "runs[1].efficiency must be a number, found a string",
            ),
            (
                "/model",
                serde_json::json!(1),
                "model must be a list, found a number",
            ),
            (
                "/model/1/speedup",
                serde_json::json!(1.7e308),
                "model[1].speedup is 1.7e308, outside 1e-9 to 1e9",
            ),
            (
                "/model/0/losses_from_threads",
                serde_json::json!(0),
                "model[0].losses_from_threads is 0, outside 1 to 1048576",
            ),
        ] {
            assert_eq!(refused(pointer, value), wanted, "{pointer}");
        }
        // A model of null, like an absent one, is no model.
        let mut v = crafted();
        v["model"] = serde_json::json!(null);
        assert!(read(v).unwrap()[0].model.is_empty());
    }

    #[test]
    fn several_studies_are_read_in_turn_and_a_wrong_one_is_named() {
        let second = {
            let mut v = crafted();
            v["n"] = serde_json::json!(11);
            v["total"] = serde_json::json!(5);
            v["run"] = serde_json::json!({"cpu": "Some CPU", "date": "2026-11-24T00:00:00Z", "version": 1});
            v
        };
        let series = read(serde_json::json!({"series": [crafted(), second]})).unwrap();
        assert_eq!((series[0].n, series[1].n), (12, 11));
        assert_eq!(series[1].headline.unwrap().solutions, 5);
        assert_eq!(series[1].cpu.as_deref(), Some("Some CPU"));
        assert_eq!(series[1].date.as_deref(), Some("2026-11-24T00:00:00Z"));
        // Not a string: not recorded.
        assert_eq!(series[1].version, None);

        let mut wrong = crafted();
        wrong["runs"][0]["threads"] = serde_json::json!(-4);
        let err = read(serde_json::json!({"series": [crafted(), wrong]})).unwrap_err();
        assert_eq!(
            err,
            "series 2: runs[0].threads cannot be negative (found -4)"
        );
        let err = read(serde_json::json!({"series": [crafted(), "x"]})).unwrap_err();
        assert_eq!(err, "series 2: not an object (found a string)");
        // One study alone is not numbered.
        let mut wrong = crafted();
        wrong["n"] = serde_json::json!(-1);
        let err = read(serde_json::json!({ "series": [wrong] })).unwrap_err();
        assert_eq!(err, "n cannot be negative (found -1)");
    }

    #[test]
    fn older_saved_results_are_read() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/measurements");
        let mut read_any = false;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let saved: Saved = serde_json::from_str(&text).unwrap();
            let series = saved.series().unwrap_or_else(|e| panic!("{path:?}: {e}"));
            for s in &series {
                assert!(!s.runs.is_empty() && s.headline.is_some(), "{path:?}");
                assert_eq!(s.runs[0].threads, 1, "{path:?}");
            }
            read_any = true;
        }
        assert!(read_any);
    }

    #[test]
    fn numbers_in_messages_are_short() {
        assert_eq!(shown(0.0), "0");
        assert_eq!(shown(0.25), "0.25");
        assert_eq!(shown(-3.0), "-3");
        assert_eq!(shown(1e9), "1e9");
        assert_eq!(shown(4e-311), "4e-311");
    }
}
