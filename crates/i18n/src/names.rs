//! One rule for players' names, wherever a name comes from (the terminal's
//! `--name`, a saved file, the web table): at most [`MAX_WIDTH`] columns on
//! a terminal (CJK and emoji count two), something visible, no control
//! characters and no bidi controls (which would turn the text around them).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The widest name, in terminal columns.
pub const MAX_WIDTH: usize = 16;

/// What is wrong with a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Nothing visible: empty, spaces or invisible characters only.
    Invisible,
    /// Wider than [`MAX_WIDTH`] columns.
    TooWide,
    /// Holds a control character (an escape sequence) or a bidi control.
    Control,
}

/// The name's problem, if it has one (the name as given: trim it first).
pub fn problem(name: &str) -> Option<Problem> {
    if name.chars().any(|c| c.is_control() || is_bidi_control(c)) {
        Some(Problem::Control)
    } else if !name
        .chars()
        .any(|c| !c.is_whitespace() && c.width().unwrap_or(0) > 0)
    {
        Some(Problem::Invisible)
    } else if width(name) > MAX_WIDTH {
        Some(Problem::TooWide)
    } else {
        None
    }
}

/// The columns a text takes on a terminal.
pub fn width(text: &str) -> usize {
    text.width()
}

/// The longest start of `text` that fits in `columns` (a wide character
/// that would cross the edge is left out whole).
pub fn clip(text: &str, columns: usize) -> String {
    let mut used = 0;
    text.chars()
        .take_while(|c| {
            used += c.width().unwrap_or(0);
            used <= columns
        })
        .collect()
}

/// The bidi embeddings, overrides, isolates and marks (U+061C, U+200E,
/// U+200F, U+202A..U+202E, U+2066..U+2069).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::{Problem, clip, problem, width};

    #[test]
    fn names_are_measured_in_columns() {
        assert_eq!(problem("Ann"), None);
        assert_eq!(problem("漢字漢字漢字漢字"), None); // 16 columns
        assert_eq!(problem("漢字漢字漢字漢字漢"), Some(Problem::TooWide));
        assert_eq!(problem("🎲🎲🎲🎲🎲🎲🎲🎲🎲"), Some(Problem::TooWide));
        assert_eq!(problem("abcdefghijklmnop"), None);
        assert_eq!(problem("abcdefghijklmnopq"), Some(Problem::TooWide));
    }

    #[test]
    fn invisible_names_and_bidi_controls_are_refused() {
        assert_eq!(problem(""), Some(Problem::Invisible));
        assert_eq!(problem("\u{200B}\u{200B}"), Some(Problem::Invisible));
        assert_eq!(problem("\u{3164}"), Some(Problem::Invisible));
        assert_eq!(problem("ab\u{202E}cd"), Some(Problem::Control));
        assert_eq!(problem("a\u{2066}b"), Some(Problem::Control));
        assert_eq!(problem("a\u{1b}[31m"), Some(Problem::Control));
    }

    #[test]
    fn clipping_keeps_wide_characters_whole() {
        assert_eq!(clip("漢字漢字", 5), "漢字");
        assert_eq!(width(&clip("漢字漢字漢字漢字", 10)), 10);
        assert_eq!(clip("Ann", 10), "Ann");
    }
}
