//! Text from outside the program, as the terminal, a table or a CSV file may show it.
//!
//! A path the user gave, a file name found on disk or a string read from a saved result may hold
//! anything: an escape sequence that retitles the window or clears the screen, a newline that
//! prints a fake line (`a\nnqueens: 92 solutions, all good.ckpt`), a bidirectional override
//! that shows `txt.exe` as `exe.txt`. Such text goes through [`text`] (or [`path`], [`os`])
//! before it reaches stderr, stdout, a table, a CSV file or a plot, and every unsafe character
//! ([`is_unsafe`]) is written out instead of sent:
//!
//! | character | shown as |
//! |---|---|
//! | ESC | `\e` |
//! | newline, carriage return, tab | `\n`, `\r`, `\t` |
//! | any other ASCII control and DEL | `\xNN` (`\x07`, `\x7F`) |
//! | a C1 control (U+0080 to U+009F), a bidirectional control, a line or paragraph separator | `\u{NNNN}` (`\u{9B}`, `\u{202E}`) |
//! | a byte of a path that is not UTF-8 | `\xNN` |
//!
//! Everything else, other Unicode letters and symbols included, is shown as it is. A backslash
//! is not doubled: the escapes are for reading, and no text shown this way is read back.
//!
//! [`field`] also keeps a spreadsheet from taking a string of a file for a formula.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::Path;

/// Whether `c` must not reach a terminal as it is: a control character (C0, DEL, C1), a
/// bidirectional control (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) or a
/// line or paragraph separator (U+2028, U+2029).
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// `text` with every unsafe character written out (see the [module](self)): ESC `]2;pwned`
/// BEL `.ckpt` is shown as `\e]2;pwned\x07.ckpt`. Borrowed when it has none.
pub fn text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push(&mut shown, c);
    }
    Cow::Owned(shown)
}

/// Appends `c` to `shown`, written out when it is unsafe.
fn push(shown: &mut String, c: char) {
    match c {
        '\u{1b}' => shown.push_str(r"\e"),
        '\n' => shown.push_str(r"\n"),
        '\r' => shown.push_str(r"\r"),
        '\t' => shown.push_str(r"\t"),
        c if c.is_ascii() && is_unsafe(c) => {
            let _ = write!(shown, r"\x{:02X}", u32::from(c));
        }
        c if is_unsafe(c) => {
            let _ = write!(shown, r"\u{{{:X}}}", u32::from(c));
        }
        c => shown.push(c),
    }
}

/// An argument or a name that need not be UTF-8: its valid parts as [`text`] shows them, each
/// byte that is not UTF-8 as `\xNN`.
pub fn os(name: &OsStr) -> String {
    let mut shown = String::new();
    for chunk in name.as_encoded_bytes().utf8_chunks() {
        for c in chunk.valid().chars() {
            push(&mut shown, c);
        }
        for byte in chunk.invalid() {
            let _ = write!(shown, r"\x{byte:02X}");
        }
    }
    shown
}

/// A path as [`os`] shows it.
pub fn path(path: &Path) -> String {
    os(path.as_os_str())
}

/// A string read from a file, as a cell of a table or of a CSV file: [`text`], and with a `'`
/// before it when it begins with `=`, `+`, `-` or `@`, so that a spreadsheet opening the CSV
/// shows it as text instead of running it as a formula (no name the tool writes itself begins
/// so: a CPU's name, a kernel, a strategy, a date).
pub fn field(field: &str) -> Cow<'_, str> {
    match text(field) {
        shown if shown.starts_with(['=', '+', '-', '@']) => Cow::Owned(format!("'{shown}")),
        shown => shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_written_out_and_the_rest_is_kept() {
        assert_eq!(
            text("\u{1b}]2;pwned\u{7}\u{1b}[2J.ckpt"),
            r"\e]2;pwned\x07\e[2J.ckpt"
        );
        assert_eq!(
            text("a\nnqueens: 92 solutions, all good.ckpt"),
            r"a\nnqueens: 92 solutions, all good.ckpt"
        );
        assert_eq!(text("\t\r\0\u{7f}"), r"\t\r\x00\x7F");
        assert_eq!(text("\u{9b}2J"), r"\u{9B}2J");
        assert_eq!(text("n16\u{202e}txt.exe"), r"n16\u{202E}txt.exe");
        assert_eq!(
            text("\u{2066}a\u{2069}\u{2028}"),
            r"\u{2066}a\u{2069}\u{2028}"
        );
        let kept = "Intel(R) Xeon(R) Gold 6338 @ 2.00GHz, ♛ é 中 C:\\x";
        assert!(matches!(text(kept), Cow::Borrowed(k) if k == kept));
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_is_not_utf8_shows_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let name = OsStr::from_bytes(b"n\xff\x1b[1m.ckpt");
        assert_eq!(os(name), r"n\xFF\e[1m.ckpt");
        assert_eq!(path(Path::new("runs/n12.ckpt")), "runs/n12.ckpt");
    }

    #[test]
    fn every_unsafe_character_is_escaped_into_printable_ascii() {
        for c in (0..=0x3000u32)
            .filter_map(char::from_u32)
            .filter(|&c| is_unsafe(c))
        {
            let shown = text(&c.to_string()).into_owned();
            assert!(shown.starts_with('\\'), "{c:?}");
            assert!(
                shown.chars().all(|c| c.is_ascii_graphic()),
                "{c:?}: {shown}"
            );
        }
    }

    #[test]
    fn a_field_that_a_spreadsheet_would_run_is_made_text() {
        assert_eq!(field("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        for formula in ["+1", "-1+2", "@SUM(A1)"] {
            assert_eq!(field(formula), format!("'{formula}"));
        }
        assert_eq!(field("AMD EPYC 9B14"), "AMD EPYC 9B14");
        assert_eq!(field("\u{1b}=1"), r"\e=1");
    }
}
