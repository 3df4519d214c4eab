//! One probe: a task drawn from its stratum, a random descent, an exact count of what is left.

use std::time::Instant;

use super::rng::SplitMix64;
use crate::engine::kernel::{InnerBoard, Selected, State, job::MAX_PLACED};
use crate::engine::plan::{Plan, Subproblem, Task};

/// What one probe measured, already divided by the probability of reaching it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    /// Index of the task drawn, in plan order.
    pub task: usize,
    /// `weight × count × B / p`: an unbiased estimate of the board's total.
    pub total: f64,
    /// `B / p`: what the probe's time is multiplied by to estimate the core-seconds of the
    /// whole plan.
    pub scale: f64,
    /// Seconds the exact count of the probe's subtree took by the wall clock (a monotonic
    /// clock read without a system call); the caller turns it into processor time with its
    /// thread's processor clock, read once for many probes.
    pub elapsed: f64,
}

/// Draws probes of one plan: tasks by inverse transform over their selection probabilities, then
/// a uniform descent to at most `free_rows` free rows.
#[derive(Clone, Debug)]
pub struct Sampler {
    n: u32,
    tasks: Vec<Task>,
    /// `cumulative[j]`: the selection probability of tasks `0..=j`; the last entry is exactly 1.
    cumulative: Vec<f64>,
    free_rows: u32,
    kernel: Selected,
}

/// A partial board the descent can extend one row at a time.
#[derive(Clone, Copy)]
enum Node {
    Inner(InnerBoard),
    Rows(State),
}

impl Sampler {
    /// A sampler of `plan` whose probes descend to at most `free_rows` free rows (never more
    /// queens than an [`InnerBoard`] holds) and count the rest with `kernel`. Each task is drawn
    /// with probability proportional to `size_hint + 1`.
    pub fn new(plan: Plan, free_rows: u32, kernel: Selected) -> Sampler {
        let sizes: Vec<f64> = plan
            .tasks()
            .iter()
            .map(|t| t.size_hint as f64 + 1.0)
            .collect();
        let sum: f64 = sizes.iter().sum();
        let mut running = 0.0;
        let mut cumulative: Vec<f64> = sizes
            .iter()
            .map(|s| {
                running += s;
                running / sum
            })
            .collect();
        if let Some(last) = cumulative.last_mut() {
            *last = 1.0;
        }
        let n = plan.n();
        Sampler {
            n,
            tasks: plan.into_tasks(),
            cumulative,
            free_rows: free_rows.max(n.saturating_sub(MAX_PLACED as u32)),
            kernel,
        }
    }

    /// The tasks sampled, in plan order.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The probability that a probe draws task `j`.
    pub fn probability(&self, j: usize) -> f64 {
        self.cumulative[j] - if j == 0 { 0.0 } else { self.cumulative[j - 1] }
    }

    /// The free rows a probe descends to.
    pub fn free_rows(&self) -> u32 {
        self.free_rows
    }

    /// Probe `index` of `samples` under `seed`: a uniform point of stratum `index` of
    /// `[0, 1)` cut into `samples` equal strata picks the task, then the descent.
    pub fn probe(&self, seed: u64, index: u64, samples: u64) -> Probe {
        let mut rng = SplitMix64::for_sample(seed, index);
        let u = (index as f64 + rng.next_f64()) / samples as f64;
        let j = self
            .cumulative
            .partition_point(|&c| c <= u)
            .min(self.tasks.len() - 1);
        let task = &self.tasks[j];
        let mut node = match task.subproblem {
            Subproblem::Inner(b) => Node::Inner(b),
            Subproblem::Rows(s) => Node::Rows(s),
        };
        let mut branches = 1.0f64;
        let mut dead = false;
        while self.free_of(&node) > self.free_rows {
            let free = match node {
                Node::Inner(b) => b.first_free_row().map_or(0, |(_, f)| f),
                Node::Rows(s) => s.free(self.n),
            };
            let b = free.count_ones();
            if b == 0 {
                dead = true;
                break;
            }
            let col = nth_bit(free, rng.below(u64::from(b)) as u32);
            node = match node {
                // `col` is free on the first row to fill; a board that cannot take it (more
                // queens than an inner board holds) ends the probe as a dead end.
                Node::Inner(board) => match board.place(col) {
                    Some(child) => Node::Inner(child),
                    None => {
                        dead = true;
                        break;
                    }
                },
                // `col` is a set bit of a 64-bit mask.
                Node::Rows(s) => Node::Rows(s.place(1u64 << col)),
            };
            branches *= f64::from(b);
        }
        let started = Instant::now();
        let count = if dead {
            0
        } else {
            match node {
                Node::Inner(b) => self.kernel.count_inner(&b, None),
                Node::Rows(s) => self.kernel.count_rows(self.n, s, None),
            }
            .expect("a count without a stop flag finishes")
        };
        let elapsed = started.elapsed().as_secs_f64();
        let scale = branches / self.probability(j);
        Probe {
            task: j,
            total: task.weight as f64 * count as f64 * scale,
            scale,
            elapsed,
        }
    }

    fn free_of(&self, node: &Node) -> u32 {
        match node {
            Node::Inner(b) => b.free_rows().count_ones(),
            Node::Rows(s) => self.n - s.row,
        }
    }
}

/// The column of the `k`-th set bit of `mask` (from 0, lowest first).
fn nth_bit(mut mask: u64, k: u32) -> u32 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_bit_counts_from_the_lowest() {
        assert_eq!(nth_bit(0b1011_0100, 0), 2);
        assert_eq!(nth_bit(0b1011_0100, 1), 4);
        assert_eq!(nth_bit(0b1011_0100, 3), 7);
    }
}
