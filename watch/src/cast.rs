//! `watch --cast FILE`: the full-screen view recorded as an asciinema v2 file.
//!
//! The format (<https://docs.asciinema.org/manual/asciicast/v2/>) is one JSON object per line:
//! a header (`version` 2, `width`, `height`, `timestamp`, `idle_time_limit`, `title`), then one
//! event per frame, `[seconds, "o", text]`, the text being exactly what was written to the
//! terminal then. A frame is what the view writes between two flushes. The file is written as
//! the frames are made ([`output::Stream`]): nothing but the frame being made is held.
//!
//! Two clocks time the frames. On a terminal ([`Recording::start`]) a frame is timed as it was
//! shown (pauses and steps back included), except after the search's end, where no wait
//! counts for more than [`AFTER_END_GAP`]: the time spent looking at the end before quitting
//! is not recorded; a player shortens any other wait to [`IDLE_TIME_LIMIT`]. Off-screen
//! ([`Recording::start_at_steps`]) the caller sets the time of each frame
//! ([`Recording::set_time`]), one step every 1/speed seconds. Either way the last event is the
//! last frame drawn: the cursor is shown again within it, not after a wait.

use std::io::{self, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;

use nqueens_ui::failure::Failure;
use nqueens_ui::output;

/// The longest wait recorded between two frames once the search has ended, in seconds.
pub const AFTER_END_GAP: f64 = 1.0;

/// The longest wait a player shows between two frames, in seconds (the header's
/// `idle_time_limit`): a pause on the terminal replays as at most this.
pub const IDLE_TIME_LIMIT: f64 = 3.0;

/// The most steps one recording drawn off-screen holds: `--limit 0` stops it there, and a
/// larger `--limit` is refused before the search starts. A step costs a few hundred bytes
/// (about 440 on the 80 x 24 view of the 8 x 8 board), so the file stays within a few tens of
/// MB; at 5 steps/s this is over five hours of replay.
pub const CAST_MAX_STEPS: u64 = 100_000;

/// How long a recording drawn off-screen lasts at most unless `--limit` says otherwise, in
/// seconds of replay (3000 steps at 5 steps/s: about 1.3 MB for the 8 x 8 board).
pub const DEFAULT_REPLAY_SECONDS: f64 = 600.0;

/// The steps a recording at `speed` holds at most: `max_steps` (`--limit`), where 0 means
/// [`CAST_MAX_STEPS`] and none [`DEFAULT_REPLAY_SECONDS`] of replay; a usage error where
/// `--limit` asks for more than a recording holds.
pub fn cast_steps(max_steps: Option<u64>, speed: f64) -> Result<u64, Failure> {
    match max_steps {
        None => Ok(((DEFAULT_REPLAY_SECONDS * speed).round() as u64).clamp(1, CAST_MAX_STEPS)),
        Some(0) => Ok(CAST_MAX_STEPS),
        Some(m) if m > CAST_MAX_STEPS => Err(Failure::Usage(format!(
            "--cast: a recording holds at most {CAST_MAX_STEPS} steps, not --limit {m} \
             (give --limit {CAST_MAX_STEPS} or less, or write the steps with --format json)"
        ))),
        Some(m) => Ok(m),
    }
}

/// What a replay starts with: the screen cleared and the cursor hidden, as the view does.
const START: &str = "\x1b[?25l\x1b[2J\x1b[H";

/// What a replay ends with: the colours reset and the cursor shown again.
const END: &str = "\x1b[0m\x1b[?25h";

/// How the frames are timed.
#[derive(Debug)]
enum Clock {
    /// The terminal's: the time shown, each wait after the search's end cut to
    /// [`AFTER_END_GAP`].
    Wall {
        /// When the view started.
        started: Instant,
        /// Real seconds since the start at the last frame.
        real: f64,
        /// The search has ended (and no other has started).
        ended: bool,
    },
    /// Set by the caller ([`Recording::set_time`]).
    Steps,
}

/// The recording: its header and frames written to a file as they are made.
pub struct Recording {
    /// The title of the replay.
    title: String,
    /// Where the file goes.
    out: Box<dyn Write>,
    /// How the frames are timed.
    clock: Clock,
    /// The time of the next frame, in seconds since the start.
    now: f64,
    /// The bytes written since the last flush.
    pending: Vec<u8>,
    /// The last frame, not yet written (off-screen, what is written at one time is one frame):
    /// seconds since the start, and the text.
    last: Option<(f64, String)>,
    /// The time of the last frame written or held.
    duration: f64,
    /// Finished: nothing more is recorded.
    finished: bool,
    /// The first error writing the file.
    error: Option<io::Error>,
}

impl Recording {
    /// An empty recording titled `title`, written to `out`.
    pub fn new(title: String, out: Box<dyn Write>) -> Recording {
        Recording {
            title,
            out,
            clock: Clock::Steps,
            now: 0.0,
            pending: Vec::new(),
            last: None,
            duration: 0.0,
            finished: false,
            error: None,
        }
    }

    /// Starts the clock on a `width × height` terminal, timing the frames as they are shown.
    pub fn start(&mut self, width: u16, height: u16) {
        self.begin(
            width,
            height,
            Clock::Wall {
                started: Instant::now(),
                real: 0.0,
                ended: false,
            },
        );
    }

    /// Starts a recording of a `width × height` view drawn off-screen, each frame at the time
    /// last given to [`Recording::set_time`].
    pub fn start_at_steps(&mut self, width: u16, height: u16) {
        self.begin(width, height, Clock::Steps);
    }

    /// Starts the recording: its header, and a replay that starts on a cleared screen with the
    /// cursor hidden.
    fn begin(&mut self, width: u16, height: u16, clock: Clock) {
        let timestamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let header = json!({
            "version": 2,
            "width": width,
            "height": height,
            "timestamp": timestamp,
            "idle_time_limit": IDLE_TIME_LIMIT,
            "title": self.title,
            "env": { "TERM": std::env::var("TERM").unwrap_or_default() },
        });
        self.put(format!("{header}\n").as_bytes());
        self.clock = clock;
        self.now = 0.0;
        self.last = Some((0.0, START.to_string()));
    }

    /// Writes `bytes` to the file, keeping the first error.
    fn put(&mut self, bytes: &[u8]) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(bytes)
        {
            self.error = Some(e);
        }
    }

    /// Writes the held frame.
    fn put_last(&mut self) {
        if let Some((time, data)) = self.last.take() {
            // Microseconds, as asciinema writes them.
            let time = (time * 1e6).round() / 1e6;
            let line = format!("{}\n", json!([time, "o", data]));
            self.put(line.as_bytes());
        }
    }

    /// Sets the time of the next frames, in seconds since the start (the off-screen clock).
    pub fn set_time(&mut self, seconds: f64) {
        self.now = seconds.max(self.now);
    }

    /// Says whether a search is running: after its end, waits are cut (the terminal's clock).
    pub fn set_searching(&mut self, searching: bool) {
        if let Clock::Wall { ended, .. } = &mut self.clock {
            *ended = !searching;
        }
    }

    /// Bytes written to the terminal.
    pub fn write(&mut self, bytes: &[u8]) {
        if !self.finished {
            self.pending.extend_from_slice(bytes);
        }
    }

    /// The end of a frame: what was written since the last one, timed now.
    pub fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        if let Clock::Wall {
            started,
            real,
            ended,
        } = &mut self.clock
        {
            let elapsed = started.elapsed().as_secs_f64();
            let mut gap = elapsed - *real;
            if *ended {
                gap = gap.min(AFTER_END_GAP);
            }
            *real = elapsed;
            self.now += gap.max(0.0);
        }
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        match &mut self.last {
            // Off-screen, what is written at one time is one frame (a draw may flush twice).
            Some((time, last)) if matches!(self.clock, Clock::Steps) && *time == self.now => {
                last.push_str(&text);
            }
            _ => {
                self.put_last();
                self.last = Some((self.now, text));
            }
        }
        self.duration = self.now;
    }

    /// The end of the view: the last frame, the cursor shown again within it, and everything
    /// written to the file (again: nothing).
    pub fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.flush();
        match &mut self.last {
            Some((_, text)) => text.push_str(END),
            None => self.last = Some((self.now, END.to_string())),
        }
        self.put_last();
        if self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.error = Some(e);
        }
        self.finished = true;
    }

    /// The time of the last frame, in seconds since the start.
    pub fn duration(&self) -> f64 {
        self.duration
    }

    /// Whether writing the file failed (what follows is not recorded).
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Ends the recording ([`Recording::finish`]) and gives the first error writing it, if
    /// any, as the command's failure naming the file at `path`.
    pub fn finish_into(&mut self, path: &std::path::Path) -> Result<(), Failure> {
        self.finish();
        match self.error.take() {
            Some(e) => Err(Failure::File(format!(
                "cannot write {}: {e}",
                path.display()
            ))),
            None => Ok(()),
        }
    }
}

/// A recording's file shared with the code that finishes it: [`Recording`] writes into one
/// handle, the command takes the [`output::Stream`] back from the other.
#[derive(Clone)]
pub struct Shared(pub std::rc::Rc<std::cell::RefCell<Option<output::Stream>>>);

impl Shared {
    /// A handle on `stream`.
    pub fn new(stream: output::Stream) -> Shared {
        Shared(std::rc::Rc::new(std::cell::RefCell::new(Some(stream))))
    }

    /// The stream, once the recording is done with it.
    pub fn take(&self) -> Option<output::Stream> {
        self.0.borrow_mut().take()
    }
}

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0.borrow_mut().as_mut() {
            Some(stream) => stream.write(buf),
            None => Err(io::Error::other("the recording is closed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.0.borrow_mut().as_mut() {
            Some(stream) => stream.flush(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file in memory.
    #[derive(Clone, Default)]
    struct Memory(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

    impl Write for Memory {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A recording written to memory.
    fn recording() -> (Recording, Memory) {
        let memory = Memory::default();
        (
            Recording::new("t".to_string(), Box::new(memory.clone())),
            memory,
        )
    }

    /// The events of a recording's file: time and text (the header checked).
    fn events(memory: &Memory) -> Vec<(f64, String)> {
        let text = String::from_utf8(memory.0.borrow().clone()).unwrap();
        let mut lines = text.lines();
        let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(header["version"], 2);
        assert_eq!(header["idle_time_limit"], IDLE_TIME_LIMIT);
        lines
            .map(|line| {
                let event: serde_json::Value = serde_json::from_str(line).unwrap();
                assert_eq!(event[1], "o");
                (
                    event[0].as_f64().unwrap(),
                    event[2].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn the_steps_of_a_recording_are_bounded() {
        assert_eq!(cast_steps(None, 5.0).unwrap(), 3000);
        assert_eq!(cast_steps(None, 0.1).unwrap(), 60);
        assert_eq!(cast_steps(None, 1000.0).unwrap(), CAST_MAX_STEPS);
        assert_eq!(cast_steps(Some(0), 5.0).unwrap(), CAST_MAX_STEPS);
        assert_eq!(cast_steps(Some(7), 5.0).unwrap(), 7);
        assert_eq!(
            cast_steps(Some(CAST_MAX_STEPS), 5.0).unwrap(),
            CAST_MAX_STEPS
        );
        for asked in [CAST_MAX_STEPS + 1, u64::MAX] {
            let err = cast_steps(Some(asked), 5.0).unwrap_err();
            assert!(matches!(err, Failure::Usage(_)), "{err:?}");
            assert!(err.to_string().contains(&asked.to_string()), "{err}");
        }
    }

    #[test]
    fn an_off_screen_recording_is_timed_by_its_steps_and_ends_with_its_last_frame() {
        let (mut recording, memory) = recording();
        recording.start_at_steps(100, 30);
        for (time, text) in [(0.0, "a"), (0.5, "b"), (1.0, "c")] {
            recording.set_time(time);
            recording.write(text.as_bytes());
            recording.flush();
        }
        // Written at the same time: one frame.
        recording.write(b"d");
        recording.flush();
        recording.finish();
        assert_eq!(recording.duration(), 1.0);
        // Finished: nothing more is recorded.
        recording.write(b"e");
        recording.flush();
        recording.finish();
        let events = events(&memory);
        assert_eq!(events.len(), 3);
        assert_eq!(events[0], (0.0, format!("{START}a")));
        assert_eq!(events[1], (0.5, "b".to_string()));
        // No event after the last frame: the cursor comes back within it.
        assert_eq!(events[2], (1.0, format!("cd{END}")));
    }

    #[test]
    fn after_the_search_a_wait_counts_for_at_most_the_gap() {
        let (mut recording, _memory) = recording();
        recording.start(80, 24);
        recording.set_searching(false);
        // A wait of 1.2 s after the end (simulated by moving the start back).
        if let Clock::Wall { started, .. } = &mut recording.clock {
            *started -= std::time::Duration::from_millis(1200);
        }
        recording.write(b"x");
        recording.flush();
        assert_eq!(recording.duration(), AFTER_END_GAP);
        // During a search the wait is kept as it was.
        recording.set_searching(true);
        if let Clock::Wall { started, .. } = &mut recording.clock {
            *started -= std::time::Duration::from_secs(5);
        }
        recording.write(b"y");
        recording.flush();
        assert!(recording.duration() >= AFTER_END_GAP + 5.0);
    }
}
