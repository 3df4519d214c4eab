//! The x86-64 lane kernels, each detected at run time: AVX2 (eight `u32` lanes, through the
//! shared driver) and AVX-512 (eight `u64` lanes over a 64-bit window, its own driver).

pub mod avx2;
pub mod avx512;
