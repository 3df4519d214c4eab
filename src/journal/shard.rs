//! Shards: a plan's tasks split into `M` deterministic parts of about equal work.
//!
//! Shard `K` of `M` is numbered from 0 (`0/8` … `7/8`), like a Kubernetes
//! `JOB_COMPLETION_INDEX`; `0/1` is the whole plan. Tasks are dealt out in the plan's
//! largest-first order in a snake: `0, 1, …, M−1, M−1, …, 1, 0, 0, 1, …`, so that every shard
//! gets a share of large and of small tasks. The deal depends only on the plan's task order,
//! which its fingerprint names, so every machine computes the same shards.

use std::env::VarError;
use std::fmt;
use std::str::FromStr;

use crate::engine::plan::Plan;
pub use crate::error::shard::ShardError;
pub use crate::ids::Shard;

// Written as `K/M`, as the command's output shows it.
#[cfg(feature = "serde")]
crate::serde_util::as_text!(Shard);

impl Shard {
    /// The shard of a Slurm array task: `K = (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) /
    /// SLURM_ARRAY_TASK_STEP` (step 1 when unset) and `M = SLURM_ARRAY_TASK_COUNT`, so
    /// `--array=0-7` and `--array=1-8` both give shards `0/8` … `7/8`. `var` reads one variable
    /// (`std::env::var` in the program). A missing, non-numeric (or not UTF-8) or inconsistent
    /// environment is an error naming the variables, and so is an array of one task
    /// ([`ShardError::SlurmOneTask`]): `sbatch --array=2`, which re-runs one failed task of a
    /// larger array, would otherwise count the whole board as shard `0/1`
    /// ([`Shard::from_slurm_task`] takes the shard count from the user instead).
    ///
    /// # Errors
    ///
    /// [`ShardError::SlurmUnset`], [`ShardError::SlurmNotUnicode`] or
    /// [`ShardError::SlurmNotANumber`] for a missing or non-numeric variable,
    /// [`ShardError::SlurmInconsistent`] for an environment that names no shard, and
    /// [`ShardError::SlurmOneTask`] for an array of one task.
    ///
    /// ```
    /// use std::env::VarError;
    /// use nqueens::journal::Shard;
    /// let env = |name: &str| match name {
    ///     "SLURM_ARRAY_TASK_ID" => Ok("5".to_string()),
    ///     "SLURM_ARRAY_TASK_MIN" => Ok("1".to_string()),
    ///     "SLURM_ARRAY_TASK_COUNT" => Ok("8".to_string()),
    ///     _ => Err(VarError::NotPresent),
    /// };
    /// assert_eq!(Shard::from_slurm_env(env), Ok(Shard::new(4, 8).unwrap()));
    /// // In the program: `Shard::from_slurm_env(|name| std::env::var(name))`.
    /// ```
    pub fn from_slurm_env(
        var: impl Fn(&str) -> Result<String, VarError>,
    ) -> Result<Shard, ShardError> {
        let get = |name: &'static str| -> Result<u64, ShardError> {
            let value = var(name).map_err(|e| match e {
                VarError::NotPresent => ShardError::SlurmUnset(name),
                VarError::NotUnicode(_) => ShardError::SlurmNotUnicode(name),
            })?;
            value
                .trim()
                .parse()
                .map_err(|_| ShardError::SlurmNotANumber { name, value })
        };
        let id = get("SLURM_ARRAY_TASK_ID")?;
        let min = get("SLURM_ARRAY_TASK_MIN")?;
        let count = get("SLURM_ARRAY_TASK_COUNT")?;
        let step = match var("SLURM_ARRAY_TASK_STEP") {
            Err(VarError::NotPresent) => 1,
            _ => get("SLURM_ARRAY_TASK_STEP")?,
        };
        if count == 1 {
            return Err(ShardError::SlurmOneTask { id });
        }
        let inconsistent = |why: &'static str| ShardError::SlurmInconsistent {
            id,
            min,
            count,
            step,
            why,
        };
        if step == 0 {
            return Err(inconsistent("the step is 0"));
        }
        if id < min || (id - min) % step != 0 {
            return Err(inconsistent("the task id is not an index of the array"));
        }
        let index = (id - min) / step;
        let count = u32::try_from(count).map_err(|_| inconsistent("too many tasks"))?;
        let index = u32::try_from(index).map_err(|_| inconsistent("the task id is too large"))?;
        Shard::new(index, count)
            .map_err(|_| inconsistent("the task id is beyond the array's count"))
    }

    /// Shard `SLURM_ARRAY_TASK_ID` of `count` ([`ShardSpec::SlurmOf`]): the array's task ids are the
    /// shards, whatever else the array holds, so that one task of a count can be run again on
    /// its own (`sbatch --array=5`, whose environment says nothing of the other shards). `var`
    /// reads one variable, as in [`Shard::from_slurm_env`].
    ///
    /// # Errors
    ///
    /// [`ShardError::SlurmUnset`], [`ShardError::SlurmNotUnicode`] or
    /// [`ShardError::SlurmNotANumber`] for a missing or non-numeric variable,
    /// [`ShardError::ZeroCount`] for a `count` of 0, and [`ShardError::SlurmIdBeyond`] for a task
    /// id that is not below `count`.
    ///
    /// ```
    /// use std::env::VarError;
    /// use nqueens::journal::{Shard, ShardError};
    /// // The environment of `sbatch --array=5`.
    /// let env = |name: &str| match name {
    ///     "SLURM_ARRAY_TASK_ID" | "SLURM_ARRAY_TASK_MIN" => Ok("5".to_string()),
    ///     "SLURM_ARRAY_TASK_COUNT" => Ok("1".to_string()),
    ///     _ => Err(VarError::NotPresent),
    /// };
    /// assert_eq!(Shard::from_slurm_task(env, 8), Ok(Shard::new(5, 8).unwrap()));
    /// assert_eq!(Shard::from_slurm_env(env), Err(ShardError::SlurmOneTask { id: 5 }));
    /// assert_eq!(
    ///     Shard::from_slurm_task(env, 4),
    ///     Err(ShardError::SlurmIdBeyond { id: 5, count: 4 })
    /// );
    /// ```
    pub fn from_slurm_task(
        var: impl Fn(&str) -> Result<String, VarError>,
        count: u32,
    ) -> Result<Shard, ShardError> {
        const ID: &str = "SLURM_ARRAY_TASK_ID";
        let value = var(ID).map_err(|e| match e {
            VarError::NotPresent => ShardError::SlurmUnset(ID),
            VarError::NotUnicode(_) => ShardError::SlurmNotUnicode(ID),
        })?;
        let id: u64 = value
            .trim()
            .parse()
            .map_err(|_| ShardError::SlurmNotANumber { name: ID, value })?;
        let beyond = ShardError::SlurmIdBeyond { id, count };
        let index = u32::try_from(id).map_err(|_| beyond.clone())?;
        match Shard::new(index, count) {
            Err(ShardError::OutOfRange { .. }) => Err(beyond),
            other => other,
        }
    }

    /// The whole plan as a single shard (`0/1`).
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`; an error when `count` is 0 or `index` is not below it.
    ///
    /// # Errors
    ///
    /// [`ShardError::ZeroCount`] when `count` is 0, [`ShardError::OutOfRange`] when `index` is not
    /// below it.
    ///
    /// ```
    /// use nqueens::journal::{Shard, ShardError};
    /// assert_eq!(Shard::new(3, 8).unwrap().to_string(), "3/8");
    /// assert_eq!(Shard::new(8, 8), Err(ShardError::OutOfRange { index: 8, count: 8 }));
    /// ```
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::ZeroCount);
        }
        if index >= count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// Which shard this is, from 0 to [`Shard::count`] − 1.
    ///
    /// ```
    /// use nqueens::journal::Shard;
    /// assert_eq!(Shard::new(3, 8).unwrap().index(), 3);
    /// assert_eq!(Shard::WHOLE.index(), 0);
    /// ```
    #[must_use]
    pub const fn index(&self) -> u32 {
        self.index
    }

    /// How many shards the plan is split into (at least 1).
    ///
    /// ```
    /// use nqueens::journal::Shard;
    /// assert_eq!(Shard::new(3, 8).unwrap().count(), 8);
    /// assert_eq!(Shard::WHOLE.count(), 1);
    /// ```
    #[must_use]
    pub const fn count(&self) -> u32 {
        self.count
    }

    /// Whether this shard is the whole plan.
    #[must_use]
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The shard as a message names it: `shard 3/8`, or `the whole board` for
    /// [`Shard::WHOLE`] (a whole count is not a shard to the people who run it).
    ///
    /// ```
    /// use nqueens::journal::Shard;
    /// assert_eq!(Shard::new(3, 8).unwrap().describe(), "shard 3/8");
    /// assert_eq!(Shard::WHOLE.describe(), "the whole board");
    /// ```
    #[must_use]
    pub fn describe(&self) -> String {
        if self.is_whole() {
            "the whole board".to_string()
        } else {
            format!("shard {self}")
        }
    }

    /// Whether a plan of `tasks` tasks can be split into this shard's count of shards: no more
    /// shards than tasks, so that every shard holds one. The one rule by which a count refuses
    /// a split ([`Shard::for_plan`]) and a journal's header naming another is damage.
    pub(crate) fn fits(&self, tasks: u64) -> bool {
        u64::from(self.count) <= tasks
    }

    /// This shard of `plan`, when the plan has a task for each of the shards ([`Shard::fits`]).
    pub(crate) fn for_plan(self, plan: &Plan) -> Result<Shard, ShardError> {
        if self.fits(plan.tasks().len() as u64) {
            Ok(self)
        } else {
            Err(ShardError::MoreShardsThanTasks {
                count: self.count,
                tasks: plan.tasks().len(),
                n: plan.n(),
                strategy: plan.strategy().name(),
            })
        }
    }

    /// The shard task `position` of a plan (in plan order) belongs to.
    pub(crate) fn of_position(position: usize, count: u32) -> u32 {
        let m = count as usize;
        let (round, slot) = (position / m, position % m);
        let shard = if round % 2 == 0 { slot } else { m - 1 - slot };
        shard as u32
    }

    /// The tasks of each of `count` shards of a plan of `tasks` tasks, for the shards that hold
    /// any (no more than `tasks`).
    pub(crate) fn tasks_per_shard(tasks: usize, count: u32) -> Vec<usize> {
        let mut per_shard = vec![0usize; tasks.min(count as usize)];
        for p in 0..tasks {
            per_shard[Shard::of_position(p, count) as usize] += 1;
        }
        per_shard
    }

    /// Whether task `position` of a plan belongs to this shard (never, for a shard that does
    /// not exist).
    #[must_use]
    pub fn contains(&self, position: usize) -> bool {
        self.index < self.count && Shard::of_position(position, self.count) == self.index
    }

    /// The positions (in plan order) of this shard's tasks in `plan`.
    ///
    /// ```
    /// use nqueens::journal::Shard;
    /// use nqueens::{Plan, Strategy};
    /// let plan = Plan::new(10, Strategy::Mirror, 64).unwrap();
    /// let all: usize = (0..4).map(|k| Shard::new(k, 4).unwrap().positions(&plan).len()).sum();
    /// assert_eq!(all, plan.tasks().len());
    /// ```
    #[must_use]
    pub fn positions(&self, plan: &Plan) -> Vec<usize> {
        (0..plan.tasks().len())
            .filter(|&p| self.contains(p))
            .collect()
    }
}

impl fmt::Display for Shard {
    /// `K/M`, padded to the formatter's width (`{:>5}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.width().is_none() && f.precision().is_none() {
            write!(f, "{}/{}", self.index, self.count)
        } else {
            f.pad(&format!("{}/{}", self.index, self.count))
        }
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::NotAShard(s.to_string());
        let (k, m) = s.trim().split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let m: u32 = m.trim().parse().map_err(|_| bad())?;
        Shard::new(k, m)
    }
}

/// Which shard to count: a fixed one, or the one a Slurm array task stands for.
///
/// ```
/// use nqueens::journal::{Shard, ShardError, ShardSpec};
/// assert_eq!("3/8".parse::<ShardSpec>(), Ok(ShardSpec::Fixed(Shard::new(3, 8).unwrap())));
///
/// // `slurm` in a task of `sbatch --array=0-7` (its environment spelled out here).
/// let env = |name: &str| match name {
///     "SLURM_ARRAY_TASK_ID" => Ok("2".to_string()),
///     "SLURM_ARRAY_TASK_MIN" => Ok("0".to_string()),
///     "SLURM_ARRAY_TASK_COUNT" => Ok("8".to_string()),
///     _ => Err(std::env::VarError::NotPresent),
/// };
/// let shard = "slurm".parse::<ShardSpec>()?.resolve(env)?;
/// assert_eq!(shard.to_string(), "2/8");
/// # Ok::<(), ShardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShardSpec {
    /// `K/M`.
    Fixed(Shard),
    /// `slurm`: from the array job's environment ([`Shard::from_slurm_env`]).
    Slurm,
    /// `slurm/M`: shard `SLURM_ARRAY_TASK_ID` of `M` ([`Shard::from_slurm_task`]).
    SlurmOf(u32),
}

impl ShardSpec {
    /// The shard this asks for; `var` reads the Slurm array environment where it is needed
    /// (`std::env::var` in the program).
    ///
    /// # Errors
    ///
    /// For `slurm` and `slurm/M`, the errors of [`Shard::from_slurm_env`] and
    /// [`Shard::from_slurm_task`]; for `K/M`, those of [`Shard::new`].
    ///
    /// ```
    /// use nqueens::journal::{Shard, ShardSpec};
    /// let env = |_: &str| Ok("2".to_string());
    /// let spec: ShardSpec = "slurm/4".parse().unwrap();
    /// assert_eq!(spec.resolve(env), Ok(Shard::new(2, 4).unwrap()));
    /// assert_eq!("1/3".parse::<ShardSpec>().unwrap().resolve(env).unwrap().to_string(), "1/3");
    /// ```
    pub fn resolve(
        self,
        var: impl Fn(&str) -> Result<String, VarError>,
    ) -> Result<Shard, ShardError> {
        match self {
            ShardSpec::Fixed(shard) => Ok(shard),
            ShardSpec::Slurm => Shard::from_slurm_env(var),
            ShardSpec::SlurmOf(count) => Shard::from_slurm_task(var, count),
        }
    }

    /// Whether the shard is read from the Slurm array environment.
    #[must_use]
    pub fn is_slurm(self) -> bool {
        matches!(self, ShardSpec::Slurm | ShardSpec::SlurmOf(_))
    }
}

impl FromStr for ShardSpec {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<ShardSpec, ShardError> {
        if s.trim() == "slurm" {
            return Ok(ShardSpec::Slurm);
        }
        if let Some(m) = s.trim().strip_prefix("slurm/") {
            return match m.trim().parse::<u32>() {
                Ok(0) => Err(ShardError::ZeroCount),
                Ok(m) => Ok(ShardSpec::SlurmOf(m)),
                Err(_) => Err(ShardError::NotASpec(s.to_string())),
            };
        }
        s.parse::<Shard>().map(ShardSpec::Fixed).map_err(|e| {
            if s.contains('/') {
                e
            } else {
                ShardError::NotASpec(s.to_string())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::{Plan, Strategy};

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Result<String, VarError> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
                .ok_or(VarError::NotPresent)
        }
    }

    #[test]
    fn a_slurm_variable_that_is_not_utf8_is_not_a_number_not_unset() {
        let not_utf8 = |name: &str| match name {
            "SLURM_ARRAY_TASK_ID" => Err(VarError::NotUnicode("\u{fffd}".into())),
            _ => Ok("0".to_string()),
        };
        let err = Shard::from_slurm_env(not_utf8).unwrap_err();
        assert_eq!(err, ShardError::SlurmNotUnicode("SLURM_ARRAY_TASK_ID"));
        assert_eq!(
            err.to_string(),
            "SLURM_ARRAY_TASK_ID is not valid UTF-8, so not a whole number"
        );
    }

    #[test]
    fn every_task_is_in_exactly_one_shard() {
        let plan = Plan::new(12, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS).unwrap();
        for m in [1, 2, 3, 7, 8, 64] {
            let mut seen = vec![0; plan.tasks().len()];
            for k in 0..m {
                for p in Shard::new(k, m).unwrap().positions(&plan) {
                    seen[p] += 1;
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "m={m}");
        }
    }

    #[test]
    fn shards_get_nearly_equal_task_counts() {
        let plan = Plan::new(12, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS).unwrap();
        let sizes: Vec<usize> = (0..8)
            .map(|k| Shard::new(k, 8).unwrap().positions(&plan).len())
            .collect();
        let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
        assert!(hi - lo <= 1, "{sizes:?}");
    }

    #[test]
    fn shard_specs_parse_and_refuse_garbage() {
        assert_eq!(
            "0/8".parse(),
            Ok(ShardSpec::Fixed(Shard::new(0, 8).unwrap()))
        );
        assert_eq!("slurm".parse(), Ok(ShardSpec::Slurm));
        for bad in ["8/8", "1/0", "x/8", "3", "", "-1/4", "1/2/3"] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn slurm_environments_map_to_zero_based_shards_or_are_refused() {
        let ok = [
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ];
        assert_eq!(
            Shard::from_slurm_env(env(&ok)),
            Ok(Shard::new(7, 8).unwrap())
        );
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "6"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert_eq!(
            Shard::from_slurm_env(env(&stepped)),
            Ok(Shard::new(3, 4).unwrap())
        );
        for (bad, why) in [
            (
                &[
                    ("SLURM_ARRAY_TASK_MIN", "0"),
                    ("SLURM_ARRAY_TASK_COUNT", "8"),
                ][..],
                "SLURM_ARRAY_TASK_ID",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "x"),
                    ("SLURM_ARRAY_TASK_MIN", "0"),
                    ("SLURM_ARRAY_TASK_COUNT", "8"),
                ][..],
                "not a whole number",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "8"),
                    ("SLURM_ARRAY_TASK_MIN", "0"),
                    ("SLURM_ARRAY_TASK_COUNT", "8"),
                ][..],
                "inconsistent",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "0"),
                    ("SLURM_ARRAY_TASK_MIN", "1"),
                    ("SLURM_ARRAY_TASK_COUNT", "8"),
                ][..],
                "inconsistent",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "1"),
                    ("SLURM_ARRAY_TASK_MIN", "0"),
                    ("SLURM_ARRAY_TASK_COUNT", "0"),
                ][..],
                "inconsistent",
            ),
        ] {
            let err = Shard::from_slurm_env(env(bad)).unwrap_err().to_string();
            assert!(err.contains(why) && !err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn errors_read_as_the_user_sees_them() {
        let text = |e: ShardError| e.to_string();
        assert_eq!(
            text(Shard::new(1, 0).unwrap_err()),
            "the shard count must be at least 1"
        );
        assert_eq!(
            text(Shard::new(8, 8).unwrap_err()),
            "shard 8/8 does not exist: shards are numbered from 0 to 7"
        );
        assert_eq!(
            text("x/2".parse::<Shard>().unwrap_err()),
            "'x/2' is not a shard: expected K/M with 0 <= K < M (for example 3/8)"
        );
        assert_eq!(
            text("x".parse::<ShardSpec>().unwrap_err()),
            "'x' is not a shard: expected K/M (0 <= K < M), 'slurm' or 'slurm/M'"
        );
        let inconsistent = [
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ];
        assert_eq!(
            text(Shard::from_slurm_env(env(&inconsistent)).unwrap_err()),
            "inconsistent Slurm array environment (SLURM_ARRAY_TASK_ID=8, SLURM_ARRAY_TASK_MIN=0, \
             SLURM_ARRAY_TASK_COUNT=8, SLURM_ARRAY_TASK_STEP=1): the task id is beyond the array's \
             count"
        );
        assert_eq!(
            text(Shard::from_slurm_env(env(&[("SLURM_ARRAY_TASK_ID", "1 x")])).unwrap_err()),
            "SLURM_ARRAY_TASK_ID='1 x' is not a whole number"
        );
    }
}
