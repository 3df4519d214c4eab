//! What the fuzz target `args` does with one input: a command line with the environment the
//! command reads, parsed and checked as the command does before any work. Built from the
//! command's own files: by the target (fuzz_targets/args.rs), and by the command's tests, which
//! replay the target's committed inputs (the tests below).

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use crate::args::{self, Command};

/// A command line and an environment (the variables the command reads before any work:
/// `NQUEENS_PROGRESS_SECONDS`, Slurm's `SLURM_ARRAY_*` for `count --shard slurm`, and the
/// `gpu` build's `NQUEENS_GPU_*`), from the input's bytes: `NAME=value` words before the
/// first byte 0x01, the arguments after it (or all words without one), words separated by NUL.
/// The program's name comes first.
fn command_line(data: &[u8]) -> (Vec<OsString>, Vec<(String, OsString)>) {
    let (env, argv) = match data.iter().position(|&b| b == 1) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&data[..0], data),
    };
    let words = |bytes: &[u8]| -> Vec<OsString> {
        if bytes.is_empty() {
            return Vec::new();
        }
        bytes
            .split(|&b| b == 0)
            .map(|w| OsString::from_vec(w.to_vec()))
            .collect()
    };
    let mut args = vec![OsString::from("nqueens")];
    args.extend(words(argv));
    let env = words(env)
        .into_iter()
        .filter_map(|word| {
            let word = word.into_vec();
            let at = word.iter().position(|&b| b == b'=')?;
            let name = String::from_utf8(word[..at].to_vec()).ok()?;
            Some((name, OsString::from_vec(word[at + 1..].to_vec())))
        })
        .collect();
    (args, env)
}

/// The command line's parse, then the checks the command makes before any work: a refusal as
/// its one line, the interval of the progress lines from `NQUEENS_PROGRESS_SECONDS` (where
/// `--progress-seconds` does not set it), the GPU's settings from `NQUEENS_GPU_*` (as the `gpu`
/// build reads them, without a GPU), the shard `--shard slurm` reads from Slurm's variables,
/// (the boards' drawing style against the format is checked by the parse). Nothing is counted.
pub fn args(data: &[u8]) {
    let (argv, env) = command_line(data);
    let var = |name: &str| {
        env.iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.clone())
    };
    let _ = args::color_choice(&argv);
    let cli = match args::parse(&argv) {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.render().to_string();
            let line = crate::usage::one_line(error, &argv);
            assert!(
                !line.contains('\n'),
                "a refusal in more than one line: {line:?}"
            );
            return;
        }
    };
    // The variable as `ProgressArgs::apply` reads it (the flag, where given, was checked by
    // its parser): within 0.1 s and a year, or refused in one line.
    match nqueens_ui::progress::parse_interval(var("NQUEENS_PROGRESS_SECONDS").as_deref()) {
        Ok(every) => assert!(every.as_secs_f64() >= 0.1 && every.as_secs() <= 31_536_000),
        Err(why) => assert!(
            !why.contains('\n'),
            "a refusal in more than one line: {why:?}"
        ),
    }
    // The GPU's variables as the `gpu` build reads them: understood, or refused in one line
    // that names the variable.
    match crate::gpu_env::read(var) {
        Ok(gpu) => {
            assert!(gpu.threads.is_none_or(|threads| threads > 0));
            assert!(
                gpu.adapter
                    .as_deref()
                    .is_none_or(|adapter| !adapter.is_empty() && adapter.trim() == adapter)
            );
        }
        Err(why) => assert!(
            why.starts_with("NQUEENS_GPU_") && !why.contains('\n'),
            "a refusal in more than one line, or of no variable: {why:?}"
        ),
    }
    if let Command::Count(count) = &cli.command
        && let Some(spec) = count.shard
    {
        let lookup = |name: &str| {
            var(name)
                .ok_or(std::env::VarError::NotPresent)?
                .into_string()
                .map_err(std::env::VarError::NotUnicode)
        };
        if let Ok(shard) = spec.resolve(lookup) {
            assert!(shard.index() < shard.count());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::fuzz_inputs::replay;

    #[test]
    fn the_args_targets_inputs_are_refused_or_parsed() {
        let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
        replay(&fuzz, "args", 10, args);
    }
}
