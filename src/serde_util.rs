//! The shapes of values that serde writes for the library's types, shared by their derives:
//! durations as seconds, plan fingerprints as 16 hex digits, and values written as their
//! `Display` text and read back with `FromStr` (a shard `3/8`, a task id `3.0.5`). They are the
//! shapes of the command's JSON output.

use std::fmt::Display;
use std::str::FromStr;
use std::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

/// A duration as fractional seconds (`f64`).
pub(crate) mod seconds {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let seconds = f64::deserialize(d)?;
        Duration::try_from_secs_f64(seconds)
            .map_err(|_| D::Error::custom(format!("{seconds} is not a number of seconds")))
    }
}

/// A plan fingerprint as 16 lowercase hex digits, as outputs and journal descriptions show it.
pub(crate) mod fingerprint {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(f: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{f:016x}"))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        if text.len() != 16 {
            return Err(D::Error::custom(format!(
                "'{text}' is not a fingerprint (16 hex digits)"
            )));
        }
        u64::from_str_radix(&text, 16)
            .map_err(|_| D::Error::custom(format!("'{text}' is not a fingerprint (16 hex digits)")))
    }
}

/// A value as its `Display` text, read back with `FromStr`.
pub(crate) mod text {
    use super::*;

    pub(crate) fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

/// `Serialize` and `Deserialize` for a type written as its `Display` text and read back with
/// `FromStr` (so a value read back is checked as parsing checks it).
macro_rules! as_text {
    ($type:ty) => {
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $crate::serde_util::text::serialize(self, s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::serde_util::text::deserialize(d)
            }
        }
    };
}
pub(crate) use as_text;
