//! What a character does on a screen, by its Unicode properties rather than
//! by lists (a list always misses one): names ([`crate::names`]) and chat
//! lines are checked with these classes.

use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// Combining marks allowed on one character: enough for any script (a
/// Vietnamese vowel takes two, an Indic syllable three or four), too few to
/// stack a tower over the lines around it.
pub const MAX_MARKS: usize = 4;

/// Whether a character draws nothing of its own yet changes the text around
/// it, or may draw anything: controls (escape sequences) and line or
/// paragraph separators (a second line), format characters (bidi controls
/// mirror a line, zero-width ones hide words, U+0600 or U+13430 join what is
/// around them), private-use and unassigned code points (no agreed glyph),
/// and the default-ignorable code points (the Hangul fillers, variation
/// selectors, the combining grapheme joiner).
pub fn hidden(c: char) -> bool {
    use GeneralCategory::{
        Control, Format, LineSeparator, ParagraphSeparator, PrivateUse, Surrogate, Unassigned,
    };
    matches!(
        c.general_category(),
        Control | Format | LineSeparator | ParagraphSeparator | PrivateUse | Surrogate | Unassigned
    ) || default_ignorable(c)
}

/// Whether each character of `text` is [`hidden`] where it stands. A
/// joiner between two emoji, and a variation selector or a tag character
/// right after one, are hidden characters that build one picture with the
/// emoji around them (👨‍👩‍👧, ❤️, ❤️‍🔥, a flag of Scotland): there they hide
/// nothing, and a name or chat line keeps them.
fn hidden_where_they_stand(text: &str) -> Vec<bool> {
    use unicode_properties::UnicodeEmoji;
    use unicode_properties::emoji::{
        is_emoji_presentation_selector, is_tag_character, is_text_presentation_selector, is_zwj,
    };
    // ASCII digits, '#' and '*' are emoji characters too (keycaps): not
    // ones a joiner may stand between.
    let emoji = |c: char| !c.is_ascii() && c.is_emoji_char();
    let chars: Vec<char> = text.chars().collect();
    let mut after_emoji = false;
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let glue = after_emoji
                && ((is_zwj(c) && chars.get(i + 1).is_some_and(|&n| emoji(n)))
                    || is_emoji_presentation_selector(c)
                    || is_text_presentation_selector(c)
                    || is_tag_character(c));
            after_emoji = emoji(c) || glue || (after_emoji && mark(c));
            hidden(c) && !glue
        })
        .collect()
}

/// Whether `text` holds a [`hidden`] character, an emoji's own joiners
/// and selectors aside.
pub fn has_hidden(text: &str) -> bool {
    hidden_where_they_stand(text).into_iter().any(|h| h)
}

/// `text` without its [`hidden`] characters, an emoji's own joiners and
/// selectors kept.
pub fn without_hidden(text: &str) -> String {
    text.chars()
        .zip(hidden_where_they_stand(text))
        .filter_map(|(c, hidden)| (!hidden).then_some(c))
        .collect()
}

/// Whether a character starts a new line (a control such as `\n`, or a
/// line or paragraph separator).
pub fn breaks_line(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::Control
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

/// Whether a character is a combining mark, drawn on the one before it.
pub fn mark(c: char) -> bool {
    c.general_category_group() == GeneralCategoryGroup::Mark
}

/// Whether a character leaves a mark of its own: not a space, not
/// [`hidden`], not a combining mark, and not the blank braille cell (a
/// symbol by category that prints as a space).
pub fn visible(c: char) -> bool {
    !(c.is_whitespace() || hidden(c) || mark(c) || c == '\u{2800}')
}

/// The text with no character carrying more than [`MAX_MARKS`] combining
/// marks: the extra ones are left out.
pub fn without_towers(text: &str) -> String {
    let mut marks = 0;
    text.chars()
        .filter(|&c| {
            marks = if mark(c) { marks + 1 } else { 0 };
            marks <= MAX_MARKS
        })
        .collect()
}

/// Whether some character of the text carries more than [`MAX_MARKS`]
/// combining marks.
pub fn has_tower(text: &str) -> bool {
    without_towers(text).len() != text.len()
}

/// A default-ignorable code point (Unicode's `Default_Ignorable_Code_Point`).
/// UTS 39's skeleton leaves out exactly these, so a character whose
/// skeleton is empty is one (the security crate keeps its table private).
fn default_ignorable(c: char) -> bool {
    unicode_security::skeleton(c.encode_utf8(&mut [0; 4]))
        .next()
        .is_none()
}

#[cfg(test)]
mod tests {
    use super::{breaks_line, has_tower, hidden, visible, without_towers};

    #[test]
    fn hidden_characters_are_found_by_their_properties() {
        for c in [
            '\u{1b}',
            '\u{85}',
            '\u{2028}',
            '\u{2029}',
            '\u{200B}',
            '\u{200D}',
            '\u{202E}',
            '\u{2066}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{034F}',
            '\u{115F}',
            '\u{3164}',
            '\u{FFA0}',
            '\u{FE0F}',
            '\u{E0100}',
            '\u{1D173}',
            '\u{13430}',
            '\u{0600}',
            '\u{E000}',
            '\u{0378}',
        ] {
            assert!(hidden(c), "{:X}", u32::from(c));
            assert!(!visible(c), "{:X}", u32::from(c));
        }
        for c in ['a', 'é', '李', '🎲', '(', '٣', 'ß', 'Ж'] {
            assert!(!hidden(c) && visible(c), "{c}");
        }
        assert!(!visible(' ') && !visible('\u{3000}') && !visible('\u{2800}'));
        assert!(!visible('\u{0301}') && !hidden('\u{0301}'));
        assert!(breaks_line('\n') && breaks_line('\u{2028}') && breaks_line('\u{2029}'));
        assert!(!breaks_line('\u{200B}') && !breaks_line(' '));
    }

    #[test]
    fn towers_of_marks_are_found_and_cut() {
        let tower = format!("a{}b", "\u{0301}".repeat(23));
        assert!(has_tower(&tower));
        assert_eq!(
            without_towers(&tower),
            format!("a{}b", "\u{0301}".repeat(4))
        );
        assert!(!has_tower("Nguyễn ñ हिन्दी"));
    }
}
