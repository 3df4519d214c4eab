//! Plan fingerprints: a stable 64-bit name for a task list.
//!
//! The hash is FNV-1a 64 (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`), written
//! here so that it never changes with a library or compiler version. It is fed, in order:
//!
//! 1. the bytes `nqueens-plan` ;
//! 2. [`PLAN_VERSION`] and `n`, each as a little-endian `u32` ;
//! 3. the strategy name's bytes and one zero byte ;
//! 4. the number of tasks as a little-endian `u64` ;
//! 5. for each task in plan order: the id's length (one byte), its columns (one byte each) and
//!    the weight as a little-endian `u64`.
//!
//! It is printed as 16 lower-case hex digits. It names a plan; it is not a defence against
//! someone forging a journal.
//!
//! [`PLAN_VERSION`]: super::PLAN_VERSION

use super::{PLAN_VERSION, Plan};

/// An FNV-1a 64 hasher.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a64(u64);

impl Fnv1a64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// A hasher that has seen nothing.
    pub fn new() -> Fnv1a64 {
        Fnv1a64(Self::OFFSET)
    }

    /// Feeds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(Self::PRIME);
        }
    }

    /// The hash of everything fed so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a64 {
    fn default() -> Self {
        Fnv1a64::new()
    }
}

/// The fingerprint of `plan` (see the module documentation for the exact bytes).
pub(super) fn of(plan: &Plan) -> u64 {
    let mut h = Fnv1a64::new();
    h.write(b"nqueens-plan");
    h.write(&PLAN_VERSION.to_le_bytes());
    h.write(&plan.n.to_le_bytes());
    h.write(plan.strategy.name().as_bytes());
    h.write(&[0]);
    h.write(&(plan.tasks.len() as u64).to_le_bytes());
    for task in &plan.tasks {
        let cols = task.id.columns();
        h.write(&[cols.len() as u8]);
        h.write(cols);
        h.write(&task.weight.to_le_bytes());
    }
    h.finish()
}

/// A fingerprint as it is printed: 16 lower-case hex digits.
pub fn hex(fingerprint: u64) -> String {
    format!("{fingerprint:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::{DEFAULT_MIN_TASKS, Strategy};

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        for (input, want) in [
            (&b""[..], 0xcbf29ce484222325),
            (b"a", 0xaf63dc4c8601ec8c),
            (b"foobar", 0x85944171f73967e8),
        ] {
            let mut h = Fnv1a64::new();
            h.write(input);
            assert_eq!(h.finish(), want);
        }
    }

    #[test]
    fn fingerprints_tell_boards_strategies_and_task_lists_apart() {
        let base = Plan::new(12, Strategy::Symmetric, DEFAULT_MIN_TASKS).unwrap();
        let mut seen = vec![base.fingerprint()];
        seen.push(
            Plan::new(13, Strategy::Symmetric, DEFAULT_MIN_TASKS)
                .unwrap()
                .fingerprint(),
        );
        seen.push(
            Plan::new(12, Strategy::Mirror, DEFAULT_MIN_TASKS)
                .unwrap()
                .fingerprint(),
        );
        seen.push(
            Plan::new(12, Strategy::Symmetric, 16)
                .unwrap()
                .fingerprint(),
        );
        let mut swapped = base.clone();
        swapped.tasks.swap(0, 1);
        seen.push(swapped.fingerprint());
        let mut reweighted = base.clone();
        reweighted.tasks[0].weight += 1;
        seen.push(reweighted.fingerprint());
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seen.len());
    }
}

#[cfg(test)]
mod examples {
    //! The examples of the items above, as tests (the items are not public).

    #[test]
    fn fnv1a64_example() {
        use crate::engine::plan::fingerprint::Fnv1a64;
        let mut h = Fnv1a64::new();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
    }

    #[test]
    fn hex_example() {
        assert_eq!(
            crate::engine::plan::fingerprint::hex(0xab),
            "00000000000000ab"
        );
    }
}
