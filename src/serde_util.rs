//! The shapes of values that serde writes for the library's types, shared by their derives:
//! durations as seconds, estimated counts as whole numbers, and values written as their
//! `Display` text and read back with `FromStr` (a shard `3/8`, a task id `3.0.5`, a plan
//! fingerprint as 16 hex digits). They are the shapes of the command's JSON output.

use std::fmt::Display;
use std::str::FromStr;
use std::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

/// A value of a type with a default, read as that default where it is `null` (a list saved as
/// `null`, say).
pub(crate) fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

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

    /// A duration that may be absent, as fractional seconds or `null`.
    pub(crate) mod optional {
        use super::*;

        pub(crate) fn serialize<S: Serializer>(
            d: &Option<Duration>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match d {
                Some(d) => s.serialize_some(&d.as_secs_f64()),
                None => s.serialize_none(),
            }
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Duration>, D::Error> {
            match Option::<f64>::deserialize(d)? {
                Some(seconds) => Duration::try_from_secs_f64(seconds)
                    .map(Some)
                    .map_err(|_| D::Error::custom(format!("{seconds} is not a number of seconds"))),
                None => Ok(None),
            }
        }
    }
}

/// An estimated count (`f64`) written as the whole number nearest it (`39650800059`, never
/// `3.96508e10`) up to 2^64, and read back from any number.
pub(crate) mod whole {
    use super::*;

    /// Values from 0 to below this (2^64) are written as whole numbers; others (beyond every
    /// JSON reader's integers) as the float nearest, rounded.
    const WHOLE_BELOW: f64 = 18_446_744_073_709_551_616.0;

    pub(crate) fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        let rounded = x.round();
        if (0.0..WHOLE_BELOW).contains(&rounded) {
            s.serialize_u64(rounded as u64)
        } else {
            s.serialize_f64(rounded)
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        f64::deserialize(d)
    }
}

/// A solution count (`u128`) read from any whole number, however the reader offers it: a record
/// flattened into another ([`crate::CountRun`]'s counts) is read through serde's buffer, which
/// holds numbers up to 64 bits and refuses to be read as `u128`. Every count a search can
/// finish fits in 64 bits (n = 27 totals about 2^58).
pub(crate) mod count {
    use super::*;

    /// A count, read by whichever of the visitor's number methods the reader calls.
    struct Whole(u128);

    impl<'de> Deserialize<'de> for Whole {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Whole, D::Error> {
            struct Visitor;
            impl serde::de::Visitor<'_> for Visitor {
                type Value = Whole;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a whole number of solutions")
                }
                fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Whole, E> {
                    Ok(Whole(u128::from(v)))
                }
                fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Whole, E> {
                    Ok(Whole(v))
                }
                fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Whole, E> {
                    u128::try_from(v)
                        .map(Whole)
                        .map_err(|_| E::custom(format!("{v} is not a number of solutions")))
                }
            }
            d.deserialize_any(Visitor)
        }
    }

    pub(crate) fn serialize<S: Serializer>(count: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u128(*count)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        Whole::deserialize(d).map(|w| w.0)
    }

    /// A count that may be `null`.
    pub(crate) mod optional {
        use super::*;

        pub(crate) fn serialize<S: Serializer>(
            count: &Option<u128>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match count {
                Some(count) => s.serialize_some(count),
                None => s.serialize_none(),
            }
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<u128>, D::Error> {
            Option::<Whole>::deserialize(d).map(|w| w.map(|w| w.0))
        }
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
        #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $crate::serde_util::text::serialize(self, s)
            }
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::serde_util::text::deserialize(d)
            }
        }
    };
}
pub(crate) use as_text;
