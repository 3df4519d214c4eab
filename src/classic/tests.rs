//! The four algorithms against the known table, against a brute-force count of their work, and
//! against each other.

use super::*;
use crate::known;

/// Conflict-free placements of `d` queens on the first `d` rows of the `n × n` board, for every
/// `d` from 0 to `n`, by trying all `n^d` column tuples with no pruning at all.
fn partial_boards_by_depth(n: usize) -> Vec<u128> {
    let conflict_free = |cols: &[usize]| {
        (0..cols.len())
            .all(|i| (0..i).all(|j| cols[i] != cols[j] && cols[i].abs_diff(cols[j]) != i - j))
    };
    let mut by_depth = vec![0u128; n + 1];
    for (d, found) in by_depth.iter_mut().enumerate() {
        let mut cols = vec![0usize; d];
        loop {
            if conflict_free(&cols) {
                *found += 1;
            }
            // Next tuple, like an odometer; stop after the last one.
            let Some(i) = (0..d).rev().find(|&i| cols[i] + 1 < n) else {
                break;
            };
            cols[i] += 1;
            cols[i + 1..].fill(0);
        }
    }
    by_depth
}

/// The counters the definitions imply, from the brute-force partial boards.
fn expected(algorithm: Algorithm, n: usize) -> Counters {
    let p = partial_boards_by_depth(n);
    let width = n as u128;
    let extended = &p[..n]; // boards of 0..n queens get a further row examined
    let candidates = width * extended.iter().sum::<u128>();
    let column_free: u128 = extended
        .iter()
        .enumerate()
        .map(|(d, &count)| count * (width - d as u128))
        .sum();
    Counters {
        solutions: p[n],
        nodes: p[1..].iter().sum(),
        candidates,
        diagonal_checks: match algorithm {
            Algorithm::Array | Algorithm::Attack => column_free,
            Algorithm::Matrix | Algorithm::Bitmask => candidates,
        },
    }
}

#[test]
fn every_algorithm_matches_the_known_totals() {
    for algorithm in Algorithm::ALL {
        for n in 0..=10 {
            assert_eq!(
                Some(algorithm.count(n).unwrap()),
                known::Known::of(n).map(|k| k.total),
                "{algorithm} n={n}"
            );
        }
    }
}

#[test]
fn the_brute_force_reference_is_right_where_it_is_known_by_hand() {
    // n = 4: one empty board, 4 single queens, 6 non-attacking pairs, 4 triples, 2 solutions.
    assert_eq!(partial_boards_by_depth(4), [1, 4, 6, 4, 2]);
    assert_eq!(partial_boards_by_depth(1), [1, 1]);
    assert_eq!(partial_boards_by_depth(0), [1]);
}

#[test]
fn the_counters_match_a_brute_force_count_of_the_work() {
    for n in 0..=7u32 {
        for algorithm in Algorithm::ALL {
            let got = algorithm.count_instrumented(n).unwrap();
            assert_eq!(got, expected(algorithm, n as usize), "{algorithm} n={n}");
        }
    }
}

#[test]
fn the_counters_agree_across_algorithms_where_the_definitions_say_so() {
    for n in 0..=10u32 {
        let [matrix, array, attack, bitmask] =
            Algorithm::ALL.map(|a| a.count_instrumented(n).unwrap());
        for other in [array, attack, bitmask] {
            assert_eq!(matrix.solutions, other.solutions, "n={n}");
            assert_eq!(matrix.nodes, other.nodes, "n={n}");
            assert_eq!(matrix.candidates, other.candidates, "n={n}");
        }
        assert_eq!(array.diagonal_checks, attack.diagonal_checks, "n={n}");
        assert_eq!(matrix.diagonal_checks, matrix.candidates, "n={n}");
        assert_eq!(bitmask.diagonal_checks, bitmask.candidates, "n={n}");
        let width = u128::from(n);
        assert_eq!(
            bitmask.candidates,
            width * (1 + bitmask.nodes - bitmask.solutions),
            "n={n}"
        );
        if n > 1 {
            assert!(array.diagonal_checks < array.candidates, "n={n}");
        }
    }
}

#[test]
fn the_counters_are_identical_between_runs() {
    for algorithm in Algorithm::ALL {
        let first = algorithm.count_instrumented(9).unwrap();
        let second = algorithm.count_instrumented(9).unwrap();
        assert_eq!(first, second, "{algorithm}");
        assert_eq!(first.solutions, algorithm.count(9).unwrap(), "{algorithm}");
    }
}

#[test]
fn the_bitmask_search_matches_the_engine_kernel_beyond_the_table_test() {
    use crate::engine::kernel::State;
    for n in 11..=13 {
        assert_eq!(
            Algorithm::Bitmask.count(n).unwrap(),
            u128::from(State::EMPTY.completions(n).unwrap()),
            "n={n}"
        );
    }
}

#[test]
fn boards_wider_than_the_masks_are_refused() {
    for algorithm in Algorithm::ALL {
        assert!(matches!(
            algorithm.count(65),
            Err(Error::BoardTooLarge { n: 65 })
        ));
        assert!(algorithm.count_instrumented(65).is_err());
    }
}

#[test]
fn names_round_trip_through_the_command_line_spelling() {
    for algorithm in Algorithm::ALL {
        assert_eq!(algorithm.name().parse::<Algorithm>(), Ok(algorithm));
        assert_eq!(algorithm.to_string(), algorithm.name());
    }
    assert!("quantum".parse::<Algorithm>().is_err());
}

#[test]
fn the_no_op_probe_is_zero_sized() {
    assert_eq!(std::mem::size_of::<NoProbe>(), 0);
}

#[test]
fn each_module_counts_eight_queens_and_the_work_of_a_small_board() {
    for count in [
        matrix::count::<NoProbe>,
        array::count,
        attack::count,
        bitmask::count,
    ] {
        assert_eq!(count(8, &mut NoProbe), 92);
    }
    let work = |count: fn(u32, &mut Counters) -> u128, n| {
        let mut counters = Counters::default();
        (count(n, &mut counters), counters)
    };
    let (solutions, counters) = work(matrix::count, 5);
    assert_eq!(solutions, 10);
    assert_eq!(counters.nodes, 53);
    for count in [array::count, attack::count] {
        let (solutions, counters) = work(count, 4);
        assert_eq!(solutions, 2);
        assert_eq!(counters.diagonal_checks, 32);
    }
    let (solutions, counters) = work(bitmask::count, 4);
    assert_eq!(solutions, 2);
    assert_eq!(
        (
            counters.nodes,
            counters.candidates,
            counters.diagonal_checks
        ),
        (16, 60, 60)
    );
}

#[test]
fn an_observer_sees_every_queen_placed() {
    let mut counters = Counters::default();
    assert_eq!(search(Algorithm::Matrix, 6, &mut counters).unwrap(), 4);
    assert_eq!(counters.nodes, 152);
}

#[test]
fn nodes_are_exact_where_tabulated_and_grow_beyond() {
    assert_eq!(estimate::nodes(8), 2056.0);
    assert!(estimate::nodes(17) > 6.0 * estimate::nodes(16));
}

/// Every event of one search, in order.
#[derive(Default)]
struct Recorder(Vec<Event>);

impl Observer for Recorder {
    fn event(&mut self, event: Event) {
        self.0.push(event);
    }
}

fn events(algorithm: Algorithm, n: u32) -> Vec<Event> {
    let mut recorder = Recorder::default();
    algorithm.watch(n, &mut recorder).unwrap();
    recorder.0
}

/// Counts the work from every step, as `Counters` would if it asked for them: the bitmask
/// search's bulk reports must add up to the same.
#[derive(Default)]
struct StepCounter(Counters);

impl Observer for StepCounter {
    fn event(&mut self, event: Event) {
        self.0.event(event);
    }
}

#[test]
fn counting_the_events_gives_the_counters() {
    for n in 0..=8u32 {
        for algorithm in Algorithm::ALL {
            let mut steps = StepCounter::default();
            steps.0.solutions = algorithm.watch(n, &mut steps).unwrap();
            let counters = steps.0;
            let solution_events = events(algorithm, n)
                .iter()
                .filter(|e| **e == Event::Solution)
                .count();
            assert_eq!(
                solution_events as u128, counters.solutions,
                "{algorithm} n={n}"
            );
            assert_eq!(
                counters,
                algorithm.count_instrumented(n).unwrap(),
                "{algorithm} n={n}"
            );
        }
    }
}

#[test]
fn every_algorithm_tries_places_and_removes_in_the_same_order() {
    // Everything but the tests themselves: which diagonal tests happen and what a rejection names.
    let shape = |e: &Event| match *e {
        Event::DiagonalTest { .. } => None,
        Event::Reject { row, col, .. } => Some(format!("x{row},{col}")),
        other => Some(format!("{other:?}")),
    };
    for n in 1..=7 {
        let [matrix, array, attack, bitmask] =
            Algorithm::ALL.map(|a| events(a, n).iter().filter_map(shape).collect::<Vec<_>>());
        assert_eq!(matrix, array, "n={n}");
        assert_eq!(matrix, attack, "n={n}");
        assert_eq!(matrix, bitmask, "n={n}");
    }
}

#[test]
fn the_events_nest_and_every_rejection_names_a_real_attack() {
    for n in 1..=7 {
        for algorithm in Algorithm::ALL {
            let mut queens: Vec<usize> = Vec::new();
            let mut tried = None;
            for event in events(algorithm, n) {
                match event {
                    Event::Try { row, col } => {
                        assert_eq!(row, queens.len(), "{algorithm} n={n}");
                        tried = Some((row, col));
                    }
                    Event::DiagonalTest { row, col } => assert_eq!(tried, Some((row, col))),
                    Event::Reject { row, col, line, by } => {
                        assert_eq!(tried.take(), Some((row, col)));
                        let attacks = |(r, c): (usize, usize), line: Line| match line {
                            Line::Column => c == col,
                            Line::Diagonal => row - r == col.wrapping_sub(c),
                            Line::AntiDiagonal => r + c == row + col,
                        };
                        let attackers: Vec<_> = queens
                            .iter()
                            .enumerate()
                            .filter(|&(r, &c)| {
                                [Line::Column, Line::Diagonal, Line::AntiDiagonal]
                                    .into_iter()
                                    .any(|l| {
                                        line.is_none_or(|line| line == l) && attacks((r, c), l)
                                    })
                            })
                            .map(|(r, &c)| (r, c))
                            .collect();
                        assert!(
                            !attackers.is_empty(),
                            "{algorithm} n={n} {event:?} {queens:?}"
                        );
                        if let Some(by) = by {
                            assert!(attackers.contains(&by), "{algorithm} n={n} {event:?}");
                        }
                    }
                    Event::Place { row, col } => {
                        assert_eq!(tried.take(), Some((row, col)));
                        queens.push(col);
                    }
                    Event::Solution => assert_eq!(queens.len(), n as usize),
                    Event::Remove { row, col } => {
                        assert_eq!(queens.pop(), Some(col), "{algorithm} n={n}");
                        assert_eq!(queens.len(), row);
                    }
                }
            }
            assert!(queens.is_empty(), "{algorithm} n={n}");
        }
    }
}

#[test]
fn an_observer_can_stop_the_search() {
    /// Stops after `left` placements.
    struct Budget(u32);
    impl Observer for Budget {
        fn event(&mut self, event: Event) {
            if let Event::Place { .. } = event {
                self.0 = self.0.saturating_sub(1);
            }
        }
        fn stop(&self) -> bool {
            self.0 == 0
        }
    }
    for algorithm in Algorithm::ALL {
        assert_eq!(
            algorithm.watch(8, &mut Budget(5)).unwrap(),
            0,
            "{algorithm}"
        );
        assert_eq!(
            algorithm.watch(8, &mut Budget(u32::MAX)).unwrap(),
            92,
            "{algorithm}"
        );
    }
}
