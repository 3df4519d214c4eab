//! The arguments of `nqueens watch`.

use clap::Args;

use nqueens::classic::Algorithm;

use super::parse::{choice, parse_cast_size, parse_speed, parse_steps, parse_watch_n};

pub(super) const WATCH_EXAMPLES: &str = "Examples:\n  \
    nqueens watch                               the 8 x 8 board, full screen\n  \
    nqueens watch 6 -a bitmask --speed 2        slower, with the bitmask's masks\n  \
    nqueens watch 6 --cast lecture.cast         record the view (asciinema play replays it)\n  \
    nqueens watch 6 --cast w.cast --size 100x30 the same, drawn off-screen (no terminal)\n  \
    nqueens watch 6 --html watch6.html          a page that replays the search in a browser\n  \
    nqueens watch 5 --frames | less             every step as a text frame\n  \
    nqueens watch 8 --format json | jq .        every step as one JSON object\n\n\
    The JSON's integers stay far below 2^53, which jq before 1.7 rounds above (a count of n = 26\n\
    or more).\n\n\
    Keys: space pause/resume, right or n one step, left or b one step back, + and - speed\n\
    (0.1, 0.2, 0.5, 1, 2, 5, ... 1000 steps/s), s run to the next solution, a next algorithm,\n\
    r restart, ? help, Ctrl-Z suspend, q or Esc quit (Ctrl-C, SIGINT, SIGTERM, SIGHUP: exit\n\
    130; SIGQUIT: exit 131; the terminal is restored on every way out).\n\n\
    When standard output is not a terminal, the steps are written as text frames (--frames).";

/// Arguments of `nqueens watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Board size, 1 to 64.
    ///
    /// The full-screen view needs a terminal it fits in.
    #[arg(value_name = "N", default_value_t = 8, value_parser = parse_watch_n)]
    pub n: u32,
    /// The algorithm whose search is shown.
    #[arg(short, long = "algorithm", alias = "algorithms", value_name = "NAME",
          default_value_t = Algorithm::Array, value_parser = choice::<Algorithm>())]
    pub algorithm: Algorithm,
    /// Steps per second, 0.1 to 1000.
    ///
    /// 5 on the screen and the --html page by default; frames and JSON are written without
    /// waiting unless this is given.
    #[arg(long, value_name = "STEPS_PER_SECOND", value_parser = parse_speed)]
    pub speed: Option<f64>,
    /// Pause at every solution.
    ///
    /// On the full-screen view, space resumes; a recording without a terminal holds each
    /// solution 2 s longer.
    #[arg(long)]
    pub pause_on_solution: bool,
    /// Write every step as a text frame instead of the full-screen view.
    ///
    /// A frame holds the board, the narration, the data structure and the counters.
    #[arg(long, conflicts_with = "format")]
    pub frames: bool,
    /// Write every step as one JSON object per line.
    ///
    /// Each holds event, row, col, line, by and the counters nodes, candidates,
    /// diagonal_checks and solutions; a "done" line ends them.
    #[arg(short, long, value_name = "FORMAT", value_parser = ["json"])]
    pub format: Option<String>,
    /// Stop the frames, JSON, page or off-screen recording after this many steps.
    ///
    /// A count limit: what came before is kept. By default 100000; a recording: 10 minutes of
    /// replay (3000 steps at 5 steps/s). 0: never (a page stops at 1000000, a recording at
    /// 100000; more is refused). The 8 x 8 board takes 17868 steps with matrix, array and
    /// attack, 4204 with bitmask (a step per queen).
    #[arg(long = "limit", alias = "max-steps", value_name = "STEPS", value_parser = parse_steps)]
    pub max_steps: Option<u64>,
    /// Record the view as an asciinema v2 file (asciinema play FILE replays it).
    ///
    /// On a terminal: what is shown, keys and pauses included (after the search's end no wait
    /// counts for more than a second; a player shortens any wait to 3 s). Without one (or with
    /// --size): the view drawn off-screen, a step every 1/speed seconds (a solution held 2 s
    /// more with --pause-on-solution) up to --limit, without waiting; its last event is the
    /// search's end. Either way the file is written as the frames are made, each frame only
    /// what changed (a few hundred bytes a step), and replaces FILE at the end; an interrupt
    /// keeps what was recorded. Stderr says where it went, how long and how big.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["frames", "format", "html"])]
    pub cast: Option<std::path::PathBuf>,
    /// The size of the view recorded off-screen by --cast [default: 80x24].
    ///
    /// Columns by lines, 80 to 1000 x 24 to 400; the board must fit. Given on a terminal, it
    /// records off-screen too.
    #[arg(long, value_name = "COLSxROWS", requires = "cast", value_parser = parse_cast_size)]
    pub size: Option<(u16, u16)>,
    /// Write a self-contained HTML page that replays the search instead of showing it.
    ///
    /// The page has the board, data structure, narration and counters, with play, pause,
    /// step, back and speed; stderr says where it went and how big it is. It holds the steps as
    /// a few bytes each (the 12 x 12 board's first 100000: about 0.6 MB); at most 1000000:
    /// --limit 0 stops it there (saying so), a larger --limit is refused.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["frames", "format"])]
    pub html: Option<std::path::PathBuf>,
}
