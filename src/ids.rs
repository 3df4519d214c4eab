//! The small values every layer of the library names: the identities of a count (its
//! [`Kernel`], [`Strategy`], a [`TaskId`], a plan's [`Fingerprint`], a [`Shard`], a journal's
//! [`Header`]), a [`Square`] of the board and a row of the [`Known`] table, with the limits they
//! are checked against ([`MAX_N`], [`MAX_ID_LEN`], [`PLAN_VERSION`]).
//!
//! The bottom of the library: this module imports nothing of the crate, and the errors
//! ([`crate::error`]) import nothing but it. Only the types are here, as plain data; what they do
//! (their methods, `Display`, `FromStr`, serde) is implemented where they are used: the kernels
//! in `engine::kernel`, strategies, tasks and fingerprints in `engine::plan`, shards and headers
//! in `journal`, squares in [`board`](crate::board), the table in [`known`](crate::known).

/// The largest board size the `u64` masks can represent ([`Plan::MAX_N`](crate::Plan::MAX_N)
/// is its public face).
pub const MAX_N: u32 = 64;

/// The most queens a [`TaskId`] can name.
pub const MAX_ID_LEN: usize = 16;

/// Version of the journal's file layout written: 4, whose records' checksums also cover the
/// header, so that a record holds only in the journal it was written to.
pub(crate) const FORMAT_VERSION: u32 = 4;

/// The version of the plans this build makes ([`Plan::VERSION`](crate::Plan::VERSION) is its
/// public face).
pub const PLAN_VERSION: u32 = 2;

/// Which kernel counts the tasks: a choice, checked against the CPU by [`Kernel::resolve`].
///
/// Every kernel counts the same; they differ only in speed.
///
/// ```
/// use nqueens::{count, CountOptions, Kernel, Strategy};
/// for kernel in Kernel::available() {
///     let options = CountOptions::new(2, Strategy::Symmetric).with_kernel(kernel);
///     let counts = count(8, &options).unwrap();
///     assert_eq!((counts.total, counts.kernel), (92, kernel));
/// }
/// assert_eq!("portable-lanes".parse::<Kernel>().unwrap(), Kernel::PortableLanes);
/// assert_eq!("AVX2".parse::<Kernel>().unwrap(), Kernel::Avx2); // names in any case
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Kernel {
    /// The fastest kernel this CPU runs: AVX-512, else AVX2 or NEON, else the depth-first
    /// search (measured faster than the portable lanes, which lack vector compress and expand).
    /// With the `gpu` feature, a count of a board the CPU alone would need about 2 s or more for
    /// runs on a discrete GPU beside the CPU instead ([`Kernel::for_board`]); without a
    /// discrete adapter, `auto` runs as without the feature.
    ///
    /// The order is measured, not assumed: every kernel a CPU runs can be chosen by name and
    /// timed against the others.
    #[default]
    Auto,
    /// The AVX-512 lanes (x86-64 with AVX-512F and AVX512_VPOPCNTDQ).
    Avx512,
    /// The AVX2 lanes (x86-64 with AVX2, POPCNT and BMI2).
    Avx2,
    /// The NEON lanes (aarch64).
    Neon,
    /// The lanes in plain Rust, on every CPU.
    PortableLanes,
    /// The depth-first search, on every CPU: the reference, and the one that counts nodes.
    DepthFirst,
    /// The GPU (the adapter [`crate::gpu::settings()`] pick) beside the CPU: a run's tasks are taken
    /// from one queue by the GPU, in batches, and by the run's CPU threads, one at a time with
    /// the fastest CPU kernel. Built with the `gpu` feature. A count with `auto` runs this on a
    /// discrete adapter where the GPU wins (`gpu::auto_uses_gpu`, [`Kernel::for_board`]).
    #[cfg(feature = "gpu")]
    #[cfg_attr(docsrs, doc(cfg(feature = "gpu")))]
    Gpu,
    /// The GPU alone: every task of a run is counted on the GPU (the run's threads are not
    /// used for counting). Built with the `gpu` feature.
    #[cfg(feature = "gpu")]
    #[cfg_attr(docsrs, doc(cfg(feature = "gpu")))]
    GpuOnly,
}

/// How a board is split into tasks.
///
/// Both strategies count every board; they differ in the tasks they make, and so in speed.
///
/// ```
/// use nqueens::{count, CountOptions, Strategy};
/// for strategy in [Strategy::Symmetric, Strategy::Mirror] {
///     assert_eq!(count(10, &CountOptions::new(2, strategy)).unwrap().total, 724);
/// }
/// assert_eq!(Strategy::default(), Strategy::Symmetric);
/// assert_eq!("mirror".parse::<Strategy>().unwrap(), Strategy::Mirror);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Strategy {
    /// Border queens pre-placed, one constellation per symmetry class (weight 2, 4 or 8), inner
    /// rows searched by a kernel that skips filled rows (the fastest).
    #[default]
    Symmetric,
    /// First-row queen over the left half (weight 2), prefixes expanded a few rows deeper.
    Mirror,
}

/// A deterministic task name: the columns of the queens the task pre-places, in order.
///
/// Displayed as the columns joined by dots (`3.0.5`); the empty id (the whole board) is `-`.
///
/// ```
/// use nqueens::TaskId;
/// let id = TaskId::from_columns(&[3, 0, 5]).unwrap();
/// assert_eq!(id.to_string(), "3.0.5");
/// assert_eq!("3.0.5".parse::<TaskId>().unwrap(), id);
/// assert_eq!(TaskId::default().to_string(), "-");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId {
    pub(crate) len: u8,
    pub(crate) cols: [u8; MAX_ID_LEN],
}

/// A plan's fingerprint ([`Plan::fingerprint`](crate::Plan::fingerprint)): a 64-bit hash that
/// names the plan's tasks, written as 16 lower-case hex digits wherever it appears (journal
/// descriptions, outputs, serde's output with the `serde` feature) and read back from them.
///
/// ```
/// use nqueens::{Fingerprint, Plan, Strategy};
/// let fingerprint = Plan::new(8, Strategy::Mirror, 64).unwrap().fingerprint();
/// let text = fingerprint.to_string();
/// assert_eq!(text.len(), 16);
/// assert_eq!(text.parse::<Fingerprint>().unwrap(), fingerprint);
///
/// let small = Fingerprint::new(0xab);
/// assert_eq!(small.to_string(), "00000000000000ab");
/// assert_eq!(format!("[{small:>20}]"), "[    00000000000000ab]");
/// assert_eq!(small.get(), 0xab);
/// assert_eq!(format!("{small:?}"), "Fingerprint(00000000000000ab)");
/// assert!("ab".parse::<Fingerprint>().is_err());
/// assert!("+0000000000000ab".parse::<Fingerprint>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint(pub(crate) u64);

/// Shard `index` of `count` (0-based).
///
/// Its fields are private, so that every shard is one that exists (`index` below `count`):
/// it is made by [`Shard::new`] or parsed from `K/M`, and read with [`Shard::index`] and
/// [`Shard::count`]. (They are the crate's so that `journal::shard` can implement it here;
/// there too, only `Shard::new` and [`Shard::WHOLE`] make one.)
///
/// ```
/// use nqueens::journal::Shard;
/// let shard: Shard = "3/8".parse().unwrap();
/// assert_eq!(shard, Shard::new(3, 8).unwrap());
/// assert_eq!((shard.index(), shard.count()), (3, 8));
/// assert_eq!(shard.to_string(), "3/8");
/// assert!(Shard::WHOLE.is_whole() && !shard.is_whole());
///
/// // Tasks are dealt in a snake, 0 1 2 3 3 2 1 0 0 1 …, each to exactly one shard.
/// let shards: Vec<Shard> = (0..4).map(|k| Shard::new(k, 4).unwrap()).collect();
/// let owner = |p: usize| shards.iter().position(|s| s.contains(p)).unwrap();
/// assert_eq!((0..9).map(owner).collect::<Vec<_>>(), [0, 1, 2, 3, 3, 2, 1, 0, 0]);
/// assert!((0..100).all(|p| shards.iter().filter(|s| s.contains(p)).count() == 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which shard, from 0 to `count − 1`.
    pub(crate) index: u32,
    /// How many shards the plan is split into (at least 1).
    pub(crate) count: u32,
}

/// What a journal belongs to: one shard of one plan of one board.
///
/// ```
/// use nqueens::journal::{Header, Shard};
/// use nqueens::{Plan, Strategy};
/// let plan = Plan::new(8, Strategy::Mirror, 16).unwrap();
/// let header = Header::for_shard(&plan, Shard::new(1, 4).unwrap());
/// assert_eq!((header.n, header.strategy.as_str()), (8, "mirror"));
/// assert_eq!(header.tasks, plan.tasks().len() as u64);
/// assert_eq!(header.fingerprint, plan.fingerprint());
/// let described = header.to_string();
/// assert!(described.starts_with("n = 8, strategy mirror, plan version "));
/// assert!(described.ends_with(", shard 1/4"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Header {
    /// The plan version the tasks were made under.
    pub plan_version: u32,
    /// Board size.
    pub n: u32,
    /// Strategy name (at most 16 bytes).
    pub strategy: String,
    /// Number of tasks in the plan.
    pub tasks: u64,
    /// The plan's fingerprint ([`Plan::fingerprint`](crate::Plan::fingerprint)).
    pub fingerprint: Fingerprint,
    /// The part of the plan this journal records ([`Shard::WHOLE`] for a whole count).
    pub shard: Shard,
}

/// One square of the board.
///
/// ```
/// use nqueens::board::{Placement, Square};
/// let queens: Vec<Square> = Placement::new(vec![1, 3, 0, 2]).squares().collect();
/// assert_eq!(queens[2], Square::new(2, 0));
/// assert_eq!(queens[2].to_string(), "(row 2, column 0)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Square {
    /// Row, from 0 at the top.
    pub row: u32,
    /// Column, from 0 at the left.
    pub column: u32,
}

/// One row of the known table.
///
/// ```
/// let row = nqueens::known::Known::TABLE[10];
/// assert_eq!((row.n, row.total, row.unique), (10, 724, 92));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Known {
    /// Board size.
    pub n: u32,
    /// All solutions (OEIS A000170).
    pub total: u128,
    /// Solutions distinct under the 8 symmetries of the square (OEIS A002562).
    pub unique: u128,
}
