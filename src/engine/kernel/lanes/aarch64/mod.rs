//! The aarch64 lane kernel: NEON (eight `u32` lanes in two registers, through the shared
//! driver), part of the baseline of every aarch64 CPU.

pub mod neon;
