//! `watch --cast FILE`: the full-screen view recorded as an asciinema v2 file.
//!
//! The format (<https://docs.asciinema.org/manual/asciicast/v2/>) is one JSON object per line:
//! a header (`version` 2, `width`, `height`, `timestamp`, `title`), then one event per frame,
//! `[seconds, "o", text]`, the text being exactly what was written to the terminal then. A
//! frame is what the view writes between two flushes.
//!
//! Two clocks time the frames. On a terminal ([`Recording::start`]) a frame is timed as it was
//! shown (pauses and steps back included), except after the search's end, where no wait
//! counts for more than [`AFTER_END_GAP`]: the time spent looking at the end before quitting
//! is not recorded. Off-screen ([`Recording::start_at_steps`]) the caller sets the time of each
//! frame ([`Recording::set_time`]), one step every 1/speed seconds. Either way the last event
//! is the last frame drawn: the cursor is shown again within it, not after a wait.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;

/// The longest wait recorded between two frames once the search has ended, in seconds.
pub const AFTER_END_GAP: f64 = 1.0;

/// What a replay starts with: the screen cleared and the cursor hidden, as the view does.
const START: &str = "\x1b[?25l\x1b[2J\x1b[H";

/// What a replay ends with: the cursor shown again.
const END: &str = "\x1b[?25h";

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

/// The frames written to the terminal so far, with their times.
#[derive(Debug)]
pub struct Recording {
    /// The title of the replay.
    title: String,
    /// The terminal's size at the start, in columns and lines.
    size: (u16, u16),
    /// When the recording started, in seconds since 1970.
    timestamp: u64,
    /// How the frames are timed.
    clock: Clock,
    /// The time of the next frame, in seconds since the start.
    now: f64,
    /// The bytes written since the last flush.
    pending: Vec<u8>,
    /// The frames: seconds since the start, and the text written.
    frames: Vec<(f64, String)>,
}

impl Recording {
    /// An empty recording titled `title`.
    pub fn new(title: String) -> Recording {
        Recording {
            title,
            size: (80, 24),
            timestamp: 0,
            clock: Clock::Steps,
            now: 0.0,
            pending: Vec::new(),
            frames: Vec::new(),
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

    /// Starts the recording: the replay starts on a cleared screen with the cursor hidden.
    fn begin(&mut self, width: u16, height: u16, clock: Clock) {
        self.timestamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.size = (width, height);
        self.clock = clock;
        self.now = 0.0;
        self.frames.push((0.0, START.to_string()));
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
        self.pending.extend_from_slice(bytes);
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
        match self.frames.last_mut() {
            // Off-screen, what is written at one time is one frame (a draw flushes twice).
            Some((time, last)) if matches!(self.clock, Clock::Steps) && *time == self.now => {
                last.push_str(&text);
            }
            _ => self.frames.push((self.now, text)),
        }
    }

    /// The end of the view: the last frame, the cursor shown again within it.
    pub fn finish(&mut self) {
        self.flush();
        match self.frames.last_mut() {
            Some((_, text)) => text.push_str(END),
            None => self.frames.push((self.now, END.to_string())),
        }
    }

    /// The time of the last frame, in seconds since the start.
    pub fn duration(&self) -> f64 {
        self.frames.last().map_or(0.0, |&(time, _)| time)
    }

    /// The asciicast v2 file; the frames go into it, leaving the recording empty (a long one
    /// is not held twice).
    pub fn take_asciicast(&mut self) -> String {
        let header = json!({
            "version": 2,
            "width": self.size.0,
            "height": self.size.1,
            "timestamp": self.timestamp,
            "title": self.title,
            "env": { "TERM": std::env::var("TERM").unwrap_or_default() },
        });
        let mut text = format!("{header}\n");
        for (time, data) in std::mem::take(&mut self.frames) {
            // Microseconds, as asciinema writes them.
            let time = (time * 1e6).round() / 1e6;
            text.push_str(&json!([time, "o", data]).to_string());
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The events of `recording`'s file: time and text.
    fn events(recording: &mut Recording) -> Vec<(f64, String)> {
        recording
            .take_asciicast()
            .lines()
            .skip(1)
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
    fn an_off_screen_recording_is_timed_by_its_steps_and_ends_with_its_last_frame() {
        let mut recording = Recording::new("t".to_string());
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
        let events = events(&mut recording);
        assert_eq!(events.len(), 3);
        assert_eq!(events[0], (0.0, format!("{START}a")));
        assert_eq!(events[1], (0.5, "b".to_string()));
        // No event after the last frame: the cursor comes back within it.
        assert_eq!(events[2], (1.0, format!("cd{END}")));
    }

    #[test]
    fn after_the_search_a_wait_counts_for_at_most_the_gap() {
        let mut recording = Recording::new("t".to_string());
        recording.start(80, 24);
        recording.set_searching(false);
        // A wait of 1.2 s after the end (simulated by moving the start back).
        if let Clock::Wall { started, .. } = &mut recording.clock {
            *started -= std::time::Duration::from_millis(1200);
        }
        recording.write(b"x");
        recording.flush();
        recording.finish();
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
