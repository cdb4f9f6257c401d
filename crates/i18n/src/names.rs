//! One rule for players' names, wherever a name comes from (the terminal's
//! `--name`, a saved file, the web table): at most [`MAX_WIDTH`] columns on
//! a terminal (CJK and emoji count two), something visible, no character
//! [`crate::glyphs::hidden`] (controls, separators, bidi and other format
//! characters) and no tower of combining marks. A name a person chooses
//! ([`chosen_problem`]) also may not pass for what the front ends write
//! themselves: a bot's name ("Bot 3") or the "(you)" / "(tú)" after the
//! reader's own; "looks like" is judged on UTS 39 skeletons of the name's
//! NFKC form ([`look`]), so a Cyrillic "о", a superscript "²" or a "⁽" makes
//! no new name, and a bot's name is matched without its punctuation ("Bot-2").

use crate::glyphs::{has_hidden, has_tower, hidden, visible};
use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// The widest name, in terminal columns.
pub const MAX_WIDTH: usize = 16;

/// What is wrong with a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Nothing visible: empty or spaces only.
    Empty,
    /// Wider than [`MAX_WIDTH`] columns.
    TooWide,
    /// Holds a hidden character: a control (an escape sequence), a line
    /// separator, a bidi control or another invisible format character.
    Hidden,
    /// More combining marks on one character than any script needs.
    Marks,
    /// Looks like a bot's name ("Bot 3").
    BotName,
    /// Holds something that looks like "(you)" or "(tú)".
    You,
}

/// The name without the spaces around it (only true spaces: a line
/// separator or a control stays, for [`problem`] to refuse).
pub fn trimmed(name: &str) -> &str {
    name.trim_matches(|c: char| c.is_whitespace() && !hidden(c))
}

/// The name's problem, if it has one: the rule for every name shown (a
/// saved file's bots included). The name as given: trim it first.
pub fn problem(name: &str) -> Option<Problem> {
    if has_hidden(name) {
        Some(Problem::Hidden)
    } else if !name.chars().any(visible) {
        Some(Problem::Empty)
    } else if width(name) > MAX_WIDTH {
        Some(Problem::TooWide)
    } else if has_tower(name) {
        Some(Problem::Marks)
    } else {
        None
    }
}

/// The problem of a name a person chooses (`--name`, a seat at the web
/// table): [`problem`]'s, or that it passes for a bot's name or for the
/// "(you)" / "(tú)" written after the reader's own name.
pub fn chosen_problem(name: &str) -> Option<Problem> {
    problem(name).or_else(|| {
        let looks = look(name);
        if ["(you)", "(tú)"]
            .iter()
            .any(|you| looks.contains(&look(you)))
        {
            Some(Problem::You)
        } else if looks_like_a_bot(&looks) {
            Some(Problem::BotName)
        } else {
            None
        }
    })
}

/// What a name looks like: the UTS 39 skeleton of its NFKC form, in lower
/// case, without spaces. Two names that look alike ("Ann" and "Аnn" with a
/// Cyrillic "А", "Bot 1" and "bot l", "Bot 2" and "Bot ²" or "Bot ₂") have
/// the same look.
pub fn look(name: &str) -> String {
    let folded = name.nfkc().collect::<String>();
    let lower = unicode_security::skeleton(&folded)
        .collect::<String>()
        .to_lowercase();
    unicode_security::skeleton(&lower)
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// Whether a look is "bot" alone or followed by a number from 1 (each
/// digit as it looks: "Bot l0" passes for "Bot 10"), punctuation and
/// symbols left out ("Bot-2", "Bot 2.", "B.o.t 2").
fn looks_like_a_bot(looks: &str) -> bool {
    let looks: String = looks.chars().filter(|c| c.is_alphanumeric()).collect();
    let Some(number) = looks.strip_prefix(&look("bot")) else {
        return false;
    };
    let digits = look("0123456789");
    let mut rest = number.chars();
    match rest.next() {
        None => true,
        Some(first) => {
            first != digits.chars().next().unwrap_or('0')
                && digits.contains(first)
                && rest.all(|c| digits.contains(c))
        }
    }
}

/// Whether `name` is the word for "you" that a player who gave no name
/// goes by in the terminal ("You", "Tú": `term-you` standing alone, in any
/// language, as a game may be resumed in another): that name needs no
/// "(you)" after it, and inside a sentence it is "you", "tú".
pub fn is_you_word(name: &str) -> bool {
    crate::Lang::ALL
        .into_iter()
        .any(|lang| lang.t("you", &[("at", "start".into())]) == name)
}

/// The columns a text takes on a terminal: each grapheme cluster (a
/// letter with its accents, emoji joined into one picture: 👨‍👩‍👧) is one
/// cell of its display width, as the terminal's screen (ratatui) draws it.
pub fn width(text: &str) -> usize {
    text.graphemes(true).map(UnicodeWidthStr::width).sum()
}

/// The longest start of `text` that fits in `columns`, cut between grapheme
/// clusters (a wide one that would cross the edge is left out whole, and a
/// picture of joined emoji is never cut into its parts).
pub fn clip(text: &str, columns: usize) -> String {
    let mut used = 0;
    text.graphemes(true)
        .take_while(|g| {
            used += g.width();
            used <= columns
        })
        .collect()
}

/// `text` followed by the spaces that make it `columns` wide on a terminal
/// (a text already as wide or wider is left as it is): columns of names
/// line up whatever their scripts and emoji, where `format!("{:<n$}")`
/// counts characters.
pub fn pad(text: &str, columns: usize) -> String {
    let mut out = text.to_owned();
    out.push_str(&" ".repeat(columns.saturating_sub(width(text))));
    out
}

#[cfg(test)]
mod tests {
    use super::{Problem, chosen_problem, clip, is_you_word, look, pad, problem, trimmed, width};

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
    fn invisible_names_and_hidden_characters_are_refused() {
        assert_eq!(problem(""), Some(Problem::Empty));
        assert_eq!(problem("\u{2800}"), Some(Problem::Empty));
        assert_eq!(problem("\u{0301}\u{0301}"), Some(Problem::Empty));
        for hidden in [
            "\u{200B}\u{200B}",
            "\u{3164}",
            "ab\u{202E}cd",
            "a\u{2066}b",
            "a\u{1b}[31m",
            "Ann\u{2028}Bob",
            "\u{1D173}",
            "\u{13430}",
            "\u{0600}",
        ] {
            assert_eq!(problem(hidden), Some(Problem::Hidden), "{hidden:?}");
        }
        assert_eq!(
            problem(&format!("a{}", "\u{0301}".repeat(23))),
            Some(Problem::Marks)
        );
        assert_eq!(problem("Nguyễn"), None);
        // An emoji's own joiners and selectors build one picture: kept.
        for name in [
            "Mamá ❤\u{FE0F}",
            "👨\u{200D}👩\u{200D}👧 Ana",
            "❤\u{FE0F}\u{200D}🔥",
            "👍🏽",
        ] {
            assert_eq!(problem(name), None, "{name:?}");
        }
        for hidden in [
            "a\u{200D}b",
            "\u{200D}👍",
            "👍\u{200D}",
            "x\u{FE0F}",
            "1\u{200D}2",
        ] {
            assert_eq!(problem(hidden), Some(Problem::Hidden), "{hidden:?}");
        }
        assert_eq!(trimmed("  Ann \u{3000}"), "Ann");
        assert_eq!(trimmed("Ann\u{2029}"), "Ann\u{2029}");
    }

    /// Issue 31 pt 8: look-alikes of a bot's name or of "(you)" are refused
    /// for a chosen name; a saved file's bots keep their names.
    #[test]
    fn chosen_names_do_not_pass_for_a_bot_or_you() {
        for (name, why) in [
            ("Bot 4", Problem::BotName),
            ("bot4", Problem::BotName),
            ("BOT  12", Problem::BotName),
            ("Bot", Problem::BotName),
            ("B\u{043E}t 1", Problem::BotName),
            ("Bot l", Problem::BotName),
            ("Ann (you)", Problem::You),
            ("Ann (YOU)", Problem::You),
            ("Ann \u{FF08}you\u{FF09}", Problem::You),
            ("Ann (y\u{043E}u)", Problem::You),
            ("Ann (tú)", Problem::You),
        ] {
            assert_eq!(chosen_problem(name), Some(why), "{name:?}");
        }
        for name in [
            "Botany",
            "Bot 4 fan",
            "Boto",
            "Ann (yours)",
            "李雷",
            "Zoë",
            "Bot-any",
        ] {
            assert_eq!(chosen_problem(name), None, "{name:?}");
        }
        assert_eq!(problem("Bot 1"), None);
        assert_eq!(look("Ann"), look("\u{0410}nn"));
        assert_eq!(look("Ann 2"), look("Ann ²"));
        assert_eq!(look("Ann"), look("\u{FF21}nn"));
        assert_ne!(look("Ann"), look("Anna"));
    }

    /// Issue 49 pt 5: look-alikes that only NFKC folding or leaving out
    /// punctuation reveals.
    #[test]
    fn folded_and_punctuated_look_alikes_are_refused() {
        for (name, why) in [
            ("Bot \u{00B2}", Problem::BotName),
            ("Bot \u{2082}", Problem::BotName),
            ("Bot 2.", Problem::BotName),
            ("Bot-2", Problem::BotName),
            ("Bot_2", Problem::BotName),
            ("B.o.t 2", Problem::BotName),
            ("\u{FF22}ot 2", Problem::BotName),
            ("Ann \u{207D}you\u{207E}", Problem::You),
            ("Ann \u{208D}t\u{FA}\u{208E}", Problem::You),
        ] {
            assert_eq!(chosen_problem(name), Some(why), "{name:?}");
        }
    }

    #[test]
    fn the_word_for_you_is_known_in_every_language() {
        assert!(is_you_word("You") && is_you_word("Tú"));
        assert!(!is_you_word("you") && !is_you_word("Ann") && !is_you_word("Tu"));
    }

    #[test]
    fn clipping_keeps_wide_characters_whole() {
        assert_eq!(clip("漢字漢字", 5), "漢字");
        assert_eq!(width(&clip("漢字漢字漢字漢字", 10)), 10);
        assert_eq!(clip("Ann", 10), "Ann");
    }

    /// Issue 50: joined emoji are one picture of two columns, measured,
    /// cut and padded as the terminal draws them.
    #[test]
    fn joined_emoji_are_one_picture() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
        assert_eq!(width(family), 2);
        assert_eq!(width("\u{2764}\u{FE0F} Ana"), 6);
        assert_eq!(clip(&format!("{family}{family}"), 3), family);
        assert_eq!(clip(&format!("a{family}"), 2), "a");
        assert_eq!(clip("\u{2764}\u{FE0F}b", 1), "");
        assert_eq!(pad(&format!("{family} Ana"), 8), format!("{family} Ana  "));
        assert_eq!(pad("Ann", 2), "Ann");
    }
}
