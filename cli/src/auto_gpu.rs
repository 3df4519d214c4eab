//! What `--kernel auto` chose for a board, said when it chose the GPU (feature `gpu`): the
//! kernel column says `gpu`, and a note on stderr says why, with the adapter and the crossover
//! of the library's rule (`nqueens::gpu::gpu_crossover`).

use nqueens::gpu::{AdapterInfo, gpu_crossover};

/// The note that `auto` sent the `n`-board, counted on `threads` threads (one of `shards`
/// shards, 1 for a whole count), to the GPU on `adapter`.
pub fn chose_gpu(n: u32, threads: usize, shards: u32, adapter: &AdapterInfo) -> String {
    let crossover = gpu_crossover(threads.saturating_mul(shards.max(1) as usize));
    let mut on = nqueens_ui::human::plural(threads, "thread");
    if shards > 1 {
        on = format!("{on} on 1 of {shards} shards");
    }
    format!(
        "nqueens: note: auto chose the GPU beside the CPU ({}, a {} adapter): n = {n} is at or \
         above the crossover n = {crossover} for {on}",
        adapter.name, adapter.kind
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter() -> AdapterInfo {
        AdapterInfo {
            index: 0,
            name: "NVIDIA H100 80GB HBM3".to_string(),
            kind: "discrete",
            backend: "vulkan".to_string(),
            driver: String::new(),
        }
    }

    #[test]
    fn the_note_names_the_adapter_and_the_crossover() {
        assert_eq!(
            chose_gpu(19, 16, 1, &adapter()),
            "nqueens: note: auto chose the GPU beside the CPU (NVIDIA H100 80GB HBM3, a discrete \
             adapter): n = 19 is at or above the crossover n = 19 for 16 threads"
        );
        assert!(chose_gpu(20, 64, 1, &adapter()).contains("crossover n = 20 for 64 threads"));
    }

    #[test]
    fn a_shard_weighs_the_threads_of_every_shard() {
        // Two threads cross at 18 for a whole board; an eighth of it weighs as 16 threads.
        let note = chose_gpu(19, 2, 8, &adapter());
        assert!(
            note.contains("crossover n = 19 for 2 threads on 1 of 8 shards"),
            "{note}"
        );
        assert!(chose_gpu(18, 2, 1, &adapter()).contains("crossover n = 18 for 2 threads"));
    }
}
