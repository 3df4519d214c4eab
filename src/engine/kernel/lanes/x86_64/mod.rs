//! The x86-64 lane kernels, each detected at run time and run by the shared driver: AVX2 (eight
//! `u32` lanes) and AVX-512 (sixteen `u32` lanes).

pub mod avx2;
pub mod avx512;
