//! The Spanish catalogue against its style guide (`locales/es/GUIA.md`):
//! every Spanish message is read, and the forms the guide forbids fail
//! here with the message's id. The rules are checked on each message's
//! source (its text, selectors and placeables as written), so a form in a
//! rarely shown variant is caught as surely as one on every screen.

use tripoley_i18n::Lang;

/// One message as written: its file, its id and its whole source (the
/// first line after `id =` and every continuation line).
struct Source {
    file: &'static str,
    id: String,
    text: String,
}

/// A language's messages, from the `.ftl` files as written: a message
/// starts at an unindented `id =` line and goes on over the lines that are
/// indented or close a selector (`}`).
fn sources(lang: Lang) -> Vec<Source> {
    let mut out: Vec<Source> = Vec::new();
    for (file, text) in lang.files() {
        let mut open = false;
        for line in text.lines() {
            let continues = line.starts_with([' ', '}']) && !line.trim().is_empty();
            if open && continues {
                let last = out.last_mut().expect("an open message");
                last.text.push('\n');
                last.text.push_str(line);
            } else if let Some((id, value)) = line.split_once(" =")
                && id.starts_with(|c: char| c.is_ascii_lowercase())
                && !id.contains(' ')
            {
                out.push(Source {
                    file,
                    id: id.to_owned(),
                    text: value.trim_start().to_owned(),
                });
                open = true;
            } else {
                open = false;
            }
        }
    }
    assert!(out.len() > 300, "only {} {lang:?} messages read", out.len());
    out
}

/// The reading above finds every message Fluent finds, in each language:
/// a message it missed would pass every rule unread.
#[test]
fn every_message_is_read() {
    for lang in Lang::ALL {
        let mut fluent: Vec<String> = Vec::new();
        for (_, text) in lang.files() {
            let resource = fluent_syntax::parser::parse(*text).expect("a catalogue file parses");
            for entry in resource.body {
                if let fluent_syntax::ast::Entry::Message(m) = entry {
                    fluent.push(m.id.name.to_owned());
                }
            }
        }
        let read: Vec<String> = sources(lang).into_iter().map(|s| s.id).collect();
        assert_eq!(read, fluent, "{lang:?}");
    }
}

/// The words of a text, lowercase, split at anything but letters.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Each finding as "file id: what", for one failure listing them all.
fn check(rule: impl Fn(&Source) -> Option<String>) -> Vec<String> {
    sources(Lang::Es)
        .iter()
        .filter_map(|s| rule(s).map(|why| format!("{} {}: {why}\n  {}", s.file, s.id, s.text)))
        .collect()
}

fn assert_none(problems: &[String]) {
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// "coger" is vulgar in much of Latin America: a hand or a card is taken,
/// "tomar".
#[test]
fn nothing_is_cogido() {
    assert_none(&check(|s| {
        words(&s.text)
            .iter()
            .find(|w| w.starts_with("cog") || w.starts_with("cój") || w.starts_with("coj"))
            .map(|w| format!("{w:?}: say tomar"))
    }));
}

/// The ids of the messages that speak of quitting the program: their id
/// names it, or their English says "quit".
fn quitting() -> Vec<String> {
    sources(Lang::En)
        .into_iter()
        .filter(|s| {
            s.id.contains("quit")
                || s.id.contains("leave")
                || words(&s.text).contains(&"quit".to_owned())
        })
        .map(|s| s.id)
        .collect()
}

/// "salir" is leading a card; quitting the program is "terminar".
#[test]
fn salir_is_only_leading() {
    let quitting = quitting();
    assert!(quitting.len() >= 4, "{quitting:?}");
    assert_none(&check(|s| {
        (quitting.contains(&s.id)
            && words(&s.text)
                .iter()
                .any(|w| ["salir", "sal", "salgo", "sales", "sale"].contains(&w.as_str())))
        .then(|| "quitting is terminar, not salir".to_owned())
    }));
}

/// Where a capital "Tú" may stand: at a message's or a variant's start, or
/// after the end of a sentence or an opening ¿ or ¡.
fn starts_a_sentence(before: &str) -> bool {
    match before.trim_end().chars().next_back() {
        None => true,
        Some(c) => "=].!?¿¡".contains(c),
    }
}

/// "tú" is lowercase inside a sentence ("entre tú y Bot 3").
#[test]
fn tu_is_lowercase_inside_a_sentence() {
    assert_none(&check(|s| {
        s.text
            .match_indices("Tú")
            .find(|(at, _)| !starts_a_sentence(&s.text[..*at]))
            .map(|_| "a capital Tú inside a sentence".to_owned())
    }));
}

/// The articles that could stand before a card.
const ARTICLES: [&str; 9] = ["el", "la", "lo", "los", "las", "del", "al", "un", "una"];

/// A card written as its symbol takes no article: the message cannot know
/// its rank, and "el Q♠" is wrong for a queen.
#[test]
fn a_card_symbol_takes_no_article() {
    assert_none(&check(|s| {
        ARTICLES.iter().find_map(|a| {
            ["{ $card }", "{ $next }"]
                .iter()
                .find(|p| {
                    s.text
                        .match_indices(&format!("{a} {p}"))
                        .any(|(at, _)| !s.text[..at].ends_with(char::is_alphabetic))
                })
                .map(|p| format!("\"{a} {p}\": a card symbol takes no article"))
        })
    }));
}

/// A rank alone (`$low`, `$sequence`) chooses its article by the rank (a
/// selector on it: "la Q", "el 10"), and a rank letter never takes the
/// other gender's article: "el Q", "la K".
#[test]
fn ranks_take_their_own_article() {
    assert_none(&check(|s| {
        let w = words(&s.text.replace(['{', '}', '$'], " "));
        let wrong = w.windows(2).find(|p| {
            let (article, next) = (p[0].as_str(), p[1].as_str());
            (["el", "del", "al", "un"].contains(&article) && ["q", "j"].contains(&next))
                || (["la", "una"].contains(&article) && ["k", "a"].contains(&next))
                || (["el", "del", "al"].contains(&article)
                    && ["low", "sequence"].contains(&next)
                    && !s.text.contains(&format!("{{ ${next} ->")))
        });
        wrong.map(|p| format!("\"{} {}\": the article does not agree", p[0], p[1]))
    }));
}

/// "ya van 1": a verb agrees with its count.
#[test]
fn counts_agree_with_their_verbs() {
    for you in ["yes", "no"] {
        let text = Lang::Es.t(
            "tn-token",
            &[
                ("you", you.into()),
                ("who", "Bot 1".into()),
                ("tokens", 1.into()),
            ],
        );
        assert!(!text.contains("van 1"), "{text}");
        assert!(text.contains("1 punto"), "{text}");
    }
}

/// The rules text cites its rules by id; nothing else a player reads does,
/// nor names an option as the code spells it.
#[test]
fn no_rule_ids_or_option_names_outside_the_rules() {
    assert_none(&check(|s| {
        if s.file == "rules.ftl" {
            return None;
        }
        let text = strip_code(&s.text);
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .find(|w| is_rule_id(w) || (w.contains('_') && w.len() > 1))
            .map(|w| format!("{w:?} in a player's words"))
    }));
}

/// A message's text as shown: without variant keys (`[pay_suit]`) and
/// variables (`$to_you`), which are code.
fn strip_code(text: &str) -> String {
    let mut out = String::new();
    let mut key = false;
    for c in text.chars() {
        match c {
            '[' => key = true,
            ']' => key = false,
            _ if !key => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace()
        .filter(|w| !w.starts_with('$'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// "T5", "H5", "M9b": a rule's id in RULES.md.
fn is_rule_id(w: &str) -> bool {
    let mut c = w.chars();
    c.next().is_some_and(|f| "TDHPMEN".contains(f))
        && w.len() >= 2
        && w[1..].starts_with(|d: char| d.is_ascii_digit())
        && w[1..]
            .trim_end_matches(|l: char| l.is_ascii_lowercase())
            .chars()
            .all(|d| d.is_ascii_digit())
}
