//! How much searching each plan does, and whether a different choice of the next row to fill
//! changes the ratio between the plans. Counts search nodes (queens placed), not time.
//!
//!     cargo run --release --example search_order -- N      (N in 5..=16; 15 takes seconds)
//!
//! Three decompositions of the count of one board:
//!
//! * **mirror**: the first-row queen in the left half (and the middle column once);
//! * **symmetric**: the four border queens of each canonical constellation pre-placed, in the
//!   orientation the plan uses ([`oriented_queens`]);
//! * **top queen**: only the top-row queen pre-placed, as the border queen nearest a corner
//!   (the border squares nearer a corner are blocked in advance), every solution found checked
//!   at the end against the canonical constellations; corner classes as in `symmetric`.
//!
//! Each is searched under five rules for the next row to fill: the kernels' rule (the topmost
//! free row), the fewest free squares among the next 2, 3 or 4 free rows, and among all of them.
//! Every rule keeps the kernels' lookahead: a child survives only if its next three free rows
//! (topmost first) each have a free square. The search here is a plain recursive one on
//! absolute diagonal masks, written for clarity rather than speed.

use std::collections::HashMap;

use nqueens::engine::plan::symmetric::{Constellation, constellations, oriented_queens};

/// A partial board with absolute diagonal masks: square `(r, c)` is on diagonal `r + c` of
/// `sums` and `n − 1 − r + c` of `diffs`.
#[derive(Clone, Copy)]
struct Board {
    n: u32,
    cols: u64,
    sums: u64,
    diffs: u64,
    /// Rows still to fill.
    free_rows: u64,
}

impl Board {
    fn new(n: u32, queens: &[(u32, u32)]) -> Board {
        let empty = Board {
            n,
            cols: 0,
            sums: 0,
            diffs: 0,
            free_rows: (1u64 << n) - 1,
        };
        queens.iter().fold(empty, |b, &(r, c)| b.place(r, c))
    }

    fn free(&self, r: u32) -> u64 {
        let m = self.n - 1;
        !(self.cols | self.sums >> r | self.diffs >> (m - r)) & ((1u64 << self.n) - 1)
    }

    fn place(&self, r: u32, c: u32) -> Board {
        let m = self.n - 1;
        Board {
            cols: self.cols | 1 << c,
            sums: self.sums | 1 << (r + c),
            diffs: self.diffs | 1 << (m - r + c),
            free_rows: self.free_rows & !(1 << r),
            ..*self
        }
    }
}

/// Squares that may not hold a queen, one mask per row.
type Blocked = [u64; 64];

/// The rows to fill, topmost first.
fn rows(mut free_rows: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (free_rows != 0).then(|| {
            let r = free_rows.trailing_zeros();
            free_rows &= free_rows - 1;
            r
        })
    })
}

/// The weight of a finished board, from the column of each row's queen.
type Leaf<'a> = &'a dyn Fn(&[u32]) -> u64;

/// What one search found: nodes, and solutions (weighted by `leaf` where there is one).
#[derive(Default)]
struct Tally {
    nodes: u64,
    count: u64,
}

struct Search<'a> {
    /// Candidate rows for the next queen: the first `window` free rows.
    window: usize,
    blocked: &'a Blocked,
    /// Weight of a finished board, from the column of each row's queen; `None`: weight 1.
    leaf: Option<Leaf<'a>>,
}

impl Search<'_> {
    fn free(&self, b: &Board, r: u32) -> u64 {
        b.free(r) & !self.blocked[r as usize]
    }

    fn run(&self, b: &Board, placed: &mut [u32; 64], tally: &mut Tally) {
        if b.free_rows == 0 {
            tally.count += self.leaf.map_or(1, |leaf| leaf(&placed[..b.n as usize]));
            return;
        }
        let r = rows(b.free_rows)
            .take(self.window)
            .min_by_key(|&r| self.free(b, r).count_ones())
            .expect("a free row");
        let mut free = self.free(b, r);
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            let child = b.place(r, c);
            tally.nodes += 1;
            if rows(child.free_rows)
                .take(3)
                .all(|r2| self.free(&child, r2) != 0)
            {
                placed[r as usize] = c;
                self.run(&child, placed, tally);
            }
        }
    }

    /// Searches the `n`-board with `queens` pre-placed.
    fn count(&self, n: u32, queens: &[(u32, u32)]) -> Tally {
        let mut placed = [0u32; 64];
        for &(r, c) in queens {
            placed[r as usize] = c;
        }
        let mut tally = Tally::default();
        self.run(&Board::new(n, queens), &mut placed, &mut tally);
        tally
    }
}

/// Nodes and total of the `mirror` decomposition.
fn mirror(n: u32, window: usize) -> (u64, u128) {
    let (mut nodes, mut total) = (0, 0);
    let search = Search {
        window,
        blocked: &[0; 64],
        leaf: None,
    };
    for c in 0..n.div_ceil(2) {
        let weight = if n % 2 == 1 && c == n / 2 { 1 } else { 2 };
        let t = search.count(n, &[(0, c)]);
        nodes += 1 + t.nodes;
        total += weight * u128::from(t.count);
    }
    (nodes, total)
}

/// Nodes and total of the constellations of `classes`, searched as the `symmetric` plan does.
fn symmetric(n: u32, window: usize, classes: &[(Constellation, u64)]) -> (u64, u128) {
    let (mut nodes, mut total) = (0, 0);
    let search = Search {
        window,
        blocked: &[0; 64],
        leaf: None,
    };
    for (c, weight) in classes {
        let t = search.count(n, &oriented_queens(n, c));
        nodes += t.nodes;
        total += u128::from(*weight) * u128::from(t.count);
    }
    (nodes, total)
}

/// Nodes and total of the `top queen` decomposition (corner classes as in `symmetric`).
fn top_queen(n: u32, window: usize) -> (u64, u128) {
    let m = n - 1;
    let all = constellations(n);
    let corners: Vec<_> = all.iter().copied().filter(|(c, _)| c.is_corner()).collect();
    let weights: HashMap<Constellation, u64> = all.into_iter().collect();
    let (mut nodes, mut total) = symmetric(n, window, &corners);
    let leaf = |cols: &[u32]| -> u64 {
        let row_of = |col| (0..n).find(|&r| cols[r as usize] == col).expect("a queen");
        let c = Constellation {
            i: cols[0],
            j: cols[m as usize],
            k: row_of(0),
            l: row_of(m),
        };
        weights.get(&c).copied().unwrap_or(0)
    };
    for i in 1..=m / 2 {
        // The top queen is nearest a corner: no border queen closer than i to any corner.
        let mut blocked: Blocked = [0; 64];
        for r in (1..i).chain(m + 1 - i..=m) {
            blocked[r as usize] |= 1 | 1 << m;
        }
        for c in (0..i).chain(m + 1 - i..=m) {
            blocked[m as usize] |= 1 << c;
        }
        let search = Search {
            window,
            blocked: &blocked,
            leaf: Some(&leaf),
        };
        let t = search.count(n, &[(0, i)]);
        nodes += t.nodes;
        total += u128::from(t.count);
    }
    (nodes, total)
}

fn main() {
    let n: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        Some(Ok(n)) if (5..=16).contains(&n) => n,
        _ => {
            eprintln!("usage: search_order N   (N in 5..=16)");
            std::process::exit(2);
        }
    };
    let known = nqueens::known::total(n).expect("a known total");
    let classes = constellations(n);
    println!("n = {n}: search nodes (queens placed) by plan and rule for the next row");
    println!(
        "{:<30} {:>12} {:>12} {:>12} {:>17}",
        "next row", "mirror", "symmetric", "top queen", "mirror/symmetric"
    );
    for (rule, window) in [
        ("topmost free (the kernels)", 1),
        ("fewest squares of next 2", 2),
        ("fewest squares of next 3", 3),
        ("fewest squares of next 4", 4),
        ("fewest squares of all", usize::MAX),
    ] {
        let results = [
            mirror(n, window),
            symmetric(n, window, &classes),
            top_queen(n, window),
        ];
        for (nodes, total) in results {
            assert_eq!(total, known, "n={n}, rule {rule}: {nodes} nodes");
        }
        let [m, s, t] = results.map(|(nodes, _)| nodes);
        println!(
            "{rule:<30} {m:>12} {s:>12} {t:>12} {:>16.2}x",
            m as f64 / s as f64
        );
    }
    println!("every count checked against the known total {known}");
}
