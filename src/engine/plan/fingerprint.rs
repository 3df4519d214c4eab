//! Plan fingerprints: a stable 64-bit name for a task list.
//!
//! The hash is FNV-1a 64 (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`), written
//! here so that it never changes with a library or compiler version. It is fed, in order:
//!
//! 1. the bytes `nqueens-plan` ;
//! 2. [`Plan::VERSION`] and `n`, each as a little-endian `u32` ;
//! 3. the strategy name's bytes and one zero byte ;
//! 4. the number of tasks as a little-endian `u64` ;
//! 5. for each task in plan order: the id's length (one byte), its columns (one byte each) and
//!    the weight as a little-endian `u64`.
//!
//! It is printed as 16 lower-case hex digits ([`Fingerprint`]'s `Display`, the one place that
//! writes it). It names a plan; it is not a defence against someone forging a journal.
//!
//! [`Plan::VERSION`]: super::Plan::VERSION

use std::fmt;
use std::str::FromStr;

use super::Plan;
pub use crate::ids::Fingerprint;

impl Fingerprint {
    /// The fingerprint whose 64 bits are `bits`.
    #[must_use]
    pub const fn new(bits: u64) -> Fingerprint {
        Fingerprint(bits)
    }

    /// The fingerprint's 64 bits.
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl From<u64> for Fingerprint {
    fn from(bits: u64) -> Fingerprint {
        Fingerprint(bits)
    }
}

impl From<Fingerprint> for u64 {
    fn from(fingerprint: Fingerprint) -> u64 {
        fingerprint.0
    }
}

/// 16 lower-case hex digits, padded to the formatter's width and alignment.
impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut text = [0u8; 16];
        for (i, digit) in text.iter_mut().enumerate() {
            *digit = DIGITS[((self.0 >> (60 - 4 * i)) & 0xf) as usize];
        }
        // Hex digits are ASCII.
        f.pad(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// `Fingerprint(3975788f6c39ee2e)`: its digits, as `Display` writes them.
impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}

/// Reads exactly 16 hex digits (either case), as [`Fingerprint`]'s `Display` writes them.
impl FromStr for Fingerprint {
    type Err = crate::error::Error;

    /// # Errors
    ///
    /// [`Error::InvalidFingerprint`](crate::Error::InvalidFingerprint) for text that is not 16
    /// hex digits.
    ///
    /// ```
    /// use nqueens::Fingerprint;
    /// let error = "12ab".parse::<Fingerprint>().unwrap_err();
    /// assert_eq!(error.to_string(), "'12ab' is not a fingerprint (16 hex digits)");
    /// ```
    fn from_str(text: &str) -> Result<Fingerprint, crate::error::Error> {
        let error = || crate::error::Error::InvalidFingerprint(text.to_string());
        if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(error());
        }
        u64::from_str_radix(text, 16)
            .map(Fingerprint)
            .map_err(|_| error())
    }
}

// Written as its 16 hex digits, read back as `FromStr` reads them.
#[cfg(feature = "serde")]
crate::serde_util::as_text!(Fingerprint);

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
pub(super) fn of(plan: &Plan) -> Fingerprint {
    let mut h = Fnv1a64::new();
    h.write(b"nqueens-plan");
    h.write(&Plan::VERSION.to_le_bytes());
    h.write(&plan.n.to_le_bytes());
    h.write(plan.strategy.name().as_bytes());
    h.write(&[0]);
    h.write(&(plan.len() as u64).to_le_bytes());
    for task in plan.tasks() {
        let cols = task.id.columns();
        h.write(&[cols.len() as u8]);
        h.write(cols);
        h.write(&task.weight.to_le_bytes());
    }
    Fingerprint(h.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::{Plan, Strategy};

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
        let base = Plan::new(12, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS).unwrap();
        let mut seen = vec![base.fingerprint()];
        seen.push(
            Plan::new(13, Strategy::Symmetric, Plan::DEFAULT_MIN_TASKS)
                .unwrap()
                .fingerprint(),
        );
        seen.push(
            Plan::new(12, Strategy::Mirror, Plan::DEFAULT_MIN_TASKS)
                .unwrap()
                .fingerprint(),
        );
        seen.push(
            Plan::new(12, Strategy::Symmetric, 16)
                .unwrap()
                .fingerprint(),
        );
        let mut tasks: Vec<_> = base.tasks().collect();
        tasks.swap(0, 1);
        seen.push(Plan::from_parts(12, Strategy::Symmetric, tasks.clone()).fingerprint());
        tasks.swap(0, 1);
        tasks[0].weight += 1;
        seen.push(Plan::from_parts(12, Strategy::Symmetric, tasks).fingerprint());
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
}
