//! How much searching each plan does, and whether a different choice of the next row to fill
//! changes the ratio between the plans or saves the `symmetric` plan work. Counts search nodes
//! (queens placed), not time.
//!
//! A study run by hand, as a test left out of the suite (it prints tables):
//!
//!     NQUEENS_SEARCH_ORDER=N cargo test --release --lib search_order -- --ignored --nocapture
//!         (N in 5..=16; 15 takes seconds)
//!     NQUEENS_SEARCH_ORDER="--static N" cargo test --release --lib search_order -- --ignored --nocapture
//!         (N in 5..=32; 16 takes seconds, 17 minutes)
//!
//! Without the variable it studies n = 8 (a second).
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
//! With `N` alone, each is searched under five rules for the next row to fill, chosen at every
//! node: the kernels' rule (the topmost free row), the fewest free squares among the next 2, 3
//! or 4 free rows, and among all of them.
//!
//! With `--static`, only the `symmetric` tasks are searched, each under row orders fixed once
//! per task before its search ([`StaticOrder`]): top-down (the kernels), bottom-up, the rows the
//! pre-placed queens leave fewest squares first, from both ends toward the middle, and a block
//! of adjacent rows grown from the most constrained one. Each order's nodes are given with
//! their ratio to top-down, and so is the sum over the tasks of the fewest nodes any of the
//! orders gives each (a bound, in hindsight, on choosing among them per task).
//!
//! Every rule keeps the kernels' lookahead: a child with three or more free rows survives only
//! if its next three free rows (in the order the search takes them: topmost first for the
//! dynamic rules) each have a free square; the kernels count the last two rows in closed form,
//! so a child with fewer is never cut. Every total is checked against the known one, and the
//! `symmetric` nodes of the kernels' rule against those the depth-first kernel counts
//! ([`count_job`]): they are equal. The search here is a plain recursive one on absolute
//! diagonal masks (so any row can be filled next), written for clarity rather than speed.

use std::collections::HashMap;

use crate::engine::kernel::{InnerBoard, MAX_JOB_N, count_job};
use crate::engine::plan::symmetric::{Constellation, constellations, oriented_queens};

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

/// Every row of the widest board, topmost first.
const TOP_DOWN: [u32; 64] = {
    let mut rows = [0; 64];
    let mut r = 0;
    while r < 64 {
        rows[r] = r as u32;
        r += 1;
    }
    rows
};

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
    /// Candidate rows for the next queen: the first `window` free rows of the order.
    window: usize,
    /// Every row to fill, in the order the search takes them ([`TOP_DOWN`] for the dynamic
    /// rules, whose window slides over it).
    order: &'a [u32],
    blocked: &'a Blocked,
    /// Weight of a finished board, from the column of each row's queen; `None`: weight 1.
    leaf: Option<Leaf<'a>>,
}

impl Search<'_> {
    fn free(&self, b: &Board, r: u32) -> u64 {
        b.free(r) & !self.blocked[r as usize]
    }

    /// The free rows of `b` in the order the search takes them.
    fn sequence(&self, b: &Board) -> impl Iterator<Item = u32> + '_ {
        let free_rows = b.free_rows;
        self.order
            .iter()
            .copied()
            .filter(move |&r| free_rows >> r & 1 == 1)
    }

    /// The kernels' lookahead: whether `child` is searched further.
    fn survives(&self, child: &Board) -> bool {
        child.free_rows.count_ones() < 3
            || self
                .sequence(child)
                .take(3)
                .all(|r| self.free(child, r) != 0)
    }

    fn run(&self, b: &Board, placed: &mut [u32; 64], tally: &mut Tally) {
        if b.free_rows == 0 {
            tally.count += self.leaf.map_or(1, |leaf| leaf(&placed[..b.n as usize]));
            return;
        }
        let r = self
            .sequence(b)
            .take(self.window)
            .min_by_key(|&r| self.free(b, r).count_ones())
            .expect("a free row");
        let mut free = self.free(b, r);
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            let child = b.place(r, c);
            tally.nodes += 1;
            if self.survives(&child) {
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
        order: &TOP_DOWN,
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
        order: &TOP_DOWN,
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
            order: &TOP_DOWN,
            blocked: &blocked,
            leaf: Some(&leaf),
        };
        let t = search.count(n, &[(0, i)]);
        nodes += t.nodes;
        total += u128::from(t.count);
    }
    (nodes, total)
}

/// A row order fixed for each task before its search, from the squares its pre-placed queens
/// leave each free row.
#[derive(Clone, Copy)]
enum StaticOrder {
    /// Topmost first: the kernels' order.
    TopDown,
    /// Bottommost first: the board turned upside down, which the kernels could search as is.
    BottomUp,
    /// Fewest squares left by the pre-placed queens first; ties topmost first.
    FewestFirst,
    /// The topmost, the bottommost, the second topmost, the second bottommost, and so on.
    EndsInward,
    /// The free row with the fewest squares (ties: topmost), then a block grown one free row at
    /// a time from it, taking whichever of the free rows just above and just below the block
    /// has fewer squares (ties: the one above). Consecutive rows of the order stay close, so
    /// each queen's diagonals still cut the next rows.
    GrowFromFewest,
}

impl StaticOrder {
    const ALL: [StaticOrder; 5] = [
        StaticOrder::TopDown,
        StaticOrder::BottomUp,
        StaticOrder::FewestFirst,
        StaticOrder::EndsInward,
        StaticOrder::GrowFromFewest,
    ];

    fn name(self) -> &'static str {
        match self {
            StaticOrder::TopDown => "top-down (the kernels)",
            StaticOrder::BottomUp => "bottom-up",
            StaticOrder::FewestFirst => "fewest squares first",
            StaticOrder::EndsInward => "both ends toward the middle",
            StaticOrder::GrowFromFewest => "adjacent block from the fewest",
        }
    }

    /// The free rows of `b` (the pre-placed queens only) in this order.
    fn rows(self, b: &Board) -> Vec<u32> {
        let top_down: Vec<u32> = rows(b.free_rows).collect();
        let squares = |r: u32| b.free(r).count_ones();
        match self {
            StaticOrder::TopDown => top_down,
            StaticOrder::BottomUp => top_down.into_iter().rev().collect(),
            StaticOrder::FewestFirst => {
                let mut order = top_down;
                // A stable sort: ties stay topmost first.
                order.sort_by_key(|&r| squares(r));
                order
            }
            StaticOrder::EndsInward => {
                let (mut lo, mut hi) = (0, top_down.len());
                let mut order = Vec::with_capacity(hi);
                while lo < hi {
                    order.push(top_down[lo]);
                    lo += 1;
                    if lo < hi {
                        hi -= 1;
                        order.push(top_down[hi]);
                    }
                }
                order
            }
            StaticOrder::GrowFromFewest => {
                let Some(start) = (0..top_down.len()).min_by_key(|&a| squares(top_down[a])) else {
                    return top_down;
                };
                // The block is top_down[lo..hi].
                let (mut lo, mut hi) = (start, start + 1);
                let mut order = vec![top_down[start]];
                while order.len() < top_down.len() {
                    let above = lo.checked_sub(1).map(|a| top_down[a]);
                    let below = top_down.get(hi).copied();
                    let take_above = match (above, below) {
                        (Some(a), Some(b)) => squares(a) <= squares(b),
                        (a, _) => a.is_some(),
                    };
                    if take_above {
                        lo -= 1;
                        order.push(top_down[lo]);
                    } else {
                        order.push(top_down[hi]);
                        hi += 1;
                    }
                }
                order
            }
        }
    }
}

/// Nodes of each `symmetric` task, and the total, each task searched in `order`.
fn symmetric_static(
    n: u32,
    order: StaticOrder,
    classes: &[(Constellation, u64)],
) -> (Vec<u64>, u128) {
    let (mut nodes, mut total) = (Vec::with_capacity(classes.len()), 0);
    for (c, weight) in classes {
        let queens = oriented_queens(n, c);
        let rows = order.rows(&Board::new(n, &queens));
        let search = Search {
            window: 1,
            order: &rows,
            blocked: &[0; 64],
            leaf: None,
        };
        let t = search.count(n, &queens);
        nodes.push(t.nodes);
        total += u128::from(*weight) * u128::from(t.count);
    }
    (nodes, total)
}

/// Nodes and total of the `symmetric` tasks as the depth-first kernel counts them.
fn symmetric_kernel(n: u32, classes: &[(Constellation, u64)]) -> (u64, u128) {
    let (mut nodes, mut total) = (0, 0);
    for (c, weight) in classes {
        let board = InnerBoard::new(n, &oriented_queens(n, c)).expect("a valid constellation");
        total += u128::from(*weight) * u128::from(count_job::<true>(&board.job(), &mut nodes));
    }
    (nodes, total)
}

/// The table of `--static`: the `symmetric` tasks' nodes under each [`StaticOrder`].
fn static_orders(n: u32, known: u128) {
    let classes = constellations(n);
    let (kernel_nodes, kernel_total) = symmetric_kernel(n, &classes);
    assert_eq!(kernel_total, known, "n={n}, depth-first kernel");
    println!(
        "n = {n}: search nodes (queens placed) of the symmetric plan's {} tasks, by row order \
         fixed per task",
        classes.len()
    );
    println!("{:<34} {:>14} {:>12}", "row order", "nodes", "/ top-down");
    let row = |name: &str, nodes: u64| {
        let ratio = nodes as f64 / kernel_nodes as f64;
        println!("{name:<34} {nodes:>14} {ratio:>12.3}");
    };
    // The fewest nodes of each task under any of the orders: what choosing the order per task
    // could save at best, knowing the outcome.
    let mut best = vec![u64::MAX; classes.len()];
    for order in StaticOrder::ALL {
        let (nodes, total) = symmetric_static(n, order, &classes);
        let sum: u64 = nodes.iter().sum();
        assert_eq!(total, known, "n={n}, order {}: {sum} nodes", order.name());
        if let StaticOrder::TopDown = order {
            assert_eq!(sum, kernel_nodes, "n={n}: top-down against the kernel");
        }
        for (b, t) in best.iter_mut().zip(&nodes) {
            *b = (*b).min(*t);
        }
        row(order.name(), sum);
    }
    row("best of these per task (hindsight)", best.iter().sum());
    println!(
        "every count checked against the known total {known}; top-down nodes equal the \
         depth-first kernel's ({kernel_nodes})"
    );
}

#[test]
#[ignore = "a study run by hand: NQUEENS_SEARCH_ORDER=N, see the module documentation"]
fn search_order() {
    let asked = std::env::var("NQUEENS_SEARCH_ORDER").unwrap_or_else(|_| "8".to_string());
    let args: Vec<String> = asked.split_whitespace().map(str::to_string).collect();
    let (fixed, n) = match args.as_slice() {
        [n] => (false, n.parse().ok().filter(|n| (5..=16).contains(n))),
        [flag, n] if flag == "--static" => {
            (true, n.parse().ok().filter(|n| (5..=MAX_JOB_N).contains(n)))
        }
        _ => (false, None),
    };
    let Some(n) = n else {
        panic!("NQUEENS_SEARCH_ORDER: N (in 5..=16) or --static N (N in 5..={MAX_JOB_N})");
    };
    let known = crate::known::Known::of(n)
        .map(|k| k.total)
        .expect("a known total");
    if fixed {
        static_orders(n, known);
        return;
    }
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
        if window == 1 {
            let (kernel_nodes, _) = symmetric_kernel(n, &classes);
            assert_eq!(
                s, kernel_nodes,
                "n={n}: symmetric, topmost against the kernel"
            );
        }
        println!(
            "{rule:<30} {m:>12} {s:>12} {t:>12} {:>16.2}x",
            m as f64 / s as f64
        );
    }
    println!(
        "every count checked against the known total {known}; symmetric topmost-free nodes \
         equal the depth-first kernel's"
    );
}
