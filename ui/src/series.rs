//! How the command names a scaling series and shows its losses, alike in its tables and its
//! plot: a series' machine and label ([`Labels`]), the loss breakdown's parts as shown
//! ([`shown_loss`]) and as named in tables ([`loss_headings`]), and lists without
//! repeats ([`distinct`]).

use std::sync::OnceLock;

use nqueens::scaling::Loss;
use nqueens::scaling::series::Series;

use crate::escape;

/// What tables and legends call a series.
pub trait Labels {
    /// The machine in a few words: the CPU's name (without trademarks and clock) or, in an
    /// older result without it, its CPU counts; with the cores and SMT either way.
    fn machine(&self) -> String;

    /// The series' label in tables and legends: machine, kernel, strategy (and n); made text
    /// for a spreadsheet like every string read from a file ([`escape::field`]), since
    /// shortening the CPU's name may bring another character to its front.
    fn label(&self) -> String;
}

impl Labels for Series {
    fn machine(&self) -> String {
        let (logical, physical) = (self.machine.logical, self.machine.physical);
        let counts = if logical > physical {
            format!("{physical} cores, {logical} threads")
        } else {
            format!("{physical} cores")
        };
        match &self.run.cpu {
            Some(cpu) => format!("{}, {counts}", short_cpu(cpu)),
            None => format!("{counts}, CPU not recorded"),
        }
    }

    fn label(&self) -> String {
        let label = format!(
            "{}: {} kernel, {}, n = {}",
            self.machine(),
            self.kernel,
            self.strategy,
            self.n
        );
        escape::field(&label).into_owned()
    }
}

/// A CPU model name without the words that only make it longer: `Intel(R) Xeon(R) Gold 6338
/// CPU @ 2.00GHz` → `Intel Xeon Gold 6338`.
fn short_cpu(cpu: &str) -> String {
    let cpu = cpu.split(" @ ").next().unwrap_or(cpu);
    cpu.replace("(R)", "")
        .replace("(TM)", "")
        .replace("(tm)", "")
        .split_whitespace()
        .filter(|w| !matches!(*w, "CPU" | "Processor"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `items` without repeats, each where it first comes; linear in their number.
pub fn distinct<T: Eq + std::hash::Hash + Clone>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut seen = std::collections::HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(item.clone()))
        .collect()
}

/// The loss breakdown as the tables, the CSV and the plot show it: a part below 0 (where the
/// thread count did better than the one-thread run in it: timer noise) as 0, so that no gain
/// reads as a loss; with whether a part was. The saved study (JSON) keeps the measured parts,
/// which add up to `1 - efficiency`.
pub fn shown_loss(loss: Loss) -> (Loss, bool) {
    let mut shown = loss;
    let mut clipped = false;
    for part in [
        &mut shown.serial,
        &mut shown.imbalance,
        &mut shown.other_programs,
        &mut shown.slowdown,
        &mut shown.unexplained,
    ] {
        if *part < 0.0 {
            *part = 0.0;
            clipped = true;
        }
    }
    (shown, clipped)
}

/// Names made from each part of the loss breakdown's name ([`Loss::NAMES`]) by `name`, once per
/// list (`cell`) and kept for the program's life: the columns and headings of the rows that
/// show the breakdown, so that no part is spelled twice.
fn loss_names(
    cell: &'static OnceLock<[&'static str; 5]>,
    name: fn(usize, &str) -> String,
) -> [&'static str; 5] {
    *cell.get_or_init(|| {
        let mut names = [""; 5];
        for (i, (slot, part)) in names.iter_mut().zip(Loss::NAMES).enumerate() {
            *slot = Box::leak(name(i, part).into_boxed_str());
        }
        names
    })
}

/// The table headings of the loss breakdown: the parts' names in words (`other programs`),
/// the first after `lost: ` where `lost_first` (`lost: serial`).
pub fn loss_headings(lost_first: bool) -> [&'static str; 5] {
    static PLAIN: OnceLock<[&'static str; 5]> = OnceLock::new();
    static LOST: OnceLock<[&'static str; 5]> = OnceLock::new();
    match lost_first {
        false => loss_names(&PLAIN, |_, part| part.replace('_', " ")),
        true => loss_names(&LOST, |i, part| match i {
            0 => format!("lost: {}", part.replace('_', " ")),
            _ => part.replace('_', " "),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_names_lose_trademarks_and_clocks() {
        assert_eq!(
            short_cpu("Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz"),
            "Intel Xeon Gold 6338"
        );
        assert_eq!(
            short_cpu("AMD EPYC 9B14 96-Core Processor"),
            "AMD EPYC 9B14 96-Core"
        );
    }

    #[test]
    fn no_gain_is_shown_as_a_loss() {
        let mut loss = Loss::default();
        loss.serial = -0.003;
        loss.slowdown = 0.05;
        loss.unexplained = -0.0;
        let (shown, clipped) = shown_loss(loss);
        assert!(clipped);
        assert_eq!((shown.serial, shown.slowdown), (0.0, 0.05));
        assert_eq!(shown_loss(shown), (shown, false));
    }
}
