//! `watch --cast FILE`: the full-screen view recorded as an asciinema v2 file.
//!
//! The format (<https://docs.asciinema.org/manual/asciicast/v2/>) is one JSON object per line:
//! a header (`version` 2, `width`, `height`, `timestamp`, `title`), then one event per frame,
//! `[seconds, "o", text]`, the text being exactly what was written to the terminal then. A
//! frame is what the view writes between two flushes, timed as it was shown (pauses and steps
//! back included), so a replay (`asciinema play FILE`) shows the session as it was seen.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;

/// The frames written to the terminal so far, with their times.
#[derive(Debug)]
pub struct Recording {
    /// The title of the replay.
    title: String,
    /// The terminal's size at the start, in columns and lines.
    size: (u16, u16),
    /// When the view started (seconds since 1970) and its clock.
    started: (u64, Instant),
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
            started: (0, Instant::now()),
            pending: Vec::new(),
            frames: Vec::new(),
        }
    }

    /// Starts the clock on a `width × height` terminal: the replay starts on a cleared screen
    /// with the cursor hidden, as the view does.
    pub fn start(&mut self, width: u16, height: u16) {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.size = (width, height);
        self.started = (now, Instant::now());
        self.frames
            .push((0.0, "\x1b[?25l\x1b[2J\x1b[H".to_string()));
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
        let time = self.started.1.elapsed().as_secs_f64();
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        self.frames.push((time, text));
    }

    /// The end of the view: the last frame, and the cursor shown again.
    pub fn finish(&mut self) {
        self.flush();
        let time = self.started.1.elapsed().as_secs_f64();
        self.frames.push((time, "\x1b[?25h".to_string()));
    }

    /// The asciicast v2 file.
    pub fn to_asciicast(&self) -> String {
        let header = json!({
            "version": 2,
            "width": self.size.0,
            "height": self.size.1,
            "timestamp": self.started.0,
            "title": self.title,
            "env": { "TERM": std::env::var("TERM").unwrap_or_default() },
        });
        let mut text = format!("{header}\n");
        for (time, data) in &self.frames {
            // Microseconds, as asciinema writes them.
            let time = (time * 1e6).round() / 1e6;
            text.push_str(&json!([time, "o", data]).to_string());
            text.push('\n');
        }
        text
    }
}
