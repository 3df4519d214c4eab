//! The bytes of a journal: its header and its task records (the layout is in the module
//! documentation of [`crate::journal`]).

use std::fmt;
use std::time::Duration;

use super::error::Damage;
use crate::engine::kernel::MAX_N;
use crate::engine::plan::{Fingerprint, MAX_ID_LEN, Plan, TaskId};
pub use crate::ids::Header;
use crate::journal::Shard;

/// The first eight bytes of every journal.
pub(crate) const MAGIC: [u8; 8] = *b"NQJOURNL";
pub(crate) use crate::ids::FORMAT_VERSION;
/// The oldest layout still read: 2, the same header and task records without time records.
pub(crate) const OLDEST_FORMAT: u32 = 2;
/// The first layout with time records.
pub(crate) const TIMED_FORMAT: u32 = 3;
/// The first layout whose records are bound to their header ([`Seal`]).
pub(crate) const BOUND_FORMAT: u32 = 4;
/// Size of the header in bytes.
pub(crate) const HEADER_LEN: usize = 64;
/// Size of one task record in bytes.
pub(crate) const RECORD_LEN: usize = 30;

/// The bytes of a header its checksum covers.
pub(crate) const HEADER_CHECKED: usize = 60;
/// The bytes of a record its checksum covers.
const RECORD_CHECKED: usize = 26;
const STRATEGY_LEN: usize = 16;
const RECORD_TAG: u8 = b'T';
const TIME_TAG: u8 = b'S';
/// Byte 17 of a time record: a run's first record, one of its later ones, or (format 4 on) the
/// mark a journal of an older format gets when it is rewritten: the runs before it recorded no
/// time ([`Spent`] unknown).
const LATER_RUN: u8 = 0;
const FIRST_RUN: u8 = 1;
const UNTIMED_BEFORE: u8 = 2;

/// The checksum of the records of one journal: from format 4 on, the CRC-32 of the header's
/// checked bytes (0..60, as the file holds them) followed by the record's checked bytes (0..26),
/// so that a record copied from any other journal — another board, plan, strategy or shard —
/// fails its check; in older formats the CRC-32 of the record's bytes alone.
#[derive(Clone)]
pub(crate) struct Seal {
    primed: crc32fast::Hasher,
    bound: bool,
}

impl Seal {
    /// The seal of the records that follow `header` (the header's bytes as the file holds them)
    /// in a journal of format `format`.
    pub fn of(header: &[u8; HEADER_LEN], format: u32) -> Seal {
        let mut primed = crc32fast::Hasher::new();
        let bound = format >= BOUND_FORMAT;
        if bound {
            primed.update(&header[..HEADER_CHECKED]);
        }
        Seal { primed, bound }
    }

    /// Whether the records' checksums cover the header (format 4 on).
    pub fn is_bound(&self) -> bool {
        self.bound
    }

    /// The checksum of one record's checked bytes.
    fn checksum(&self, checked: &[u8]) -> u32 {
        let mut hasher = self.primed.clone();
        hasher.update(checked);
        hasher.finalize()
    }

    /// Writes the checksum of a record's checked bytes into its last four.
    fn close(&self, b: &mut [u8; RECORD_LEN]) {
        let crc = self.checksum(&b[..RECORD_CHECKED]);
        b[RECORD_CHECKED..].copy_from_slice(&crc.to_le_bytes());
    }

    /// Whether a record's bytes match their checksum.
    pub fn holds(&self, b: &[u8]) -> bool {
        b.len() == RECORD_LEN
            && b[RECORD_CHECKED..] == self.checksum(&b[..RECORD_CHECKED]).to_le_bytes()
    }

    /// The bytes of `record` (a task or time record read under another seal) sealed by this
    /// one instead: how an older journal's records are rewritten in today's format.
    pub fn reseal(&self, record: &[u8; RECORD_LEN]) -> [u8; RECORD_LEN] {
        let mut b = *record;
        self.close(&mut b);
        b
    }
}

impl fmt::Debug for Seal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Seal").field("bound", &self.bound).finish()
    }
}

/// One part of a [`Header`], as a refusal names it.
///
/// ```
/// use nqueens::journal::{Header, HeaderField, Shard};
/// use nqueens::{Plan, Strategy};
/// let plan = Plan::new(8, Strategy::Mirror, 16).unwrap();
/// let whole = Header::for_plan(&plan);
/// let half = Header::for_shard(&plan, Shard::new(1, 2).unwrap());
/// assert_eq!(whole.differing_fields(&half), [HeaderField::Shard]);
/// assert_eq!(whole.describe(HeaderField::Shard), "the whole board");
/// assert_eq!(half.describe(HeaderField::Shard), "shard 1/2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HeaderField {
    /// The board size.
    N,
    /// The strategy name.
    Strategy,
    /// The plan version.
    PlanVersion,
    /// The plan's task count.
    Tasks,
    /// The plan's fingerprint.
    Fingerprint,
    /// The shard.
    Shard,
}

impl HeaderField {
    /// Every field, in the order a header's description lists them.
    pub const ALL: [HeaderField; 6] = [
        HeaderField::N,
        HeaderField::Strategy,
        HeaderField::PlanVersion,
        HeaderField::Tasks,
        HeaderField::Fingerprint,
        HeaderField::Shard,
    ];
}

impl Header {
    /// The header for a journal of `plan`.
    ///
    /// ```
    /// use nqueens::journal::Header;
    /// use nqueens::{Plan, Strategy};
    /// let plan = Plan::new(8, Strategy::Mirror, 16).unwrap();
    /// let header = Header::for_plan(&plan);
    /// assert_eq!((header.n, header.strategy.as_str()), (8, "mirror"));
    /// assert_eq!(header.tasks, plan.tasks().len() as u64);
    /// ```
    #[must_use]
    pub fn for_plan(plan: &Plan) -> Header {
        Header::for_shard(plan, Shard::WHOLE)
    }

    /// The header for a journal of shard `shard` of `plan`.
    #[must_use]
    pub fn for_shard(plan: &Plan, shard: Shard) -> Header {
        Header::with_fingerprint(plan, plan.fingerprint(), shard)
    }

    /// The header for a journal of shard `shard` of `plan`, whose fingerprint is `fingerprint`
    /// (computed once by the caller).
    pub(crate) fn with_fingerprint(plan: &Plan, fingerprint: Fingerprint, shard: Shard) -> Header {
        Header {
            plan_version: Plan::VERSION,
            n: plan.n(),
            strategy: plan.strategy().name().to_string(),
            tasks: plan.tasks().len() as u64,
            fingerprint,
            shard,
        }
    }

    /// One field as the header's description writes it: the fingerprint as `fingerprint`
    /// and 16 hex digits, the shard as `shard 1/4`, or `the whole board` for a whole count.
    ///
    /// ```
    /// use nqueens::journal::{Header, HeaderField};
    /// use nqueens::{Plan, Strategy};
    /// let header = Header::for_plan(&Plan::new(8, Strategy::Mirror, 16).unwrap());
    /// assert_eq!(header.describe(HeaderField::N), "n = 8");
    /// assert_eq!(header.describe(HeaderField::Shard), "the whole board");
    /// ```
    #[must_use]
    pub fn describe(&self, field: HeaderField) -> String {
        match field {
            HeaderField::N => format!("n = {}", self.n),
            HeaderField::Strategy => format!("strategy {}", self.strategy),
            HeaderField::PlanVersion => format!("plan version {}", self.plan_version),
            HeaderField::Tasks => format!("{} tasks", self.tasks),
            HeaderField::Fingerprint => format!("fingerprint {}", self.fingerprint),
            HeaderField::Shard => self.shard.describe(),
        }
    }

    /// The fields in which this header and `other` differ, in the order of
    /// [`HeaderField::ALL`].
    ///
    /// ```
    /// use nqueens::journal::{Header, HeaderField};
    /// use nqueens::{Plan, Strategy};
    /// let header = Header::for_plan(&Plan::new(8, Strategy::Mirror, 16).unwrap());
    /// let mut other = header.clone();
    /// (other.n, other.tasks) = (9, 1);
    /// assert_eq!(header.differing_fields(&other), [HeaderField::N, HeaderField::Tasks]);
    /// ```
    #[must_use]
    pub fn differing_fields(&self, other: &Header) -> Vec<HeaderField> {
        HeaderField::ALL
            .into_iter()
            .filter(|&field| match field {
                HeaderField::N => self.n != other.n,
                HeaderField::Strategy => self.strategy != other.strategy,
                HeaderField::PlanVersion => self.plan_version != other.plan_version,
                HeaderField::Tasks => self.tasks != other.tasks,
                HeaderField::Fingerprint => self.fingerprint != other.fingerprint,
                HeaderField::Shard => self.shard != other.shard,
            })
            .collect()
    }

    /// Reads a header whose checksum has been checked, validating every field it can without a
    /// plan: the board size, the strategy name's bytes, the task count and the shard (of no
    /// more shards than tasks). A field that no journal holds is damage, with the byte offset
    /// where the field starts. (A plan version, strategy, task count or fingerprint of another
    /// build is not damage: the caller compares them with the plan it makes.)
    pub(crate) fn decode(b: &[u8; HEADER_LEN]) -> Result<Header, (u64, Damage)> {
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| u64::from(u32_at(i)) | u64::from(u32_at(i + 4)) << 32;
        let n = u32_at(16);
        if n > MAX_N {
            return Err((16, Damage::BoardTooLarge(n)));
        }
        let name = &b[20..20 + STRATEGY_LEN];
        let name_len = name.iter().position(|&c| c == 0).unwrap_or(name.len());
        let (strategy, padding) = name.split_at(name_len);
        let plain = |c: &u8| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_';
        if strategy.is_empty() || !strategy.iter().all(plain) || padding.iter().any(|&c| c != 0) {
            return Err((20, Damage::StrategyName));
        }
        let tasks = u64_at(36);
        if tasks == 0 {
            return Err((36, Damage::NoTasks));
        }
        let (index, count) = (u32_at(52), u32_at(56));
        let Ok(shard) = Shard::new(index, count) else {
            return Err((52, Damage::NoSuchShard { index, count }));
        };
        if !shard.fits(tasks) {
            return Err((52, Damage::MoreShardsThanTasks { count, tasks }));
        }
        Ok(Header {
            plan_version: u32_at(12),
            n,
            strategy: strategy.iter().map(|&c| char::from(c)).collect(),
            tasks,
            fingerprint: Fingerprint::new(u64_at(44)),
            shard,
        })
    }

    /// The header's bytes, checksum included.
    pub(crate) fn encode(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        b[12..16].copy_from_slice(&self.plan_version.to_le_bytes());
        b[16..20].copy_from_slice(&self.n.to_le_bytes());
        let name = self.strategy.as_bytes();
        let len = name.len().min(STRATEGY_LEN);
        b[20..20 + len].copy_from_slice(&name[..len]);
        b[36..44].copy_from_slice(&self.tasks.to_le_bytes());
        b[44..52].copy_from_slice(&self.fingerprint.get().to_le_bytes());
        b[52..56].copy_from_slice(&self.shard.index().to_le_bytes());
        b[56..60].copy_from_slice(&self.shard.count().to_le_bytes());
        let crc = crc32fast::hash(&b[..HEADER_CHECKED]);
        b[HEADER_CHECKED..].copy_from_slice(&crc.to_le_bytes());
        b
    }
}

impl fmt::Display for Header {
    /// Every field, as [`Header::describe`] writes it, joined by `, `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, field) in HeaderField::ALL.into_iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&self.describe(field))?;
        }
        Ok(())
    }
}

/// One finished task as the journal records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Record {
    /// The task's id.
    pub id: TaskId,
    /// The task's unweighted count.
    pub count: u64,
    /// Where the record starts in the file.
    pub offset: u64,
}

/// The time a count spent, as its journal's time records add it up: each run of the count
/// records its wall-clock time and its workers' search time now and then (at least once a
/// minute while tasks finish, and when it ends or is stopped), so that what a run killed
/// outright loses is at most the last minute.
///
/// ```
/// use nqueens::journal::Spent;
/// use std::time::Duration;
/// let one = Spent::new(1, Duration::from_secs(60), Duration::from_secs(110));
/// let two = one + Spent::new(1, Duration::from_secs(30), Duration::from_secs(55));
/// assert_eq!((two.runs, two.wall_time.as_secs(), two.core_time.as_secs()), (2, 90, 165));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Spent {
    /// The runs that recorded time.
    pub runs: u32,
    /// Their wall time, each from opening the journal to its last time record.
    pub wall_time: Duration,
    /// Their core time: the time their threads spent on the tasks they searched, summed over
    /// the threads (what the count has cost).
    pub core_time: Duration,
}

impl Spent {
    /// `runs` runs that took `wall_time` and searched for `core_time`.
    #[must_use]
    pub const fn new(runs: u32, wall_time: Duration, core_time: Duration) -> Spent {
        Spent {
            runs,
            wall_time,
            core_time,
        }
    }
}

impl std::ops::Add for Spent {
    type Output = Spent;
    fn add(self, other: Spent) -> Spent {
        Spent {
            runs: self.runs.saturating_add(other.runs),
            wall_time: self.wall_time.saturating_add(other.wall_time),
            core_time: self.core_time.saturating_add(other.core_time),
        }
    }
}

/// One time record: the wall-clock and search time of a run since its previous time record,
/// and whether it is the run's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeRecord {
    pub wall: Duration,
    pub search: Duration,
    pub first: bool,
}

impl TimeRecord {
    /// What this record adds to a journal's [`Spent`].
    pub fn spent(self) -> Spent {
        Spent::new(u32::from(self.first), self.wall, self.search)
    }
}

/// What a valid time record says: a run's time, or that the runs before it recorded none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimeEntry {
    /// A run's time since its previous time record.
    Run(TimeRecord),
    /// The runs before this record recorded no time (a journal of format 2, rewritten).
    UntimedBefore,
}

/// The bytes of a time record: byte 0 tag `S`, 1..9 search nanoseconds `u64`, 9..17 wall
/// nanoseconds `u64`, 17 1 for a run's first record (else 0), 18..26 zero, 26..30 its checksum
/// ([`Seal`]).
pub(crate) fn encode_time(seal: &Seal, time: TimeRecord) -> [u8; RECORD_LEN] {
    let nanos = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
    let mut b = [0u8; RECORD_LEN];
    b[0] = TIME_TAG;
    b[1..9].copy_from_slice(&nanos(time.search).to_le_bytes());
    b[9..17].copy_from_slice(&nanos(time.wall).to_le_bytes());
    b[17] = if time.first { FIRST_RUN } else { LATER_RUN };
    seal.close(&mut b);
    b
}

/// The time record that marks a rewritten journal of format 2: its earlier runs recorded no
/// time (byte 17 is 2, the times zero).
pub(crate) fn encode_untimed_before(seal: &Seal) -> [u8; RECORD_LEN] {
    let mut b = [0u8; RECORD_LEN];
    b[0] = TIME_TAG;
    b[17] = UNTIMED_BEFORE;
    seal.close(&mut b);
    b
}

/// The time record in `b` (one record's bytes); `None` when it is not one, or does not hold
/// under `seal` (damaged, or written for another journal).
pub(crate) fn decode_time(seal: &Seal, b: &[u8]) -> Option<TimeEntry> {
    if b.len() != RECORD_LEN || b[0] != TIME_TAG || !seal.holds(b) {
        return None;
    }
    let nanos = |at: usize| {
        Some(Duration::from_nanos(u64::from_le_bytes(
            b[at..at + 8].try_into().ok()?,
        )))
    };
    let first = match b[17] {
        FIRST_RUN => true,
        LATER_RUN => false,
        UNTIMED_BEFORE if seal.is_bound() && b[1..17] == [0; 16] => {
            return Some(TimeEntry::UntimedBefore);
        }
        _ => return None,
    };
    Some(TimeEntry::Run(TimeRecord {
        search: nanos(1)?,
        wall: nanos(9)?,
        first,
    }))
}

/// The bytes of the record of task `id`, counted `count`, sealed by `seal`.
pub(crate) fn encode_record(seal: &Seal, id: TaskId, count: u64) -> [u8; RECORD_LEN] {
    let mut b = [0u8; RECORD_LEN];
    b[0] = RECORD_TAG;
    let cols = id.columns();
    b[1] = cols.len() as u8;
    b[2..2 + cols.len()].copy_from_slice(cols);
    b[18..26].copy_from_slice(&count.to_le_bytes());
    seal.close(&mut b);
    b
}

/// The record in `b` (one record's bytes, starting at `offset`); `None` when it is not one, or
/// does not hold under `seal` (damaged, or written for another journal).
pub(crate) fn decode_record(seal: &Seal, b: &[u8], offset: u64) -> Option<Record> {
    if b.len() != RECORD_LEN || b[0] != RECORD_TAG || !seal.holds(b) {
        return None;
    }
    let len = usize::from(b[1]);
    if len > MAX_ID_LEN {
        return None;
    }
    Some(Record {
        id: TaskId::from_columns(&b[2..2 + len])?,
        count: u64::from_le_bytes(b[18..26].try_into().ok()?),
        offset,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::journal) fn header() -> Header {
        Header {
            plan_version: Plan::VERSION,
            n: 9,
            strategy: "mirror".into(),
            tasks: 10,
            fingerprint: Fingerprint::new(0x1234),
            shard: Shard::WHOLE,
        }
    }

    /// The seal of the records of a journal of today's format with this header.
    pub(in crate::journal) fn seal(header: &Header) -> Seal {
        Seal::of(&header.encode(), FORMAT_VERSION)
    }

    #[test]
    fn headers_and_records_round_trip() {
        let h = Header {
            shard: Shard::new(2, 5).unwrap(),
            ..header()
        };
        assert_eq!(Header::decode(&h.encode()), Ok(h.clone()));
        let seal = seal(&h);
        let id = TaskId::from_columns(&[3, 0, 5]).unwrap();
        let record = decode_record(&seal, &encode_record(&seal, id, 77), 94).unwrap();
        assert_eq!((record.id, record.count, record.offset), (id, 77, 94));
        let time = TimeRecord {
            wall: Duration::from_millis(1500),
            search: Duration::from_nanos(2_999_999_999),
            first: true,
        };
        let run = Some(TimeEntry::Run(time));
        assert_eq!(decode_time(&seal, &encode_time(&seal, time)), run);
        assert_eq!(decode_record(&seal, &encode_time(&seal, time), 0), None);
        assert_eq!(decode_time(&seal, &encode_record(&seal, id, 77)), None);
        let mark = encode_untimed_before(&seal);
        assert_eq!(decode_time(&seal, &mark), Some(TimeEntry::UntimedBefore));
        let mut damaged = encode_time(&seal, time);
        damaged[3] ^= 1;
        assert_eq!(decode_time(&seal, &damaged), None);
    }

    #[test]
    fn a_record_holds_only_under_the_header_it_was_written_for() {
        let whole = header();
        let id = TaskId::from_columns(&[0, 10, 0, 12, 7]).unwrap();
        let time = TimeRecord {
            wall: Duration::from_secs(1),
            search: Duration::from_secs(2),
            first: true,
        };
        let mut others = Vec::new();
        for field in HeaderField::ALL {
            let mut other = whole.clone();
            match field {
                HeaderField::N => other.n += 1,
                HeaderField::Strategy => other.strategy = "symmetric".into(),
                HeaderField::PlanVersion => other.plan_version += 1,
                HeaderField::Tasks => other.tasks += 1,
                HeaderField::Fingerprint => other.fingerprint = Fingerprint::new(0x4321),
                HeaderField::Shard => other.shard = Shard::new(1, 2).unwrap(),
            }
            assert_eq!(whole.differing_fields(&other), [field]);
            others.push(other);
        }
        let (mine, record) = (seal(&whole), encode_record(&seal(&whole), id, 47));
        assert!(decode_record(&mine, &record, 64).is_some());
        for other in &others {
            let theirs = seal(other);
            let foreign = encode_record(&theirs, id, 47);
            assert_eq!(decode_record(&mine, &foreign, 64), None, "{other}");
            assert_eq!(decode_time(&mine, &encode_time(&theirs, time)), None);
            assert_eq!(decode_time(&mine, &encode_untimed_before(&theirs)), None);
            assert_eq!(decode_record(&theirs, &record, 64), None);
        }
        // An older format's records hold under their checksum alone, and a mark of untimed
        // runs is no record of theirs.
        let unbound = Seal::of(&whole.encode(), TIMED_FORMAT);
        let plain = encode_record(&unbound, id, 47);
        assert_eq!(plain[26..], crc32fast::hash(&plain[..26]).to_le_bytes());
        assert!(decode_record(&unbound, &plain, 64).is_some());
        assert_eq!(decode_record(&mine, &plain, 64), None);
        assert_eq!(
            decode_time(&unbound, &encode_untimed_before(&unbound)),
            None
        );
    }

    #[test]
    fn the_description_lists_every_field() {
        assert_eq!(
            header().to_string(),
            "n = 9, strategy mirror, plan version 2, 10 tasks, fingerprint 0000000000001234, the \
             whole board"
        );
    }
}
