//! A command line and the variables the command reads, parsed and checked as the command does
//! before any work (cli/fuzz_entry/args.rs), built from the command's own files: its argument
//! definitions and the modules they use. The command is a binary without a library: its
//! modules are compiled here as they are there.
#![no_main]
#![allow(dead_code, unused_imports, unused_macros)]

#[macro_use]
#[path = "../../cli/src/args/mod.rs"]
mod args;
#[path = "../../cli/src/format/mod.rs"]
mod format;
#[path = "../../cli/src/gpu_env.rs"]
mod gpu_env;
#[path = "../../cli/src/names.rs"]
mod names;
#[path = "../../cli/src/placement.rs"]
mod placement;
#[path = "../../cli/src/render.rs"]
mod render;
#[path = "../../cli/src/usage.rs"]
mod usage;

#[path = "../../cli/fuzz_entry/args.rs"]
mod entry;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    entry::args(data);
});
